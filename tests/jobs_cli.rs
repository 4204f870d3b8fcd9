//! `vantage jobs` as a script sees it: the list, its JSON, and `watch` with nothing to do
//! or no service to reach.

use std::path::Path;
use std::process::Command;

use vantage::api::{AiRequest, JobId, JobKind};
use vantage::store::{NewJob, RequestParams, Store, StoreOptions};

fn vantage(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vantage"));
    command
        .env("VANTAGE_TOKEN", "cli-test-token")
        .env_remove("MASSIVE_TOKEN")
        .env("VANTAGE_DATA_DIR", dir)
        .env("VANTAGE_CONFIG", dir.join("no-config.toml"));
    command
}

fn id(n: u32) -> JobId {
    JobId::parse(&format!("{n:08}-0000-4000-8000-000000000000")).unwrap()
}

fn seed(dir: &Path) {
    let store = Store::open_in(dir, StoreOptions::default()).unwrap();
    store
        .record_job(NewJob::submitted(
            id(1),
            RequestParams::Ai(AiRequest::new("older prompt")),
        ))
        .wait()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    store
        .record_job(NewJob::imported(id(2), JobKind::Browser))
        .wait()
        .unwrap();
}

/// The address of a port nothing listens on: one is bound, then let go.
fn nothing_listens() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!("http://127.0.0.1:{port}")
}

