//! The demo keeps its data apart (part 24): a live run left unsent stays unsent when the same
//! set is run with `--demo`, its trends hold no simulated answer, and each History shows only
//! its own entries.

mod common;

use common::cli::{stdout, vantage};

const WORKSPACE: &str = r#"[[brands]]
name = "Merrell"

[[sets]]
name = "boots"
prompts = ["best hiking boots"]
models = ["chatgpt"]
locations = ["us", "de"]
"#;

#[test]
fn a_demo_run_never_touches_the_live_store_and_each_history_is_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), WORKSPACE).unwrap();

    // No token: the live run is written and nothing sent.
    let live = vantage(dir, &["track", "run", "boots"]);
    assert_eq!(
        live.status.code(),
        Some(vantage::exit::CREDENTIALS),
        "{}",
        String::from_utf8_lossy(&live.stderr)
    );
    // Resumed where nothing can connect: nothing went out either time, so nothing is said
    // to be billed twice.
    let resumed = assert_cmd::Command::new(env!("CARGO_BIN_EXE_vantage"))
        .current_dir(dir)
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("none.toml"))
        .env("VANTAGE_TOKEN", "a-token-of-the-test")
        .args([
            "--render-url",
            "http://127.0.0.1:9",
            "--search-url",
            "http://127.0.0.1:9",
        ])
        .args(["track", "run", "boots"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&resumed.stderr);
    assert!(said.contains("could not be sent now"), "{said}");
    assert!(!said.contains("twice"), "nothing went out: {said}");
    // The same set with the demo: a run of its own, sent and answered.
    let demo = vantage(dir, &["--demo", "track", "run", "boots", "--wait"]);
    let said = String::from_utf8_lossy(&demo.stderr);
    assert!(said.contains("2 calls"), "{said}");
    assert!(
        !said.contains("bill twice"),
        "nothing live was resumed: {said}"
    );

    // The live run stays unsent, alone in the live store.
    let listed = stdout(&vantage(dir, &["track", "list"]));
    let rows: Vec<&str> = listed.lines().filter(|l| l.starts_with("boots ")).collect();
    assert_eq!(rows.len(), 1, "{listed}");
    let unsent: Vec<&str> = rows[0].split_whitespace().collect();
    // SET RUN DAY TIME CALLS DONE FAILED PENDING UNSENT CREDITS
    assert_eq!(unsent[4..9], ["2", "0", "0", "0", "2"], "{listed}");
    // Its trends name no brand in any answer: none came.
    let trends = stdout(&vantage(dir, &["track", "trends", "boots", "--json"]));
    let value: serde_json::Value = serde_json::from_str(&trends).unwrap();
    let overall = &value["trends"]["brands"][0]["overall"];
    assert_eq!(overall.as_array().map(Vec::len), Some(1), "{value}");
    assert_eq!(
        overall[0]["answers"], 0,
        "live trends hold no simulated answer: {value}"
    );

    // The demo's run is in the demo's store, answered.
    let demo_listed = stdout(&vantage(dir, &["--demo", "track", "list"]));
    let demo_rows: Vec<&str> = demo_listed
        .lines()
        .filter(|l| l.starts_with("boots "))
        .collect();
    assert_eq!(demo_rows.len(), 1, "{demo_listed}");

    // Each History is its own.
    let live_history = stdout(&vantage(dir, &["history", "--json"]));
    let demo_history = stdout(&vantage(dir, &["--demo", "history", "--json"]));
    let entries = |text: &str| -> Vec<serde_json::Value> { serde_json::from_str(text).unwrap() };
    let answered = |list: &[serde_json::Value]| list.iter().filter(|e| e["status"] == 200).count();
    assert_eq!(answered(&entries(&live_history)), 0, "{live_history}");
    // The demo's two calls, answered or failed on purpose by the simulator's share (a
    // failed one asked again within the run, twice at most).
    let demo_entries = entries(&demo_history);
    assert!((2..=6).contains(&demo_entries.len()), "{demo_history}");
    assert!(
        demo_entries.iter().all(|e| e["origin"] == "track"),
        "{demo_history}"
    );
    assert!(dir.join("data/demo/vantage.db").is_file());
}
