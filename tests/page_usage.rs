//! Pages from a vantage point, the usage report and the credit balances: the client's calls
//! and the `page` and `usage` commands, against a simulator on 127.0.0.1:0.

// Test helpers outside #[test] functions may panic too: a panic is a failed test here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::Output;
use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;
use vantage::api::{
    ApiError, BrowserFormat, BrowserRequest, Field, Service, UsageGrouping, UsageRequest,
};
use vantage::sim::Simulator;
use vantage::store::{RequestKind, Store};

const SHOP: &str = "https://shop.example.net/boots";

#[tokio::test]
async fn the_client_fetches_pages_in_each_format() {
    let sim = common::start(common::quick()).await;
    let client = common::client(&sim);
    let mut request = BrowserRequest::new("https://example.com");
    request.format = BrowserFormat::Markdown;
    let markdown = client.browser(&request).await.unwrap().value;
    assert!(markdown.starts_with("# Example Domain"), "{markdown}");
    request.format = BrowserFormat::Rendered;
    let rendered = client.browser(&request).await.unwrap().value;
    request.format = BrowserFormat::Raw;
    let raw = client.browser(&request).await.unwrap().value;
    assert!(rendered.contains("<h1>Example Domain</h1>"), "{rendered}");
    assert_ne!(rendered, markdown);
    assert!(raw.contains("Example Domain"));
}

#[tokio::test]
async fn bad_page_requests_are_caught_before_sending() {
    let sim = common::start(common::quick()).await;
    let client = common::client(&sim);
    let before = sim.requests_received();
    let error = client
        .browser(&BrowserRequest::new("example.com"))
        .await
        .unwrap_err();
    let ApiError::Invalid(invalid) = error else {
        panic!("not caught here: {error:?}");
    };
    assert!(invalid.message_for(Field::Url).is_some());
    assert_eq!(sim.requests_received(), before);
}

#[tokio::test]
async fn usage_counts_the_pages_fetched_and_users_lists_balances() {
    let sim = common::start(common::quick()).await;
    let client = common::client(&sim);
    for _ in 0..2 {
        client
            .browser(&BrowserRequest::new("https://example.org"))
            .await
            .unwrap();
    }
    let mut request = UsageRequest::last_day(time::OffsetDateTime::now_utc());
    request.services = vec![Service::Browser];
    request.by = UsageGrouping::Hour;
    request.to += time::Duration::minutes(1);
    let rows = client.usage(&request).await.unwrap().value;
    let calls: u64 = rows.iter().map(|r| r.calls).sum();
    assert_eq!(calls, 2, "{rows:?}");
    assert!(rows.iter().all(|r| r.service == "browser" && r.credits > 0));
    let users = client.users().await.unwrap().value;
    assert!(!users.is_empty());
    assert!(users[0].credits.is_some(), "{users:?}");
}

#[tokio::test]
async fn usage_counts_every_billed_call_so_it_agrees_with_the_balance() {
    let sim = common::start(common::quick()).await;
    let client = common::client(&sim);
    let balance = |users: Vec<vantage::api::Account>| users[0].credits.unwrap_or(0);
    let before = balance(client.users().await.unwrap().value);
    client
        .ai(&vantage::api::AiRequest::new("best hiking boots"))
        .await
        .unwrap();
    client
        .ai(&vantage::api::AiRequest::new("best trail shoes"))
        .await
        .unwrap();
    client
        .search(&vantage::api::SearchRequest::new("hiking boots"))
        .await
        .unwrap();
    client
        .browser(&BrowserRequest::new("https://example.org"))
        .await
        .unwrap();
    let after = balance(client.users().await.unwrap().value);
    let mut request = UsageRequest::last_day(time::OffsetDateTime::now_utc());
    request.to += time::Duration::minutes(1);
    let rows = client.usage(&request).await.unwrap().value;
    let credits: u64 = rows.iter().map(|r| r.credits).sum();
    assert!(before > after, "the balance fell");
    assert_eq!(credits, before - after, "{rows:?}");
    let calls: u64 = rows.iter().map(|r| r.calls).sum();
    assert_eq!(calls, 4, "{rows:?}");
}

