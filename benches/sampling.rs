//! Part 27: samples spent where they tell. On the simulator, a set of 4 prompts × 4 models ×
//! 3 places read for the field's first 4 brands, then all 7: `samples = "auto"` (±10
//! points, at most 10 a cell) against
//! the smallest fixed `samples = N` whose pooled intervals (each brand by model and by
//! place) all reach ±10. Every cell is asked 10 times afresh once, over HTTP, and read as a
//! run reads it; the n-th fresh answer of a cell is the simulator's n-th, so asking N times
//! is taking a cell's first N, and the automatic rounds take them in turn. Prints both
//! ways' credits and widest pooled intervals, and the answers one at a time to the cell that
//! narrows the widest pool most would take (what no batch of asks beats by much: how far the
//! rounds are from the best these answers allow), then times a whole automatic plan (every
//! round chosen from the readings).

// A benchmark builds its own data: a panic is the right answer to a broken one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use vantage::analysis::adaptive::{self, CellCount, Plan};
use vantage::analysis::mentions::Brand;
use vantage::api::{AiRequest, Client, ClientSettings, Model, secret::Secret};
use vantage::present::answer::prepare;
use vantage::present::compare::mentions::answer_mentions;
use vantage::sim::{SimConfig, Simulator};

const PROMPTS: [&str; 4] = [
    "best hiking boots",
    "waterproof hiking boots",
    "hiking boots for wide feet",
    "lightweight hiking boots for women",
];
const PLACES: [&str; 3] = ["us", "de", "gb"];
const BRANDS: [&str; 7] = [
    "Salomon",
    "Merrell",
    "La Sportiva",
    "Lowa",
    "Hoka",
    "Keen",
    "Scarpa",
];
const MOST: usize = 10;
/// Credits of one answer, by the price table.
const ANSWER: u64 = 5;

/// One cell: its model and place, and per fresh answer (in order) which brands it named.
struct Cell {
    model: String,
    place: String,
    answers: Vec<Vec<bool>>,
}

impl Cell {
    /// Its first `n` answers, read for the first `brands` brands.
    fn first(&self, n: usize, brands: usize) -> CellCount {
        let taken = &self.answers[..n.min(self.answers.len())];
        CellCount {
            model: self.model.clone(),
            device: String::new(),
            place: self.place.clone(),
            answers: taken.len(),
            named: (0..brands)
                .map(|b| taken.iter().filter(|a| a[b]).count())
                .collect(),
        }
    }
}

fn ask_every_cell() -> Vec<Cell> {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let sim = Simulator::start(SimConfig {
            credits: 1_000_000,
            latency_scale: 0.0,
            job_fail_share: 0.0,
            ..SimConfig::default()
        })
        .await
        .unwrap();
        let client = Client::new(ClientSettings::new(
            &sim.url(),
            &sim.url(),
            Secret::new(sim.token()),
        ))
        .unwrap();
        let brands: Vec<Brand> = BRANDS.iter().map(|b| Brand::named(b)).collect();
        let mut cells = Vec::new();
        for prompt in PROMPTS {
            for model in Model::ALL {
                for place in PLACES {
                    let request = AiRequest {
                        prompt: prompt.to_string(),
                        model: Some(model),
                        location: vantage::geo::parse_location(place).unwrap(),
                        expiration: Some(0),
                        ..AiRequest::default()
                    };
                    let mut answers = Vec::new();
                    for _ in 0..MOST {
                        let fetched = client.ai(&request).await.unwrap();
                        let prepared = prepare(request.clone(), fetched);
                        let mentions = answer_mentions(&prepared, &brands);
                        answers.push(
                            BRANDS
                                .iter()
                                .map(|b| {
                                    mentions
                                        .iter()
                                        .any(|m| &m.brand == b && m.position.is_some())
                                })
                                .collect(),
                        );
                    }
                    cells.push(Cell {
                        model: model.as_str().to_string(),
                        place: place.to_string(),
                        answers,
                    });
                }
            }
        }
        cells
    })
}

