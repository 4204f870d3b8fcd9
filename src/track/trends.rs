//! Trends over the runs of a set, and what changed from one run to the next. Pure: the
//! observations of each run in, numbers out (`observe` reads them from stored results).
//!
//! - per brand, per run: visibility (the share of answers naming it) and its average
//!   position when named, overall and split by model and by location;
//! - per source domain: the share of a run's answers citing it;
//! - per search term and domain: its rank over runs (the best rank at each location,
//!   averaged over the locations it ranks at).
//!
//! What changed from one run to the next is [`super::diff`]; its lines, [`super::changes`].

use std::collections::HashMap;

use serde::Serialize;

use crate::analysis::samples;

/// One answer of a run, as trends read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerObservation {
    pub query: String,
    pub model: String,
    pub device: String,
    pub location: String,
    /// For each watched brand (in the order given to [`trends`]), its position among the
    /// brands named, none when not named.
    pub positions: Vec<Option<u32>>,
    /// The domains of its sources, each once.
    pub domains: Vec<String>,
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

/// A brand in one run (or one model's or location's part of it). As JSON it also carries
/// its visibility with the 95 % Wilson interval and its average position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStat {
    pub answers: u32,
    pub named: u32,
    pub position_sum: u64,
}

impl RunStat {
    fn add(&mut self, position: Option<u32>) {
        self.answers += 1;
        if let Some(p) = position {
            self.named += 1;
            self.position_sum += u64::from(p);
        }
    }

    /// Percent of answers naming the brand; none when the run had no answers here.
    pub fn visibility(&self) -> Option<f64> {
        (self.answers > 0).then(|| f64::from(self.named) * 100.0 / f64::from(self.answers))
    }

    /// The brand's average position among the brands named, when it was named.
    pub fn average_position(&self) -> Option<f64> {
        (self.named > 0).then(|| self.position_sum as f64 / f64::from(self.named))
    }

    /// The 95 % Wilson interval of its visibility, in percent; none without answers.
    pub fn interval(&self) -> Option<(f64, f64)> {
        (self.answers > 0).then(|| samples::wilson(self.named as usize, self.answers as usize))
    }
}

impl Serialize for RunStat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("RunStat", 7)?;
        out.serialize_field("answers", &self.answers)?;
        out.serialize_field("named", &self.named)?;
        out.serialize_field("position_sum", &self.position_sum)?;
        out.serialize_field("visibility", &self.visibility())?;
        out.serialize_field("low", &self.interval().map(|i| i.0))?;
        out.serialize_field("high", &self.interval().map(|i| i.1))?;
        out.serialize_field("average_position", &self.average_position())?;
        out.end()
    }
}

/// A brand's visibility in the last run against the run before, and whether Fisher's exact
/// test calls that a difference at 95 %.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RunChange {
    pub before: RunStat,
    pub after: RunStat,
    pub p: f64,
    pub different: bool,
}

impl RunChange {
    fn of(before: RunStat, after: RunStat) -> Option<RunChange> {
        if before.answers == 0 || after.answers == 0 {
            return None;
        }
        let count = |s: &RunStat| (s.named as usize, s.answers as usize);
        let p = samples::fisher(
            count(&before).0,
            count(&before).1,
            count(&after).0,
            count(&after).1,
        );
        Some(RunChange {
            before,
            after,
            p,
            different: p <= samples::ALPHA,
        })
    }

    /// "named in 13 of 20 (43–82 %) → 6 of 20 (14–52 %): different (p = 0.027)".
    pub fn text(&self) -> String {
        let count = |s: &RunStat| samples::count_text(s.named as usize, s.answers as usize);
        let verdict = if self.different {
            format!("different (p = {:.3})", self.p)
        } else {
            "no clear difference".to_string()
        };
        format!(
            "named in {} → {}: {verdict}",
            count(&self.before),
            count(&self.after)
        )
    }
}

/// A brand over the runs: one [`RunStat`] per run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrandTrend {
    pub brand: String,
    pub overall: Vec<RunStat>,
    pub by_model: Vec<(String, Vec<RunStat>)>,
    pub by_location: Vec<(String, Vec<RunStat>)>,
    /// The last run against the one before; none with fewer than two runs that answered.
    pub change: Option<RunChange>,
}

/// A source domain over the runs: the percent of each run's answers citing it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DomainShare {
    pub domain: String,
    pub share: Vec<f64>,
}

