//! A service that echoes the token it is sent, in error bodies, headers, answers and job
//! results: the CLI and the app go through every path a text of the service takes, and no
//! output, no file of the data folder (the SQLite file and its full-text index, read as
//! bytes, the log) holds the token afterwards.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use axum::extract::Query;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

mod common;

/// Long enough to be masked wherever it appears; its tail is what the mask keeps.
const TOKEN: &str = "sk-echo-0123456789abcdef";
/// What of the token must never show: all but the four characters the mask keeps.
const HIDDEN: &str = "sk-echo-0123456789ab";
/// The token as the screen shows it, and as the mask leaves it in every text.
const MASKED: &str = "••••cdef";

const AI_READY: &str = "00000000-0000-4000-8000-00000000000a";
const AI_FAILED: &str = "00000000-0000-4000-8000-00000000000b";
const SEARCH_READY: &str = "00000000-0000-4000-8000-00000000000c";

/// The token the call came with, as the service read it.
fn echoed(headers: &HeaderMap) -> String {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("none")
        .to_string()
}

/// A JSON answer whose headers echo the token too.
fn answer(status: StatusCode, token: &str, value: serde_json::Value) -> Response {
    (
        status,
        [
            (
                header::CONTENT_TYPE,
                format!("application/json; echo={token}"),
            ),
            (header::HeaderName::from_static("x-echo"), token.to_string()),
        ],
        value.to_string(),
    )
        .into_response()
}

/// A plain-text error that quotes the token, as a careless service might.
fn refusal(status: StatusCode, token: &str) -> Response {
    let message = if status == StatusCode::FORBIDDEN {
        format!("Valid API token must be provided; {token} is not one")
    } else {
        format!("Refused the call made with {token}")
    };
    (status, [(header::CONTENT_TYPE, "text/plain")], message).into_response()
}

fn completion(token: &str) -> serde_json::Value {
    json!({
        "model": "chatgpt",
        "prompt": format!("boots for {token}"),
        "completion": format!(
            "<p>Your token is {token}.</p><p><a href=\"https://cite.example/?t={token}\">{token}</a></p>"
        ),
        "sources": format!("<a href=\"https://source.example/{token}\">source {token}</a>"),
        "fanouts": [format!("fanout {token}")],
    })
}

fn results(token: &str) -> serde_json::Value {
    json!({
        "engine": "google",
        "terms": format!("boots {token}"),
        "resultsCount": 1,
        "pageCount": 1,
        "pageSize": 10,
        "results": [{
            "type": "organic",
            "page": 1, "position": 1, "feature": 1, "section": "main",
            "title": format!("Result for {token}"),
            "url": format!("https://result.example/{token}"),
            "site": "result.example",
            "snippet": format!("snippet {token}"),
        }],
    })
}

async fn ai(headers: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    let token = echoed(&headers);
    if let Some(id) = q.get("id") {
        return match id.as_str() {
            AI_READY => answer(StatusCode::OK, &token, completion(&token)),
            _ => answer(
                StatusCode::OK,
                &token,
                json!({"status": "failed", "message": format!("failed for {token}")}),
            ),
        };
    }
    let prompt = q.get("prompt").cloned().unwrap_or_default();
    if prompt.contains("refuse") {
        return refusal(StatusCode::UNPROCESSABLE_ENTITY, &token);
    }
    if prompt.contains("crash") {
        return refusal(StatusCode::INTERNAL_SERVER_ERROR, &token);
    }
    if prompt.contains("forbid") {
        return refusal(StatusCode::FORBIDDEN, &token);
    }
    if q.get("mode").map(String::as_str) == Some("async") {
        let id = if prompt.contains("doomed") {
            AI_FAILED
        } else {
            AI_READY
        };
        return answer(StatusCode::OK, &token, json!({ "id": id }));
    }
    answer(StatusCode::OK, &token, completion(&token))
}

async fn search(headers: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    let token = echoed(&headers);
    let terms = q.get("terms").cloned().unwrap_or_default();
    if terms.contains("refuse") {
        return refusal(StatusCode::UNPROCESSABLE_ENTITY, &token);
    }
    if q.get("mode").map(String::as_str) == Some("async") {
        return answer(StatusCode::OK, &token, json!({ "id": SEARCH_READY }));
    }
    answer(StatusCode::OK, &token, results(&token))
}

async fn search_results(headers: HeaderMap) -> Response {
    let token = echoed(&headers);
    answer(StatusCode::OK, &token, results(&token))
}

fn echo_routes() -> axum::Router {
    axum::Router::new()
        .route("/ai", get(ai))
        .route("/search", get(search))
        .route("/search/results", get(search_results))
}

fn vantage(url: &str, home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vantage"))
        .env("VANTAGE_DATA_DIR", home.join("data"))
        .env("VANTAGE_CONFIG", home.join("none.toml"))
        .env("VANTAGE_TOKEN", TOKEN)
        .env("VANTAGE_LOG", "trace")
        .env_remove("MASSIVE_TOKEN")
        .args(["--render-url", url, "--search-url", url])
        .args(args)
        .output()
        .expect("vantage runs")
}

