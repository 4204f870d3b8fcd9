//! A set's alerts evaluated on a run: each measure read over the answers (or searches) its
//! filters keep, against its threshold or against the run before. Pure: observations in,
//! the alerts that fire out, each with a sentence a chat channel can show as is.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::alerts::{Alert, Condition, Measure, number};
use crate::analysis::mentions::Brand;
use crate::analysis::workspace::location_spec;
use crate::api::Location;
use crate::present::compare::summary::location_label;

use super::tally::RunTally;

/// An alert that fired on a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fired {
    pub set: String,
    /// The run it fired on (its id).
    pub run: String,
    /// The brand, or the domain of a rank alert.
    pub subject: String,
    pub measure: &'static str,
    /// `below`, `above` or `drops_by`.
    pub condition: &'static str,
    pub threshold: f64,
    /// The measure in this run; none when not named (position) or not ranked (rank).
    pub value: Option<f64>,
    /// The measure in the run before, for `drops_by`.
    pub previous: Option<f64>,
    pub models: Vec<String>,
    pub locations: Vec<String>,
    /// The alert in one sentence.
    pub text: String,
}

/// Whether an answer or search from `label` ("US/CO/Denver") is in one of `places`: a
/// country takes its subdivisions and cities, a subdivision its cities.
fn in_places(label: &str, places: &[Location]) -> bool {
    places.is_empty()
        || places.iter().any(|place| {
            let wanted = location_label(place);
            let parts: Vec<&str> = wanted.split('/').collect();
            let have: Vec<&str> = label.split('/').collect();
            parts.iter().enumerate().all(|(i, part)| {
                *part == "–" || have.get(i).is_some_and(|h| h.eq_ignore_ascii_case(part))
            })
        })
}

fn in_models(model: &str, models: &[String]) -> bool {
    models.is_empty() || models.iter().any(|m| m.eq_ignore_ascii_case(model))
}

/// The measure over the run's answers (or searches) the alert's filters keep; `None` when
/// there is nothing to read (no answer in scope, not named for position, not ranked).
/// The second value says whether anything was in scope at all. Read from the run's tally,
/// as trends read it, so an alert and the trends beside it agree.
fn measure(alert: &Alert, run: &RunTally, domains: &[String]) -> (Option<f64>, bool) {
    if alert.measure.is_rank() {
        let searches: Vec<_> = run
            .ranks
            .iter()
            .filter(|r| in_places(&r.place, &alert.locations))
            .collect();
        // The domains' best rank in each search (terms at a place).
        let mut best: BTreeMap<(&str, &str), u32> = BTreeMap::new();
        for r in searches.iter().filter(|r| {
            domains.iter().any(|d| {
                let d = d.trim_start_matches("www.");
                r.domain == d || r.domain.ends_with(&format!(".{d}"))
            })
        }) {
            best.entry((r.terms.as_str(), r.place.as_str()))
                .and_modify(|b| *b = (*b).min(r.best))
                .or_insert(r.best);
        }
        let value = match alert.measure {
            Measure::MeanRank => (!best.is_empty())
                .then(|| best.values().map(|r| f64::from(*r)).sum::<f64>() / best.len() as f64),
            _ => best.values().min().map(|r| f64::from(*r)),
        };
        return (value, !searches.is_empty());
    }
    let Some(brand) = alert.brand.as_ref().filter(|b| run.brands.contains(b)) else {
        return (None, false);
    };
    let stat = run.stat(brand, |c| {
        in_models(&c.model, &alert.models) && in_places(&c.place, &alert.locations)
    });
    if stat.answers == 0 {
        return (None, false);
    }
    let value = match alert.measure {
        Measure::Visibility => stat.visibility(),
        Measure::Position => stat.average_position(),
        Measure::ShareOfVoice => stat.share_of_voice(),
        Measure::BestRank | Measure::MeanRank => None,
    };
    (value, true)
}

