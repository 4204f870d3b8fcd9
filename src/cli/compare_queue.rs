//! `vantage compare` through the service's queue: a grid larger than is asked at once (or
//! any with `--queue`) is one History entry whose columns are each an async job, its id
//! stored with its column the moment it arrives (`store::grid`). The jobs are polled until
//! every column is in, each said as it lands; a run cut short (Ctrl+C, a kill, the machine
//! off) is finished by `vantage compare --resume ID`, which polls the jobs it holds and
//! submits only the columns that have none (or whose job failed or expired): no column is
//! asked twice.

use std::collections::HashMap;

use super::compare::ColumnRequest;
use super::err;
use super::jobs::{WatchEnd, drive_jobs};
use super::sim::wait_for_shutdown_signal;
use crate::api::{ApiError, BodyAsked, Client, JobId, JobKind};
use crate::exit;
use crate::jobs::{JobState, MAX_IN_FLIGHT, Scheduler};
use crate::present::answer::{PreparedAnswer, prepare_stored};
use crate::present::compare::overview::stored_overview;
use crate::present::compare::stored_column;
use crate::store::{Body, EntryId, JobRecord, NewJob, Store, now_ms};
use crate::track::submit::{Refusal, queue};

/// Polls in a row that may fail before a watch gives up on the service for now.
const ERROR_LIMIT: u32 = 5;
/// Rounds in which a column whose job failed or expired is asked again within the run.
const REASK_ROUNDS: usize = 2;

/// What each column holds before anything is sent: its job, and what to do about it.
struct Held {
    jobs: HashMap<usize, JobRecord>,
}

impl Held {
    fn read(store: &Store, entry: &EntryId) -> Result<Held, crate::store::StoreError> {
        let mut jobs = HashMap::new();
        for (column, id) in store.grid_columns(entry)? {
            if let Some(job) = store.job(&id)? {
                jobs.insert(column, job);
            }
        }
        Ok(Held { jobs })
    }

    /// The columns to submit: those with no job, or whose job ended with no answer.
    fn to_ask(&self, columns: usize) -> Vec<usize> {
        (0..columns)
            .filter(|c| {
                self.jobs
                    .get(c)
                    .is_none_or(|job| matches!(job.state, JobState::Failed | JobState::Expired))
            })
            .collect()
    }
}

/// The columns a queued comparison still has to ask (all of a new one): what its cost line
/// counts.
pub(super) fn still_to_ask(
    store: &Store,
    entry: &EntryId,
    columns: usize,
) -> Result<Vec<usize>, i32> {
    Held::read(store, entry)
        .map(|held| held.to_ask(columns))
        .map_err(|error| {
            err(&error.to_string());
            error.exit_code()
        })
}

