//! What changed from one run of a set to the next: mentions gained and lost per vantage
//! point, sources gained and lost, ranks moved, and what could not be compared. Pure.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::analysis::samples;

use super::trends::{AnswerObservation, RunObservations};

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
    /// Cells both runs answered (a vantage point's answers paired in turn): what the
    /// changes are over.
    pub answers_compared: usize,
    /// Searches (terms at a place) made in both runs: what the ranks moved are over.
    pub searches_compared: usize,
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
            answers.iter().filter(|a| a.position(b).is_some()).count()
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
    // The cells compared are those paired: a vantage point answered 3 times in one run and
    // twice in the other pairs two, and its third answer is left out as not compared.
    result.answers_compared = matched
        .iter()
        .map(|(then, now)| then.len().min(now.len()))
        .sum();
    for (then, now) in &matched {
        let paired = then.len().min(now.len());
        result.only_before += then.len() - paired;
        result.only_after += now.len() - paired;
    }
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
    result.searches_compared = both.len();
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
    use crate::track::trends::tests::{brands, two_runs};

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
        assert_eq!(same.not_compared(), None);
    }
}