/// Whether the condition holds. A position or rank is worse when higher; one not there at
/// all (not named, not ranked) is worse than any.
fn fires(alert: &Alert, now: Option<f64>, before: Option<f64>) -> bool {
    let higher_is_worse = alert.measure == Measure::Position || alert.measure.is_rank();
    let worst = |v: Option<f64>| v.unwrap_or(if higher_is_worse { f64::INFINITY } else { 0.0 });
    match alert.condition {
        Condition::Below(t) => now.is_some_and(|v| v < t),
        Condition::Above(t) => match now {
            Some(v) => v > t,
            // Not named or not ranked: above any position or rank.
            None => higher_is_worse,
        },
        Condition::DropsBy(t) => {
            let Some(before) = before else {
                return false;
            };
            let now = worst(now);
            if higher_is_worse {
                now - before >= t
            } else {
                before - now >= t
            }
        }
    }
}

fn shown(measure: Measure, value: Option<f64>) -> String {
    match (value, measure) {
        (None, m) if m.is_rank() => "not ranked".to_string(),
        (None, _) => crate::analysis::mentions::NOT_NAMED.to_string(),
        (Some(v), m) if m.is_percent() => format!("{v:.0} %"),
        (Some(v), Measure::BestRank) => format!("{v:.0}"),
        (Some(v), _) => format!("{v:.1}"),
    }
}

