//! The store over a real SQLite file: history, jobs, devices, migrations, the writer's
//! batching and durability, and the token never reaching the disk.

use std::time::Duration;

use vantage::api::{AiRequest, Client, ClientSettings, JobId, JobKind, SearchRequest, Secret};
use vantage::jobs::{JobState, PollOutcome, Scheduler, TrackedJob};
use vantage::sim::{SimConfig, Simulator};
use vantage::store::{
    Body, DB_FILE, NewJob, RequestKind, RequestParams, SCHEMA_VERSION, Store, StoreError,
    StoreOptions, now_ms,
};

fn open(dir: &tempfile::TempDir) -> Store {
    Store::open_in(dir.path(), StoreOptions::default()).expect("store opens")
}

fn body(text: &str) -> Body {
    Body {
        status: 200,
        text: text.to_string(),
        elapsed_ms: 1234,
        received_at: now_ms(),
    }
}

fn job_id(n: u32) -> JobId {
    JobId::parse(&format!("00000000-0000-4000-8000-{n:012}")).unwrap()
}

#[test]
fn store_is_a_cheap_send_sync_handle() {
    fn assert_send_sync<T: Send + Sync + Clone + 'static>() {}
    assert_send_sync::<Store>();
}

#[test]
fn history_round_trips_and_deletes() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut ai = AiRequest::new("best hiking boots");
    ai.location.country = Some("US".into());
    let (first, _) = store.add_request(RequestParams::Ai(ai.clone()));
    store
        .add_response(&first, body("{\"completion\":\"<p>hi</p>\"}"))
        .detach();
    let (second, ack) = store.add_request(RequestParams::Search(SearchRequest::new("boots")));
    ack.wait().unwrap();

    let items = store.history(10, 0).unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].id, second, "newest first");
    assert_eq!(items[0].kind, RequestKind::Search);
    assert_eq!(items[0].status, None, "no response yet");
    assert_eq!(items[1].status, Some(200));
    assert_eq!(items[1].size, Some(26));
    assert_eq!(items[1].summary, ai.summary());
    assert_eq!(store.history(10, 1).unwrap().len(), 1);
    assert_eq!(store.history_len().unwrap(), 2);

    let entry = store.history_entry(&first).unwrap().unwrap();
    assert_eq!(entry.request, RequestParams::Ai(ai));
    let response = entry.response.unwrap();
    assert_eq!(response.text, "{\"completion\":\"<p>hi</p>\"}");
    assert_eq!(response.elapsed_ms, 1234);

    store.delete_history(&first).wait().unwrap();
    assert!(store.history_entry(&first).unwrap().is_none());
    assert_eq!(store.history_len().unwrap(), 1);
    store.clear_history().wait().unwrap();
    assert_eq!(store.history_len().unwrap(), 0);
}

#[test]
fn history_keeps_only_the_newest_entries() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(
        dir.path(),
        StoreOptions {
            history_max_entries: 5,
            ..StoreOptions::default()
        },
    )
    .unwrap();
    let mut ids = Vec::new();
    for n in 0..12 {
        let (id, _) = store.add_request(RequestParams::Search(SearchRequest::new(format!("q{n}"))));
        store.add_response(&id, body("x")).detach();
        ids.push(id);
    }
    store.flush().wait().unwrap();
    let kept: Vec<_> = store
        .history(100, 0)
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    let newest: Vec<_> = ids.iter().rev().take(5).cloned().collect();
    assert_eq!(kept, newest);
    store.set_history_limit(2).wait().unwrap();
    assert_eq!(store.history_len().unwrap(), 2);
    // The responses of trimmed entries went with them.
    drop(store);
    let conn = rusqlite::Connection::open(dir.path().join(DB_FILE)).unwrap();
    let n: i64 = conn
        .query_row("SELECT count(*) FROM responses", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 2);
}

