//! Trends over the runs of a set, and what changed from one run to the next. Pure: the
//! observations of each run in, numbers out (`observe` reads them from stored results).
//!
//! - per brand, per run: visibility (the share of answers naming it) and its average
//!   position when named, overall and split by model and by location;
//! - per source domain: the share of a run's answers citing it;
//! - per search term and domain: its rank over runs (the best rank at each location,
//!   averaged over the locations it ranks at);
//! - a diff of two runs: mentions gained and lost, sources gained and lost, ranks moved.

use std::collections::{BTreeMap, BTreeSet, HashMap};

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

/// A brand named (or no longer named) in the answer from one vantage point.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct MentionChange {
    pub brand: String,
    pub query: String,
    pub model: String,
    pub device: String,
    pub location: String,
    /// Answers of this vantage point naming the brand, of those it had, before and after
    /// (each 1 of 1 or 0 of 1 without samples).
    pub named_before: u32,
    pub answers_before: u32,
    pub named_after: u32,
    pub answers_after: u32,
}

impl MentionChange {
    /// With samples, the counts behind the change: " (1 of 5 → 5 of 5)"; nothing for one
    /// answer each.
    pub fn counts_text(&self) -> String {
        if self.answers_before <= 1 && self.answers_after <= 1 {
            return String::new();
        }
        format!(
            " ({} of {} → {} of {})",
            self.named_before, self.answers_before, self.named_after, self.answers_after
        )
    }
}

/// A domain's best rank for a search at one location, before and after (none: unranked).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct RankMove {
    pub terms: String,
    pub location: String,
    pub domain: String,
    pub from: Option<u32>,
    pub to: Option<u32>,
}

/// What changed from one run to the next.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunDiff {
    pub mentions_gained: Vec<MentionChange>,
    pub mentions_lost: Vec<MentionChange>,
    pub sources_gained: Vec<String>,
    pub sources_lost: Vec<String>,
    pub ranks_moved: Vec<RankMove>,
    /// Answers of the same vantage point in both runs: what the changes are over.
    pub answers_compared: usize,
    /// Answers (and searches) in only one of the two runs — their call failed, expired or
    /// was not sent in the other — which nothing above compares.
    pub only_before: usize,
    pub only_after: usize,
}

impl RunDiff {
    /// No change among what was compared (something may not have been: see
    /// [`RunDiff::not_compared`]).
    pub fn is_empty(&self) -> bool {
        self.mentions_gained.is_empty()
            && self.mentions_lost.is_empty()
            && self.sources_gained.is_empty()
            && self.sources_lost.is_empty()
            && self.ranks_moved.is_empty()
    }

    /// What the changes are over, as a line: "nothing changed in the 12 answers both runs
    /// have" when nothing did.
    pub fn headline(&self) -> String {
        let answers = match self.answers_compared {
            0 => return "nothing compared: no vantage point answered in both runs".to_string(),
            1 => "the 1 answer both runs have".to_string(),
            n => format!("the {n} answers both runs have"),
        };
        match self.is_empty() {
            true => format!("nothing changed in {answers}"),
            false => format!("changes in {answers}"),
        }
    }

    /// The answers and searches left out, as a line; `None` when every one was compared.
    pub fn not_compared(&self) -> Option<String> {
        (self.only_before + self.only_after > 0).then(|| {
            format!(
                "not compared, failed or not sent in the other run: {} before, {} after",
                self.only_before, self.only_after
            )
        })
    }
}

/// What a line of the changes is, for the views that mark them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// What the changes are over.
    Headline,
    /// Answers or searches left out of the comparison.
    LeftOut,
    /// A brand's visibility against the run before, with the test's verdict.
    Brand {
        different: bool,
    },
    Gained,
    Lost,
    Other,
}

/// One line of what the last run changed.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangeLine {
    pub kind: ChangeKind,
    /// The brand a `Brand` line is about ("Salomon"), else empty.
    pub brand: String,
    pub text: String,
}