#[test]
fn list_prints_jobs_newest_first_as_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let empty = vantage(dir.path()).args(["jobs"]).output().unwrap();
    assert!(empty.status.success());
    assert!(String::from_utf8_lossy(&empty.stderr).contains("No jobs stored"));

    seed(dir.path());
    let output = vantage(dir.path()).args(["jobs"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("KIND"));
    assert!(lines[1].starts_with("browser 00000002 pending"), "{text}");
    assert!(lines[2].starts_with("ai      00000001 pending"), "{text}");
    assert!(lines[2].contains("chatgpt · older prompt"), "{text}");
    assert!(lines[1].contains("(imported)"), "{text}");

    let output = vantage(dir.path())
        .args(["jobs", "list", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let jobs: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(jobs[0]["id"], id(2).as_str());
    assert_eq!(jobs[0]["kind"], "browser");
    assert_eq!(jobs[0]["state"], "pending");
    assert_eq!(jobs[1]["request"]["ai"]["prompt"], "older prompt");
    assert_eq!(jobs[1]["attempts"], 0);
}

#[test]
fn watch_exits_5_when_the_service_cannot_be_reached() {
    let dir = tempfile::tempdir().unwrap();
    let nothing = vantage(dir.path())
        .args(["jobs", "watch"])
        .output()
        .unwrap();
    assert!(nothing.status.success());
    assert!(String::from_utf8_lossy(&nothing.stderr).contains("No pending jobs"));

    seed(dir.path());
    let url = nothing_listens();
    let output = vantage(dir.path())
        .args(["--render-url", &url, "--search-url", &url, "jobs", "watch"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(5), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("could not be reached"));
    // The jobs are still there, in error, for a later run.
    let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
    let jobs = store.list_jobs().unwrap();
    assert_eq!(jobs.len(), 2);
    assert!(jobs.iter().any(|j| j.last_error.is_some()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_stops_cleanly_on_sigterm_and_keeps_pending_jobs() {
    use vantage::sim::{SimConfig, Simulator};
    let sim = Simulator::start(SimConfig {
        latency_scale: 0.0,
        job_pending: std::time::Duration::from_secs(60),
        job_fail_share: 0.0,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = sim.url();
    let submit = vantage(dir.path())
        .env("VANTAGE_TOKEN", sim.token())
        .args(["--render-url", &url, "--search-url", &url])
        .args(["search", "long wait", "--async"])
        .output()
        .unwrap();
    assert!(submit.status.success(), "{submit:?}");
    let child = vantage(dir.path())
        .env("VANTAGE_TOKEN", sim.token())
        .args(["--render-url", &url, "--search-url", &url, "jobs", "watch"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Let it poll once (the first poll is due two seconds after submission).
    tokio::time::sleep(std::time::Duration::from_millis(2_600)).await;
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("Stopped"));
    let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
    let jobs = store.list_jobs().unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].state, vantage::jobs::JobState::Pending);
    assert!(jobs[0].attempts >= 1, "polled before it stopped");
    sim.shutdown().await;
}

/// The stored jobs as `vantage jobs list --json` prints them.
fn listed_jobs(dir: &Path) -> serde_json::Value {
    let output = vantage(dir)
        .args(["jobs", "list", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetching_a_job_by_id_marks_the_stored_job_done() {
    use vantage::sim::{SimConfig, Simulator};
    let sim = Simulator::start(SimConfig {
        latency_scale: 0.0,
        job_pending: std::time::Duration::from_millis(300),
        job_fail_share: 0.0,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = sim.url();
    let run = |args: &[&str]| {
        vantage(dir.path())
            .env("VANTAGE_TOKEN", sim.token())
            .args(["--render-url", &url, "--search-url", &url])
            .args(args)
            .output()
            .unwrap()
    };
    let submit = |args: &[&str]| {
        let output = run(args);
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    };
    let waited = submit(&["ai", "waited for", "--async"]);
    let fetched = submit(&["search", "fetched later", "--async"]);
    assert_eq!(listed_jobs(dir.path())[0]["state"], "pending");

    // With --wait: polled until ready, printed, and stored as done with its result.
    let output = run(&["job", "ai", &waited, "--wait"]);
    assert!(output.status.success(), "{output:?}");
    assert!(!output.stdout.is_empty());
    // Without --wait, once the job is ready: one fetch is enough.
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    let output = run(&["job", "search", &fetched, "--json"]);
    assert!(output.status.success(), "{output:?}");

    let jobs = listed_jobs(dir.path());
    for id in [&waited, &fetched] {
        let job = jobs
            .as_array()
            .unwrap()
            .iter()
            .find(|job| job["id"] == id.as_str())
            .unwrap();
        assert_eq!(job["state"], "done", "{job}");
        assert!(job["attempts"].as_u64().unwrap() >= 1, "{job}");
        assert!(job["result_size"].as_u64().unwrap() > 0, "{job}");
    }
    let text = run(&["jobs"]);
    assert!(
        !String::from_utf8_lossy(&text.stdout).contains("pending"),
        "{text:?}"
    );
    sim.shutdown().await;
}

#[test]
fn job_takes_the_start_of_an_id_that_jobs_prints_when_one_stored_job_has_it() {
    let dir = tempfile::tempdir().unwrap();
    seed(dir.path());
    let url = nothing_listens();
    let job = |args: &[&str]| {
        vantage(dir.path())
            .args(["--render-url", &url, "--search-url", &url, "job"])
            .args(args)
            .output()
            .unwrap()
    };
    // One ai job starts with 00000001: taken, and asked for (nothing listens: exit 5).
    let found = job(&["ai", "00000001"]);
    assert_eq!(found.status.code(), Some(5), "{found:?}");
    // No ai job starts with 00000002 (that one is a browser job).
    let none = job(&["ai", "00000002"]);
    assert_eq!(none.status.code(), Some(2), "{none:?}");
    assert!(String::from_utf8_lossy(&none.stderr).contains("No stored ai job"));
    // Too short to be told from chance, and not hex: the UUID sentence.
    let short = job(&["ai", "000"]);
    assert_eq!(short.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&short.stderr).contains("ids are UUIDs"));
    // Two ai jobs starting alike: ambiguous, named.
    let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
    store
        .record_job(NewJob::submitted(
            JobId::parse("00000001-1111-4000-8000-000000000000").unwrap(),
            RequestParams::Ai(AiRequest::new("twin")),
        ))
        .wait()
        .unwrap();
    drop(store);
    let several = job(&["ai", "00000001"]);
    assert_eq!(several.status.code(), Some(2), "{several:?}");
    let stderr = String::from_utf8_lossy(&several.stderr);
    assert!(stderr.contains("2 stored ai jobs"), "{stderr}");
    assert!(stderr.contains("type more of the id"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_exits_with_the_failed_job_code_when_a_job_ends_failed() {
    use vantage::sim::{SimConfig, Simulator};
    // The same two jobs, watched once by a service where every job fails, once where none do.
    for (fail_share, code) in [(1.0, vantage::exit::SERVICE), (0.0, vantage::exit::OK)] {
        let sim = Simulator::start(SimConfig {
            latency_scale: 0.0,
            job_pending: std::time::Duration::from_millis(100),
            job_fail_share: fail_share,
            ..SimConfig::default()
        })
        .await
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let url = sim.url();
        let run = |args: &[&str]| {
            vantage(dir.path())
                .env("VANTAGE_TOKEN", sim.token())
                .args(["--render-url", &url, "--search-url", &url])
                .args(args)
                .output()
                .unwrap()
        };
        for args in [["ai", "boots", "--async"], ["search", "boots", "--async"]] {
            let submitted = run(&args);
            assert!(submitted.status.success(), "{submitted:?}");
        }
        let output = run(&["jobs", "watch"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{fail_share}: {stderr}");
        assert_eq!(
            stderr.contains("2 jobs ended without an answer"),
            code != vantage::exit::OK,
            "{stderr}"
        );
        sim.shutdown().await;
    }
}
