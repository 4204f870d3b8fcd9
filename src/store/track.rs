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
use super::readings;
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
    /// A call whose sending was counted never left this machine (no token, no connection):
    /// not counted as sent, so a resumed run does not take it for one the service may bill.
    NotSent {
        run: RunId,
        seq: u32,
    },
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
    /// More calls for a run under way (the next round of `samples = "auto"`): numbered after
    /// its last, counted in its plan, sent as any unsent call.
    Extend {
        run: RunId,
        calls: Vec<RequestParams>,
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
    /// The readings of some calls of a run, made by the rules of `version` for the brands
    /// `list` (`track::stored`): they replace the calls' readings made before.
    Readings {
        run: RunId,
        list: String,
        version: u32,
        readings: Vec<super::readings::StoredReading>,
    },
    /// The tally of a run that has ended, made from its readings.
    Tally {
        run: RunId,
        list: String,
        version: u32,
        tally: String,
    },
    /// The counts of runs that have ended, kept so listing them does not count again.
    Settle(Vec<RunSummary>),
    /// A post of a run's alerts to the webhook about to go out: its try is counted first, so
    /// a process that dies during the post (a receiver's answer too large to hold, a kill)
    /// does not try it for ever.
    DeliveryStarted {
        run: RunId,
        set_name: String,
        payload: String,
        at: UnixMs,
    },
    /// How a post of a run's alerts ended, delivered or not (`error`).
    Delivery {
        run: RunId,
        set_name: String,
        payload: String,
        at: UnixMs,
        error: Option<String>,
    },
}

/// What a post cut short leaves as its error until its end is stored.
pub const DELIVERY_CUT_SHORT: &str = "the post was cut short: the process ended during it";

/// A run with its counts, for `track list` and the Track tab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunSummary {
    pub id: RunId,
    pub set_name: String,
    pub started_at: UnixMs,
    pub planned: u32,
    /// Calls the service queued.
    pub queued: u32,
    /// Calls not sent yet (or whose sending failed).
    pub unsent: u32,
    pub refused: u32,
    pub done: u32,
    /// Failed or expired.
    pub failed: u32,
    /// Pending, or in error while polled.
    pub pending: u32,
    /// Of the done calls, the AI answers (the rest are searches): their credits differ.
    pub done_answers: u32,
}

