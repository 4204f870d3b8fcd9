//! A comparison asked through the queue: which job answers each of its columns. The
//! comparison is one History entry (its columns' requests, in order); each column's job is
//! stored with its column in the same transaction as the job itself, the moment its id
//! arrives, so a process that ends mid-way leaves every id it was given, and the next
//! `compare --resume` (or the app) polls those and submits only the columns that have none.

use rusqlite::{Connection, params};

use super::model::{EntryId, NewJob};
use super::{Store, StoreError};
use crate::api::JobId;

pub(super) const MIGRATION: &str = "
    CREATE TABLE grid_columns (
        entry_id  TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
        col       INTEGER NOT NULL,
        job_id    TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        PRIMARY KEY (entry_id, col)
    );
    CREATE INDEX grid_columns_by_job ON grid_columns (job_id);
    -- Once a column is queued the comparison is no longer a call out: its jobs are.
    CREATE TRIGGER calls_out_gridded AFTER INSERT ON grid_columns BEGIN
        DELETE FROM calls_out WHERE entry_id = NEW.entry_id;
    END;
";

/// Stores a column's job and which column it answers (a column asked again takes its new
/// job).
pub(super) fn record(
    tx: &Connection,
    entry: &EntryId,
    column: usize,
    job: &NewJob,
) -> Result<(), rusqlite::Error> {
    super::writer::record_job(tx, job)?;
    tx.execute(
        "INSERT INTO grid_columns (entry_id, col, job_id) VALUES (?1, ?2, ?3)
         ON CONFLICT (entry_id, col) DO UPDATE SET job_id = excluded.job_id",
        params![entry.as_str(), column as i64, job.id.as_str()],
    )?;
    Ok(())
}

/// The job of each column that has one, by column.
pub(super) fn columns(
    conn: &Connection,
    entry: &EntryId,
) -> Result<Vec<(usize, JobId)>, StoreError> {
    let mut statement =
        conn.prepare("SELECT col, job_id FROM grid_columns WHERE entry_id = ?1 ORDER BY col")?;
    let rows = statement.query_map([entry.as_str()], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (column, job) = row?;
        // A row written by someone else is skipped rather than trusted.
        let (Ok(column), Ok(job)) = (usize::try_from(column), JobId::parse(&job)) else {
            continue;
        };
        out.push((column, job));
    }
    Ok(out)
}

impl Store {
    /// Stores a queued comparison column's job: await it before going on, the id is then on
    /// disk with its column.
    pub fn record_grid_job(&self, entry: &EntryId, column: usize, job: NewJob) -> super::Ack {
        self.send(super::writer::Op::GridJob {
            entry: entry.clone(),
            column,
            job,
        })
    }

    /// The jobs of a queued comparison's columns, by column.
    pub fn grid_columns(&self, entry: &EntryId) -> Result<Vec<(usize, JobId)>, StoreError> {
        self.with_reader(|conn| columns(conn, entry))
    }
}
