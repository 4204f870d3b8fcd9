//! Trends over the runs of a set, and what changed from one run to the next. Pure: the
//! observations of each run in, numbers out (`observe` reads them from stored results).
//!
//! - per brand, per run ([`RunStat`]): visibility (the share of answers naming it), its
//!   average position when named, its share of voice and the share of answers recommending
//!   it, overall and split by model and by location;
//! - per source domain: the share of a run's answers citing it;
//! - per search term and domain: its rank over runs (the best rank at each location,
//!   averaged over the locations it ranks at).
//!
//! What changed from one run to the next is [`super::diff`]; its lines, [`super::changes`].

use std::collections::HashMap;

use serde::Serialize;

use crate::analysis::stance::Stance;

use super::stat::{RunChange, RunStat};
use super::tally::{Cell, RunTally};

/// One answer of a run, as trends read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerObservation {
    pub query: String,
    pub model: String,
    pub device: String,
    pub location: String,
    /// Each watched brand (in the order given to [`trends`]) as this answer names it.
    pub brands: Vec<Seen>,
    /// The domains of its sources, each once.
    pub domains: Vec<String>,
}

impl AnswerObservation {
    /// The watched brand `b` in this answer (not named when the answer has no such brand).
    pub fn seen(&self, b: usize) -> Seen {
        self.brands.get(b).copied().unwrap_or_default()
    }

    /// Its position among the brands named; none when not named.
    pub fn position(&self, b: usize) -> Option<u32> {
        self.seen(b).position
    }

    /// Times any watched brand is named in it.
    pub fn all_mentions(&self) -> u64 {
        self.brands.iter().map(|s| u64::from(s.count)).sum()
    }
}

/// A watched brand in one answer, as the mentions read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Seen {
    /// Its position among the watched brands named (1 is named first); none when not named.
    pub position: Option<u32>,
    /// Times it is named (a name the answer says it knows nothing of is not counted).
    pub count: u32,
    /// What the answer says of it where it names it (`NotFound` when it only says it knows
    /// nothing of it; `Listed` when not named at all).
    pub stance: Stance,
}

impl Seen {
    /// Named at `position` (once, listed), or not named.
    pub fn at(position: Option<u32>) -> Seen {
        Seen {
            position,
            count: u32::from(position.is_some()),
            stance: Stance::Listed,
        }
    }

    /// Named and recommended.
    pub fn recommends(&self) -> bool {
        self.position.is_some() && self.stance == Stance::Recommended
    }
}

/// One organic result of a search of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultObservation {
    pub terms: String,
    pub location: String,
    pub rank: u32,
    pub domain: String,
    pub url: String,
    pub title: String,
}

/// What one run observed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunObservations {
    /// How the run is named in tables (its start time).
    pub label: String,
    pub answers: Vec<AnswerObservation>,
    pub results: Vec<ResultObservation>,
}

/// A brand over the runs: one [`RunStat`] per run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrandTrend {
    pub brand: String,
    pub overall: Vec<RunStat>,
    pub by_model: Vec<(String, Vec<RunStat>)>,
    pub by_location: Vec<(String, Vec<RunStat>)>,
    /// The last run against the one before over the cells both answered; none with fewer
    /// than two runs, or until their answers are compared (`paired::compare`).
    pub change: Option<RunChange>,
}

/// A source domain over the runs: the percent of each run's answers citing it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DomainShare {
    pub domain: String,
    pub share: Vec<f64>,
}

/// A domain's rank for one search over the runs (none where it did not rank): per run, its
/// best rank at any place, and the mean over the places where it ranks of its best rank
/// there. A rank alert compares one of the two (`best_rank`, `mean_rank`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankTrend {
    pub terms: String,
    pub domain: String,
    pub best: Vec<Option<u32>>,
    pub mean: Vec<Option<f64>>,
}

/// How many of its planned cells a run holds, and whether that is enough to read it as
/// complete (the set's `complete` share): an incomplete run is drawn apart and fires no
/// alert by itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Held {
    pub answered: u32,
    pub planned: u32,
    pub complete: bool,
}

impl Held {
    /// What `run` holds, complete at `complete_percent` of its planned calls answered.
    pub fn of(run: &crate::store::RunSummary, complete_percent: u8) -> Held {
        let (answered, planned) = (run.done.min(run.planned), run.planned);
        Held {
            answered,
            planned,
            complete: u64::from(answered) * 100 >= u64::from(planned) * u64::from(complete_percent),
        }
    }