impl RunSummary {
    /// The credits the run's answered calls cost by the price table: the service bills only
    /// successful calls (a pending one is billed when it lands).
    pub fn credits(&self, prices: &crate::price::Prices) -> u64 {
        let answers = u64::from(self.done_answers.min(self.done));
        let searches = u64::from(self.done) - answers;
        crate::price::Calls {
            answers,
            searches,
            pages: 0,
        }
        .credits(prices)
    }

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
        TrackWrite::Extend { run, calls } => {
            readings::unsettle(tx, run)?;
            let next: i64 = tx.query_row(
                "SELECT coalesce(max(seq) + 1, 0) FROM track_items WHERE run_id = ?1",
                [run.as_str()],
                |r| r.get(0),
            )?;
            let mut statement = tx.prepare_cached(
                "INSERT INTO track_items (run_id, seq, kind, request) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (i, call) in calls.iter().enumerate() {
                statement.execute(params![
                    run.as_str(),
                    next + i as i64,
                    call.kind().as_str(),
                    call.to_json()
                ])?;
            }
            tx.execute(
                "UPDATE track_runs SET planned = planned + ?2 WHERE id = ?1",
                params![run.as_str(), calls.len() as i64],
            )?;
            tx.execute(
                "DELETE FROM track_tallies WHERE run_id = ?1",
                [run.as_str()],
            )?;
        }
        TrackWrite::NotSent { run, seq } => {
            tx.execute(
                "UPDATE track_items SET sends = max(sends - 1, 0) WHERE run_id = ?1 AND seq = ?2",
                params![run.as_str(), seq],
            )?;
        }
        TrackWrite::Sending { run, seq } => {
            readings::unsettle(tx, run)?;
            tx.execute(
                "UPDATE track_items SET sends = sends + 1 WHERE run_id = ?1 AND seq = ?2",
                params![run.as_str(), seq],
            )?;
        }
        TrackWrite::Submitted { run, seq, job } => {
            readings::unsettle(tx, run)?;
            // The service gave this id before, for another call: one job, billed once. This
            // call keeps no job of its own and is not sent again.
            let given_before: Option<i64> = tx
                .query_row(
                    "SELECT seq FROM track_items WHERE job_id = ?1 AND NOT (run_id = ?2 AND seq = ?3)",
                    params![job.id.as_str(), run.as_str(), seq],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(other) = given_before {
                tx.execute(
                    "UPDATE track_items SET refused = ?3 WHERE run_id = ?1 AND seq = ?2
                     AND job_id IS NULL",
                    params![
                        run.as_str(),
                        seq,
                        format!(
                            "the service answered with job id {}, which it had already given for call {other}: it is one job, so this call has no answer of its own and is not asked again",
                            job.id.as_str()
                        )
                    ],
                )?;
                return Ok(());
            }
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
            readings::unsettle(tx, run)?;
            tx.execute(
                "UPDATE track_items SET refused = ?3 WHERE run_id = ?1 AND seq = ?2
                 AND job_id IS NULL",
                params![run.as_str(), seq, reason],
            )?;
        }
        TrackWrite::Unsent { run, seq, reason } => {
            readings::unsettle(tx, run)?;
            tx.execute(
                "UPDATE track_items SET last_error = ?3 WHERE run_id = ?1 AND seq = ?2",
                params![run.as_str(), seq, reason],
            )?;
        }
        TrackWrite::Import(rows) => {
            super::travel::import(tx, rows)?;
            forget_imported(tx, rows)?;
        }
        TrackWrite::Readings {
            run,
            list,
            version,
            readings: rows,
        } => readings::write_readings(tx, run, list, *version, rows)?,
        TrackWrite::Tally {
            run,
            list,
            version,
            tally,
        } => readings::write_tally(tx, run, list, *version, tally)?,
        TrackWrite::Settle(runs) => readings::settle(tx, runs)?,
        TrackWrite::DeliveryStarted {
            run,
            set_name,
            payload,
            at,
        } => {
            tx.execute(
                "INSERT INTO webhook_deliveries
                     (run_id, set_name, payload, created_at, delivered_at, attempts, last_error)
                 VALUES (?1, ?2, ?3, ?4, NULL, 1, ?5)
                 ON CONFLICT (run_id) DO UPDATE SET
                     attempts = attempts + 1,
                     last_error = excluded.last_error",
                params![run.as_str(), set_name, payload, at, DELIVERY_CUT_SHORT],
            )?;
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
                     attempts = max(attempts, 1),
                     delivered_at = COALESCE(delivered_at, excluded.delivered_at),
                     last_error = excluded.last_error",
                params![run.as_str(), set_name, payload, at, delivered, error],
            )?;
        }
    }
    Ok(())
}

