//! Google's AI Overview as one more answer source of a comparison: one search per vantage
//! point, awaiting the overview, in HTML; the overview read off the page becomes the column's
//! answer, its cited pages the answer's sources.

use std::str::FromStr;

use crate::analysis::outline::Outline;
use crate::analysis::overview;
use crate::api::{
    AiFormat, AiRequest, Awaiting, Fetched, Model, SearchAnswer, SearchFormat, SearchRequest,
};
use crate::present::answer::{
    AnswerHeader, AnswerView, PreparedAnswer, SourceLink, SourceOrigin, clean_url,
};
use crate::present::text::TextBody;
use crate::render::{self, RenderOptions};

pub use crate::analysis::overview::AI_OVERVIEW;
/// How columns and exports name it.
pub const AI_OVERVIEW_NAME: &str = "AI Overview";

/// Where a column's answer comes from: a chatbot of the service, or the AI Overview of a
/// Google results page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerSource {
    Model(Model),
    AiOverview,
}

impl FromStr for AnswerSource {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        if lower == AI_OVERVIEW {
            return Ok(AnswerSource::AiOverview);
        }
        lower
            .parse::<Model>()
            .map(AnswerSource::Model)
            .map_err(|_| {
                format!(
                    "unknown model {s:?}; choose one of {}, {AI_OVERVIEW}",
                    Model::ALL.map(Model::as_str).join(", ")
                )
            })
    }
}

/// The search that brings a vantage point's AI Overview: the prompt as the terms, waiting
/// for the overview, the page as HTML (the overview is only in the page's markup).
pub fn overview_request(
    terms: String,
    location: crate::api::Location,
    expiration: Option<u32>,
) -> SearchRequest {
    SearchRequest {
        terms,
        location,
        format: SearchFormat::Html,
        expiration,
        awaiting: vec![Awaiting::Ai],
        ..SearchRequest::default()
    }
}

/// Whether a stored search was an overview column's (history keeps it as a search).
pub fn is_overview_request(request: &SearchRequest) -> bool {
    request.format == SearchFormat::Html && request.awaiting.contains(&Awaiting::Ai)
}

/// Said in the column, plainly, when the page came without an overview.
pub const NO_OVERVIEW: &str = "No AI Overview on this results page: Google showed none for these terms from this vantage point.";

fn domain_of(url: &str) -> String {
    crate::analysis::mentions::host_of(url)
}

/// A results page made into an answer: the overview's text and cited pages, or the sentence
/// that the page had none. Pure and slow (it parses the page): run it off the UI task.
pub fn overview_answer(request: SearchRequest, fetched: Fetched<SearchAnswer>) -> PreparedAnswer {
    let found = match &fetched.value {
        SearchAnswer::Html(html) => overview::extract(html).ai_overview,
        // The page came as JSON (the service ignored the format): no markup, no overview.
        SearchAnswer::Results(_) => None,
    };
    let ai_request = AiRequest {
        prompt: request.terms.clone(),
        model: None,
        device: None,
        location: request.location.clone(),
        language: request.language.clone(),
        display: request.display.clone(),
        format: AiFormat::Rendered,
        expiration: request.expiration,
    };
    let header = AnswerHeader {
        // An answer needs a model; the column's label says it is the overview.
        model: Model::Chatgpt,
        device: None,
        location: request.location.clone(),
        elapsed: fetched.elapsed,
        bytes: fetched.body.len(),
        cache_allowed: request.expiration != Some(0),
        format: AiFormat::Rendered,
    };
    let (doc, sources, markdown, plain_text, outline) = match &found {
        Some(found) => {
            let overview = crate::present::search_page::overview_html(found, "h3");
            let doc = render::html_to_document(&overview, &RenderOptions::default());
            let sources: Vec<SourceLink> = found
                .sources
                .iter()
                .map(|s| SourceLink {
                    title: s.title.trim().to_string(),
                    site: domain_of(&s.url),
                    url: clean_url(&s.url),
                    domain: domain_of(&s.url),
                    snippet: String::new(),
                    origin: SourceOrigin::Sources,
                })
                .collect();
            let markdown = doc.to_markdown();
            let plain_text = doc.plain_text();
            let outline = Outline::read(&overview, &request.terms, None)
                .unwrap_or_else(|| Outline::prose(&plain_text));
            (doc, sources, markdown, plain_text, outline)
        }
        None => {
            let doc = render::html_to_document(
                &format!("<p><em>{NO_OVERVIEW}</em></p>"),
                &RenderOptions::default(),
            );
            // No words of its own: mentions and diffs see an empty answer, not the sentence.
            (
                doc,
                Vec::new(),
                format!("_{NO_OVERVIEW}_\n"),
                String::new(),
                Outline::default(),
            )
        }
    };
    let html = match &fetched.value {
        SearchAnswer::Html(html) => TextBody::raw(html),
        SearchAnswer::Results(_) => TextBody::raw(&fetched.body),
    };
    PreparedAnswer {
        request: ai_request,
        header,
        views: vec![AnswerView::Answer, AnswerView::Sources, AnswerView::Html],
        answer: TextBody::document(doc),
        sources,
        fanouts: Vec::new(),
        ads: None,
        ad_count: 0,
        prompt: None,
        html,
        json: None,
        body: fetched.body,
        markdown,
        plain_text,
        outline,
        // Suggestions come from a chat answer the user has open; overview columns live in
        // Compare only.
        candidates: Vec::new(),
        ai_overview: true,
        read_as_text: false,
    }
}

