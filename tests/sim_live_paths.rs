//! The simulator as a client written for the live service sees it: `/users`, `/usage`, the
//! devices lists, `/browser` formats and vantage points, ChatGPT's `sse`, and results pages
//! the AI overview extractor reads.

// Test helpers outside #[test] functions may panic too: a panic is a failed test here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use serde_json::Value;
use vantage::analysis::overview::extract;
use vantage::sim::{DEMO_TOKEN, SimConfig, Simulator};

async fn start() -> Simulator {
    Simulator::start(SimConfig {
        latency_scale: 0.0,
        job_pending: Duration::ZERO,
        job_fail_share: 0.0,
        ..SimConfig::default()
    })
    .await
    .expect("the simulator starts")
}

async fn get_as(sim: &Simulator, path: &str, query: &[(&str, &str)], token: &str) -> (u16, String) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let url = url::Url::parse_with_params(&format!("{}{path}", sim.url()), query).expect("url");
    let response = reqwest::Client::new()
        .get(url)
        .bearer_auth(token)
        .send()
        .await
        .expect("the simulator answers");
    let status = response.status().as_u16();
    (status, response.text().await.expect("a body"))
}

async fn get(sim: &Simulator, path: &str, query: &[(&str, &str)]) -> String {
    let (status, body) = get_as(sim, path, query, DEMO_TOKEN).await;
    assert_eq!(status, 200, "{path} {query:?}: {body}");
    body
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

#[tokio::test]
async fn users_answers_the_accounts_with_their_credits() {
    let sim = start().await;
    sim.set_credits(42);
    let users = json(&get(&sim, "/users", &[]).await);
    assert_eq!(users[0]["credits"], 42);
    assert_eq!(users[0]["email"], "demo@vantage.local");
    assert_eq!(users, json(&get(&sim, "/user", &[]).await));
    let other = json(&get(&sim, "/users", &[("email", "someone@else.test")]).await);
    assert_eq!(other, Value::Array(Vec::new()));
    let (status, _) = get_as(&sim, "/users", &[], "wrong").await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn usage_counts_the_calls_served_per_service() {
    let sim = start().await;
    get(&sim, "/search", &[("terms", "boots")]).await;
    get(&sim, "/search", &[("terms", "shoes")]).await;
    get(&sim, "/browser", &[("url", "https://example.com/")]).await;
    get(&sim, "/ai", &[("prompt", "hi")]).await;
    sim.set_credits(0);
    let (refused, _) = get_as(&sim, "/search", &[("terms", "x")], DEMO_TOKEN).await;
    assert_eq!(refused, 402);
    let range = [
        ("from", "2000-01-01T00:00:00Z"),
        ("to", "2100-01-01T00:00:00+02:00"),
    ];
    let total = json(&get(&sim, "/usage", &range).await);
    let row = |service: &str, result: &str| {
        total
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["service"] == service && r["result"] == result)
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(row("search", "success")["calls"], 2);
    assert_eq!(row("search", "success")["credits"], 2);
    assert_eq!(row("search", "failure")["calls"], 1);
    assert_eq!(row("search", "failure")["credits"], 0);
    // The page and the AI answer: both rendered by the browser service, billed 1 + 5.
    assert_eq!(row("browser", "success")["calls"], 2);
    assert_eq!(row("browser", "success")["credits"], 6);
    assert_eq!(total.as_array().map(Vec::len), Some(3));

    let mut hourly_query = range.to_vec();
    hourly_query.extend([("by", "hour"), ("service", "browser")]);
    let hourly = json(&get(&sim, "/usage", &hourly_query).await);
    assert_eq!(hourly.as_array().map(Vec::len), Some(1));
    assert_eq!(hourly[0]["from"], hourly[0]["to"]);
    assert!(
        hourly[0]["from"]
            .as_str()
            .is_some_and(|t| t.ends_with(":00:00Z"))
    );

    let past = [
        ("from", "2000-01-01T00:00:00Z"),
        ("to", "2000-01-02T00:00:00Z"),
    ];
    assert_eq!(
        json(&get(&sim, "/usage", &past).await),
        Value::Array(Vec::new())
    );
    for (bad, message) in [
        (
            vec![("to", "2100-01-01T00:00:00Z")],
            "From must be provided",
        ),
        (
            vec![("from", "today"), ("to", "2100-01-01T00:00:00Z")],
            "From must be an ISO datetime",
        ),
        (
            [range.to_vec(), vec![("by", "day")]].concat(),
            "By must be one of hour, total",
        ),
        (
            [range.to_vec(), vec![("service", "ai")]].concat(),
            "Service must be one of search, browser",
        ),
    ] {
        let (status, body) = get_as(&sim, "/usage", &bad, DEMO_TOKEN).await;
        assert_eq!(status, 422, "{bad:?}");
        assert!(body.starts_with(message), "{body}");
    }
}

#[tokio::test]
async fn every_service_lists_its_devices() {
    let sim = start().await;
    let ai = json(&get(&sim, "/ai/devices", &[]).await);
    assert!(ai.as_array().is_some_and(|d| d.len() > 3));
    for path in ["/search/devices", "/browser/devices"] {
        assert_eq!(json(&get(&sim, path, &[]).await), ai, "{path}");
        let (status, _) = get_as(&sim, path, &[], "wrong").await;
        assert_eq!(status, 403, "{path}");
    }
}

#[tokio::test]
async fn browser_honours_each_format_and_the_example_domains() {
    let sim = start().await;
    let shop = "https://www.trailshop.com/boots/trail-runner";
    let rendered = get(&sim, "/browser", &[("url", shop)]).await;
    let raw = get(&sim, "/browser", &[("url", shop), ("format", "raw")]).await;
    let markdown = get(&sim, "/browser", &[("url", shop), ("format", "markdown")]).await;
    assert!(rendered.contains("<h1>") && rendered.contains("<li>"));
    assert_ne!(raw, rendered);
    assert!(
        raw.contains("<script") && !raw.contains("<li>"),
        "raw is before scripts ran"
    );
    assert!(
        markdown.starts_with("# ") && !markdown.contains('<'),
        "{markdown}"
    );
    assert!(markdown.contains("\n- Trail Runner Classic"), "{markdown}");

    for url in [
        "https://example.com/",
        "http://example.net",
        "https://www.example.org/x",
    ] {
        let markdown = get(&sim, "/browser", &[("url", url), ("format", "markdown")]).await;
        assert!(
            markdown.starts_with("# Example Domain\n"),
            "{url}: {markdown}"
        );
        assert!(markdown.contains("[Learn more](https://iana.org/domains/example)"));
        let page = get(&sim, "/browser", &[("url", url), ("country", "JP")]).await;
        assert!(page.contains("<title>Example Domain</title>"), "{url}");
    }

    // Async browsing keeps the format.
    let (status, accepted) = get_as(
        &sim,
        "/browser",
        &[
            ("url", "https://example.com/"),
            ("format", "markdown"),
            ("mode", "async"),
        ],
        DEMO_TOKEN,
    )
    .await;
    assert_eq!(status, 202);
    let id = json(&accepted)["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (status, content) = get_as(&sim, "/browser", &[("id", &id)], DEMO_TOKEN).await;
    assert_eq!(status, 200);
    assert!(content.starts_with("# Example Domain\n"), "{content}");

    let (status, body) = get_as(
        &sim,
        "/browser",
        &[("url", shop), ("format", "pdf")],
        DEMO_TOKEN,
    )
    .await;
    assert_eq!(
        (status, body.as_str()),
        (422, "Format must be one of rendered, raw, markdown")
    );
}

#[tokio::test]
async fn a_shop_page_differs_in_language_and_prices_across_three_countries() {
    let sim = start().await;
    let shop = "https://www.trailshop.com/boots/trail-runner";
    let mut pages = Vec::new();
    for (country, lang, currency) in [("US", "en", "$"), ("DE", "de", "€"), ("JP", "ja", "¥")] {
        let page = get(&sim, "/browser", &[("url", shop), ("country", country)]).await;
        assert!(page.contains(&format!("lang=\"{lang}\"")), "{country}");
        let markdown = get(
            &sim,
            "/browser",
            &[("url", shop), ("country", country), ("format", "markdown")],
        )
        .await;
        let prices: Vec<&str> = markdown.lines().filter(|l| l.starts_with("- ")).collect();
        assert_eq!(prices.len(), 4, "{markdown}");
        assert!(
            prices.iter().all(|p| p.contains(currency)),
            "{country}: {prices:?}"
        );
        pages.push(markdown);
    }
    assert!(pages[1].contains("## Produkte") && pages[2].contains("## 商品"));
    assert_ne!(pages[0], pages[1]);
    assert_ne!(pages[1], pages[2]);
}

#[tokio::test]
async fn chatgpt_completions_carry_their_event_stream() {
    let sim = start().await;
    let chatgpt = json(&get(&sim, "/ai", &[("prompt", "best hiking boots")]).await);
    let sse = chatgpt["sse"].as_str().unwrap_or_default();
    let events: Vec<Value> = sse.lines().map(json).collect();
    assert_eq!(events[0]["type"], "conversation_detail_metadata");
    assert_eq!(
        events.last().map(|e| e["type"].clone()),
        Some("message_stream_complete".into())
    );
    let streamed: String = events
        .iter()
        .filter(|e| e["type"] == "delta")
        .filter_map(|e| e["v"].as_str())
        .collect();
    assert!(streamed.len() > 100, "{streamed}");
    let gemini = json(
        &get(
            &sim,
            "/ai",
            &[("prompt", "best hiking boots"), ("model", "gemini")],
        )
        .await,
    );
    // Live, only ChatGPT's completions carry the field.
    assert!(gemini.get("sse").is_none(), "{gemini}");
}

#[tokio::test]
async fn results_pages_awaiting_ai_carry_an_overview_and_questions_the_extractor_reads() {
    let sim = start().await;
    for terms in [
        "best hiking boots",
        "how to bake bread",
        "what is mcp",
        "iphone vs pixel",
    ] {
        let page = get(&sim, "/search", &[("terms", terms), ("awaiting", "ai")]).await;
        let found = extract(&page);
        let overview = found
            .ai_overview
            .unwrap_or_else(|| panic!("{terms}: no overview found"));
        assert!(overview.blocks.len() >= 3, "{terms}: {:?}", overview.blocks);
        assert_eq!(overview.sources.len(), 3, "{terms}");
        assert!(
            overview
                .sources
                .iter()
                .all(|s| s.url.starts_with("https://") && !s.title.is_empty())
        );
        assert!(found.related_questions.len() >= 3, "{terms}");
        assert!(
            found
                .related_questions
                .iter()
                .all(|q| q.answer.is_some() && q.source.is_some())
        );

        let plain = extract(&get(&sim, "/search", &[("terms", terms)]).await);
        assert_eq!(
            plain.ai_overview, None,
            "{terms}: an overview only when awaited"
        );
        assert_eq!(plain.related_questions, found.related_questions);
    }
}

#[tokio::test]
async fn the_html_page_ranks_the_same_results_as_the_json_of_the_same_search() {
    let sim = start().await;
    let query = |format: &'static str| {
        vec![
            ("terms", "best hiking boots"),
            ("format", format),
            ("awaiting", "ai"),
        ]
    };
    let page = json(&get(&sim, "/search", &query("json")).await);
    let from_json = organic_urls(&page);
    let html = get(&sim, "/search", &query("html")).await;
    let organic = extract(&html).organic;
    let from_html: Vec<String> = organic.iter().map(|r| r.url.clone()).collect();
    assert_eq!(
        from_html, from_json,
        "a client of the live page reads what JSON says"
    );
    assert!(
        organic.iter().all(|r| !r.snippet.is_empty()),
        "every organic result has its snippet"
    );
}

/// The URLs of a JSON results page's organic results, in order.
fn organic_urls(page: &Value) -> Vec<String> {
    page["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            matches!(
                r["type"].as_str(),
                Some("organic" | "organic-with-sitelinks")
            )
        })
        .map(|r| r["url"].as_str().unwrap().to_string())
        .collect()
}

