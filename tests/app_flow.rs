//! The whole app on `TestBackend`: the real event loop, scripted key events, the simulator
//! over loopback.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use vantage::api::{Client, ClientSettings};

use common::{client, ctrl_c, key, scripted_events, tab_key, type_events};
use vantage::app::{App, Connection};
use vantage::sim::{SimConfig, Simulator};
use vantage::tui::{run_loop, test_runner};

fn connection(sim: Option<&Simulator>) -> Connection {
    Connection {
        demo: true,
        host: sim.map_or("127.0.0.1:1".to_string(), |s| s.addr().to_string()),
        token: sim.map(|_| "demo".to_string()),
        token_hint: "the config file".into(),
    }
}

fn screen(terminal: &Terminal<TestBackend>) -> String {
    terminal.backend().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_is_asked_and_its_answer_and_sources_reach_the_screen() {
    let sim = Simulator::start(SimConfig {
        latency_scale: 0.0,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let (mut runner, mut rx) = test_runner(client(&sim), data.path().to_path_buf());
    let mut app = App::new(connection(Some(&sim)), Instant::now());
    app.area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let (tx, events) = scripted_events();

    let driver = tokio::spawn(async move {
        type_events(&tx, "best hiking boots");
        // Choose Perplexity, which lists its sources, from the model picker.
        tx.send(key(KeyCode::Esc)).unwrap();
        tx.send(key(KeyCode::Char('m'))).unwrap();
        type_events(&tx, "perp");
        tx.send(key(KeyCode::Enter)).unwrap();
        tx.send(key(KeyCode::Char('c'))).unwrap();
        type_events(&tx, "germany");
        tx.send(key(KeyCode::Enter)).unwrap();
        tx.send(key(KeyCode::Char('t'))).unwrap();
        type_events(&tx, "berlin");
        tx.send(key(KeyCode::Enter)).unwrap();
        // Out of the prompt, Enter never sends; the form's own key does.
        tx.send(key(KeyCode::Char('R'))).unwrap();
        tx
    });
    let tx = driver.await.unwrap();

    // Run the loop until the answer lands, then look at Sources, then quit.
    let looped = tokio::spawn(async move {
        let stats = run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        (terminal, app, runner, stats)
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    // The simulator answers at once; give the loop time to draw the answer.
    tokio::time::sleep(Duration::from_millis(800)).await;
    tx.send(key(KeyCode::Char(']'))).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    tx.send(key(KeyCode::Char('o'))).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    tx.send(ctrl_c()).unwrap();
    let (terminal, app, runner, stats) = tokio::time::timeout_at(deadline.into(), looped)
        .await
        .expect("the loop ends on Ctrl+C")
        .unwrap();

    let answer = app.chat.answer.as_ref().expect("the answer landed");
    assert_eq!(
        answer.prepared.header.model,
        vantage::api::Model::Perplexity
    );
    assert_eq!(
        answer.prepared.request.location.city.as_deref(),
        Some("Berlin")
    );
    assert!(answer.prepared.sources.len() >= 3);
    let text = screen(&terminal);
    assert!(text.contains("Sources"), "{text}");
    assert!(text.contains("Perplexity · "), "{text}");
    assert!(text.contains("https://"), "{text}");
    assert!(text.contains("Berlin"), "{text}");
    assert_eq!(runner.opened, vec![answer.prepared.sources[0].url.clone()]);
    assert!(stats.frames >= 3);
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_means_no_redraws() {
    // No token: nothing is fetched at start, so nothing but keys could wake the loop.
    let client = Client::new(ClientSettings::new(
        "http://127.0.0.1:1",
        "http://127.0.0.1:1",
        None,
    ))
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let (mut runner, mut rx) = test_runner(client, data.path().to_path_buf());
    let mut app = App::new(connection(None), Instant::now());
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let (tx, events) = scripted_events();
    let looped = tokio::spawn(async move {
        run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap()
    });
    tokio::time::sleep(Duration::from_secs(2)).await;
    tx.send(ctrl_c()).unwrap();
    let stats = looped.await.unwrap();
    // The workspace file is read once at start, off the UI task: its answer is one frame.
    assert_eq!(
        stats.frames, 2,
        "only the first frame and the workspace's over 2 s of idle"
    );
    assert_eq!(
        stats.messages, 2,
        "only the workspace file's reading and the quit key"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spinner_ticks_only_while_a_call_runs() {
    let sim = Simulator::start(SimConfig {
        fixed_latency: Some(Duration::from_millis(600)),
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let (mut runner, mut rx) = test_runner(client(&sim), data.path().to_path_buf());
    let mut app = App::new(connection(Some(&sim)), Instant::now());
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let (tx, events) = scripted_events();
    type_events(&tx, "hello");
    tx.send(key(KeyCode::Enter)).unwrap();
    let looped = tokio::spawn(async move {
        let stats = run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        (app, stats)
    });
    // While the call runs (600 ms) the spinner redraws about ten times a second; after
    // it lands, a second of idle adds nothing.
    tokio::time::sleep(Duration::from_millis(2000)).await;
    tx.send(ctrl_c()).unwrap();
    let (app, stats) = looped.await.unwrap();
    assert!(app.chat.answer.is_some());
    assert!(
        (4..=20).contains(&stats.frames),
        "frames while animating then idle: {}",
        stats.frames
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_through_the_socks5_proxy_from_germany_shows_its_exit() {
    let sim = Simulator::start(SimConfig {
        latency_scale: 0.0,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let (mut runner, mut rx) = test_runner(client(&sim), data.path().to_path_buf());
    let defaults = vantage::tui::demo_proxy_defaults(&sim);
    runner.set_proxy_endpoints(defaults.endpoints.clone());
    let mut app = App::new(connection(Some(&sim)), Instant::now());
    app.proxy = vantage::app::proxy::ProxyState::new(defaults);
    app.area = ratatui::layout::Rect::new(0, 0, 100, 30);
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    let (tx, events) = scripted_events();

    tx.send(tab_key(vantage::app::Tab::Proxy)).unwrap();
    // HTTPS → HTTP → SOCKS5; Germany from the country picker; a session typed.
    type_events(&tx, "pp");
    tx.send(key(KeyCode::Char('c'))).unwrap();
    type_events(&tx, "germany");
    tx.send(key(KeyCode::Enter)).unwrap();
    tx.send(key(KeyCode::Char('S'))).unwrap();
    type_events(&tx, "flow-1");
    tx.send(key(KeyCode::Enter)).unwrap();
    tx.send(key(KeyCode::Enter)).unwrap();
    let looped = tokio::spawn(async move {
        run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        (terminal, app)
    });
    tokio::time::sleep(Duration::from_millis(1500)).await;
    tx.send(ctrl_c()).unwrap();
    let (terminal, app) = tokio::time::timeout(Duration::from_secs(20), looped)
        .await
        .expect("the loop ends on Ctrl+C")
        .unwrap();

    let response = app.proxy.response.as_ref().expect("the response landed");
    let r = &response.prepared.response;
    assert_eq!(r.status, 200);
    assert_eq!(r.exit.country.as_deref(), Some("DE"));
    assert_eq!(r.username, "demo-user-country-DE-session-flow%2D1");
    assert!(r.proxy_url.starts_with("socks5h://127.0.0.1:"));
    let text = screen(&terminal);
    assert!(text.contains("200 · "), "{text}");
    assert!(text.contains("X-Exit-Country DE"), "{text}");
    assert!(
        text.contains("sends as demo-user-country-DE-session-flow%2D1"),
        "{text}"
    );
    sim.shutdown().await;
}

/// Ctrl+C ends the app within a second whatever is loading: a load on the blocking pool
/// that never ends (holding the store, as the Track tab's load of a year of runs did) is not
/// waited for, a loader reading the store page after page has its reads refused, and the
/// runtime ends without waiting for either.
#[test]
fn ctrl_c_ends_the_app_within_a_second_whatever_is_loading() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use vantage::store::{Store, StoreOptions};

    let data = tempfile::tempdir().unwrap();
    let path = data.path().to_path_buf();
    let reader_ended = Arc::new(AtomicBool::new(false));
    let ended = Arc::clone(&reader_ended);
    let quit = vantage::runtime::block_on(async move {
        let store = Store::open_in(&path, StoreOptions::default()).unwrap();
        let client = Client::new(ClientSettings::new(
            "http://127.0.0.1:1",
            "http://127.0.0.1:1",
            None,
        ))
        .unwrap();
        let (mut runner, mut rx) = test_runner(client, path.clone());
        runner.set_store(Some(store.clone()));
        let held = store.clone();
        tokio::task::spawn_blocking(move || {
            let _held = held;
            loop {
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let reader = store.clone();
        tokio::task::spawn_blocking(move || {
            while reader.history(10, 0).is_ok() {
                std::thread::sleep(Duration::from_millis(1));
            }
            ended.store(true, Ordering::SeqCst);
        });
        drop(store);
        let mut app = App::new(connection(None), Instant::now());
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let (tx, events) = scripted_events();
        let looped = tokio::spawn(async move {
            run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
                .await
                .unwrap();
            runner.close().await;
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        let quit = Instant::now();
        tx.send(ctrl_c()).unwrap();
        looped.await.unwrap();
        quit
    })
    .unwrap();
    assert!(
        quit.elapsed() < Duration::from_secs(1),
        "the app ended {:?} after Ctrl+C",
        quit.elapsed()
    );
    let waiting = Instant::now();
    while !reader_ended.load(Ordering::SeqCst) {
        assert!(
            waiting.elapsed() < Duration::from_secs(1),
            "the loader's reads go on"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}
