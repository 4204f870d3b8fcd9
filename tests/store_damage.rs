//! The store on an unlucky machine: a database it may only read, a file with damaged pages,
//! a file that is not a database. Each gives a sentence naming the file and what to do,
//! reads keep working where they can, and the file's bytes never change.

use std::path::Path;

use vantage::api::{AiRequest, JobId, SearchRequest};
use vantage::store::{
    Body, DB_FILE, Health, NewJob, RequestParams, Store, StoreError, StoreOptions, now_ms,
};

const ENTRIES: usize = 400;
const PAGE: usize = 4096;

fn body(n: usize) -> Body {
    Body {
        status: 200,
        text: format!(
            "{{\"completion\":\"{}\"}}",
            "answer text ".repeat(150 + n % 7)
        ),
        elapsed_ms: 10,
        received_at: now_ms(),
    }
}

fn job_id(n: u32) -> JobId {
    JobId::parse(&format!("00000000-0000-4000-8000-{n:012}")).unwrap()
}

/// A closed database with `ENTRIES` history entries and a job. Built on a thread of its
/// own, as it blocks on the writes.
fn filled(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let folder = dir.path().to_path_buf();
    std::thread::spawn(move || fill(&folder)).join().unwrap();
    dir.path().join(DB_FILE)
}

fn fill(folder: &Path) {
    let store = Store::open_in(folder, StoreOptions::default()).unwrap();
    for n in 0..ENTRIES {
        let (id, _) = store.add_request(RequestParams::Search(SearchRequest::new(format!("q{n}"))));
        store.add_response(&id, body(n)).detach();
    }
    store
        .record_job(NewJob::submitted(
            job_id(1),
            RequestParams::Ai(AiRequest::new("kept")),
        ))
        .wait()
        .unwrap();
}

/// Overwrites whole pages in the middle of the file with pseudo-random bytes.
fn damage_middle_pages(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let pages = bytes.len() / PAGE;
    assert!(
        pages > 40,
        "a file of {pages} pages is too small to damage in the middle"
    );
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for page in pages * 2 / 5..pages * 2 / 5 + 6 {
        for byte in &mut bytes[page * PAGE..(page + 1) * PAGE] {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            *byte = (seed >> 33) as u8;
        }
    }
    std::fs::write(path, bytes).unwrap();
}

fn damaged_sentence(error: &StoreError, path: &Path) {
    assert!(matches!(error, StoreError::Damaged { .. }), "{error:?}");
    let sentence = error.to_string();
    assert!(sentence.contains(&path.display().to_string()), "{sentence}");
    assert!(sentence.contains("vantage store check"), "{sentence}");
    assert!(sentence.contains("vantage store recover"), "{sentence}");
}

#[tokio::test]
async fn a_read_only_database_is_read_and_refuses_writes_with_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let path = filled(&dir);
    let before = std::fs::read(&path).unwrap();

    let store = Store::open_read_only(&path).unwrap();
    assert!(matches!(store.health(), Health::ReadOnly { .. }));
    assert_eq!(store.list_jobs().unwrap().len(), 1, "jobs list");
    assert_eq!(store.history_len().unwrap(), ENTRIES);
    assert_eq!(store.history(5, 0).unwrap().len(), 5, "History");
    let error = store
        .record_job(NewJob::submitted(
            job_id(2),
            RequestParams::Ai(AiRequest::new("new")),
        ))
        .await
        .unwrap_err();
    assert!(matches!(error, StoreError::ReadOnly { .. }), "{error:?}");
    let sentence = error.to_string();
    assert!(sentence.contains(&path.display().to_string()), "{sentence}");
    assert!(sentence.contains("VANTAGE_DATA_DIR"), "{sentence}");
    assert!(store.clear_history().await.is_err());
    store
        .flush()
        .await
        .expect("nothing queued, nothing pending");
    store.quick_check().await.expect("a whole file");
    drop(store);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is unchanged"
    );
}

#[tokio::test]
async fn damaged_pages_are_found_by_the_check_and_nothing_more_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = filled(&dir);
    damage_middle_pages(&path);
    let before = std::fs::read(&path).unwrap();

    let store = Store::open_in(dir.path(), StoreOptions::default()).expect("the header is whole");
    let mut health = store.watch_health();
    let error = store.quick_check().await.unwrap_err();
    damaged_sentence(&error, &path);
    assert!(matches!(store.health(), Health::Damaged { .. }));
    assert!(health.has_changed().unwrap(), "watchers hear of it");
    assert!(matches!(
        *health.borrow_and_update(),
        Health::Damaged { .. }
    ));

    let error = store
        .record_job(NewJob::submitted(
            job_id(2),
            RequestParams::Ai(AiRequest::new("after")),
        ))
        .await
        .unwrap_err();
    damaged_sentence(&error, &path);
    let (_, ack) = store.add_request(RequestParams::Search(SearchRequest::new("after")));
    damaged_sentence(&ack.await.unwrap_err(), &path);
    assert_eq!(
        store.list_jobs().unwrap().len(),
        1,
        "undamaged tables still read"
    );
    drop(store);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is unchanged"
    );
}

