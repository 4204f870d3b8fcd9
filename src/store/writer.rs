//! The one thread that writes: it owns the write connection and applies whatever commands
//! are queued in one transaction per batch, then answers each command's acknowledgement.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

use super::StoreError;
use super::health::{self, Health, HealthCell, is_damage};
use super::model::{Body, EntryId, JobUpdate, NewJob, Origin, RequestParams};
use crate::api::JobId;
use crate::jobs::{JobState, UnixMs};

/// Commands applied together at most; more wait for the next transaction.
const MAX_BATCH: usize = 512;

pub(super) enum Op {
    AddRequest {
        id: EntryId,
        params: RequestParams,
        created_at: UnixMs,
        origin: Origin,
    },
    AddResponse {
        id: EntryId,
        body: Body,
    },
    RecordJob(NewJob),
    /// A queued comparison column's job, with its column (`grid.rs`).
    GridJob {
        entry: EntryId,
        column: usize,
        job: NewJob,
    },
    UpdateJob(JobUpdate),
    DeleteJob(JobId),
    DeleteHistory(EntryId),
    ClearHistory,
    SaveDevices {
        list: crate::devices::DeviceList,
        names: Vec<String>,
        fetched_at: UnixMs,
    },
    SetHistoryLimit(usize),
    /// Nothing to write: acknowledged once everything queued before it is committed.
    Barrier,
    /// A tracking run's writes (`track.rs`).
    Track(super::track::TrackWrite),
    /// The names answers put forward, read by the rules of `version` (`names.rs`).
    Names {
        version: u32,
        answers: Vec<super::names::AnswerNames>,
    },
    /// The list of answers to read, filled for the rules of `version` (`names.rs`).
    NamesPrepare {
        version: u32,
    },
    /// Tests: the file may not grow past its size now (`true`), or may again (`false`), so
    /// writes fail as on a full disk.
    #[cfg(test)]
    CapPages(bool),
}

pub(super) struct Command {
    pub op: Op,
    pub ack: Option<oneshot::Sender<Result<(), StoreError>>>,
}

/// The writer thread's state: its connection, and the health it shares with the handles.
pub(super) struct Writer {
    pub conn: Connection,
    pub path: PathBuf,
    pub health: Arc<HealthCell>,
    /// This process's session (`sessions.rs`): each History entry is listed as its call
    /// out until the answer or the job is stored.
    pub session: Option<String>,
}

impl Writer {
    pub(super) fn run(mut self, commands: Receiver<Command>, mut history_max: usize) {
        while let Ok(first) = commands.recv() {
            let mut batch = vec![first];
            while batch.len() < MAX_BATCH {
                match commands.try_recv() {
                    Ok(command) => batch.push(command),
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
                }
            }
            for command in &batch {
                if let Op::SetHistoryLimit(n) = command.op {
                    history_max = n;
                }
            }
            // Read apart from the match, so the health is not held locked during the batch.
            let refusal = self.health.borrow().refusal(&self.path);
            let results = match refusal {
                // Damaged or read-only since these were queued: nothing is written.
                Some(refusal) => batch
                    .iter()
                    .map(|c| match c.op {
                        Op::Barrier => Ok(()),
                        _ => Err(refusal.clone()),
                    })
                    .collect(),
                None => apply_batch(&mut self.conn, &batch, history_max, self.session.as_deref()),
            };
            for (command, result) in batch.into_iter().zip(results) {
                let result = result.map_err(|e| health::note(&self.health, &self.path, e));
                answer(command, result);
            }
        }
        // Every handle is gone. Closing the last connection folds the WAL back into the
        // file, unless the file is damaged: then nothing more goes into it.
        if matches!(*self.health.borrow(), Health::Damaged { .. }) {
            let _ = self
                .conn
                .set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true);
        }
    }
}

