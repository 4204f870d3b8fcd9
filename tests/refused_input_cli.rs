//! Input refused where it is written: `track set new|add` checks every prompt, term,
//! device, place, brand and the samples as a run would, before writing, names the flag,
//! quotes no pasted essay whole, and leaves the workspace file's bytes as they were.

use std::path::Path;
use std::process::Command;

const FILE: &str = "# Boots we follow.\n[[brands]]\nname = \"Lowa\"\n\n[[sets]]\nname = \"boots\"\nprompts = [\"best boots\"]\n";

fn vantage(home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_vantage"))
        .current_dir(home)
        .env("VANTAGE_DATA_DIR", home.join("data"))
        .env("VANTAGE_CONFIG", home.join("none.toml"))
        .env_remove("VANTAGE_TOKEN")
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_WORKSPACE")
        .args(args)
        .output()
        .expect("vantage runs")
}

/// Runs `track set …` over the workspace file and checks it was refused with `expected`
/// (exit 2), the file untouched and nothing longer than a line quoted back.
fn refused(args: &[&str], expected: &str) {
    let home = tempfile::tempdir().expect("temp dir");
    let file = home.path().join("vantage.toml");
    std::fs::write(&file, FILE).expect("workspace");
    let mut all = vec!["track", "set"];
    all.extend_from_slice(args);
    let output = vantage(home.path(), &all);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains("Nothing was written"), "{stderr}");
    assert!(stderr.contains(expected), "{expected:?} in {stderr}");
    assert!(
        stderr.chars().count() < 600,
        "a long input is not echoed whole: {} characters",
        stderr.chars().count()
    );
    assert!(
        !stderr.contains("line "),
        "no line of a file is named: {stderr}"
    );
    assert_eq!(
        std::fs::read(&file).expect("still there"),
        FILE.as_bytes(),
        "{args:?}: the file's bytes are unchanged"
    );
    assert!(
        !home.path().join("vantage.toml.saving").exists(),
        "no temporary file is left"
    );
}

#[test]
fn each_refused_input_names_its_flag_and_writes_nothing() {
    let long_prompt = "x".repeat(3000);
    let long_terms = "t".repeat(300);
    let long_device = "d".repeat(150);
    let long_city = format!("de::{}", "c".repeat(150));
    let long_place = format!("{}::Berlin", "z".repeat(3000));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "new",
                "hikes",
                "--prompt",
                "a",
                "--prompt",
                "b",
                "--prompt",
                &long_prompt,
            ],
            "--prompt 3 is 3000 characters; the service takes at most 2047.",
        ),
        (
            vec!["add", "boots", "--prompt", &long_prompt],
            "--prompt is 3000 characters",
        ),
        (vec!["new", "hikes", "--prompt", " "], "--prompt is empty"),
        (
            vec!["add", "boots", "--term", "boots", "--term", &long_terms],
            "the terms of --term 2 are 300 characters",
        ),
        (
            vec!["add", "boots", "--devices", &long_device],
            "--devices is 150 characters",
        ),
        (
            vec!["add", "boots", "--locations", &long_city],
            "--locations is refused: city",
        ),
        (
            vec!["add", "boots", "--locations", "de::Berlin,xx::Paris"],
            "--locations 2: location \"xx::Paris\"",
        ),
        (
            vec!["add", "boots", "--locations", &long_place],
            "--locations:",
        ),
        (
            vec!["add", "boots", "--brands", "Lowa,Keen"],
            "--brands 2 names \"Keen\", which is not one of the tracked brands (Lowa)",
        ),
        (
            vec!["new", "hikes", "--prompt", "a", "--brands", "Keen"],
            "--brands names \"Keen\"",
        ),
        (vec!["add", "boots", "--samples", "50"], "--samples"),
    ];
    for (args, expected) in cases {
        refused(&args, expected);
    }
}

#[test]
fn what_passes_the_checks_is_written() {
    let home = tempfile::tempdir().expect("temp dir");
    let file = home.path().join("vantage.toml");
    std::fs::write(&file, FILE).expect("workspace");
    let output = vantage(
        home.path(),
        &[
            "track",
            "set",
            "add",
            "boots",
            "--prompt",
            &"y".repeat(2047),
            "--brands",
            "lowa",
            "--locations",
            "de:Bavaria:Munich",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = std::fs::read_to_string(&file).expect("written");
    assert!(text.starts_with("# Boots we follow."), "{text}");
    assert!(
        text.contains("brands = [\"Lowa\"]"),
        "written as the file spells it: {text}"
    );
    assert!(text.contains("\"DE:BY:Munich\""), "{text}");
}

#[test]
fn a_brands_flag_error_names_the_flag_not_a_line_of_a_file() {
    let home = tempfile::tempdir().expect("temp dir");
    std::fs::write(home.path().join("vantage.toml"), FILE).expect("workspace");
    for command in ["ai", "compare"] {
        let output = vantage(
            home.path(),
            &[command, "hi", "--brands", "Lowa=lowa.com+lowa"],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr.contains("--brands: the brand Lowa: \"lowa\" is not a domain"),
            "{command}: {stderr}"
        );
        assert!(!stderr.contains("line "), "{command}: {stderr}");
    }
}