/// An overview column re-opened from history: its stored page read again.
pub fn stored_overview(
    request: SearchRequest,
    page: String,
    elapsed: std::time::Duration,
) -> PreparedAnswer {
    let fetched = Fetched {
        value: SearchAnswer::Html(page.clone()),
        body: page,
        status: 200,
        content_type: "text/html".to_string(),
        elapsed,
    };
    overview_answer(request, fetched)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetched(html: &str) -> Fetched<SearchAnswer> {
        Fetched {
            value: SearchAnswer::Html(html.to_string()),
            body: html.to_string(),
            status: 200,
            content_type: "text/html".into(),
            elapsed: std::time::Duration::from_millis(1200),
        }
    }

    #[test]
    fn sources_parse_models_and_the_overview() {
        assert_eq!(
            "ai-overview".parse::<AnswerSource>(),
            Ok(AnswerSource::AiOverview)
        );
        assert_eq!(
            "Gemini".parse::<AnswerSource>(),
            Ok(AnswerSource::Model(Model::Gemini))
        );
        let refused = "bard".parse::<AnswerSource>().unwrap_err();
        assert!(refused.contains("ai-overview"), "{refused}");
    }

    #[test]
    fn the_live_page_becomes_an_answer_with_its_cited_sources() {
        let page = include_str!("../../../tests/fixtures/live/search-google-sample.html");
        let request = overview_request("mcp server".into(), Default::default(), None);
        let answer = overview_answer(request, fetched(page));
        assert!(answer.plain_text.contains("MCP"), "{}", answer.plain_text);
        assert!(
            answer
                .sources
                .iter()
                .any(|s| s.url == "https://zenn.dev/koga_atsu/articles/a42c7910444d60")
        );
        assert!(answer.sources.iter().all(|s| !s.domain.is_empty()));
    }

    #[test]
    fn a_page_without_an_overview_says_so_and_has_no_words() {
        let request = overview_request("boots".into(), Default::default(), None);
        let answer = overview_answer(
            request,
            fetched("<html><body><p>ten blue links</p></body></html>"),
        );
        assert!(answer.plain_text.is_empty());
        assert!(answer.markdown.contains("No AI Overview"));
        assert!(answer.sources.is_empty());
    }

    #[test]
    fn overview_requests_are_recognised_in_history() {
        let request = overview_request("boots".into(), Default::default(), Some(0));
        assert!(is_overview_request(&request));
        assert!(!is_overview_request(&SearchRequest::new("boots")));
        assert!(request.validate().is_ok());
    }
}
