//! Imports written by someone hostile (part 29): rows added to the user's own run, poisoned
//! ids and times, runs dated in the future, rows of runs that are nowhere. Each is refused
//! with its line before anything is written; a run that came from an import never sends.

use std::path::Path;

#[path = "common/cli.rs"]
mod cli;
use cli::vantage;

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const HEADER: &str = r#"{"format":"vantage-track-export","version":2,"set":"boots","exported_at":"2026-11-01T00:00:00Z"}"#;
const STRANGER_RUN: &str = "5a7e3c9f-1b20-4c1e-9d2b-0b6f1c2e8f4a";

/// A folder with the set `boots` (one Gemini prompt) and one finished demo run of it; the
/// run's id.
fn with_a_finished_run(dir: &Path) -> String {
    let made = vantage(
        dir,
        &[
            "track",
            "set",
            "new",
            "boots",
            "--prompt",
            "best hiking boots",
            "--models",
            "gemini",
        ],
    );
    assert!(made.status.success(), "{}", stderr(&made));
    let ran = vantage(dir, &["--demo", "track", "run", "boots", "--wait", "--yes"]);
    let out = String::from_utf8_lossy(&ran.stdout).into_owned();
    out.lines().next().unwrap_or_default().trim().to_string()
}

fn call_row(run: &str, seq: u32, prompt: &str) -> String {
    serde_json::json!({"table": "track_items", "row": {
        "run_id": run, "seq": seq, "kind": "ai",
        "request": serde_json::json!({"prompt": prompt, "model": "copilot"}).to_string(),
        "job_id": null, "sends": 0, "refused": null, "last_error": null,
    }})
    .to_string()
}

fn run_row(id: &str, started_at: serde_json::Value, planned: u32) -> String {
    serde_json::json!({"table": "track_runs", "row": {
        "id": id, "set_name": "boots", "started_at": started_at, "planned": planned,
    }})
    .to_string()
}

fn import(dir: &Path, lines: &[String]) -> std::process::Output {
    let file = dir.join("export.jsonl");
    std::fs::write(&file, format!("{HEADER}\n{}\n", lines.join("\n"))).unwrap();
    vantage(dir, &["--demo", "track", "import", "export.jsonl"])
}

