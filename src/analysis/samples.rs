//! Readings over repeated asks of one cell: how often each brand was named out of how many
//! answers, with its 95 % Wilson interval, the spread of its position, and whether two cells
//! (or two runs) differ by more than chance — Fisher's exact test, two-sided, at 95 %,
//! corrected (Bonferroni) for the number of pairs the reading looks at.

use serde::Serialize;

use super::mentions::Mention;
use super::stance::Stance;

/// The normal quantile of a two-sided 95 % interval.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// The level below which a difference is called one.
pub const ALPHA: f64 = 0.05;

/// The test named wherever a difference is stated.
pub const TEST: &str = "Fisher's exact test, two-sided, 95 %";

/// A share's 95 % Wilson score interval, in percent (0 to 100). Nothing asked: 0–100.
pub fn wilson(named: usize, asked: usize) -> (f64, f64) {
    if asked == 0 {
        return (0.0, 100.0);
    }
    let n = asked as f64;
    let p = named.min(asked) as f64 / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    // None named has no lower bound and all named no upper one: exactly, not a rounding
    // error away (a script would print 5.6e-15).
    let low = match named {
        0 => 0.0,
        _ => ((centre - half) * 100.0).clamp(0.0, 100.0),
    };
    let high = match named >= asked {
        true => 100.0,
        false => ((centre + half) * 100.0).clamp(0.0, 100.0),
    };
    (low, high)
}

/// `ln(n!)` for every n up to `max`.
fn log_factorials(max: usize) -> Vec<f64> {
    let mut table = Vec::with_capacity(max + 1);
    table.push(0.0);
    let mut sum = 0.0;
    for i in 1..=max {
        sum += (i as f64).ln();
        table.push(sum);
    }
    table
}

/// The two-sided p-value of Fisher's exact test of "named a of m" against "named b of n":
/// the probability, were both the same share, of a split at least as uneven as this one.
pub fn fisher(a: usize, m: usize, b: usize, n: usize) -> f64 {
    let (a, b) = (a.min(m), b.min(n));
    let total = m + n;
    let named = a + b;
    if m == 0 || n == 0 || named == 0 || named == total {
        return 1.0;
    }
    let lf = log_factorials(total);
    let choose = |n: usize, k: usize| lf[n] - lf[k] - lf[n - k];
    let probability = |x: usize| (choose(m, x) + choose(n, named - x) - choose(total, named)).exp();
    let observed = probability(a);
    let low = named.saturating_sub(n);
    let high = named.min(m);
    let p: f64 = (low..=high)
        .map(probability)
        .filter(|&q| q <= observed * (1.0 + 1e-7))
        .sum();
    p.min(1.0)
}

/// Whether two counts differ at 95 % when `pairs` such comparisons are read at once.
pub fn differ(a: (usize, usize), b: (usize, usize), pairs: usize) -> Option<f64> {
    let p = fisher(a.0, a.1, b.0, b.1);
    (p * pairs.max(1) as f64 <= ALPHA).then_some(p)
}

/// The most samples one cell may take.
pub const MAX_SAMPLES: usize = 20;

/// The most calls one comparison or one tracking run may make, samples included.
pub const MAX_SAMPLED_CALLS: usize = 160;

/// The one check of a number of samples, wherever it is given (the CLI, a set, the app).
pub fn check_samples(samples: usize) -> Result<(), String> {
    if samples == 0 || samples > MAX_SAMPLES {
        return Err(format!(
            "{samples} samples: a cell can be asked 1 to {MAX_SAMPLES} times."
        ));
    }
    Ok(())
}

/// The one check of a comparison's samples: `cells` columns asked `samples` times each.
/// The sentence says what to change.
pub fn check_sampled_comparison(samples: usize, cells: usize) -> Result<(), String> {
    check_samples(samples)?;
    let calls = samples.saturating_mul(cells);
    if samples > 1 && calls > MAX_SAMPLED_CALLS {
        return Err(format!(
            "{cells} cells asked {samples} times each would be {calls} billed calls; at most {MAX_SAMPLED_CALLS} are allowed. Ask fewer samples or fewer cells."
        ));
    }
    Ok(())
}

