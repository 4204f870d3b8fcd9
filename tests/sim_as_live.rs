//! The simulator answers as the live service does where public clients depend on it: the
//! device list (Puppeteer's names, landscape twins, alphabetized, matched whatever the
//! case), Google's `site:` and quoted phrases, the pages of a multi-page HTML search one
//! document each, `/search/results` pending with 200, and 404 for a domain that cannot
//! resolve.

mod common;

use std::time::Duration;

use common::http::get;
use common::{client, quick, start};
use serde_json::Value;
use vantage::analysis::{overview, serp_pages};
use vantage::api::BodyAsked;
use vantage::api::{ApiError, BrowserRequest, JobPoll, SearchRequest};
use vantage::sim::SimConfig;

fn names(body: &Value) -> Vec<String> {
    body.as_array()
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The organic results of a JSON results body: (page, URL, title, snippet).
fn organic(body: &Value) -> Vec<(u64, String, String, String)> {
    let text = |result: &Value, field: &str| result[field].as_str().unwrap_or("").to_string();
    body["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["type"].as_str().is_some_and(|t| t.starts_with("organic")))
        .map(|r| {
            (
                r["page"].as_u64().unwrap_or(0),
                text(r, "url"),
                text(r, "title"),
                text(r, "snippet"),
            )
        })
        .collect()
}

#[tokio::test]
async fn devices_are_phones_and_tablets_by_puppeteer_name_alphabetized_and_any_case() {
    let sim = start(quick()).await;
    for path in ["/ai/devices", "/browser/devices"] {
        let list = names(&get(&sim, path, &[]).await.json());
        assert_eq!(
            list[..3],
            [
                "Blackberry PlayBook",
                "Blackberry PlayBook landscape",
                "BlackBerry Z30"
            ],
            "{path}"
        );
        let lowered: Vec<String> = list.iter().map(|n| n.to_lowercase()).collect();
        assert!(lowered.windows(2).all(|w| w[0] < w[1]), "{path}: {list:?}");
        for name in ["iPhone 14", "iPhone 14 landscape", "iPad Pro 11", "Pixel 7"] {
            assert!(list.iter().any(|n| n == name), "{path} lacks {name}");
        }
        assert!(
            list.iter()
                .filter(|n| !n.ends_with(" landscape"))
                .all(|n| list.contains(&format!("{n} landscape"))),
            "{path}: every device has its landscape twin"
        );
        assert!(
            !list
                .iter()
                .any(|n| n.contains("Windows") || n.contains("MacBook")),
            "{path}: no desktop"
        );
    }
    let answered = get(
        &sim,
        "/ai",
        &[("prompt", "x"), ("device", "IPHONE 14 landscape")],
    )
    .await;
    assert_eq!(answered.status, 200, "{}", answered.body);
    assert_eq!(answered.json()["device"], "iPhone 14 landscape");
    let page = get(
        &sim,
        "/browser",
        &[
            ("url", "https://example.com/"),
            ("device", "blackberry playbook"),
        ],
    )
    .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let desktop = get(
        &sim,
        "/ai",
        &[("prompt", "x"), ("device", "Windows 11 – Chrome")],
    )
    .await;
    assert_eq!(desktop.status, 422, "{}", desktop.body);
}

#[tokio::test]
async fn site_keeps_every_organic_result_on_that_site() {
    let sim = start(quick()).await;
    for (terms, host) in [
        ("tech meetups berlin site:lu.ma", "lu.ma"),
        ("SITE:https://www.rei.com/ hiking boots", "www.rei.com"),
    ] {
        let body = get(
            &sim,
            "/search",
            &[("terms", terms), ("format", "json"), ("serps", "2")],
        )
        .await
        .json();
        let results = organic(&body);
        assert_eq!(results.len(), 20, "{terms}");
        for (_, url, _, _) in &results {
            let parsed = url::Url::parse(url).unwrap();
            assert_eq!(parsed.host_str(), Some(host), "{terms}: {url}");
        }
    }
    let unfiltered = get(
        &sim,
        "/search",
        &[("terms", "tech meetups berlin"), ("format", "json")],
    )
    .await
    .json();
    assert!(
        organic(&unfiltered)
            .iter()
            .any(|(_, url, _, _)| !url.starts_with("https://lu.ma/")),
        "without site: the results come from many sites"
    );
}

#[tokio::test]
async fn a_quoted_phrase_is_in_every_organic_title_or_snippet() {
    let sim = start(quick()).await;
    let body = get(
        &sim,
        "/search",
        &[
            ("terms", "\"waterproof lining\" hiking boots \"Under 100\""),
            ("format", "json"),
        ],
    )
    .await
    .json();
    let results = organic(&body);
    assert!(results.len() >= 10);
    for (_, url, title, snippet) in &results {
        let seen = format!("{title} {snippet}").to_lowercase();
        for phrase in ["waterproof lining", "under 100"] {
            assert!(seen.contains(phrase), "{url}: {phrase} missing from {seen}");
        }
    }
}

#[tokio::test]
async fn two_html_pages_come_as_two_documents_and_are_read_as_pages() {
    let sim = start(quick()).await;
    let asked = [
        ("terms", "best hiking boots"),
        ("serps", "2"),
        ("size", "5"),
    ];
    let html = get(
        &sim,
        "/search",
        &[asked.as_slice(), &[("format", "html")]].concat(),
    )
    .await
    .body;
    assert_eq!(
        html.matches("\n\n<!doctype html>").count(),
        1,
        "one empty line between two documents"
    );
    let pages = serp_pages::split(&html);
    assert_eq!(pages.len(), 2);
    assert!(
        pages
            .iter()
            .all(|p| p.starts_with("<!doctype") && p.ends_with("</html>"))
    );
    let json = get(
        &sim,
        "/search",
        &[asked.as_slice(), &[("format", "json")]].concat(),
    )
    .await
    .json();
    let expected: Vec<(u32, String)> = organic(&json)
        .into_iter()
        .map(|(page, url, _, _)| (page as u32, url))
        .collect();
    let read: Vec<(u32, String)> = overview::extract(&html)
        .organic
        .into_iter()
        .map(|r| (r.page, r.url))
        .collect();
    assert_eq!(read, expected, "each result read on its own page");
    assert_eq!(read.iter().filter(|(page, _)| *page == 2).count(), 5);
    let one = get(
        &sim,
        "/search",
        &[("terms", "best hiking boots"), ("format", "html")],
    )
    .await
    .body;
    assert_eq!(serp_pages::split(&one).len(), 1);
}

#[tokio::test]
async fn search_results_answers_a_pending_job_with_200_and_its_status() {
    let sim = start(SimConfig {
        job_pending: Duration::from_secs(60),
        ..quick()
    })
    .await;
    let api = client(&sim);
    let id = api
        .search_submit(&SearchRequest::new("coffee grinder"))
        .await
        .unwrap();
    let pending = get(&sim, "/search/results", &[("id", &id.to_string())]).await;
    assert_eq!(pending.status, 200, "{}", pending.body);
    assert_eq!(pending.json()["status"], "retrieving");
    let polled = api.search_job(&id, BodyAsked::Json).await.unwrap();
    assert_eq!(polled.value, JobPoll::Pending("retrieving".into()));
}

#[tokio::test]
async fn a_domain_that_cannot_resolve_is_404_nonexistant_and_costs_nothing() {
    let sim = start(quick()).await;
    let before = sim.credits();
    for url in [
        "https://shop.invalid/boots",
        "http://www.site.example/",
        "https://demo.test/",
        "https://app.localhost:8080/x",
    ] {
        let answer = get(&sim, "/browser", &[("url", url)]).await;
        assert_eq!(
            (answer.status, answer.body.as_str()),
            (404, "Domain is nonexistant"),
            "{url}"
        );
    }
    assert_eq!(sim.credits(), before);
    let api = client(&sim);
    let error = api
        .browser(&BrowserRequest::new("https://shop.invalid/"))
        .await
        .unwrap_err();
    assert!(matches!(error, ApiError::NoSuchDomain { .. }), "{error:?}");
    assert!(
        error.to_string().contains("Domain is nonexistant"),
        "{error}"
    );
    let real = get(&sim, "/browser", &[("url", "https://example.com/")]).await;
    assert_eq!(real.status, 200);
}
