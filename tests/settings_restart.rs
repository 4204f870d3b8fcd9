//! The settings a user chose come back after a restart: the real event loop writes them
//! beside the store, and start-up reads them before the first frame.

mod common;

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use common::view::{demo_connection, draw};
use common::{ctrl_c, key, scripted_events, tab_key, type_events};
use vantage::api::{Client, ClientSettings, Model, Secret};
use vantage::app::settings_memory::FILE_NAME;
use vantage::app::{App, Tab};
use vantage::present::compare::CompareMode;
use vantage::tui::{restore_settings, run_loop, test_runner};

/// One session of the app on `data`, fed these keys, until it quits.
async fn session(data: &std::path::Path, keys: impl FnOnce(&common::EventSender)) -> App {
    // No service is needed to choose settings; calls at start fail fast on a closed port.
    let client = Client::new(ClientSettings::new(
        "http://127.0.0.1:1",
        "http://127.0.0.1:1",
        Secret::new("test"),
    ))
    .unwrap();
    let (mut runner, mut rx) = test_runner(client, data.to_path_buf());
    let mut app = App::new(demo_connection(), Instant::now());
    restore_settings(&mut app, data);
    app.area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let (tx, events) = scripted_events();
    keys(&tx);
    tx.send(ctrl_c()).unwrap();
    tokio::time::timeout(
        Duration::from_secs(20),
        run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx),
    )
    .await
    .expect("the session quits")
    .unwrap();
    app
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_brings_back_the_model_location_and_compare_mode() {
    let data = tempfile::tempdir().unwrap();
    let first = session(data.path(), |tx| {
        tx.send(key(KeyCode::Esc)).unwrap();
        tx.send(key(KeyCode::Char('m'))).unwrap();
        type_events(tx, "gem");
        tx.send(key(KeyCode::Enter)).unwrap();
        tx.send(key(KeyCode::Char('c'))).unwrap();
        type_events(tx, "germany");
        tx.send(key(KeyCode::Enter)).unwrap();
        tx.send(key(KeyCode::Char('t'))).unwrap();
        type_events(tx, "berlin");
        tx.send(key(KeyCode::Enter)).unwrap();
        // Compare: search ranks rather than answers.
        tx.send(tab_key(Tab::Compare)).unwrap();
        tx.send(key(KeyCode::Esc)).unwrap();
        tx.send(key(KeyCode::Char('M'))).unwrap();
    })
    .await;
    assert_eq!(first.chat.settings.model, Some(Model::Gemini));
    assert_eq!(first.compare.mode, CompareMode::Search);
    assert!(
        data.path().join(FILE_NAME).exists(),
        "saved before quitting"
    );

    // The second session starts from the file alone.
    let mut second = session(data.path(), |tx| {
        tx.send(tab_key(Tab::Chat)).unwrap();
    })
    .await;
    assert_eq!(second.chat.settings, first.chat.settings);
    assert_eq!(second.chat.settings.location.country.as_deref(), Some("DE"));
    assert_eq!(second.compare.mode, CompareMode::Search);
    let screen = draw(&mut second, 80, 24);
    assert!(screen.contains("gemini"), "{screen}");
    assert!(screen.contains("Berlin"), "{screen}");
    assert!(second.flash.is_none(), "{:?}", second.flash);
}

#[test]
fn a_damaged_settings_file_is_set_aside_with_a_notice() {
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join(FILE_NAME), "{\"version\": 1, \"chat\": [").unwrap();
    let mut app = App::new(demo_connection(), Instant::now());
    restore_settings(&mut app, data.path());
    let flash = app.flash.clone().expect("a notice");
    assert!(flash.text.contains(FILE_NAME), "{}", flash.text);
    assert_eq!(app.chat.settings.model, None);
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("chatgpt"), "{screen}");
}
