//! The simulator over real HTTP, as the app's client sees it.

// Test helpers outside #[test] functions may panic too: a panic is a failed test here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use serde_json::Value;
use vantage::sim::{Fault, MODELS, SimConfig};

mod common;

use common::http::{get, get_as, wait_ready};
use common::start;

/// The shared quick simulator with jobs pending a little longer, to be seen retrieving.
fn quick() -> SimConfig {
    SimConfig {
        job_pending: Duration::from_millis(200),
        ..common::quick()
    }
}

#[tokio::test]
async fn auth_missing_and_wrong_tokens_answer_as_the_service() {
    let sim = start(quick()).await;
    let missing = get_as(&sim, "/ai", &[("prompt", "hi")], None).await;
    assert_eq!(missing.status, 401);
    assert_eq!(missing.body, "Authorization header must be provided");
    assert!(missing.content_type.starts_with("text/plain"));
    for (path, status) in [
        ("/ai", 401),
        ("/search", 401),
        ("/user", 401),
        ("/ai/devices", 403),
        ("/browser", 403),
        ("/browser/content", 403),
    ] {
        let wrong = get_as(&sim, path, &[("prompt", "hi")], Some("nope")).await;
        assert_eq!(wrong.status, status, "{path}");
        assert_eq!(wrong.body, "Valid API token must be provided");
        assert!(wrong.content_type.starts_with("text/plain"));
    }
    assert_eq!(sim.credits(), 1_000, "refused calls cost nothing");
    assert_eq!(sim.requests_received(), 7);
}

#[tokio::test]
async fn credits_are_spent_by_billed_calls_only_and_zero_answers_402() {
    let sim = start(quick()).await;
    // An answer costs 5 credits, a search 1 (the price table).
    sim.set_credits(6);
    assert_eq!(get(&sim, "/ai/devices", &[]).await.status, 200);
    let user = get(&sim, "/user", &[]).await.json();
    assert_eq!(user[0]["credits"], 6);
    assert_eq!(user[0]["email"], "demo@vantage.local");
    assert_eq!(get(&sim, "/ai", &[("prompt", "hi")]).await.status, 200);
    assert_eq!(get(&sim, "/search", &[("terms", "hi")]).await.status, 200);
    assert_eq!(sim.credits(), 0);
    for (path, key) in [("/ai", "prompt"), ("/search", "terms")] {
        let broke = get(&sim, path, &[(key, "hi")]).await;
        assert_eq!(broke.status, 402);
        assert_eq!(
            broke.body,
            format!("Credit balance is 0; top up at {}/plans", sim.url())
        );
    }
    let plans = get_as(&sim, "/plans", &[], None).await;
    assert_eq!(plans.status, 200);
    assert_eq!(get(&sim, "/user", &[]).await.json()[0]["credits"], 0);
}

