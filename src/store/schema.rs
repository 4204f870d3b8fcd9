//! The schema, versioned with `PRAGMA user_version`, and the ordered migrations to it.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::StoreError;

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
/// process and of the machine), then migrates.
pub fn open_writer(path: &Path) -> Result<Connection, StoreError> {
    let mut conn = Connection::open(path)?;
    configure(&conn)?;
    let mode: String = conn.pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        tracing::warn!(mode, "SQLite did not switch to WAL");
    }
    conn.pragma_update(None, "synchronous", "FULL")?;
    migrate(&mut conn, path)?;
    Ok(conn)
}

/// Opens a connection for reads only.
pub fn open_reader(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    configure(&conn)?;
    conn.pragma_update(None, "query_only", true)?;
    Ok(conn)
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