/// The changes of the last run as lines, in the order every view shows them: what they are
/// over, what was left out, each brand against the run before, mentions gained and lost,
/// sources gained and lost, ranks moved.
pub fn change_lines(diff: &RunDiff, trends: Option<&Trends>) -> Vec<ChangeLine> {
    let line = |kind, text: String| ChangeLine {
        kind,
        brand: String::new(),
        text,
    };
    let mut lines = vec![line(ChangeKind::Headline, diff.headline())];
    if let Some(left_out) = diff.not_compared() {
        lines.push(line(ChangeKind::LeftOut, left_out));
    }
    for brand in trends.iter().flat_map(|t| &t.brands) {
        if let Some(change) = brand.change {
            lines.push(ChangeLine {
                kind: ChangeKind::Brand {
                    different: change.different,
                },
                brand: brand.brand.clone(),
                text: change.text(),
            });
        }
    }
    for (kind, changes) in [
        (ChangeKind::Gained, &diff.mentions_gained),
        (ChangeKind::Lost, &diff.mentions_lost),
    ] {
        for c in changes {
            lines.push(line(
                kind,
                format!(
                    "{} named by {} at {} for \"{}\"{}",
                    c.brand,
                    c.model,
                    c.location,
                    c.query,
                    c.counts_text()
                ),
            ));
        }
    }
    if !diff.sources_gained.is_empty() {
        lines.push(line(
            ChangeKind::Other,
            format!("sources gained: {}", diff.sources_gained.join(", ")),
        ));
    }
    if !diff.sources_lost.is_empty() {
        lines.push(line(
            ChangeKind::Other,
            format!("sources lost: {}", diff.sources_lost.join(", ")),
        ));
    }
    for m in &diff.ranks_moved {
        let at = |r: Option<u32>| r.map_or("unranked".to_string(), |r| r.to_string());
        lines.push(line(
            ChangeKind::Other,
            format!(
                "{} for \"{}\" at {}: {} → {}",
                m.domain,
                m.terms,
                m.location,
                at(m.from),
                at(m.to)
            ),
        ));
    }
    lines
}

fn vantage_key(a: &AnswerObservation) -> (&str, &str, &str, &str) {
    (&a.query, &a.model, &a.device, &a.location)
}

pub(crate) type VantageKey<'a> = (&'a str, &'a str, &'a str, &'a str);

