//! History entries of calls a process never finished: written before the call went out, the
//! process gone (killed, crashed) before an answer or a job id was stored. The next open of
//! the store ends each with a sentence, unless the process that wrote it is still running;
//! entries answered or queued as jobs are never touched.

use std::path::Path;

use vantage::api::{AiRequest, JobId, SearchRequest};
use vantage::store::{
    Body, DB_FILE, ENDED_UNANSWERED, EntryId, NewJob, RequestParams, Store, StoreOptions, now_ms,
};

fn open(dir: &Path) -> Store {
    Store::open_in(dir, StoreOptions::default()).unwrap()
}

fn raw(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join(DB_FILE)).unwrap()
}

/// A History entry written and committed, its call not answered.
fn call_out(store: &Store, words: &str) -> EntryId {
    let (id, ack) = store.add_request(RequestParams::Search(SearchRequest::new(words)));
    ack.wait().unwrap();
    id
}

fn response(store: &Store, id: &EntryId) -> Option<Body> {
    store.history_entry(id).unwrap().unwrap().response
}

fn ended(body: Option<Body>) -> bool {
    body.is_some_and(|b| b.status == 0 && b.text == ENDED_UNANSWERED)
}

#[test]
fn an_entry_whose_process_was_killed_is_ended_at_the_next_open() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = call_out(&store, "cut short");
    drop(store);
    // As a SIGKILL leaves it: the session's lock file still there, held by nobody.
    let session: String = raw(dir.path())
        .query_row("SELECT session FROM calls_out", [], |r| r.get(0))
        .unwrap();
    let lock = dir.path().join("sessions").join(format!("{session}.lock"));
    std::fs::write(&lock, b"").unwrap();

    let store = open(dir.path());
    assert!(ended(response(&store, &id)), "{:?}", response(&store, &id));
    assert!(!lock.exists(), "the dead session's lock file is cleared");
    let left: i64 = raw(dir.path())
        .query_row("SELECT count(*) FROM calls_out", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0);
    // History lists it as unanswered, and a search finds the sentence.
    let item = &store.history(10, 0).unwrap()[0];
    assert_eq!(item.status, Some(0));
    assert_eq!(
        store
            .search_history("process ended", None, 10, 0)
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn a_call_still_out_in_a_running_process_is_left_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let running = open(dir.path());
    let id = call_out(&running, "still out");
    let beside = open(dir.path());
    assert_eq!(
        response(&beside, &id),
        None,
        "its process still holds its lock"
    );
    drop(beside);
    // The process answers it after all.
    let answer = Body {
        status: 200,
        text: "{\"completion\":\"late\"}".to_string(),
        elapsed_ms: 5,
        received_at: now_ms(),
    };
    running.add_response(&id, answer.clone()).wait().unwrap();
    let other = call_out(&running, "never answered");
    drop(running);
    let next = open(dir.path());
    assert_eq!(response(&next, &id).map(|b| b.text), Some(answer.text));
    assert!(ended(response(&next, &other)));
}

#[test]
fn entries_answered_or_queued_as_jobs_are_never_ended() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let answered = call_out(&store, "answered");
    let failed = Body {
        status: 503,
        text: "busy".to_string(),
        elapsed_ms: 5,
        received_at: now_ms(),
    };
    store.add_response(&answered, failed).wait().unwrap();
    let request = RequestParams::Ai(AiRequest::new("queued"));
    let (queued, ack) = store.add_request(request.clone());
    ack.wait().unwrap();
    let job = JobId::parse("00000000-0000-4000-8000-000000000001").unwrap();
    store
        .record_job(NewJob::submitted(job, request).answering(queued.clone()))
        .wait()
        .unwrap();
    drop(store);

    let store = open(dir.path());
    assert_eq!(response(&store, &answered).map(|b| b.status), Some(503));
    assert_eq!(
        response(&store, &queued),
        None,
        "its job brings the answer whichever process polls it"
    );
}

#[test]
fn entries_an_earlier_build_left_waiting_are_ended_once_the_store_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = call_out(&store, "from before");
    drop(store);
    // The file as the build before sessions left it: no list of calls out.
    raw(dir.path())
        .execute_batch(
            "ALTER TABLE answer_reads DROP COLUMN as_text;
             ALTER TABLE track_run_counts DROP COLUMN done_answers;
             DROP TABLE track_imports;
             DROP TRIGGER calls_out_answered;
             DROP TRIGGER calls_out_queued;
             DROP TABLE calls_out;
             DROP TABLE grid_columns;
             DROP TABLE track_runs_imported;
             PRAGMA user_version = 9;",
        )
        .unwrap();
    let store = open(dir.path());
    assert!(ended(response(&store, &id)));
}
