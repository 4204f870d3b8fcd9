//! `store recover` on generated damage: a store filled through the public API, then pages
//! zeroed or overwritten at many offsets, the file cut at many lengths, a file of random
//! bytes, an empty one. Each recovery ends within 10 s, keeps the damaged file aside as it
//! was, leaves a whole store in its place, and keeps every row a plain read of the damaged
//! file still gives (each row of a table `SELECT` reads to its end is in the new store, the
//! same), where the row still fits (a response whose request was lost does not).

use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, OpenFlags};
use vantage::api::{AiRequest, JobId, JobKind, SearchRequest};
use vantage::jobs::{JobState, Transition};
use vantage::store::{
    Body, DB_FILE, KEPT_TABLES, NewJob, NewRun, RecoverReport, RequestParams, RunId, Store,
    StoreOptions, TrackWrite, now_ms,
};

const PAGE: usize = 4096;
const ENTRIES: usize = 300;
/// History entries deleted after they were written: their rows linger on freed pages, and
/// must never come back.
const DELETED: usize = 40;
const JOBS: u32 = 40;
const RUN_CALLS: u32 = 20;
/// The bound the issue sets on each recovery.
const BOUND: Duration = Duration::from_secs(10);

fn job_id(n: u32) -> JobId {
    JobId::parse(&format!("00000000-0000-4000-8000-{n:012}")).unwrap()
}

fn body(text: String) -> Body {
    Body {
        status: 200,
        text,
        elapsed_ms: 12,
        received_at: now_ms(),
    }
}

/// The bytes of a closed store filled through the public API: History entries with answers
/// (every tenth long enough for overflow pages, some deleted since), queued jobs with
/// results, a tracking run with its calls and jobs, the device list and a webhook delivery.
/// Made once.
fn pristine() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().to_path_buf();
        std::thread::spawn(move || fill(&folder)).join().unwrap();
        std::fs::read(dir.path().join(DB_FILE)).unwrap()
    })
}

fn fill(folder: &Path) {
    let store = Store::open_in(folder, StoreOptions::default()).unwrap();
    let mut deleted = Vec::new();
    for n in 0..ENTRIES + DELETED {
        let (id, _) = store.add_request(RequestParams::Search(SearchRequest::new(format!(
            "hiking boots {n}"
        ))));
        let words = if n % 10 == 0 { 2_000 } else { 150 + n % 7 };
        let text = format!("{{\"completion\":\"{}\"}}", "answer text ".repeat(words));
        store.add_response(&id, body(text)).detach();
        if (100..100 + DELETED).contains(&n) {
            deleted.push(id);
        }
    }
    for n in 0..JOBS {
        let request = RequestParams::Ai(AiRequest::new(format!("job prompt {n}")));
        let (entry, _) = store.add_request(request.clone());
        let job = NewJob::submitted(job_id(n), request).answering(entry);
        store.record_job(job).wait().unwrap();
        let transition = Transition {
            id: job_id(n),
            kind: JobKind::Ai,
            from: JobState::Pending,
            to: JobState::Done,
            attempts: 1,
            polled_at: now_ms(),
            next_poll_at: None,
            known: true,
            error: None,
            parked: false,
        };
        let result = body(format!("{{\"completion\":\"job answer {n}\"}}"));
        store.update_job(transition, Some(result)).wait().unwrap();
    }
    let run = RunId::new();
    let calls = (0..RUN_CALLS)
        .map(|n| RequestParams::Ai(AiRequest::new(format!("run prompt {n}"))))
        .collect::<Vec<_>>();
    store
        .track(TrackWrite::Plan(NewRun {
            id: run.clone(),
            set_name: "boots".to_string(),
            started_at: now_ms(),
            calls: calls.clone(),
        }))
        .wait()
        .unwrap();
    for (seq, call) in calls.into_iter().enumerate().take(15) {
        let job = Box::new(NewJob::submitted(job_id(1_000 + seq as u32), call));
        store
            .track(TrackWrite::Submitted {
                run: run.clone(),
                seq: seq as u32,
                job,
            })
            .wait()
            .unwrap();
    }
    store
        .save_devices(
            vantage::devices::DeviceList::Ai,
            vec!["desktop".into(), "iphone".into()],
        )
        .wait()
        .unwrap();
    store
        .track(TrackWrite::Delivery {
            run,
            set_name: "boots".to_string(),
            payload: "{\"alerts\":[]}".to_string(),
            at: now_ms(),
            error: Some("no answer".to_string()),
        })
        .wait()
        .unwrap();
    // Last, so the pages they free are not used again.
    for id in deleted {
        store.delete_history(&id).wait().unwrap();
    }
}

