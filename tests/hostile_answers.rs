//! Answers written to hurt, from a service of the test's own: nested thousands deep, they
//! are refused as they arrive with a sentence and a failing exit, and nothing of them is
//! kept for later readers to trip on.

use std::path::Path;
use std::process::{Command, Output};

use axum::routing::get;

#[path = "common/mod.rs"]
mod common;

const DEPTH: usize = 30_000;

fn deep_completion() -> String {
    format!(
        r#"{{"model":"chatgpt","completion":"<p>Lowa is a fine pick.</p>","extra":{}{}}}"#,
        "[".repeat(DEPTH),
        "]".repeat(DEPTH)
    )
}

fn deep_results() -> String {
    format!(
        r#"[{{"organic":{}{}}}]"#,
        "{\"a\":".repeat(DEPTH),
        "}".repeat(DEPTH)
    )
}

fn vantage(url: &str, home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vantage"))
        .env("VANTAGE_DATA_DIR", home.join("data"))
        .env("VANTAGE_CONFIG", home.join("none.toml"))
        .env("VANTAGE_TOKEN", "a-token-of-the-test")
        .env_remove("MASSIVE_TOKEN")
        .args(["--render-url", url, "--search-url", url])
        .args(args)
        .output()
        .expect("vantage runs")
}

#[test]
fn answers_nested_thousands_deep_are_refused_with_a_sentence_and_not_kept() {
    let service = common::serve(
        axum::Router::new()
            .route(
                "/ai",
                get(|| async { ([("content-type", "application/json")], deep_completion()) }),
            )
            .route(
                "/search",
                get(|| async { ([("content-type", "application/json")], deep_results()) }),
            ),
    );
    let home = tempfile::tempdir().unwrap();
    for args in [
        &["ai", "best boots"][..],
        &["search", "best boots", "--json"][..],
    ] {
        let out = vantage(&service.url, home.path(), args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{args:?}: {stderr}");
        assert!(
            stderr.contains("more than 128 levels deep"),
            "{args:?}: {stderr}"
        );
        assert!(
            stderr.len() < 2_000,
            "{args:?}: the sentence quotes a bounded excerpt"
        );
    }
    // Later readers find a failed call in History, and nothing deep kept.
    let history = vantage(&service.url, home.path(), &["history"]);
    assert!(history.status.success());
    let listed = String::from_utf8_lossy(&history.stdout);
    assert!(listed.contains("best boots"), "{listed}");
    let discover = vantage(&service.url, home.path(), &["brands", "discover"]);
    assert!(discover.status.success(), "{discover:?}");
    let deep_run = "[".repeat(200);
    for entry in std::fs::read_dir(home.path().join("data")).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(path).unwrap();
        assert!(
            !bytes
                .windows(deep_run.len())
                .any(|w| w == deep_run.as_bytes()),
            "a deep answer was kept"
        );
    }
}