#[tokio::test]
async fn a_recorded_job_is_on_disk_when_the_await_resolves() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let id = job_id(1);
    let request = AiRequest::new("prompt one");
    store
        .record_job(NewJob::submitted(
            id.clone(),
            RequestParams::Ai(request.clone()),
        ))
        .await
        .unwrap();
    // Another connection (as another process would) sees it at once.
    let conn = rusqlite::Connection::open(dir.path().join(DB_FILE)).unwrap();
    let (state, kind, summary): (String, String, String) = conn
        .query_row(
            "SELECT state, kind, summary FROM jobs WHERE id = ?1",
            [id.as_str()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((state.as_str(), kind.as_str()), ("pending", "ai"));
    assert_eq!(summary, request.summary());
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");

    // Recording the same id again adds nothing.
    store
        .record_job(NewJob::submitted(
            id.clone(),
            RequestParams::Ai(request.clone()),
        ))
        .await
        .unwrap();
    assert_eq!(store.list_jobs().unwrap().len(), 1);
    let job = store.job(&id).unwrap().unwrap();
    assert_eq!(job.request, Some(RequestParams::Ai(request)));
    assert!(job.known);
    assert_eq!(job.attempts, 0);
    assert!(job.next_poll_at.unwrap() >= job.created_at + 2_000);
}

#[tokio::test]
async fn poll_results_are_stored_once_and_ended_jobs_stay_ended() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let (a, b) = (job_id(1), job_id(2));
    store
        .record_job(NewJob::submitted(
            a.clone(),
            RequestParams::Search(SearchRequest::new("x")),
        ))
        .await
        .unwrap();
    store
        .record_job(NewJob::imported(b.clone(), JobKind::Browser))
        .await
        .unwrap();

    let mut scheduler = Scheduler::new();
    for job in store.open_jobs().unwrap() {
        scheduler.insert(job.tracked(0));
    }
    let tickets = scheduler.due(now_ms());
    assert_eq!(tickets.len(), 2);
    let now = now_ms();
    let done = scheduler.complete(&a, &PollOutcome::Ready, now).unwrap();
    let unknown = scheduler.complete(&b, &PollOutcome::NotFound, now).unwrap();
    store
        .update_job(done.clone(), Some(body("RESULT-A")))
        .detach();
    // A second result for the same job (a duplicate poll) is not stored twice.
    store
        .update_job(done, Some(body("RESULT-A-AGAIN")))
        .detach();
    store.update_job(unknown, None).await.unwrap();

    let a_rec = store.job(&a).unwrap().unwrap();
    assert_eq!(a_rec.state, JobState::Done);
    assert_eq!(a_rec.result_size, Some(8));
    assert_eq!(a_rec.attempts, 1);
    assert_eq!(store.job_result(&a).unwrap().unwrap().text, "RESULT-A");
    let b_rec = store.job(&b).unwrap().unwrap();
    assert_eq!(b_rec.state, JobState::Error);
    assert_eq!(b_rec.last_error.as_deref(), Some("unknown job"));
    assert!(store.job_result(&b).unwrap().is_none());

    let events = store.job_events(&a).unwrap();
    let steps: Vec<_> = events.iter().map(|e| (e.from, e.to)).collect();
    assert_eq!(
        steps,
        vec![
            (None, JobState::Pending),
            (Some(JobState::Pending), JobState::Done)
        ]
    );
    assert_eq!(events[0].note.as_deref(), Some("submitted"));

    // A late poll saying pending does not bring a done job back.
    let mut s2 = Scheduler::new();
    s2.insert(TrackedJob::submitted(a.clone(), JobKind::Search, 0));
    s2.due(10_000);
    let pending_again = s2.complete(&a, &PollOutcome::Pending, 10_000).unwrap();
    store.update_job(pending_again, None).await.unwrap();
    assert_eq!(store.job(&a).unwrap().unwrap().state, JobState::Done);
    assert_eq!(store.open_jobs().unwrap().len(), 1);
    assert_eq!(store.jobs_in(&[JobState::Done]).unwrap().len(), 1);

    store.delete_job(&a).await.unwrap();
    assert!(store.job(&a).unwrap().is_none());
    assert!(store.job_result(&a).unwrap().is_none());
    assert!(store.job_events(&a).unwrap().is_empty());
}

/// A queued job's History entry took from its submission to its result, not the last
/// poll's few milliseconds ("took 0.0 s").
#[tokio::test]
async fn a_jobs_history_entry_took_from_submission_to_result() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let (entry, _) = store.add_request(RequestParams::Ai(AiRequest::new("boots")));
    let id = job_id(7);
    let mut job = NewJob::submitted(id.clone(), RequestParams::Ai(AiRequest::new("boots")));
    job.entry = Some(entry.clone());
    store.record_job(job).await.unwrap();
    let mut scheduler = Scheduler::new();
    scheduler.insert(TrackedJob::submitted(id.clone(), JobKind::Ai, 0));
    scheduler.due(now_ms());
    let done = scheduler
        .complete(&id, &PollOutcome::Ready, now_ms())
        .unwrap();
    // The result came 95 s after the submission; its poll took 1.2 s.
    let mut result = body("ANSWER");
    result.received_at = now_ms() + 95_000;
    store.update_job(done, Some(result)).await.unwrap();
    let item = store
        .history(10, 0)
        .unwrap()
        .into_iter()
        .find(|item| item.id == entry)
        .unwrap();
    let took = item.elapsed_ms.expect("answered");
    assert!((95_000..100_000).contains(&took), "took {took} ms");
    // The job's own result keeps the poll's time.
    assert_eq!(store.job_result(&id).unwrap().unwrap().elapsed_ms, 1234);
}

