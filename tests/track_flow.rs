//! Tracking runs against the simulator: a run of 2,000 jobs stored whole; a run killed
//! with SIGKILL midway and started again, in real processes, with nothing lost, stored
//! twice or submitted twice (counted at the simulator); the simulator's drift seen as a
//! trend and a diff.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use vantage::analysis::workspace::TrackSet;
use vantage::api::BodyAsked;
use vantage::api::{Client, ClientSettings, JobId, JobKind, Location, Model, Secret};
use vantage::cli::{WatchEnd, drive_jobs};
use vantage::jobs::Scheduler;
use vantage::sim::{Epoch, SimConfig, Simulator};
use vantage::store::{Store, StoreOptions, now_ms};
use vantage::track::observe::observe_run;
use vantage::track::run::{begin, submit_unsent};
use vantage::track::submit::JobSubmitter;
use vantage::track::{diff, trends};

const BIN: &str = env!("CARGO_BIN_EXE_vantage");

fn quick(pending: Duration) -> SimConfig {
    SimConfig {
        latency_scale: 0.0,
        job_pending: pending,
        job_fail_share: 0.0,
        credits: 100_000,
        ..SimConfig::default()
    }
}

fn client(sim: &Simulator) -> Client {
    Client::new(ClientSettings::new(
        &sim.url(),
        &sim.url(),
        Secret::new(sim.token()),
    ))
    .unwrap()
}

fn cities() -> Vec<Location> {
    [
        ("US", "Denver"),
        ("DE", "Berlin"),
        ("FR", "Lyon"),
        ("GB", "Leeds"),
        ("JP", "Osaka"),
    ]
    .iter()
    .map(|(country, city)| Location {
        country: Some(country.to_string()),
        subdivision: None,
        city: Some(city.to_string()),
    })
    .collect()
}

