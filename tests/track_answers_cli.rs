//! `vantage track answers`: after two demo runs of a set, one cell's answers are printed run
//! by run with what changed between the last two; the JSON holds both runs; a cell the set
//! does not ask is refused with what it does ask (exit 2).

use std::path::Path;

mod common;

use common::cli::{stdout, vantage};

// Two samples a cell: each run asks afresh, so the answers of two runs may differ.
const WORKSPACE: &str = r#"[[brands]]
name = "Merrell"

[[brands]]
name = "Salomon"

[[brands]]
name = "Keen"

[[sets]]
name = "boots"
prompts = ["best hiking boots"]
models = ["chatgpt"]
locations = ["us", "de"]
samples = 2
"#;

const CELL: [&str; 7] = [
    "--demo", "track", "answers", "boots", "--prompt", "1", "--place",
];

/// The cell's history as JSON, from `place`.
fn history(dir: &Path, place: &str) -> serde_json::Value {
    let mut args = CELL.to_vec();
    args.extend([place, "--json"]);
    let out = vantage(dir, &args);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn answered(history: &serde_json::Value) -> usize {
    history["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["answer"].is_object())
        .count()
}

#[test]
fn after_two_runs_a_cell_shows_both_answers_and_what_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), WORKSPACE).unwrap();

    // The simulator fails a tenth of queued jobs by design: run again until one of the two
    // cells has been answered twice (exit 7 says a run had a failed call).
    let mut place = None;
    for _ in 0..6 {
        let run = vantage(dir, &["--demo", "track", "run", "boots", "--wait"]);
        assert!(
            matches!(run.status.code(), Some(0 | 7)),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        place = ["us", "de"]
            .into_iter()
            .find(|p| answered(&history(dir, p)) >= 2);
        if place.is_some() {
            break;
        }
    }
    let place = place.expect("a cell answered in two of six runs");

    let json = history(dir, place);
    assert_eq!(json["cell"]["prompt"], "best hiking boots");
    assert_eq!(json["cell"]["model"], "chatgpt");
    let runs = json["runs"].as_array().unwrap();
    assert!(runs.len() >= 2);
    let started: Vec<i64> = runs
        .iter()
        .map(|r| r["started_at"].as_i64().unwrap())
        .collect();
    assert!(
        started.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {started:?}"
    );
    let answers: Vec<&serde_json::Value> =
        runs.iter().filter(|r| r["answer"].is_object()).collect();
    assert!(
        answers
            .iter()
            .all(|r| !r["answer"]["text"].as_str().unwrap().is_empty())
    );
    // The changes are between the newest two answered runs, older first.
    let changes = &json["changes"];
    assert_eq!(changes["to"], answers[0]["run"]);
    assert_eq!(changes["from"], answers[1]["run"]);
    assert!(changes["words"]["pieces"].is_array(), "{changes}");
    for list in [
        "brands_added",
        "brands_dropped",
        "sources_added",
        "sources_dropped",
    ] {
        assert!(changes[list].is_array(), "{list}");
    }

    // The text: each run's answer and the changes between the two.
    let mut args = CELL.to_vec();
    args.push(place);
    let text = vantage(dir, &args);
    assert_eq!(text.status.code(), Some(0), "{text:?}");
    let text = stdout(&text);
    let short = |r: &serde_json::Value| r["run"].as_str().unwrap()[..8].to_string();
    for run in &answers[..2] {
        assert!(
            text.contains(&format!("({}) · answered", short(run))),
            "{text}"
        );
    }
    assert!(
        text.matches("  │ ").count() > 2,
        "the answers' words: {text}"
    );
    let at = text.find("CHANGES FROM ").expect("the changes");
    let changes_text = &text[at..];
    assert!(changes_text.contains(&short(answers[1])), "{changes_text}");
    assert!(changes_text.contains(&short(answers[0])), "{changes_text}");
    assert!(
        changes_text.contains("alike") || changes_text.contains("The words are the same."),
        "{changes_text}"
    );

    // The same two runs named with --runs, older first or not.
    let (older, newer) = (short(answers[1]), short(answers[0]));
    let mut args = CELL.to_vec();
    let pair = format!("{newer},{older}");
    args.extend([place, "--runs", &pair, "--json"]);
    let named = vantage(dir, &args);
    assert_eq!(named.status.code(), Some(0), "{named:?}");
    let named: serde_json::Value = serde_json::from_slice(&named.stdout).unwrap();
    assert_eq!(named["changes"]["from"], answers[1]["run"]);
}

#[test]
fn a_cell_the_set_does_not_ask_is_refused_with_what_it_does() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), WORKSPACE).unwrap();
    let refused = |args: &[&str], says: &str| {
        let out = vantage(dir, args);
        assert_eq!(
            out.status.code(),
            Some(vantage::exit::INVALID_INPUT),
            "{out:?}"
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{stderr}");
    };
    let mut args = CELL.to_vec();
    args.push("fr");
    refused(&args, "its places are: US, DE");
    let mut args = CELL.to_vec();
    args.extend(["us", "--model", "gemini"]);
    refused(&args, "its models are: chatgpt");
    refused(
        &[
            "--demo",
            "track",
            "answers",
            "boots",
            "--prompt",
            "cheap boots",
            "--place",
            "us",
        ],
        "1. best hiking boots",
    );
    let mut args = CELL.to_vec();
    args.extend(["us", "--place", "de"]);
    let twice = vantage(dir, &args);
    assert_eq!(twice.status.code(), Some(vantage::exit::INVALID_INPUT));
    // In the set, but no run yet: said, not an empty page.
    let mut args = CELL.to_vec();
    args.push("us");
    refused(&args, "No runs of boots are stored");
}