/// A view of the jobs reads every open job and the newest others only, however many are
/// stored; the counts by state are of all of them.
#[tokio::test]
async fn recent_jobs_are_the_open_ones_and_the_newest_others() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    for n in 1..=30 {
        store
            .record_job(NewJob::submitted(
                job_id(n),
                RequestParams::Search(SearchRequest::new(format!("q{n}"))),
            ))
            .await
            .unwrap();
    }
    // All but the two oldest and the newest end.
    for n in 3..30 {
        let mut scheduler = Scheduler::new();
        scheduler.insert(TrackedJob::submitted(job_id(n), JobKind::Search, 0));
        scheduler.due(now_ms());
        let done = scheduler
            .complete(&job_id(n), &PollOutcome::Ready, now_ms())
            .unwrap();
        store.update_job(done, Some(body("R"))).await.unwrap();
    }
    let recent = store.recent_jobs(5).unwrap();
    let ids: Vec<JobId> = recent.iter().map(|j| j.id.clone()).collect();
    let mut expected: Vec<JobId> = (26..=30).rev().map(job_id).collect();
    expected.extend([job_id(2), job_id(1)]);
    assert_eq!(
        ids, expected,
        "newest first: the five newest, then the open older ones"
    );
    let mut counts = store.job_counts().unwrap();
    counts.sort_by_key(|(state, _)| state.as_str().to_string());
    assert_eq!(counts, vec![(JobState::Done, 27), (JobState::Pending, 3)]);
}

#[test]
fn devices_are_cached_per_list() {
    use vantage::devices::DeviceList;
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    assert!(store.load_devices(DeviceList::Ai).unwrap().is_none());
    store
        .save_devices(DeviceList::Ai, vec!["iPhone 15".into(), "Pixel 8".into()])
        .wait()
        .unwrap();
    store
        .save_devices(DeviceList::Ai, vec!["Galaxy S24".into()])
        .wait()
        .unwrap();
    store
        .save_devices(DeviceList::Search, vec!["iPhone 15".into()])
        .wait()
        .unwrap();
    let devices = store.load_devices(DeviceList::Ai).unwrap().unwrap();
    assert_eq!(devices.names, vec!["Galaxy S24"]);
    assert!(devices.fetched_at > 0);
    let search = store.load_devices(DeviceList::Search).unwrap().unwrap();
    assert_eq!(search.names, vec!["iPhone 15"]);
}

#[test]
fn a_version_zero_file_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept');")
            .unwrap();
        let v: u32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, 0);
    }
    let store = Store::open(&path, StoreOptions::default()).unwrap();
    store
        .record_job(NewJob::imported(job_id(3), JobKind::Ai))
        .wait()
        .unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: u32 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
    for table in [
        "requests",
        "responses",
        "jobs",
        "job_results",
        "job_events",
        "devices",
    ] {
        let n: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [table],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 1, "{table}");
    }
    let kept: String = conn
        .query_row("SELECT text FROM notes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kept, "kept");
    // Opening again migrates nothing and keeps the data.
    let store = Store::open(&path, StoreOptions::default()).unwrap();
    assert_eq!(store.list_jobs().unwrap().len(), 1);
}

#[test]
fn a_file_from_a_newer_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 7)
            .unwrap();
    }
    let error = Store::open(&path, StoreOptions::default()).unwrap_err();
    assert!(
        matches!(error, StoreError::TooNew { found, supported, .. }
            if found == SCHEMA_VERSION + 7 && supported == SCHEMA_VERSION),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains("newer vantage"), "{message}");
    assert!(message.contains("VANTAGE_DATA_DIR"), "{message}");
}

