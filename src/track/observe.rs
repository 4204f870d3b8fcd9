//! A stored result read as trends and reports need it: for an answer, which watched brands
//! it names (where, how often, and what it says of each) and which domains it cites; for a
//! search, the organic results.

use std::time::Duration;

use crate::analysis::mentions::{self, Brand, Mention};
use crate::api::{AiRequest, ResultKind, SearchRequest, SearchResults};
use crate::present::answer;
use crate::present::compare::mentions::answer_mentions;
use crate::present::compare::overview::{AI_OVERVIEW, is_overview_request, stored_overview};
use crate::present::compare::summary::location_label;
use crate::store::{RequestParams, RunItem};

use super::trends::{AnswerObservation, ResultObservation, RunObservations, Seen};

/// An answer with the mentions behind its observation (the report shows their counts).
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedAnswer {
    pub observation: AnswerObservation,
    pub mentions: Vec<Mention>,
}

/// What one call of a run observed; nothing while its job has no result.
#[derive(Clone, Debug, PartialEq)]
pub enum Observed {
    Answer(ObservedAnswer),
    Results(Vec<ResultObservation>),
    Nothing,
}

/// Reads one call's stored result.
pub fn observe(item: &RunItem, brands: &[Brand]) -> Observed {
    let Some(body) = &item.body else {
        return Observed::Nothing;
    };
    match &item.request {
        RequestParams::Ai(request) => {
            observe_answer(request, body, brands).map_or(Observed::Nothing, Observed::Answer)
        }
        RequestParams::Search(request) if is_overview_request(request) => {
            Observed::Answer(observe_overview(request, body, brands))
        }
        RequestParams::Search(request) => Observed::Results(observe_results(request, body)),
        RequestParams::Browser(_) | RequestParams::Compare(_) => Observed::Nothing,
    }
}

fn observe_answer(request: &AiRequest, body: &str, brands: &[Brand]) -> Option<ObservedAnswer> {
    // Runs ask for JSON; a body that is neither a completion nor a page has nothing to count.
    let prepared = answer::prepare_to_read(request.clone(), body)?;
    Some(observed(
        &prepared,
        AnswerObservation {
            query: request.prompt.clone(),
            model: request.effective_model().as_str().to_string(),
            device: request.device.clone().unwrap_or_default(),
            location: location_label(&request.location),
            brands: Vec::new(),
            domains: Vec::new(),
        },
        brands,
    ))
}

/// A stored results page read as an answer: its AI Overview (or, without one, an answer that
/// names nothing, so visibility counts the page as a miss).
fn observe_overview(request: &SearchRequest, page: &str, brands: &[Brand]) -> ObservedAnswer {
    let prepared = stored_overview(request.clone(), page.to_owned(), Duration::ZERO);
    observed(
        &prepared,
        AnswerObservation {
            query: request.terms.clone(),
            model: AI_OVERVIEW.to_string(),
            device: String::new(),
            location: location_label(&request.location),
            brands: Vec::new(),
            domains: Vec::new(),
        },
        brands,
    )
}

/// Fills `observation` with the brands `prepared` names (read as every view reads an
/// answer's mentions) and the domains it cites.
fn observed(
    prepared: &answer::PreparedAnswer,
    mut observation: AnswerObservation,
    brands: &[Brand],
) -> ObservedAnswer {
    let found = answer_mentions(prepared, brands);
    observation.brands = brands
        .iter()
        .map(|b| {
            found
                .iter()
                .find(|m| m.brand == b.name)
                .map_or_else(Seen::default, |m| Seen {
                    position: m.position.and_then(|p| u32::try_from(p).ok()),
                    count: u32::try_from(m.count).unwrap_or(u32::MAX),
                    stance: m.stance,
                })
        })
        .collect();
    for source in &prepared.sources {
        let domain = mentions::host_of(&source.url);
        if !domain.is_empty() && !observation.domains.contains(&domain) {
            observation.domains.push(domain);
        }
    }
    ObservedAnswer {
        observation,
        mentions: found,
    }
}

fn observe_results(request: &SearchRequest, body: &str) -> Vec<ResultObservation> {
    let Ok(results) = serde_json::from_str::<SearchResults>(body) else {
        return Vec::new();
    };
    let location = location_label(&request.location);
    results
        .results
        .into_iter()
        .filter(|r| {
            matches!(
                r.kind,
                ResultKind::Organic | ResultKind::OrganicWithSitelinks
            )
        })
        .filter(|r| r.position > 0 && !r.url.is_empty())
        .map(|r| ResultObservation {
            terms: request.terms.clone(),
            location: location.clone(),
            rank: r.position,
            domain: mentions::host_of(&r.url),
            url: r.url,
            title: r.title,
        })
        .collect()
}

/// A run's observations, for trends.
pub fn observe_run(label: String, items: &[RunItem], brands: &[Brand]) -> RunObservations {
    let mut run = RunObservations {
        label,
        ..RunObservations::default()
    };
    for item in items {
        match observe(item, brands) {
            Observed::Answer(answer) => run.answers.push(answer.observation),
            Observed::Results(results) => run.results.extend(results),
            Observed::Nothing => {}
        }
    }
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::compare::overview::overview_request;

    fn item(request: SearchRequest, body: &str) -> RunItem {
        RunItem {
            seq: 0,
            request: RequestParams::Search(request),
            job_id: None,
            state: None,
            sends: 1,
            refused: None,
            body: Some(body.to_string()),
        }
    }

    #[test]
    fn a_stored_results_page_is_read_for_its_ai_overview_as_one_more_answer() {
        let page = include_str!("../../tests/fixtures/live/search-google-sample.html");
        let brands = [Brand::named("Claude"), Brand::named("Salomon")];
        let request = overview_request("mcp server".into(), Default::default(), None);
        let Observed::Answer(answer) = observe(&item(request, page), &brands) else {
            panic!("an overview page is an answer")
        };
        assert_eq!(answer.observation.model, AI_OVERVIEW);
        assert_eq!(answer.observation.query, "mcp server");
        let positions: Vec<Option<u32>> = answer
            .observation
            .brands
            .iter()
            .map(|s| s.position)
            .collect();
        assert_eq!(positions, vec![Some(1), None]);
        assert!(
            answer.observation.domains.contains(&"zenn.dev".to_string()),
            "{:?}",
            answer.observation.domains
        );
    }

    #[test]
    fn a_page_without_an_overview_names_nothing_and_a_plain_search_stays_results() {
        let brands = [Brand::named("Claude")];
        let request = overview_request("boots".into(), Default::default(), None);
        let Observed::Answer(answer) = observe(&item(request, "<p>ten blue links</p>"), &brands)
        else {
            panic!("still an answer, one that names nothing")
        };
        assert_eq!(answer.observation.brands, vec![Seen::default()]);
        let plain = SearchRequest {
            terms: "boots".into(),
            ..SearchRequest::default()
        };
        assert!(matches!(
            observe(&item(plain, "{}"), &brands),
            Observed::Results(_)
        ));
    }
}