/// A deterministic stream of bytes.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A table and its rows, each rowid first.
type TableRows = (&'static str, Vec<Vec<Value>>);

/// Each kept table's rows in the pristine store.
fn pristine_rows() -> &'static [TableRows] {
    static ROWS: OnceLock<Vec<TableRows>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DB_FILE);
        std::fs::write(&path, pristine()).unwrap();
        let conn = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        KEPT_TABLES
            .iter()
            .map(|table| {
                let mut statement = conn
                    .prepare(&format!("SELECT rowid, * FROM {table} ORDER BY rowid"))
                    .unwrap();
                let width = statement.column_count();
                let rows = statement
                    .query_map([], |row| values(row, width))
                    .unwrap()
                    .collect::<Result<Vec<_>, _>>()
                    .unwrap();
                (*table, rows)
            })
            .collect()
    })
}

/// The rows of the pristine store that a plain read of the damaged file at `path` still
/// gives as they were, each read on its own by its rowid. SQLite is asked to read a file
/// shorter than its header says as far as it goes, as a recovery does.
fn intact_rows(path: &Path) -> Vec<(&'static str, &'static [Value])> {
    let Ok(conn) = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY) else {
        return Vec::new();
    };
    if conn.pragma_update(None, "writable_schema", true).is_err() {
        return Vec::new();
    }
    let mut intact = Vec::new();
    for (table, rows) in pristine_rows() {
        let Ok(mut statement) =
            conn.prepare(&format!("SELECT rowid, * FROM {table} WHERE rowid = ?1"))
        else {
            continue;
        };
        for row in rows {
            let read = statement.query_row([&row[0]], |r| values(r, row.len()));
            if read.as_ref().ok() == Some(row) {
                intact.push((*table, row.as_slice()));
            }
        }
    }
    intact
}

/// A row's values; text that is not UTF-8 (noise) fails the read, as it would fail any
/// read of it as text.
fn values(row: &rusqlite::Row<'_>, width: usize) -> rusqlite::Result<Vec<Value>> {
    (0..width)
        .map(|i| match row.get_ref(i)? {
            ValueRef::Text(bytes) => std::str::from_utf8(bytes)
                .map(|text| Value::Text(text.to_string()))
                .map_err(rusqlite::Error::Utf8Error),
            other => Ok(Value::from(other)),
        })
        .collect()
}

/// The table a row of `table` needs in the new store, and the column holding its key.
fn parent(table: &str) -> Option<(&'static str, &'static str, usize)> {
    // (parent table, parent's key column, the child's column of it, rowid first)
    match table {
        "responses" => Some(("requests", "id", 1)),
        "job_results" => Some(("jobs", "id", 1)),
        "job_events" => Some(("jobs", "id", 2)),
        "track_items" | "track_imports" => Some(("track_runs", "id", 1)),
        _ => None,
    }
}

