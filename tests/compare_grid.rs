//! A grid larger than is asked at once goes through the queue: its cost said first, a
//! ceiling that asks for --yes, every column's job kept the moment its id arrives, and a run
//! killed halfway finished by `compare --resume` with no column asked twice.

mod common;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use common::Service;

const GRID: [&str; 8] = [
    "--models",
    "chatgpt,gemini,perplexity,copilot",
    "--locations",
    "us:co:Denver,de::Berlin,gb::London",
    "--devices",
    "desktop,iPhone 15",
    "--brands",
    "Merrell,Salomon,Keen",
];

fn grid_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["compare", "best hiking boots"];
    args.extend(GRID);
    args.extend(extra);
    args
}

/// The rows of `grid_columns` in the store of `dir`, and the comparison they belong to.
fn queued(dir: &std::path::Path) -> (usize, Option<String>) {
    let path = dir.join("data").join(vantage::store::DB_FILE);
    let Ok(conn) =
        rusqlite::Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return (0, None);
    };
    let count: usize = conn
        .query_row("SELECT COUNT(*) FROM grid_columns", [], |r| r.get(0))
        .unwrap_or(0);
    let entry: Option<String> = conn
        .query_row("SELECT entry_id FROM grid_columns LIMIT 1", [], |r| {
            r.get(0)
        })
        .ok();
    (count, entry)
}

#[test]
fn a_24_column_grid_goes_through_the_queue_and_a_killed_run_resumes_with_nothing_asked_twice() {
    let service = Service::with(common::quick());
    let sim = &service.sim;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();

    // Over the ceiling: the cost is said, and nothing is sent without --yes.
    std::fs::write(dir.join("no-config.toml"), "confirm_above = 50\n").unwrap();
    let refused = common::cli::on_sim(dir, sim, &grid_args(&[]));
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let said = String::from_utf8_lossy(&refused.stderr).into_owned();
    assert!(
        said.contains("24 answers × 5 = 120 credits") && said.contains("--yes"),
        "{said}"
    );
    assert!(sim.submitted_queries().is_empty());

    // Killed once twelve columns are queued (the thirteenth submission is held).
    sim.hold_submissions_after(12);
    let mut child = common::cli::command_on_sim(dir, sim, &grid_args(&["--yes"]))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while queued(dir).0 < 12 {
        assert!(
            Instant::now() < deadline,
            "twelve columns were never queued"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    sim.release_submissions();
    let (held, entry) = queued(dir);
    assert_eq!(held, 12);
    let entry = entry.unwrap();
    assert_eq!(sim.submitted_queries().len(), 12);

    let resumed = common::cli::on_sim(dir, sim, &["compare", "--resume", &entry[..8], "--yes"]);
    assert_eq!(resumed.status.code(), Some(0), "{resumed:?}");
    let text = common::cli::stdout(&resumed);
    for label in [
        "ChatGPT · desktop · US/CO/Denver",
        "Copilot · iPhone 15 · GB/–/London",
        "Perplexity · desktop · DE/–/Berlin",
    ] {
        assert!(text.contains(label), "{label}:\n{text}");
    }
    let said = String::from_utf8_lossy(&resumed.stderr).into_owned();
    assert!(said.contains("12 columns still to ask"), "{said}");

    // Every column asked exactly once, over both processes.
    let asked = sim.submitted_queries();
    assert_eq!(asked.len(), 24, "{asked:?}");
    let distinct: HashSet<Vec<(String, String)>> = asked.into_iter().collect();
    assert_eq!(distinct.len(), 24);
    assert_eq!(queued(dir).0, 24);

    // Resumed again, the whole comparison is read from the store: nothing is asked.
    let again = common::cli::on_sim(dir, sim, &["compare", "--resume", &entry]);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    assert_eq!(sim.submitted_queries().len(), 24);
    assert!(common::cli::stdout(&again).contains("Copilot · iPhone 15 · GB/–/London"));
}

#[test]
fn a_stored_comparison_is_exported_again_as_a_tidy_table_with_no_call() {
    let service = Service::with(common::quick());
    let sim = &service.sim;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let asked = common::cli::on_sim(dir, sim, &grid_args(&["--queue"]));
    assert_eq!(asked.status.code(), Some(0), "{asked:?}");
    let (_, entry) = queued(dir);
    let entry = entry.unwrap();
    let calls = sim.requests_received();

    let brands = ["--brands", "Merrell,Salomon,Keen"];
    let mut args = vec!["history", "show", &entry[..8], "--csv"];
    args.extend(brands);
    let tidy = common::cli::on_sim(dir, sim, &args);
    assert_eq!(tidy.status.code(), Some(0), "{tidy:?}");
    let mut reader = csv::Reader::from_reader(tidy.stdout.as_slice());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, vantage::present::compare::tidy::BRAND_FIELDS);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    // One row per column and brand: 24 × 3.
    assert_eq!(rows.len(), 72);
    let field = |row: &csv::StringRecord, name: &str| {
        let i = header.iter().position(|h| h == name).unwrap();
        row.get(i).unwrap().to_string()
    };
    let phone_denver: Vec<&csv::StringRecord> = rows
        .iter()
        .filter(|r| {
            field(r, "model") == "copilot"
                && field(r, "device") == "iPhone 15"
                && field(r, "city") == "Denver"
        })
        .collect();
    assert_eq!(phone_denver.len(), 3);
    for row in &rows {
        let named = field(row, "named");
        assert!(named == "true" || named == "false");
        // A brand not named has no position and no stance.
        assert_eq!(named == "true", !field(row, "position").is_empty());
        assert_eq!(named == "true", !field(row, "stance").is_empty());
    }
    assert!(rows.iter().any(|r| field(r, "device") == "desktop"));

    let sources = common::cli::on_sim(dir, sim, &["history", "show", &entry, "--csv", "sources"]);
    assert_eq!(sources.status.code(), Some(0), "{sources:?}");
    let text = common::cli::stdout(&sources);
    assert!(text.starts_with("model,device,country,subdivision,city,sample,source,domain,url"));
    assert!(text.lines().count() > 24);

    let mut md = vec!["history", "show", &entry, "--md"];
    md.extend(brands);
    let markdown = common::cli::on_sim(dir, sim, &md);
    assert_eq!(markdown.status.code(), Some(0), "{markdown:?}");
    assert!(common::cli::stdout(&markdown).starts_with("# Comparison"));
    // Nothing was asked of the service to export it.
    assert_eq!(sim.requests_received(), calls);
}
