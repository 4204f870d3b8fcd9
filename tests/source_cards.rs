//! Source cards of real answers of the live service, read apart: title, site, address and
//! snippet, for each model's own card markup.

use std::path::Path;
use std::time::Duration;

use vantage::api::{AiAnswer, AiRequest, Completion, Fetched, Location, Model};
use vantage::present::answer::{self, PreparedAnswer, SourceLink, SourceOrigin};

mod common;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/live");

/// A live fixture prepared as the app and the CLI prepare an answer.
fn prepared(file: &str, model: Model) -> PreparedAnswer {
    let body = std::fs::read_to_string(Path::new(FIXTURES).join(file)).expect("fixture");
    let completion: Completion = serde_json::from_str(&body).expect("a completion");
    let mut request = AiRequest::new(completion.query.clone());
    request.model = Some(model);
    answer::prepare(
        request,
        Fetched {
            value: AiAnswer::Completion(Box::new(completion)),
            body,
            status: 200,
            content_type: "application/json".into(),
            elapsed: Duration::from_secs(1),
        },
    )
}

fn parts(source: &SourceLink) -> (&str, &str, &str, &str) {
    (
        source.site.as_str(),
        source.title.as_str(),
        source.url.as_str(),
        source.snippet.as_str(),
    )
}

#[test]
fn gemini_cards_read_site_title_url_and_snippet_apart() {
    let answer = prepared("ai-gemini-sample.json", Model::Gemini);
    // 13 cards, four of them a second highlight of a page already listed.
    assert_eq!(answer.sources.len(), 9, "{:#?}", answer.sources);
    assert_eq!(
        parts(&answer.sources[0]),
        (
            "LeadDev",
            "The best AI-coding tools in 2026 - LeadDev",
            "https://leaddev.com/ai/best-ai-coding-assistants",
            "Cursor: the AI-native IDE. Cursor remains the benchmark for what it means to build \
             an IDE from the ground up around AI. In 2026, it has moved beyond simple ..."
        )
    );
    assert_eq!(answer.sources[0].byline(), "LeadDev · leaddev.com");
    let (site, title, url, snippet) = parts(&answer.sources[2]);
    assert_eq!(
        (site, title, url),
        (
            "NxCode",
            "Best AI Coding Tools 2026: Complete Ranking by Real-World Performance | NxCode",
            "https://www.nxcode.io/resources/news/best-ai-for-coding-2026-complete-ranking",
        )
    );
    assert!(snippet.starts_with("#10 — Amazon Q Developer"), "{snippet}");
    // A card without a snippet.
    assert_eq!(
        parts(&answer.sources[6]),
        (
            "Google Cloud",
            "10+ Free AI tools for 2026 | Google Cloud",
            "https://cloud.google.com/use-cases/free-ai-tools",
            ""
        )
    );
    for source in &answer.sources {
        assert_eq!(source.origin, SourceOrigin::Sources);
        assert!(!source.title.contains("http") && !source.title.contains(&source.domain));
        assert!(!source.url.contains(":~:"), "{}", source.url);
        assert!(!source.snippet.is_empty() || source.domain == "cloud.google.com");
    }
}

#[test]
fn copilot_references_read_their_title_attribute_and_lose_the_tracking() {
    let answer = prepared("ai-copilot-sample.json", Model::Copilot);
    let read: Vec<(&str, &str, &str, &str)> = answer.sources.iter().map(parts).collect();
    assert_eq!(
        read,
        [
            (
                "aimadetools.com",
                "Best AI Coding Tools in 2026: The Definitive Ranking",
                "https://www.aimadetools.com/blog/best-ai-coding-tools-2026/",
                ""
            ),
            (
                "morphllm.com",
                "14 Best AI Coding Agents in 2026: Ranked by Benchmarks and Real Usage",
                "https://www.morphllm.com/best-ai-coding-agents-2026",
                ""
            ),
            (
                "Zapier",
                "The 9 best AI coding tools in 2026 - Zapier",
                "https://zapier.com/blog/ai-coding-tools/",
                ""
            ),
        ]
    );
    // A site shown by its address alone is said once.
    assert_eq!(answer.sources[0].byline(), "aimadetools.com");
    assert_eq!(answer.sources[2].byline(), "Zapier · zapier.com");
}