#[cfg(test)]
impl super::Store {
    /// Tests: writes that would grow the file fail as on a full disk (`true`), or not.
    pub(crate) fn cap_pages(&self, cap: bool) -> super::Ack {
        self.send(Op::CapPages(cap))
    }
}

fn answer(command: Command, result: Result<(), StoreError>) {
    if let Err(error) = &result {
        tracing::warn!(%error, "a store write failed");
    }
    if let Some(ack) = command.ack {
        let _ = ack.send(result);
    }
}

/// One transaction for the whole batch; each command in its own savepoint so that one bad
/// command does not undo the others.
fn apply_batch(
    conn: &mut Connection,
    batch: &[Command],
    history_max: usize,
    session: Option<&str>,
) -> Vec<Result<(), StoreError>> {
    match try_batch(conn, batch, history_max, session) {
        Ok(results) => results,
        Err(error) => {
            let error = StoreError::from(error);
            batch.iter().map(|_| Err(error.clone())).collect()
        }
    }
}

fn try_batch(
    conn: &mut Connection,
    batch: &[Command],
    history_max: usize,
    session: Option<&str>,
) -> Result<Vec<Result<(), StoreError>>, rusqlite::Error> {
    let mut tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let mut results = Vec::with_capacity(batch.len());
    let mut trim = false;
    for command in batch {
        let mut sp = tx.savepoint()?;
        let result = apply(&sp, &command.op, session);
        match result {
            Ok(()) => sp.commit()?,
            // Damage aborts the whole transaction: nothing of the batch reaches the file.
            Err(error) if is_damage(&error) => return Err(error),
            Err(_) => sp.rollback()?,
        }
        // An import makes History entries too (its jobs').
        trim |= matches!(
            command.op,
            Op::AddRequest { .. }
                | Op::SetHistoryLimit(_)
                | Op::Track(super::track::TrackWrite::Import(_))
        );
        results.push(result.map_err(StoreError::from));
    }
    if trim {
        trim_history(&tx, history_max)?;
    }
    tx.commit()?;
    Ok(results)
}

fn apply(tx: &Connection, op: &Op, session: Option<&str>) -> Result<(), rusqlite::Error> {
    match op {
        Op::AddRequest {
            id,
            params,
            created_at,
            origin,
        } => {
            let added = tx.execute(
                "INSERT INTO requests (id, kind, params, summary, created_at, origin)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (id) DO NOTHING",
                params![
                    id.as_str(),
                    params.kind().as_str(),
                    params.to_json(),
                    params.summary(),
                    created_at,
                    origin.as_str()
                ],
            )?;
            if let (1, Some(session)) = (added, session) {
                tx.execute(
                    "INSERT INTO calls_out (entry_id, session) VALUES (?1, ?2)",
                    params![id.as_str(), session],
                )?;
            }
        }
        Op::AddResponse { id, body } => add_response(tx, id, body)?,
        Op::RecordJob(job) => record_job(tx, job)?,
        Op::GridJob { entry, column, job } => super::grid::record(tx, entry, *column, job)?,
        Op::Track(write) => super::track::apply(tx, write)?,
        Op::Names { version, answers } => super::names::write(tx, *version, answers)?,
        Op::NamesPrepare { version } => super::names::prepare(tx, *version)?,
        Op::UpdateJob(update) => update_job(tx, update)?,
        Op::DeleteJob(id) => {
            tx.execute("DELETE FROM jobs WHERE id = ?1", [id.as_str()])?;
        }
        Op::DeleteHistory(id) => {
            tx.execute("DELETE FROM requests WHERE id = ?1", [id.as_str()])?;
        }
        Op::ClearHistory => {
            tx.execute("DELETE FROM requests", [])?;
        }
        Op::SaveDevices {
            list,
            names,
            fetched_at,
        } => {
            let names = serde_json::to_string(names).unwrap_or_else(|_| "[]".to_string());
            tx.execute(
                "INSERT INTO devices (id, names, fetched_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET names = excluded.names,
                    fetched_at = excluded.fetched_at",
                params![list.key(), names, fetched_at],
            )?;
        }
        Op::SetHistoryLimit(_) | Op::Barrier => {}
        #[cfg(test)]
        Op::CapPages(cap) => {
            let pages: i64 = match cap {
                true => tx.query_row("PRAGMA page_count", [], |r| r.get(0))?,
                false => i64::from(u32::MAX - 1),
            };
            tx.query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()))?;
        }
    }
    Ok(())
}

