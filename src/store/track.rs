//! Tracking runs: one row per run of a set, one per call it makes (`track_items`), each
//! pointing at the queued job (in `jobs`) once the service gave its id.
//!
//! The order of writes is what makes a run resumable after a crash (`track::run`):
//! the run and all of its calls are written first, in one transaction, before anything is
//! sent (the intent, idempotent: a call is its run and its number); a call's `sends` is
//! counted up as it goes out; its job id is written, with the job, the moment the id comes
//! back. A restarted run sends only the calls that have no job id.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::StoreError;
use super::model::{JobRecord, NewJob, RequestKind, RequestParams};
use super::read;
use crate::api::JobId;
use crate::jobs::{JobState, UnixMs};

pub(super) const MIGRATION: &str = "
    CREATE TABLE track_runs (
        id          TEXT PRIMARY KEY,
        set_name    TEXT NOT NULL,
        started_at  INTEGER NOT NULL,
        planned     INTEGER NOT NULL
    );
    CREATE INDEX track_runs_by_set ON track_runs (set_name COLLATE NOCASE, started_at);

    CREATE TABLE track_items (
        run_id      TEXT NOT NULL REFERENCES track_runs (id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('ai', 'search')),
        request     TEXT NOT NULL,
        job_id      TEXT UNIQUE,
        sends       INTEGER NOT NULL DEFAULT 0,
        refused     TEXT,
        last_error  TEXT,
        PRIMARY KEY (run_id, seq)
    );
";

pub(super) const DELIVERIES_MIGRATION: &str = "
    CREATE TABLE webhook_deliveries (
        run_id        TEXT PRIMARY KEY,
        set_name      TEXT NOT NULL,
        payload       TEXT NOT NULL,
        created_at    INTEGER NOT NULL,
        delivered_at  INTEGER,
        attempts      INTEGER NOT NULL DEFAULT 0,
        last_error    TEXT
    );
";

/// The alerts of one run, posted (or to post) to the workspace's webhook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub run: RunId,
    pub set_name: String,
    /// The JSON body, as posted.
    pub payload: String,
    pub delivered: bool,
    /// Posts tried so far (each with its own bounded retries).
    pub attempts: u32,
    pub last_error: Option<String>,
}

/// A run's id (a UUID made when the run is planned).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct RunId(pub String);

impl RunId {
    pub fn new() -> Self {
        RunId(uuid::Uuid::new_v4().hyphenated().to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first eight characters, for tables.
    pub fn short(&self) -> &str {
        self.0.get(..8).unwrap_or(&self.0)
    }
}

impl Default for RunId {
    fn default() -> Self {
        RunId::new()
    }
}

/// A run to record before any of its calls is sent: call `i` of `calls` is number `i`.
#[derive(Clone, Debug, PartialEq)]
pub struct NewRun {
    pub id: RunId,
    pub set_name: String,
    pub started_at: UnixMs,
    pub calls: Vec<RequestParams>,
}

/// The writes of a run, applied by the writer thread.
#[derive(Clone, Debug, PartialEq)]
pub enum TrackWrite {
    Plan(NewRun),
    /// The call is about to go out (counted, so a crash between sending and storing the id
    /// shows as a call sent more often than it has ids).
    Sending {
        run: RunId,
        seq: u32,
    },
    /// The service queued the call: the job and the call's link to it, in one transaction.
    Submitted {
        run: RunId,
        seq: u32,
        job: Box<NewJob>,
    },
    /// The service refused the call for good (a parameter, say); it is not sent again.
    Refused {
        run: RunId,
        seq: u32,
        reason: String,
    },
    /// The call could not be sent now (no answer, the service busy); a later run sends it.
    Unsent {
        run: RunId,
        seq: u32,
        reason: String,
    },
    /// Rows of another store's export, merged: those already here are left as they are.
    Import(Vec<super::travel::ImportRow>),
    /// A post of a run's alerts to the webhook, delivered or not (`error`).
    Delivery {
        run: RunId,
        set_name: String,
        payload: String,
        at: UnixMs,
        error: Option<String>,
    },
}

/// A run with its counts, for `track list` and the Track tab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunSummary {
    pub id: RunId,
    pub set_name: String,
    pub started_at: UnixMs,
    pub planned: u32,
    /// Calls the service queued (each spent a credit).
    pub queued: u32,
    /// Calls not sent yet (or whose sending failed).
    pub unsent: u32,
    pub refused: u32,
    pub done: u32,
    /// Failed or expired.
    pub failed: u32,
    /// Pending, or in error while polled.
    pub pending: u32,
}

impl RunSummary {
    /// Every call was sent (or refused): what is left is polling.
    pub fn is_submitted(&self) -> bool {
        self.unsent == 0
    }