/// Asks every column of the comparison `entry` through the queue and waits for them all:
/// each column's answer or error, in order; stored as the entry's answer once whole. `Err`
/// is the exit code of a grid left to resume (stopped, unreachable, or a store that failed).
pub(super) async fn ask(
    store: &Store,
    client: &Client,
    entry: &EntryId,
    requests: &[ColumnRequest],
    labels: &[String],
) -> Result<Vec<Result<PreparedAnswer, ApiError>>, i32> {
    let total = requests.len();
    let resume = || format!("`vantage compare --resume {}`", short(entry));
    let store_failed = |error: crate::store::StoreError| {
        err(&format!(
            "{error} The columns already queued stay stored; {} goes on.",
            resume()
        ));
        error.exit_code()
    };
    let mut refused: HashMap<usize, ApiError> = HashMap::new();
    for round in 0..=REASK_ROUNDS {
        let held = Held::read(store, entry).map_err(store_failed)?;
        let to_ask: Vec<usize> = held
            .to_ask(total)
            .into_iter()
            .filter(|c| !refused.contains_key(c))
            .collect();
        if round > 0 && to_ask.is_empty() {
            break;
        }
        let again = to_ask.iter().filter(|c| held.jobs.contains_key(c)).count();
        if again > 0 {
            // As a tracking run pauses before its re-asks: 2 s, then 8 s.
            let pause = match round {
                0 => std::time::Duration::ZERO,
                _ => crate::track::reask::reask_pause(round as u32),
            };
            err(&format!(
                "{} gave no answer (the job failed or expired): asked again{}, each priced as any call.",
                crate::plural::count(again as u64, "column", "columns"),
                match round {
                    0 => String::new(),
                    _ => format!(", round {round} of {REASK_ROUNDS}"),
                }
            ));
            tokio::time::sleep(pause).await;
        }
        submit(store, client, entry, requests, &to_ask, &mut refused)
            .await
            .map_err(store_failed)?;
        if refused
            .values()
            .any(|e| matches!(Refusal::of(e), Refusal::Account(_)))
        {
            err(&format!(
                "Queuing stopped: the columns not sent stay to ask; {} asks them.",
                resume()
            ));
        }
        poll(store, client, entry, total, labels, round == 0)
            .await
            .map_err(|end| match end {
                PollEnd::Stopped => {
                    err(&format!(
                        "Stopped. {} finishes the comparison; nothing is asked again.",
                        resume()
                    ));
                    exit::CANCELLED
                }
                PollEnd::Unreachable(message) => {
                    err(&message);
                    err(&format!(
                        "The service could not be reached; the jobs stay stored, and {} finishes the comparison.",
                        resume()
                    ));
                    exit::NO_ANSWER
                }
                PollEnd::Store(error) => store_failed(error),
            })?;
    }
    let held = Held::read(store, entry).map_err(store_failed)?;
    let mut columns = Vec::with_capacity(total);
    for (column, request) in requests.iter().enumerate() {
        let result = match (held.jobs.get(&column), refused.remove(&column)) {
            (_, Some(error)) => Err(error),
            (Some(job), None) => column_result(store, job, request.clone()).await,
            (None, None) => Err(ApiError::JobFailed(Some(
                "the column was not queued".to_string(),
            ))),
        };
        columns.push(result);
    }
    keep_answer(store, entry, &columns)
        .await
        .map_err(store_failed)?;
    let unanswered = columns.iter().filter(|c| c.is_err()).count();
    if unanswered > 0 {
        err(&format!(
            "{} without an answer; {} asks only those again.",
            crate::plural::count(unanswered as u64, "column", "columns"),
            resume()
        ));
    }
    Ok(columns)
}

/// Submits `columns`, a few at once, each id stored with its column the moment it arrives;
/// a column the service refused keeps its error. Once the account cannot send (no token,
/// no credits), the columns not yet sent are not tried.
async fn submit(
    store: &Store,
    client: &Client,
    entry: &EntryId,
    requests: &[ColumnRequest],
    columns: &[usize],
    refused: &mut HashMap<usize, ApiError>,
) -> Result<(), crate::store::StoreError> {
    use futures_util::StreamExt;
    let stopped_by: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
    let stopped = || stopped_by.lock().ok().and_then(|s| s.clone());
    let mut sent = futures_util::stream::iter(columns.iter().copied())
        .map(|column| {
            let stopped = &stopped;
            async move {
                if let Some(sentence) = stopped() {
                    return (column, Err(ApiError::JobFailed(Some(sentence))));
                }
                let params = requests[column].params();
                (column, queue(client, &params).await.map(|id| (id, params)))
            }
        })
        .buffer_unordered(MAX_IN_FLIGHT);
    while let Some((column, result)) = sent.next().await {
        match result {
            Ok((id, params)) => {
                store
                    .record_grid_job(entry, column, NewJob::submitted(id, params))
                    .await?
            }
            Err(error) => {
                if let Refusal::Account(sentence) = Refusal::of(&error)
                    && let Ok(mut stop) = stopped_by.lock()
                {
                    stop.get_or_insert(sentence);
                }
                refused.insert(column, error);
            }
        }
    }
    Ok(())
}

/// How polling a grid's jobs ended short of every one landing.
enum PollEnd {
    Stopped,
    Unreachable(String),
    Store(crate::store::StoreError),
}