/// Stores the response of a History entry (one per entry: a later one replaces it).
pub(super) fn add_response(
    tx: &Connection,
    id: &EntryId,
    body: &Body,
) -> Result<(), rusqlite::Error> {
    add_response_taking(tx, id, body, body.elapsed_ms)
}

/// Stores the response of a History entry with the time the entry took, when that is not
/// the body's own (a queued job's entry took from its submission to its result).
fn add_response_taking(
    tx: &Connection,
    id: &EntryId,
    body: &Body,
    elapsed_ms: u64,
) -> Result<(), rusqlite::Error> {
    tx.execute(
        "INSERT INTO responses (request_id, status, body, elapsed_ms, size, received_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM requests WHERE id = ?1)
         ON CONFLICT (request_id) DO UPDATE SET status = excluded.status,
            body = excluded.body, elapsed_ms = excluded.elapsed_ms,
            size = excluded.size, received_at = excluded.received_at",
        params![
            id.as_str(),
            body.status,
            body.text,
            elapsed_ms as i64,
            body.size() as i64,
            body.received_at
        ],
    )?;
    Ok(())
}

/// Inserts a queued job (nothing when its id is stored already) and its first event.
pub(super) fn record_job(tx: &Connection, job: &NewJob) -> Result<(), rusqlite::Error> {
    let inserted = tx.execute(
        "INSERT INTO jobs (id, kind, request, summary, state, known, created_at,
                               next_poll_at, attempts, entry_id)
             VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?6, ?7, 0, ?8)
             ON CONFLICT (id) DO NOTHING",
        params![
            job.id.as_str(),
            job.kind.as_str(),
            job.request.as_ref().map(RequestParams::to_json),
            job.summary,
            job.known,
            job.created_at,
            job.next_poll_at,
            job.entry.as_ref().map(EntryId::as_str)
        ],
    )?;
    if inserted == 1 {
        let note = if job.request.is_some() {
            "submitted"
        } else {
            "imported"
        };
        add_event(tx, &job.id, None, JobState::Pending, job.created_at, note)?;
        // A re-submission takes the old job's place in the tracking run that made it.
        if let Some(old) = &job.replaces {
            // The run's kept counts and tally no longer hold.
            tx.execute(
                "DELETE FROM track_run_counts WHERE run_id IN
                     (SELECT run_id FROM track_items WHERE job_id = ?1)",
                [old.as_str()],
            )?;
            tx.execute(
                "DELETE FROM track_tallies WHERE run_id IN
                     (SELECT run_id FROM track_items WHERE job_id = ?1)",
                [old.as_str()],
            )?;
            tx.execute(
                "DELETE FROM track_readings WHERE (run_id, seq) IN
                     (SELECT run_id, seq FROM track_items WHERE job_id = ?1)",
                [old.as_str()],
            )?;
            tx.execute(
                "UPDATE track_items SET job_id = ?1 WHERE job_id = ?2",
                params![job.id.as_str(), old.as_str()],
            )?;
        }
    }
    Ok(())
}

fn add_event(
    tx: &Connection,
    id: &JobId,
    from: Option<JobState>,
    to: JobState,
    at: UnixMs,
    note: &str,
) -> Result<(), rusqlite::Error> {
    tx.execute(
        "INSERT INTO job_events (job_id, from_state, to_state, at, note)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            id.as_str(),
            from.map(JobState::as_str),
            to.as_str(),
            at,
            (!note.is_empty()).then_some(note)
        ],
    )?;
    Ok(())
}