/// The runs an import touched keep neither their counts nor their tallies: a call or a
/// result it brought changes them.
fn forget_imported(
    tx: &Connection,
    rows: &[super::travel::ImportRow],
) -> Result<(), rusqlite::Error> {
    let mut runs = std::collections::BTreeSet::new();
    let mut of_job = tx.prepare_cached("SELECT run_id FROM track_items WHERE job_id = ?1")?;
    for row in rows {
        let field = |name: &str| {
            row.row
                .get(name)
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let run = match row.table.as_str() {
            "track_runs" => field("id"),
            "track_items" => field("run_id"),
            "jobs" => field("id").and_then(|job| of_job.query_row([job], |r| r.get(0)).ok()),
            "job_results" => {
                field("job_id").and_then(|job| of_job.query_row([job], |r| r.get(0)).ok())
            }
            _ => None,
        };
        runs.extend(run);
    }
    for run in runs {
        let run = RunId(run);
        readings::unsettle(tx, &run)?;
        tx.execute(
            "DELETE FROM track_tallies WHERE run_id = ?1",
            [run.as_str()],
        )?;
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

/// The runs of one set (any case) or of all, in the order they were made in this store
/// (its sequence of rows): a clock set ahead or an imported date cannot make a run "newest".
pub(super) fn runs(conn: &Connection, set: Option<&str>) -> Result<Vec<RunSummary>, StoreError> {
    // Runs that have ended read their kept counts; only the others count their calls. A run
    // an import brought in part of is left out until the rest comes (`travel.rs`).
    let mut statement = conn.prepare_cached(
        "SELECT r.id, r.set_name, r.started_at, r.planned,
                c.queued, c.unsent, c.refused, c.done, c.failed, c.pending, r.rowid,
                c.done_answers
         FROM track_runs r JOIN track_run_counts c ON c.run_id = r.id
         WHERE (?1 IS NULL OR r.set_name = ?1 COLLATE NOCASE)
           AND r.id NOT IN (SELECT run_id FROM track_imports)
         UNION ALL
         SELECT r.id, r.set_name, r.started_at, r.planned,
                count(i.job_id),
                sum(i.job_id IS NULL AND i.refused IS NULL),
                sum(i.refused IS NOT NULL),
                sum(j.state = 'done'),
                sum(j.state IN ('failed', 'expired')),
                sum(j.state IN ('pending', 'error')),
                r.rowid,
                sum(j.state = 'done' AND i.kind = 'ai')
         FROM track_runs r
         LEFT JOIN track_items i ON i.run_id = r.id
         LEFT JOIN jobs j ON j.id = i.job_id
         WHERE (?1 IS NULL OR r.set_name = ?1 COLLATE NOCASE)
           AND NOT EXISTS (SELECT 1 FROM track_run_counts c WHERE c.run_id = r.id)
           AND r.id NOT IN (SELECT run_id FROM track_imports)
         GROUP BY r.id
         ORDER BY 11",
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
            done_answers: count(row.get(11)?),
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
impl super::Store {
    /// Why a run's failed jobs failed, with how many gave each reason (most first).
    pub fn track_failures(&self, run: &RunId) -> Result<Vec<(String, u32)>, StoreError> {
        self.with_reader(|c| failures(c, run))
    }
}

/// Why a run's failed jobs failed: each reason kept with them, and how many jobs gave it.
fn failures(conn: &Connection, run: &RunId) -> Result<Vec<(String, u32)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT coalesce(j.last_error, ''), count(*) FROM track_items i
         JOIN jobs j ON j.id = i.job_id
         WHERE i.run_id = ?1 AND j.state = 'failed'
         GROUP BY 1 ORDER BY 2 DESC",
    )?;
    let rows = statement.query_map([run.as_str()], |row| Ok((row.get(0)?, row.get(1)?)))?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

pub(super) fn items(conn: &Connection, run: &RunId) -> Result<Vec<RunItem>, StoreError> {
    items_between(conn, run, 0, u32::MAX, true)
}

/// The calls of a run numbered `first` to `last`, in order, with their job's state, and
/// their result body when `bodies`.
pub(super) fn items_between(
    conn: &Connection,
    run: &RunId,
    first: u32,
    last: u32,
    bodies: bool,
) -> Result<Vec<RunItem>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT i.seq, i.kind, i.request, i.job_id, j.state, i.sends, i.refused,
                CASE WHEN ?4 THEN r.body END
         FROM track_items i
         LEFT JOIN jobs j ON j.id = i.job_id
         LEFT JOIN job_results r ON r.job_id = i.job_id
         WHERE i.run_id = ?1 AND i.seq BETWEEN ?2 AND ?3 ORDER BY i.seq",
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
        .query_map(params![run.as_str(), first, last, bodies], |row| {
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

/// A set's runs as the store reads them, for every view of tracking (off the UI task).
impl super::Store {
    /// Tracking runs with their counts, oldest first: of one set (any case), or of all.
    pub fn track_runs(&self, set: Option<&str>) -> Result<Vec<RunSummary>, StoreError> {
        self.with_reader(|c| runs(c, set))
    }

    /// The posts of alerts to the webhook, delivered or waiting to be tried again.
    pub fn webhook_deliveries(&self, set: Option<&str>) -> Result<Vec<Delivery>, StoreError> {
        self.with_reader(|c| deliveries(c, set))
    }

    pub fn track_run(&self, id: &RunId) -> Result<Option<RunSummary>, StoreError> {
        self.with_reader(|c| run(c, id))
    }

    /// The calls of a run not sent yet, by number.
    pub fn track_unsent(&self, run: &RunId) -> Result<Vec<(u32, RequestParams)>, StoreError> {
        self.with_reader(|c| unsent(c, run))
    }

    /// The jobs of a set's runs still to poll.
    pub fn track_open_jobs(&self, set: &str) -> Result<Vec<JobRecord>, StoreError> {
        self.with_reader(|c| open_jobs(c, set))
    }

    /// Every call of a run with its job's state and result.
    pub fn track_items(&self, run: &RunId) -> Result<Vec<RunItem>, StoreError> {
        self.with_reader(|c| items(c, run))
    }
}