/// Submits every call of the set's run, then polls its jobs until all have ended.
async fn run_to_the_end(store: &Store, sim: &Simulator, set: &TrackSet) -> vantage::store::RunId {
    let calls = vantage::track::plan::expand(set).unwrap();
    let begun = begin(store, &set.name, calls).await.unwrap();
    let client = client(sim);
    let tally = submit_unsent(
        store,
        &JobSubmitter::new(&client),
        &begun.run,
        std::future::pending(),
        |_| {},
    )
    .await
    .unwrap();
    assert_eq!(tally.queued, begun.planned, "{tally:?}");
    let mut scheduler = Scheduler::new();
    for job in store.track_open_jobs(&set.name).unwrap() {
        scheduler.insert(job.tracked(now_ms()));
    }
    let poll = move |kind: JobKind, id: JobId, asked: BodyAsked| {
        let client = client.clone();
        async move { client.job(kind, &id, asked).await }
    };
    let ended = drive_jobs(
        store,
        &mut scheduler,
        poll,
        std::future::pending(),
        |_, _| {},
    )
    .await
    .unwrap();
    assert_eq!(ended, WatchEnd::Settled);
    begun.run
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_of_2000_jobs_completes_with_every_result_stored() {
    let started = Instant::now();
    let sim = Simulator::start(quick(Duration::from_secs(3)))
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
    let set = TrackSet {
        name: "big".to_string(),
        prompts: (0..100).map(|n| format!("best hiking boots {n}")).collect(),
        models: Model::ALL.to_vec(),
        locations: cities(),
        ..TrackSet::default()
    };
    assert_eq!(set.combinations(), 2_000);
    let run = run_to_the_end(&store, &sim, &set).await;
    let summary = store.track_run(&run).unwrap().unwrap();
    assert_eq!(
        (
            summary.planned,
            summary.queued,
            summary.done,
            summary.pending,
            summary.unsent
        ),
        (2_000, 2_000, 2_000, 0, 0)
    );
    let items = store.track_items(&run).unwrap();
    assert_eq!(items.len(), 2_000);
    assert!(items.iter().all(|i| i.body.is_some() && i.sends == 1));
    let ids: HashSet<_> = items.iter().map(|i| i.job_id.clone().unwrap()).collect();
    assert_eq!(ids.len(), 2_000);
    assert_eq!(sim.submitted_queries().len(), 2_000);
    eprintln!(
        "2,000 jobs submitted, polled and stored in {:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_simulator_drifts_by_epoch_and_trends_show_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
    let set = TrackSet {
        name: "boots".to_string(),
        prompts: vec![
            "best hiking boots".to_string(),
            "waterproof hiking boots".to_string(),
            "hiking boots for wide feet".to_string(),
        ],
        terms: vec!["hiking boots".to_string()],
        models: vec![Model::Chatgpt, Model::Gemini],
        locations: cities()[..3].to_vec(),
        ..TrackSet::default()
    };
    let mut runs = Vec::new();
    // Days 1, 2 and 2 again: a day is deterministic, the next one differs.
    for epoch in [1, 2, 2] {
        let sim = Simulator::start(SimConfig {
            epoch: Epoch::Fixed(epoch),
            ..quick(Duration::from_millis(100))
        })
        .await
        .unwrap();
        runs.push(run_to_the_end(&store, &sim, &set).await);
    }
    // The brands: whatever the answers name most, read from the first run's text.
    let first = store.track_items(&runs[0]).unwrap();
    let named: Vec<String> = first
        .iter()
        .filter_map(|i| i.body.as_deref())
        .filter_map(|body| {
            let value: serde_json::Value = serde_json::from_str(body).ok()?;
            value["completion"]
                .as_str()
                .map(|html| vantage::analysis::names::candidates(html, ""))
        })
        .flatten()
        .collect::<Vec<_>>();
    assert!(!named.is_empty(), "the answers name brands");
    let mut brands: Vec<vantage::analysis::mentions::Brand> = Vec::new();
    for name in named {
        if brands.len() < 6 && !brands.iter().any(|b| b.name == name) {
            brands.push(vantage::analysis::mentions::Brand::named(&name));
        }
    }
    let observed: Vec<_> = runs
        .iter()
        .enumerate()
        .map(|(n, run)| {
            observe_run(
                format!("run {n}"),
                &store.track_items(run).unwrap(),
                &brands,
            )
        })
        .collect();
    for run in &observed {
        assert_eq!(run.answers.len(), 18);
        assert!(!run.results.is_empty());
    }
    let names: Vec<String> = brands.iter().map(|b| b.name.clone()).collect();
    let t = trends::trends(&observed, &names);
    assert_eq!(t.runs.len(), 3);
    assert!(!t.sources.is_empty() && !t.ranks.is_empty());
    let changed = diff::diff(&observed[0], &observed[1], &names);
    assert!(!changed.is_empty(), "day 2 differs from day 1");
    assert!(
        !changed.ranks_moved.is_empty(),
        "ranks move from one day to the next: {changed:#?}"
    );
    // Within bounds: the same topic's results, a few places apart.
    assert!(
        changed.ranks_moved.iter().all(|m| match (m.from, m.to) {
            (Some(a), Some(b)) => a.abs_diff(b) <= 6,
            _ => true,
        }),
        "{changed:#?}"
    );
    let same = diff::diff(&observed[1], &observed[2], &names);
    assert!(same.is_empty(), "the same day answers the same: {same:#?}");
}

// ---- real processes ----

/// Kills and reaps a child process when dropped, so a failing test leaves nothing behind.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A simulator on its own runtime, so the test thread can wait on processes meanwhile.
struct Service {
    sim: Simulator,
    _runtime: tokio::runtime::Runtime,
}

fn service(config: SimConfig) -> Service {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let sim = runtime.block_on(Simulator::start(config)).unwrap();
    Service {
        sim,
        _runtime: runtime,
    }
}

const WORKSPACE: &str = r#"# Checked every morning by cron.
[[brands]]
name = "Merrell"

[[sets]]
name = "boots"
prompts = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"]
models = ["chatgpt", "gemini"]
locations = ["us::Denver", "de::Berlin", "fr::Lyon"]
"#;

fn track(dir: &Path, sim: &Simulator, args: &[&str]) -> Command {
    let mut command = Command::new(BIN);
    command
        .current_dir(dir)
        .env("VANTAGE_TOKEN", sim.token())
        .env_remove("MASSIVE_TOKEN")
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("no-config.toml"))
        .args([
            "--render-url",
            &sim.url(),
            "--search-url",
            &sim.url(),
            "track",
        ])
        .args(args)
        .stdin(Stdio::null());
    command
}

fn db(dir: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(dir.join("data").join("vantage.db")).unwrap();
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn
}

fn count(conn: &rusqlite::Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |r| r.get(0)).unwrap_or(0)
}

