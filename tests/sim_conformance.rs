//! Every path and method of the live service's OpenAPI document that the simulator serves,
//! called over HTTP and each answer validated against the document's own schemas. Paths it
//! does not serve are listed with why (also in docs/simulator.md); a path added to the document
//! fails this test until it is served or listed.

// Test helpers outside #[test] functions may panic too: a panic is a failed test here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use serde_json::{Value, json};
use vantage::sim::{DEMO_TOKEN, SimConfig, Simulator};

const OPENAPI: &str = include_str!("fixtures/openapi.json");

/// (method, path, why the simulator leaves it out).
const NOT_SERVED: [(&str, &str, &str); 9] = [
    (
        "post",
        "/search/batches",
        "batches: the app never sends them",
    ),
    (
        "get",
        "/search/batches",
        "batches: the app never sends them",
    ),
    ("post", "/ai/batches", "batches: the app never sends them"),
    ("get", "/ai/batches", "batches: the app never sends them"),
    (
        "post",
        "/browser/batches",
        "batches: the app never sends them",
    ),
    (
        "get",
        "/browser/batches",
        "batches: the app never sends them",
    ),
    ("post", "/users", "user administration: whitelabelers only"),
    ("patch", "/users", "user administration: whitelabelers only"),
    (
        "delete",
        "/users",
        "user administration: whitelabelers only",
    ),
];

/// The document, with the completion's two fields that live answers leave out no longer
/// required: `sse` (live, ChatGPT's only) and `fanouts` (live captures of May 2026 still
/// name them `subqueries`; the simulator does on a share of answers).
fn document() -> Value {
    let mut doc: Value = serde_json::from_str(OPENAPI).expect("the OpenAPI document is JSON");
    if let Some(required) = doc
        .pointer_mut("/components/schemas/Completion/required")
        .and_then(Value::as_array_mut)
    {
        required.retain(|field| field != "sse" && field != "fanouts");
    }
    doc
}

/// A JSON pointer token: `/` and `~` escaped.
fn token(text: &str) -> String {
    text.replace('~', "~0").replace('/', "~1")
}

/// A validator for the schema at `pointer` inside the document, which is wrapped so the
/// schema's own `$ref`s to `#/components/...` resolve against the whole document.
fn validator(doc: &Value, pointer: &str) -> jsonschema::Validator {
    let mut root = doc.clone();
    root["$ref"] = json!(format!("#{pointer}"));
    jsonschema::options()
        .build(&root)
        .unwrap_or_else(|e| panic!("schema at {pointer} builds: {e}"))
}

/// The pointer to the schema documented for this answer, following a shared response.
fn schema_pointer(doc: &Value, path: &str, status: u16, media: &str) -> Option<String> {
    let mut response = format!("/paths/{}/get/responses/{status}", token(path));
    if let Some(shared) = doc.pointer(&response).and_then(|r| r["$ref"].as_str()) {
        response = shared.trim_start_matches('#').to_string();
    }
    let content = doc.pointer(&format!("{response}/content"))?.as_object()?;
    content
        .keys()
        .find(|documented| media.starts_with(documented.as_str()))
        .map(|documented| format!("{response}/content/{}/schema", token(documented)))
}

struct Served {
    status: u16,
    media: String,
    body: String,
}

async fn call(sim: &Simulator, path: &str, query: &[(&str, &str)], token: Option<&str>) -> Served {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let url = url::Url::parse_with_params(&format!("{}{path}", sim.url()), query).expect("url");
    let mut request = reqwest::Client::new().get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("the simulator answers");
    let status = response.status().as_u16();
    let media = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let body = response.text().await.expect("a body");
    Served {
        status,
        media,
        body,
    }
}

/// Validates an answer against its documented schema; returns the JSON it parsed.
fn conforms(doc: &Value, path: &str, query: &[(&str, &str)], served: &Served) -> Value {
    let pointer = schema_pointer(doc, path, served.status, &served.media).unwrap_or_else(|| {
        panic!(
            "{path} {query:?}: {} {} is not documented",
            served.status, served.media
        )
    });
    check(doc, &pointer, path, query, served)
}

fn check(doc: &Value, pointer: &str, path: &str, query: &[(&str, &str)], served: &Served) -> Value {
    let instance = if served.media.contains("json") {
        serde_json::from_str(&served.body)
            .unwrap_or_else(|e| panic!("{path} {query:?}: not JSON ({e})"))
    } else {
        Value::String(served.body.clone())
    };
    let errors: Vec<String> = validator(doc, pointer)
        .iter_errors(&instance)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .take(5)
        .collect();
    assert!(
        errors.is_empty(),
        "{path} {query:?} breaks {pointer}: {errors:?}"
    );
    instance
}

