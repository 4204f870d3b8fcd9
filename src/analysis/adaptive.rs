//! Samples spent where they tell (`samples = "auto"`): every cell is asked a few times
//! first, then each round asks again the cells whose readings are least certain, until every
//! watched brand's visibility pooled by model and by place is within the precision asked, or
//! every cell has had the most. Pure: counts in, the next round's asks out.
//!
//! A pool's visibility is the mean of its cells' shares, each cell weighing the same however
//! often it was asked (a cell asked more because it splits must not pull the pool toward
//! itself). Its 95 % half-width is ±1.96 × √(Σ p(1−p)/n) / k over its k cells, each cell's
//! share drawn one answer toward the pool's, so that three answers that agree are not read
//! as certain when the pool's others split; a pool whose every answer agrees takes the
//! Wilson interval of its answers together, as certain as that many answers make it and no
//! more. A cell whose answers agree with its pool adds
//! little and gets no more asks; one whose answers split (a brand named in half) adds the
//! most, and gets them. One cell's own interval stays wide however it is spent: ten answers,
//! five naming a brand, are 24–76 %.

use serde::Serialize;

use super::samples::Z95;

/// How many answers' worth a cell's share is drawn toward its pool's.
const PRIOR: f64 = 0.5;

/// How an automatic sample is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// The half-width, in whole percentage points, every pooled visibility is brought within.
    pub precision: u8,
    /// The asks of every cell in the first round.
    pub first: usize,
    /// The most asks of one cell.
    pub most: usize,
}

/// The precision asked when none is given: ±10 points.
pub const DEFAULT_PRECISION: u8 = 10;
/// The asks of every cell before any is read.
pub const FIRST_ASKS: usize = 3;
/// The most asks of one cell when none is given.
pub const DEFAULT_MOST: usize = 10;

impl Default for Plan {
    fn default() -> Plan {
        Plan {
            precision: DEFAULT_PRECISION,
            first: FIRST_ASKS,
            most: DEFAULT_MOST,
        }
    }
}

impl Plan {
    /// The one check of an automatic plan's numbers, wherever they are given.
    pub fn checked(precision: i64, most: usize) -> Result<Plan, String> {
        let Some(precision) = u8::try_from(precision)
            .ok()
            .filter(|p| (1..=50).contains(p))
        else {
            return Err(format!(
                "a precision of {precision} points: give 1 to 50 percentage points (10 is ±10)"
            ));
        };
        super::samples::check_samples(most).map_err(|_| {
            format!(
                "{most} at most: a cell can be asked {FIRST_ASKS} to {} times",
                super::samples::MAX_SAMPLES
            )
        })?;
        if most < FIRST_ASKS {
            return Err(format!(
                "{most} at most: every cell is asked {FIRST_ASKS} times first"
            ));
        }
        Ok(Plan {
            precision,
            first: FIRST_ASKS,
            most,
        })
    }
}

/// One cell's answers so far: how often it was answered and how many named each brand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CellCount {
    pub model: String,
    /// Empty when the service picks the device.
    pub device: String,
    pub place: String,
    pub answers: usize,
    /// Per watched brand, the answers naming it.
    pub named: Vec<usize>,
}

impl CellCount {
    /// Its share of answers naming brand `b`, drawn half an answer toward `pool` (a
    /// fraction).
    fn share(&self, b: usize, pool: f64) -> f64 {
        (self.named.get(b).copied().unwrap_or(0) as f64 + PRIOR * pool)
            / (self.answers as f64 + PRIOR)
    }

    /// Its part of a pool's variance (times k²) for brand `b`.
    fn variance(&self, b: usize, pool: f64) -> f64 {
        let p = self.share(b, pool);
        p * (1.0 - p) / self.answers.max(1) as f64
    }
}

/// Which cells a pool takes: one model's, one place's, or one device's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "by", content = "name", rename_all = "snake_case")]
pub enum Pool {
    Model(String),
    Place(String),
    Device(String),
}

impl Pool {
    /// Whether `cell` is one of the pool's.
    pub fn takes(&self, cell: &CellCount) -> bool {
        match self {
            Pool::Model(m) => &cell.model == m,
            Pool::Place(p) => &cell.place == p,
            Pool::Device(d) => &cell.device == d,
        }
    }

    /// "by chatgpt", "at US/–/Denver", "on iPhone 15".
    pub fn text(&self) -> String {
        match self {
            Pool::Model(m) => format!("by {m}"),
            Pool::Place(p) => format!("at {p}"),
            Pool::Device(d) => format!("on {d}"),
        }
    }
}

/// A brand's visibility pooled over some cells, in percent, with its half-width.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pooled {
    pub brand: usize,
    pub pool: Pool,
    /// The mean of the cells' raw shares, in percent.
    pub visibility: f64,
    /// The 95 % half-width, in percentage points.
    pub half: f64,
    pub cells: usize,
    pub answers: usize,
}

/// Every pool of `cells`: each model's, each place's and each device named's, models first,
/// in first-seen order.
pub fn pools(cells: &[CellCount]) -> Vec<Pool> {
    let mut pools: Vec<Pool> = Vec::new();
    let mut add = |pool: Pool| {
        if !pools.contains(&pool) {
            pools.push(pool);
        }
    };
    cells.iter().for_each(|c| add(Pool::Model(c.model.clone())));
    cells.iter().for_each(|c| add(Pool::Place(c.place.clone())));
    cells
        .iter()
        .filter(|c| !c.device.is_empty())
        .for_each(|c| add(Pool::Device(c.device.clone())));
    pools
}

