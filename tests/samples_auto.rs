//! Samples spent where they tell, run as a user would: a set with `samples = "auto"` says its
//! cost as a range, refuses to run without --wait, then asks every cell 3 times and more
//! where the answers split, and says what it spent against asking every cell the most;
//! `compare --samples auto` on the demo prints each column's samples and the roll-up by
//! model and by place.

use std::path::Path;
use std::process::Output;

mod common;

use common::Service;
use vantage::sim::Simulator;

fn track(dir: &Path, sim: &Simulator, args: &[&str]) -> Output {
    common::cli::on_sim(dir, sim, &[&["track"], args].concat())
}

const WORKSPACE: &str = r#"[[brands]]
name = "Salomon"

[[brands]]
name = "Merrell"

[[brands]]
name = "Keen"

[[brands]]
name = "Lowa"

[[sets]]
name = "auto"
prompts = ["best hiking boots", "waterproof hiking boots"]
models = ["chatgpt", "gemini"]
locations = ["us", "de"]
samples = "auto"
"#;

#[test]
fn a_set_with_samples_auto_spends_rounds_where_the_answers_split() {
    let service = Service::with(common::quick());
    let sim = &service.sim;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), WORKSPACE).unwrap();

    let dry = track(dir, sim, &["run", "auto", "--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{dry:?}");
    let said = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(said.contains("24 calls"), "{said}");
    assert!(said.contains("at fewest to 80 calls"), "{said}");

    let unwaited = track(dir, sim, &["run", "auto"]);
    assert_eq!(unwaited.status.code(), Some(2), "{unwaited:?}");
    assert!(String::from_utf8_lossy(&unwaited.stderr).contains("--wait"));

    let run = track(dir, sim, &["run", "auto", "--wait"]);
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("Samples spent where they told"), "{stderr}");
    assert!(stderr.contains("against 80 ("), "{stderr}");
    let list = track(dir, sim, &["list", "--json"]);
    let runs: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let planned = runs[0]["planned"].as_u64().unwrap();
    assert!((24..=80).contains(&planned), "{planned}");
    assert_eq!(runs[0]["done"].as_u64().unwrap(), planned, "{runs}");
    // The figures read every answer the rounds asked.
    let trends = track(dir, sim, &["trends", "auto", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&trends.stdout).unwrap();
    assert_eq!(
        json["trends"]["brands"][0]["overall"][0]["answers"].as_u64(),
        Some(planned)
    );
}

#[test]
fn compare_with_samples_auto_prints_each_columns_samples_and_the_roll_up() {
    let tmp = tempfile::tempdir().unwrap();
    let out = common::cli::vantage(
        tmp.path(),
        &[
            "--demo",
            "compare",
            "best hiking boots",
            "--models",
            "chatgpt,gemini",
            "--locations",
            "us,de",
            "--samples",
            "auto",
        ],
    );
    let text = common::cli::stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(text.contains("SAMPLES PER COLUMN"), "{text}");
    let section: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("SAMPLES PER COLUMN"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect();
    for column in ["ChatGPT · US", "ChatGPT · DE", "Gemini · US", "Gemini · DE"] {
        let line = section
            .iter()
            .find(|l| l.trim_start().starts_with(column))
            .unwrap_or_else(|| panic!("{column}: {text}"));
        assert!(line.contains("answers"), "{line}");
    }
    assert!(text.contains("asking every column 10 times"), "{text}");
    assert!(text.contains("ROLL-UP"), "{text}");
    for pool in ["by ChatGPT", "by Gemini", "at US", "at DE"] {
        assert!(text.contains(pool), "{pool}: {text}");
    }
    assert!(text.contains("recommended"), "{text}");
}