#[test]
fn a_run_killed_midway_resumes_with_nothing_lost_stored_or_sent_twice() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), WORKSPACE).unwrap();
    let service = service(quick(Duration::from_millis(300)));
    let sim = &service.sim;
    // The service takes 25 calls, then holds the next ones unanswered: the run is killed
    // with calls out, at a point the test knows.
    sim.hold_submissions_after(25);
    let child = track(dir, sim, &["run", "boots", "--wait"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = Guard(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let stored = if dir.join("data").join("vantage.db").exists() {
            count(
                &db(dir),
                "SELECT count(*) FROM track_items WHERE job_id IS NOT NULL",
            )
        } else {
            0
        };
        if stored == 25 {
            break;
        }
        assert!(Instant::now() < deadline, "the run stored {stored} ids");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let the next calls reach the simulator and wait there.
    std::thread::sleep(Duration::from_millis(300));

    // A second run of the same set meanwhile is refused by the lock.
    let overlapping = track(dir, sim, &["run", "boots"]).output().unwrap();
    assert_eq!(overlapping.status.code(), Some(1));
    let said = String::from_utf8_lossy(&overlapping.stderr);
    assert!(said.contains("Another `vantage track run boots`"), "{said}");

    first.0.kill().unwrap();
    assert!(!first.0.wait().unwrap().success(), "killed, not ended");
    sim.release_submissions();
    {
        let conn = db(dir);
        assert_eq!(count(&conn, "SELECT count(*) FROM track_runs"), 1);
        assert_eq!(count(&conn, "SELECT count(*) FROM track_items"), 60);
        assert_eq!(
            count(
                &conn,
                "SELECT count(*) FROM track_items WHERE job_id IS NOT NULL"
            ),
            25
        );
        // The calls out when it was killed were counted as sent before they went.
        assert!(
            count(
                &conn,
                "SELECT count(*) FROM track_items WHERE job_id IS NULL AND sends > 0"
            ) >= 1
        );
    }
    assert_eq!(sim.submitted_queries().len(), 25);

    let second = track(dir, sim, &["run", "boots", "--wait"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "{said}");
    assert!(said.contains("Going on with run"), "{said}");
    assert!(
        said.contains("60 done, 0 failed, 0 refused, 0 pending, 0 not sent"),
        "{said}"
    );

    // At the simulator: 60 queued, each combination once.
    let queries = sim.submitted_queries();
    let combinations: HashSet<Vec<(String, String)>> = queries
        .iter()
        .map(|q| {
            let mut q = q.clone();
            q.sort();
            q
        })
        .collect();
    assert_eq!((queries.len(), combinations.len()), (60, 60));
    // In the store: one run, 60 calls, 60 distinct jobs, each done with its result.
    let conn = db(dir);
    assert_eq!(count(&conn, "SELECT count(*) FROM track_runs"), 1);
    assert_eq!(
        count(
            &conn,
            "SELECT count(DISTINCT job_id) FROM track_items WHERE job_id IS NOT NULL"
        ),
        60
    );
    assert_eq!(count(&conn, "SELECT count(*) FROM jobs"), 60);
    assert_eq!(
        count(&conn, "SELECT count(*) FROM jobs WHERE state = 'done'"),
        60
    );
    assert_eq!(count(&conn, "SELECT count(*) FROM job_results"), 60);

    // The run reads back: listed, and exported one row per answer × brand.
    let listed = track(dir, sim, &["list"]).output().unwrap();
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(
        text.contains("set boots: a run makes 60 calls (60 answers × 5 = 300 credits); 1 run"),
        "{text}"
    );
    // The run's credits: its 60 answered calls at 5 credits, by the price table.
    assert!(
        text.lines()
            .any(|line| line.starts_with("boots ") && line.ends_with(" 300")),
        "{text}"
    );
    let report = track(dir, sim, &["report", "boots", "--format", "csv"])
        .output()
        .unwrap();
    assert!(report.status.success());
    let csv = String::from_utf8(report.stdout).unwrap();
    assert_eq!(csv.lines().count(), 61, "{csv}");
    assert!(
        csv.lines().skip(1).all(|l| l.contains(",done,Merrell,")),
        "{csv}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limit_holds_back_every_submission_for_the_time_it_asks() {
    let sim = Simulator::start(quick(Duration::from_millis(100)))
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
    let set = TrackSet {
        name: "limited".to_string(),
        prompts: (0..12).map(|n| format!("boots {n}")).collect(),
        ..TrackSet::default()
    };
    // The first call is told to come back in 2 s (429 with Retry-After).
    sim.script(vec![Some(vantage::sim::Fault::RateLimited)]);
    let calls = vantage::track::plan::expand(&set).unwrap();
    let begun = begin(&store, &set.name, calls).await.unwrap();
    let started = Instant::now();
    let submitter = JobSubmitter::new(&client(&sim));
    let mut queued_at = Vec::new();
    let tally = submit_unsent(
        &store,
        &submitter,
        &begun.run,
        std::future::pending(),
        |_| {
            queued_at.push(started.elapsed());
        },
    )
    .await
    .unwrap();
    assert_eq!((tally.queued, tally.later), (12, 0), "{tally:?}");
    // At most 4 calls are out when the hint comes; the others wait for it to pass.
    let early = queued_at
        .iter()
        .filter(|t| **t < Duration::from_millis(1_500))
        .count();
    assert!(
        early <= 3,
        "{early} calls went through during the pause: {queued_at:?}"
    );
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(sim.submitted_queries().len(), 12);
}

/// A `TestBackend` that times each frame: `Terminal::draw` asks the backend's size first
/// (to resize) and flushes it last, so the time between the two is the frame, widgets and
/// diff included. The event loop's own stats keep only the mean and the slowest.
struct TimedBackend {
    inner: ratatui::backend::TestBackend,
    started: std::cell::Cell<Option<Instant>>,
    frames: Vec<Duration>,
}

impl ratatui::backend::Backend for TimedBackend {
    type Error = core::convert::Infallible;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a ratatui::buffer::Cell)>,
    {
        self.inner.draw(content)
    }
    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }
    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }
    fn get_cursor_position(&mut self) -> Result<ratatui::layout::Position, Self::Error> {
        self.inner.get_cursor_position()
    }
    fn set_cursor_position<P: Into<ratatui::layout::Position>>(
        &mut self,
        position: P,
    ) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }
    fn clear(&mut self) -> Result<(), Self::Error> {
        self.inner.clear()
    }
    fn clear_region(&mut self, kind: ratatui::backend::ClearType) -> Result<(), Self::Error> {
        self.inner.clear_region(kind)
    }
    fn size(&self) -> Result<ratatui::layout::Size, Self::Error> {
        self.started.set(Some(Instant::now()));
        self.inner.size()
    }
    fn window_size(&mut self) -> Result<ratatui::backend::WindowSize, Self::Error> {
        self.inner.window_size()
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        if let Some(started) = self.started.take() {
            self.frames.push(started.elapsed());
        }
        self.inner.flush()
    }
}

