//! The AI overview extractor on the live results page.

// Test helpers outside #[test] functions may panic too: a panic is a failed test here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use vantage::analysis::overview::{BlockKind, extract};

const LIVE_PAGE: &str = include_str!("fixtures/live/search-google-sample.html");

#[test]
fn the_live_page_yields_its_overview_with_structure_and_sources() {
    let page = extract(LIVE_PAGE);
    let overview = page.ai_overview.expect("the live page has an AI overview");
    assert!(
        overview.blocks[0]
            .text
            .starts_with("MCPサーバー（Model Context Protocol Server）は、"),
        "{:?}",
        overview.blocks[0]
    );
    let has = |kind: BlockKind, text: &str| {
        overview
            .blocks
            .iter()
            .any(|b| b.kind == kind && b.text.starts_with(text))
    };
    assert!(has(BlockKind::Heading, "特徴とメリット"));
    assert!(has(BlockKind::BulletItem, "安全な連携:"));
    assert!(has(BlockKind::NumberedItem, "MCPクライアント:"));
    // Neither citation chips nor the panel of sources leak into the text.
    assert!(!overview.text.contains("+4"), "{}", overview.text);
    assert!(!overview.text.contains("件のサイト"), "{}", overview.text);
    let urls: Vec<&str> = overview.sources.iter().map(|s| s.url.as_str()).collect();
    assert!(urls.contains(&"https://zenn.dev/koga_atsu/articles/a42c7910444d60"));
    assert!(urls.contains(&"https://jp.mathworks.com/products/matlab-mcp-core-server.html"));
    let zenn = &overview.sources[0];
    assert_eq!(zenn.title, "MCPを理解するための MCP Server 構築入門 - Zenn");
    assert!(overview.sources.iter().all(|s| !s.title.is_empty()));
}

#[test]
fn the_live_page_yields_its_four_related_questions() {
    let questions = extract(LIVE_PAGE).related_questions;
    let asked: Vec<&str> = questions.iter().map(|q| q.question.as_str()).collect();
    assert_eq!(
        asked,
        [
            "MCPサーバーとは何ですか？",
            "MCPサーバーとは何の略ですか？",
            "MCPサーバーは何に使うのでしょうか？",
            "SQL MCP Serverとは？"
        ]
    );
    let first = questions[0].answer.as_deref().unwrap_or("");
    assert!(
        first.starts_with("MCPサーバーとは何か MCP（Model Context Protocol）"),
        "{first}"
    );
    assert_eq!(
        questions[0]
            .source
            .as_ref()
            .map(|s| s.url.starts_with("https://www.strategit.jp/")),
        Some(true)
    );
    // Google had not loaded the other answers when the page was saved.
    assert!(questions[1..].iter().all(|q| q.answer.is_none()));
}

#[test]
fn the_extract_serialises_under_the_names_the_cli_prints() {
    let json = serde_json::to_value(extract(LIVE_PAGE)).expect("serialisable");
    assert!(json["ai_overview"]["text"].is_string());
    assert!(json["ai_overview"]["sources"][0]["url"].is_string());
    assert_eq!(json["ai_overview"]["blocks"][0]["kind"], "paragraph");
    assert_eq!(json["related_questions"].as_array().map(Vec::len), Some(4));
}

#[test]
fn the_live_page_yields_its_ranked_results_and_not_the_questions_quoted_pages() {
    let page = extract(LIVE_PAGE);
    let organic = &page.organic;
    assert!(organic.len() >= 8, "{organic:#?}");
    assert!(
        organic
            .iter()
            .all(|r| !r.title.is_empty() && r.url.starts_with("http"))
    );
    let quoted: Vec<&str> = page
        .related_questions
        .iter()
        .filter_map(|q| q.source.as_ref().map(|s| s.url.as_str()))
        .collect();
    assert!(
        organic.iter().all(|r| !quoted.contains(&r.url.as_str())),
        "{quoted:?}"
    );
    let snippets = organic.iter().filter(|r| !r.snippet.is_empty()).count();
    assert!(
        snippets * 10 >= organic.len() * 7,
        "most have a snippet: {organic:#?}"
    );
}