#[test]
fn many_writers_are_batched_and_none_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let store = store.clone();
            std::thread::spawn(move || {
                for n in 0..250u32 {
                    store
                        .record_job(NewJob::imported(job_id(t * 1000 + n), JobKind::Ai))
                        .detach();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    store.flush().wait().unwrap();
    assert_eq!(store.list_jobs().unwrap().len(), 1000);
    drop(store);
    // Dropping the last handle finished the queue and folded the WAL back in.
    let wal = dir.path().join(format!("{DB_FILE}-wal"));
    assert!(
        std::fs::metadata(&wal)
            .map(|m| m.len() == 0)
            .unwrap_or(true)
    );
}

#[tokio::test]
async fn reads_run_from_blocking_threads() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    for n in 0..20 {
        store
            .record_job(NewJob::imported(job_id(n), JobKind::Search))
            .detach();
    }
    store.flush().await.unwrap();
    let readers: Vec<_> = (0..6)
        .map(|_| {
            let store = store.clone();
            tokio::task::spawn_blocking(move || store.list_jobs().map(|jobs| jobs.len()))
        })
        .collect();
    for reader in readers {
        assert_eq!(reader.await.unwrap().unwrap(), 20);
    }
}

/// A session of every kind of write, with a token the simulator accepts; then the bytes of
/// the database and its WAL are searched for the token.
#[tokio::test]
async fn the_token_never_reaches_the_database() {
    const TOKEN: &str = "tok-Zq81-secret-never-stored-5fa0";
    let sim = Simulator::start(SimConfig {
        token: TOKEN.to_string(),
        latency_scale: 0.0,
        job_pending: Duration::from_millis(0),
        job_fail_share: 0.0,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let client = Client::new(ClientSettings::new(
        &sim.url(),
        &sim.url(),
        Secret::new(TOKEN),
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);

    let ai = AiRequest::new("what boots for the alps");
    let fetched = client.ai(&ai).await.unwrap();
    let (entry, _) = store.add_request(RequestParams::Ai(ai.clone()));
    store.add_response(&entry, Body::of(&fetched)).detach();
    let search = SearchRequest::new("alpine boots");
    let fetched = client.search(&search).await.unwrap();
    let (entry, _) = store.add_request(RequestParams::Search(search.clone()));
    store.add_response(&entry, Body::of(&fetched)).detach();
    let devices = client.devices().await.unwrap();
    store
        .save_devices(vantage::devices::DeviceList::Ai, devices.value)
        .detach();

    let id = client.ai_submit(&ai).await.unwrap();
    store
        .record_job(NewJob::submitted(id.clone(), RequestParams::Ai(ai)))
        .await
        .unwrap();
    let mut scheduler = Scheduler::new();
    scheduler.insert(store.job(&id).unwrap().unwrap().tracked(0));
    scheduler.due(now_ms());
    let polled = client
        .job(JobKind::Ai, &id, vantage::api::BodyAsked::Json)
        .await;
    let outcome = PollOutcome::of(&polled);
    assert_eq!(outcome, PollOutcome::Ready);
    let t = scheduler.complete(&id, &outcome, now_ms()).unwrap();
    store
        .update_job(t, polled.ok().map(|f| Body::of(&f)))
        .await
        .unwrap();
    assert!(store.job_result(&id).unwrap().unwrap().size() > 100);

    // Look while the WAL still holds the writes, and again after the store is closed.
    let scan = |label: &str| {
        for name in [DB_FILE.to_string(), format!("{DB_FILE}-wal")] {
            if let Ok(bytes) = std::fs::read(dir.path().join(&name)) {
                assert!(
                    !bytes.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes()),
                    "{label}: the token is in {name}"
                );
            }
        }
    };
    scan("open");
    drop(store);
    scan("closed");
    sim.shutdown().await;
}

#[test]
fn a_job_id_the_service_gives_twice_is_one_job_and_the_second_call_is_not_sent_again() {
    use vantage::store::{NewRun, RunId, TrackWrite};
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let run = RunId::new();
    let calls: Vec<RequestParams> = (0..2)
        .map(|n| RequestParams::Ai(AiRequest::new(format!("prompt {n}"))))
        .collect();
    store
        .track(TrackWrite::Plan(NewRun {
            id: run.clone(),
            set_name: "boots".to_string(),
            started_at: now_ms(),
            calls: calls.clone(),
        }))
        .wait()
        .unwrap();
    for (seq, call) in calls.into_iter().enumerate() {
        // The same id for both: a service that hands one out twice.
        let job = Box::new(NewJob::submitted(job_id(7), call));
        store
            .track(TrackWrite::Submitted {
                run: run.clone(),
                seq: seq as u32,
                job,
            })
            .wait()
            .expect("no UNIQUE constraint failure");
    }
    let items = store.track_items(&run).unwrap();
    assert_eq!(items[0].job_id, Some(job_id(7)));
    assert_eq!(items[1].job_id, None);
    let refused = items[1].refused.clone().unwrap_or_default();
    assert!(refused.contains("already given for call 0"), "{refused}");
    let runs = store.track_runs(Some("boots")).unwrap();
    assert!(
        runs[0].is_submitted(),
        "nothing is left to send, so nothing is billed again"
    );
    assert_eq!(store.list_jobs().unwrap().len(), 1);
}
