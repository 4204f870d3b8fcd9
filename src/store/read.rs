//! The queries behind the store's read functions.

use rusqlite::{Connection, OptionalExtension, Row, params_from_iter};

use super::StoreError;
use super::model::{
    Body, Devices, EntryId, HistoryEntry, HistoryItem, JobEvent, JobRecord, RequestKind,
    RequestParams,
};
use crate::api::{JobId, JobKind};
use crate::jobs::JobState;

fn corrupt(what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(what.to_string())
}

pub(super) const JOB_COLUMNS: &str =
    "id, kind, request, summary, state, known, created_at, last_poll_at,
    next_poll_at, attempts, result_size, last_error";

/// A job row as stored, before its text columns are parsed.
pub(super) struct JobRow {
    id: String,
    kind: String,
    request: Option<String>,
    summary: String,
    state: String,
    known: bool,
    created_at: i64,
    last_poll_at: Option<i64>,
    next_poll_at: Option<i64>,
    attempts: i64,
    result_size: Option<i64>,
    last_error: Option<String>,
}

pub(super) fn job_row(row: &Row<'_>) -> rusqlite::Result<JobRow> {
    Ok(JobRow {
        id: row.get(0)?,
        kind: row.get(1)?,
        request: row.get(2)?,
        summary: row.get(3)?,
        state: row.get(4)?,
        known: row.get(5)?,
        created_at: row.get(6)?,
        last_poll_at: row.get(7)?,
        next_poll_at: row.get(8)?,
        attempts: row.get(9)?,
        result_size: row.get(10)?,
        last_error: row.get(11)?,
    })
}

pub(super) fn job_record(row: JobRow) -> Result<JobRecord, StoreError> {
    let kind: JobKind = row.kind.parse().map_err(corrupt)?;
    let request_kind = match kind {
        JobKind::Ai => RequestKind::Ai,
        JobKind::Search => RequestKind::Search,
        JobKind::Browser => RequestKind::Browser,
    };
    let request = match &row.request {
        // A request that no longer parses is shown without it rather than hiding the job.
        Some(json) => RequestParams::from_json(request_kind, json).ok(),
        None => None,
    };
    Ok(JobRecord {
        id: JobId::parse(&row.id).map_err(corrupt)?,
        kind,
        request,
        summary: row.summary,
        state: row.state.parse().map_err(corrupt)?,
        known: row.known,
        created_at: row.created_at,
        last_poll_at: row.last_poll_at,
        next_poll_at: row.next_poll_at,
        attempts: u32::try_from(row.attempts).unwrap_or(0),
        result_size: row.result_size.and_then(|s| u64::try_from(s).ok()),
        last_error: row.last_error,
    })
}

pub fn jobs(conn: &Connection, states: Option<&[JobState]>) -> Result<Vec<JobRecord>, StoreError> {
    let (filter, values): (String, Vec<&str>) = match states {
        Some(states) => (
            format!(
                "WHERE state IN ({})",
                vec!["?"; states.len().max(1)].join(", ")
            ),
            if states.is_empty() {
                vec![""]
            } else {
                states.iter().map(|s| s.as_str()).collect()
            },
        ),
        None => (String::new(), Vec::new()),
    };
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {JOB_COLUMNS} FROM jobs {filter} ORDER BY created_at DESC, rowid DESC"
    ))?;
    let rows = statement
        .query_map(params_from_iter(values), job_row)?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter().map(job_record).collect()
}

/// Every open job (pending or in error, through the state index) and the newest `newest`
/// others (the last written: jobs are written as they are queued), newest first. What a
/// view of the jobs reads: the rows it holds do not grow with the store.
pub fn recent_jobs(conn: &Connection, newest: usize) -> Result<Vec<JobRecord>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {JOB_COLUMNS} FROM jobs WHERE rowid IN (
            SELECT rowid FROM jobs WHERE state IN ('pending', 'error')
            UNION ALL
            SELECT rowid FROM (SELECT rowid FROM jobs ORDER BY rowid DESC LIMIT ?1))
         ORDER BY created_at DESC, rowid DESC"
    ))?;
    let newest = i64::try_from(newest).unwrap_or(i64::MAX);
    let rows = statement
        .query_map([newest], job_row)?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter().map(job_record).collect()
}