    /// Nothing more will change: all sent and every job ended.
    pub fn is_finished(&self) -> bool {
        self.unsent == 0 && self.pending == 0
    }
}

/// One call of a run as stored: its request, and its job and result when it has them.
#[derive(Clone, Debug, PartialEq)]
pub struct RunItem {
    pub seq: u32,
    pub request: RequestParams,
    pub job_id: Option<JobId>,
    pub state: Option<JobState>,
    pub sends: u32,
    pub refused: Option<String>,
    /// The result body of a done job.
    pub body: Option<String>,
}

pub(super) fn apply(tx: &Connection, write: &TrackWrite) -> Result<(), rusqlite::Error> {
    match write {
        TrackWrite::Plan(run) => {
            let inserted = tx.execute(
                "INSERT INTO track_runs (id, set_name, started_at, planned) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (id) DO NOTHING",
                params![
                    run.id.as_str(),
                    run.set_name,
                    run.started_at,
                    run.calls.len() as i64
                ],
            )?;
            if inserted == 0 {
                return Ok(());
            }
            let mut statement = tx.prepare_cached(
                "INSERT INTO track_items (run_id, seq, kind, request) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (run_id, seq) DO NOTHING",
            )?;
            for (seq, call) in run.calls.iter().enumerate() {
                statement.execute(params![
                    run.id.as_str(),
                    seq as i64,
                    call.kind().as_str(),
                    call.to_json()
                ])?;
            }
        }
        TrackWrite::Sending { run, seq } => {
            tx.execute(
                "UPDATE track_items SET sends = sends + 1 WHERE run_id = ?1 AND seq = ?2",
                params![run.as_str(), seq],
            )?;
        }
        TrackWrite::Submitted { run, seq, job } => {
            let linked = tx.execute(
                "UPDATE track_items SET job_id = ?3, last_error = NULL
                 WHERE run_id = ?1 AND seq = ?2 AND job_id IS NULL",
                params![run.as_str(), seq, job.id.as_str()],
            )?;
            // A call already linked keeps its first job: the run never holds two.
            if linked == 1 {
                super::writer::record_job(tx, job)?;
            }
        }
        TrackWrite::Refused { run, seq, reason } => {
            tx.execute(
                "UPDATE track_items SET refused = ?3 WHERE run_id = ?1 AND seq = ?2
                 AND job_id IS NULL",
                params![run.as_str(), seq, reason],
            )?;
        }
        TrackWrite::Unsent { run, seq, reason } => {
            tx.execute(
                "UPDATE track_items SET last_error = ?3 WHERE run_id = ?1 AND seq = ?2",
                params![run.as_str(), seq, reason],
            )?;
        }
        TrackWrite::Import(rows) => {
            super::travel::import(tx, rows)?;
        }
        TrackWrite::Delivery {
            run,
            set_name,
            payload,
            at,
            error,
        } => {
            let delivered = error.is_none().then_some(*at);
            tx.execute(
                "INSERT INTO webhook_deliveries
                     (run_id, set_name, payload, created_at, delivered_at, attempts, last_error)
                 VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)
                 ON CONFLICT (run_id) DO UPDATE SET
                     attempts = attempts + 1,
                     delivered_at = COALESCE(delivered_at, excluded.delivered_at),
                     last_error = excluded.last_error",
                params![run.as_str(), set_name, payload, at, delivered, error],
            )?;
        }
    }
    Ok(())
}