/// This process's resident memory, from /proc (Linux), in MiB.
fn resident_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn percentile(sorted: &[Duration], share: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * share).round() as usize;
    sorted.get(at).copied().unwrap_or_default()
}

/// The issue's load bound: while the 2,000 jobs of a run poll, the app keeps drawing. The
/// real event loop runs on the Track tab (reading the runs again every second), then on
/// Jobs with its 2,000 rows. The issue asks for p99 ≤ 16 ms and RSS ≤ 80 MB in a release
/// build; a debug build on a shared machine gets generous bounds, and the real numbers are
/// printed (`--nocapture`). RSS is the whole test process: simulator and store included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_2000_jobs_poll_frames_stay_quick_and_memory_small() {
    use crossterm::event::KeyCode;
    use vantage::app::{App, Connection, Tab};
    use vantage::tui::{run_loop, test_runner};

    let sim = Simulator::start(quick(Duration::from_secs(3)))
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
    let set = TrackSet {
        name: "big".to_string(),
        prompts: (0..100).map(|n| format!("best hiking boots {n}")).collect(),
        models: Model::ALL.to_vec(),
        locations: cities(),
        ..TrackSet::default()
    };
    let calls = vantage::track::plan::expand(&set).unwrap();
    let begun = begin(&store, &set.name, calls).await.unwrap();
    let tally = submit_unsent(
        &store,
        &JobSubmitter::new(&client(&sim)),
        &begun.run,
        std::future::pending(),
        |_| {},
    )
    .await
    .unwrap();
    assert_eq!(tally.queued, 2_000, "{tally:?}");
    let before_app = resident_mib().unwrap_or(0.0);

    let (mut runner, mut rx) = test_runner(client(&sim), dir.path().to_path_buf());
    runner.set_store(Some(store.clone()));
    let mut app = App::new(
        Connection {
            demo: true,
            host: sim.addr().to_string(),
            token: Some(sim.token().to_string()),
            token_hint: "the config file".into(),
        },
        Instant::now(),
    );
    app.area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let mut terminal = ratatui::Terminal::new(TimedBackend {
        inner: ratatui::backend::TestBackend::new(120, 40),
        started: std::cell::Cell::new(None),
        frames: Vec::new(),
    })
    .unwrap();
    let (tx, events) = common::scripted_events();
    tx.send(common::tab_key(Tab::Track)).unwrap();
    tx.send(common::key(KeyCode::Char('m'))).unwrap();
    let looped = tokio::spawn(async move {
        let stats = run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        (terminal, app, stats)
    });

    let started = Instant::now();
    let deadline = started + Duration::from_secs(120);
    let mut most_resident: f64 = 0.0;
    let mut on_jobs = false;
    loop {
        tokio::time::sleep(Duration::from_millis(1_000)).await;
        most_resident = most_resident.max(resident_mib().unwrap_or(0.0));
        if !on_jobs && started.elapsed() > Duration::from_secs(5) {
            tx.send(common::tab_key(Tab::Jobs)).unwrap();
            on_jobs = true;
        } else if !on_jobs {
            tx.send(common::key(KeyCode::Char('r'))).unwrap();
        }
        let reader = store.clone();
        let open = tokio::task::spawn_blocking(move || reader.open_jobs().unwrap().len())
            .await
            .unwrap();
        if open == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "{open} jobs still open");
    }
    tx.send(common::ctrl_c()).unwrap();
    let (terminal, app, stats) = tokio::time::timeout(Duration::from_secs(10), looped)
        .await
        .expect("the loop ends on Ctrl+C")
        .unwrap();
    assert_eq!(app.jobs.rows.len(), 2_000);
    let summary = store.track_run(&begun.run).unwrap().unwrap();
    assert_eq!((summary.done, summary.pending), (2_000, 0));

    let mut frames = terminal.backend().frames.clone();
    frames.sort();
    let (p50, p99) = (percentile(&frames, 0.50), percentile(&frames, 0.99));
    println!(
        "2,000 jobs polled in {:?}: {} frames, p50 {p50:?}, p99 {p99:?}, slowest {:?}, \
         at most {} polls in flight; RSS {before_app:.1} MiB before the app, at most \
         {most_resident:.1} MiB while it ran",
        started.elapsed(),
        frames.len(),
        stats.slowest_frame,
        stats.most_polls_in_flight,
    );
    assert!(frames.len() > 20, "only {} frames drawn", frames.len());
    let (p99_bound, rss_bound) = if cfg!(debug_assertions) {
        (Duration::from_millis(50), 200.0)
    } else {
        (Duration::from_millis(16), 80.0)
    };
    assert!(p99 <= p99_bound, "p99 frame {p99:?} over {p99_bound:?}");
    assert!(
        most_resident <= rss_bound,
        "RSS {most_resident:.1} MiB over {rss_bound} MiB"
    );
}