    /// "9 of 12 cells".
    pub fn text(&self) -> String {
        format!(
            "{} of {}",
            self.answered,
            crate::plural::count(u64::from(self.planned), "cell", "cells")
        )
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Trends {
    pub runs: Vec<String>,
    /// What each run holds of its planned cells, in the order of `runs`; empty when not
    /// known (every run is then read as complete).
    pub held: Vec<Held>,
    pub brands: Vec<BrandTrend>,
    /// Most cited first.
    pub sources: Vec<DomainShare>,
    /// By terms, then best mean rank first.
    pub ranks: Vec<RankTrend>,
}

impl Trends {
    /// With what each run holds of its planned cells (one per run).
    pub fn with_held(mut self, held: Vec<Held>) -> Trends {
        self.held = held;
        self
    }

    /// Whether run `r` holds enough of its cells to be read alone (true when not known).
    pub fn complete(&self, r: usize) -> bool {
        self.held.get(r).is_none_or(|h| h.complete)
    }

    /// The runs that hold too few of their cells, by index.
    pub fn incomplete(&self) -> impl Iterator<Item = (usize, &Held)> {
        self.held.iter().enumerate().filter(|(_, h)| !h.complete)
    }
}

/// What each of `runs` holds, complete at `complete_percent`.
pub fn held_of(runs: &[crate::store::RunSummary], complete_percent: u8) -> Vec<Held> {
    runs.iter().map(|r| Held::of(r, complete_percent)).collect()
}

/// Interns names into indices, keeping first-seen order.
#[derive(Default)]
struct Names<'a> {
    index: HashMap<&'a str, usize>,
    names: Vec<&'a str>,
}

impl<'a> Names<'a> {
    fn id(&mut self, name: &'a str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name);
        self.index.insert(name, self.names.len() - 1);
        self.names.len() - 1
    }
}

/// A domain's ranks for one search in one run: the sum of its best rank at each place, the
/// places it ranks at, and the best of them.
type RankSum = (u64, u32, Option<u32>);

/// Trends over `runs` (oldest first) for the watched `brands`, the last run against the
/// one before over the cells both answered.
pub fn trends(runs: &[RunObservations], brands: &[String]) -> Trends {
    let tallies: Vec<RunTally> = runs.iter().map(|r| RunTally::of(r, brands)).collect();
    let trends = trends_of(
        runs.iter().map(|r| r.label.clone()).collect(),
        &tallies,
        brands,
    );
    match runs {
        [.., before, after] => trends.with_compared(&super::paired::compare(before, after, brands)),
        _ => trends,
    }
}

/// Trends over the tallies of runs (oldest first, each named by its label) for the watched
/// `brands`: what a year of runs is charted from, without its answers.
pub fn trends_of(labels: Vec<String>, tallies: &[RunTally], brands: &[String]) -> Trends {
    let n = tallies.len();
    let mut models = Names::default();
    let mut locations = Names::default();
    for cell in tallies.iter().flat_map(|t| &t.cells) {
        models.id(&cell.model);
        locations.id(&cell.place);
    }
    let mut domains = Names::default();
    let mut cited: Vec<Vec<u32>> = Vec::new();
    let answers_per_run: Vec<u32> = tallies.iter().map(|t| t.answers).collect();
    // (terms, domain) → per run: (sum of best ranks, locations, best of them)
    let mut rank_sums: HashMap<(&str, &str), Vec<RankSum>> = HashMap::new();
    for (r, tally) in tallies.iter().enumerate() {
        for (domain, count) in &tally.cited {
            let d = domains.id(domain);
            if cited.len() <= d {
                cited.push(vec![0; n]);
            }
            cited[d][r] += count;
        }
        for ranked in &tally.ranks {
            let slot = rank_sums
                .entry((&ranked.terms, &ranked.domain))
                .or_insert_with(|| vec![(0, 0, None); n]);
            slot[r].0 += u64::from(ranked.best);
            slot[r].1 += 1;
            slot[r].2 = Some(slot[r].2.map_or(ranked.best, |b: u32| b.min(ranked.best)));
        }
    }
    let over = |brand: &str, keep: &dyn Fn(&Cell) -> bool| -> Vec<RunStat> {
        tallies.iter().map(|t| t.stat(brand, keep)).collect()
    };
    let brand_trends = brands
        .iter()
        .map(|brand| {
            let overall = over(brand, &|_| true);
            BrandTrend {
                brand: brand.clone(),
                // Over the cells both runs answered: the answers are needed
                // (`paired::compare`, `Trends::with_compared`), not the tallies.
                change: None,
                overall,
                by_model: models
                    .names
                    .iter()
                    .map(|m| (m.to_string(), over(brand, &|c| c.model == *m)))
                    .collect(),
                by_location: locations
                    .names
                    .iter()
                    .map(|l| (l.to_string(), over(brand, &|c| c.place == *l)))
                    .collect(),
            }
        })
        .collect();
    let mut sources: Vec<(u32, DomainShare)> = domains
        .names
        .iter()
        .zip(&cited)
        .map(|(domain, counts)| {
            let share = counts
                .iter()
                .zip(&answers_per_run)
                .map(|(&c, &total)| {
                    if total == 0 {
                        0.0
                    } else {
                        f64::from(c) * 100.0 / f64::from(total)
                    }
                })
                .collect();
            (
                counts.iter().sum(),
                DomainShare {
                    domain: domain.to_string(),
                    share,
                },
            )
        })
        .collect();
    sources.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.domain.cmp(&b.1.domain)));
    let mut ranks: Vec<RankTrend> = rank_sums
        .into_iter()
        .map(|((terms, domain), sums)| RankTrend {
            terms: terms.to_string(),
            domain: domain.to_string(),
            best: sums.iter().map(|&(_, _, best)| best).collect(),
            mean: sums
                .iter()
                .map(|&(sum, count, _)| (count > 0).then(|| sum as f64 / f64::from(count)))
                .collect(),
        })
        .collect();
    let mean = |t: &RankTrend| {
        let known: Vec<f64> = t.mean.iter().flatten().copied().collect();
        known.iter().sum::<f64>() / known.len().max(1) as f64
    };
    ranks.sort_by(|a, b| {
        a.terms
            .cmp(&b.terms)
            .then_with(|| mean(a).total_cmp(&mean(b)))
            .then_with(|| a.domain.cmp(&b.domain))
    });
    Trends {
        runs: labels,
        held: Vec::new(),
        brands: brand_trends,
        sources: sources.into_iter().map(|(_, s)| s).collect(),
        ranks,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn answer(
        model: &str,
        location: &str,
        positions: &[Option<u32>],
        domains: &[&str],
    ) -> AnswerObservation {
        AnswerObservation {
            query: "best boots".to_string(),
            model: model.to_string(),
            device: String::new(),
            location: location.to_string(),
            brands: positions.iter().map(|p| Seen::at(*p)).collect(),
            domains: domains.iter().map(|d| d.to_string()).collect(),
        }
    }

    pub(crate) fn result(location: &str, rank: u32, domain: &str) -> ResultObservation {
        ResultObservation {
            terms: "boots".to_string(),
            location: location.to_string(),
            rank,
            domain: domain.to_string(),
            url: format!("https://{domain}/"),
            title: String::new(),
        }
    }

    pub(crate) fn brands() -> Vec<String> {
        vec!["Merrell".to_string(), "Salomon".to_string()]
    }

    pub(crate) fn two_runs() -> Vec<RunObservations> {
        vec![
            RunObservations {
                label: "day 1".to_string(),
                answers: vec![
                    answer(
                        "chatgpt",
                        "US",
                        &[Some(1), Some(2)],
                        &["rei.com", "merrell.com"],
                    ),
                    answer("gemini", "US", &[None, Some(1)], &["rei.com"]),
                    answer("chatgpt", "DE", &[Some(2), Some(1)], &[]),
                    answer("gemini", "DE", &[None, None], &["outdoor.de"]),
                ],
                results: vec![
                    result("US", 1, "rei.com"),
                    result("US", 4, "rei.com"),
                    result("US", 2, "merrell.com"),
                    result("DE", 3, "rei.com"),
                ],
            },
            RunObservations {
                label: "day 2".to_string(),
                answers: vec![
                    answer("chatgpt", "US", &[Some(1), None], &["rei.com"]),
                    answer(
                        "gemini",
                        "US",
                        &[Some(2), Some(1)],
                        &["rei.com", "gear.com"],
                    ),
                    answer("chatgpt", "DE", &[Some(1), Some(2)], &[]),
                ],
                results: vec![
                    result("US", 2, "rei.com"),
                    result("US", 1, "merrell.com"),
                    result("DE", 3, "rei.com"),
                ],
            },
        ]
    }

    #[test]
    fn visibility_and_position_per_run_and_split() {
        let t = trends(&two_runs(), &brands());
        assert_eq!(t.runs, ["day 1", "day 2"]);
        let merrell = &t.brands[0];
        assert_eq!(merrell.overall[0].visibility(), Some(50.0));
        assert_eq!(merrell.overall[0].average_position(), Some(1.5));
        assert_eq!(merrell.overall[1].visibility(), Some(100.0));
        assert_eq!(merrell.overall[1].average_position(), Some(4.0 / 3.0));
        let (model, gemini) = &merrell.by_model[1];
        assert_eq!(model, "gemini");
        assert_eq!(gemini[0].visibility(), Some(0.0));
        assert_eq!(gemini[1].visibility(), Some(100.0));
        let (location, de) = &merrell.by_location[1];
        assert_eq!(location, "DE");
        assert_eq!(de[0].answers, 2);
        assert_eq!(de[1].answers, 1);
        assert_eq!(de[1].average_position(), Some(1.0));
    }

    #[test]
    fn source_share_and_ranks_over_runs() {
        let t = trends(&two_runs(), &brands());
        assert_eq!(t.sources[0].domain, "rei.com");
        assert_eq!(t.sources[0].share, [50.0, 200.0 / 3.0]);
        let gear = t.sources.iter().find(|s| s.domain == "gear.com").unwrap();
        assert_eq!(gear.share[0], 0.0);
        let rei = t.ranks.iter().find(|r| r.domain == "rei.com").unwrap();
        // Day 1: best 1 in US, 3 in DE → 2; day 2: 2 and 3 → 2.5.
        assert_eq!(rei.mean, [Some(2.0), Some(2.5)]);
        assert_eq!(rei.best, [Some(1), Some(2)]);
        assert_eq!(t.ranks[0].domain, "merrell.com");
        assert_eq!(t.ranks[0].mean, [Some(2.0), Some(1.0)]);
    }

    #[test]
    fn share_of_voice_counts_mentions_and_recommended_counts_answers_that_recommend() {
        let seen = |position: Option<u32>, count: u32, stance: Stance| Seen {
            position,
            count,
            stance,
        };
        let mut first = answer("chatgpt", "US", &[], &[]);
        // Merrell named three times and recommended; Salomon once, cautioned.
        first.brands = vec![
            seen(Some(1), 3, Stance::Recommended),
            seen(Some(2), 1, Stance::Cautioned),
        ];
        let mut second = answer("gemini", "US", &[], &[]);
        // Salomon only, and Merrell only to say nothing is known of it: not a mention.
        second.brands = vec![
            seen(None, 0, Stance::NotFound),
            seen(Some(1), 4, Stance::Listed),
        ];
        let run = RunObservations {
            label: "day 1".to_string(),
            answers: vec![first, second],
            results: Vec::new(),
        };
        let t = trends(&[run], &brands());
        let (merrell, salomon) = (&t.brands[0].overall[0], &t.brands[1].overall[0]);
        assert_eq!((merrell.mentions, merrell.all_mentions), (3, 8));
        assert_eq!(merrell.share_of_voice(), Some(37.5));
        assert_eq!(salomon.share_of_voice(), Some(62.5));
        assert_eq!(merrell.recommended_share(), Some(50.0));
        assert_eq!(salomon.recommended_share(), Some(0.0));
        assert_eq!(merrell.visibility(), Some(50.0));
        // By model: all of Gemini's voice is Salomon's.
        let (model, gemini) = &t.brands[1].by_model[1];
        assert_eq!(model, "gemini");
        assert_eq!(gemini[0].share_of_voice(), Some(100.0));
        let json = serde_json::to_value(merrell).unwrap();
        assert_eq!(json["share_of_voice"], 37.5);
        assert_eq!(json["recommended_share"], 50.0);
    }

    #[test]
    fn no_runs_no_numbers() {
        let t = trends(&[], &brands());
        assert!(t.runs.is_empty());
        assert!(t.brands[0].overall.is_empty());
        assert_eq!(RunStat::default().visibility(), None);
    }
}