/// One cell's answers read as one: each brand at its best position over the samples, its
/// mentions summed, cited when any answer cites it, with the sentence and stance of its
/// best-placed mention. None when no sample answered.
pub fn merged(answers: &[Vec<Mention>]) -> Option<Vec<Mention>> {
    let (first, rest) = answers.split_first()?;
    let mut merged = first.clone();
    for answer in rest {
        for (into, mention) in merged.iter_mut().zip(answer) {
            into.count += mention.count;
            into.cited |= mention.cited;
            let better = match (mention.position, into.position) {
                (Some(new), Some(old)) => new < old,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if better {
                into.position = mention.position;
                into.sentence = mention.sentence.clone();
                into.stance = mention.stance;
            }
        }
    }
    Some(merged)
}

/// A count with its interval, as every view writes it: "2 of 5 (12–77 %)".
pub fn count_text(named: usize, asked: usize) -> String {
    let (low, high) = wilson(named, asked);
    format!("{named} of {asked} ({low:.0}–{high:.0} %)")
}

/// The shortest form, for a table cell: "2/5".
pub fn cell_count(named: usize, asked: usize) -> String {
    format!("{named}/{asked}")
}

/// One brand in one cell asked several times.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SampledCell {
    /// Answers that named the brand.
    pub named: usize,
    /// Answers the cell got (samples that failed are not counted).
    pub asked: usize,
    /// The 95 % Wilson interval of `named / asked`, in percent.
    pub low: f64,
    pub high: f64,
    /// Mean position over the answers that named it, and its standard
    /// deviation (none under two namings).
    pub average_position: Option<f64>,
    pub position_spread: Option<f64>,
    pub best_position: Option<usize>,
    pub worst_position: Option<usize>,
    pub recommended: usize,
    pub cautioned: usize,
    /// Answers citing a page on the brand's domains.
    pub cited: usize,
    /// Mentions over all its answers, for share of voice.
    pub mentions: usize,
}

/// Whether a brand's namings differ between the cells, read between the cell that names it
/// most often and the one that names it least.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    pub most: usize,
    pub least: usize,
    /// The test's p-value for that pair, before the correction for the pairs read.
    pub p: f64,
    /// Whether the test calls it a difference at 95 % (p × pairs ≤ 0.05).
    pub different: bool,
}

/// One brand over cells asked several times each.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampledBrand {
    pub brand: String,
    pub columns: Vec<SampledCell>,
    /// Over every answer of every cell.
    pub overall: SampledCell,
    /// The brand's mentions over all tracked brands' mentions in every answer, 0 to 100.
    pub share_of_voice: f64,
    /// None with fewer than two cells that answered.
    pub difference: Option<Difference>,
}

impl SampledBrand {
    /// "no clear difference", or which cells differ, with the test's p.
    pub fn difference_text(&self, labels: &[String]) -> String {
        match &self.difference {
            None => "one column: nothing to compare".to_string(),
            Some(d) if d.different => {
                let label = |i: usize| labels.get(i).map_or("?", |l| l.as_str());
                let (most, least) = (&self.columns[d.most], &self.columns[d.least]);
                format!(
                    "{} {} vs {} {}: different (p = {:.3})",
                    label(d.most),
                    cell_count(most.named, most.asked),
                    label(d.least),
                    cell_count(least.named, least.asked),
                    d.p
                )
            }
            Some(_) => "no clear difference".to_string(),
        }
    }
}

/// Adds one answer's mention of a brand to a cell.
fn add(cell: &mut SampledCell, mention: &Mention, positions: &mut Vec<usize>) {
    cell.asked += 1;
    cell.mentions += mention.count;
    if mention.cited {
        cell.cited += 1;
    }
    if let Some(position) = mention.position {
        cell.named += 1;
        positions.push(position);
        match mention.stance {
            Stance::Recommended => cell.recommended += 1,
            Stance::Cautioned => cell.cautioned += 1,
            Stance::Listed | Stance::NotFound => {}
        }
    }
}

