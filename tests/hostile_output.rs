//! A hostile service: every field of every endpoint the CLI reads carries control sequences
//! (window title, clipboard, clear screen, C1 controls, bidi overrides). Every subcommand runs
//! against it on a pseudo-terminal, and no ESC, BEL, C1 or bidi control may reach it; into a
//! pipe, `--json` and raw output stay exactly as received.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use axum::extract::Query;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;
use tempfile::TempDir;

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_vantage");

/// Title, clipboard (ended by BEL and by ST), clear screen, 8-bit CSI and OSC, NEL, a bidi
/// override and an isolate, a lone BEL and a cursor move.
const HOSTILE: &str = "\x1b]0;pwned\x07\x1b]52;c;ZWNobyBvd25lZA==\x1b\\\x1b[2J\u{9b}31m\u{9d}0;t\u{9c}\u{85}\u{202e}gnp.exe\u{202c}\u{2066}x\u{2069}\x07\x1b[1;1H";
/// An OSC left open: a terminal would swallow everything after it.
const OPEN_OSC: &str = "\x1b]0;never closed";

const AI_READY: &str = "00000000-0000-4000-8000-000000000001";
const AI_PENDING: &str = "00000000-0000-4000-8000-000000000002";
const SEARCH_PENDING: &str = "00000000-0000-4000-8000-000000000003";
const BROWSER_READY: &str = "00000000-0000-4000-8000-000000000004";

fn h(label: &str) -> String {
    format!("{label}{HOSTILE}")
}

fn completion() -> serde_json::Value {
    json!({
        "model": "chatgpt",
        "query": h("query"),
        "prompt": h("prompt"),
        "html": "",
        "completion": format!(
            "<p>{}</p><p><a href=\"https://cite.example/{HOSTILE}\">{}</a> <a href=\"/url?q=https://redirect.example/%1b%5D0%3Bpwn%07%9b2J&amp;sa=U\">redirected</a></p><p>{OPEN_OSC}</p>",
            h("answer"),
            h("citation")
        ),
        "sources": format!("<a href=\"https://source.example/{HOSTILE}\">{}</a>", h("source")),
        "ads": format!("<a href=\"https://ad.example/\">{}</a>", h("ad")),
        "fanouts": [h("fanout one"), h("fanout two")],
    })
}

fn results() -> serde_json::Value {
    json!({
        "engine": h("google"),
        "terms": h("terms"),
        "country": h("US"),
        "city": h("Austin"),
        "resultsCount": 3,
        "approxResultsCount": 1000,
        "pageCount": 1,
        "pageSize": 10,
        "results": [
            {
                "type": "organic-with-sitelinks",
                "page": 1, "position": 1, "feature": 1, "section": h("main"),
                "title": h("title"),
                "url": format!("https://result.example/{HOSTILE}"),
                "site": h("site"),
                "visibleUrl": h("visible"),
                "snippet": format!("{}{OPEN_OSC}", h("snippet")),
                "date": h("date"),
                "images": [],
                "sitelinks": [{"position": 1, "title": h("sitelink"), "url": format!("https://sitelink.example/{HOSTILE}")}],
            },
            {
                "type": "also-asked",
                "page": 1, "position": 1, "feature": 2, "section": "main",
                "question": h("question"),
                "answer": {
                    "title": h("answer title"),
                    "description": h("answer description"),
                    "url": format!("https://answer.example/{HOSTILE}"),
                    "site": h("answer site"),
                    "visibleUrl": h("answer visible"),
                    "date": null, "heading": null,
                },
            },
            {
                "type": h("unknown-kind"),
                "page": 1, "position": 2, "feature": 3, "section": "main",
                "title": h("odd"),
                "url": format!("https://odd.example/{HOSTILE}"),
                "publisher": h("publisher"),
            },
        ],
    })
}

fn html_page(label: &str) -> String {
    format!(
        "<html><head><title>{}</title></head><body><p>{}</p><a href=\"/url?q=https://evil.example/%1B%5D0%3Bpwn%07&amp;sa=U\">{}</a><a href=\"https://plain.example/{HOSTILE}\">{}</a></body></html>",
        h(label),
        h("paragraph"),
        h("redirect link"),
        h("link")
    )
}

fn json_answer(status: StatusCode, value: serde_json::Value) -> Response {
    (status, axum::Json(value)).into_response()
}

fn html_answer(body: String) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

/// An error whose message is hostile: `fail400` in the prompt or terms asks for a 400,
/// `fail500` for a 500 (retried once, after a second, with a countdown on stderr).
fn failure(text: &str) -> Option<Response> {
    let status = if text.contains("fail400") {
        StatusCode::BAD_REQUEST
    } else if text.contains("fail500") {
        StatusCode::INTERNAL_SERVER_ERROR
    } else {
        return None;
    };
    Some(json_answer(
        status,
        json!({"error": h("refused"), "message": h("refused")}),
    ))
}