fn update_job(tx: &Connection, update: &JobUpdate) -> Result<(), rusqlite::Error> {
    let t = &update.transition;
    let current: Option<String> = tx
        .query_row(
            "SELECT state FROM jobs WHERE id = ?1",
            [t.id.as_str()],
            |r| r.get(0),
        )
        .optional()?;
    let Some(current) = current else {
        // Deleted while its poll was out: nothing to update.
        return Ok(());
    };
    let from = current.parse::<JobState>().ok();
    // A job stored as ended stays ended, whatever a late poll says.
    if from.is_some_and(JobState::is_terminal) && from != Some(t.to) {
        return Ok(());
    }
    // The result first: stored once, and its size recorded only with the body kept.
    let mut result_size = None;
    if let Some(body) = &update.result {
        let inserted = tx.execute(
            "INSERT INTO job_results (job_id, status, body, elapsed_ms, received_at)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (job_id) DO NOTHING",
            params![
                t.id.as_str(),
                body.status,
                body.text,
                body.elapsed_ms as i64,
                body.received_at
            ],
        )?;
        if inserted == 1 {
            result_size = Some(body.size() as i64);
        }
    }
    // The submission's History entry gets the answer, or says the job ended without one,
    // whichever process polled it.
    let ended_without_answer = update.result.is_none()
        && matches!(t.to, JobState::Failed | JobState::Expired)
        && from != Some(t.to);
    if update.result.is_some() || ended_without_answer {
        // With when it was asked: the entry took from the submission to the end, not the
        // last poll's few milliseconds.
        let entry: Option<(Option<String>, Option<i64>)> = tx
            .query_row(
                "SELECT j.entry_id, r.created_at FROM jobs j
                 LEFT JOIN requests r ON r.id = j.entry_id WHERE j.id = ?1",
                [t.id.as_str()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some((Some(entry), asked_at)) = entry {
            let ended = unanswered(&t.id, t.to, t.polled_at, t.error.as_deref());
            let body = update.result.as_ref().unwrap_or(&ended);
            let took = asked_at.map_or(body.elapsed_ms, |asked_at| {
                u64::try_from(body.received_at - asked_at).unwrap_or(0)
            });
            add_response_taking(tx, &EntryId(entry), body, took)?;
        }
    }
    tx.execute(
        "UPDATE jobs SET state = ?2, known = max(known, ?3), last_poll_at = ?4,
                next_poll_at = ?5, attempts = max(attempts, ?6), last_error = ?7,
                result_size = coalesce(?8, result_size)
         WHERE id = ?1",
        params![
            t.id.as_str(),
            t.to.as_str(),
            t.known,
            t.polled_at,
            t.next_poll_at,
            t.attempts,
            t.error,
            result_size
        ],
    )?;
    if from != Some(t.to) {
        add_event(
            tx,
            &t.id,
            from,
            t.to,
            t.polled_at,
            t.error.as_deref().unwrap_or(""),
        )?;
    }
    Ok(())
}

/// What a job's History entry says when the job failed or expired without an answer.
pub(super) fn unanswered(id: &JobId, state: JobState, at: UnixMs, why: Option<&str>) -> Body {
    let mut text = format!("The queued job {id} ended {state} without an answer.");
    if let Some(why) = why {
        text.push(' ');
        text.push_str(why);
    }
    Body {
        status: 0,
        text,
        elapsed_ms: 0,
        received_at: at,
    }
}

/// Keeps the newest `max` history entries (their responses go with them).
fn trim_history(tx: &Connection, max: usize) -> Result<(), rusqlite::Error> {
    let max = i64::try_from(max).unwrap_or(i64::MAX);
    tx.execute(
        "DELETE FROM requests WHERE rowid IN (
            SELECT rowid FROM requests ORDER BY created_at DESC, rowid DESC
            LIMIT -1 OFFSET ?1)",
        [max],
    )?;
    Ok(())
}
