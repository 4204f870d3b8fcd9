//! A run summed up as trends, alerts and charts read it: per model and place, how many
//! answers, and per brand how many name it, at what positions, how often and how many
//! recommend it; how many answers cite each domain; each domain's best rank per search and
//! place. Made once from a run's readings and kept in the store (`track::stored`), so a
//! year of runs is charted from a thousand small tallies, not from its answers. Pure.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::stat::RunStat;
use super::trends::RunObservations;

/// One run's numbers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunTally {
    /// The brands the counts are of, in the order of each cell's `counts`.
    pub brands: Vec<String>,
    pub answers: u32,
    /// One per model and place that answered, in the order the run's answers first show it.
    pub cells: Vec<Cell>,
    /// Domains cited, each with the answers citing it, in the order first cited.
    pub cited: Vec<(String, u32)>,
    /// Each domain's best rank per search terms and place.
    pub ranks: Vec<Ranked>,
}

/// The answers of one model at one place.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    pub model: String,
    pub place: String,
    pub answers: u32,
    /// Times any brand of the tally is named.
    pub all_mentions: u64,
    /// Per brand: answers naming it, the sum of its positions there, times named, answers
    /// recommending it. 32 bits: a run's cell holds at most a few thousand answers, and a
    /// year of tallies is held at once.
    pub counts: Vec<[u32; 4]>,
}

/// A domain's best rank for search terms at one place.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranked {
    pub terms: String,
    pub place: String,
    pub domain: String,
    pub best: u32,
}

impl RunTally {
    /// The tally of a run's observations, for the watched `brands` (in the observations'
    /// order).
    pub fn of(run: &RunObservations, brands: &[String]) -> RunTally {
        let mut tally = RunTally {
            brands: brands.to_vec(),
            answers: u32::try_from(run.answers.len()).unwrap_or(u32::MAX),
            ..RunTally::default()
        };
        let mut cells: HashMap<(&str, &str), usize> = HashMap::new();
        let mut cited: HashMap<&str, usize> = HashMap::new();
        for answer in &run.answers {
            let at = *cells
                .entry((answer.model.as_str(), answer.location.as_str()))
                .or_insert_with(|| {
                    tally.cells.push(Cell {
                        model: answer.model.clone(),
                        place: answer.location.clone(),
                        counts: vec![[0; 4]; brands.len()],
                        ..Cell::default()
                    });
                    tally.cells.len() - 1
                });
            let cell = &mut tally.cells[at];
            cell.answers += 1;
            cell.all_mentions += answer.all_mentions();
            for (b, counts) in cell.counts.iter_mut().enumerate() {
                let seen = answer.seen(b);
                if let Some(position) = seen.position {
                    counts[0] = counts[0].saturating_add(1);
                    counts[1] = counts[1].saturating_add(position);
                }
                counts[2] = counts[2].saturating_add(seen.count);
                counts[3] = counts[3].saturating_add(u32::from(seen.recommends()));
            }
            for domain in &answer.domains {
                let at = *cited.entry(domain.as_str()).or_insert_with(|| {
                    tally.cited.push((domain.clone(), 0));
                    tally.cited.len() - 1
                });
                tally.cited[at].1 += 1;
            }
        }
        let mut best: BTreeMap<(&str, &str, &str), u32> = BTreeMap::new();
        for result in &run.results {
            best.entry((&result.terms, &result.location, &result.domain))
                .and_modify(|b| *b = (*b).min(result.rank))
                .or_insert(result.rank);
        }
        tally.ranks = best
            .into_iter()
            .map(|((terms, place, domain), best)| Ranked {
                terms: terms.to_string(),
                place: place.to_string(),
                domain: domain.to_string(),
                best,
            })
            .collect();
        tally
    }

    /// The brand named `brand` over the answers of the cells `keep` keeps (counted as not
    /// named when the tally is not of it).
    pub fn stat(&self, brand: &str, keep: impl Fn(&Cell) -> bool) -> RunStat {
        let b = self.brands.iter().position(|n| n == brand);
        let mut stat = RunStat::default();
        for cell in self.cells.iter().filter(|c| keep(c)) {
            stat.answers += cell.answers;
            stat.all_mentions += cell.all_mentions;
            if let Some(counts) = b.and_then(|b| cell.counts.get(b)) {
                stat.named += counts[0];
                stat.position_sum += u64::from(counts[1]);
                stat.mentions += u64::from(counts[2]);
                stat.recommended += counts[3];
            }
        }
        stat
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::trends::tests::{answer, brands, result};

    #[test]
    fn a_tally_reads_a_brand_as_its_answers_do_whatever_cells_are_kept() {
        let run = RunObservations {
            label: "r".into(),
            answers: vec![
                answer("chatgpt", "US", &[Some(1), Some(2)], &["rei.com"]),
                answer("chatgpt", "DE", &[None, Some(1)], &["rei.com", "x.de"]),
                answer("gemini", "US", &[Some(2), Some(1)], &[]),
            ],
            results: vec![result("US", 3, "rei.com"), result("US", 1, "rei.com")],
        };
        let names = brands();
        let tally = RunTally::of(&run, &names);
        assert_eq!(tally.cells.len(), 3);
        for (b, name) in names.iter().enumerate() {
            assert_eq!(tally.stat(name, |_| true), RunStat::over(&run.answers, b));
            let in_us: Vec<_> = run.answers.iter().filter(|a| a.location == "US").collect();
            assert_eq!(
                tally.stat(name, |c| c.place == "US"),
                RunStat::over(in_us, b)
            );
        }
        assert_eq!(tally.cited, vec![("rei.com".into(), 2), ("x.de".into(), 1)]);
        assert_eq!(tally.ranks.len(), 1);
        assert_eq!(tally.ranks[0].best, 1);
        let unknown = tally.stat("Nobody", |_| true);
        assert_eq!((unknown.answers, unknown.named), (3, 0));
    }
}
