//! The converter on real service output.

use std::path::Path;

use ratatui::text::Line;
use vantage::render::{Document, RenderOptions, html_to_document};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/live");

fn chatgpt() -> serde_json::Value {
    let raw = std::fs::read_to_string(Path::new(FIXTURES).join("ai-chatgpt-sample.json"))
        .expect("chatgpt fixture");
    serde_json::from_str(&raw).expect("valid json")
}

fn google() -> String {
    std::fs::read_to_string(Path::new(FIXTURES).join("search-google-sample.html"))
        .expect("google fixture")
}

fn text(l: &Line<'_>) -> String {
    l.spans.iter().map(|s| s.content.as_ref()).collect()
}

fn check_answer(doc: &Document) {
    let lines = doc.wrap(100);
    assert!(
        lines.iter().all(|l| !text(l).contains("ChatGPT said")),
        "the hidden label leaked"
    );
    assert!(!doc.plain_text().contains("ChatGPT said"));
    let all: Vec<String> = lines.iter().map(text).collect();
    assert!(
        all.iter()
            .any(|l| l.starts_with("“MCP” can mean a lot of different things")),
        "answer's first words missing"
    );
    assert!(all.iter().any(|l| l == "• Why it matters:"));
    assert!(
        all.iter()
            .any(|l| l == "  • Lets AI access files, databases, APIs, etc.")
    );
    for w in [1u16, 7, 20, 33, 80, 100, 157] {
        for l in doc.wrap(w) {
            assert!(l.width() <= w as usize, "{:?} wider than {w}", text(&l));
        }
    }
}

#[test]
fn chatgpt_completion_label_dropped_answer_kept() {
    let v = chatgpt();
    let doc = html_to_document(v["completion"].as_str().unwrap(), &RenderOptions::default());
    check_answer(&doc);
    let urls: Vec<&str> = doc.links().iter().map(|l| l.url.as_str()).collect();
    assert_eq!(urls.len(), 5, "{urls:?}");
    assert!(urls.contains(&"https://graphite.com/guides/what-is-mcp?utm_source=chatgpt.com"));
    assert_eq!(doc.links()[0].text, "Cloudera");
    let md = doc.to_markdown();
    assert!(
        md.contains("### 👉 **Model Context Protocol (MCP)**"),
        "{md}"
    );
    assert!(md.contains("[Cloudera](https://www.cloudera.com/"));
}

#[test]
fn chatgpt_page_label_dropped_answer_kept() {
    let v = chatgpt();
    let doc = html_to_document(v["html"].as_str().unwrap(), &RenderOptions::default());
    check_answer(&doc);
}

#[test]
fn google_results_links_listed() {
    let doc = html_to_document(
        &google(),
        &RenderOptions {
            number_links: true,
            ..Default::default()
        },
    );
    let external: Vec<_> = doc
        .links()
        .iter()
        .filter(|l| l.url.starts_with("http") && !l.url.contains("google."))
        .collect();
    assert!(
        external.len() > 10,
        "only {} external links",
        external.len()
    );
    assert!(
        external
            .iter()
            .any(|l| l.url == "https://zenn.dev/koga_atsu/articles/a42c7910444d60")
    );
    assert!(external.iter().all(|l| !l.text.is_empty()));
    // Deduplicated.
    let mut urls: Vec<&str> = doc.links().iter().map(|l| l.url.as_str()).collect();
    let n = urls.len();
    urls.sort_unstable();
    urls.dedup();
    assert_eq!(urls.len(), n);
    // Scripts and styles are not shown.
    let plain = doc.plain_text();
    assert!(!plain.contains("function("), "script text leaked");
    assert!(plain.contains("MCPを理解するための MCP Server 構築入門"));
    for w in [1u16, 2, 3, 10, 41, 100] {
        for l in doc.wrap(w) {
            assert!(l.width() <= w as usize, "{:?} wider than {w}", text(&l));
        }
    }
    // The cheap pass finds the same result links.
    let cheap = vantage::render::extract_links(&google());
    assert!(
        cheap
            .iter()
            .any(|l| l.url == "https://zenn.dev/koga_atsu/articles/a42c7910444d60")
    );
}