/// Brand `b` over the cells `pool` takes (none when it takes no answered cell).
pub fn pooled(cells: &[CellCount], b: usize, pool: &Pool) -> Option<Pooled> {
    let taken: Vec<&CellCount> = cells
        .iter()
        .filter(|c| pool.takes(c) && c.answers > 0)
        .collect();
    if taken.is_empty() {
        return None;
    }
    let k = taken.len() as f64;
    let mean = taken
        .iter()
        .map(|c| c.named.get(b).copied().unwrap_or(0) as f64 / c.answers as f64)
        .sum::<f64>()
        / k;
    let variance: f64 = taken.iter().map(|c| c.variance(b, mean)).sum::<f64>() / (k * k);
    let answers: usize = taken.iter().map(|c| c.answers).sum();
    let named: usize = taken
        .iter()
        .map(|c| c.named.get(b).copied().unwrap_or(0).min(c.answers))
        .sum();
    // A pool whose every answer agrees is as certain as that many answers make it: the
    // Wilson interval of its answers taken together, not the nothing its cells' spread says.
    let stratified = Z95 * variance.sqrt() * 100.0;
    let half = if named == 0 || named == answers {
        let (low, high) = super::samples::wilson(named, answers);
        stratified.max((high - low) / 2.0)
    } else {
        stratified
    };
    Some(Pooled {
        brand: b,
        pool: pool.clone(),
        visibility: mean * 100.0,
        half,
        cells: taken.len(),
        answers,
    })
}

/// Every brand in every pool, widest interval first.
pub fn roll_up(cells: &[CellCount], brands: usize) -> Vec<Pooled> {
    let mut all: Vec<Pooled> = pools(cells)
        .iter()
        .flat_map(|pool| (0..brands).filter_map(|b| pooled(cells, b, pool)))
        .collect();
    all.sort_by(|a, b| b.half.total_cmp(&a.half));
    all
}

/// The widest pooled interval of any brand: what the precision is held against.
pub fn widest(cells: &[CellCount], brands: usize) -> Option<Pooled> {
    roll_up(cells, brands).into_iter().next()
}

/// The next round's asks, one number per cell (0 for most): the cells in a pool still wider
/// than the precision, by how much one more answer would narrow the pools that need it,
/// those within a quarter of the best taking one more each. Empty (all 0) when every pool is
/// within the precision or no cell may be asked again.
pub fn next_round(cells: &[CellCount], brands: usize, plan: &Plan) -> Vec<usize> {
    let open: Vec<Pooled> = roll_up(cells, brands)
        .into_iter()
        .filter(|p| p.half > f64::from(plan.precision))
        .collect();
    let gain: Vec<f64> = cells
        .iter()
        .map(|cell| {
            if cell.answers >= plan.most || cell.answers == 0 {
                return 0.0;
            }
            // Weighed by how much of its variance each open pool must still shed: the
            // widest pools, which bind, steer the asks.
            open.iter()
                .filter(|p| p.pool.takes(cell))
                .map(|p| {
                    let before = cell.variance(p.brand, p.visibility / 100.0);
                    let after = before * cell.answers as f64 / (cell.answers + 1) as f64;
                    let precision = f64::from(plan.precision);
                    let to_shed = 1.0 - (precision * precision) / (p.half * p.half);
                    to_shed * (before - after) / (p.cells * p.cells) as f64
                })
                .sum()
        })
        .collect();
    let best = gain.iter().copied().fold(0.0f64, f64::max);
    gain.iter()
        .map(|&g| usize::from(best > 0.0 && g >= best / 2.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(model: &str, place: &str, answers: usize, named: &[usize]) -> CellCount {
        CellCount {
            model: model.to_string(),
            device: String::new(),
            place: place.to_string(),
            answers,
            named: named.to_vec(),
        }
    }

    #[test]
    fn a_cell_that_splits_is_asked_again_and_one_that_agrees_is_not() {
        let cells: Vec<CellCount> = [3, 3, 3, 3, 1, 2]
            .iter()
            .enumerate()
            .map(|(i, named)| cell("chatgpt", &format!("P{i}"), 3, &[*named]))
            .collect();
        let plan = Plan::default();
        let next = next_round(&cells, 1, &plan);
        assert_eq!(next, [0, 0, 0, 0, 1, 1], "the split cells get the asks");
        // At the most, nothing more.
        let full: Vec<CellCount> = cells
            .iter()
            .map(|c| CellCount {
                answers: 10,
                ..c.clone()
            })
            .collect();
        assert!(next_round(&full, 1, &plan).iter().all(|n| *n == 0));
    }

    #[test]
    fn a_pool_is_the_mean_of_its_cells_whatever_their_asks() {
        let cells = vec![
            cell("chatgpt", "US", 10, &[5]),
            cell("chatgpt", "DE", 3, &[3]),
        ];
        let pool = pooled(&cells, 0, &Pool::Model("chatgpt".into())).unwrap();
        assert!((pool.visibility - 75.0).abs() < 1e-9, "{pool:?}");
        assert_eq!((pool.cells, pool.answers), (2, 13));
        assert!(pool.half > 10.0, "two cells are not enough: {pool:?}");
        // Many agreeing cells are precise.
        let agree: Vec<CellCount> = (0..12)
            .map(|i| cell("chatgpt", &format!("P{i}"), 3, &[3]))
            .collect();
        let pool = pooled(&agree, 0, &Pool::Model("chatgpt".into())).unwrap();
        assert!(pool.half < 10.0, "{pool:?}");
        assert!(
            next_round(&agree, 1, &Plan::default())
                .iter()
                .all(|n| *n == 0)
        );
    }

    #[test]
    fn plans_are_checked_once() {
        assert!(Plan::checked(10, 10).is_ok());
        assert!(Plan::checked(0, 10).is_err());
        assert!(Plan::checked(10, 2).is_err());
        assert!(Plan::checked(10, 21).is_err());
    }
}
