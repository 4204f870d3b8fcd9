//! Every call from the command line is in History, marked as the CLI's, as the app's are:
//! one entry per call, one per comparison, and a queued call's entry answered by its job.

use std::time::Duration;

mod common;

use common::Service;
use serde_json::Value;
use tempfile::TempDir;

fn run(service: &Service, dir: &TempDir, args: &[&str]) -> std::process::Output {
    let output = common::run_vantage(&service.sim, dir.path(), args, Duration::from_secs(60));
    assert!(output.status.success(), "{args:?}: {output:?}");
    output
}

fn history(service: &Service, dir: &TempDir) -> Vec<Value> {
    let output = run(service, dir, &["history", "--json"]);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    json.as_array().unwrap().clone()
}

#[test]
fn each_subcommand_that_calls_the_service_leaves_one_entry_marked_cli() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["ai", "best hiking boots"], "ai"),
        (&["search", "hiking boots"], "search"),
        (&["page", "https://example.com/"], "browser"),
        (
            &[
                "compare",
                "best boots",
                "--models",
                "chatgpt,gemini",
                "--locations",
                "us,de",
            ],
            "compare",
        ),
        (
            &["compare-search", "boots", "--locations", "us,de"],
            "compare",
        ),
    ];
    for (i, (args, kind)) in cases.iter().enumerate() {
        run(&service, &dir, args);
        let entries = history(&service, &dir);
        assert_eq!(
            entries.len(),
            i + 1,
            "{args:?} left one entry: {entries:#?}"
        );
        let newest = &entries[0];
        assert_eq!(newest["kind"], *kind, "{args:?}");
        assert_eq!(newest["origin"], "cli", "{args:?}");
        assert_eq!(newest["status"], 200, "{args:?}: its answer is kept");
    }
    // The table says where each came from.
    let table = String::from_utf8(run(&service, &dir, &["history"]).stdout).unwrap();
    assert!(table.lines().next().unwrap().contains("FROM"), "{table}");
    assert!(table.lines().nth(1).unwrap().contains(" cli "), "{table}");
}

#[test]
fn a_queued_call_is_an_entry_its_job_answers_when_it_lands() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let id = String::from_utf8(run(&service, &dir, &["ai", "boots", "--async"]).stdout).unwrap();
    let entries = history(&service, &dir);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["origin"], "cli");
    assert!(
        entries[0]["status"].is_null(),
        "no answer yet: {entries:#?}"
    );
    // The job ends (done, or failed as a tenth do by design); either way the entry says so.
    let _ = common::run_vantage(
        &service.sim,
        dir.path(),
        &["jobs", "watch"],
        Duration::from_secs(60),
    );
    let entries = history(&service, &dir);
    assert_eq!(
        entries.len(),
        1,
        "the result answers the entry, not a new one"
    );
    assert!(!entries[0]["status"].is_null(), "job {id}: {entries:#?}");
}

#[test]
fn an_empty_history_asked_for_as_json_is_an_empty_json_list() {
    let dir = TempDir::new().unwrap();
    for args in [
        &["history", "--json"][..],
        &["history", "search", "boots", "--json"],
    ] {
        let output = assert_cmd::Command::new(env!("CARGO_BIN_EXE_vantage"))
            .env("VANTAGE_DATA_DIR", dir.path().join("data"))
            .env("VANTAGE_CONFIG", dir.path().join("none.toml"))
            .env_remove("VANTAGE_TOKEN")
            .args(["--demo"])
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}");
        let listed: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(listed, serde_json::json!([]), "{args:?}");
    }
}