/// A simulator on its own runtime, so the test thread can block on the binary.
struct Host {
    sim: Simulator,
    dir: TempDir,
    _runtime: tokio::runtime::Runtime,
}

impl Host {
    fn start() -> Host {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let sim = runtime.block_on(common::start(common::quick()));
        Host {
            sim,
            dir: tempfile::tempdir().expect("temp dir"),
            _runtime: runtime,
        }
    }

    fn run(&self, args: &[&str]) -> Output {
        common::run_vantage(&self.sim, self.dir.path(), args, Duration::from_secs(20))
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn page_prints_markdown_as_is_and_html_as_text_with_links() {
    let host = Host::start();
    let markdown = host.run(&["page", "https://example.com", "--format", "markdown"]);
    assert!(markdown.status.success());
    assert!(
        stdout(&markdown).starts_with("# Example Domain\n"),
        "{}",
        stdout(&markdown)
    );
    let text = stdout(&host.run(&["page", "https://example.com"]));
    assert!(text.starts_with("Example Domain"), "{text}");
    assert!(text.contains("Links:\n  1. "), "{text}");
    assert!(!text.contains("<h1>"), "{text}");
}

#[test]
fn one_shop_page_from_three_countries_differs_in_language_and_prices() {
    let host = Host::start();
    let pages: Vec<String> = ["US", "DE", "FR"]
        .iter()
        .map(|country| {
            let output = host.run(&["page", SHOP, "--country", country, "--format", "markdown"]);
            assert!(output.status.success());
            stdout(&output)
        })
        .collect();
    assert!(
        pages[0].contains("Delivery") && pages[0].contains('$'),
        "{}",
        pages[0]
    );
    assert!(
        pages[1].contains("Lieferung") && pages[1].contains('€'),
        "{}",
        pages[1]
    );
    assert!(
        pages[2].contains("Livraison") && pages[2].contains('€'),
        "{}",
        pages[2]
    );
    assert_ne!(pages[1], pages[2]);
}

#[test]
fn pages_go_to_history_and_queued_pages_to_the_jobs() {
    let host = Host::start();
    assert!(
        host.run(&["page", SHOP, "--country", "DE"])
            .status
            .success()
    );
    let queued = host.run(&["page", "https://example.net", "--async"]);
    assert!(queued.status.success());
    let id = stdout(&queued).trim().to_string();
    let page = host.run(&["job", "browser", &id, "--wait"]);
    assert!(
        stdout(&page).contains("Example Domain"),
        "{}",
        stdout(&page)
    );
    let store = Store::open_read_only(&host.dir.path().join("data").join(vantage::store::DB_FILE));
    let store = store.expect("the history database exists");
    // Both calls are in History: the queued one answered by its job's result.
    let history = store.history(10, 0).unwrap();
    assert_eq!(history.len(), 2, "{history:?}");
    assert!(history.iter().all(|h| h.kind == RequestKind::Browser));
    assert!(history[1].summary.contains("shop.example.net"));
    assert_eq!(history[1].status, Some(200));
    assert!(history[0].summary.contains("example.net"));
    assert_eq!(
        history[0].status,
        Some(200),
        "the job's result answers its entry"
    );
    let jobs = store.list_jobs().unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].id.as_str(), id);
}

#[test]
fn usage_shows_services_and_the_hours_with_a_sparkline() {
    let host = Host::start();
    assert!(host.run(&["page", "https://example.com"]).status.success());
    let table = stdout(&host.run(&["usage"]));
    assert!(table.contains("browser"), "{table}");
    assert!(
        table.contains("Credits by hour (one mark an hour):"),
        "{table}"
    );
    assert!(table.contains('█'), "{table}");
    assert!(
        table.contains("AI answers and fetched pages under browser"),
        "{table}"
    );
    let json: Value = serde_json::from_str(&stdout(&host.run(&["usage", "--json"]))).unwrap();
    assert!(
        json.as_array().is_some_and(|rows| !rows.is_empty()),
        "{json}"
    );
    let refused = host.run(&["usage", "--from", "yesterday"]);
    assert_eq!(refused.status.code(), Some(vantage::exit::INVALID_INPUT));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("2025-12-24T18:00:00Z"));
}
