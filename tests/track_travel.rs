//! `track export` and `track import` move a set's history between stores in constant
//! memory: lines stream out as rows are read and back in batches; a round trip keeps every
//! row, a second import stores nothing twice, and imported answers are in History, its
//! search and discovery like any other.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::{Output, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

mod common;

use common::Service;
use serde_json::Value;
use vantage::sim::SimConfig;
use vantage::store::travel::{self, ExportError};
use vantage::store::{Store, StoreOptions};

const WORKSPACE: &str = "[[brands]]\nname = \"REI\"\ndomains = [\"rei.com\"]\n\n[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\", \"waterproof boots\"]\nmodels = [\"chatgpt\", \"gemini\"]\nterms = [\"hiking boots\"]\n";

fn vantage(dir: &Path, args: &[&str]) -> Output {
    command(dir, args).output().expect("vantage runs")
}

/// `vantage` in `dir` (its workspace), with its store in `dir/data`. These commands call
/// no service; the seed's run is given one.
fn command(dir: &Path, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_vantage"));
    command
        .current_dir(dir)
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("no-config.toml"))
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_TOKEN")
        .args(args)
        .stdin(Stdio::null());
    command
}

fn ok(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A new folder with the workspace.
fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("vantage.toml"), WORKSPACE).unwrap();
    dir
}

/// The export of one real run of the set against the simulator: four AI answers and a
/// results page. Made once for the binary.
fn seed() -> &'static str {
    static SEED: OnceLock<String> = OnceLock::new();
    SEED.get_or_init(|| {
        let service = Service::with(SimConfig {
            job_pending: Duration::from_millis(150),
            ..common::quick()
        });
        let url = service.sim.url();
        let dir = folder();
        let run = command(
            dir.path(),
            &["--render-url", &url, "--search-url", &url, "track", "run"],
        )
        .env("VANTAGE_TOKEN", service.sim.token())
        .args(["boots", "--wait"])
        .output()
        .unwrap();
        ok(&run);
        ok(&vantage(dir.path(), &["track", "export", "boots"]))
    })
}

/// The seed's run copied `copies` times under new ids, a day apart: the lines of an export
/// in the order one is written (runs, jobs, results, calls, readings), after the seed's header.
fn grown(copies: usize) -> String {
    let mut lines = seed().lines();
    let header = lines.next().unwrap();
    let rows: Vec<Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    let uuid = |copy: usize, n: usize| format!("{copy:08x}-0000-4000-8000-{n:012x}");
    let mut number: HashMap<String, usize> = HashMap::new();
    for row in &rows {
        for key in ["id", "job_id", "run_id"] {
            if let Some(id) = row["row"][key].as_str() {
                let next = number.len() + 1;
                number.entry(id.to_string()).or_insert(next);
            }
        }
    }
    const DAY: i64 = 86_400_000;
    let mut text = format!("{header}\n");
    for table in [
        "track_runs",
        "jobs",
        "job_results",
        "track_items",
        "track_readings",
    ] {
        for copy in 0..copies {
            for row in rows.iter().filter(|r| r["table"] == table) {
                let mut row = row.clone();
                let fields = row["row"].as_object_mut().unwrap();
                for (key, value) in fields.iter_mut() {
                    match (key.as_str(), &*value) {
                        ("id" | "job_id" | "run_id", Value::String(id)) => {
                            *value = Value::from(uuid(copy, number[id]));
                        }
                        ("started_at" | "created_at", Value::Number(at)) => {
                            *value = Value::from(at.as_i64().unwrap() - copy as i64 * DAY);
                        }
                        _ => {}
                    }
                }
                text.push_str(&row.to_string());
                text.push('\n');
            }
        }
    }
    text
}

/// The lines of an export but its header (which says when it was made).
fn rows_of(export: &str) -> Vec<&str> {
    export.lines().skip(1).collect()
}