/// The organic results of an HTML results page read with the rules a client of the live
/// page uses (the service makers' own: `div.yuRUbf > a[href]`, the snippet in `.VwiC3b` of
/// the same result), as (url, snippet) in page order.
fn organic_by_the_live_rules(html: &str) -> Vec<(String, String)> {
    let page = scraper::Html::parse_document(html);
    let link = scraper::Selector::parse("div.yuRUbf > a[href]").unwrap();
    let snippet = scraper::Selector::parse(".VwiC3b").unwrap();
    page.select(&link)
        .map(|a| {
            let url = a.value().attr("href").unwrap().to_string();
            // The result's block: the nearest ancestor holding a snippet.
            let text = a
                .ancestors()
                .filter_map(scraper::ElementRef::wrap)
                .find_map(|block| block.select(&snippet).next())
                .map(|s| s.text().collect::<String>().trim().to_string())
                .unwrap_or_default();
            (url, text)
        })
        .collect()
}

#[tokio::test]
async fn a_client_of_the_live_page_reads_the_json_s_organic_results_from_the_html() {
    let sim = start().await;
    let searches: [&[(&str, &str)]; 4] = [
        &[("terms", "best hiking boots")],
        &[("terms", "trail running shoes"), ("serps", "2")],
        &[
            ("terms", "waterproof jacket"),
            ("country", "DE"),
            ("language", "de"),
        ],
        &[
            ("terms", "espresso machine"),
            ("country", "JP"),
            ("serps", "3"),
        ],
    ];
    for search in searches {
        let with = |format: &'static str| {
            let mut query = search.to_vec();
            query.push(("format", format));
            query
        };
        let page = json(&get(&sim, "/search", &with("json")).await);
        let from_json = organic_urls(&page);
        assert!(
            from_json.len() >= 5,
            "{search:?}: {} organic",
            from_json.len()
        );
        let html = get(&sim, "/search", &with("html")).await;
        let read = organic_by_the_live_rules(&html);
        let urls: Vec<String> = read.iter().map(|(url, _)| url.clone()).collect();
        assert_eq!(
            urls, from_json,
            "{search:?}: the live rules read what JSON says"
        );
        for (url, snippet) in &read {
            assert!(!snippet.is_empty(), "{search:?}: {url} has no snippet");
        }
    }
}