/// How many jobs are stored in each state (counted on the state index).
pub fn job_counts(conn: &Connection) -> Result<Vec<(JobState, usize)>, StoreError> {
    let mut statement =
        conn.prepare_cached("SELECT state, count(*) FROM jobs GROUP BY state ORDER BY state")?;
    let rows = statement
        .query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(state, n)| {
            Ok((
                state.parse().map_err(corrupt)?,
                usize::try_from(n).unwrap_or(0),
            ))
        })
        .collect()
}

pub fn job(conn: &Connection, id: &JobId) -> Result<Option<JobRecord>, StoreError> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?1"))?;
    statement
        .query_row([id.as_str()], job_row)
        .optional()?
        .map(job_record)
        .transpose()
}

fn body(row: &Row<'_>) -> rusqlite::Result<Body> {
    Ok(Body {
        status: row.get(0)?,
        text: row.get(1)?,
        elapsed_ms: u64::try_from(row.get::<_, i64>(2)?).unwrap_or(0),
        received_at: row.get(3)?,
    })
}

pub fn job_result(conn: &Connection, id: &JobId) -> Result<Option<Body>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT status, body, elapsed_ms, received_at FROM job_results WHERE job_id = ?1",
    )?;
    Ok(statement.query_row([id.as_str()], body).optional()?)
}

pub fn job_events(conn: &Connection, id: &JobId) -> Result<Vec<JobEvent>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT from_state, to_state, at, note FROM job_events WHERE job_id = ?1 ORDER BY seq",
    )?;
    let rows = statement
        .query_map([id.as_str()], |row| {
            Ok((
                row.get::<_, Option<String>>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, i64>(2)?,
                row.get::<_, Option<String>>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(from, to, at, note)| {
            Ok(JobEvent {
                from: from.map(|f| f.parse()).transpose().map_err(corrupt)?,
                to: to.parse().map_err(corrupt)?,
                at,
                note,
            })
        })
        .collect()
}

pub(super) const HISTORY_COLUMNS: &str =
    "r.id, r.kind, r.summary, r.created_at, s.status, s.elapsed_ms, s.size, r.origin";

pub(super) fn history_item(row: &Row<'_>) -> rusqlite::Result<(HistoryItem, String)> {
    let kind: String = row.get(1)?;
    Ok((
        HistoryItem {
            id: EntryId(row.get(0)?),
            kind: RequestKind::Ai,
            summary: row.get(2)?,
            created_at: row.get(3)?,
            status: row.get(4)?,
            elapsed_ms: row
                .get::<_, Option<i64>>(5)?
                .and_then(|v| u64::try_from(v).ok()),
            size: row
                .get::<_, Option<i64>>(6)?
                .and_then(|v| u64::try_from(v).ok()),
            // An origin this build does not know reads as the app's rather than failing.
            origin: row
                .get::<_, String>(7)?
                .parse()
                .unwrap_or(crate::store::Origin::App),
        },
        kind,
    ))
}

pub(super) fn with_kind(
    (mut item, kind): (HistoryItem, String),
) -> Result<HistoryItem, StoreError> {
    item.kind = kind.parse().map_err(corrupt)?;
    Ok(item)
}

/// The rows of History's list, newest first: the page's rowids are found by walking the
/// time index alone (an offset far down skips index entries, never rows), and only the rows
/// of the page are then read, each response's status, time and size from its covering index
/// (never through a body, which SQLite stores on overflow pages before those columns).
const HISTORY_PAGE: &str = "SELECT {columns} FROM (
        SELECT rowid AS k FROM requests ORDER BY created_at DESC, rowid DESC
        LIMIT ?1 OFFSET ?2) w
    JOIN requests r ON r.rowid = w.k
    LEFT JOIN responses s {indexed} ON s.request_id = r.id
    ORDER BY r.created_at DESC, r.rowid DESC";

/// The covering index History's rows read a response through; a file opened read-only at a
/// schema older than it has none.
pub(super) const RESPONSES_FOR_HISTORY: &str = "INDEXED BY responses_for_history";

/// Prepares `sql` with `{columns}` filled in and `{indexed}` naming the covering index of the
/// responses, or without it when the file has no such index (an older file read as it is).
pub(super) fn prepare_history_query<'c>(
    conn: &'c Connection,
    sql: &str,
) -> Result<rusqlite::CachedStatement<'c>, StoreError> {
    let sql = sql.replace("{columns}", HISTORY_COLUMNS);
    match conn.prepare_cached(&sql.replace("{indexed}", RESPONSES_FOR_HISTORY)) {
        Ok(statement) => Ok(statement),
        Err(_) => Ok(conn.prepare_cached(&sql.replace("{indexed}", ""))?),
    }
}

