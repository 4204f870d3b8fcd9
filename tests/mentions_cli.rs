//! `--brands`, the workspace file and `vantage history` as a script sees them, against the
//! embedded simulator (`--demo`, loopback only) and a seeded history database.

use std::path::Path;
use std::process::{Command, Output};

use vantage::api::{AiRequest, SearchRequest};
use vantage::store::{Body, RequestParams, Store, StoreOptions, now_ms};

fn vantage(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vantage"));
    command
        .current_dir(dir)
        .env_remove("VANTAGE_TOKEN")
        .env_remove("MASSIVE_TOKEN")
        .env("VANTAGE_DATA_DIR", dir)
        .env("VANTAGE_CONFIG", dir.join("no-config.toml"));
    command
}

fn run(command: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().unwrap();
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

#[test]
fn ai_lists_mentions_in_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let (code, text, _) = run(vantage(dir.path()).args([
        "--demo",
        "ai",
        "best hiking boots",
        "--brands",
        "Merrell,Scarpa=scarpa.com",
    ]));
    assert_eq!(code, 0);
    let mentions = text.split("Mentions:\n").nth(1).unwrap_or_default();
    // The answer's second pick, and a warning about a boot it did not put forward.
    assert!(
        mentions.starts_with(
            "  1. Scarpa — 3× — recommended, item 2 of a list — \"Scarpa Rush Trek — Best for"
        ),
        "{text}"
    );
    assert!(
        mentions.contains("  2. Merrell — 1× — cautioned — \"Skip the Merrell Moab 3 Mid"),
        "{text}"
    );

    let (code, json, _) = run(vantage(dir.path()).args([
        "--demo",
        "ai",
        "best hiking boots",
        "--brands",
        "Merrell,OutdoorGearLab=outdoorgearlab.com",
        "--json",
    ]));
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        value["prompt"], "best hiking boots",
        "the mentions are part of vantage's reading"
    );
    assert_eq!(value["mentions"][0]["brand"], "Merrell");
    assert_eq!(value["mentions"][0]["position"], 1);
    assert_eq!(value["mentions"][0]["count"], 1);
    assert_eq!(value["mentions"][0]["stance"], "cautioned");
    // The citation pill's label is where the answer got it from, not a mention.
    assert_eq!(value["mentions"][1]["position"], serde_json::Value::Null);
    assert_eq!(
        value["mentions"][1]["cited"], true,
        "a citation on www.outdoorgearlab.com"
    );
}

#[test]
fn compare_takes_the_workspace_brands_and_adds_the_matrix() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("vantage.toml"),
        "# tracked\n[[brands]]\nname = \"Keen\"\n\n[[brands]]\nname = \"Sálomon\"\n",
    )
    .unwrap();
    let args = [
        "--demo",
        "compare",
        "best hiking boots",
        "--models",
        "chatgpt,gemini",
        "--locations",
        "us:ny:New+York,de::Berlin",
    ];
    let (code, text, _) = run(vantage(dir.path()).args(args));
    assert_eq!(code, 0);
    let matrix = text.split("Mentions — ").nth(1).unwrap_or_default();
    assert!(
        matrix.contains("\nBRAND       1    2    3    4  VISIBILITY  AVG POS  SHARE\n"),
        "{text}"
    );
    assert!(matrix.contains("\nKeen    "), "{text}");
    assert!(matrix.contains("\nSálomon "), "{text}");

    let (code, json, _) = run(vantage(dir.path()).args(args).arg("--json"));
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = value["mentions"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["columns"].as_array().unwrap().len(), 4);
    let share: f64 = rows
        .iter()
        .map(|r| r["share_of_voice"].as_f64().unwrap())
        .sum();
    assert!(share == 0.0 || (share - 100.0).abs() < 1e-6, "{share}");
    assert!(
        value["columns"].is_array(),
        "the comparison's own fields stay"
    );
}

#[test]
fn a_bad_workspace_file_or_brand_list_is_refused_before_sending() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("vantage.toml"),
        "[[brands]]\naliases = [1]\n",
    )
    .unwrap();
    let (code, _, error) = run(vantage(dir.path()).args(["--demo", "ai", "boots"]));
    assert_eq!(code, vantage::exit::INVALID_INPUT);
    assert!(
        error.contains("vantage.toml, line 1, key `brands.name`"),
        "{error}"
    );
    let (code, _, error) = run(vantage(dir.path()).args([
        "--demo",
        "compare",
        "boots",
        "--workspace",
        "elsewhere.toml",
    ]));
    assert_eq!(code, vantage::exit::INVALID_INPUT);
    assert!(
        error.contains("no workspace file at elsewhere.toml"),
        "{error}"
    );
    let (code, _, error) =
        run(vantage(dir.path()).args(["--demo", "ai", "boots", "--brands", "=x.com"]));
    assert_eq!(code, vantage::exit::INVALID_INPUT);
    assert!(error.contains("no name before its '='"), "{error}");
}

#[test]
fn history_lists_pages_and_searches() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, note) = run(vantage(dir.path()).arg("history"));
    assert_eq!(code, 0);
    assert!(note.contains("No history is stored yet"), "{note}");
    {
        let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
        let (boots, _) = store.add_request(RequestParams::Ai(AiRequest::new("best hiking boots")));
        let answer = serde_json::json!({"completion": "<p>Löwa Renegade</p>"}).to_string();
        store
            .add_response(
                &boots,
                Body {
                    status: 200,
                    text: answer,
                    elapsed_ms: 5,
                    received_at: now_ms(),
                },
            )
            .detach();
        let (_, ack) = store.add_request(RequestParams::Search(SearchRequest::new("lowa shop")));
        ack.wait().unwrap();
    }
    let (code, text, _) = run(vantage(dir.path()).arg("history"));
    assert_eq!(code, 0);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[1].starts_with("search "), "{text}");
    assert!(
        lines[2].starts_with("ai ") && lines[2].contains(" 200 "),
        "{text}"
    );
    let (_, text, _) = run(vantage(dir.path()).args(["history", "--limit", "1", "--offset", "1"]));
    assert_eq!(text.lines().count(), 2);
    assert!(
        text.lines().nth(1).unwrap_or_default().starts_with("ai "),
        "{text}"
    );

    let (code, json, _) = run(vantage(dir.path()).args(["history", "search", "lowa", "--json"]));
    assert_eq!(code, 0);
    let found: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(found.as_array().unwrap().len(), 2);
    let (_, json, _) =
        run(vantage(dir.path()).args(["history", "search", "LOWA", "--kind", "ai", "--json"]));
    let found: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(found[0]["kind"], "ai");
    assert_eq!(found.as_array().unwrap().len(), 1);
    let (code, text, note) = run(vantage(dir.path()).args(["history", "search", "tents"]));
    assert_eq!((code, text.as_str()), (0, ""));
    assert!(
        note.contains("No stored request or answer holds every word of \"tents\""),
        "{note}"
    );
    let (code, _, note) = run(vantage(dir.path()).args(["history", "search", "--", "--"]));
    assert_eq!(code, vantage::exit::INVALID_INPUT);
    assert!(note.contains("no word to look for"), "{note}");
}