/// Damages a copy of the pristine store in a folder of its own, recovers it, and checks
/// what the issue asks of the recovery.
/// Returns the report with the folder holding the recovered store (gone when dropped).
fn recover_after(
    case: &str,
    damage: impl FnOnce(&mut Vec<u8>),
) -> (RecoverReport, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    let mut bytes = pristine().to_vec();
    damage(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let intact = intact_rows(&path);

    let started = Instant::now();
    let report = Store::recover(&path).unwrap_or_else(|e| panic!("{case}: {e}"));
    let took = started.elapsed();
    assert!(took < BOUND, "{case}: the recovery took {took:?}");
    assert_eq!(report.path, path, "{case}");
    assert_eq!(
        std::fs::read(&report.aside).unwrap(),
        bytes,
        "{case}: the damaged file is kept aside as it was"
    );
    assert!(
        Store::check(&path).unwrap().is_whole(),
        "{case}: the new store is whole"
    );
    let new = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let mut kept: Vec<(&str, u64)> = KEPT_TABLES.iter().map(|t| (*t, 0)).collect();
    for (table, row) in &intact {
        if let Some((parent, key, column)) = parent(table) {
            let here: bool = new
                .query_row(
                    &format!("SELECT EXISTS (SELECT 1 FROM {parent} WHERE {key} = ?1)"),
                    [&row[column]],
                    |r| r.get(0),
                )
                .unwrap();
            if !here {
                continue;
            }
        }
        let copy = new.query_row(
            &format!("SELECT rowid, * FROM {table} WHERE rowid = ?1"),
            [&row[0]],
            |r| values(r, row.len()),
        );
        match copy {
            Ok(copy) => assert_eq!(copy, *row, "{case}: {table} row kept the same"),
            Err(e) => panic!(
                "{case}: {table} row {:?} was readable and is lost ({e})",
                row[0]
            ),
        }
        if let Some((_, n)) = kept.iter_mut().find(|(t, _)| t == table) {
            *n += 1;
        }
    }
    for (table, n) in kept {
        let counted = report.tables.iter().find(|t| t.table == table).unwrap();
        assert!(counted.kept >= n, "{case}: {table}: {report:?}");
    }
    drop(new);
    // The new store opens (and migrates) like any other.
    let store = Store::open(&path, StoreOptions::default()).unwrap();
    let listed = report
        .tables
        .iter()
        .find(|t| t.table == "requests")
        .unwrap();
    assert_eq!(store.history_len().unwrap() as u64, listed.kept, "{case}");
    (report, dir)
}

fn pages() -> usize {
    pristine().len() / PAGE
}

/// Page numbers (from 0) spread over the file, the first pages and the last included.
fn spread(count: usize, seed: u64) -> Vec<usize> {
    let mut noise = Noise(seed);
    let mut at: Vec<usize> = vec![0, 1, 2, 3, pages() / 2, pages() - 1];
    at.extend((0..count).map(|_| (noise.next() as usize) % pages()));
    at
}

#[test]
fn a_whole_store_is_copied_whole() {
    let (report, _dir) = recover_after("whole", |_| {});
    assert!(report.whole);
    assert!(
        report.tables.iter().all(|t| t.lost == Some(0)),
        "{report:?}"
    );
    let kept = |table: &str| {
        report
            .tables
            .iter()
            .find(|t| t.table == table)
            .unwrap()
            .kept
    };
    assert_eq!(kept("requests"), ENTRIES as u64 + u64::from(JOBS));
    assert_eq!(kept("responses"), ENTRIES as u64 + u64::from(JOBS));
    assert_eq!(kept("jobs"), u64::from(JOBS) + 15);
    assert_eq!(kept("track_items"), u64::from(RUN_CALLS));
    assert_eq!(kept("devices"), 1);
    assert_eq!(kept("webhook_deliveries"), 1);
}

#[test]
fn zeroed_pages_anywhere_cost_their_rows_only() {
    for page in spread(14, 0x5EED) {
        let (report, _dir) = recover_after(&format!("page {page} zeroed"), |bytes| {
            bytes[page * PAGE..(page + 1) * PAGE].fill(0);
        });
        if page > 0 {
            assert!(report.unreadable.is_none(), "page {page}: {report:?}");
        }
    }
}

#[test]
fn pages_of_noise_anywhere_cost_their_rows_only() {
    for (n, page) in spread(14, 0xC0FFEE).into_iter().enumerate() {
        let mut noise = Noise(0x9E37_79B9_7F4A_7C15 ^ n as u64);
        recover_after(&format!("page {page} randomised"), |bytes| {
            for byte in &mut bytes[page * PAGE..(page + 1) * PAGE] {
                *byte = noise.next() as u8;
            }
        });
    }
}

/// A table's root page, from the pristine store's schema.
fn root_page(table: &str) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    std::fs::write(&path, pristine()).unwrap();
    let conn = Connection::open(&path).unwrap();
    conn.query_row(
        "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?1",
        [table],
        |r| r.get(0),
    )
    .unwrap()
}

