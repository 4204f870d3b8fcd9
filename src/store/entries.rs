//! History entries for jobs stored without one: the jobs of runs brought in by `track
//! import`. A run made here gives each call its entry when it is sent (origin `track`), and
//! the writer answers it when the job's result is stored (`writer::update_job`); an
//! imported job gets the same entry when its row is imported — its request, summary and
//! time — answered by its result once that is here, so its answer is in History, its
//! full-text search (the index's triggers) and discovery like any other.
//!
//! Idempotent: a job that has its entry (`jobs.entry_id`) gets no second one, and an entry
//! that has its answer keeps it. An entry History has since trimmed is not made again.

use rusqlite::{Connection, OptionalExtension, params};

use super::model::{Body, EntryId, Origin, RequestKind, RequestParams};
use super::writer::{add_response, unanswered};
use crate::api::JobId;
use crate::jobs::JobState;

/// Gives the job `id` its History entry when it has none and is an AI answer or a search
/// with a request that reads: the request at the job's time, and the answer when its result
/// (or its end without one) is stored.
pub(super) fn enter(tx: &Connection, id: &str) -> Result<(), rusqlite::Error> {
    let job: Option<(String, String, String, i64, String, i64)> = tx
        .prepare_cached(
            "SELECT kind, CAST(request AS TEXT), CAST(summary AS TEXT),
                    CAST(created_at AS INTEGER), state,
                    CAST(coalesce(last_poll_at, created_at) AS INTEGER)
             FROM jobs WHERE id = ?1 AND entry_id IS NULL AND request IS NOT NULL
                 AND kind IN ('ai', 'search')",
        )?
        .query_row([id], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })
        .optional()?;
    let Some((kind, request, summary, created_at, state, ended_at)) = job else {
        return Ok(());
    };
    // A request this vantage cannot read would be an entry History cannot show.
    let Ok(kind) = kind.parse::<RequestKind>() else {
        return Ok(());
    };
    let Ok(params) = RequestParams::from_json(kind, &request) else {
        return Ok(());
    };
    let summary = match summary.trim() {
        "" => params.summary(),
        _ => summary,
    };
    let entry = EntryId::new();
    tx.prepare_cached(
        "INSERT INTO requests (id, kind, params, summary, created_at, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        entry.as_str(),
        kind.as_str(),
        params.to_json(),
        summary,
        created_at,
        Origin::Track.as_str()
    ])?;
    tx.prepare_cached("UPDATE jobs SET entry_id = ?2 WHERE id = ?1")?
        .execute(params![id, entry.as_str()])?;
    if let Some(body) = result(tx, id)? {
        return add_response(tx, &entry, &body);
    }
    let state = state.parse::<JobState>().ok();
    if let (Some(state @ (JobState::Failed | JobState::Expired)), Ok(job)) =
        (state, JobId::parse(id))
    {
        add_response(tx, &entry, &unanswered(&job, state, ended_at, None))?;
    }
    Ok(())
}

/// Answers the entry of the job `id` with its stored result, when the entry is still here
/// and has no answer yet (the job's row came in an earlier batch than its result).
pub(super) fn answer(tx: &Connection, id: &str) -> Result<(), rusqlite::Error> {
    let entry: Option<String> = tx
        .prepare_cached(
            "SELECT j.entry_id FROM jobs j JOIN requests r ON r.id = j.entry_id
             WHERE j.id = ?1
                 AND NOT EXISTS (SELECT 1 FROM responses s WHERE s.request_id = j.entry_id)",
        )?
        .query_row([id], |r| r.get(0))
        .optional()?;
    let Some(entry) = entry else {
        return Ok(());
    };
    match result(tx, id)? {
        Some(body) => add_response(tx, &EntryId(entry), &body),
        None => Ok(()),
    }
}

/// The stored result of the job `id`, as History keeps an answer.
fn result(tx: &Connection, id: &str) -> Result<Option<Body>, rusqlite::Error> {
    tx.prepare_cached(
        "SELECT CAST(status AS INTEGER), CAST(body AS TEXT), CAST(elapsed_ms AS INTEGER),
                CAST(received_at AS INTEGER)
         FROM job_results WHERE job_id = ?1",
    )?
    .query_row([id], |r| {
        Ok(Body {
            status: u16::try_from(r.get::<_, i64>(0)?).unwrap_or(0),
            text: r.get(1)?,
            elapsed_ms: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
            received_at: r.get(3)?,
        })
    })
    .optional()
}