#[test]
fn chatgpt_pills_name_the_site_and_no_title() {
    let answer = prepared("ai-chatgpt-sample.json", Model::Chatgpt);
    let read: Vec<(&str, &str, &str, &str)> = answer.sources.iter().map(parts).collect();
    assert_eq!(
        read,
        [
            (
                "Cloudera",
                "",
                "https://www.cloudera.com/resources/faqs/model-context-protocol-mcp.html",
                ""
            ),
            (
                "Graphite",
                "",
                "https://graphite.com/guides/what-is-mcp",
                ""
            ),
            (
                "Bandwidth",
                "",
                "https://www.bandwidth.com/glossary/model-context-protocol-mcp/",
                ""
            ),
            (
                "merriam-webster.com",
                "",
                "https://www.merriam-webster.com/dictionary/MCP",
                ""
            ),
            ("Wikipedia", "", "https://en.wikipedia.org/wiki/MCP", ""),
        ]
    );
    let wikipedia = &answer.sources[4];
    assert_eq!(wikipedia.origin, SourceOrigin::Citation);
    assert_eq!(
        (wikipedia.headline(), wikipedia.byline().as_str()),
        ("Wikipedia", "en.wikipedia.org")
    );
}

/// The simulator writes each model's sources in its live form, so the app reads its cards
/// as it reads the live service's: over HTTP, prepared as the app prepares an answer.
#[tokio::test]
async fn the_simulators_cards_read_as_the_live_ones_for_every_model() {
    let sim = common::start(common::quick()).await;
    let client = common::client(&sim);
    for model in Model::ALL {
        let mut request = AiRequest::new("best hiking boots");
        request.model = Some(model);
        request.location = Location {
            country: Some("US".into()),
            subdivision: Some("NY".into()),
            city: Some("New York".into()),
        };
        let fetched = client.ai(&request).await.expect("an answer");
        let raw: serde_json::Value = serde_json::from_str(&fetched.body).expect("JSON");
        let sources_html = raw["sources"].as_str().unwrap_or_default().to_string();
        let answer = answer::prepare(request, fetched);
        assert!(
            answer.sources.len() >= 3,
            "{model:?}: {:#?}",
            answer.sources
        );
        for source in &answer.sources {
            let what = format!("{model:?}: {source:#?}");
            assert!(
                !source.url.contains("utm_") && !source.url.contains(":~:"),
                "{what}"
            );
            assert!(!source.title.contains("://"), "{what}");
            assert!(
                !source.title.eq_ignore_ascii_case(&source.site),
                "the site's label is not the title: {what}"
            );
            assert!(
                !source.site.is_empty() && !source.domain.is_empty(),
                "{what}"
            );
        }
        let with_snippets = answer
            .sources
            .iter()
            .filter(|s| !s.snippet.is_empty())
            .count();
        match model {
            Model::Chatgpt => {
                // Pills name the site and nothing else.
                assert!(sources_html.is_empty());
                for source in &answer.sources {
                    assert_eq!(source.origin, SourceOrigin::Citation);
                    assert!(
                        source.title.is_empty() && source.snippet.is_empty(),
                        "{source:#?}"
                    );
                    assert_ne!(source.site, source.domain, "a label: {source:#?}");
                }
            }
            Model::Gemini | Model::Perplexity => {
                if model == Model::Gemini {
                    assert!(sources_html.contains("<inline-source-card"));
                    assert!(sources_html.contains("#:~:text="));
                } else {
                    assert!(sources_html.contains("<ol"));
                }
                for source in answer
                    .sources
                    .iter()
                    .filter(|s| s.origin == SourceOrigin::Sources)
                {
                    // Every card shows the site's own label, apart from its domain.
                    assert!(!source.title.is_empty(), "{source:#?}");
                    assert_ne!(source.site, source.domain, "{source:#?}");
                    assert!(!source.snippet.contains(&source.title), "{source:#?}");
                }
                assert!(
                    with_snippets * 2 >= answer.sources.len(),
                    "{:#?}",
                    answer.sources
                );
            }
            Model::Copilot => {
                assert!(sources_html.contains("References"));
                assert!(sources_html.contains("?utm_source=copilot.com"));
                assert!(
                    answer
                        .sources
                        .iter()
                        .all(|s| s.origin == SourceOrigin::Sources)
                );
                assert!(answer.sources.iter().all(|s| !s.title.is_empty()));
                assert_eq!(with_snippets, 0, "References quote nothing");
            }
        }
    }
}
