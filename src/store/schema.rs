//! The schema, versioned with `PRAGMA user_version`, and the ordered migrations to it.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::StoreError;
use super::health::is_write_refusal;

/// Each entry brings the schema from version `index` to `index + 1`. Append, never edit.
const MIGRATIONS: &[&str] = &[
    // 0 → 1: history, jobs, devices.
    "
    CREATE TABLE requests (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL CHECK (kind IN ('ai', 'search', 'browser', 'compare')),
        params      TEXT NOT NULL,
        summary     TEXT NOT NULL,
        created_at  INTEGER NOT NULL
    );
    CREATE INDEX requests_by_time ON requests (created_at);

    CREATE TABLE responses (
        request_id  TEXT PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
        status      INTEGER NOT NULL,
        body        TEXT NOT NULL,
        elapsed_ms  INTEGER NOT NULL,
        size        INTEGER NOT NULL,
        received_at INTEGER NOT NULL
    );

    CREATE TABLE jobs (
        id           TEXT NOT NULL UNIQUE,
        kind         TEXT NOT NULL CHECK (kind IN ('ai', 'search', 'browser')),
        request      TEXT,
        summary      TEXT NOT NULL,
        state        TEXT NOT NULL
                     CHECK (state IN ('pending', 'done', 'failed', 'expired', 'error')),
        known        INTEGER NOT NULL DEFAULT 0,
        created_at   INTEGER NOT NULL,
        last_poll_at INTEGER,
        next_poll_at INTEGER,
        attempts     INTEGER NOT NULL DEFAULT 0,
        result_size  INTEGER,
        last_error   TEXT
    );
    CREATE INDEX jobs_by_state ON jobs (state);

    CREATE TABLE job_results (
        job_id      TEXT PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
        status      INTEGER NOT NULL,
        body        TEXT NOT NULL,
        elapsed_ms  INTEGER NOT NULL,
        received_at INTEGER NOT NULL
    );

    CREATE TABLE job_events (
        seq         INTEGER PRIMARY KEY,
        job_id      TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        from_state  TEXT,
        to_state    TEXT NOT NULL,
        at          INTEGER NOT NULL,
        note        TEXT
    );
    CREATE INDEX job_events_by_job ON job_events (job_id, seq);

    CREATE TABLE devices (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        names       TEXT NOT NULL,
        fetched_at  INTEGER NOT NULL
    );
    ",
    // 1 → 2: full-text search over every request and answer (see `search.rs`).
    super::search::MIGRATION,
    // 2 → 3: tracking runs and the calls each makes (see `track.rs`).
    super::track::MIGRATION,
    // 3 → 4: History's rows read a response's status, time and size from this index alone,
    // never through a large answer's body (which SQLite stores before them, on overflow pages).
    "CREATE INDEX responses_for_history ON responses (request_id, status, elapsed_ms, size);",
    // 4 → 5: every call is in History, marked with where it came from; a queued job knows
    // the entry of its submission, which its result answers whichever process polls it.
    "
    ALTER TABLE requests ADD COLUMN origin TEXT NOT NULL DEFAULT 'app'
        CHECK (origin IN ('app', 'cli', 'track'));
    ALTER TABLE jobs ADD COLUMN entry_id TEXT;
    ",
    // 5 → 6: the alerts of a run posted to the workspace's webhook, kept until delivered
    // (a failed delivery is tried again by the next run).
    super::track::DELIVERIES_MIGRATION,
    // 6 → 7: the readings of a set's answers, stored once beside them, the tallies of runs
    // that have ended and their final counts (see `readings.rs`).
    super::readings::MIGRATION,
    // 7 → 8: the names each stored answer puts forward, read once for discovery, and their
    // totals per model and place kept by triggers (see `names.rs`).
    super::names::MIGRATION,
    // 8 → 9: which answers are still to read for discovery, kept by triggers, so looking
    // for them does not walk every answer stored (see `names.rs`).
    super::names::TO_READ_MIGRATION,
    // 9 → 10: the calls each process has out, so that one cut short by the process's end
    // is ended in History rather than left waiting (see `sessions.rs`).
    super::sessions::MIGRATION,
    // 10 → 11: the runs an import brought in before all their calls (see `travel.rs`).
    super::travel::PARTS_MIGRATION,
    // 11 → 12: whether discovery read an answer as plain text (see `names.rs`).
    super::names::AS_TEXT_MIGRATION,
    // 12 → 13: ended runs keep their answered AI calls, for their credits by kind.
    super::readings::CREDITS_MIGRATION,
    // 13 → 14: the device cache keeps a results page's list (/search/devices, row 2) beside
    // an AI answer's (row 1). A file whose cache is gone is given an empty one first.
    "
    CREATE TABLE IF NOT EXISTS devices (
        id          INTEGER PRIMARY KEY,
        names       TEXT NOT NULL,
        fetched_at  INTEGER NOT NULL
    );
    CREATE TABLE devices_lists (
        id          INTEGER PRIMARY KEY CHECK (id IN (1, 2)),
        names       TEXT NOT NULL,
        fetched_at  INTEGER NOT NULL
    );
    INSERT INTO devices_lists (id, names, fetched_at) SELECT id, names, fetched_at FROM devices;
    DROP TABLE devices;
    ALTER TABLE devices_lists RENAME TO devices;
    ",
    // 14 → 15: the job of each column of a comparison asked through the queue (`grid.rs`).
    super::grid::MIGRATION,
    // 15 → 16: every run an import brought in, never resumed from here (`travel.rs`).
    super::travel::IMPORTED_MIGRATION,
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Settings every connection gets.
fn configure(conn: &Connection) -> Result<(), StoreError> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

/// Opens the writer's connection: WAL, full sync (a committed job survives a crash of the
/// process and of the machine), then migrates. A file or folder that refuses writes gives
/// [`StoreError::ReadOnly`], so the caller can open it for reading instead.
pub fn open_writer(path: &Path) -> Result<Connection, StoreError> {
    let refused = |error: rusqlite::Error| {
        if is_write_refusal(&error) {
            StoreError::ReadOnly {
                path: path.to_path_buf(),
                reason: error.to_string(),
            }
        } else {
            StoreError::from(error).at(path)
        }
    };
    let mut conn = Connection::open(path).map_err(refused)?;
    // SQLite opens a file it may not write read-only without saying so.
    if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
        return Err(StoreError::ReadOnly {
            path: path.to_path_buf(),
            reason: "the file is read-only".to_string(),
        });
    }
    configure(&conn).map_err(|e| e.at(path))?;
    let mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0))
        .map_err(refused)?;
    if !mode.eq_ignore_ascii_case("wal") {
        tracing::warn!(mode, "SQLite did not switch to WAL");
    }
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(refused)?;
    migrate(&mut conn, path).map_err(|e| e.at(path))?;
    Ok(conn)
}

