//! The simulator over real HTTP in time: its latency as a model's, and its jobs, balance and
//! usage kept across restarts and shared by the simulators of one state file.

// Test helpers outside #[test] functions may panic too: a panic is a failed test here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use vantage::sim::SimConfig;

mod common;

use common::http::{get, wait_ready};
use common::start;

/// The shared quick simulator with jobs pending long enough to outlive a restart.
fn quick() -> SimConfig {
    SimConfig {
        job_pending: Duration::from_millis(200),
        ..common::quick()
    }
}

#[tokio::test]
async fn fixed_latency_delays_sync_answers_but_not_async_submissions() {
    let sim = start(SimConfig {
        fixed_latency: Some(Duration::from_millis(300)),
        ..quick()
    })
    .await;
    let started = Instant::now();
    assert_eq!(
        get(&sim, "/ai", &[("prompt", "hi"), ("model", "copilot")])
            .await
            .status,
        200
    );
    assert!(started.elapsed() >= Duration::from_millis(300));
    let started = Instant::now();
    assert_eq!(
        get(&sim, "/ai", &[("prompt", "hi"), ("mode", "async")])
            .await
            .status,
        202
    );
    assert!(started.elapsed() < Duration::from_millis(300));
}

#[tokio::test]
async fn jobs_survive_a_restart_with_a_state_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("simulator.db");
    let config = SimConfig {
        state_file: Some(file.clone()),
        job_pending: Duration::from_millis(300),
        ..quick()
    };
    let first = start(config.clone()).await;
    let query = [
        ("prompt", "best hiking boots"),
        ("model", "copilot"),
        ("country", "DE"),
        ("expiration", "0"),
    ];
    let id = get(
        &first,
        "/ai",
        &[query[0], query[1], query[2], query[3], ("mode", "async")],
    )
    .await
    .json()["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let search_id = get(&first, "/search", &[("terms", "tents"), ("mode", "async")])
        .await
        .json()["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    first.shutdown().await;
    assert!(file.exists());

    let second = start(config).await;
    let ready = wait_ready(&second, "/ai", &id).await;
    assert_eq!(ready.status, 200);
    let body = ready.json();
    assert_eq!(body["model"], "copilot");
    assert_eq!(body["country"], "DE");
    // Rebuilt from the stored parameters, it is the same on every retrieval.
    assert_eq!(get(&second, "/ai", &[("id", &id)]).await.body, ready.body);
    let results = wait_ready(&second, "/search/results", &search_id).await;
    assert!(results.content_type.starts_with("text/html") && results.body.contains("tents"));
    second.shutdown().await;
}

/// Two simulators on one state file are one service, as every `--demo` process is: a job
/// one queued is answered by the other, and the balance and usage are the same in both.
#[tokio::test]
async fn simulators_on_one_state_file_share_jobs_balance_and_usage() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = SimConfig {
        state_file: Some(dir.path().join("simulator.db")),
        job_pending: Duration::from_millis(100),
        job_fail_share: 0.0,
        ..quick()
    };
    let one = start(config.clone()).await;
    let other = start(config).await;
    let start_balance = other.credits();
    let id = get(
        &one,
        "/ai",
        &[("prompt", "best hiking boots"), ("mode", "async")],
    )
    .await
    .json()["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let answered = wait_ready(&other, "/ai", &id).await;
    assert_eq!(answered.status, 200, "the other simulator knows the job");
    assert!(answered.json()["completion"].is_string());
    // Billed once, seen by both.
    assert_eq!(one.credits(), other.credits());
    assert_eq!(start_balance - other.credits(), 5, "an AI answer costs 5");
    assert_eq!(
        get(&other, "/search", &[("terms", "tents")]).await.status,
        200
    );
    assert_eq!(one.credits(), start_balance - 6);
    let hour = time::OffsetDateTime::now_utc().unix_timestamp() / 3600 * 3600;
    let from = time::OffsetDateTime::from_unix_timestamp(hour - 3600)
        .unwrap()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let to = time::OffsetDateTime::from_unix_timestamp(hour + 3600)
        .unwrap()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let usage = get(&one, "/usage", &[("from", &from), ("to", &to)])
        .await
        .json();
    let credits: u64 = usage
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["credits"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(credits, 6, "usage holds what both billed: {usage}");
    one.shutdown().await;
    other.shutdown().await;
}

#[tokio::test]
async fn model_latency_scales_and_cache_hits_answer_in_a_tenth() {
    // ChatGPT takes 14 to 17 s live; at 0.02 that is 280 to 340 ms.
    let sim = start(SimConfig {
        latency_scale: 0.02,
        ..quick()
    })
    .await;
    let query = [("prompt", "best tent"), ("model", "chatgpt")];
    let started = Instant::now();
    assert_eq!(get(&sim, "/ai", &query).await.status, 200);
    assert!(started.elapsed() >= Duration::from_millis(280));
    let started = Instant::now();
    assert_eq!(get(&sim, "/ai", &query).await.status, 200);
    assert!(
        started.elapsed() < Duration::from_millis(200),
        "a cache hit"
    );
}
