//! The shapes of answers written to hurt (part 22), from a service of the test's own, through
//! every command that reads answers: asked (`ai`, `compare`), tracked (`track run`), and read
//! again from the store (`track trends`, `track report` in every format, `brands discover`).
//! Each command ends with success within its time bound and its peak memory under 256 MB.
//!
//! The answers: one paragraph naming tracked brands thousands of times, thousands of list
//! items each naming a product, and a body nested a hundred deep (under the bound, so it is
//! kept) beside a flat list of thousands. 256 KB each here; `VANTAGE_SOUP_LARGE=1` makes them
//! 1 MiB, the issue's size, for a release run by hand.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::extract::Query;
use axum::routing::get;

#[path = "common/mod.rs"]
mod common;

/// Per command, in a debug build (the issue's 2 s is for a release build of 1 MiB answers).
const TIME_LIMIT: Duration = Duration::from_secs(20);
const MEMORY_LIMIT_KB: i64 = 256 * 1024;

const BRANDS: [&str; 6] = ["Lowa", "Merrell", "Salomon", "Keen", "Hoka", "Scarpa"];

fn size() -> usize {
    match std::env::var_os("VANTAGE_SOUP_LARGE") {
        Some(_) => 1024 * 1024,
        None => 256 * 1024,
    }
}

/// One sentence the size of the answer, naming the brands over and over, in bold and not.
fn one_paragraph() -> String {
    let mut text = String::from("<p>");
    let mut i = 0;
    while text.len() < size() {
        text.push_str(&format!(
            "<strong>{}</strong> beats {} and the {} Renegade is recommended over {}, ",
            BRANDS[i % 6],
            BRANDS[(i + 1) % 6],
            BRANDS[(i + 2) % 6],
            BRANDS[(i + 3) % 6]
        ));
        i += 1;
    }
    text.push_str("</p>");
    text
}

/// Thousands of list items, each a product name no brand covers (for discovery to weigh).
fn many_items() -> String {
    let mut text = String::from("<ol>");
    let mut i = 0;
    while text.len() < size() {
        text.push_str(&format!(
            "<li><strong>Trailmaker {i}</strong>: a boot like the {} Renegade.</li>",
            BRANDS[i % 6]
        ));
        i += 1;
    }
    text.push_str("</ol>");
    text
}

/// More list items than an answer may have to be read in its shape, at any size: read as
/// plain text, with a notice.
fn too_many_items() -> String {
    let items: String = (0..16_000).map(|i| format!("<li>Peak {i}</li>")).collect();
    format!("<p>Lowa leads.</p><ul>{items}</ul>")
}

fn completion(prompt: &str) -> String {
    let mut body = match prompt {
        p if p.contains("too many") => {
            serde_json::json!({"model": "chatgpt", "completion": too_many_items(), "sources": ""})
        }
        p if p.contains("paragraph") => {
            serde_json::json!({"model": "chatgpt", "completion": one_paragraph(), "sources": ""})
        }
        p if p.contains("items") => {
            serde_json::json!({"model": "chatgpt", "completion": many_items(), "sources": ""})
        }
        _ => serde_json::json!({
            "model": "chatgpt",
            "completion": "<p>Lowa is a fine pick, and Merrell is close.</p>",
            "sources": "",
        }),
    }
    .to_string();
    if prompt.contains("nested") {
        // A hundred levels, then a flat list of thousands: laid out, each item would carry
        // two hundred spaces.
        let items = vec!["1"; size() / 2].join(",");
        body.pop();
        body.push_str(&format!(
            ",\"extra\":{}{items}{}}}",
            "[".repeat(100),
            "]".repeat(100)
        ));
    }
    body
}

