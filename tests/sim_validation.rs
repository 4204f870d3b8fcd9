//! The simulator refuses each invalid parameter with a 422 that names it, as the service does.

// Test helpers outside #[test] functions may panic too: a panic is a failed test here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use vantage::sim::SimConfig;

mod common;

use common::http::get;
use common::start;

fn quick() -> SimConfig {
    SimConfig {
        latency_scale: 0.0,
        job_pending: Duration::from_millis(200),
        job_fail_share: 0.0,
        ..SimConfig::default()
    }
}

#[tokio::test]
async fn every_invalid_parameter_gets_a_422_naming_it() {
    let sim = start(quick()).await;
    let long_prompt = "é".repeat(2048);
    let long_terms = "x".repeat(256);
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);
    let cases: Vec<Case> = vec![
        ("/ai", vec![], "Prompt must be provided"),
        (
            "/ai",
            vec![("prompt", &long_prompt)],
            "Character counts must be no more than 2047",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("model", "bard")],
            "Model must be one of chatgpt, gemini, perplexity, copilot",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("device", "Nokia 3310")],
            "Device must be",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("country", "DEU")],
            "Country must be a two-letter ISO code",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("subdivision", "BY")],
            "Subdivision requires country",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("country", "DE"), ("subdivision", "B-Y!")],
            "Subdivision must be",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("city", "Munich")],
            "City requires country",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("language", "12")],
            "Language must be",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("display", "<b>")],
            "Display must be",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("format", "xml")],
            "Format must be one of json, rendered, raw",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("expiration", "7")],
            "Expiration must be 0 or 1",
        ),
        (
            "/ai",
            vec![("prompt", "hi"), ("mode", "later")],
            "Mode must be one of sync, async",
        ),
        ("/search", vec![], "Terms must be provided"),
        (
            "/search",
            vec![("terms", &long_terms)],
            "Character counts must be no more than 255",
        ),
        (
            "/search",
            vec![("terms", "x"), ("serps", "11")],
            "Serps must be an integer from 1 to 10",
        ),
        (
            "/search",
            vec![("terms", "x"), ("serps", "0")],
            "Serps must be an integer from 1 to 10",
        ),
        (
            "/search",
            vec![("terms", "x"), ("size", "101")],
            "Size must be an integer from 0 to 100",
        ),
        (
            "/search",
            vec![("terms", "x"), ("offset", "-1")],
            "Offset must be an integer from 0 to 100",
        ),
        (
            "/search",
            vec![("terms", "x"), ("ip", "mobile")],
            "Ip must be one of residential, isp",
        ),
        (
            "/search",
            vec![("terms", "x"), ("country", "1A")],
            "Country must be a two-letter ISO code",
        ),
        (
            "/search",
            vec![("terms", "x"), ("city", "Paris")],
            "City requires country",
        ),
        (
            "/search",
            vec![("terms", "x"), ("format", "rendered")],
            "Format must be one of html, json",
        ),
        (
            "/search",
            vec![("terms", "x"), ("awaiting", "ai"), ("awaiting", "video")],
            "Awaiting must be one of ai, answers, ads",
        ),
        (
            "/browser",
            vec![("url", "ftp://example.com/")],
            "Url must be an absolute http or https address",
        ),
    ];
    for (path, query, message) in &cases {
        let answer = get(&sim, path, query).await;
        assert_eq!(answer.status, 422, "{path} {query:?}: {}", answer.body);
        assert!(
            answer.body.starts_with(message),
            "{path} {query:?}: {}",
            answer.body
        );
        assert!(answer.content_type.starts_with("text/plain"));
    }
    // Unknown parameters are ignored; names are case-insensitive where the contract says so.
    let fine = get(
        &sim,
        "/ai",
        &[
            ("prompt", "hi"),
            ("model", "Gemini"),
            ("device", "pixel 4A (5g) LANDSCAPE"),
            ("colour", "red"),
        ],
    )
    .await;
    assert_eq!(fine.status, 200, "{}", fine.body);
    assert_eq!(fine.json()["device"], "Pixel 4a (5G) landscape");
    assert_eq!(sim.credits(), 995, "invalid calls cost nothing");
}