/// `R` in the Track tab, through the real event loop: a yes to the run's calls, the run
/// planned and sent by the app, its jobs polled by the app until each answer is stored,
/// and the tab reading the run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_runs_from_the_track_tab_and_its_answers_land() {
    use common::{ctrl_c, key, scripted_events};
    use crossterm::event::KeyCode;
    use vantage::app::{App, Connection, Tab};
    use vantage::tui::{run_loop, test_runner};

    let sim = Simulator::start(quick(Duration::from_millis(300)))
        .await
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let store = Store::open_in(data.path(), StoreOptions::default()).unwrap();
    let (mut runner, mut rx) = test_runner(client(&sim), data.path().to_path_buf());
    runner.set_store(Some(store.clone()));
    let mut app = App::new(
        Connection {
            demo: true,
            host: sim.addr().to_string(),
            token: Some("demo".into()),
            token_hint: "the config file".into(),
        },
        Instant::now(),
    );
    app.area = ratatui::layout::Rect::new(0, 0, 120, 40);
    app.brands_pane.workspace = Some(
        vantage::analysis::workspace::Workspace::parse(
            Path::new("/work/shop/vantage.toml"),
            "[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\", \"hiking boots\"]\nmodels = [\"chatgpt\", \"gemini\"]\nlocations = [\"US\"]\n",
        )
        .unwrap(),
    );
    app.brands_pane.exists = true;
    app.tab = Tab::Track;
    app.track.view = Some(vantage::track::view::TrackView {
        set: Some("boots".to_string()),
        ..Default::default()
    });
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    let (tx, events) = scripted_events();
    tx.send(key(KeyCode::Char('R'))).unwrap();
    tx.send(key(KeyCode::Char('y'))).unwrap();
    let looped = tokio::spawn(async move {
        run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        app
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let run = loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let reader = store.clone();
        let runs = tokio::task::spawn_blocking(move || reader.track_runs(Some("boots")).unwrap())
            .await
            .unwrap();
        if let Some(run) = runs.first().filter(|r| r.done == 4) {
            break run.clone();
        }
        assert!(
            Instant::now() < deadline,
            "the app's run never landed: {runs:?}"
        );
    };
    assert_eq!((run.planned, run.queued, run.failed), (4, 4, 0));
    // The tab reads the store again while it shows.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    tx.send(ctrl_c()).unwrap();
    // A second press quits even if a poll is out (the loop may have ended already).
    let _ = tx.send(ctrl_c());
    let app = tokio::time::timeout(Duration::from_secs(10), looped)
        .await
        .expect("the loop ends on Ctrl+C")
        .unwrap();
    let view = app.track.view.as_ref().expect("the tab read the runs");
    assert_eq!(view.runs.len(), 1, "{:?}", view.runs);
    assert_eq!(view.runs[0].done, 4);
    assert_eq!(sim.submitted_queries().len(), 4, "each call sent once");
}