#[tokio::test]
async fn every_served_path_answers_as_the_document_says() {
    let doc = document();
    let sim = Simulator::start(SimConfig {
        latency_scale: 0.0,
        job_pending: Duration::ZERO,
        job_fail_share: 0.0,
        ..SimConfig::default()
    })
    .await
    .expect("the simulator starts");
    let token = Some(DEMO_TOKEN);

    let calls: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("/user", vec![]),
        ("/users", vec![]),
        ("/users", vec![("email", "demo@vantage.local")]),
        ("/ai/devices", vec![]),
        ("/search/devices", vec![]),
        ("/browser/devices", vec![]),
        (
            "/search",
            vec![("terms", "hiking boots"), ("awaiting", "ai")],
        ),
        (
            "/search",
            vec![("terms", "hiking boots"), ("mode", "async")],
        ),
        ("/search", vec![("terms", "")]),
        ("/ai", vec![("prompt", "best hiking boots")]),
        (
            "/ai",
            vec![("prompt", "best hiking boots"), ("model", "gemini")],
        ),
        (
            "/ai",
            vec![("prompt", "best hiking boots"), ("format", "rendered")],
        ),
        ("/ai", vec![("prompt", "hi"), ("mode", "async")]),
        ("/ai", vec![("prompt", "hi"), ("model", "bard")]),
        ("/browser", vec![("url", "https://example.com/")]),
        (
            "/browser",
            vec![
                ("url", "https://shop.example.net/boots"),
                ("format", "markdown"),
                ("country", "DE"),
            ],
        ),
        (
            "/browser",
            vec![("url", "https://shop.example.net/boots"), ("format", "raw")],
        ),
        (
            "/browser",
            vec![("url", "https://shop.example.net/boots"), ("mode", "async")],
        ),
        ("/browser", vec![("url", "https://shop.invalid/boots")]),
        (
            "/usage",
            vec![
                ("from", "2000-01-01T00:00:00Z"),
                ("to", "2100-01-01T00:00:00Z"),
            ],
        ),
        (
            "/usage",
            vec![
                ("from", "2000-01-01T00:00:00Z"),
                ("to", "2100-01-01T00:00:00Z"),
                ("by", "hour"),
                ("service", "search"),
            ],
        ),
        (
            "/usage",
            vec![("from", "yesterday"), ("to", "2100-01-01T00:00:00Z")],
        ),
    ];
    let mut ids: Vec<(&str, String)> = Vec::new();
    for (path, query) in &calls {
        let served = call(&sim, path, query, token).await;
        let answer = conforms(&doc, path, query, &served);
        if served.status == 202 {
            let id = answer["id"].as_str().expect("an id").to_string();
            ids.push((path, id));
        }
    }
    assert_eq!(ids.len(), 3, "one async job per service");

    // Async retrievals, by id on the submitting path and on the deprecated ones.
    for (path, id) in &ids {
        let legacy = match *path {
            "/search" => "/search/results",
            "/ai" => "/ai/completions",
            _ => "/browser/content",
        };
        for path in [*path, legacy] {
            let query = [("id", id.as_str())];
            let served = call(&sim, path, &query, token).await;
            assert_eq!(served.status, 200, "{path} {id}: {}", served.body);
            conforms(&doc, path, &query, &served);
        }
    }

    // The JSON results format: the path documents only HTML, and the `Results` component's
    // items disagree with the live service's own sample (nulls, sitelinks without snippets,
    // more result types; `tests/contract.rs` holds the simulator to that sample). The
    // envelope is held to the component, less the unset options, which the service's
    // interface sends as null and the component types without it.
    let query = [("terms", "hiking boots"), ("format", "json"), ("size", "5")];
    let mut served = call(&sim, "/search", &query, token).await;
    assert_eq!(served.status, 200);
    let mut body: Value = serde_json::from_str(&served.body).expect("JSON results");
    assert!(body["results"].as_array().is_some_and(|r| !r.is_empty()));
    body["results"] = json!([]);
    if let Some(fields) = body.as_object_mut() {
        fields.retain(|_, value| !value.is_null());
    }
    served.body = body.to_string();
    check(
        &doc,
        "/components/schemas/Results",
        "/search",
        &query,
        &served,
    );

    // Missing and wrong tokens answer the documented errors on every served path.
    let served_paths: Vec<String> = doc["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .filter(|(_, methods)| methods.get("get").is_some())
        .map(|(path, _)| path.clone())
        .filter(|path| !path.ends_with("/batches"))
        .collect();
    assert_eq!(served_paths.len(), 12, "{served_paths:?}");
    for path in &served_paths {
        for token in [None, Some("wrong-token")] {
            let served = call(&sim, path, &[], token).await;
            assert!(
                served.status == 401 || served.status == 403,
                "{path}: {}",
                served.status
            );
            conforms(&doc, path, &[], &served);
        }
    }
    sim.shutdown().await;
}

#[test]
fn every_path_of_the_document_is_served_or_listed_with_why() {
    let doc = document();
    let tested = [
        "/user",
        "/users",
        "/usage",
        "/ai",
        "/ai/completions",
        "/ai/devices",
        "/search",
        "/search/results",
        "/search/devices",
        "/browser",
        "/browser/content",
        "/browser/devices",
    ];
    let reference = include_str!("../docs/simulator.md");
    for (path, methods) in doc["paths"].as_object().expect("paths") {
        for method in methods.as_object().expect("methods").keys() {
            let listed = NOT_SERVED.iter().find(|(m, p, _)| m == method && p == path);
            match listed {
                Some((_, _, why)) => {
                    assert!(!why.is_empty());
                    assert!(
                        reference.contains(&format!("`{} {path}`", method.to_uppercase())),
                        "docs/simulator.md lists {method} {path}"
                    );
                }
                None => assert!(
                    method == "get" && tested.contains(&path.as_str()),
                    "{method} {path} is neither tested nor listed"
                ),
            }
        }
    }
}
