//! An answer that says it could not find a brand does not count as naming it: through
//! `vantage compare --brands … --json`, against a service whose answers say so.

use std::process::Command;

use axum::extract::Query;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_vantage");

/// Every answer recommends Salomon; with `unknown` in the prompt it also says it found
/// nothing on Lowa.
async fn ai(Query(q): Query<HashMap<String, String>>) -> Response {
    let prompt = q.get("prompt").cloned().unwrap_or_default();
    let mut html = "<p>Salomon is the best boot for most hikers.</p>".to_string();
    if prompt.contains("unknown") {
        html.push_str("<p>I couldn't find reliable information about Lowa boots.</p>");
    }
    axum::Json(serde_json::json!({
        "completion": html,
        "sources": "",
        "fanouts": [],
        "prompt": "",
        "html": "",
        "ads": "",
        "model": q.get("model").cloned().unwrap_or_default(),
    }))
    .into_response()
}

fn start() -> common::Served {
    common::serve(axum::Router::new().route("/ai", get(ai)))
}

/// A brand's visibility, average position and share of voice.
type Measures = (String, f64, Option<f64>, f64);

/// Each brand's measures in the comparison's JSON, and the JSON.
fn measures(url: &str, prompt: &str) -> (Vec<Measures>, serde_json::Value) {
    let home = tempfile::tempdir().expect("temp dir");
    let output = Command::new(BIN)
        .env("VANTAGE_DATA_DIR", home.path().join("data"))
        .env("VANTAGE_CONFIG", home.path().join("none.toml"))
        .env("VANTAGE_TOKEN", "stance-test-token")
        .env_remove("MASSIVE_TOKEN")
        .args(["--render-url", url, "--search-url", url])
        .args([
            "compare",
            prompt,
            "--models",
            "chatgpt,gemini",
            "--brands",
            "Salomon,Lowa",
            "--json",
        ])
        .output()
        .expect("vantage runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let rows = json["mentions"]
        .as_array()
        .expect("mentions")
        .iter()
        .map(|row| {
            (
                row["brand"].as_str().unwrap_or_default().to_string(),
                row["visibility"].as_f64().unwrap_or(-1.0),
                row["average_position"].as_f64(),
                row["share_of_voice"].as_f64().unwrap_or(-1.0),
            )
        });
    (rows.collect(), json)
}

#[test]
fn an_answer_that_found_nothing_on_a_brand_leaves_its_visibility_unchanged() {
    let service = start();
    let (silent, _) = measures(&service.url, "best hiking boots");
    let (said, json) = measures(&service.url, "best hiking boots unknown");
    assert_eq!(said, silent, "{json:#}");
    let lowa = said.iter().find(|r| r.0 == "Lowa").expect("Lowa");
    assert_eq!(lowa.1, 0.0);
    // The answer's words are kept: each column says why Lowa is not counted.
    let text = json.to_string();
    assert!(text.contains("not-found"), "{json:#}");
    assert!(text.contains("\"recommended\""), "{json:#}");
}