/// The webhook deliveries of a set (every set when none), oldest first.
pub(super) fn deliveries(
    conn: &Connection,
    set: Option<&str>,
) -> Result<Vec<Delivery>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT run_id, set_name, payload, delivered_at IS NOT NULL, attempts, last_error
         FROM webhook_deliveries
         WHERE ?1 IS NULL OR set_name = ?1 COLLATE NOCASE
         ORDER BY created_at, run_id",
    )?;
    let rows = statement.query_map(params![set], |row| {
        Ok(Delivery {
            run: RunId(row.get(0)?),
            set_name: row.get(1)?,
            payload: row.get(2)?,
            delivered: row.get(3)?,
            attempts: row.get::<_, i64>(4)?.try_into().unwrap_or(u32::MAX),
            last_error: row.get(5)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

fn corrupt(what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(what.to_string())
}

fn count(value: Option<i64>) -> u32 {
    value.and_then(|v| u32::try_from(v).ok()).unwrap_or(0)
}

/// The runs, oldest first, of one set (any case) or of all.
pub(super) fn runs(conn: &Connection, set: Option<&str>) -> Result<Vec<RunSummary>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT r.id, r.set_name, r.started_at, r.planned,
                count(i.job_id),
                sum(i.job_id IS NULL AND i.refused IS NULL),
                sum(i.refused IS NOT NULL),
                sum(j.state = 'done'),
                sum(j.state IN ('failed', 'expired')),
                sum(j.state IN ('pending', 'error'))
         FROM track_runs r
         LEFT JOIN track_items i ON i.run_id = r.id
         LEFT JOIN jobs j ON j.id = i.job_id
         WHERE ?1 IS NULL OR r.set_name = ?1 COLLATE NOCASE
         GROUP BY r.id
         ORDER BY r.started_at, r.rowid",
    )?;
    let rows = statement.query_map([set], |row| {
        Ok(RunSummary {
            id: RunId(row.get(0)?),
            set_name: row.get(1)?,
            started_at: row.get(2)?,
            planned: count(row.get(3)?),
            queued: count(row.get(4)?),
            unsent: count(row.get(5)?),
            refused: count(row.get(6)?),
            done: count(row.get(7)?),
            failed: count(row.get(8)?),
            pending: count(row.get(9)?),
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

fn request_of(kind: &str, json: &str) -> Result<RequestParams, StoreError> {
    let kind: RequestKind = kind.parse().map_err(corrupt)?;
    RequestParams::from_json(kind, json).map_err(corrupt)
}

/// The calls of a run still to send, in order.
pub(super) fn unsent(
    conn: &Connection,
    run: &RunId,
) -> Result<Vec<(u32, RequestParams)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT seq, kind, request FROM track_items
         WHERE run_id = ?1 AND job_id IS NULL AND refused IS NULL ORDER BY seq",
    )?;
    let rows = statement
        .query_map([run.as_str()], |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(seq, kind, json)| Ok((count(Some(seq)), request_of(&kind, &json)?)))
        .collect()
}

/// The jobs of a set's runs still to poll (pending or in error).
pub(super) fn open_jobs(conn: &Connection, set: &str) -> Result<Vec<JobRecord>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {} FROM jobs WHERE state IN ('pending', 'error') AND id IN (
            SELECT i.job_id FROM track_items i JOIN track_runs r ON r.id = i.run_id
            WHERE r.set_name = ?1 COLLATE NOCASE AND i.job_id IS NOT NULL)
         ORDER BY created_at, rowid",
        read::JOB_COLUMNS
    ))?;
    let rows = statement
        .query_map([set], read::job_row)?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter().map(read::job_record).collect()
}

/// Every call of a run, in order, with its job's state and result body.
pub(super) fn items(conn: &Connection, run: &RunId) -> Result<Vec<RunItem>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT i.seq, i.kind, i.request, i.job_id, j.state, i.sends, i.refused, r.body
         FROM track_items i
         LEFT JOIN jobs j ON j.id = i.job_id
         LEFT JOIN job_results r ON r.job_id = i.job_id
         WHERE i.run_id = ?1 ORDER BY i.seq",
    )?;
    type Row = (
        i64,
        String,
        String,
        Option<String>,
        Option<String>,
        i64,
        Option<String>,
        Option<String>,
    );
    let rows: Vec<Row> = statement
        .query_map([run.as_str()], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
                row.get(6)?,
                row.get(7)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(seq, kind, json, job, state, sends, refused, body)| {
            Ok(RunItem {
                seq: count(Some(seq)),
                request: request_of(&kind, &json)?,
                job_id: job
                    .map(|id| JobId::parse(&id).map_err(corrupt))
                    .transpose()?,
                state: state.map(|s| s.parse().map_err(corrupt)).transpose()?,
                sends: count(Some(sends)),
                refused,
                body,
            })
        })
        .collect()
}

/// The run of this id.
pub(super) fn run(conn: &Connection, id: &RunId) -> Result<Option<RunSummary>, StoreError> {
    let set: Option<String> = conn
        .query_row(
            "SELECT set_name FROM track_runs WHERE id = ?1",
            [id.as_str()],
            |r| r.get(0),
        )
        .optional()?;
    let Some(set) = set else { return Ok(None) };
    Ok(runs(conn, Some(&set))?.into_iter().find(|r| &r.id == id))
}
