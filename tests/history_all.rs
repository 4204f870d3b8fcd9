//! The History tab over a real store of 50,000 entries: it opens at its first page within
//! the budget, counts everything, and `/` finds an answer far older than the newest 2,000
//! (all the list once held) and opens it as any entry opens.

mod common;

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use vantage::api::{AiRequest, Client, ClientSettings};
use vantage::app::{App, Msg, Tab, update};
use vantage::store::{Body, RequestParams, Store, StoreOptions, now_ms};
use vantage::tui::{EffectRunner, test_runner};

const STORED: usize = 50_000;
/// History opens within this (issue 14).
const OPEN_BUDGET: Duration = Duration::from_millis(50);

fn seeded(dir: &std::path::Path) -> Store {
    let store = Store::open_in(
        dir,
        StoreOptions {
            history_max_entries: STORED,
            ..StoreOptions::default()
        },
    )
    .unwrap();
    for n in 0..STORED {
        // The oldest answer alone names a rare brand.
        let text = if n == 0 {
            "Try the Zamberlan Vioz for heavy loads."
        } else {
            "The Salomon X Ultra and the Merrell Moab lead."
        };
        let (id, _) = store.add_request(RequestParams::Ai(AiRequest::new(format!(
            "best hiking boots {n}"
        ))));
        let json = serde_json::json!({ "model": "chatgpt", "completion": text }).to_string();
        store
            .add_response(
                &id,
                Body {
                    status: 200,
                    text: json,
                    elapsed_ms: 1_000,
                    received_at: now_ms(),
                },
            )
            .detach();
    }
    store.flush().wait().unwrap();
    store
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Runs `effects` and feeds the one message they answer later back through `update`.
async fn settle(
    app: &mut App,
    runner: &mut EffectRunner,
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<Msg>,
    effects: Vec<vantage::app::Effect>,
) {
    runner.run_all(effects, app).await;
    // Until the answer lands (the store's version, read as the tab opens, may come first),
    // with its count.
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), rx.recv())
            .await
            .expect("the store answers")
            .expect("the channel is open");
        // A first page is counted apart, after it.
        let counted_after = matches!(&msg, Msg::HistoryPage(page) if page.request.count);
        let answer = !matches!(msg, Msg::StoreVersion(_)) && !counted_after;
        let more = update(app, msg);
        runner.run_all(more, app).await;
        if answer {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_opens_over_50000_entries_and_finds_the_oldest_through_search() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let path = dir.path().to_path_buf();
    let store = tokio::task::spawn_blocking(move || seeded(&path))
        .await
        .unwrap();
    eprintln!(
        "seeded {STORED} entries in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let client = Client::new(ClientSettings::new(
        "http://127.0.0.1:1",
        "http://127.0.0.1:1",
        None,
    ))
    .unwrap();
    // The app reads the stored jobs at start: the store has a reader open by then.
    store.list_jobs().unwrap();
    let (mut runner, mut rx) = test_runner(client, dir.path().to_path_buf());
    runner.set_store(Some(store));
    let mut app = App::new(common::view::demo_connection(), Instant::now());

    // Opening the tab reads its first page and the count. The fastest of three openings is
    // held to the budget, so a busy machine does not fail it: the very first read of a
    // reader just after 50,000 writes pays for the write-ahead log once.
    let mut openings = Vec::new();
    for _ in 0..3 {
        update(&mut app, key(KeyCode::Esc));
        let opened = Instant::now();
        let effects = app.select_tab(Tab::History);
        settle(&mut app, &mut runner, &mut rx, effects).await;
        openings.push(opened.elapsed());
        assert!(app.history.loaded);
        assert_eq!(app.history.total, STORED);
        assert_eq!(app.history.items.len(), vantage::app::history::PAGE);
        assert_eq!(
            app.history.selected().unwrap().summary,
            format!(
                "chatgpt · best hiking boots {} · random location",
                STORED - 1
            )
        );
    }
    eprintln!("History opened over {STORED} entries in {openings:?}");
    let fastest = openings.iter().min().copied().unwrap_or_default();
    assert!(fastest <= OPEN_BUDGET, "{openings:?}");

    // `/` searches every stored answer: the oldest entry, 49,999 below the newest.
    let effects = update(&mut app, key(KeyCode::Char('/')));
    assert!(effects.is_empty());
    for c in "zamberlan".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    let effects = update(&mut app, key(KeyCode::Enter));
    settle(&mut app, &mut runner, &mut rx, effects).await;
    assert_eq!(app.history.total, 1);
    assert_eq!(
        app.history.search_status().as_deref(),
        Some("1 of 50000 · zamberlan")
    );
    let found = app.history.selected().unwrap().clone();
    assert_eq!(
        found.summary,
        "chatgpt · best hiking boots 0 · random location"
    );
    // Enter opens it as any entry opens: the stored answer, in Chat, no call.
    let effects = update(&mut app, key(KeyCode::Enter));
    settle(&mut app, &mut runner, &mut rx, effects).await;
    assert_eq!(app.tab, Tab::Chat);
    let answer = app.chat.answer.as_ref().expect("the stored answer shows");
    assert!(answer.prepared.plain_text.contains("Zamberlan Vioz"));

    // Back in History the search is still applied; Esc goes back to every entry.
    let effects = app.select_tab(Tab::History);
    settle(&mut app, &mut runner, &mut rx, effects).await;
    assert_eq!(app.history.total, 1);
    let effects = update(&mut app, key(KeyCode::Esc));
    settle(&mut app, &mut runner, &mut rx, effects).await;
    assert_eq!(app.history.total, STORED);
    assert_eq!(app.history.search_status(), None);
}