async fn ai(Query(q): Query<HashMap<String, String>>) -> Response {
    if let Some(id) = q.get("id") {
        return match id.as_str() {
            AI_READY => json_answer(StatusCode::OK, completion()),
            _ => json_answer(StatusCode::OK, json!({"status": h("retrieving")})),
        };
    }
    let prompt = q.get("prompt").cloned().unwrap_or_default();
    if let Some(failed) = failure(&prompt) {
        return failed;
    }
    if q.get("mode").map(String::as_str) == Some("async") {
        return json_answer(StatusCode::OK, json!({"id": AI_READY}));
    }
    json_answer(StatusCode::OK, completion())
}

async fn search(Query(q): Query<HashMap<String, String>>) -> Response {
    let terms = q.get("terms").cloned().unwrap_or_default();
    if let Some(failed) = failure(&terms) {
        return failed;
    }
    if q.get("mode").map(String::as_str) == Some("async") {
        return json_answer(StatusCode::OK, json!({"id": SEARCH_PENDING}));
    }
    if q.get("format").map(String::as_str) == Some("html") {
        return html_answer(html_page("results page"));
    }
    json_answer(StatusCode::OK, results())
}

async fn search_results() -> Response {
    json_answer(StatusCode::OK, json!({"status": h("retrieving")}))
}

async fn browser(Query(q): Query<HashMap<String, String>>) -> Response {
    match q.get("id").map(String::as_str) {
        Some(BROWSER_READY) => html_answer(html_page("browser page")),
        _ => json_answer(StatusCode::OK, json!({"status": h("retrieving")})),
    }
}

async fn devices() -> Response {
    json_answer(StatusCode::OK, json!(devices_list()))
}

/// The hostile service on 127.0.0.1:0.
struct Hostile {
    served: common::Served,
}

impl Hostile {
    fn start() -> Hostile {
        let served = common::serve(
            axum::Router::new()
                .route("/ai", get(ai))
                .route("/ai/devices", get(devices))
                .route("/search", get(search))
                .route("/search/results", get(search_results))
                .route("/browser", get(browser)),
        );
        Hostile { served }
    }

    fn command(&self, home: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.env("VANTAGE_DATA_DIR", home.join("data"))
            .env("VANTAGE_CONFIG", home.join("none.toml"))
            .env("VANTAGE_TOKEN", "hostile-test-token")
            .env_remove("MASSIVE_TOKEN")
            .env_remove("VANTAGE_LOG")
            .args([
                "--render-url",
                &self.served.url,
                "--search-url",
                &self.served.url,
            ])
            .args(args);
        cmd
    }
}