fn finish(cell: &mut SampledCell, positions: &[usize]) {
    (cell.low, cell.high) = wilson(cell.named, cell.asked);
    if positions.is_empty() {
        return;
    }
    let n = positions.len() as f64;
    let mean = positions.iter().sum::<usize>() as f64 / n;
    cell.average_position = Some(mean);
    cell.best_position = positions.iter().min().copied();
    cell.worst_position = positions.iter().max().copied();
    if positions.len() > 1 {
        let variance = positions
            .iter()
            .map(|&p| (p as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        cell.position_spread = Some(variance.sqrt());
    }
}

/// The readings per brand from each cell's answers (each answer's [`mentions`], in the
/// brands' order; a failed sample is left out of its cell), in the order of the brands.
///
/// [`mentions`]: super::mentions::mentions
pub fn summarize(cells: &[Vec<Vec<Mention>>]) -> Vec<SampledBrand> {
    let Some(first) = cells.iter().flatten().next() else {
        return Vec::new();
    };
    let all_mentions: usize = cells.iter().flatten().flatten().map(|m| m.count).sum();
    let answered: Vec<usize> = (0..cells.len()).filter(|&c| !cells[c].is_empty()).collect();
    let pairs = answered.len() * answered.len().saturating_sub(1) / 2;
    first
        .iter()
        .enumerate()
        .map(|(index, brand)| {
            let mut overall = SampledCell::default();
            let mut all_positions = Vec::new();
            let columns: Vec<SampledCell> = cells
                .iter()
                .map(|answers| {
                    let mut cell = SampledCell::default();
                    let mut positions = Vec::new();
                    for mention in answers.iter().filter_map(|a| a.get(index)) {
                        add(&mut cell, mention, &mut positions);
                        add(&mut overall, mention, &mut all_positions);
                    }
                    finish(&mut cell, &positions);
                    cell
                })
                .collect();
            finish(&mut overall, &all_positions);
            let rate = |c: &SampledCell| c.named as f64 / c.asked.max(1) as f64;
            // The first of equals, both ways.
            let most = answered
                .iter()
                .rev()
                .copied()
                .max_by(|&a, &b| rate(&columns[a]).total_cmp(&rate(&columns[b])));
            let least = answered
                .iter()
                .copied()
                .min_by(|&a, &b| rate(&columns[a]).total_cmp(&rate(&columns[b])));
            let difference = match (most, least) {
                (Some(most), Some(least)) if pairs > 0 => {
                    let (x, y) = (&columns[most], &columns[least]);
                    let p = fisher(x.named, x.asked, y.named, y.asked);
                    Some(Difference {
                        most,
                        least,
                        p,
                        different: p * pairs as f64 <= ALPHA,
                    })
                }
                _ => None,
            };
            SampledBrand {
                brand: brand.brand.clone(),
                share_of_voice: if all_mentions == 0 {
                    0.0
                } else {
                    overall.mentions as f64 * 100.0 / all_mentions as f64
                },
                overall,
                columns,
                difference,
            }
        })
        .collect()
}

/// A sampled matrix as text: per brand, its count and interval in each column, the spread
/// of its position, and whether the columns differ.
pub fn matrix_text(labels: &[String], rows: &[SampledBrand]) -> String {
    let mut out = String::new();
    for row in rows {
        out.push_str(&format!(
            "{}: named in {} overall, share of voice {:.0} %; {}\n",
            row.brand,
            count_text(row.overall.named, row.overall.asked),
            row.share_of_voice,
            row.difference_text(labels)
        ));
        for (label, cell) in labels.iter().zip(&row.columns) {
            out.push_str(&format!("  {label}: {}\n", cell_text(cell)));
        }
    }
    out.push_str(&format!(
        "Intervals are 95 % Wilson intervals; a difference is one by {TEST}, corrected for the pairs of columns.\n"
    ));
    out
}

/// One cell as a line: its count and interval, position and stances.
pub fn cell_text(cell: &SampledCell) -> String {
    if cell.asked == 0 {
        return "no answer".to_string();
    }
    let mut text = format!("named in {}", count_text(cell.named, cell.asked));
    if let Some(mean) = cell.average_position {
        text.push_str(&format!(", position {mean:.1}"));
        if let Some(spread) = cell.position_spread {
            text.push_str(&format!(" ± {spread:.1}"));
        }
    }
    if cell.recommended > 0 {
        text.push_str(&format!(", recommended in {}", cell.recommended));
    }
    if cell.cautioned > 0 {
        text.push_str(&format!(", cautioned in {}", cell.cautioned));
    }
    if cell.cited > 0 {
        text.push_str(&format!(", its site cited in {}", cell.cited));
    }
    text
}

/// The sampled matrix as CSV: per brand and column its count, answers, interval and
/// position; then the same over all columns, share of voice and the test's verdict.
pub fn matrix_csv(labels: &[String], rows: &[SampledBrand]) -> String {
    let mut header = vec!["brand".to_string()];
    for label in labels {
        for field in [
            "named",
            "asked",
            "low %",
            "high %",
            "average position",
            "position sd",
            "recommended",
            "cautioned",
            "cited",
        ] {
            header.push(format!("{label} {field}"));
        }
    }
    header.extend(
        [
            "named",
            "asked",
            "low %",
            "high %",
            "share of voice %",
            "difference",
            "p",
        ]
        .map(String::from),
    );
    let optional = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.2}"));
    let records = rows.iter().map(|row| {
        let mut record = vec![row.brand.clone()];
        for cell in &row.columns {
            record.extend([
                cell.named.to_string(),
                cell.asked.to_string(),
                format!("{:.1}", cell.low),
                format!("{:.1}", cell.high),
                optional(cell.average_position),
                optional(cell.position_spread),
                cell.recommended.to_string(),
                cell.cautioned.to_string(),
                cell.cited.to_string(),
            ]);
        }
        record.extend([
            row.overall.named.to_string(),
            row.overall.asked.to_string(),
            format!("{:.1}", row.overall.low),
            format!("{:.1}", row.overall.high),
            format!("{:.1}", row.share_of_voice),
            match &row.difference {
                Some(d) if d.different => "different".to_string(),
                Some(_) => "no clear difference".to_string(),
                None => String::new(),
            },
            row.difference
                .as_ref()
                .map_or(String::new(), |d| format!("{:.4}", d.p)),
        ]);
        record
    });
    crate::shareable::csv::text(std::iter::once(header).chain(records))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_s_example_two_of_five_is_twelve_to_seventy_seven() {
        let (low, high) = wilson(2, 5);
        assert_eq!((low.round(), high.round()), (12.0, 77.0));
        assert_eq!(count_text(2, 5), "2 of 5 (12–77 %)");
        assert_eq!(wilson(0, 0), (0.0, 100.0));
        let (low, high) = wilson(5, 5);
        assert!((low - 56.55).abs() < 0.01 && high == 100.0, "{low} {high}");
    }

    #[test]
    fn fisher_matches_known_tables() {
        // 5 of 5 against 0 of 5: 2 / C(10,5) = 2/252.
        assert!((fisher(5, 5, 0, 5) - 2.0 / 252.0).abs() < 1e-12);
        // The tea-tasting table 3 of 4 against 1 of 4: p = 0.4857.
        assert!((fisher(3, 4, 1, 4) - 0.485_714).abs() < 1e-5);
        assert!((fisher(2, 5, 2, 5) - 1.0).abs() < 1e-9);
        assert_eq!(fisher(0, 5, 0, 5), 1.0);
        assert!(differ((5, 5), (0, 5), 1).is_some());
        assert!(differ((5, 5), (0, 5), 6).is_some(), "0.0079 × 6 ≤ 0.05");
        assert!(differ((5, 5), (0, 5), 7).is_none(), "0.0079 × 7 > 0.05");
        assert!(differ((3, 5), (1, 5), 1).is_none());
    }

    fn mention(position: Option<usize>, count: usize, stance: Stance) -> Mention {
        Mention {
            brand: "Salomon".to_string(),
            position,
            rank: None,
            count,
            sentence: None,
            cited: false,
            stance,
        }
    }

    #[test]
    fn cells_count_their_answers_and_the_spread_of_positions() {
        let named = |p| vec![mention(Some(p), 1, Stance::Recommended)];
        let unnamed = || vec![mention(None, 0, Stance::Listed)];
        let cells = vec![
            vec![named(1), named(3), named(2), named(1), named(3)],
            vec![unnamed(), unnamed(), unnamed(), unnamed(), unnamed()],
        ];
        let rows = summarize(&cells);
        let cell = &rows[0].columns[0];
        assert_eq!((cell.named, cell.asked, cell.recommended), (5, 5, 5));
        assert_eq!(cell.average_position, Some(2.0));
        assert!((cell.position_spread.unwrap_or(0.0) - 1.0).abs() < 1e-9);
        assert_eq!((rows[0].overall.named, rows[0].overall.asked), (5, 10));
        let difference = rows[0].difference.as_ref().expect("two columns");
        assert!(difference.different);
        assert_eq!((difference.most, difference.least), (0, 1));
        let labels = ["a".to_string(), "b".to_string()];
        assert_eq!(
            rows[0].difference_text(&labels),
            "a 5/5 vs b 0/5: different (p = 0.008)"
        );
    }
}
