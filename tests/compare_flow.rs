//! The Compare tab through the real event loop against the simulator: twelve columns run at
//! once and the screen keeps drawing while they do; against the service the cap of eight
//! queues the rest.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use common::{key_with as key, scripted_events, tab_key};
use vantage::api::{Client, ClientSettings, Model, Secret};
use vantage::app::{App, Connection, Tab};
use vantage::present::compare::summary::parse_location;
use vantage::sim::{SimConfig, Simulator};
use vantage::tui::{LoopStats, run_loop, test_runner};

struct Run {
    app: App,
    stats: LoopStats,
    /// From the key that sends to the last column landing.
    wall: Duration,
}

/// Twelve columns (four models × three locations), sent with Enter; the loop is stopped once
/// `wait` has passed.
async fn run_twelve(demo: bool, cap: Option<usize>, wait: Duration) -> Run {
    run_columns(demo, cap, wait, |app| {
        app.compare.axes.models = Model::ALL.to_vec();
        app.compare.axes.locations = ["us:ny:New+York", "de::Berlin", "fr"]
            .map(|l| parse_location(l).unwrap())
            .to_vec();
    })
    .await
}

/// The columns `setup` chooses, for "best hiking boots", sent with Enter; the loop is
/// stopped once `wait` has passed.
async fn run_columns(
    demo: bool,
    cap: Option<usize>,
    wait: Duration,
    setup: impl FnOnce(&mut App),
) -> Run {
    let sim = Simulator::start(SimConfig {
        fixed_latency: Some(Duration::from_secs(1)),
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let client = Client::new(ClientSettings::new(
        &sim.url(),
        &sim.url(),
        Secret::new(sim.token()),
    ))
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let (mut runner, mut rx) = test_runner(client, data.path().to_path_buf());
    let mut app = App::new(
        Connection {
            demo,
            host: sim.addr().to_string(),
            token: Some("demo".into()),
            token_hint: "the config file".into(),
        },
        Instant::now(),
    );
    app.area = ratatui::layout::Rect::new(0, 0, 160, 45);
    app.compare.max_in_flight = cap;
    app.compare.set_prompt("best hiking boots");
    setup(&mut app);
    app.compare.rebuild();
    let mut terminal = Terminal::new(TestBackend::new(160, 45)).unwrap();
    let (tx, events) = scripted_events();
    tx.send(tab_key(Tab::Compare)).unwrap();
    let looped = tokio::spawn(async move {
        let stats = run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        (app, stats)
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let sent = Instant::now();
    // The tab opens on its columns: r asks to run every column, y runs them.
    tx.send(key(KeyCode::Char('r'), KeyModifiers::NONE))
        .unwrap();
    tx.send(key(KeyCode::Char('y'), KeyModifiers::NONE))
        .unwrap();
    tokio::time::sleep(wait).await;
    tx.send(key(KeyCode::Char('c'), KeyModifiers::CONTROL))
        .unwrap();
    let (app, stats) = tokio::time::timeout(Duration::from_secs(10), looped)
        .await
        .expect("the loop ends on Ctrl+C")
        .unwrap();
    let last = app
        .compare
        .columns
        .iter()
        .filter_map(|c| c.landed_at)
        .max()
        .expect("columns landed");
    Run {
        wall: last.saturating_duration_since(sent),
        app,
        stats,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twelve_columns_at_one_second_each_finish_in_one_wave_while_the_screen_draws() {
    let run = run_twelve(true, None, Duration::from_millis(1550)).await;
    let columns = &run.app.compare.columns;
    assert_eq!(columns.len(), 12);
    for (i, column) in columns.iter().enumerate() {
        assert!(
            column.answer().is_some(),
            "column {} has no answer: {:?}",
            i + 1,
            column.call
        );
    }
    eprintln!(
        "12 columns: {:.3} s wall, {} frames",
        run.wall.as_secs_f64(),
        run.stats.frames
    );
    assert!(run.wall < Duration::from_millis(1600), "{:?}", run.wall);
    // The spinners tick ten times a second while the calls run.
    assert!(run.stats.frames >= 10, "{} frames", run.stats.frames);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_the_service_eight_run_at_once_and_four_queue() {
    let run = run_twelve(false, None, Duration::from_millis(2800)).await;
    assert!(run.app.compare.columns.iter().all(|c| c.answer().is_some()));
    eprintln!(
        "12 columns, 8 at once: {:.3} s wall",
        run.wall.as_secs_f64()
    );
    // Two waves of one second each.
    assert!(run.wall >= Duration::from_secs(2), "{:?}", run.wall);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_overview_lands_as_an_answer_beside_a_model_and_the_matrix_counts_it() {
    // The brands come from a workspace file, read at start as the app reads it.
    let folder = tempfile::tempdir().unwrap();
    let workspace = folder.path().join("vantage.toml");
    std::fs::write(
        &workspace,
        "[[brands]]\nname = \"Keen\"\n\n[[brands]]\nname = \"Switchback\"\ndomains = [\"switchbacktravel.com\"]\n",
    )
    .unwrap();
    let run = run_columns(true, None, Duration::from_millis(1550), |app| {
        app.brands_pane.explicit = Some(workspace.clone());
        app.compare.axes.models = vec![Model::Chatgpt];
        app.compare.axes.overview = true;
        app.compare.axes.locations = ["us:ny:New+York", "de::Berlin"]
            .map(|l| parse_location(l).unwrap())
            .to_vec();
    })
    .await;
    let columns = &run.app.compare.columns;
    assert_eq!(columns.len(), 4);
    assert_eq!(
        columns.iter().filter(|c| c.vantage.overview).count(),
        2,
        "an overview column per location"
    );
    for column in columns {
        let answer = column.answer().unwrap_or_else(|| {
            panic!(
                "{} has no answer: {:?}",
                column
                    .vantage
                    .label(vantage::present::compare::CompareMode::Answers),
                column.call
            )
        });
        assert!(!answer.plain_text.is_empty());
        if column.vantage.overview {
            assert!(!answer.sources.is_empty(), "the overview cites its pages");
        }
    }
    let matrix = &run.app.compare.brand_views.matrix;
    assert_eq!(matrix.len(), 2);
    for row in matrix {
        assert_eq!(row.columns.len(), 4);
        assert!(
            row.columns.iter().all(Option::is_some),
            "every column answered"
        );
    }
}