#[tokio::test]
async fn damage_met_by_any_statement_stops_the_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = filled(&dir);
    damage_middle_pages(&path);
    let before = std::fs::read(&path).unwrap();

    let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
    // Reading every entry with its response walks over the damaged pages.
    let read_everything = (|| -> Result<(), StoreError> {
        for item in store.history(ENTRIES, 0)? {
            store.history_entry(&item.id)?;
        }
        Ok(())
    })();
    damaged_sentence(&read_everything.unwrap_err(), &path);
    assert!(matches!(store.health(), Health::Damaged { .. }));
    let (_, ack) = store.add_request(RequestParams::Search(SearchRequest::new("after")));
    damaged_sentence(&ack.await.unwrap_err(), &path);
    drop(store);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is unchanged"
    );
}

#[test]
fn check_reports_the_damage_and_recover_copies_what_can_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = filled(&dir);
    assert!(Store::check(&path).unwrap().is_whole());
    damage_middle_pages(&path);
    let before = std::fs::read(&path).unwrap();

    let report = Store::check(&path).unwrap();
    assert!(!report.is_whole());
    assert!(!report.problems.is_empty());

    let recovered = Store::recover(&path).unwrap();
    assert_eq!(recovered.path, path);
    assert!(!recovered.whole, "the damaged file cannot be copied whole");
    assert_eq!(
        std::fs::read(&recovered.aside).unwrap(),
        before,
        "the old file is kept aside as it was"
    );
    assert!(Store::check(&path).unwrap().is_whole());
    let copied = |table: &str| {
        recovered
            .tables
            .iter()
            .find(|t| t.table == table)
            .map(|t| (t.kept, t.lost))
            .unwrap()
    };
    let (requests, requests_lost) = copied("requests");
    let (responses, responses_lost) = copied("responses");
    assert!(requests > 0 && responses > 0, "{recovered:?}");
    assert!(
        responses < ENTRIES as u64 || requests < ENTRIES as u64,
        "{recovered:?}"
    );
    // The indexes still count what the damaged pages held.
    assert_eq!(
        requests + requests_lost.unwrap(),
        ENTRIES as u64,
        "{recovered:?}"
    );
    assert_eq!(
        responses + responses_lost.unwrap(),
        ENTRIES as u64,
        "{recovered:?}"
    );
    assert_eq!(copied("jobs"), (1, Some(0)), "{recovered:?}");

    let store = Store::open(&path, StoreOptions::default()).unwrap();
    assert_eq!(store.history_len().unwrap() as u64, requests);
    assert_eq!(store.list_jobs().unwrap().len(), 1);
}

#[test]
fn a_whole_file_is_recovered_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = filled(&dir);
    let recovered = Store::recover(&path).unwrap();
    assert!(recovered.whole);
    let store = Store::open(&path, StoreOptions::default()).unwrap();
    assert_eq!(store.history_len().unwrap(), ENTRIES);
}

#[test]
fn a_file_that_is_not_a_database_is_named_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    let garbage: Vec<u8> = (0..20_000u32).map(|n| (n * 7 % 251) as u8).collect();
    std::fs::write(&path, &garbage).unwrap();
    let error = Store::open_in(dir.path(), StoreOptions::default()).unwrap_err();
    damaged_sentence(&error, &path);
    let report = Store::check(&path).unwrap();
    assert!(!report.is_whole());
    assert_eq!(std::fs::read(&path).unwrap(), garbage);
}

/// Root writes any file, so the refusal is made with a folder where SQLite's journal goes:
/// the database can then be read but not written, by anyone.
#[tokio::test]
async fn a_database_whose_journal_cannot_be_made_is_opened_for_reading() {
    let dir = tempfile::tempdir().unwrap();
    let path = filled(&dir);
    std::fs::create_dir(dir.path().join(format!("{DB_FILE}-wal"))).unwrap();
    let before = std::fs::read(&path).unwrap();

    let store = Store::open_in(dir.path(), StoreOptions::default()).expect("opened to read");
    assert!(
        matches!(store.health(), Health::ReadOnly { .. }),
        "{:?}",
        store.health()
    );
    assert_eq!(store.list_jobs().unwrap().len(), 1);
    assert_eq!(store.history_len().unwrap(), ENTRIES);
    let (_, ack) = store.add_request(RequestParams::Search(SearchRequest::new("new")));
    let error = ack.await.unwrap_err();
    assert!(matches!(error, StoreError::ReadOnly { .. }), "{error:?}");
    assert!(error.to_string().contains(&path.display().to_string()));
    drop(store);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is unchanged"
    );
}