/// Opens a connection for reads only.
pub fn open_reader(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| StoreError::from(e).at(path))?;
    configure(&conn).map_err(|e| e.at(path))?;
    conn.pragma_update(None, "query_only", true)
        .map_err(|e| StoreError::from(e).at(path))?;
    Ok(conn)
}

/// Opens an existing file that SQLite must not write at all. A WAL file in a folder that
/// cannot be written can only be read as immutable (SQLite cannot make its shared-memory
/// file), which is tried when the plain read-only open cannot read it.
pub fn open_read_only(path: &Path) -> Result<Connection, StoreError> {
    open_read_only_with(path, false)
}

/// [`open_read_only`] for a file to recover: SQLite also reads one shorter than its header
/// says (cut short), as far as it goes, rather than refusing it whole.
pub fn open_damaged(path: &Path) -> Result<Connection, StoreError> {
    open_read_only_with(path, true)
}

fn open_read_only_with(path: &Path, cut_short: bool) -> Result<Connection, StoreError> {
    let readable = |conn: &Connection| -> Result<(), StoreError> {
        configure(conn)?;
        if cut_short {
            // Only lifts SQLite's refusal of a file shorter than its header: the connection
            // is read-only, so the schema cannot be written either.
            conn.pragma_update(None, "writable_schema", true)?;
        }
        let found = user_version(conn)?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                path: path.to_path_buf(),
                found,
                supported: SCHEMA_VERSION,
            });
        }
        Ok(())
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let opened = Connection::open_with_flags(path, flags).map_err(StoreError::from);
    let first_error = match opened.and_then(|conn| readable(&conn).map(|()| conn)) {
        Ok(conn) => return Ok(conn),
        Err(error @ (StoreError::Damaged { .. } | StoreError::TooNew { .. })) => {
            return Err(error.at(path));
        }
        Err(error) => error,
    };
    let immutable = std::path::absolute(path)
        .ok()
        .and_then(|absolute| url::Url::from_file_path(absolute).ok())
        .map(|mut url| {
            url.set_query(Some("immutable=1"));
            url.to_string()
        });
    let Some(uri) = immutable else {
        return Err(first_error.at(path));
    };
    Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI)
        .map_err(StoreError::from)
        .and_then(|conn| readable(&conn).map(|()| conn))
        .map_err(|_| match first_error {
            StoreError::Sqlite(reason) => StoreError::Open {
                path: path.to_path_buf(),
                reason,
            },
            other => other.at(path),
        })
}

pub fn user_version(conn: &Connection) -> Result<u32, StoreError> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

/// Applies the migrations after the file's version, each in its own transaction. A file
/// from a newer build is refused rather than guessed at.
pub fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let found = user_version(conn)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found,
            supported: SCHEMA_VERSION,
        });
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Another process may have migrated while this one waited for the lock.
        let now = user_version(&tx)?;
        if now as usize > index {
            tx.commit()?;
            continue;
        }
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", index as u32 + 1)?;
        tx.commit()?;
        tracing::info!(version = index + 1, "store schema migrated");
    }
    Ok(())
}
