//! The app's store opens beside its first frame: the loop takes it before anything needs it,
//! or, when it cannot open, says why and keeps the session in memory.

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use vantage::api::{Client, ClientSettings};
use vantage::app::{App, Connection};
use vantage::store::StoreOptions;
use vantage::tui::{PendingStore, run_loop, test_runner};

/// An app without a token: at start it only reads the stored jobs.
fn app() -> App {
    App::new(
        Connection {
            demo: false,
            host: "127.0.0.1:9".into(),
            token: None,
            token_hint: "the config file".into(),
        },
        Instant::now(),
    )
}

/// Runs the loop until its events end; returns the app, the runner's store, and the frames.
async fn run_with(pending: PendingStore, data_dir: &std::path::Path) -> (App, bool, u64) {
    let client = Client::new(ClientSettings::new(
        "http://127.0.0.1:9",
        "http://127.0.0.1:9",
        None,
    ))
    .unwrap();
    let (mut runner, mut rx) = test_runner(client, data_dir.to_path_buf());
    runner.set_pending_store(pending);
    let mut app = app();
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    let no_events = futures_util::stream::empty();
    let stats = tokio::time::timeout(
        Duration::from_secs(20),
        run_loop(&mut terminal, no_events, &mut app, &mut runner, &mut rx),
    )
    .await
    .expect("the loop ends with its events")
    .unwrap();
    (app, runner.store().is_some(), stats.frames)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_that_opens_is_taken_after_the_first_frame() {
    let dir = tempfile::tempdir().unwrap();
    let pending = PendingStore::open(dir.path().to_path_buf(), StoreOptions::default(), false);
    let (app, has_store, frames) = run_with(pending, dir.path()).await;
    assert!(has_store);
    assert!(app.jobs.memory_only.is_none());
    // Nothing to say: the first frame, and at most one more when the workspace file's reading
    // (a message of its own at start) lands apart from the first batch.
    assert!(frames <= 2, "{frames} frames");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_that_cannot_open_is_said_and_the_session_is_kept_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the data folder should be: the folder cannot be made.
    let blocked = dir.path().join("data");
    std::fs::write(&blocked, "not a folder").unwrap();
    let pending = PendingStore::open(blocked.clone(), StoreOptions::default(), true);
    let (app, has_store, frames) = run_with(pending, &blocked).await;
    assert!(!has_store);
    let reason = app.jobs.memory_only.clone().unwrap();
    assert!(reason.contains("could not be made"), "{reason}");
    // The sentence gets a frame of its own right after the first (the workspace file's reading
    // may add one more).
    assert!((2..=3).contains(&frames), "{frames} frames");
    let flash = format!("{:?}", app.flash);
    assert!(flash.contains("memory only this session"), "{flash}");
    assert!(flash.contains("no log is written"), "{flash}");
}
