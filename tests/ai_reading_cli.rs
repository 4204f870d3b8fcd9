//! `vantage ai --json` prints vantage's reading of the answer (text, Markdown, sources as
//! cards, fanouts, mentions) and `--raw` the service's body exactly as received: against a
//! loopback stub that answers with the live ChatGPT completion.

use std::process::{Command, Output};

use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_vantage");
const LIVE_CHATGPT: &str = include_str!("fixtures/live/ai-chatgpt-sample.json");

async fn ai() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        LIVE_CHATGPT,
    )
        .into_response()
}

fn vantage(url: &str, args: &[&str]) -> Output {
    let home = tempfile::tempdir().expect("temp dir");
    let output = Command::new(BIN)
        .env("VANTAGE_DATA_DIR", home.path().join("data"))
        .env("VANTAGE_CONFIG", home.path().join("none.toml"))
        .env("VANTAGE_TOKEN", "reading-test-token")
        .env_remove("MASSIVE_TOKEN")
        .current_dir(home.path())
        .args(["--render-url", url, "--search-url", url, "ai"])
        .args(args)
        .output()
        .expect("vantage runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn json_reads_the_live_chatgpt_answer_and_raw_keeps_its_body() {
    let service = common::serve(axum::Router::new().route("/ai", get(ai)));
    let output = vantage(&service.url, &["what is mcp", "--json"]);
    let reading: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(reading["model"], "chatgpt");
    assert_eq!(reading["prompt"], "what is mcp");
    assert_eq!(
        reading["location"],
        json!({"country": null, "subdivision": null, "city": null})
    );
    let text = reading["text"].as_str().expect("text");
    assert!(
        text.starts_with("“MCP” can mean a lot of different things"),
        "{text}"
    );
    assert!(
        !text.contains('<') && !text.contains("ChatGPT said"),
        "{text}"
    );
    assert!(
        reading["markdown"]
            .as_str()
            .is_some_and(|m| m.contains("**"))
    );
    // The answer, not the chat page: a few KB of a 478 KB body.
    assert!(
        output.stdout.len() * 20 < LIVE_CHATGPT.len(),
        "{}",
        output.stdout.len()
    );
    let sources = reading["sources"].as_array().expect("sources");
    assert_eq!(sources.len(), 5, "{sources:#?}");
    assert_eq!(
        sources[0],
        json!({
            "n": 1,
            "title": null,
            "site": "Cloudera",
            "url": "https://www.cloudera.com/resources/faqs/model-context-protocol-mcp.html",
            "snippet": null,
        })
    );
    assert_eq!(sources[4]["site"], "Wikipedia");
    assert_eq!(reading["fanouts"], json!(["what is mcp", "mcp meaning"]));
    assert_eq!(reading["mentions"], json!([]));
    assert_eq!(reading["overview"], Value::Null);

    let raw = vantage(&service.url, &["what is mcp", "--raw"]);
    assert!(
        raw.stdout == LIVE_CHATGPT.as_bytes(),
        "--raw prints the body byte for byte"
    );
}

#[test]
fn json_carries_the_tracked_brands_mentions() {
    let service = common::serve(axum::Router::new().route("/ai", get(ai)));
    let output = vantage(
        &service.url,
        &[
            "what is mcp",
            "--brands",
            "Wikipedia=wikipedia.org,Salomon",
            "--json",
        ],
    );
    let reading: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let mentions = reading["mentions"].as_array().expect("mentions");
    assert_eq!(mentions.len(), 2, "{mentions:#?}");
    let wikipedia = mentions
        .iter()
        .find(|m| m["brand"] == "Wikipedia")
        .expect("Wikipedia");
    assert_eq!(wikipedia["cited"], true, "a pill cites wikipedia.org");
    let salomon = mentions
        .iter()
        .find(|m| m["brand"] == "Salomon")
        .expect("Salomon");
    assert_eq!(salomon["position"], Value::Null);
    assert!(salomon.get("stance").is_some());
}
