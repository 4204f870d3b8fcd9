//! Real processes: a simulator, twenty `--async` submissions, and `vantage jobs watch`
//! killed with SIGKILL midway then started again. Every job must end done, stored once,
//! and the token must be nowhere in the database files.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_vantage");
const TOKEN: &str = "crash-test-token-7Hq2-never-on-disk";

/// Kills and reaps a child process when dropped, so a failing test leaves nothing behind.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn vantage(dir: &Path) -> Command {
    let mut command = Command::new(BIN);
    command
        .env("VANTAGE_TOKEN", TOKEN)
        .env_remove("MASSIVE_TOKEN")
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("no-config.toml"))
        .stdin(Stdio::null());
    command
}

/// Starts `vantage sim` and reads its banner for the URL.
fn start_sim(dir: &Path) -> (Guard, String) {
    let mut child = Command::new(BIN)
        .args([
            "sim",
            "--port",
            "0",
            "--token",
            TOKEN,
            "--job-pending-ms",
            "4000",
            "--job-fail-share",
            "0",
            "--latency-scale",
            "0",
            "--state-file",
        ])
        .arg(dir.join("sim.json"))
        .env("VANTAGE_DATA_DIR", dir.join("sim-data"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the simulator starts");
    let stdout = child.stdout.take().expect("sim stdout");
    let guard = Guard(child);
    let mut lines = BufReader::new(stdout).lines();
    let url = loop {
        let line = lines
            .next()
            .expect("the simulator prints a banner")
            .expect("banner line");
        if let Some(rest) = line.strip_prefix("Simulator listening on ") {
            break rest.trim().to_string();
        }
    };
    // Keep draining the banner so the simulator never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (guard, url)
}

fn submit(dir: &Path, url: &str, n: usize) -> String {
    let (kind, text) = if n.is_multiple_of(2) {
        ("ai", format!("prompt {n}"))
    } else {
        ("search", format!("terms {n}"))
    };
    let output = vantage(dir)
        .args([
            "--render-url",
            url,
            "--search-url",
            url,
            kind,
            &text,
            "--async",
        ])
        .output()
        .expect("vantage runs");
    assert!(
        output.status.success(),
        "submit {n}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let id = String::from_utf8(output.stdout).unwrap().trim().to_string();
    assert_eq!(id.len(), 36, "an id: {id:?}");
    id
}

fn db(dir: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(dir.join("data").join("vantage.db")).unwrap();
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn
}

fn count(conn: &rusqlite::Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

fn watch(dir: &Path, url: &str) -> (Guard, mpsc::Receiver<String>) {
    let mut child = vantage(dir)
        .args(["--render-url", url, "--search-url", url, "jobs", "watch"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("jobs watch starts");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (Guard(child), rx)
}

#[test]
fn jobs_survive_a_killed_watch_and_end_done_once_each() {
    let started = Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (_sim, url) = start_sim(dir);

    // Two groups three seconds apart, so that the first lands while the second still waits.
    let mut ids = Vec::new();
    for n in 0..10 {
        ids.push(submit(dir, &url, n));
    }
    std::thread::sleep(Duration::from_secs(3));
    for n in 10..20 {
        ids.push(submit(dir, &url, n));
    }
    let submitted: HashSet<String> = ids.iter().cloned().collect();
    assert_eq!(submitted.len(), 20);
    {
        let conn = db(dir);
        assert_eq!(count(&conn, "SELECT count(*) FROM jobs"), 20);
        assert_eq!(
            count(&conn, "SELECT count(*) FROM jobs WHERE state = 'pending'"),
            20
        );
        assert_eq!(
            count(&conn, "SELECT count(*) FROM jobs WHERE request IS NOT NULL"),
            20
        );
    }

    // First watch: killed with SIGKILL as soon as a job is reported done.
    let (mut first, lines) = watch(dir, &url);
    let line = lines
        .recv_timeout(Duration::from_secs(20))
        .expect("the first watch reports a change");
    assert!(line.contains("pending → done"), "{line}");
    first.0.kill().expect("SIGKILL");
    let status = first.0.wait().unwrap();
    assert!(!status.success(), "killed, not ended");
    let done_after_kill = {
        let conn = db(dir);
        assert_eq!(count(&conn, "SELECT count(*) FROM jobs"), 20);
        count(&conn, "SELECT count(*) FROM jobs WHERE state = 'done'")
    };
    assert!(
        (1..20).contains(&done_after_kill),
        "killed midway: {done_after_kill} done"
    );

    // Second watch: picks up the rest and ends by itself.
    let (mut second, lines) = watch(dir, &url);
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = second.0.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the second watch did not end");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    let reported: Vec<String> = lines.try_iter().collect();
    let done_lines = reported.iter().filter(|l| l.contains("→ done")).count() as i64;
    assert_eq!(done_lines, 20 - done_after_kill, "{reported:#?}");

    let conn = db(dir);
    assert_eq!(
        count(&conn, "SELECT count(*) FROM jobs"),
        20,
        "none duplicated"
    );
    assert_eq!(
        count(&conn, "SELECT count(*) FROM jobs WHERE state = 'done'"),
        20
    );
    assert_eq!(count(&conn, "SELECT count(*) FROM job_results"), 20);
    assert_eq!(
        count(&conn, "SELECT count(DISTINCT job_id) FROM job_results"),
        20
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM job_results r JOIN jobs j ON j.id = r.job_id
             WHERE length(r.body) > 100 AND j.result_size = length(CAST(r.body AS BLOB))"
        ),
        20
    );
    // Exactly one pending → done event per job.
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM job_events WHERE from_state = 'pending' AND to_state = 'done'"
        ),
        20
    );
    let stored: HashSet<String> = conn
        .prepare("SELECT id FROM jobs")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(stored, submitted, "none lost");
    drop(conn);

    for name in ["vantage.db", "vantage.db-wal", "vantage.db-shm"] {
        if let Ok(bytes) = std::fs::read(dir.join("data").join(name)) {
            assert!(
                !bytes.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes()),
                "the token is in {name}"
            );
        }
    }
    eprintln!("crash test took {:?}", started.elapsed());
}
