//! The open app follows what another vantage process writes to the same store: a job queued
//! by `vantage … --async` in a second, real process appears in the Jobs tab without a
//! restart, and its History entry in History.

mod common;

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use common::{ctrl_c, scripted_events, tab_key};
use vantage::app::{App, Tab};
use vantage::sim::{SimConfig, Simulator};
use vantage::store::{Store, StoreOptions};
use vantage::tui::{run_loop, test_runner};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_queued_by_another_process_appears_in_the_open_jobs_tab() {
    let sim = Simulator::start(SimConfig {
        latency_scale: 0.0,
        job_pending: Duration::from_secs(60),
        job_fail_share: 0.0,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let store = Store::open_in(&data, StoreOptions::default()).unwrap();
    let (mut runner, mut rx) = test_runner(common::client(&sim), data.clone());
    runner.set_store(Some(store.clone()));
    let mut app = App::new(common::view::demo_connection(), Instant::now());
    app.area = ratatui::layout::Rect::new(0, 0, 120, 30);
    let mut terminal = Terminal::new(TestBackend::new(120, 30)).unwrap();
    let (tx, events) = scripted_events();
    tx.send(tab_key(Tab::Jobs)).unwrap();
    let looped = tokio::spawn(async move {
        run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        app
    });
    tokio::time::sleep(Duration::from_millis(300)).await;

    // A second process queues a search into the same data folder.
    let sim_for_cli = sim.url();
    let token = sim.token().to_string();
    let data_for_cli = data.clone();
    let output = tokio::task::spawn_blocking(move || {
        assert_cmd::Command::new(env!("CARGO_BIN_EXE_vantage"))
            .env("VANTAGE_DATA_DIR", &data_for_cli)
            .env("VANTAGE_CONFIG", data_for_cli.join("none.toml"))
            .env("VANTAGE_TOKEN", token)
            .env_remove("MASSIVE_TOKEN")
            .args(["--render-url", &sim_for_cli, "--search-url", &sim_for_cli])
            .args(["search", "written elsewhere", "--async"])
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(output.status.success(), "{output:?}");
    let id = String::from_utf8(output.stdout).unwrap().trim().to_string();

    // The open app looks at the store while Jobs shows (every 2 s): well within 5 s.
    tokio::time::sleep(Duration::from_secs(5)).await;
    tx.send(ctrl_c()).unwrap();
    let app = tokio::time::timeout(Duration::from_secs(10), looped)
        .await
        .expect("the loop ends on Ctrl+C")
        .unwrap();
    let row = app.jobs.rows.iter().find(|r| r.id.as_str() == id);
    let row = row.expect("the job queued by the other process shows in Jobs");
    assert!(row.summary.contains("written elsewhere"), "{row:?}");
    assert!(
        app.jobs.scheduler.get(&row.id).is_some(),
        "and the open app polls it too"
    );
}