/// Polls the grid's open jobs until none waits, each column said as it lands.
async fn poll(
    store: &Store,
    client: &Client,
    entry: &EntryId,
    total: usize,
    labels: &[String],
    first: bool,
) -> Result<(), PollEnd> {
    let held = Held::read(store, entry).map_err(PollEnd::Store)?;
    let open: Vec<&JobRecord> = held.jobs.values().filter(|j| j.is_open()).collect();
    let mut landed = held
        .jobs
        .values()
        .filter(|j| j.state == JobState::Done)
        .count();
    if first {
        err(&format!(
            "Comparison {}: {} queued, {landed} in; each is said as it lands. Ctrl+C stops: the jobs stay stored, and `vantage compare --resume {}` finishes it.",
            short(entry),
            crate::plural::count(total as u64, "column", "columns"),
            short(entry)
        ));
    }
    if open.is_empty() {
        return Ok(());
    }
    let column_of: HashMap<JobId, usize> =
        held.jobs.iter().map(|(c, j)| (j.id.clone(), *c)).collect();
    let now = now_ms();
    let mut scheduler = Scheduler::new().with_error_limit(ERROR_LIMIT);
    for job in &open {
        scheduler.insert(job.tracked(now));
    }
    let retrieve = |kind: JobKind, id: JobId, asked: BodyAsked| {
        let client = client.clone();
        async move { client.job(kind, &id, asked).await }
    };
    let report = |transition: &crate::jobs::Transition, size: Option<u64>| {
        let Some(&column) = column_of.get(&transition.id) else {
            return;
        };
        if !transition.to.is_terminal() || !transition.changed() {
            return;
        }
        let label = labels.get(column).map_or("", String::as_str);
        let how = match (transition.to, size) {
            (JobState::Done, size) => {
                landed += 1;
                match size {
                    Some(size) => format!("answered ({})", crate::measure::size(size)),
                    None => "answered".to_string(),
                }
            }
            (state, _) => format!("{state}, no answer"),
        };
        err(&format!("[{landed}/{total}] {label}: {how}"));
    };
    match drive_jobs(
        store,
        &mut scheduler,
        retrieve,
        wait_for_shutdown_signal(),
        report,
    )
    .await
    {
        Ok(WatchEnd::Settled) => Ok(()),
        Ok(WatchEnd::Stopped) => Err(PollEnd::Stopped),
        Ok(WatchEnd::Unreachable(message)) => Err(PollEnd::Unreachable(message)),
        Err(error) => Err(PollEnd::Store(error)),
    }
}

/// A column's answer from its job's stored result, read off the async task.
async fn column_result(
    store: &Store,
    job: &JobRecord,
    request: ColumnRequest,
) -> Result<PreparedAnswer, ApiError> {
    if job.state != JobState::Done {
        // The service's words, not the Jobs tab's advice: the comparison says what to do.
        let said = job
            .last_error
            .as_deref()
            .map(|e| crate::jobs::said_in(e).unwrap_or(e));
        return Err(ApiError::Unanswered(format!(
            "Its job ended {} with no answer{}.",
            job.state,
            said.map(|s| format!(": {s}")).unwrap_or_default()
        )));
    }
    let unread = |what: String| ApiError::BadBody {
        what,
        excerpt: String::new(),
    };
    let body = store
        .job_result(&job.id)
        .map_err(|e| unread(format!("the stored result could not be read: {e}")))?
        .ok_or_else(|| unread("the job's result is not stored".to_string()))?;
    // How long the column waited: from its submission until its result came.
    let waited = body.received_at.saturating_sub(job.created_at);
    let elapsed = std::time::Duration::from_millis(u64::try_from(waited).unwrap_or(0));
    tokio::task::spawn_blocking(move || match request {
        ColumnRequest::Ai(request) => prepare_stored(request, &body.text)
            .map(|mut answer| {
                answer.header.elapsed = elapsed;
                answer
            })
            .ok_or_else(|| unread("the stored result is not an answer".to_string())),
        ColumnRequest::Overview(request) => Ok(stored_overview(request, body.text, elapsed)),
    })
    .await
    .map_err(|e| unread(format!("reading the answer stopped: {e}")))?
}

/// The comparison's answer, as a comparison asked at once keeps it: each column's body as
/// received and time taken, or its error.
async fn keep_answer(
    store: &Store,
    entry: &EntryId,
    columns: &[Result<PreparedAnswer, ApiError>],
) -> Result<(), crate::store::StoreError> {
    let stored: Vec<serde_json::Value> = columns
        .iter()
        .map(|column| match column {
            Ok(answer) => stored_column(200, &answer.body, answer.header.elapsed),
            Err(e) => stored_column(
                e.status().unwrap_or(0),
                &e.to_string(),
                std::time::Duration::ZERO,
            ),
        })
        .collect();
    let body = Body {
        status: 200,
        text: serde_json::Value::Array(stored).to_string(),
        elapsed_ms: 0,
        received_at: now_ms(),
    };
    store.add_response(entry, body).await
}

/// An entry's id as `vantage history` shows it, enough to resume by.
fn short(entry: &EntryId) -> &str {
    entry
        .as_str()
        .get(..super::history_show::SHOWN_ID)
        .unwrap_or(entry.as_str())
}