/// A domain's rank for one search over the runs (none where it did not rank).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankTrend {
    pub terms: String,
    pub domain: String,
    pub ranks: Vec<Option<f64>>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Trends {
    pub runs: Vec<String>,
    pub brands: Vec<BrandTrend>,
    /// Most cited first.
    pub sources: Vec<DomainShare>,
    /// By terms, then best average rank first.
    pub ranks: Vec<RankTrend>,
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

/// Trends over `runs` (oldest first) for the watched `brands`.
pub fn trends(runs: &[RunObservations], brands: &[String]) -> Trends {
    let n = runs.len();
    let mut models = Names::default();
    let mut locations = Names::default();
    let mut overall = vec![vec![RunStat::default(); n]; brands.len()];
    // [brand][group] → per run
    let mut by_model: Vec<Vec<Vec<RunStat>>> = vec![Vec::new(); brands.len()];
    let mut by_location: Vec<Vec<Vec<RunStat>>> = vec![Vec::new(); brands.len()];
    let mut domains = Names::default();
    let mut cited: Vec<Vec<u32>> = Vec::new();
    let mut answers_per_run = vec![0u32; n];
    // (terms, domain) → per run: (sum of best ranks, locations)
    let mut rank_sums: HashMap<(&str, &str), Vec<(u64, u32)>> = HashMap::new();
    for (r, run) in runs.iter().enumerate() {
        answers_per_run[r] = u32::try_from(run.answers.len()).unwrap_or(u32::MAX);
        for answer in &run.answers {
            let m = models.id(&answer.model);
            let l = locations.id(&answer.location);
            for (b, stats) in overall.iter_mut().enumerate() {
                let position = answer.positions.get(b).copied().flatten();
                stats[r].add(position);
                for (groups, g, count) in [
                    (&mut by_model[b], m, models.names.len()),
                    (&mut by_location[b], l, locations.names.len()),
                ] {
                    if groups.len() < count {
                        groups.resize(count, vec![RunStat::default(); n]);
                    }
                    groups[g][r].add(position);
                }
            }
            for domain in &answer.domains {
                let d = domains.id(domain);
                if cited.len() <= d {
                    cited.push(vec![0; n]);
                }
                cited[d][r] += 1;
            }
        }
        // Best rank of each domain per (terms, location).
        let mut best: HashMap<(&str, &str, &str), u32> = HashMap::new();
        for result in &run.results {
            let key = (
                result.terms.as_str(),
                result.location.as_str(),
                result.domain.as_str(),
            );
            best.entry(key)
                .and_modify(|b| *b = (*b).min(result.rank))
                .or_insert(result.rank);
        }
        for ((terms, _, domain), rank) in best {
            let slot = rank_sums
                .entry((terms, domain))
                .or_insert_with(|| vec![(0, 0); n]);
            slot[r].0 += u64::from(rank);
            slot[r].1 += 1;
        }
    }
    let named = |names: &Names<'_>, groups: Vec<Vec<RunStat>>| -> Vec<(String, Vec<RunStat>)> {
        names
            .names
            .iter()
            .zip(groups)
            .map(|(name, stats)| (name.to_string(), stats))
            .collect()
    };
    let brand_trends = brands
        .iter()
        .enumerate()
        .map(|(b, brand)| BrandTrend {
            brand: brand.clone(),
            change: match overall[b].as_slice() {
                [.., before, after] => RunChange::of(*before, *after),
                _ => None,
            },
            overall: overall[b].clone(),
            by_model: named(&models, std::mem::take(&mut by_model[b])),
            by_location: named(&locations, std::mem::take(&mut by_location[b])),
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
            ranks: sums
                .iter()
                .map(|&(sum, count)| (count > 0).then(|| sum as f64 / f64::from(count)))
                .collect(),
        })
        .collect();
    let mean = |t: &RankTrend| {
        let known: Vec<f64> = t.ranks.iter().flatten().copied().collect();
        known.iter().sum::<f64>() / known.len().max(1) as f64
    };
    ranks.sort_by(|a, b| {
        a.terms
            .cmp(&b.terms)
            .then_with(|| mean(a).total_cmp(&mean(b)))
            .then_with(|| a.domain.cmp(&b.domain))
    });
    Trends {
        runs: runs.iter().map(|r| r.label.clone()).collect(),
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
            positions: positions.to_vec(),
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
        assert_eq!(rei.ranks, [Some(2.0), Some(2.5)]);
        assert_eq!(t.ranks[0].domain, "merrell.com");
        assert_eq!(t.ranks[0].ranks, [Some(2.0), Some(1.0)]);
    }

    #[test]
    fn no_runs_no_numbers() {
        let t = trends(&[], &brands());
        assert!(t.runs.is_empty());
        assert!(t.brands[0].overall.is_empty());
        assert_eq!(RunStat::default().visibility(), None);
    }
}