/// The automatic plan over the cells' answers for the first `brands` brands: the asks each
/// cell took, round by round.
fn auto(cells: &[Cell], brands: usize, plan: &Plan) -> Vec<usize> {
    let mut asked = vec![plan.first; cells.len()];
    loop {
        let counts: Vec<CellCount> = cells
            .iter()
            .zip(&asked)
            .map(|(c, n)| c.first(*n, brands))
            .collect();
        let next = adaptive::next_round(&counts, brands, plan);
        if next.iter().all(|n| *n == 0) {
            return asked;
        }
        for (a, n) in asked.iter_mut().zip(next) {
            *a += n;
        }
    }
}

/// The reference no batch of asks can beat by much: one answer at a time, each to the cell of
/// the widest pool whose next answer narrows it most, until every pool is within the
/// precision. The answers it took in all.
fn one_at_a_time(cells: &[Cell], brands: usize, plan: &Plan) -> usize {
    let mut asked = vec![1; cells.len()];
    loop {
        let counts: Vec<CellCount> = cells
            .iter()
            .zip(&asked)
            .map(|(c, n)| c.first(*n, brands))
            .collect();
        let Some(wide) =
            adaptive::widest(&counts, brands).filter(|w| w.half > f64::from(plan.precision))
        else {
            return asked.iter().sum();
        };
        let narrows = |c: &CellCount| {
            let n = c.answers as f64;
            let p = (c.named[wide.brand] as f64 + 0.5 * wide.visibility / 100.0) / (n + 0.5);
            p * (1.0 - p) * (1.0 / n - 1.0 / (n + 1.0))
        };
        let next = counts
            .iter()
            .enumerate()
            .filter(|(_, c)| wide.pool.takes(c) && c.answers < plan.most)
            .max_by(|a, b| narrows(a.1).total_cmp(&narrows(b.1)));
        match next {
            Some((i, _)) => asked[i] += 1,
            None => return asked.iter().sum(),
        }
    }
}

fn widest(cells: &[Cell], brands: usize, asked: &[usize]) -> f64 {
    let counts: Vec<CellCount> = cells
        .iter()
        .zip(asked)
        .map(|(c, n)| c.first(*n, brands))
        .collect();
    adaptive::widest(&counts, brands).map_or(0.0, |w| w.half)
}

/// The automatic plan against the smallest fixed number of samples reaching the same
/// precision, for the first `brands` brands, as one line.
fn against_fixed(cells: &[Cell], brands: usize, plan: &Plan) -> String {
    let asked = auto(cells, brands, plan);
    let auto_answers: usize = asked.iter().sum();
    let auto_widest = widest(cells, brands, &asked);
    let reaches =
        |n: usize| widest(cells, brands, &vec![n; cells.len()]) <= f64::from(plan.precision);
    let fixed = (1..=MOST).find(|n| reaches(*n)).unwrap_or(MOST);
    let fixed_answers = fixed * cells.len();
    let best = one_at_a_time(cells, brands, plan);
    let fixed_widest = widest(cells, brands, &vec![fixed; cells.len()]);
    format!(
        "{brands} brands: auto (±{}) {auto_answers} answers, {} credits, widest pooled ±{auto_widest:.1}; \
         fixed samples = {fixed}: {fixed_answers} answers, {} credits, widest ±{fixed_widest:.1}; \
         auto spends {:.0} % of fixed; one answer at a time would take {best} ({:.0} %)",
        plan.precision,
        auto_answers as u64 * ANSWER,
        fixed_answers as u64 * ANSWER,
        auto_answers as f64 * 100.0 / fixed_answers as f64,
        best as f64 * 100.0 / fixed_answers as f64,
    )
}

fn sampling(c: &mut Criterion) {
    let cells = ask_every_cell();
    let plan = Plan::default();
    // A set's four main brands, then every brand of the field.
    for brands in [4, BRANDS.len()] {
        eprintln!(
            "{} cells, {}",
            cells.len(),
            against_fixed(&cells, brands, &plan)
        );
    }
    c.bench_function(
        "samples auto: a whole plan over 48 cells × 7 brands",
        |b| b.iter(|| black_box(auto(black_box(&cells), BRANDS.len(), &plan))),
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = sampling
}
criterion_main!(benches);
