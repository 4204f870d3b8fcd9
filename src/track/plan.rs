//! A set expanded into the calls of one run: every prompt from every model, device and
//! location, then (with `ai-overview`) every prompt's AI Overview from every location, then
//! every search term from every location. Pure.

use crate::analysis::workspace::TrackSet;
use crate::api::{AiFormat, AiRequest, Location, SearchFormat, SearchRequest};
use crate::present::compare::overview::overview_request;
use crate::store::RequestParams;

/// The calls of one run of `set`, in a stable order (the run numbers them so); with samples,
/// each answer's calls are asked that many times, one after another.
/// Results come back as JSON, which trends read. A call the contract refuses is named in
/// the error, before anything is sent.
pub fn expand(set: &TrackSet) -> Result<Vec<RequestParams>, String> {
    let one_or_all = |locations: &[Location]| -> Vec<Location> {
        if locations.is_empty() {
            vec![Location::default()]
        } else {
            locations.to_vec()
        }
    };
    let models: Vec<_> = if set.models.is_empty() && set.overview {
        // `ai-overview` alone asks no chatbot.
        Vec::new()
    } else if set.models.is_empty() {
        vec![None]
    } else {
        set.models.iter().copied().map(Some).collect()
    };
    let devices: Vec<_> = if set.devices.is_empty() {
        vec![None]
    } else {
        // Desktop beside phones: asked with no device emulation.
        set.devices
            .iter()
            .map(|d| crate::devices::emulated(d))
            .collect()
    };
    let locations = one_or_all(&set.locations);
    // The samples of one answer follow each other, each asked afresh.
    let samples = set.samples.max(1);
    let fresh = (samples > 1).then_some(0);
    let mut calls = Vec::with_capacity(set.combinations());
    for prompt in &set.prompts {
        for model in &models {
            for device in &devices {
                for location in &locations {
                    let request = AiRequest {
                        prompt: prompt.clone(),
                        model: *model,
                        device: device.clone(),
                        location: location.clone(),
                        format: AiFormat::Json,
                        expiration: fresh,
                        ..AiRequest::default()
                    };
                    request.validate().map_err(|e| {
                        format!("the set {} cannot ask {:?}: {e}", set.name, quoted(prompt))
                    })?;
                    calls.extend(std::iter::repeat_n(RequestParams::Ai(request), samples));
                }
            }
        }
    }
    if set.overview {
        // One search per prompt and location, read for its AI Overview (a search has no
        // device).
        for prompt in &set.prompts {
            for location in &locations {
                let mut request = overview_request(prompt.clone(), location.clone(), None);
                request.expiration = fresh.or(request.expiration);
                request.validate().map_err(|e| {
                    format!(
                        "the set {} cannot read the AI Overview of {:?}: {e}",
                        set.name,
                        quoted(prompt)
                    )
                })?;
                calls.extend(std::iter::repeat_n(RequestParams::Search(request), samples));
            }
        }
    }
    for terms in &set.terms {
        for location in &locations {
            let request = SearchRequest {
                terms: terms.clone(),
                location: location.clone(),
                format: SearchFormat::Json,
                ..SearchRequest::default()
            };
            request.validate().map_err(|e| {
                format!(
                    "the set {} cannot search {:?}: {e}",
                    set.name,
                    quoted(terms)
                )
            })?;
            calls.push(RequestParams::Search(request));
        }
    }
    Ok(calls)
}

/// A refused prompt or term named by its start: a pasted essay is not echoed whole.
fn quoted(text: &str) -> String {
    crate::sanitize::excerpt(text, crate::sanitize::QUOTED_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Model;

    fn place(country: &str, city: &str) -> Location {
        Location {
            country: Some(country.to_string()),
            subdivision: None,
            city: Some(city.to_string()),
        }
    }

    #[test]
    fn every_prompt_from_every_vantage_point_then_every_search() {
        let set = TrackSet {
            name: "boots".to_string(),
            prompts: vec!["best boots".to_string(), "dry boots".to_string()],
            terms: vec!["boots".to_string()],
            models: vec![Model::Chatgpt, Model::Gemini],
            locations: vec![place("US", "Denver"), place("DE", "Berlin")],
            ..TrackSet::default()
        };
        let calls = expand(&set).unwrap();
        assert_eq!(calls.len(), set.combinations());
        assert_eq!(calls.len(), 2 * 2 * 2 + 2);
        let RequestParams::Ai(first) = &calls[0] else {
            panic!("an AI call first")
        };
        assert_eq!(first.model, Some(Model::Chatgpt));
        assert_eq!(first.location.city.as_deref(), Some("Denver"));
        assert_eq!(first.format, AiFormat::Json);
        let RequestParams::Search(last) = &calls[9] else {
            panic!("a search last")
        };
        assert_eq!(last.location.city.as_deref(), Some("Berlin"));
        assert_eq!(last.format, SearchFormat::Json);
        // The same set always expands the same way: a resumed run numbers its calls alike.
        assert_eq!(expand(&set).unwrap(), calls);
    }

    #[test]
    fn a_call_the_contract_refuses_is_named() {
        let set = TrackSet {
            name: "long".to_string(),
            terms: vec!["x".repeat(300)],
            ..TrackSet::default()
        };
        let error = expand(&set).unwrap_err();
        assert!(error.starts_with("the set long cannot search"), "{error}");
    }

    #[test]
    fn the_ai_overview_reads_each_prompts_page_from_each_location() {
        let set = TrackSet {
            name: "boots".to_string(),
            prompts: vec!["best boots".to_string()],
            models: vec![Model::Chatgpt],
            overview: true,
            locations: vec![place("US", "Denver"), place("DE", "Berlin")],
            ..TrackSet::default()
        };
        let calls = expand(&set).unwrap();
        assert_eq!(calls.len(), set.combinations());
        assert_eq!(calls.len(), 2 + 2);
        let RequestParams::Search(page) = &calls[3] else {
            panic!("the overview's searches follow the chatbots' calls")
        };
        assert!(crate::present::compare::overview::is_overview_request(page));
        assert_eq!(page.terms, "best boots");
        assert_eq!(page.location.city.as_deref(), Some("Berlin"));
        // Named alone, it asks no chatbot.
        let alone = TrackSet {
            models: Vec::new(),
            ..set
        };
        assert_eq!(expand(&alone).unwrap().len(), 2);
        assert_eq!(alone.combinations(), 2);
    }
}