pub fn history(
    conn: &Connection,
    limit: usize,
    offset: usize,
) -> Result<Vec<HistoryItem>, StoreError> {
    let mut statement = prepare_history_query(conn, HISTORY_PAGE)?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = statement
        .query_map([limit, offset], history_item)?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter().map(with_kind).collect()
}

pub fn history_len(conn: &Connection) -> Result<usize, StoreError> {
    let n: i64 = conn.query_row("SELECT count(*) FROM requests", [], |r| r.get(0))?;
    Ok(usize::try_from(n).unwrap_or(0))
}

pub fn history_entry(conn: &Connection, id: &EntryId) -> Result<Option<HistoryEntry>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {HISTORY_COLUMNS}, r.params FROM requests r
         LEFT JOIN responses s ON s.request_id = r.id WHERE r.id = ?1"
    ))?;
    let Some((item, params)) = statement
        .query_row([id.as_str()], |row| {
            Ok((history_item(row)?, row.get::<_, String>(8)?))
        })
        .optional()?
    else {
        return Ok(None);
    };
    let item = with_kind(item)?;
    let request = RequestParams::from_json(item.kind, &params).map_err(corrupt)?;
    let mut statement = conn.prepare_cached(
        "SELECT status, body, elapsed_ms, received_at FROM responses WHERE request_id = ?1",
    )?;
    let response = statement.query_row([id.as_str()], body).optional()?;
    Ok(Some(HistoryEntry {
        item,
        request,
        response,
    }))
}

/// The ids of the entries whose id starts with `prefix`, at most `max`, in id order. The
/// range on the primary key reads only the matching ids, however many entries are stored.
pub fn history_ids_starting(
    conn: &Connection,
    prefix: &str,
    max: usize,
) -> Result<Vec<EntryId>, StoreError> {
    // Every id that starts with the prefix sorts before the prefix followed by the last char.
    let end = format!("{prefix}\u{10FFFF}");
    let mut statement = conn.prepare_cached(
        "SELECT id FROM requests WHERE id >= ?1 AND id < ?2 ORDER BY id LIMIT ?3",
    )?;
    let max = i64::try_from(max).unwrap_or(i64::MAX);
    let ids = statement
        .query_map(rusqlite::params![prefix, end, max], |row| row.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(ids.into_iter().map(EntryId).collect())
}

pub fn devices(
    conn: &Connection,
    list: crate::devices::DeviceList,
) -> Result<Option<Devices>, StoreError> {
    let row: Option<(String, i64)> = conn
        .query_row(
            "SELECT names, fetched_at FROM devices WHERE id = ?1",
            [list.key()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    row.map(|(names, fetched_at)| {
        Ok(Devices {
            names: serde_json::from_str(&names).map_err(corrupt)?,
            fetched_at,
        })
    })
    .transpose()
}