#[tokio::test]
async fn completions_carry_the_contract_fields_and_differ_by_model_device_and_place() {
    let sim = start(quick()).await;
    let mut bodies = Vec::new();
    for model in MODELS {
        let body = get(
            &sim,
            "/ai",
            &[
                ("prompt", "best hiking boots"),
                ("model", model),
                ("country", "gb"),
                ("city", "London"),
            ],
        )
        .await
        .json();
        for field in [
            "model",
            "query",
            "html",
            "prompt",
            "completion",
            "sources",
            "ads",
            "fanouts",
        ] {
            assert!(body.get(field).is_some(), "{model} lacks {field}");
        }
        assert_eq!(body["model"], model);
        assert_eq!(body["query"], "best hiking boots");
        assert_eq!(body["country"], "GB");
        assert_eq!(body["city"], "London");
        let fanouts = body["fanouts"].as_array().map_or(0, Vec::len);
        if model == "chatgpt" {
            assert!((2..=5).contains(&fanouts));
        } else {
            assert_eq!(fanouts, 0);
        }
        let completion = body["completion"].as_str().unwrap_or_default();
        assert!(completion.contains("London"), "{model} mentions the city");
        assert!(completion.contains("£"), "{model} prices in pounds");
        bodies.push(body);
    }
    let completions: Vec<&str> = bodies
        .iter()
        .filter_map(|b| b["completion"].as_str())
        .collect();
    assert!(completions[0].contains("ChatGPT said:"));
    assert!(completions[0].contains("?utm_source=chatgpt.com"));
    assert!(completions[1].contains("cdk-visually-hidden"));
    assert!(completions[3].contains("<h6"));
    let references = bodies[3]["sources"].as_str().unwrap_or_default();
    assert!(references.contains("References") && references.contains("utm_source=copilot.com"));
    assert!(
        bodies[2]["sources"]
            .as_str()
            .unwrap_or_default()
            .contains(".co.uk/")
    );
    // The models that answer without searching share the first site they cite.
    let perplexity = format!("{}{}", bodies[3]["completion"], bodies[3]["sources"]);
    let first_host = perplexity
        .split("https://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_default()
        .to_string();
    assert!(!first_host.is_empty());
    for body in &bodies[1..3] {
        let all = format!("{}{}", body["completion"], body["sources"]);
        assert!(
            all.contains(&first_host),
            "{} shares {first_host}",
            body["model"]
        );
    }
    // ChatGPT cites what ranked for its searches: every site it cites is in the top three
    // of one of its fanouts searched from the same place.
    let mut top_three = Vec::new();
    for fanout in bodies[0]["fanouts"].as_array().cloned().unwrap_or_default() {
        let terms = fanout.as_str().unwrap_or_default().to_string();
        let page: Value = get(
            &sim,
            "/search",
            &[
                ("terms", terms.as_str()),
                ("country", "gb"),
                ("city", "London"),
                ("format", "json"),
            ],
        )
        .await
        .json();
        let urls: Vec<String> = page["results"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter(|r| r["type"].as_str().is_some_and(|t| t.starts_with("organic")))
            .take(3)
            .filter_map(|r| r["url"].as_str().map(str::to_string))
            .collect();
        top_three.extend(urls);
    }
    let cited: Vec<&str> = completions[0]
        .split("href=\"https://")
        .skip(1)
        .filter_map(|rest| rest.split('/').next())
        .collect();
    assert!(!cited.is_empty());
    for host in cited {
        assert!(
            top_three
                .iter()
                .any(|url| url.contains(&format!("//{host}/"))),
            "{host} ranks for a fanout: {top_three:?}"
        );
    }
    let phone = get(
        &sim,
        "/ai",
        &[("prompt", "best hiking boots"), ("device", "iPhone 15")],
    )
    .await
    .json();
    // No device is the desktop answer: the live service names no desktop.
    let desk = get(&sim, "/ai", &[("prompt", "best hiking boots")])
        .await
        .json();
    assert!(
        phone["completion"]
            .as_str()
            .unwrap_or_default()
            .contains("mobile layout")
    );
    assert!(
        !desk["completion"]
            .as_str()
            .unwrap_or_default()
            .contains("mobile layout")
    );
    assert!(
        phone["completion"].as_str().map_or(0, str::len)
            < desk["completion"].as_str().map_or(0, str::len)
    );
}

#[tokio::test]
async fn cached_answers_repeat_byte_for_byte_and_expiration_zero_varies() {
    let sim = start(quick()).await;
    let query = [("prompt", "what is mcp"), ("model", "perplexity")];
    let a = get(&sim, "/ai", &query).await.body;
    let b = get(&sim, "/ai", &query).await.body;
    assert_eq!(a, b);
    let fresh = [
        ("prompt", "what is mcp"),
        ("model", "perplexity"),
        ("expiration", "0"),
    ];
    let c = get(&sim, "/ai", &fresh).await.body;
    let d = get(&sim, "/ai", &fresh).await.body;
    assert_ne!(a, c);
    assert_ne!(c, d);
    let s1 = get(
        &sim,
        "/search",
        &[("terms", "mcp server"), ("format", "json")],
    )
    .await
    .body;
    let s2 = get(
        &sim,
        "/search",
        &[("terms", "mcp server"), ("format", "json")],
    )
    .await
    .body;
    assert_eq!(s1, s2);
    // Another simulator gives the same cached answer: content hangs on the inputs only.
    let other = start(quick()).await;
    assert_eq!(get(&other, "/ai", &query).await.body, a);
    assert_eq!(other.requests_received(), 1);
}

#[tokio::test]
async fn formats_rendered_raw_and_html_are_pages() {
    let sim = start(quick()).await;
    let rendered = get(&sim, "/ai", &[("prompt", "hi"), ("format", "rendered")]).await;
    let raw = get(&sim, "/ai", &[("prompt", "hi"), ("format", "RAW")]).await;
    assert!(rendered.content_type.starts_with("text/html"));
    assert!(raw.content_type.starts_with("text/html"));
    assert!(rendered.body.contains("ChatGPT said:"));
    assert!(raw.body.contains("<script") && raw.body.len() > rendered.body.len() * 2);
    let html = get(&sim, "/search", &[("terms", "best hiking boots")]).await;
    assert!(
        html.content_type.starts_with("text/html"),
        "html is the default"
    );
    assert!(
        html.body.contains("<h3") && html.body.contains("<a ") && html.body.contains("<script")
    );
}

#[tokio::test]
async fn search_json_has_the_contract_fields_and_honours_serps_size_offset() {
    let sim = start(quick()).await;
    let body = get(
        &sim,
        "/search",
        &[
            ("terms", "best hiking boots"),
            ("format", "json"),
            ("serps", "3"),
            ("size", "7"),
            ("offset", "5"),
        ],
    )
    .await
    .json();
    assert_eq!(body["engine"], "google");
    assert_eq!(body["terms"], "best hiking boots");
    assert_eq!(body["pageCount"], 3);
    assert_eq!(body["pageSize"], 7);
    assert_eq!(body["resultsOffset"], 5);
    for field in [
        "approxResultsCount",
        "country",
        "subdivision",
        "city",
        "uule",
        "language",
        "display",
    ] {
        assert!(
            body.get(field).is_some(),
            "{field} present (null when unset)"
        );
    }
    assert!(body["country"].is_null());
    let results = body["results"].as_array().cloned().unwrap_or_default();
    assert_eq!(body["resultsCount"].as_u64(), Some(results.len() as u64));
    let organic: Vec<&Value> = results
        .iter()
        .filter(|r| r["type"].as_str().is_some_and(|t| t.starts_with("organic")))
        .collect();
    assert_eq!(organic.len(), 21);
    let positions: Vec<u64> = organic
        .iter()
        .filter_map(|r| r["position"].as_u64())
        .collect();
    assert_eq!(positions, (6..=26).collect::<Vec<u64>>());
    for (i, page) in [1, 2, 3].iter().enumerate() {
        assert_eq!(organic[i * 7]["page"], *page);
    }
    for r in &organic {
        for field in [
            "type",
            "page",
            "section",
            "feature",
            "position",
            "url",
            "title",
            "site",
            "visibleUrl",
            "date",
            "snippet",
            "rating",
            "votes",
            "sitelinks",
            "images",
        ] {
            assert!(r.get(field).is_some(), "organic lacks {field}");
        }
    }
    let kinds: Vec<&str> = results.iter().filter_map(|r| r["type"].as_str()).collect();
    assert!(kinds.contains(&"also-asked"));
    assert!(kinds.contains(&"also-searched"));
    let asked = results
        .iter()
        .find(|r| r["type"] == "also-asked")
        .cloned()
        .unwrap_or_default();
    assert!(asked["question"].is_string() && asked["answer"]["url"].is_string());
    let plain = get(
        &sim,
        "/search",
        &[("terms", "best hiking boots"), ("format", "json")],
    )
    .await
    .json();
    assert!(plain["pageSize"].is_null() && plain["resultsOffset"].is_null());
    let top = plain["results"]
        .as_array()
        .and_then(|r| r.first().cloned())
        .unwrap_or_default();
    assert_eq!(top["position"], 1);
    let none = get(
        &sim,
        "/search",
        &[("terms", "x"), ("format", "json"), ("size", "0")],
    )
    .await
    .json();
    assert!(none["results"].as_array().is_some_and(|r| {
        r.iter()
            .all(|x| !x["type"].as_str().unwrap_or("").starts_with("organic"))
    }));
}

#[tokio::test]
async fn ranks_move_between_countries_and_ip_types() {
    let sim = start(quick()).await;
    let ranks = |body: Value| -> Vec<String> {
        body["results"]
            .as_array()
            .map(|r| {
                r.iter()
                    .filter(|x| x["type"].as_str().is_some_and(|t| t.starts_with("organic")))
                    .filter_map(|x| x["url"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let base = [("terms", "best hiking boots"), ("format", "json")];
    let us = ranks(
        get(&sim, "/search", &[base[0], base[1], ("country", "US")])
            .await
            .json(),
    );
    let de = ranks(
        get(&sim, "/search", &[base[0], base[1], ("country", "DE")])
            .await
            .json(),
    );
    let isp = ranks(
        get(
            &sim,
            "/search",
            &[base[0], base[1], ("country", "US"), ("ip", "isp")],
        )
        .await
        .json(),
    );
    assert_ne!(us, de);
    assert_ne!(us, isp);
    let shared = us.iter().filter(|u| de.contains(u)).count();
    assert!(shared >= 5, "most URLs are shared ({shared})");
    assert!(
        de.iter().any(|u| u.contains(".de/")),
        "local results in Germany"
    );
    assert!(!us.iter().any(|u| u.contains(".de/")));
}

#[tokio::test]
async fn async_completions_go_from_retrieving_to_the_sync_body() {
    let sim = start(quick()).await;
    let query = [
        ("prompt", "best hiking boots"),
        ("model", "gemini"),
        ("mode", "async"),
    ];
    let submitted = get(&sim, "/ai", &query).await;
    assert_eq!(submitted.status, 202);
    let id = submitted.json()["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(uuid::Uuid::parse_str(&id).is_ok());
    assert_eq!(
        sim.credits(),
        995,
        "a queued answer that will succeed costs 5 credits"
    );
    let pending = get(&sim, "/ai", &[("id", &id)]).await;
    assert_eq!(
        (pending.status, pending.json()["status"].clone()),
        (202, "retrieving".into())
    );
    let older = get(&sim, "/ai/completions", &[("id", &id)]).await;
    assert_eq!(
        (older.status, older.json()["status"].clone()),
        (200, "retrieving".into())
    );
    let ready = wait_ready(&sim, "/ai", &id).await;
    assert_eq!(ready.status, 200);
    let sync = get(&sim, "/ai", &query[..2]).await;
    assert_eq!(ready.body, sync.body);
    assert_eq!(
        get(&sim, "/ai/completions", &[("id", &id)]).await.body,
        sync.body
    );
    assert_eq!(sim.credits(), 990, "retrievals are free");
    for bad in ["00000000-0000-4000-8000-000000000000", "not-a-uuid"] {
        let missing = get(&sim, "/ai", &[("id", bad)]).await;
        assert_eq!(
            (missing.status, missing.body.as_str()),
            (404, "Job not found")
        );
    }
    // An AI job is not a search job.
    assert_eq!(
        get(&sim, "/search/results", &[("id", &id)]).await.status,
        404
    );
    // The job keeps its format.
    let rendered = get(
        &sim,
        "/ai",
        &[("prompt", "hi"), ("format", "rendered"), ("mode", "async")],
    )
    .await;
    let id = rendered.json()["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let page = wait_ready(&sim, "/ai", &id).await;
    assert!(page.content_type.starts_with("text/html") && page.body.contains("<html"));
}

#[tokio::test]
async fn async_search_and_browser_jobs_and_failed_jobs() {
    let sim = start(quick()).await;
    let submitted = get(
        &sim,
        "/search",
        &[("terms", "coffee"), ("format", "json"), ("mode", "async")],
    )
    .await;
    assert_eq!(submitted.status, 202);
    let id = submitted.json()["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // The deprecated path answers a pending job with 200, as the OpenAPI documents.
    assert_eq!(
        get(&sim, "/search/results", &[("id", &id)]).await.status,
        200
    );
    let ready = wait_ready(&sim, "/search/results", &id).await;
    assert_eq!(ready.status, 200);
    assert_eq!(ready.json()["terms"], "coffee");
    assert_eq!(
        get(&sim, "/search/results", &[("id", "nope")]).await.status,
        404
    );

    let browser = get(
        &sim,
        "/browser",
        &[("url", "https://example.com/page"), ("mode", "async")],
    )
    .await;
    assert_eq!(browser.status, 202);
    let id = browser.json()["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let pending = get(&sim, "/browser", &[("id", &id)]).await;
    assert_eq!(pending.json()["status"], "retrieving");
    let page = wait_ready(&sim, "/browser", &id).await;
    assert!(page.content_type.starts_with("text/html") && page.body.contains("Example Domain"));
    assert_eq!(
        get(&sim, "/browser/content", &[("id", &id)]).await.body,
        page.body
    );
    assert_eq!(sim.credits(), 998);

    let seeded = sim.seed_browser_job("<p>seeded</p>");
    assert_eq!(
        get(&sim, "/browser/content", &[("id", &seeded)]).await.body,
        "<p>seeded</p>"
    );
    assert_eq!(
        get(&sim, "/browser/content", &[("id", "x")]).await.status,
        404
    );

    let failing = start(SimConfig {
        job_fail_share: 1.0,
        ..quick()
    })
    .await;
    let id = get(&failing, "/ai", &[("prompt", "hi"), ("mode", "async")])
        .await
        .json()["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let failed = wait_ready(&failing, "/ai", &id).await;
    assert_eq!(
        (failed.status, failed.json()["status"].clone()),
        (200, "failed".into())
    );
}

#[tokio::test]
async fn scripted_faults_come_first_in_order_and_cost_nothing() {
    let sim = start(quick()).await;
    sim.script(vec![
        Some(Fault::Unavailable),
        Some(Fault::RateLimited),
        None,
        Some(Fault::Captcha),
        Some(Fault::ServerError),
        Some(Fault::Timeout),
        Some(Fault::Malformed),
        Some(Fault::Slow),
    ]);
    let q = [("prompt", "hi")];
    let unavailable = get(&sim, "/ai", &q).await;
    assert_eq!(unavailable.status, 503);
    assert_eq!(
        unavailable.body,
        "Service is autoscaling; please retry in 2 seconds"
    );
    assert_eq!(unavailable.retry_after.as_deref(), Some("2"));
    let limited = get(&sim, "/search", &[("terms", "x")]).await;
    assert_eq!(
        (limited.status, limited.body.as_str()),
        (429, "Too many requests; retry in 2 seconds")
    );
    // Free calls do not consume the script.
    assert_eq!(get(&sim, "/user", &[]).await.status, 200);
    assert_eq!(get(&sim, "/ai", &q).await.status, 200);
    assert_eq!(get(&sim, "/ai", &q).await.body, "Captcha was detected");
    assert_eq!(get(&sim, "/ai", &q).await.body, "Unknown error occurred");
    let timeout = get(&sim, "/ai", &q).await;
    assert_eq!(
        (timeout.status, timeout.body.as_str()),
        (504, "Request(s) timed out")
    );
    let broken = get(&sim, "/ai", &q).await;
    assert_eq!(broken.status, 200);
    assert!(serde_json::from_str::<Value>(&broken.body).is_err());
    assert_eq!(get(&sim, "/ai", &q).await.status, 200);
    assert_eq!(
        sim.credits(),
        1_000 - 3 * 5,
        "only the normal, malformed and slow answers were billed"
    );
    // Back to fault_rate (0): normal answers.
    assert_eq!(get(&sim, "/ai", &q).await.status, 200);
}

#[tokio::test]
async fn fault_rate_draws_from_the_kinds_and_devices_can_be_empty() {
    let sim = start(SimConfig {
        fault_rate: 1.0,
        fault_kinds: vec![Fault::ServerError],
        empty_devices: true,
        ..quick()
    })
    .await;
    for _ in 0..3 {
        assert_eq!(get(&sim, "/ai", &[("prompt", "hi")]).await.status, 500);
    }
    assert_eq!(get(&sim, "/ai/devices", &[]).await.body, "[]");
    let normal = start(quick()).await;
    let devices = get(&normal, "/ai/devices", &[]).await.json();
    let names: Vec<&str> = devices
        .as_array()
        .map(|d| d.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(names.len() >= 25);
    assert!(names.contains(&"iPhone 15 Pro Max") && names.contains(&"iPad Mini landscape"));
}