/// A run's answers by vantage point (several with samples), in first-seen order.
pub(crate) fn by_vantage(run: &RunObservations) -> Vec<(VantageKey<'_>, Vec<&AnswerObservation>)> {
    let mut index: HashMap<VantageKey<'_>, usize> = HashMap::new();
    let mut groups: Vec<(VantageKey<'_>, Vec<&AnswerObservation>)> = Vec::new();
    for answer in &run.answers {
        let key = vantage_key(answer);
        match index.get(&key) {
            Some(&i) => groups[i].1.push(answer),
            None => {
                index.insert(key, groups.len());
                groups.push((key, vec![answer]));
            }
        }
    }
    groups
}

/// What changed from `before` to `after`. Answers are matched by their vantage point
/// (query, model, device, location); one answered in only one of the runs is not compared,
/// so a failed job does not read as every brand lost. With one answer each, a brand named in
/// one and not the other is a change; with samples, only a change Fisher's exact test calls
/// one at 95 %.
pub fn diff(before: &RunObservations, after: &RunObservations, brands: &[String]) -> RunDiff {
    let earlier = by_vantage(before);
    let later = by_vantage(after);
    let earlier_index: HashMap<VantageKey<'_>, usize> = earlier
        .iter()
        .enumerate()
        .map(|(i, (key, _))| (*key, i))
        .collect();
    let later_keys: BTreeSet<VantageKey<'_>> = later.iter().map(|(key, _)| *key).collect();
    let mut result = RunDiff {
        only_before: earlier
            .iter()
            .filter(|(k, _)| !later_keys.contains(k))
            .map(|(_, answers)| answers.len())
            .sum(),
        only_after: later
            .iter()
            .filter(|(k, _)| !earlier_index.contains_key(k))
            .map(|(_, answers)| answers.len())
            .sum(),
        ..RunDiff::default()
    };
    let mut matched: Vec<(&[&AnswerObservation], &[&AnswerObservation])> = Vec::new();
    for (key, now) in &later {
        let Some(&i) = earlier_index.get(key) else {
            continue;
        };
        let then = &earlier[i].1;
        matched.push((then, now));
        let count = |answers: &[&AnswerObservation], b: usize| {
            answers
                .iter()
                .filter(|a| a.positions.get(b).copied().flatten().is_some())
                .count()
        };
        for (b, brand) in brands.iter().enumerate() {
            let (was, is) = (count(then, b), count(now, b));
            let gained = if then.len() == 1 && now.len() == 1 {
                match (was, is) {
                    (0, 1) => Some(true),
                    (1, 0) => Some(false),
                    _ => None,
                }
            } else {
                let rate = |named: usize, of: usize| named as f64 / of.max(1) as f64;
                samples::differ((was, then.len()), (is, now.len()), 1)
                    .map(|_| rate(is, now.len()) > rate(was, then.len()))
            };
            let Some(gained) = gained else {
                continue;
            };
            let as_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
            let change = MentionChange {
                brand: brand.clone(),
                query: now[0].query.clone(),
                model: now[0].model.clone(),
                device: now[0].device.clone(),
                location: now[0].location.clone(),
                named_before: as_u32(was),
                answers_before: as_u32(then.len()),
                named_after: as_u32(is),
                answers_after: as_u32(now.len()),
            };
            if gained {
                result.mentions_gained.push(change);
            } else {
                result.mentions_lost.push(change);
            }
        }
    }
    result.answers_compared = matched.iter().map(|(_, now)| now.len()).sum();
    // Sources over the answers both runs have: a failed call must not read as its sources lost.
    let domains = |answers: &mut dyn Iterator<Item = &AnswerObservation>| -> BTreeSet<String> {
        answers.flat_map(|a| a.domains.iter().cloned()).collect()
    };
    let old = domains(&mut matched.iter().flat_map(|(then, _)| then.iter().copied()));
    let new = domains(&mut matched.iter().flat_map(|(_, now)| now.iter().copied()));
    result.sources_gained = new.difference(&old).cloned().collect();
    result.sources_lost = old.difference(&new).cloned().collect();
    let best = |run: &RunObservations| -> BTreeMap<(String, String, String), u32> {
        let mut best = BTreeMap::new();
        for r in &run.results {
            best.entry((r.terms.clone(), r.location.clone(), r.domain.clone()))
                .and_modify(|b: &mut u32| *b = (*b).min(r.rank))
                .or_insert(r.rank);
        }
        best
    };
    let (old, new) = (best(before), best(after));
    // Only searches made in both runs are compared, as with answers.
    let searched = |run: &RunObservations| -> BTreeSet<(String, String)> {
        run.results
            .iter()
            .map(|r| (r.terms.clone(), r.location.clone()))
            .collect()
    };
    let (searched_before, searched_after) = (searched(before), searched(after));
    let both: BTreeSet<(String, String)> = searched_before
        .intersection(&searched_after)
        .cloned()
        .collect();
    result.only_before += searched_before.difference(&searched_after).count();
    result.only_after += searched_after.difference(&searched_before).count();
    let keys: BTreeSet<&(String, String, String)> = old.keys().chain(new.keys()).collect();
    for k in keys {
        if !both.contains(&(k.0.clone(), k.1.clone())) {
            continue;
        }
        let (from, to) = (old.get(k).copied(), new.get(k).copied());
        if from != to {
            result.ranks_moved.push(RankMove {
                terms: k.0.clone(),
                location: k.1.clone(),
                domain: k.2.clone(),
                from,
                to,
            });
        }
    }
    result.mentions_gained.sort();
    result.mentions_lost.sort();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(
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

    fn result(location: &str, rank: u32, domain: &str) -> ResultObservation {
        ResultObservation {
            terms: "boots".to_string(),
            location: location.to_string(),
            rank,
            domain: domain.to_string(),
            url: format!("https://{domain}/"),
            title: String::new(),
        }
    }

    fn brands() -> Vec<String> {
        vec!["Merrell".to_string(), "Salomon".to_string()]
    }

    fn two_runs() -> Vec<RunObservations> {
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
    fn diff_names_what_changed_between_runs() {
        let runs = two_runs();
        let d = diff(&runs[0], &runs[1], &brands());
        let names = |c: &[MentionChange]| -> Vec<String> {
            c.iter()
                .map(|c| format!("{} {} {}", c.brand, c.model, c.location))
                .collect()
        };
        assert_eq!(names(&d.mentions_gained), ["Merrell gemini US"]);
        assert_eq!(names(&d.mentions_lost), ["Salomon chatgpt US"]);
        assert_eq!(d.sources_gained, ["gear.com"]);
        // Gemini in DE answered on day 1 only (its call failed on day 2): its source is not
        // read as lost, and the answer is counted as not compared.
        assert_eq!(d.sources_lost, ["merrell.com"]);
        assert_eq!(d.answers_compared, 3);
        assert_eq!((d.only_before, d.only_after), (1, 0));
        assert_eq!(d.headline(), "changes in the 3 answers both runs have");
        assert_eq!(
            d.not_compared().as_deref(),
            Some("not compared, failed or not sent in the other run: 1 before, 0 after")
        );
        let moved: Vec<(String, Option<u32>, Option<u32>)> = d
            .ranks_moved
            .iter()
            .map(|m| (m.domain.clone(), m.from, m.to))
            .collect();
        assert_eq!(
            moved,
            [
                ("merrell.com".to_string(), Some(2), Some(1)),
                ("rei.com".to_string(), Some(1), Some(2)),
            ]
        );
        let same = diff(&runs[1], &runs[1], &brands());
        assert!(same.is_empty());
        assert_eq!(
            same.headline(),
            "nothing changed in the 3 answers both runs have"
        );
        assert_eq!(same.not_compared(), None);
    }

    #[test]
    fn no_runs_no_numbers() {
        let t = trends(&[], &brands());
        assert!(t.runs.is_empty());
        assert!(t.brands[0].overall.is_empty());
        assert_eq!(RunStat::default().visibility(), None);
    }
}