fn import(dir: &Path, text: &str) -> String {
    let file = dir.join("boots.jsonl");
    std::fs::write(&file, text).unwrap();
    let output = vantage(dir, &["track", "import", &file.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn count(dir: &Path, table: &str) -> i64 {
    let conn = rusqlite::Connection::open(dir.join("data").join("vantage.db")).unwrap();
    conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

#[test]
fn an_export_imported_into_a_fresh_store_exports_the_same_rows_and_twice_stores_nothing_twice() {
    let seed = seed();
    assert_eq!(
        rows_of(seed).len(),
        21,
        "a run, 5 jobs, 5 results, 5 calls, their 5 readings"
    );
    let text = grown(3);
    let laptop = folder();
    let said = import(laptop.path(), &text);
    assert!(said.contains("Read 63 rows"), "{said}");
    assert!(said.contains("3 runs new here"), "{said}");
    let again = ok(&vantage(laptop.path(), &["track", "export", "boots"]));
    assert_eq!(
        rows_of(&again),
        rows_of(&text),
        "every row, in the same order"
    );
    assert!(again.starts_with("{\"exported_at\""), "{again}");

    let tables = [
        "track_runs",
        "track_items",
        "jobs",
        "job_results",
        "requests",
    ];
    let before: Vec<i64> = tables.iter().map(|t| count(laptop.path(), t)).collect();
    assert_eq!(before, [3, 15, 15, 15, 15], "each job is a History entry");
    let said = import(laptop.path(), &text);
    assert!(said.contains("0 runs new here"), "{said}");
    let after: Vec<i64> = tables.iter().map(|t| count(laptop.path(), t)).collect();
    assert_eq!(after, before);
    assert_eq!(count(laptop.path(), "responses"), 15);
    let third = ok(&vantage(laptop.path(), &["track", "export", "boots"]));
    assert_eq!(rows_of(&third), rows_of(&text));
}

#[test]
fn imported_answers_are_in_history_its_search_and_discovery() {
    let laptop = folder();
    let dir = laptop.path();
    import(dir, &grown(2));
    let history: Vec<Value> =
        serde_json::from_str(&ok(&vantage(dir, &["history", "--json"]))).unwrap();
    assert_eq!(history.len(), 10, "{history:#?}");
    assert!(
        history
            .iter()
            .all(|e| e["origin"] == "track" && e["status"] == 200)
    );
    let kinds = |kind: &str| history.iter().filter(|e| e["kind"] == kind).count();
    assert_eq!((kinds("ai"), kinds("search")), (8, 2));
    let table = ok(&vantage(dir, &["history"]));
    assert!(table.contains("waterproof boots"), "{table}");

    // The answers' words are found, not only the requests'.
    let stored = Store::open_in(&dir.join("data"), StoreOptions::default()).unwrap();
    let (request, answer) = stored
        .stored_ai_answers(None, 1)
        .unwrap()
        .pop()
        .expect("an AI answer is stored");
    let word = answer_word(&answer, &serde_json::to_string(&request).unwrap());
    let found: Vec<Value> =
        serde_json::from_str(&ok(&vantage(dir, &["history", "search", &word, "--json"]))).unwrap();
    assert!(!found.is_empty(), "{word} found nowhere");
    drop(stored);

    let names: Vec<Value> = serde_json::from_str(&ok(&vantage(
        dir,
        &["brands", "discover", "--brands", "REI", "--json"],
    )))
    .unwrap();
    assert!(!names.is_empty(), "discovery reads the imported answers");
    assert!(names.iter().all(|n| n["answers"].as_u64().unwrap() >= 1));
}

/// A word of the answer's text (as History indexes it: its JSON's strings, but a page's
/// `html`) that its request does not hold.
fn answer_word(body: &str, request: &str) -> String {
    let request = request.to_lowercase();
    let value: Value = serde_json::from_str(body).unwrap();
    let mut texts = Vec::new();
    collect_texts(&value, &mut texts);
    texts
        .iter()
        .flat_map(|t| t.split(|c: char| !c.is_alphanumeric()))
        .find(|w| {
            w.len() >= 7
                && w.chars().all(|c| c.is_ascii_alphabetic())
                && !request.contains(&w.to_lowercase())
        })
        .map(str::to_string)
        .unwrap_or_else(|| panic!("no word in {}", &body[..body.len().min(3000)]))
}

fn collect_texts(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::String(s) => into.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| collect_texts(v, into)),
        Value::Object(fields) => fields
            .iter()
            .filter(|(k, _)| *k != "html")
            .for_each(|(_, v)| collect_texts(v, into)),
        _ => {}
    }
}

/// A writer that notes, at each write it receives, how many rows the store had handed out.
struct Recorder<'a> {
    handed: &'a std::cell::Cell<usize>,
    writes: Vec<(usize, usize)>,
}

impl Write for Recorder<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let lines = bytes.iter().filter(|b| **b == b'\n').count();
        self.writes.push((self.handed.get(), lines));
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A large export (26,250 rows, 5,000 answers) goes in and out through bounded batches and
/// a buffer: the lines reach the output while the rows are still being read, and the round
/// trip keeps them all.
#[test]
fn a_large_export_streams_out_and_back_in_whole() {
    let copies = 1_250;
    let text = grown(copies);
    let laptop = folder();
    let dir = laptop.path();
    let said = import(dir, &text);
    assert!(said.contains("Read 26250 rows"), "{said}");
    assert!(said.contains("1250 runs new here"), "{said}");
    assert_eq!(count(dir, "job_results"), 5 * copies as i64);
    // History keeps its newest 5,000 entries, as it does for runs made here.
    assert_eq!(count(dir, "requests"), 5_000);

    let store = Store::open_in(&dir.join("data"), StoreOptions::default()).unwrap();
    let handed = std::cell::Cell::new(0usize);
    let mut out = std::io::BufWriter::with_capacity(
        1 << 16,
        Recorder {
            handed: &handed,
            writes: Vec::new(),
        },
    );
    let mut exported = Vec::new();
    let tally = store
        .export_set("boots", i64::MIN, "now", |line| {
            handed.set(handed.get() + 1);
            if exported.len() < 3 {
                exported.push(line.to_string());
            }
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")
        })
        .unwrap();
    assert_eq!((tally.runs, tally.rows), (copies, 26_250));
    let recorder = out.into_inner().map_err(|e| e.into_error()).unwrap();
    let (first_at, _) = recorder.writes[0];
    assert!(
        first_at < 1_000,
        "the first lines went out after {first_at} rows"
    );
    let before_the_end: usize = recorder
        .writes
        .iter()
        .filter(|(handed, _)| *handed < 26_251)
        .map(|(_, lines)| lines)
        .sum();
    assert!(
        before_the_end > 20_000,
        "{before_the_end} lines out before the end"
    );
    assert_eq!(
        recorder.writes.iter().map(|(_, l)| l).sum::<usize>(),
        26_251
    );
    assert_eq!(exported[1], rows_of(&text)[0]);

    let out = ok(&vantage(dir, &["track", "export", "boots"]));
    assert!(
        rows_of(&out) == rows_of(&text),
        "the round trip keeps every row"
    );
}

/// An output that fails midway stops the export at once: the store is read no further, and
/// the command says it and exits non-zero.
#[test]
fn an_export_whose_output_fails_stops_and_says_so() {
    let laptop = folder();
    let dir = laptop.path();
    import(dir, &grown(200));
    let store = Store::open_in(&dir.join("data"), StoreOptions::default()).unwrap();
    let mut handed = 0;
    let stopped = store.export_set("boots", i64::MIN, "now", |_| {
        handed += 1;
        match handed {
            100 => Err(std::io::Error::other("disk full")),
            _ => Ok(()),
        }
    });
    match stopped {
        Err(ExportError::Write { written, .. }) => assert_eq!(written, 99),
        other => panic!("{other:?}"),
    }
    assert_eq!(handed, 100);
    drop(store);

    // A reader that goes away after the first line: the rest cannot be written.
    let mut child = command(dir, &["track", "export", "boots"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains(travel::FORMAT), "{first}");
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(vantage::exit::FAILURE),
        "{output:?}"
    );
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("The export is incomplete"), "{said}");
    assert!(said.contains("could not be written"), "{said}");
}

