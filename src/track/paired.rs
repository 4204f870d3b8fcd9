//! Two runs compared like with like: only the cells both answered count. A cell is one
//! prompt × model × device × place × sample slot; samples of one vantage point are
//! exchangeable draws, so a cell's slot is its order among that vantage point's answers in
//! the run, and a vantage point asked 3 times in one run and answered twice in the other
//! pairs two cells. A failed call drops its cell from both runs, so a brand the failed cells
//! named does not read as lost. Every view that compares two runs (trends, the Track tab's
//! changes and chart, alerts, the report, `track check`) reads them through [`compare`].
//! Pure.

use serde::Serialize;

use super::diff::{RunDiff, by_vantage, diff};
use super::stat::{RunChange, RunStat};
use super::tally::RunTally;
use super::trends::{AnswerObservation, RunObservations, Trends};

/// The answers of two runs paired cell by cell, in the later run's order.
pub fn pairs<'a>(
    before: &'a RunObservations,
    after: &'a RunObservations,
) -> Vec<(&'a AnswerObservation, &'a AnswerObservation)> {
    let earlier = by_vantage(before);
    let index: std::collections::HashMap<_, _> = earlier
        .iter()
        .enumerate()
        .map(|(i, (key, _))| (*key, i))
        .collect();
    let mut paired = Vec::new();
    for (key, now) in by_vantage(after) {
        let Some(&i) = index.get(&key) else { continue };
        paired.extend(earlier[i].1.iter().copied().zip(now));
    }
    paired
}

/// The brand `b` in the paired cells: before, after, and the cells that stopped and those
/// that started naming it; none without a paired cell.
pub fn paired_change(
    pairs: &[(&AnswerObservation, &AnswerObservation)],
    b: usize,
) -> Option<RunChange> {
    if pairs.is_empty() {
        return None;
    }
    let before = RunStat::over(pairs.iter().map(|(then, _)| *then), b);
    let after = RunStat::over(pairs.iter().map(|(_, now)| *now), b);
    let named = |a: &AnswerObservation| a.position(b).is_some();
    let lost = pairs.iter().filter(|(t, n)| named(t) && !named(n)).count();
    let gained = pairs.iter().filter(|(t, n)| !named(t) && named(n)).count();
    Some(RunChange::paired(before, after, lost, gained))
}

/// The last two runs read like with like.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Compared {
    /// What changed per vantage point, sources and ranks (over the same cells).
    pub diff: RunDiff,
    /// Each watched brand over the paired cells (none without one), in the brands' order.
    pub changes: Vec<Option<RunChange>>,
    /// Cells both runs answered.
    pub cells: usize,
    /// The two runs' tallies over those cells alone: what a `drops_by` alert compares.
    #[serde(skip)]
    pub before: RunTally,
    #[serde(skip)]
    pub after: RunTally,
}

/// `before` against `after` for the watched `brands`, over the cells both answered.
pub fn compare(before: &RunObservations, after: &RunObservations, brands: &[String]) -> Compared {
    let paired = pairs(before, after);
    let keep = |side: usize| RunObservations {
        label: String::new(),
        answers: paired
            .iter()
            .map(|pair| if side == 0 { pair.0 } else { pair.1 }.clone())
            .collect(),
        results: if side == 0 {
            before.results.clone()
        } else {
            after.results.clone()
        },
    };
    let (then, now) = (keep(0), keep(1));
    Compared {
        diff: diff(before, after, brands),
        changes: (0..brands.len())
            .map(|b| paired_change(&paired, b))
            .collect(),
        cells: paired.len(),
        before: RunTally::of(&then, brands),
        after: RunTally::of(&now, brands),
    }
}

impl Trends {
    /// Each brand's change from the run before last to the last, as `compared` reads it:
    /// over the cells both answered, never over two different sets of cells.
    pub fn with_compared(mut self, compared: &Compared) -> Trends {
        for (brand, change) in self.brands.iter_mut().zip(&compared.changes) {
            brand.change = *change;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::trends::tests::answer;

    fn run(label: &str, answers: Vec<AnswerObservation>) -> RunObservations {
        RunObservations {
            label: label.to_string(),
            answers,
            results: Vec::new(),
        }
    }

    /// Twelve cells; the third run's failed cells are exactly the four that name Hubspot.
    #[test]
    fn failed_cells_that_named_a_brand_do_not_read_as_the_brand_lost() {
        let names = vec!["Hubspot".to_string(), "Zoho".to_string()];
        let cell = |i: usize| {
            let place = ["US", "DE", "FR", "GB", "IT", "ES"][i % 6];
            let model = ["chatgpt", "gemini"][i / 6];
            let hubspot = i.is_multiple_of(3).then_some(1);
            answer(model, place, &[hubspot, Some(2)], &[])
        };
        let whole = run("2", (0..12).map(cell).collect());
        let holed = run(
            "3",
            (0..12)
                .filter(|i: &usize| !i.is_multiple_of(3))
                .map(cell)
                .collect::<Vec<_>>(),
        );
        let compared = compare(&whole, &holed, &names);
        assert_eq!(compared.cells, 8);
        let hubspot = compared.changes[0].unwrap();
        assert_eq!((hubspot.before.named, hubspot.after.named), (0, 0));
        assert_eq!((hubspot.lost, hubspot.gained), (0, 0));
        assert!(!hubspot.different);
        assert!(!hubspot.moved(), "{}", hubspot.text());
        // The paired tallies agree: a drops_by alert sees no drop.
        let stat = |t: &RunTally| t.stat("Hubspot", |_| true).visibility();
        assert_eq!(stat(&compared.before), stat(&compared.after));
        assert_eq!(compared.diff.only_before, 4);
        assert!(compared.diff.mentions_lost.is_empty());
    }

    /// 20 paired cells where nothing moved, and 20 where one brand moved in 12 of them.
    #[test]
    fn a_change_in_12_of_20_paired_cells_is_told_and_none_is_not() {
        let names = vec!["Keen".to_string()];
        let places: Vec<String> = (0..20).map(|i| format!("P{i}")).collect();
        let at = |i: usize, named: bool| answer("chatgpt", &places[i], &[named.then_some(1)], &[]);
        let before = run("1", (0..20).map(|i| at(i, i < 4)).collect());
        let still = compare(
            &before,
            &run("2", (0..20).map(|i| at(i, i < 4)).collect()),
            &names,
        );
        let keen = still.changes[0].unwrap();
        assert!(!keen.different && !keen.moved());
        assert_eq!(keen.p, 1.0);
        let moved = run("2", (0..20).map(|i| at(i, !(4..8).contains(&i))).collect());
        let changed = compare(&before, &moved, &names);
        let keen = changed.changes[0].unwrap();
        assert_eq!((keen.lost, keen.gained, keen.cells), (0, 12, 20));
        assert!(keen.different, "{}", keen.text());
        assert!(keen.p < 0.001, "{}", keen.p);
        assert!(keen.text().contains("p < 0.001"), "{}", keen.text());
    }
}
