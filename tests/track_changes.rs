//! One reading of a change, run as a user would against the simulator: the sentence over a
//! run's changes is read from the lines under it and never says "nothing changed" while a
//! count, a share or a rank it lists moved; a rank alert names the rank it compares; the
//! report's rows carry each brand's stance.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

mod common;

use common::Service;
use vantage::sim::{SimConfig, Simulator};

fn service() -> Service {
    Service::with(SimConfig {
        job_pending: Duration::from_millis(200),
        ..common::quick()
    })
}

fn track(dir: &Path, sim: &Simulator, args: &[&str]) -> Output {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_vantage"))
        .current_dir(dir)
        .env("VANTAGE_TOKEN", sim.token())
        .env_remove("MASSIVE_TOKEN")
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("no-config.toml"))
        .args(["--render-url", &sim.url(), "--search-url", &sim.url()])
        .arg("track")
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap()
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The lines of the section that begins with `title`, each trimmed.
fn section<'a>(text: &'a str, title: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| !l.starts_with(title))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect()
}

const SAMPLED: &str = r#"[[brands]]
name = "Merrell"

[[brands]]
name = "Salomon"

[[brands]]
name = "Keen"

[[brands]]
name = "REI"

[[sets]]
name = "boots"
prompts = ["best hiking boots"]
models = ["chatgpt", "gemini"]
locations = ["us", "de::Berlin"]
samples = 4
"#;

/// Two runs of a set asked four times at each of its four vantage points (16 answers): the brands' counts move between them
/// without any vantage point's change being a clear one, so no mention is gained or lost.
/// The headline said "nothing changed" over lines that moved; it now names what moved, from
/// the same numbers as the lines, and says nothing changed only where none did.
#[test]
fn counts_that_move_between_two_runs_are_never_read_as_nothing_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), SAMPLED).unwrap();
    let service = service();
    for _ in 0..2 {
        let run = track(dir, &service.sim, &["run", "boots", "--wait"]);
        assert_eq!(run.status.code(), Some(0), "{run:?}");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&track(dir, &service.sim, &["trends", "boots", "--json"]).stdout)
            .unwrap();
    // The brands whose numbers moved, read from the trends themselves.
    let mut moved = Vec::new();
    for brand in json["trends"]["brands"].as_array().unwrap() {
        let stats = brand["overall"].as_array().unwrap();
        let numbers = |s: &serde_json::Value| {
            (
                s["named"].clone(),
                s["answers"].clone(),
                s["recommended"].clone(),
                format!("{:.0}", s["share_of_voice"].as_f64().unwrap()),
            )
        };
        if numbers(&stats[0]) != numbers(&stats[1]) {
            moved.push(brand["brand"].as_str().unwrap().to_string());
        }
    }
    assert!(
        !moved.is_empty(),
        "the simulator's samples differ from one run to the next: {json:#}"
    );
    let trends = text(&track(dir, &service.sim, &["trends", "boots"]));
    let changes = section(&trends, "CHANGES IN THE LAST RUN");
    let headline = changes[0];
    assert!(
        headline.contains("the 16 cells both runs answered"),
        "{trends}"
    );
    assert!(!trends.contains("nothing changed"), "{trends}");
    // Each brand that moved is read: a line of its own when McNemar's test calls it a
    // change, else named in the one line that folds the moves within chance.
    let folded = changes
        .iter()
        .find(|l| l.contains("no clear difference in 16 paired cells"));
    let mut clear = 0;
    for brand in &moved {
        match changes
            .iter()
            .find(|l| l.starts_with(&format!("{brand}: named in ")))
        {
            Some(line) => {
                clear += 1;
                assert!(
                    line.contains(" of 16 (") && line.contains("different (p"),
                    "{line}"
                );
            }
            None => assert!(
                folded.is_some_and(|f| f.contains(brand.as_str())),
                "{brand} folded: {changes:#?}"
            ),
        }
    }
    if clear < moved.len() {
        assert!(headline.contains("within chance"), "{headline}");
    }
    // Share of voice and recommended share per brand and run, beside visibility.
    assert_eq!(section(&trends, "SHARE OF VOICE: % OF MENTIONS").len(), 4);
    assert_eq!(section(&trends, "RECOMMENDED: % OF ANSWERS").len(), 4);

    // The report's rows say what each answer says of each brand.
    let csv = text(&track(
        dir,
        &service.sim,
        &["report", "boots", "--format", "csv"],
    ));
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (named, stance) = (at("named"), at("stance"));
    assert_eq!(stance, at("cited") + 1, "{header:?}");
    let mut stances = std::collections::BTreeSet::new();
    for row in reader.records() {
        let row = row.unwrap();
        match &row[named] {
            "true" => assert!(
                ["recommended", "listed", "cautioned"].contains(&&row[stance]),
                "{row:?}"
            ),
            _ => assert!(["", "not found"].contains(&&row[stance]), "{row:?}"),
        }
        stances.insert(row[stance].to_string());
    }
    assert!(stances.len() > 1, "{stances:?}");
    let jsonl = text(&track(
        dir,
        &service.sim,
        &["report", "boots", "--format", "jsonl"],
    ));
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert!(first.get("stance").is_some(), "{first}");
    // A recommended pick says which item of its list it is.
    let ranked = jsonl
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|row| row["stance"] == "recommended")
        .filter(|row| row["rank"].as_u64().is_some_and(|r| r >= 1))
        .count();
    assert!(ranked > 0, "{jsonl}");

    // For a script: every answer of both runs as vantage reads it, one JSON array.
    let readings: serde_json::Value = serde_json::from_slice(
        &track(dir, &service.sim, &["report", "boots", "--format", "json"]).stdout,
    )
    .unwrap();
    let readings = readings.as_array().unwrap();
    assert!(
        readings.len() >= 30,
        "both runs' answers: {}",
        readings.len()
    );
    for answer in readings {
        let reading = &answer["reading"];
        assert!(answer["run"].as_str().is_some_and(|r| !r.is_empty()));
        assert!(reading["text"].as_str().is_some_and(|t| !t.contains('<')));
        assert!(
            reading["sources"]
                .as_array()
                .is_some_and(|s| s.iter().all(|s| s["url"].is_string()))
        );
        assert_eq!(
            reading["mentions"].as_array().map(Vec::len),
            Some(4),
            "{reading}"
        );
    }

    // The Markdown report heads the same lines with the same sentence.
    let report = dir.join("r.md");
    let written = track(
        dir,
        &service.sim,
        &[
            "report",
            "boots",
            "--format",
            "md",
            "-o",
            &report.to_string_lossy(),
        ],
    );
    assert_eq!(written.status.code(), Some(0), "{written:?}");
    let markdown = std::fs::read_to_string(&report).unwrap();
    assert!(markdown.contains(&format!("- {headline}\n")), "{markdown}");
}

