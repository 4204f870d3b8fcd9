//! `vantage job` and `vantage jobs`: one queued job by id, and the stored jobs, listed or
//! watched until they end.

use std::time::Duration;

use clap::{Args, Subcommand};

use super::sim::wait_for_shutdown_signal;
use super::text::job_text;
use super::{err, out, out_as_received, pretty_body, with_newline};
use crate::api::client::poll_delay;
use crate::api::{ApiError, BodyAsked, Client, Fetched, JobId, JobKind, JobPoll};
use crate::config::Config;
use crate::exit;
use crate::jobs::{MAX_IN_FLIGHT, PollOutcome, Scheduler, StateCounts, TrackedJob, Transition};
use crate::sanitize::one_line;
use crate::store::{Body, JobRecord, NewJob, Store, StoreError, StoreOptions, now_ms};

#[derive(Debug, Args)]
pub struct JobArgs {
    /// ai, search or browser
    pub kind: JobKind,
    /// The job id: the whole UUID, or the start of a stored job's id as `vantage jobs`
    /// prints it (at least 4 characters)
    pub id: String,
    /// Poll until the job ends
    #[arg(long)]
    pub wait: bool,
    /// Print the service's JSON as received
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

#[derive(Debug, Args)]
pub struct JobsArgs {
    #[command(subcommand)]
    pub command: Option<JobsCommand>,
    /// Print the jobs as JSON
    #[arg(long, global = true)]
    pub json: bool,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum JobsCommand {
    /// Stored jobs, newest first: kind, id, state, age, attempts, summary (the default)
    List,
    /// Poll the pending jobs (at most 8 at once) until each has ended, storing results
    Watch,
    /// Ask failed or expired jobs again with their stored requests, as the app's Jobs tab
    /// does with R: each new job takes the old one's place (in a tracking run too) and is
    /// printed as "OLD NEW"; billed as any call
    Resubmit {
        /// The jobs' ids, or their starts as `vantage jobs` prints them (at least 4
        /// characters)
        #[arg(required = true, value_name = "ID")]
        ids: Vec<String>,
    },
}

pub(super) async fn run_job(
    config: &Config,
    client: &Client,
    args: JobArgs,
) -> Result<(), ApiError> {
    let id = resolve_id(config, args.kind, &args.id)?;
    let mut stored = StoredJob::open(config, &id);
    // A job this store did not submit may have asked for a page: its body is taken as it is.
    let asked = stored
        .as_ref()
        .map_or(crate::api::BodyAsked::Page, |stored| stored.job.asked);
    let mut polls = 0u32;
    loop {
        let result = client.job(args.kind, &id, asked).await;
        polls += 1;
        if let Some(job) = stored.as_mut() {
            job.record(&result).await;
        }
        let fetched = result?;
        match &fetched.value {
            JobPoll::Ready(answer) => {
                if args.json {
                    out_as_received(&with_newline(pretty_body(&fetched.body)));
                } else {
                    out(&with_newline(job_text(answer)));
                }
                return Ok(());
            }
            JobPoll::Failed(said) => return Err(ApiError::JobFailed(said.clone())),
            JobPoll::Pending(status) => {
                if !args.wait {
                    if args.json {
                        out_as_received(&with_newline(pretty_body(&fetched.body)));
                    } else {
                        out(&format!(
                            "pending ({}); use --wait to wait for it\n",
                            one_line(status)
                        ));
                    }
                    return Ok(());
                }
                let delay = poll_delay(polls);
                err(&format!(
                    "pending ({}); next poll in {} s",
                    one_line(status),
                    delay.as_secs()
                ));
                tokio::select! {
                    _ = tokio::time::sleep(delay) => {}
                    _ = tokio::signal::ctrl_c() => return Err(ApiError::Cancelled),
                }
            }
        }
    }
}

/// The shortest start of an id `resolve_id` takes: four hex digits already pick one job of
/// tens of thousands most of the time, and fewer would match by chance.
pub(super) const MIN_ID_PREFIX: usize = 4;

/// The job a typed id names: a whole UUID as is; the start of one (as `vantage jobs` prints
/// it) when exactly one stored job of that kind begins so. None or several is refused with a
/// sentence that says which.
fn resolve_id(config: &Config, kind: JobKind, typed: &str) -> Result<JobId, ApiError> {
    let typed = typed.trim();
    let not_an_id = match JobId::parse(typed) {
        Ok(id) => return Ok(id),
        Err(not_an_id) => not_an_id,
    };
    let prefix = typed.to_ascii_lowercase();
    let looks_like_start = prefix.len() >= MIN_ID_PREFIX
        && prefix.len() < 36
        && prefix.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    if !looks_like_start {
        return Err(not_an_id.into());
    }
    let stored = if config.data_dir.join(crate::store::DB_FILE).exists() {
        open_store(config)
            .and_then(|store| store.list_jobs())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let matching: Vec<&JobRecord> = stored
        .iter()
        .filter(|job| job.kind == kind && job.id.as_str().starts_with(&prefix))
        .collect();
    let sentence = match matching.as_slice() {
        [one] => return Ok(one.id.clone()),
        [] => format!(
            "No stored {kind} job's id starts with {prefix:?}; give the whole id, or see \
             `vantage jobs` for the stored ones."
        ),
        several => format!(
            "{} stored {kind} jobs' ids start with {prefix:?} ({}); type more of the id.",
            several.len(),
            several
                .iter()
                .take(4)
                .map(|job| job.id.as_str().get(..13).unwrap_or(job.id.as_str()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Err(ApiError::from(crate::api::InvalidRequest(vec![
        crate::api::FieldError {
            field: crate::api::Field::Id,
            message: sentence,
        },
    ])))
}

/// The stored copy of a job fetched by `vantage job`, kept in step with each poll the way the
/// app and `jobs watch` keep theirs, so that `vantage jobs` does not list a fetched job as
/// pending. Jobs not queued here (or a store that cannot open) are left alone: fetching by id
/// works without the store.
struct StoredJob {
    store: Store,
    job: TrackedJob,
}

impl StoredJob {
    fn open(config: &Config, id: &JobId) -> Option<StoredJob> {
        // Without a database there is nothing to keep in step; fetching must not create one.
        if !config.data_dir.join(crate::store::DB_FILE).exists() {
            return None;
        }
        let store = open_store(config).ok()?;
        let record = store.job(id).ok()??;
        let job = record.tracked(now_ms());
        Some(StoredJob { store, job })
    }

    /// Stores what one poll changed (and the result, once done), durably before the answer
    /// is printed. A failure to store is told, not fatal: the answer still reaches the user.
    async fn record<T>(&mut self, result: &Result<Fetched<JobPoll<T>>, ApiError>) {
        let now = now_ms();
        // The scheduler owns the rule of what a poll answer changes; this poll is due now.
        let mut scheduler = Scheduler::new();
        scheduler.insert(TrackedJob {
            next_poll_at: now,
            ..self.job.clone()
        });
        scheduler.due(now);
        let outcome = PollOutcome::of(result);
        let Some(transition) = scheduler.complete(&self.job.id, &outcome, now) else {
            // Already done or failed in the store: nothing to change.
            return;
        };
        if let Some(job) = scheduler.get(&self.job.id) {
            self.job = job.clone();
        }
        let body = match (&outcome, result) {
            (PollOutcome::Ready, Ok(fetched)) => Some(Body::of(fetched)),
            _ => None,
        };
        if let Err(error) = self.store.update_job(transition, body).await {
            err(&format!("{error} The job's new state was not stored."));
        }
    }
}

// ---- stored jobs ----

fn open_store(config: &Config) -> Result<Store, StoreError> {
    Store::open_in(&config.data_dir, StoreOptions::from_config(config))
}

/// Stores a job the moment its id arrives, then prints the id; returns the exit code. If the
/// store fails, the id is still printed, so that it is not lost, with the store's sentence,
/// and the exit code says local storage failed (6).
pub(super) async fn remember_job(config: &Config, job: NewJob) -> i32 {
    let id = job.id.clone();
    let kind = job.kind;
    let stored = match open_store(config) {
        Ok(store) => store.record_job(job).await,
        Err(error) => Err(error),
    };
    out(&format!("{id}\n"));
    match stored {
        Ok(()) => exit::OK,
        Err(error) => {
            err(&format!(
                "{error} The job was queued but not stored; fetch it with `vantage job {kind} {id}`."
            ));
            error.exit_code()
        }
    }
}

pub(super) async fn run_jobs(config: &Config, client: &Client, args: JobsArgs) -> i32 {
    let store = match open_store(config) {
        Ok(store) => store,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    match args.command.unwrap_or(JobsCommand::List) {
        JobsCommand::List => list_jobs(&store, args.json),
        JobsCommand::Watch => watch_jobs(&store, client).await,
        JobsCommand::Resubmit { ids } => {
            super::jobs_resubmit::resubmit(&store, client, config, &ids, args.json).await
        }
    }
}

fn list_jobs(store: &Store, json: bool) -> i32 {
    let jobs = match store.list_jobs() {
        Ok(jobs) => jobs,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    if json {
        match serde_json::to_string_pretty(&jobs) {
            Ok(text) => out_as_received(&with_newline(text)),
            Err(error) => {
                err(&format!("The jobs could not be written as JSON: {error}."));
                return exit::FAILURE;
            }
        }
    } else if jobs.is_empty() {
        err(
            "No jobs stored. Queue one with `vantage ai \"…\" --async` or `vantage search \"…\" --async`.",
        );
    } else {
        out(&jobs_table(&jobs, now_ms()));
    }
    exit::OK
}

/// The jobs as aligned columns: kind, short id, state, age, attempts, summary.
pub fn jobs_table(jobs: &[JobRecord], now: i64) -> String {
    let mut text = format!(
        "{:<7} {:<8} {:<7} {:>5} {:>5}  {}\n",
        "KIND", "ID", "STATE", "AGE", "TRIES", "SUMMARY"
    );
    for job in jobs {
        let summary = if job.summary.is_empty() {
            "(imported)"
        } else {
            &job.summary
        };
        text.push_str(&format!(
            "{:<7} {:<8} {:<7} {:>5} {:>5}  {}\n",
            job.kind.as_str(),
            job.id.short(),
            job.state.as_str(),
            age(now - job.created_at),
            job.attempts,
            one_line(summary)
        ));
    }
    text
}

/// "42s", "5m", "3h", "2d".
pub fn age(millis: i64) -> String {
    let secs = millis.max(0) / 1000;
    match secs {
        0..60 => format!("{secs}s"),
        60..3_600 => format!("{}m", secs / 60),
        3_600..86_400 => format!("{}h", secs / 3_600),
        _ => format!("{}d", secs / 86_400),
    }
}

/// One line per state change: `<id> ai pending → done (12.3 kB)`.
pub fn transition_line(t: &Transition, size: Option<u64>) -> String {
    let mut line = format!("{} {} {} → {}", t.id, t.kind, t.from, t.to);
    if let Some(size) = size {
        line.push_str(&format!(" ({})", crate::measure::size(size)));
    }
    if let Some(error) = &t.error {
        line.push_str(&format!(": {}", one_line(error)));
    }
    if t.parked {
        line.push_str(" (giving up for now; `vantage jobs watch` tries again)");
    }
    line
}

/// Errors in a row after which `jobs watch` leaves a job in `error` for a later run.
const WATCH_ERROR_LIMIT: u32 = 6;

/// How a watch session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchEnd {
    /// Every job ended (or was given up on for this session).
    Settled,
    /// Stopped by the caller (Ctrl+C, SIGTERM); jobs left pending stay stored.
    Stopped,
    /// The very first answers were transport failures: the service cannot be reached.
    Unreachable(String),
}

/// Polls the jobs in `scheduler` until none waits, at most 8 at once, storing each poll's
/// outcome (and, durably before reporting it, every state change and result). `poll` makes
/// one retrieval; `report` hears every state change with the result's size.
pub async fn drive_jobs<P, F, T>(
    store: &Store,
    scheduler: &mut Scheduler,
    mut poll: P,
    stop: impl std::future::Future<Output = ()>,
    mut report: impl FnMut(&Transition, Option<u64>),
) -> Result<WatchEnd, StoreError>
where
    P: FnMut(JobKind, JobId, BodyAsked) -> F,
    F: std::future::Future<Output = Result<Fetched<JobPoll<T>>, ApiError>> + Send + 'static,
    T: Send + 'static,
{
    let mut polls = tokio::task::JoinSet::new();
    let mut tasks = std::collections::HashMap::new();
    let mut reached = false;
    tokio::pin!(stop);
    loop {
        // The steady clock: a wall clock stepped back does not hold the polls.
        for ticket in scheduler.due(crate::jobs::steady_now_ms()) {
            let call = poll(ticket.kind, ticket.id.clone(), ticket.asked);
            let handle = polls.spawn(call);
            tasks.insert(handle.id(), ticket.id);
        }
        if scheduler.is_settled() {
            store.flush().await?;
            return Ok(WatchEnd::Settled);
        }
        let wait = scheduler.next_wake().map_or(60_000, |at| {
            (at - crate::jobs::steady_now_ms()).clamp(0, 60_000)
        });
        tokio::select! {
            biased;
            () = &mut stop => {
                polls.abort_all();
                store.flush().await?;
                return Ok(WatchEnd::Stopped);
            }
            Some(joined) = polls.join_next_with_id() => {
                let (task, result) = match joined {
                    Ok((task, result)) => (task, result),
                    Err(error) => (
                        error.id(),
                        Err(ApiError::BadBody {
                            what: format!("the poll stopped: {error}"),
                            excerpt: String::new(),
                        }),
                    ),
                };
                let Some(id) = tasks.remove(&task) else { continue };
                let transport = matches!(result, Err(ApiError::Transport { .. }));
                let unreachable = transport && !reached;
                reached |= !transport;
                let outcome = PollOutcome::of(&result);
                let Some(transition) = scheduler.complete(&id, &outcome, crate::jobs::steady_now_ms()) else {
                    continue;
                };
                let body = match (&outcome, &result) {
                    (PollOutcome::Ready, Ok(fetched)) => Some(Body::of(fetched)),
                    _ => None,
                };
                let size = body.as_ref().map(Body::size);
                let ack = store.update_job(transition.clone(), body);
                if transition.changed() || size.is_some() || transition.parked {
                    ack.await?;
                    report(&transition, size);
                } else {
                    ack.detach();
                }
                if unreachable {
                    polls.abort_all();
                    store.flush().await?;
                    let message = match result {
                        Err(error) => error.to_string(),
                        Ok(_) => String::new(),
                    };
                    return Ok(WatchEnd::Unreachable(message));
                }
            }
            () = tokio::time::sleep(Duration::from_millis(wait.unsigned_abs())) => {}
        }
    }
}

async fn watch_jobs(store: &Store, client: &Client) -> i32 {
    let open = match store.open_jobs() {
        Ok(jobs) => jobs,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    if open.is_empty() {
        err("No pending jobs to watch.");
        return exit::OK;
    }
    let now = now_ms();
    let mut scheduler = Scheduler::new().with_error_limit(WATCH_ERROR_LIMIT);
    for job in &open {
        scheduler.insert(job.tracked(now));
    }
    err(&format!(
        "Watching {}, at most {MAX_IN_FLIGHT} polls at once. Ctrl+C stops; pending jobs stay stored.",
        crate::plural::count(open.len() as u64, "job", "jobs")
    ));
    let client = client.clone();
    let poll = move |kind: JobKind, id: JobId, asked: BodyAsked| {
        let client = client.clone();
        async move { client.job(kind, &id, asked).await }
    };
    let ended = drive_jobs(
        store,
        &mut scheduler,
        poll,
        wait_for_shutdown_signal(),
        |t, size| out(&format!("{}\n", transition_line(t, size))),
    )
    .await;
    let counts = scheduler.counts();
    match ended {
        Ok(WatchEnd::Settled) => {
            err(&format!(
                "{}: {counts}.",
                crate::plural::count(counts.total() as u64, "job", "jobs")
            ));
            watch_exit(&counts)
        }
        Ok(WatchEnd::Stopped) => {
            err(&format!(
                "Stopped. {counts}; run `vantage jobs watch` again to go on."
            ));
            exit::CANCELLED
        }
        Ok(WatchEnd::Unreachable(message)) => unreachable(&message),
        Err(error) => store_failed(&error),
    }
}

/// The exit code of a watch whose jobs all ended: a job that ended failed, expired or in
/// error gave no answer, which a script must be able to tell (the code of a failed job).
fn watch_exit(counts: &StateCounts) -> i32 {
    let unanswered = counts.failed + counts.expired + counts.error;
    if unanswered == 0 {
        return exit::OK;
    }
    err(&format!(
        "{} ended without an answer (`vantage jobs` lists them): the next `vantage jobs watch` polls those in error again; the app's Jobs tab re-submits a failed or expired one (R).",
        crate::plural::count(unanswered as u64, "job", "jobs")
    ));
    ApiError::JobFailed(None).exit_code()
}

/// A watch whose service could not be reached: said, and its exit code.
pub(super) fn unreachable(message: &str) -> i32 {
    err(message);
    err("The service could not be reached; the jobs stay stored for a later `vantage jobs watch`.");
    exit::NO_ANSWER
}

/// A watch the store stopped: its sentence, and its exit code.
pub(super) fn store_failed(error: &StoreError) -> i32 {
    err(&error.to_string());
    error.exit_code()
}