/// A lost root page hides every leaf below it from SQLite: they are read from the file's
/// pages, each row kept only where the table's indexes still hold it, so rows deleted
/// before (their pages freed but not wiped) stay deleted.
#[test]
fn a_lost_root_page_hides_no_whole_leaf_and_brings_back_nothing_deleted() {
    // Tables of more than a page: their root holds no row, only the way to the leaves.
    let interior: Vec<&str> = KEPT_TABLES
        .into_iter()
        .filter(|table| pristine()[(root_page(table) - 1) * PAGE] == 0x05)
        .collect();
    assert!(
        ["requests", "responses", "jobs"]
            .iter()
            .all(|t| interior.contains(t)),
        "{interior:?}"
    );
    for table in interior {
        let root = root_page(table);
        let (report, _recovered) =
            recover_after(&format!("{table}'s root page {root} zeroed"), |bytes| {
                bytes[(root - 1) * PAGE..root * PAGE].fill(0);
            });
        let dir = tempfile::tempdir().unwrap();
        let pristine_path = dir.path().join(DB_FILE);
        std::fs::write(&pristine_path, pristine()).unwrap();
        let rowids = |path: &Path| -> Vec<i64> {
            let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
            conn.prepare(&format!("SELECT rowid FROM {table} ORDER BY rowid"))
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        let kept = report.tables.iter().find(|t| t.table == table).unwrap();
        assert_eq!(kept.lost, Some(0), "{table}: {report:?}");
        assert_eq!(
            rowids(&report.path),
            rowids(&pristine_path),
            "{table}: every row, nothing deleted"
        );
    }
}

/// Rows deleted since their page was written, that page still in the file (as freed pages
/// are until reused), are not brought back when the table's tree is lost: its indexes no
/// longer hold them.
#[test]
fn rows_deleted_whose_pages_linger_in_the_file_stay_deleted() {
    let root = root_page("requests");
    let (report, _dir) = recover_after("deleted rows lingering, root lost", |bytes| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DB_FILE);
        std::fs::write(&path, &bytes).unwrap();
        let conn = Connection::open(&path).unwrap();
        let leaves: Vec<usize> = conn
            .prepare("SELECT pageno FROM dbstat WHERE name = 'requests' AND pagetype = 'leaf'")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let lingering: Vec<u8> = leaves
            .iter()
            .flat_map(|page| bytes[(page - 1) * PAGE..page * PAGE].to_vec())
            .collect();
        conn.execute("DELETE FROM requests WHERE rowid BETWEEN 50 AND 80", [])
            .unwrap();
        drop(conn);
        *bytes = std::fs::read(&path).unwrap();
        bytes.extend(lingering);
        bytes[(root - 1) * PAGE..root * PAGE].fill(0);
    });
    let conn = Connection::open_with_flags(&report.path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let back: i64 = conn
        .query_row(
            "SELECT count(*) FROM requests WHERE rowid BETWEEN 50 AND 80",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(back, 0, "deleted rows came back");
    let kept = report
        .tables
        .iter()
        .find(|t| t.table == "requests")
        .unwrap();
    assert_eq!(
        kept.kept,
        ENTRIES as u64 + u64::from(JOBS) - 31,
        "{report:?}"
    );
}

/// The case: a few zeroed pages, scattered, all at once.
#[test]
fn a_few_scattered_zeroed_pages_are_recovered_around() {
    for seed in [1u64, 2, 3] {
        let mut noise = Noise(seed * 0x1234_5678_9ABC);
        let chosen: Vec<usize> = (0..5)
            .map(|_| 1 + (noise.next() as usize) % (pages() - 1))
            .collect();
        let (report, _dir) = recover_after(&format!("pages {chosen:?} zeroed"), |bytes| {
            for page in &chosen {
                bytes[page * PAGE..(page + 1) * PAGE].fill(0);
            }
        });
        let requests = report
            .tables
            .iter()
            .find(|t| t.table == "requests")
            .unwrap();
        assert!(requests.kept > 0, "{report:?}");
    }
}

#[test]
fn a_file_cut_at_any_length_is_recovered_up_to_the_cut() {
    let size = pristine().len();
    let mut noise = Noise(0xABCD);
    let mut lengths = vec![
        0,
        50,
        100,
        1_000,
        PAGE,
        PAGE + 1,
        2 * PAGE,
        size / 4,
        size / 2,
        size / 2 + 123,
        size * 3 / 4,
        size - PAGE,
        size - 1,
    ];
    lengths.extend((0..4).map(|_| (noise.next() as usize) % size));
    for length in lengths {
        recover_after(&format!("cut at {length} of {size}"), |bytes| {
            bytes.truncate(length)
        });
    }
}

#[test]
fn a_file_that_is_no_database_leaves_an_empty_store_in_its_place() {
    let mut noise = Noise(77);
    let (report, _dir) = recover_after("random bytes", |bytes| {
        *bytes = (0..64 * 1024).map(|_| noise.next() as u8).collect();
    });
    assert!(report.unreadable.is_some(), "{report:?}");
    assert!(
        report
            .tables
            .iter()
            .all(|t| t.kept == 0 && t.lost.is_none())
    );

    let (report, _dir) = recover_after("empty", Vec::clear);
    assert!(report.tables.iter().all(|t| t.kept == 0), "{report:?}");
}