/// Runs the command with stdin, stdout and stderr on a new pseudo-terminal; returns its exit
/// code and everything the terminal received.
fn run_on_pty(cmd: Command) -> (Option<i32>, Vec<u8>) {
    let (mut child, mut master) = common::pty::spawn(cmd);
    let reader = std::thread::spawn(move || {
        let mut received = Vec::new();
        let mut buffer = [0u8; 4096];
        // Linux answers EIO once the last holder of the other side has closed it.
        while let Ok(n @ 1..) = master.read(&mut buffer) {
            received.extend_from_slice(&buffer[..n]);
        }
        received
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("vantage did not finish in 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status.code(), reader.join().expect("reader"))
}

/// Nothing a terminal would obey: no ESC, no BEL, no C1 control, no bidi control.
fn assert_inert(what: &str, received: &[u8]) {
    let text = String::from_utf8_lossy(received);
    for (at, byte) in received.iter().enumerate() {
        assert!(
            *byte != 0x1B && *byte != 0x07,
            "{what}: byte {byte:#04x} at {at} reached the terminal:\n{text}"
        );
    }
    for c in text.chars() {
        assert!(
            !matches!(c, '\u{80}'..='\u{9F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'),
            "{what}: {c:?} reached the terminal:\n{text}"
        );
    }
}

#[test]
fn no_control_sequence_from_the_service_reaches_the_terminal() {
    let service = Hostile::start();
    let home = TempDir::new().expect("temp dir");
    // (arguments, expected exit code, text that must be visible)
    let cases: &[(&[&str], i32, &str)] = &[
        (&["devices"], 0, "Pixel 8"),
        (&["devices", "--json"], 0, "Pixel 8"),
        (&["ai", "boots"], 0, "fanout one"),
        (&["ai", "boots", "--json"], 0, "fanout one"),
        (&["ai", "boots", "--raw"], 0, "fanout one"),
        (&["ai", "boots", "--async"], 0, AI_READY),
        (&["jobs", "watch"], 0, "done"),
        (&["search", "boots"], 0, "sitelink"),
        (&["search", "boots", "--json"], 0, "sitelink"),
        (&["search", "boots", "--format", "html"], 0, "redirect link"),
        (
            &["search", "boots", "--format", "html", "--json"],
            0,
            "redirect link",
        ),
        (&["search", "boots", "--async"], 0, SEARCH_PENDING),
        (&["job", "ai", AI_PENDING], 0, "retrieving"),
        (&["job", "ai", AI_READY], 0, "citation"),
        (
            &["job", "search", SEARCH_PENDING, "--json"],
            0,
            "retrieving",
        ),
        (&["job", "browser", BROWSER_READY], 0, "paragraph"),
        (&["job", "browser", BROWSER_READY, "--json"], 0, "paragraph"),
        (&["jobs"], 0, "boots"),
        (&["jobs", "--json"], 0, "boots"),
        (
            &["compare", "boots", "--models", "chatgpt,gemini"],
            0,
            "ChatGPT",
        ),
        (
            &["compare", "boots", "--models", "chatgpt,gemini", "--json"],
            0,
            "fanout one",
        ),
        (
            &["compare-search", "boots", "--locations", "us,de"],
            0,
            "result.example",
        ),
        (
            &["compare-search", "boots", "--locations", "us,de", "--json"],
            0,
            "result.example",
        ),
        (&["ai", "fail400"], 4, "refused"),
        (&["search", "fail500"], 4, "Retry 1 in 1 s"),
        (
            &["compare", "fail400", "--models", "chatgpt,gemini"],
            4,
            "refused",
        ),
        (&["store", "check"], 0, "is whole"),
    ];
    for (args, code, visible) in cases {
        let what = args.join(" ");
        let (exit, received) = run_on_pty(service.command(home.path(), args));
        let text = String::from_utf8_lossy(&received);
        assert_inert(&what, &received);
        assert_eq!(exit, Some(*code), "{what}:\n{text}");
        assert!(
            text.contains(visible),
            "{what}: {visible:?} not shown:\n{text}"
        );
    }
}

#[test]
fn into_a_pipe_json_and_raw_output_stay_exact() {
    let service = Hostile::start();
    let home = TempDir::new().expect("temp dir");
    let pretty = |value: serde_json::Value| {
        let body = serde_json::to_string(&value).expect("json");
        format!("{}\n", vantage::render::pretty_json(&body).expect("pretty"))
    };
    let cases: Vec<(&[&str], String)> = vec![
        (
            &["devices", "--json"],
            pretty(serde_json::to_value(devices_list()).expect("json")),
        ),
        (
            &["ai", "boots", "--raw"],
            serde_json::to_string(&completion()).expect("json"),
        ),
        (&["search", "boots", "--json"], pretty(results())),
        (
            &["search", "boots", "--format", "html", "--json"],
            format!("{}\n", html_page("results page")),
        ),
        (
            &["job", "browser", BROWSER_READY, "--json"],
            format!("{}\n", html_page("browser page")),
        ),
    ];
    for (args, expected) in cases {
        let output = service
            .command(home.path(), args)
            .stdin(Stdio::null())
            .output()
            .expect("vantage runs");
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            expected,
            "{args:?}: not byte-exact"
        );
        let override_bytes = "\u{202e}".as_bytes();
        assert!(
            output
                .stdout
                .windows(override_bytes.len())
                .any(|w| w == override_bytes),
            "{args:?}: the hostile characters are kept"
        );
    }
}

fn devices_list() -> Vec<String> {
    vec![
        h("Pixel 8"),
        format!("iPhone\n{HOSTILE}fake second device"),
        OPEN_OSC.to_string(),
    ]
}

/// The rule that keeps the CLI safe: it prints only through `out`, `out_as_received` and
/// `err`, which sanitize.
#[test]
fn the_cli_prints_only_through_its_sanitizing_helpers() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut checked = 0;
    for entry in std::fs::read_dir(&folder).expect("src/cli") {
        let path = entry.expect("entry").path();
        let source = std::fs::read_to_string(&path).expect("source");
        for macro_name in ["print!(", "println!(", "eprint!(", "eprintln!(", "dbg!("] {
            assert!(
                !source.contains(macro_name),
                "{} uses {macro_name}; use out/err from cli/mod.rs",
                path.display()
            );
        }
        if path.file_name() != Some("mod.rs".as_ref()) {
            assert!(
                !source.contains("stdout()") && !source.contains("stderr()"),
                "{} writes to stdout or stderr itself",
                path.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} files in src/cli");
}