/// The alerts of `set` that fire on `run`; a drop is read from `against`, the run before
/// and this one over the cells both answered (`paired::Compared`), so a failed call is never
/// a drop. `tracked` gives a brand's domains.
pub fn evaluate(
    set: &str,
    alerts: &[Alert],
    run_id: &str,
    run: &RunTally,
    against: Option<(&RunTally, &RunTally)>,
    tracked: &[Brand],
) -> Vec<Fired> {
    let mut fired = Vec::new();
    for alert in alerts {
        let domains: Vec<String> = match (&alert.domain, &alert.brand) {
            (Some(domain), _) => vec![domain.clone()],
            (None, Some(brand)) => tracked
                .iter()
                .find(|b| &b.name == brand)
                .map(|b| b.domains.clone())
                .unwrap_or_default(),
            (None, None) => Vec::new(),
        };
        let (mut now, in_scope) = measure(alert, run, &domains);
        if !in_scope {
            continue;
        }
        let mut previous = None;
        if let (Condition::DropsBy(_), Some((before, after))) = (alert.condition, against) {
            previous = measure(alert, before, &domains).0;
            now = measure(alert, after, &domains).0;
        }
        if !fires(alert, now, previous) {
            continue;
        }
        let unit = if alert.measure.is_percent() { " %" } else { "" };
        let reading = match alert.condition {
            Condition::Below(t) => format!(
                "is {}, below {}{unit}",
                shown(alert.measure, now),
                number(t)
            ),
            // Not ranked at all is past any bound on a rank, but not "above" it.
            Condition::Above(t) if now.is_none() => format!(
                "is {}, so past {}{unit}",
                shown(alert.measure, now),
                number(t)
            ),
            Condition::Above(t) => format!(
                "is {}, above {}{unit}",
                shown(alert.measure, now),
                number(t)
            ),
            Condition::DropsBy(t) => format!(
                "went from {} to {}, a drop of at least {}",
                shown(alert.measure, previous),
                shown(alert.measure, now),
                number(t)
            ),
        };
        let places: Vec<String> = alert.locations.iter().map(location_spec).collect();
        let scope: Vec<String> = [alert.models.join(", "), places.join(", ")]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        let scope = if scope.is_empty() {
            String::new()
        } else {
            format!(" ({})", scope.join("; "))
        };
        let short = run_id.get(..8).unwrap_or(run_id);
        fired.push(Fired {
            set: set.to_string(),
            run: run_id.to_string(),
            subject: alert.subject().to_string(),
            measure: alert.measure.as_str(),
            condition: alert.condition.key(),
            threshold: alert.condition.threshold(),
            value: now,
            previous,
            models: alert.models.clone(),
            locations: places,
            text: format!(
                "{set}: {}'s {}{scope} {reading} in run {short}.",
                alert.subject(),
                alert.measure.words()
            ),
        });
    }
    fired
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::trends::{AnswerObservation, ResultObservation, RunObservations, Seen};

    fn answer(model: &str, location: &str, positions: Vec<Option<u32>>) -> AnswerObservation {
        AnswerObservation {
            query: "q".into(),
            model: model.into(),
            device: String::new(),
            location: location.into(),
            brands: positions.into_iter().map(Seen::at).collect(),
            domains: Vec::new(),
        }
    }

    /// Evaluates on the runs' tallies, as every view does.
    fn evaluate(
        set: &str,
        alerts: &[Alert],
        run_id: &str,
        run: &RunObservations,
        before: Option<&RunObservations>,
        brands: &[String],
        tracked: &[Brand],
    ) -> Vec<Fired> {
        let now = RunTally::of(run, brands);
        let compared = before.map(|b| crate::track::paired::compare(b, run, brands));
        let against = compared.as_ref().map(|c| (&c.before, &c.after));
        super::evaluate(set, alerts, run_id, &now, against, tracked)
    }

    fn run(answers: Vec<AnswerObservation>) -> RunObservations {
        RunObservations {
            label: "r".into(),
            answers,
            results: Vec::new(),
        }
    }

    fn alert(measure: Measure, condition: Condition) -> Alert {
        Alert {
            brand: Some("Salomon".into()),
            domain: None,
            measure,
            condition,
            models: Vec::new(),
            locations: Vec::new(),
        }
    }

    #[test]
    fn each_measure_fires_on_its_threshold_and_filters_narrow_the_answers() {
        let brands = vec!["Salomon".to_string(), "Lowa".to_string()];
        let now = run(vec![
            answer("chatgpt", "US/CO/Denver", vec![Some(2), Some(1)]),
            answer("chatgpt", "DE", vec![None, Some(1)]),
            answer("gemini", "US", vec![None, None]),
            answer("gemini", "DE", vec![Some(1), None]),
        ]);
        let fired = |a: Alert| evaluate("boots", &[a], "abcdef123", &now, None, &brands, &[]);
        // Visibility 50 %: below 51 fires, below 50 does not.
        assert_eq!(
            fired(alert(Measure::Visibility, Condition::Below(51.0))).len(),
            1
        );
        assert!(fired(alert(Measure::Visibility, Condition::Below(50.0))).is_empty());
        // Position 1.5 where named.
        let position = fired(alert(Measure::Position, Condition::Above(1.4)));
        assert_eq!(position[0].value, Some(1.5));
        // Share of voice: 2 of 4 mentions.
        let share = fired(alert(Measure::ShareOfVoice, Condition::Below(60.0)));
        assert_eq!(share[0].value, Some(50.0));
        // Only ChatGPT in the US: named in 1 of 1.
        let mut narrow = alert(Measure::Visibility, Condition::Below(100.0));
        narrow.models = vec!["chatgpt".into()];
        narrow.locations = vec![crate::geo::parse_location("us").unwrap()];
        assert!(fired(narrow.clone()).is_empty());
        narrow.condition = Condition::Below(101.0);
        let text = &fired(narrow)[0].text;
        assert_eq!(
            text,
            "boots: Salomon's visibility (chatgpt; US) is 100 %, below 101 % in run abcdef12."
        );
    }

    #[test]
    fn drops_compare_with_the_run_before_and_a_rank_lost_is_worse_than_any() {
        let brands = vec!["Salomon".to_string()];
        let before = run(vec![
            answer("chatgpt", "US", vec![Some(1)]),
            answer("chatgpt", "DE", vec![Some(1)]),
        ]);
        let now = run(vec![
            answer("chatgpt", "US", vec![Some(1)]),
            answer("chatgpt", "DE", vec![None]),
        ]);
        let drop = alert(Measure::Visibility, Condition::DropsBy(50.0));
        let fired = evaluate("s", &[drop], "r2", &now, Some(&before), &brands, &[]);
        assert_eq!(
            (fired[0].previous, fired[0].value),
            (Some(100.0), Some(50.0))
        );
        let tracked = vec![Brand {
            name: "Salomon".into(),
            aliases: Vec::new(),
            domains: vec!["salomon.com".into()],
        }];
        let ranked = |rank: u32, domain: &str| ResultObservation {
            terms: "boots".into(),
            location: "US".into(),
            rank,
            domain: domain.into(),
            url: String::new(),
            title: String::new(),
        };
        let mut searched_before = run(Vec::new());
        searched_before.results = vec![ranked(3, "www.salomon.com")];
        let mut searched_now = run(Vec::new());
        searched_now.results = vec![ranked(1, "rei.com")];
        let rank = alert(Measure::BestRank, Condition::DropsBy(2.0));
        let fired = evaluate(
            "s",
            &[
                rank.clone(),
                Alert {
                    condition: Condition::Above(10.0),
                    ..rank
                },
            ],
            "r2",
            &searched_now,
            Some(&searched_before),
            &brands,
            &tracked,
        );
        assert_eq!(fired.len(), 2, "{fired:?}");
        assert!(
            fired[0]
                .text
                .contains("Salomon's best rank went from 3 to not ranked"),
            "{}",
            fired[0].text
        );
    }

    /// rei.com is first in the US and fourth in Germany: its best rank is 1, its mean 2.5,
    /// as trends print them. `above = 1` on the best never fires; on the mean it does, and
    /// each sentence names the rank it compares.
    #[test]
    fn a_rank_alert_compares_the_best_or_the_mean_rank_and_says_which() {
        let ranked = |location: &str, rank: u32, domain: &str| ResultObservation {
            terms: "boots".into(),
            location: location.into(),
            rank,
            domain: domain.into(),
            url: String::new(),
            title: String::new(),
        };
        let mut searched = run(Vec::new());
        searched.results = vec![
            ranked("US", 1, "rei.com"),
            ranked("US", 3, "rei.com"),
            ranked("DE", 4, "rei.com"),
            ranked("DE", 1, "bergzeit.de"),
        ];
        let on = |measure: Measure, condition: Condition| Alert {
            brand: None,
            domain: Some("rei.com".into()),
            ..alert(measure, condition)
        };
        let fired =
            |alerts: &[Alert]| evaluate("boots", alerts, "abcdef123", &searched, None, &[], &[]);
        assert!(fired(&[on(Measure::BestRank, Condition::Above(1.0))]).is_empty());
        let mean = fired(&[on(Measure::MeanRank, Condition::Above(1.0))]);
        assert_eq!(mean[0].value, Some(2.5));
        assert_eq!(mean[0].measure, "mean_rank");
        assert_eq!(
            mean[0].text,
            "boots: rei.com's mean rank is 2.5, above 1 in run abcdef12."
        );
        let unranked = fired(&[Alert {
            domain: Some("pipedrive.com".into()),
            ..on(Measure::MeanRank, Condition::Above(3.0))
        }]);
        assert_eq!(
            unranked[0].text,
            "boots: pipedrive.com's mean rank is not ranked, so past 3 in run abcdef12."
        );
        let best = fired(&[on(Measure::BestRank, Condition::Below(2.0))]);
        assert_eq!(
            best[0].text,
            "boots: rei.com's best rank is 1, below 2 in run abcdef12."
        );
        // The same numbers as the trends print for the search.
        let trends = crate::track::trends::trends(&[searched.clone()], &[]);
        let rei = trends.ranks.iter().find(|r| r.domain == "rei.com").unwrap();
        assert_eq!((rei.best[0], rei.mean[0]), (Some(1), Some(2.5)));
        // Only Germany: the best is 4.
        let mut german = on(Measure::BestRank, Condition::Above(1.0));
        german.locations = vec![crate::geo::parse_location("de").unwrap()];
        assert_eq!(fired(&[german])[0].value, Some(4.0));
    }
}