/// A bad line midway is named by its number, and nothing of the file is written: every
/// line is read and checked before the first is kept.
#[test]
fn an_import_with_a_bad_line_writes_nothing_and_names_the_line() {
    let laptop = folder();
    let dir = laptop.path();
    let mut text = grown(300);
    let good = rows_of(&text).len();
    text.push_str("{\"table\":\"requests\",\"row\":{}}\n");
    let file = dir.join("boots.jsonl");
    std::fs::write(&file, &text).unwrap();
    let output = vantage(dir, &["track", "import", &file.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains(&format!("line {}", good + 2)), "{said}");
    assert!(said.contains("Nothing of the file was imported"), "{said}");
    assert_eq!(count(dir, "track_runs"), 0);
    assert_eq!(count(dir, "track_items"), 0);
}

/// The runs `track list --json` shows.
fn listed_runs(dir: &Path) -> Vec<Value> {
    let listed = ok(&vantage(dir, &["track", "list", "--json"]));
    serde_json::from_str(&listed).unwrap()
}

#[test]
fn an_import_cut_short_shows_no_run_half_here_and_the_whole_file_completes_it_truthfully() {
    let text = grown(2);
    let lines: Vec<&str> = text.lines().collect();
    // Cut inside the calls: the runs, jobs and results are all in, some calls are not.
    let first_call = lines
        .iter()
        .position(|l| l.contains("\"track_items\""))
        .unwrap();
    let cut = lines[..first_call + 3].join("\n") + "\n";

    // At a line's end the file reads as whole; in the middle of one, its last line is bad.
    for (cut, code) in [(cut.clone(), 0), (format!("{cut}{{\"table\":\"track_i"), 2)] {
        let laptop = folder();
        let dir = laptop.path();
        let file = dir.join("cut.jsonl");
        std::fs::write(&file, &cut).unwrap();
        let output = vantage(dir, &["track", "import", &file.to_string_lossy()]);
        assert_eq!(output.status.code(), Some(code), "{output:?}");
        let said = String::from_utf8_lossy(&output.stderr);
        if code == 2 {
            // A line cut in its middle is a bad line: nothing of the file is kept.
            assert!(said.contains("Nothing of the file was imported"), "{said}");
            assert_eq!(count(dir, "track_runs"), 0);
            let said = import(dir, &text);
            assert!(said.contains("2 runs new here, 0 completed"), "{said}");
            continue;
        }
        assert!(said.contains("2 runs are only partly here"), "{said}");
        assert_eq!(count(dir, "track_runs"), 2, "the rows read are kept");
        assert_eq!(
            listed_runs(dir),
            Vec::<Value>::new(),
            "no run is shown with calls unsent that are only not here yet"
        );
        let export = vantage(dir, &["track", "export", "boots"]);
        assert_eq!(export.status.code(), Some(2), "nothing whole to export");

        let said = import(dir, &text);
        assert!(
            said.contains("0 runs new here, 2 completed"),
            "the completing import says what it did: {said}"
        );
        assert!(said.contains("0 already here"), "{said}");
        assert!(!said.contains("partly"), "{said}");
        let runs = listed_runs(dir);
        assert_eq!(runs.len(), 2, "{runs:?}");
        for run in &runs {
            assert_eq!(
                (run["planned"].as_u64(), run["unsent"].as_u64()),
                (Some(5), Some(0))
            );
        }
        let said = import(dir, &text);
        assert!(
            said.contains("0 runs new here, 0 completed") && said.contains("2 already here"),
            "{said}"
        );
    }
}