fn runs_listed(dir: &Path) -> String {
    let listed = vantage(dir, &["--demo", "track", "list"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    String::from_utf8_lossy(&listed.stdout).into_owned()
}

#[test]
fn an_import_that_adds_calls_to_the_user_s_own_finished_run_is_refused_and_nothing_is_sent() {
    let dir = tempfile::tempdir().unwrap();
    let own = with_a_finished_run(dir.path());
    assert_eq!(own.len(), 36, "{own}");
    let before = runs_listed(dir.path());
    let planted: Vec<String> = (1..=20)
        .map(|seq| call_row(&own, seq, &format!("planted prompt {seq}")))
        .collect();
    let imported = import(dir.path(), &planted);
    let said = stderr(&imported);
    assert_eq!(imported.status.code(), Some(2), "{said}");
    assert!(
        said.contains("line 2") && said.contains("cannot add calls") && said.contains("Nothing"),
        "{said}"
    );
    assert_eq!(runs_listed(dir.path()), before, "nothing was written");
    // The next routine run is a run of the set's own call, not the file's twenty.
    let next = vantage(
        dir.path(),
        &["--demo", "track", "run", "boots", "--wait", "--yes"],
    );
    let said = stderr(&next);
    assert!(!said.contains("Going on"), "{said}");
    assert!(
        !said.contains("20 calls") && !said.contains("21 calls"),
        "{said}"
    );
}

#[test]
fn a_run_brought_in_by_an_import_is_never_resumed_and_its_calls_never_sent() {
    let dir = tempfile::tempdir().unwrap();
    with_a_finished_run(dir.path());
    // A stranger's run, made later than the user's, with twenty calls never sent.
    let now = jiff::Timestamp::now().as_millisecond();
    let mut lines = vec![run_row(STRANGER_RUN, now.into(), 20)];
    lines.extend((0..20).map(|seq| call_row(STRANGER_RUN, seq, &format!("planted {seq}"))));
    let imported = import(dir.path(), &lines);
    assert!(imported.status.success(), "{}", stderr(&imported));
    let next = vantage(
        dir.path(),
        &["--demo", "track", "run", "boots", "--wait", "--yes"],
    );
    let said = stderr(&next);
    assert!(!said.contains("Going on"), "{said}");
    assert!(
        said.contains("1 call"),
        "a run of the set's one call: {said}"
    );
}

#[test]
fn poisoned_rows_are_refused_by_line_and_leave_every_list_working() {
    let dir = tempfile::tempdir().unwrap();
    with_a_finished_run(dir.path());
    let job = serde_json::json!({"table": "jobs", "row": {
        "id": "../../etc/passwd", "kind": "ai", "request": null, "summary": "x",
        "state": "pending", "known": 1, "created_at": 1_780_000_000_000i64, "attempts": 0,
    }})
    .to_string();
    let cases = [
        (vec![job], "jobs.id", "line 2"),
        (
            vec![run_row(STRANGER_RUN, "yesterday".into(), 1)],
            "not a time",
            "line 2",
        ),
        (
            vec![
                run_row(STRANGER_RUN, 1_780_000_000_000i64.into(), 1),
                run_row(
                    "6b7e3c9f-1b20-4c1e-9d2b-0b6f1c2e8f4a",
                    253_370_764_800_000i64.into(),
                    1,
                ),
            ],
            "9999",
            "line 3",
        ),
        (
            vec![call_row("7c7e3c9f-1b20-4c1e-9d2b-0b6f1c2e8f4a", 0, "x")],
            "neither in the file",
            "line 2",
        ),
    ];
    let before = runs_listed(dir.path());
    for (lines, problem, line) in cases {
        let imported = import(dir.path(), &lines);
        let said = stderr(&imported);
        assert_eq!(imported.status.code(), Some(2), "{said}");
        assert!(
            said.contains(problem) && said.contains(line),
            "{problem}: {said}"
        );
        assert!(said.contains("Nothing of the file was imported"), "{said}");
    }
    assert_eq!(runs_listed(dir.path()), before);
    let jobs = vantage(dir.path(), &["--demo", "jobs"]);
    assert!(jobs.status.success(), "{}", stderr(&jobs));
}

#[test]
fn an_import_from_a_pipe_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let imported = vantage(dir.path(), &["--demo", "track", "import", "/dev/zero"]);
    let said = stderr(&imported);
    assert_eq!(imported.status.code(), Some(2), "{said}");
    assert!(said.contains("not a regular file"), "{said}");
}

/// The demo store's file under `dir`.
fn demo_db(dir: &Path) -> std::path::PathBuf {
    vantage::config::demo_data_dir(&dir.join("data")).join(vantage::store::DB_FILE)
}

#[test]
fn store_check_names_rows_an_older_import_left_poisoned_and_recover_leaves_them_out() {
    let dir = tempfile::tempdir().unwrap();
    with_a_finished_run(dir.path());
    // What an import without checks let in: rows SQLite takes but no reader can.
    let db = rusqlite::Connection::open(demo_db(dir.path())).unwrap();
    db.execute_batch(&format!(
        "INSERT INTO jobs (id, kind, summary, state, known, created_at, attempts)
             VALUES ('../../etc/passwd', 'ai', 'x', 'pending', 1, 1780000000000, 0);
         INSERT INTO track_runs (id, set_name, started_at, planned)
             VALUES ('{STRANGER_RUN}', 'boots', 'yesterday', 0);"
    ))
    .unwrap();
    drop(db);
    let checked = vantage(dir.path(), &["--demo", "store", "check"]);
    let said = String::from_utf8_lossy(&checked.stdout).into_owned();
    assert_eq!(checked.status.code(), Some(6), "{said}{}", stderr(&checked));
    assert!(said.contains("2 rows that cannot be read"), "{said}");
    assert!(
        said.contains("job ../../etc/passwd") && said.contains("jobs.id"),
        "{said}"
    );
    assert!(
        said.contains(STRANGER_RUN) && said.contains("started_at"),
        "{said}"
    );

    let recovered = vantage(dir.path(), &["--demo", "store", "recover"]);
    let said = String::from_utf8_lossy(&recovered.stdout).into_owned();
    assert!(recovered.status.success(), "{said}{}", stderr(&recovered));
    assert!(
        said.contains("Left out") && said.contains("2 rows"),
        "{said}"
    );
    let checked = vantage(dir.path(), &["--demo", "store", "check"]);
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
    for args in [&["--demo", "jobs"][..], &["--demo", "track", "list"]] {
        let listed = vantage(dir.path(), args);
        assert!(listed.status.success(), "{args:?}: {}", stderr(&listed));
    }
}

#[test]
fn recover_refuses_while_another_process_holds_the_store_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    with_a_finished_run(dir.path());
    // A live process of the store: one waiting on a job that takes its time.
    let mut holder = std::process::Command::new(env!("CARGO_BIN_EXE_vantage"))
        .current_dir(dir.path())
        .env("VANTAGE_DATA_DIR", dir.path().join("data"))
        .env("VANTAGE_CONFIG", dir.path().join("none.toml"))
        .env_remove("VANTAGE_TOKEN")
        .args(["--demo", "ai", "best hiking boots", "--model", "copilot"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let sessions = demo_db(dir.path()).with_file_name("sessions");
    let started = std::time::Instant::now();
    while std::fs::read_dir(&sessions).map_or(0, |d| d.count()) == 0 {
        assert!(
            started.elapsed().as_secs() < 20,
            "the holder never opened the store"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let refused = vantage(dir.path(), &["--demo", "store", "recover"]);
    let _ = holder.kill();
    let _ = holder.wait();
    let said = stderr(&refused);
    assert_eq!(refused.status.code(), Some(6), "{said}");
    assert!(
        said.contains("is in use by process") && said.contains("ai"),
        "{said}"
    );
}
