//! The calls each process has out, so that a process that ends before it could store a
//! call's answer or job id (killed, crashed, its machine off) does not leave that History
//! entry waiting for ever.
//!
//! A process that writes the store holds a lock on a file of its own
//! (`sessions/<id>.lock` beside the database) for as long as the store is open; the
//! operating system releases it however the process ends. Each History entry is listed in
//! `calls_out` with its session from the moment it is written, before its call goes out,
//! until its answer or its queued job is stored (triggers take it off). When a store opens,
//! the entries of every session whose lock nobody holds are ended with a sentence.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};

use super::model::{Body, EntryId, now_ms};

/// The entries with neither an answer nor a job: calls whose process is gone, or still out.
macro_rules! unanswered_entries {
    () => {
        "SELECT id FROM requests
         WHERE id NOT IN (SELECT request_id FROM responses)
           AND id NOT IN (SELECT entry_id FROM jobs WHERE entry_id IS NOT NULL)"
    };
}

pub(super) const MIGRATION: &str = concat!(
    "
    CREATE TABLE calls_out (
        entry_id  TEXT PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
        session   TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX calls_out_by_session ON calls_out (session);

    CREATE TRIGGER calls_out_answered AFTER INSERT ON responses BEGIN
        DELETE FROM calls_out WHERE entry_id = NEW.request_id;
    END;
    CREATE TRIGGER calls_out_queued AFTER INSERT ON jobs WHEN NEW.entry_id IS NOT NULL BEGIN
        DELETE FROM calls_out WHERE entry_id = NEW.entry_id;
    END;

    -- Entries earlier builds left waiting belong to no session: the next open ends them (an
    -- answer that still comes replaces the sentence).
    INSERT INTO calls_out (entry_id, session) SELECT id, '' FROM (",
    unanswered_entries!(),
    ");
    "
);

/// What an entry whose process ended says.
pub const ENDED: &str = "The process ended before the call was sent or its job id stored.";

/// This process's hold on its session: the lock file, locked, removed when dropped.
pub(super) struct Session {
    pub id: String,
    path: PathBuf,
    _file: File,
}

impl Drop for Session {
    fn drop(&mut self) {
        // Removed while still locked: the file goes before the lock is let go.
        let _ = std::fs::remove_file(&self.path);
    }
}

fn folder_of(database: &Path) -> PathBuf {
    database.parent().unwrap_or(Path::new(".")).join("sessions")
}

/// A session id names a file: only what a UUID is made of.
fn lock_path(database: &Path, session: &str) -> Option<PathBuf> {
    let plain = !session.is_empty()
        && session.len() <= 64
        && session.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    plain.then(|| folder_of(database).join(format!("{session}.lock")))
}

impl Session {
    /// Starts this process's session for the store at `database`; `None` when its lock
    /// cannot be made (the entries are then not listed, and never ended for it).
    pub(super) fn start(database: &Path) -> Option<Session> {
        let id = uuid::Uuid::new_v4().hyphenated().to_string();
        let path = lock_path(database, &id)?;
        let made = std::fs::create_dir_all(folder_of(database)).and_then(|()| {
            OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
        });
        let file = match made {
            Ok(file) => file,
            Err(error) => {
                tracing::warn!(%error, "no session lock: calls cut short stay waiting");
                return None;
            }
        };
        file.try_lock().ok()?;
        // Who holds it, for a recovery that must wait for it: the process and its command.
        let command: Vec<String> = std::env::args().take(6).collect();
        let _ = std::io::Write::write_all(
            &mut &file,
            format!("process {} ({})", std::process::id(), command.join(" ")).as_bytes(),
        );
        Some(Session {
            id,
            path,
            _file: file,
        })
    }
}

/// The processes that hold the store at `database` open now, as each wrote itself into its
/// lock ("process 4242 (vantage track run boots)"): a lock nobody holds is left out.
pub(super) fn holders(database: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(folder_of(database)) else {
        return Vec::new();
    };
    let mut held = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "lock") {
            continue;
        }
        let Ok(file) = File::open(&path) else {
            continue;
        };
        if let Err(TryLockError::WouldBlock) = file.try_lock_shared() {
            let mut said = String::new();
            let _ = std::io::Read::read_to_string(&mut std::io::Read::take(&file, 512), &mut said);
            let said = crate::sanitize::one_line(said.trim()).into_owned();
            held.push(if said.is_empty() {
                "another vantage process".to_string()
            } else {
                said
            });
        }
    }
    held.sort();
    held
}

/// Starts this process's session on the writer's connection, first ending the entries of
/// the sessions whose processes are gone.
pub(super) fn begin(conn: &mut Connection, database: &Path) -> Option<Session> {
    let session = Session::start(database);
    if let Err(error) = end_abandoned(conn, database) {
        tracing::warn!(%error, "the calls of ended processes could not be ended");
    }
    session
}

/// Ends the entries of every session whose process is gone: their lock is free, or was
/// never made. Returns how many were ended.
pub(super) fn end_abandoned(conn: &mut Connection, database: &Path) -> rusqlite::Result<usize> {
    let sessions: Vec<String> = conn
        .prepare("SELECT DISTINCT session FROM calls_out")?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut ended = 0;
    for session in sessions {
        let path = lock_path(database, &session);
        // Held while its entries are ended, so a process opening beside this one skips it.
        let held = match &path {
            Some(path) if path.exists() => match File::open(path).map(|f| (f.try_lock(), f)) {
                Ok((Ok(()), file)) => Some(file),
                Ok((Err(TryLockError::WouldBlock), _)) => continue,
                Ok((Err(TryLockError::Error(_)), _)) | Err(_) => continue,
            },
            _ => None,
        };
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let entries: Vec<String> = tx
            .prepare("SELECT entry_id FROM calls_out WHERE session = ?1")?
            .query_map([&session], |row| row.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let body = Body {
            status: 0,
            text: ENDED.to_string(),
            elapsed_ms: 0,
            received_at: now_ms(),
        };
        for entry in &entries {
            super::writer::add_response(&tx, &EntryId(entry.clone()), &body)?;
        }
        tx.execute("DELETE FROM calls_out WHERE session = ?1", params![session])?;
        tx.commit()?;
        ended += entries.len();
        if let (Some(path), Some(_held)) = (path, held) {
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(ended)
}

/// Answers every entry with neither an answer nor a job with `text`: in a store just
/// recovered, whose answers may have been lost with the damage, and whose processes are gone.
pub(super) fn answer_unanswered(conn: &Connection, text: &str) -> rusqlite::Result<usize> {
    conn.execute(
        concat!(
            "INSERT INTO responses (request_id, status, body, elapsed_ms, size, received_at)
             SELECT id, 0, ?1, 0, length(?1), ?2 FROM (",
            unanswered_entries!(),
            ")"
        ),
        params![text, now_ms()],
    )
}
