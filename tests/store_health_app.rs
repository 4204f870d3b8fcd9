//! The app when its database stops taking writes mid-session: the start-up check runs
//! without blocking, its finding reaches the app as one message, the app says the store's
//! sentence and goes memory-only, and nothing more is written to the file.

mod common;

use common::damage_middle_pages;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use vantage::api::{AiRequest, JobId, SearchRequest};
use vantage::app::{App, Connection, FlashLevel, Msg, update};
use vantage::store::{Body, DB_FILE, NewJob, RequestParams, Store, StoreOptions, now_ms};

fn app() -> App {
    App::new(
        Connection {
            demo: true,
            host: "127.0.0.1:1".into(),
            token: Some("demo".into()),
            token_hint: "the config file".into(),
        },
        Instant::now(),
    )
}

#[test]
fn an_unwritable_store_is_said_and_the_session_goes_memory_only() {
    let mut app = app();
    assert!(app.jobs.memory_only.is_none());
    let sentence = "The history database /d/vantage.db is damaged (disk image is malformed), so vantage writes nothing more to it.";
    let effects = update(&mut app, Msg::StoreUnwritable(sentence.to_string()));
    assert!(effects.is_empty(), "nothing to do but say it");
    assert_eq!(app.jobs.memory_only.as_deref(), Some(sentence));
    let flash = app.flash.as_ref().expect("a flash");
    assert_eq!(flash.level, FlashLevel::Error);
    assert!(flash.text.starts_with(sentence), "{}", flash.text);
    assert!(flash.text.contains("memory only"), "{}", flash.text);
}

/// A closed database big enough to damage in its middle, built on a thread of its own as it
/// blocks on the writes.
fn filled_database(folder: &Path) -> PathBuf {
    let folder = folder.to_path_buf();
    std::thread::spawn(move || {
        let store = Store::open_in(&folder, StoreOptions::default()).expect("store");
        for n in 0..300 {
            let (id, _) =
                store.add_request(RequestParams::Search(SearchRequest::new(format!("q{n}"))));
            let body = Body {
                status: 200,
                text: "answer text ".repeat(150),
                elapsed_ms: 10,
                received_at: now_ms(),
            };
            store.add_response(&id, body).detach();
        }
        store.flush().wait().expect("written");
        folder.join(DB_FILE)
    })
    .join()
    .expect("filled")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_start_up_check_finds_damage_and_tells_the_app_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = filled_database(dir.path());
    damage_middle_pages(&path);
    let before = std::fs::read(&path).expect("read");

    let store = Store::open_in(dir.path(), StoreOptions::default()).expect("the header is whole");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let started = Instant::now();
    vantage::tui::watch_store(&store, tx);
    assert!(
        started.elapsed() < Duration::from_millis(200),
        "the check does not block"
    );
    let message = tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .expect("the check answers")
        .expect("a message");
    let Msg::StoreUnwritable(sentence) = message else {
        panic!("another message");
    };
    assert!(sentence.contains("damaged"), "{sentence}");
    assert!(sentence.contains(&path.display().to_string()), "{sentence}");

    let mut app = app();
    update(&mut app, Msg::StoreUnwritable(sentence));
    assert!(app.jobs.memory_only.is_some());

    let id = JobId::parse("00000000-0000-4000-8000-000000000077").expect("id");
    let refused = store
        .record_job(NewJob::submitted(
            id,
            RequestParams::Ai(AiRequest::new("after")),
        ))
        .await;
    assert!(refused.is_err(), "no write after the damage is found");
    drop(store);
    assert_eq!(
        std::fs::read(&path).expect("read"),
        before,
        "file unchanged"
    );
    // The watch ends after its one message, closing the channel.
    let after = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await;
    assert!(matches!(after, Ok(None)), "said once");
}