/// A domain first in one place and lower in another: its best rank is 1 and its mean is
/// more. `track trends` prints both; an alert on the best rank above 1 stays quiet beside it
/// while one on the mean fires, and each sentence names the rank it compares.
#[test]
fn a_rank_alert_names_the_rank_it_compares_and_trends_print_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("vantage.toml"),
        r#"[[sets]]
name = "boots"
terms = ["hiking boots"]
locations = ["us", "de::Berlin"]

[[sets.alerts]]
domain = "rei.com"
measure = "rank"
above = 1

[[sets.alerts]]
domain = "rei.com"
measure = "mean_rank"
above = 1
"#,
    )
    .unwrap();
    let service = service();
    let run = track(dir, &service.sim, &["run", "boots", "--wait"]);
    let fired = text(&run);
    assert_eq!(run.status.code(), Some(vantage::exit::ALERTS), "{run:?}");
    let json: serde_json::Value =
        serde_json::from_slice(&track(dir, &service.sim, &["trends", "boots", "--json"]).stdout)
            .unwrap();
    let rei = json["trends"]["ranks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["domain"] == "rei.com")
        .unwrap_or_else(|| panic!("rei.com ranks: {json:#}"));
    let (best, mean) = (
        rei["best"][0].as_u64().unwrap(),
        rei["mean"][0].as_f64().unwrap(),
    );
    assert_eq!(best, 1, "{rei}");
    assert!(mean > 1.0, "{rei}");
    // The best rank is 1: not above 1. The mean is, and the line says it is the mean.
    assert!(!fired.contains("best rank"), "{fired}");
    assert!(
        fired.contains(&format!(
            "boots: rei.com's mean rank is {mean:.1}, above 1 in run "
        )),
        "{fired}"
    );
    let trends = text(&track(dir, &service.sim, &["trends", "boots"]));
    let ranks = section(&trends, "BEST · MEAN RANK FOR \"hiking boots\"");
    let line = ranks
        .iter()
        .find(|l| l.starts_with("rei.com "))
        .unwrap_or_else(|| panic!("{trends}"));
    assert!(line.ends_with(&format!(" 1 · {mean:.1}")), "{line}");
    // `track check --json` carries the measure by name.
    let check = track(dir, &service.sim, &["check", "boots", "--json"]);
    let alerts: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert!(
        alerts.to_string().contains("\"measure\":\"mean_rank\""),
        "{alerts}"
    );
}