/// `/ai` answered at once or queued (`mode=async`, then `?id=`); `/user` with a balance.
fn service() -> common::Served {
    let jobs: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
    let next = Arc::new(AtomicU64::new(1));
    common::serve(
        axum::Router::new()
            .route(
                "/ai",
                get(
                    move |Query(query): Query<std::collections::HashMap<String, String>>| {
                        let jobs = jobs.clone();
                        let next = next.clone();
                        async move {
                            let json = [("content-type", "application/json")];
                            if let Some(id) = query.get("id") {
                                let n: usize = id[id.len() - 12..].parse().unwrap_or(0);
                                let prompt = jobs.lock().unwrap().get(n.wrapping_sub(1)).cloned();
                                return (json, completion(&prompt.unwrap_or_default()));
                            }
                            let prompt = query.get("prompt").cloned().unwrap_or_default();
                            if query.get("mode").is_some_and(|m| m == "async") {
                                jobs.lock().unwrap().push(prompt);
                                let n = next.fetch_add(1, Ordering::SeqCst);
                                let id = format!("00000000-0000-4000-8000-{n:012}");
                                return (json, serde_json::json!({ "id": id }).to_string());
                            }
                            (json, completion(&prompt))
                        }
                    },
                ),
            )
            .route(
                "/user",
                get(|| async {
                    (
                        [("content-type", "application/json")],
                        r#"{"email":"t@example.com","credits":100000}"#,
                    )
                }),
            ),
    )
}

const WORKSPACE: &str = r#"[[brands]]
name = "Lowa"
own = true

[[brands]]
name = "Merrell"

[[brands]]
name = "Salomon"

[[brands]]
name = "Keen"

[[sets]]
name = "hostile"
prompts = [
    "one paragraph of boots",
    "many items of boots",
    "too many items of boots",
    "nested boots",
    "plain boots",
]
models = ["chatgpt"]
locations = ["us"]
"#;

/// The largest peak memory of any child this process has waited for, in KB.
fn children_peak_kb() -> i64 {
    nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .map_or(0, |usage| usage.max_rss())
}

/// Runs `vantage args` to its end and checks its exit, time and memory.
fn runs_within_bounds(url: &str, dir: &Path, args: &[&str]) -> String {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_vantage"))
        .current_dir(dir)
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("none.toml"))
        .env("VANTAGE_TOKEN", "a-token-of-the-test")
        .env_remove("MASSIVE_TOKEN")
        .args(["--render-url", url, "--search-url", url])
        .args(args)
        .output()
        .expect("vantage runs");
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(took <= TIME_LIMIT, "{args:?} took {took:?}");
    // Every child is counted: one above the limit, whichever, is a failure here.
    let peak = children_peak_kb();
    assert!(peak <= MEMORY_LIMIT_KB, "{args:?}: peak {peak} KB");
    eprintln!(
        "{args:?}: {took:?}, peak of children so far {} MB",
        peak / 1024
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn hostile_answers_go_through_every_command_within_bounds() {
    let service = service();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), WORKSPACE).unwrap();
    let url = service.url.as_str();

    let asked = runs_within_bounds(url, dir, &["ai", "one paragraph of boots"]);
    assert!(asked.contains("Lowa"), "the answer is printed");
    runs_within_bounds(url, dir, &["ai", "nested boots", "--json"]);
    let compared = runs_within_bounds(
        url,
        dir,
        &[
            "compare",
            "many items of boots",
            "--models",
            "chatgpt,gemini",
            "--csv",
        ],
    );
    assert!(compared.contains("Merrell"), "{compared}");

    runs_within_bounds(url, dir, &["track", "run", "hostile", "--wait"]);
    let trends = runs_within_bounds(url, dir, &["track", "trends", "hostile"]);
    assert!(trends.contains("Lowa"), "{trends}");
    for format in ["csv", "jsonl", "json"] {
        let report = runs_within_bounds(
            url,
            dir,
            &["track", "report", "hostile", "--format", format],
        );
        assert!(report.contains("Merrell"), "{format}");
    }
    for (format, file) in [("html", "r.html"), ("md", "r.md")] {
        let path = dir.join(file);
        let path = path.to_str().unwrap();
        runs_within_bounds(
            url,
            dir,
            &["track", "report", "hostile", "--format", format, "-o", path],
        );
        let written = std::fs::read_to_string(path).unwrap();
        assert!(written.contains("Salomon"), "{format}");
    }
    let names = runs_within_bounds(url, dir, &["brands", "discover"]);
    let excerpt = &names[..names.len().min(3000)];
    // 256 KB of items is read in its shape; past the bounds an answer is read as plain text,
    // and the list says how many were.
    if std::env::var_os("VANTAGE_SOUP_LARGE").is_none() {
        assert!(names.contains("Trailmaker"), "{excerpt}");
    }
    assert!(names.contains("were read as plain text"), "{excerpt}");
}
