//! A run read as Compare reads a comparison: the kinds of the sites its answers cite, per
//! model and per place, and the gaps of the workspace's own brand — the vantage points where
//! a competitor is named or cited and it is not, and the sites cited there that never cite
//! it. Pure.

use serde::Serialize;

use crate::analysis::mentions::{Brand, Mention, on_domain};
use crate::analysis::sources::{Classifier, KindCounts};
use crate::present::compare::gaps::{self, Gaps};

use super::diff::by_vantage;
use super::trends::{AnswerObservation, RunObservations};

/// What one run's answers say beyond visibility.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunReadings {
    /// The run's label.
    pub run: String,
    pub kinds: Vec<KindCounts>,
    /// With an own brand among the brands read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gaps: Option<Gaps>,
}

/// The readings of `run`, whose answers were observed for `brands` (in that order); the
/// gaps when `own` names one of them.
pub fn readings(
    run: &RunObservations,
    brands: &[Brand],
    own: Option<&str>,
    classifier: &Classifier,
) -> RunReadings {
    let kinds = KindCounts::by_model_and_place(
        run.answers
            .iter()
            .map(|a| (a.model.as_str(), a.location.as_str(), a.domains.as_slice())),
        classifier,
    );
    let gaps = own
        .filter(|own| brands.iter().any(|b| b.name.eq_ignore_ascii_case(own)))
        .map(|own| run_gaps(run, brands, own));
    RunReadings {
        run: run.label.clone(),
        kinds,
        gaps,
    }
}

/// An observed answer's brands as mentions: named at their position, cited when one of its
/// sources is on the brand's domains.
fn mentions_of(answer: &AnswerObservation, brands: &[Brand]) -> Vec<Mention> {
    brands
        .iter()
        .zip(&answer.brands)
        .map(|(brand, seen)| Mention {
            brand: brand.name.clone(),
            position: seen.position.map(|p| p as usize),
            rank: None,
            count: seen.count as usize,
            sentence: None,
            cited: brand
                .domains
                .iter()
                .any(|d| answer.domains.iter().any(|host| on_domain(host, d))),
            stance: seen.stance,
        })
        .collect()
}

/// The gaps over the run's vantage points (its samples read together: named in any).
fn run_gaps(run: &RunObservations, brands: &[Brand], own: &str) -> Gaps {
    let groups = by_vantage(run);
    let mut labels = Vec::with_capacity(groups.len());
    let mut found = Vec::with_capacity(groups.len());
    let mut domains = Vec::with_capacity(groups.len());
    for ((query, model, device, location), answers) in &groups {
        let device = if device.is_empty() {
            String::new()
        } else {
            format!(" · {device}")
        };
        labels.push(format!("{model}{device} · {location} · \"{query}\""));
        let each: Vec<Vec<Mention>> = answers.iter().map(|a| mentions_of(a, brands)).collect();
        found.push(each);
        let mut cited: Vec<String> = answers.iter().flat_map(|a| a.domains.clone()).collect();
        cited.sort();
        cited.dedup();
        domains.push(cited);
    }
    let own = brands
        .iter()
        .find(|b| b.name.eq_ignore_ascii_case(own))
        .map_or(own, |b| b.name.as_str());
    gaps::gaps(own, &labels, &found, &domains)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::trends::Seen;

    fn answer(
        model: &str,
        location: &str,
        positions: &[Option<u32>],
        domains: &[&str],
    ) -> AnswerObservation {
        AnswerObservation {
            query: "best boots".into(),
            model: model.into(),
            device: String::new(),
            location: location.into(),
            brands: positions.iter().map(|p| Seen::at(*p)).collect(),
            domains: domains.iter().map(|d| d.to_string()).collect(),
        }
    }

    #[test]
    fn kinds_per_model_and_place_and_the_gaps_of_the_own_brand() {
        let brands = vec![
            Brand {
                name: "Lowa".into(),
                domains: vec!["lowa.com".into()],
                ..Brand::default()
            },
            Brand::named("Merrell"),
        ];
        let run = RunObservations {
            label: "#2".into(),
            answers: vec![
                answer(
                    "chatgpt",
                    "US",
                    &[Some(1), Some(2)],
                    &["lowa.com", "reddit.com"],
                ),
                answer(
                    "chatgpt",
                    "DE",
                    &[None, Some(1)],
                    &["rei.com", "outdoorgearlab.com"],
                ),
                // Gemini from DE names Merrell and not Lowa either.
                answer("gemini", "DE", &[None, Some(1)], &["outdoorgearlab.com"]),
            ],
            results: Vec::new(),
        };
        let classifier = Classifier::new(&brands, Some("Lowa"), Vec::new());
        let read = readings(&run, &brands, Some("lowa"), &classifier);
        assert_eq!(read.kinds[0].group, "model chatgpt");
        assert_eq!(read.kinds[0].total, 4);
        assert!(read.kinds.iter().any(|k| k.group == "place DE"));
        let gaps = read.gaps.expect("an own brand");
        assert_eq!(gaps.own, "Lowa");
        let labels: Vec<&str> = gaps.columns.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "chatgpt · DE · \"best boots\"",
                "gemini · DE · \"best boots\""
            ]
        );
        assert_eq!(gaps.domains, ["outdoorgearlab.com", "rei.com"]);
        assert!(readings(&run, &brands, None, &classifier).gaps.is_none());
    }
}