/// Every file under `dir`, as bytes, with its path.
fn files_under(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("read file");
                found.push((path, bytes));
            }
        }
    }
    found
}

fn holds(bytes: &[u8], needle: &str) -> bool {
    bytes
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

/// No file of the data folder holds the token; the files are returned by name.
fn assert_no_file_holds_the_token(data: &Path) -> HashMap<String, Vec<u8>> {
    let files = files_under(data);
    for (path, bytes) in &files {
        assert!(!holds(bytes, HIDDEN), "{} holds the token", path.display());
    }
    files
        .into_iter()
        .filter_map(|(path, bytes)| Some((path.file_name()?.to_str()?.to_string(), bytes)))
        .collect()
}

#[test]
fn no_output_file_row_or_log_line_holds_the_echoed_token() {
    let service = common::serve(echo_routes());
    let home = tempfile::tempdir().expect("temp dir");
    // (arguments, expected exit code): each answer, error or result echoes the token.
    let cases: &[(&[&str], i32)] = &[
        (&["ai", "boots"], 0),
        (&["ai", "boots", "--json"], 0),
        (&["ai", "boots", "--raw"], 0),
        (&["ai", "refuse"], 4),
        (&["ai", "forbid"], 3),
        // A 500 is retried once, and the retry is logged with the service's words.
        (&["ai", "crash"], 4),
        (&["search", "boots"], 0),
        (&["search", "boots", "--json"], 0),
        (&["search", "refuse"], 4),
        (&["ai", "boots", "--async"], 0),
        (&["ai", "doomed", "--async"], 0),
        (&["search", "boots", "--async"], 0),
        // One of the three jobs fails: the watch says so with its exit code.
        (&["jobs", "watch"], 4),
        (&["job", "ai", AI_READY], 0),
        (&["job", "search", SEARCH_READY, "--json"], 0),
        (&["jobs", "--json"], 0),
        (&["history", "--json"], 0),
        (&["history", "search", "cdef"], 0),
        (&["history", "search", "sk*"], 0),
    ];
    let mut masked_seen = 0;
    for (args, code) in cases {
        let what = args.join(" ");
        let output = vantage(&service.url, home.path(), args);
        for (stream, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
            assert!(
                !holds(bytes, HIDDEN),
                "{what}: the token reached {stream}:\n{}",
                String::from_utf8_lossy(bytes)
            );
            masked_seen += usize::from(holds(bytes, MASKED));
        }
        assert_eq!(output.status.code(), Some(*code), "{what}: {output:?}");
    }
    // The service did echo it, and what showed was the mask: the test can fail.
    assert!(masked_seen >= 10, "the mask showed {masked_seen} times");
    let files = assert_no_file_holds_the_token(&home.path().join("data"));
    let log = files
        .get("vantage.log")
        .expect("the log is among the files checked");
    assert!(
        holds(log, "retrying") && holds(log, MASKED),
        "the log has the 500's retry line, its message masked"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_stores_and_shows_the_answer_with_the_token_masked() {
    let url = common::serve_here(echo_routes()).await;
    let data = tempfile::tempdir().expect("temp dir");
    let client = vantage::api::Client::new(vantage::api::ClientSettings::new(
        &url,
        &url,
        vantage::api::Secret::new(TOKEN),
    ))
    .expect("client");
    let (mut runner, mut rx) = vantage::tui::test_runner(client, data.path().to_path_buf());
    let store =
        vantage::store::Store::open_in(data.path(), vantage::store::StoreOptions::default())
            .expect("store");
    runner.set_store(Some(store));
    let connection = vantage::app::Connection {
        demo: false,
        host: url.clone(),
        token: Some(MASKED.to_string()),
        token_hint: "the config file".into(),
    };
    let mut app = vantage::app::App::new(connection, Instant::now());
    app.area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let (tx, events) = common::scripted_events();
    common::type_events(&tx, "boots");
    tx.send(common::key(KeyCode::Enter))
        .expect("the loop listens");
    let looped = tokio::spawn(async move {
        vantage::tui::run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .expect("the loop runs");
        runner.close().await;
        (terminal, app)
    });
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    tx.send(common::ctrl_c()).expect("the loop listens");
    let (terminal, app) = tokio::time::timeout(Duration::from_secs(20), looped)
        .await
        .expect("the loop ends on Ctrl+C")
        .expect("the loop's task");
    let answer = app.chat.answer.as_ref().expect("the answer landed");
    assert!(answer.prepared.request.prompt.contains("boots"));
    let screen = terminal.backend().to_string();
    assert!(!screen.contains(HIDDEN), "{screen}");
    assert!(
        screen.contains("cdef"),
        "the answer shows the mask:\n{screen}"
    );
    let files = assert_no_file_holds_the_token(data.path());
    // The app's History entry was written: the answer's masked text is in the store.
    let stored = |name: &str| files.get(name).is_some_and(|bytes| holds(bytes, MASKED));
    assert!(
        stored(vantage::store::DB_FILE) || stored(&format!("{}-wal", vantage::store::DB_FILE)),
        "the answer was stored: {:?}",
        files.keys().collect::<Vec<_>>()
    );
}
