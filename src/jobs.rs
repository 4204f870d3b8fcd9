//! The job-polling scheduler the app and the CLI share: pure, no I/O, no clock of its own.
//!
//! It holds one record per queued job and, given the time `now` (Unix milliseconds), says
//! which jobs to poll next. At most [`MAX_IN_FLIGHT`] polls are out at once however many
//! jobs wait; each job backs off from 2 s doubling to 30 s ([`poll_delay`]); jobs that are
//! done, failed or expired are never polled again; a job in `error` keeps being retried with
//! the same backoff.
//!
//! How a poll's answer moves a job ([`next_state`]):
//!
//! | answer                                  | new state |
//! |-----------------------------------------|-----------|
//! | `JobPoll::Pending`                      | pending   |
//! | `JobPoll::Ready`                        | done      |
//! | `JobPoll::Failed`                       | failed    |
//! | `ApiError::NotFound`, job known         | expired   |
//! | `ApiError::NotFound`, job never known   | error "unknown job" (retried) |
//! | any other error                         | error (retried) |
//!
//! A job is *known* when the service has acknowledged it: we submitted it ourselves (the
//! service answered its id), or it answered a job state at least once. A 404 for a known job
//! means its result is no longer kept; a 404 for an id pasted from elsewhere that the service
//! never confirmed may be a typo or a job not registered yet, so it stays `error` and is
//! retried rather than declared expired. A driver that must end (the CLI's `jobs watch`) can
//! cap consecutive errors per job with [`Scheduler::with_error_limit`]: a job that reaches the
//! cap is parked for the session, its state left `error` for a later run.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::api::client::poll_delay;
use crate::api::model::value_enum;
use crate::api::{ApiError, BodyAsked, Fetched, JobId, JobKind, JobPoll};

/// Polls allowed out at once, whatever the number of waiting jobs (API.md).
pub const MAX_IN_FLIGHT: usize = 8;

/// Milliseconds since the Unix epoch: the scheduler's only notion of time.
pub type UnixMs = i64;

/// The note a never-confirmed id gets when the service does not know it.
pub const UNKNOWN_JOB: &str = "unknown job";

value_enum!(
    /// Where a queued job stands, as the app shows it: `pending`, the service is still
    /// retrieving it (or it was just submitted); `done`, the result arrived and is stored;
    /// `failed`, the service says it failed (re-submit the request); `expired`, the service
    /// no longer knows a job it once had; `error`, the last poll failed and polling goes on
    /// with backoff.
    JobState {
        Pending => "pending",
        Done => "done",
        Failed => "failed",
        Expired => "expired",
        Error => "error",
    }
);

impl JobState {
    /// Done, failed and expired jobs are never polled again.
    pub fn is_terminal(self) -> bool {
        matches!(self, JobState::Done | JobState::Failed | JobState::Expired)
    }
}

/// What one poll answered, reduced to what moves the state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PollOutcome {
    /// `{"status": "retrieving"}` (or another pending status).
    Pending,
    /// The result; its body is stored by the caller.
    Ready,
    /// `{"status": "failed"}`, with the service's words when it gave some.
    Failed(Option<String>),
    /// 404: the service does not know the id.
    NotFound,
    /// Anything else that went wrong, as a sentence.
    Error(String),
}

impl PollOutcome {
    /// Reduces a client answer (`Client::job`) to an outcome.
    pub fn of<T>(result: &Result<Fetched<JobPoll<T>>, ApiError>) -> Self {
        match result {
            Ok(fetched) => PollOutcome::of_poll(&fetched.value),
            Err(ApiError::NotFound { .. }) => PollOutcome::NotFound,
            Err(error) => PollOutcome::Error(error.to_string()),
        }
    }

    /// Reduces a bare job state.
    pub fn of_poll<T>(poll: &JobPoll<T>) -> Self {
        match poll {
            JobPoll::Pending(_) => PollOutcome::Pending,
            JobPoll::Ready(_) => PollOutcome::Ready,
            JobPoll::Failed(said) => PollOutcome::Failed(said.clone()),
        }
    }
}

/// Why a job failed, as kept with it and shown: the service's words when it gave some, and
/// what to do.
pub fn failure_sentence(said: Option<&str>) -> String {
    match said {
        Some(words) => format!("The job failed at the service: {words}. Re-submit it to try again (R in the Jobs tab)."),
        None => "The job failed at the service, which gave no reason. Re-submit it to try again (R in the Jobs tab).".to_string(),
    }
}

/// The service's words in a sentence [`failure_sentence`] made, for a caller that says what
/// to do its own way.
pub fn said_in(sentence: &str) -> Option<&str> {
    sentence
        .strip_prefix("The job failed at the service: ")?
        .strip_suffix(". Re-submit it to try again (R in the Jobs tab).")
}

/// The state a poll answer moves a job to, with a note for errors. `known`: the service has
/// acknowledged the job before (see the module docs).
pub fn next_state(known: bool, outcome: &PollOutcome) -> (JobState, Option<String>) {
    match outcome {
        PollOutcome::Pending => (JobState::Pending, None),
        PollOutcome::Ready => (JobState::Done, None),
        PollOutcome::Failed(said) => (JobState::Failed, Some(failure_sentence(said.as_deref()))),
        PollOutcome::NotFound if known => (JobState::Expired, None),
        PollOutcome::NotFound => (JobState::Error, Some(UNKNOWN_JOB.to_string())),
        PollOutcome::Error(message) => (JobState::Error, Some(message.clone())),
    }
}

fn delay_ms(polls_done: u32) -> UnixMs {
    UnixMs::try_from(poll_delay(polls_done).as_millis()).unwrap_or(30_000)
}

/// One job as the scheduler tracks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackedJob {
    pub id: JobId,
    pub kind: JobKind,
    pub state: JobState,
    /// Polls answered so far (any answer, errors included).
    pub attempts: u32,
    pub last_poll_at: Option<UnixMs>,
    /// When the job is due; meaningless once terminal.
    pub next_poll_at: UnixMs,
    /// The service has acknowledged this job (see the module docs).
    pub known: bool,
    /// Errors in a row since the last real answer.
    pub error_streak: u32,
    pub last_error: Option<String>,
    /// What its result must be: a body that is not is a failed poll, not an answer.
    pub asked: BodyAsked,
    /// When it was submitted, when known: a job pending past the scheduler's longest wait
    /// is expired.
    pub created_at: Option<UnixMs>,
}

impl TrackedJob {
    /// A job just submitted by us: the service gave its id, so it is known. First poll after
    /// the first backoff step.
    pub fn submitted(id: JobId, kind: JobKind, now: UnixMs) -> Self {
        TrackedJob {
            id,
            kind,
            state: JobState::Pending,
            attempts: 0,
            last_poll_at: None,
            next_poll_at: now + delay_ms(0),
            known: true,
            error_streak: 0,
            last_error: None,
            asked: BodyAsked::Json,
            created_at: Some(now),
        }
    }

    /// The same job, whose result is a page rather than JSON when `asked` says so.
    pub fn asking(self, asked: BodyAsked) -> Self {
        TrackedJob { asked, ..self }
    }

    /// An id received elsewhere: unconfirmed, polled at once.
    pub fn imported(id: JobId, kind: JobKind, now: UnixMs) -> Self {
        TrackedJob {
            known: false,
            next_poll_at: now,
            ..TrackedJob::submitted(id, kind, now)
        }
    }
}

/// A poll to make now: the scheduler counts it in flight until [`Scheduler::complete`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PollTicket {
    pub id: JobId,
    pub kind: JobKind,
    /// 1 for the first poll of the job.
    pub attempt: u32,
    pub asked: BodyAsked,
}

/// What one completed poll changed, for storing and showing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    pub id: JobId,
    pub kind: JobKind,
    pub from: JobState,
    pub to: JobState,
    pub attempts: u32,
    pub polled_at: UnixMs,
    /// When the job will next be polled; `None` once terminal (or parked).
    pub next_poll_at: Option<UnixMs>,
    pub known: bool,
    /// The error sentence (or "unknown job") when `to` is `error`; why, when `failed`.
    pub error: Option<String>,
    /// True when the job reached the session's error limit and will not be polled again here.
    pub parked: bool,
}

impl Transition {
    pub fn changed(&self) -> bool {
        self.from != self.to
    }
}

struct Slot {
    job: TrackedJob,
    in_flight: bool,
    parked: bool,
}

/// The queue of jobs and the rule of when each is polled.
pub struct Scheduler {
    slots: HashMap<JobId, Slot>,
    in_flight: usize,
    limit: usize,
    error_limit: Option<u32>,
    /// How long a job may stay pending (or in error) before it is expired.
    longest_wait: UnixMs,
}

/// How long a job is waited for unless the config file says (`longest_job_wait_hours`): a
/// job the service never finishes must not hold a run (and its lock) for ever.
pub const DEFAULT_LONGEST_WAIT_HOURS: u64 = 24;

/// The longest wait the config file set, for every scheduler of this process (the app's,
/// `jobs watch`, a run's `--wait`, a queued comparison): one rule for them all.
static LONGEST_WAIT_HOURS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

/// Sets the longest wait of every scheduler made after it (from the config file, at start).
pub fn set_longest_wait_hours(hours: u64) {
    let _ = LONGEST_WAIT_HOURS.set(hours.max(1));
}

fn longest_wait_ms() -> UnixMs {
    let hours = LONGEST_WAIT_HOURS
        .get()
        .copied()
        .unwrap_or(DEFAULT_LONGEST_WAIT_HOURS);
    i64::try_from(hours.saturating_mul(3_600_000)).unwrap_or(i64::MAX)
}

/// Milliseconds since 1970 as the wall clock said when this process first asked, advanced
/// by the monotonic clock since: a poll waits as long as it should when the wall clock is
/// stepped back (an hour back stopped polling for an hour) or ahead.
pub fn steady_now_ms() -> UnixMs {
    static START: std::sync::OnceLock<(std::time::Instant, UnixMs)> = std::sync::OnceLock::new();
    let (instant, wall) = START.get_or_init(|| (std::time::Instant::now(), crate::store::now_ms()));
    steady_at(*wall, instant.elapsed())
}

fn steady_at(wall_at_start: UnixMs, elapsed: std::time::Duration) -> UnixMs {
    wall_at_start.saturating_add(i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX))
}

impl Default for Scheduler {
    fn default() -> Self {
        Scheduler::new()
    }
}

impl Scheduler {
    /// At most [`MAX_IN_FLIGHT`] polls at once; errors retried forever.
    pub fn new() -> Self {
        Scheduler {
            slots: HashMap::new(),
            in_flight: 0,
            limit: MAX_IN_FLIGHT,
            error_limit: None,
            longest_wait: longest_wait_ms(),
        }
    }

    /// A lower cap on polls in flight (never above [`MAX_IN_FLIGHT`], never below 1).
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit.clamp(1, MAX_IN_FLIGHT);
        self
    }

    /// Parks a job after this many errors in a row (for drivers that must end).
    pub fn with_error_limit(mut self, errors_in_a_row: u32) -> Self {
        self.error_limit = Some(errors_in_a_row.max(1));
        self
    }

    /// Expires a job still not done this long after it was submitted.
    pub fn with_longest_wait(mut self, longest: std::time::Duration) -> Self {
        self.longest_wait = i64::try_from(longest.as_millis()).unwrap_or(i64::MAX);
        self
    }

    /// Adds (or replaces, unless a poll of it is in flight) a job.
    pub fn insert(&mut self, job: TrackedJob) {
        if self.slots.get(&job.id).is_some_and(|s| s.in_flight) {
            return;
        }
        self.slots.insert(
            job.id.clone(),
            Slot {
                job,
                in_flight: false,
                parked: false,
            },
        );
    }

    /// Forgets a job (deleted by the user). A poll of it in flight is dropped on completion.
    pub fn remove(&mut self, id: &JobId) -> Option<TrackedJob> {
        let slot = self.slots.remove(id)?;
        if slot.in_flight {
            self.in_flight -= 1;
        }
        Some(slot.job)
    }

    pub fn get(&self, id: &JobId) -> Option<&TrackedJob> {
        self.slots.get(id).map(|s| &s.job)
    }

    pub fn jobs(&self) -> impl Iterator<Item = &TrackedJob> {
        self.slots.values().map(|s| &s.job)
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    pub fn is_in_flight(&self, id: &JobId) -> bool {
        self.slots.get(id).is_some_and(|s| s.in_flight)
    }

    fn waits(slot: &Slot) -> bool {
        !slot.job.state.is_terminal() && !slot.parked
    }

    /// Jobs still to be polled (or being polled) in this session.
    pub fn active(&self) -> usize {
        self.slots.values().filter(|s| Scheduler::waits(s)).count()
    }

    /// True when nothing is waiting and nothing is in flight: a driver may stop.
    pub fn is_settled(&self) -> bool {
        self.in_flight == 0 && self.active() == 0
    }

    /// The polls to start now: due jobs, earliest first, as many as the in-flight cap
    /// leaves room for. Each returned ticket counts as in flight until completed.
    pub fn due(&mut self, now: UnixMs) -> Vec<PollTicket> {
        let room = self.limit.saturating_sub(self.in_flight);
        if room == 0 {
            return Vec::new();
        }
        let mut due: Vec<(UnixMs, JobId)> = self
            .slots
            .values()
            .filter(|s| !s.in_flight && Scheduler::waits(s) && s.job.next_poll_at <= now)
            .map(|s| (s.job.next_poll_at, s.job.id.clone()))
            .collect();
        due.sort();
        due.truncate(room);
        let mut tickets = Vec::with_capacity(due.len());
        for (_, id) in due {
            if let Some(slot) = self.slots.get_mut(&id) {
                slot.in_flight = true;
                self.in_flight += 1;
                tickets.push(PollTicket {
                    id,
                    kind: slot.job.kind,
                    attempt: slot.job.attempts + 1,
                    asked: slot.job.asked,
                });
            }
        }
        tickets
    }

    /// When the next idle job falls due; `None` when no job waits outside flight. A driver
    /// sleeps until then (or until a poll completes).
    pub fn next_wake(&self) -> Option<UnixMs> {
        self.slots
            .values()
            .filter(|s| !s.in_flight && Scheduler::waits(s))
            .map(|s| s.job.next_poll_at)
            .min()
    }

    /// Records the answer of a poll made from a ticket, and says what changed. `None` when
    /// the job is unknown here or was not in flight (removed meanwhile).
    pub fn complete(
        &mut self,
        id: &JobId,
        outcome: &PollOutcome,
        now: UnixMs,
    ) -> Option<Transition> {
        let error_limit = self.error_limit;
        let slot = self.slots.get_mut(id)?;
        if !slot.in_flight {
            return None;
        }
        slot.in_flight = false;
        self.in_flight -= 1;
        let job = &mut slot.job;
        let from = job.state;
        let (mut to, mut error) = next_state(job.known, outcome);
        let waited = job.created_at.map(|at| now - at);
        if !to.is_terminal()
            && let Some(waited) = waited.filter(|w| *w > self.longest_wait)
        {
            to = JobState::Expired;
            error = Some(format!(
                "Still not done {} after it was submitted, longer than a job is waited for ({}; longest_job_wait_hours in the config file sets it): it is expired. Re-submit it to ask again.",
                crate::measure::duration(std::time::Duration::from_millis(waited.unsigned_abs())),
                crate::measure::duration(std::time::Duration::from_millis(
                    self.longest_wait.unsigned_abs()
                ))
            ));
        }
        job.attempts += 1;
        job.last_poll_at = Some(now);
        job.state = to;
        if matches!(
            outcome,
            PollOutcome::Pending | PollOutcome::Ready | PollOutcome::Failed(_)
        ) {
            job.known = true;
        }
        if to == JobState::Error {
            job.error_streak += 1;
            job.last_error = error.clone();
        } else if to == JobState::Failed {
            // Why it failed is kept with it: the service's words, or that it gave none.
            job.error_streak = 0;
            job.last_error = error.clone();
        } else {
            job.error_streak = 0;
            job.last_error = None;
        }
        slot.parked = to == JobState::Error && error_limit.is_some_and(|n| job.error_streak >= n);
        let next_poll_at = (!to.is_terminal()).then(|| now + delay_ms(job.attempts));
        if let Some(next) = next_poll_at {
            job.next_poll_at = next;
        }
        Some(Transition {
            id: job.id.clone(),
            kind: job.kind,
            from,
            to,
            attempts: job.attempts,
            polled_at: now,
            next_poll_at,
            known: job.known,
            error,
            parked: slot.parked,
        })
    }

    /// Counts by state, for a summary line.
    pub fn counts(&self) -> StateCounts {
        let mut counts = StateCounts::default();
        for slot in self.slots.values() {
            counts.add(slot.job.state);
        }
        counts
    }
}

/// How many jobs are in each state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StateCounts {
    pub pending: usize,
    pub done: usize,
    pub failed: usize,
    pub expired: usize,
    pub error: usize,
}

impl StateCounts {
    pub fn add(&mut self, state: JobState) {
        match state {
            JobState::Pending => self.pending += 1,
            JobState::Done => self.done += 1,
            JobState::Failed => self.failed += 1,
            JobState::Expired => self.expired += 1,
            JobState::Error => self.error += 1,
        }
    }

    pub fn total(&self) -> usize {
        self.pending + self.done + self.failed + self.expired + self.error
    }
}

impl fmt::Display for StateCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} done, {} failed, {} expired, {} in error, {} pending",
            self.done, self.failed, self.expired, self.error, self.pending
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_pending_past_the_longest_wait_is_expired_with_a_reason() {
        let id = JobId::parse("0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20").unwrap();
        let mut scheduler =
            Scheduler::new().with_longest_wait(std::time::Duration::from_secs(3_600));
        scheduler.insert(TrackedJob::submitted(id.clone(), JobKind::Ai, 0));
        let due = scheduler.due(2_000);
        assert_eq!(due.len(), 1);
        let early = scheduler
            .complete(&id, &PollOutcome::Pending, 2_000)
            .unwrap();
        assert_eq!(early.to, JobState::Pending);
        let late_at = 3_600_001;
        assert_eq!(scheduler.due(late_at).len(), 1);
        let late = scheduler
            .complete(&id, &PollOutcome::Pending, late_at)
            .unwrap();
        assert_eq!(late.to, JobState::Expired);
        assert!(late.next_poll_at.is_none(), "no poll after it");
        let why = late.error.unwrap_or_default();
        assert!(
            why.contains("longer than a job is waited for") && why.contains("1h 00m"),
            "{why}"
        );
        assert!(scheduler.is_settled());
    }

    #[test]
    fn the_steady_clock_moves_on_whatever_the_wall_clock_says() {
        // Started at some wall time, it advances by the monotonic time alone: a wall clock
        // stepped an hour back does not make a poll due in two seconds wait an hour.
        let start = 1_780_000_000_000;
        assert_eq!(
            steady_at(start, std::time::Duration::from_millis(2_500)),
            start + 2_500
        );
        let first = steady_now_ms();
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(steady_now_ms() >= first + 5);
    }

    fn id(n: u32) -> JobId {
        JobId::parse(&format!("00000000-0000-4000-8000-{n:012}")).unwrap()
    }

    #[test]
    fn two_hundred_waiting_jobs_never_have_more_than_eight_polls_out() {
        let mut scheduler = Scheduler::new();
        let mut now = 1_000_000;
        for n in 0..200 {
            scheduler.insert(TrackedJob::imported(id(n), JobKind::Ai, now));
        }
        let mut out: Vec<JobId> = Vec::new();
        let mut max_seen = 0;
        for step in 0..2_000u32 {
            out.extend(scheduler.due(now).into_iter().map(|t| t.id));
            max_seen = max_seen.max(scheduler.in_flight());
            assert!(scheduler.in_flight() <= MAX_IN_FLIGHT);
            assert_eq!(scheduler.in_flight(), out.len());
            // Answer a varying number of the polls out, oldest first; all stay pending.
            let answered = (step as usize * 7 + 3) % 5;
            for job in out.drain(..answered.min(out.len())) {
                scheduler
                    .complete(&job, &PollOutcome::Pending, now)
                    .unwrap();
            }
            now += 250;
        }
        assert_eq!(max_seen, MAX_IN_FLIGHT);
        assert!(scheduler.jobs().all(|j| j.attempts > 0), "no job starves");
    }

    #[test]
    fn backoff_runs_two_four_eight_sixteen_then_thirty() {
        let mut scheduler = Scheduler::new();
        let start = 0;
        scheduler.insert(TrackedJob::submitted(id(1), JobKind::Search, start));
        assert!(scheduler.due(start + 1_999).is_empty());
        let mut now = start + 2_000;
        let mut gaps = Vec::new();
        let mut last = start;
        for _ in 0..8 {
            let tickets = scheduler.due(now);
            assert_eq!(tickets.len(), 1, "due at {now}");
            assert!(scheduler.due(now).is_empty(), "not twice while in flight");
            gaps.push(now - last);
            last = now;
            let t = scheduler
                .complete(&tickets[0].id, &PollOutcome::Pending, now)
                .unwrap();
            now = t.next_poll_at.unwrap();
            assert_eq!(scheduler.next_wake(), Some(now));
            assert!(scheduler.due(now - 1).is_empty());
        }
        assert_eq!(
            gaps,
            vec![2_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]
        );
    }

    #[test]
    fn terminal_states_stop_polling_and_errors_keep_retrying() {
        let mut scheduler = Scheduler::new();
        for n in 0..4 {
            scheduler.insert(TrackedJob::submitted(id(n), JobKind::Ai, 0));
        }
        let now = 2_000;
        let tickets = scheduler.due(now);
        assert_eq!(tickets.len(), 4);
        let outcomes = [
            PollOutcome::Ready,
            PollOutcome::Failed(None),
            PollOutcome::NotFound,
            PollOutcome::Error("connection refused".into()),
        ];
        let mut states = Vec::new();
        for (ticket, outcome) in tickets.iter().zip(&outcomes) {
            let t = scheduler.complete(&ticket.id, outcome, now).unwrap();
            states.push((outcomes.iter().position(|o| o == outcome), t.to));
        }
        states.sort_by_key(|(i, _)| *i);
        let states: Vec<JobState> = states.into_iter().map(|(_, s)| s).collect();
        assert_eq!(
            states,
            vec![
                JobState::Done,
                JobState::Failed,
                JobState::Expired,
                JobState::Error
            ]
        );
        assert_eq!(scheduler.active(), 1);
        // Only the job in error comes due again, for as long as time goes on.
        for k in 1..20 {
            let later = now + k * 60_000;
            let due = scheduler.due(later);
            assert_eq!(due.len(), 1);
            let t = scheduler
                .complete(&due[0].id, &PollOutcome::Error("again".into()), later)
                .unwrap();
            assert_eq!(t.to, JobState::Error);
            assert!(!t.parked);
        }
        assert!(!scheduler.is_settled());
    }

    #[test]
    fn unknown_ids_are_errors_known_ones_expire() {
        assert_eq!(
            next_state(false, &PollOutcome::NotFound),
            (JobState::Error, Some(UNKNOWN_JOB.to_string()))
        );
        assert_eq!(
            next_state(true, &PollOutcome::NotFound),
            (JobState::Expired, None)
        );
        // An imported id that once answered pending is known from then on.
        let mut scheduler = Scheduler::new();
        scheduler.insert(TrackedJob::imported(id(9), JobKind::Browser, 0));
        let t = scheduler.due(0);
        scheduler.complete(&t[0].id, &PollOutcome::Pending, 0);
        let t = scheduler.due(10_000);
        let tr = scheduler
            .complete(&t[0].id, &PollOutcome::NotFound, 10_000)
            .unwrap();
        assert_eq!((tr.from, tr.to), (JobState::Pending, JobState::Expired));
    }

    #[test]
    fn the_error_limit_parks_a_job_for_the_session() {
        let mut scheduler = Scheduler::new().with_error_limit(3);
        scheduler.insert(TrackedJob::imported(id(1), JobKind::Ai, 0));
        let mut now = 0;
        for n in 1..=3 {
            let t = scheduler.due(now);
            assert_eq!(t.len(), 1);
            let tr = scheduler
                .complete(&t[0].id, &PollOutcome::NotFound, now)
                .unwrap();
            assert_eq!(tr.error.as_deref(), Some(UNKNOWN_JOB));
            assert_eq!(tr.parked, n == 3);
            now += 60_000;
        }
        assert!(scheduler.due(now).is_empty());
        assert!(scheduler.is_settled());
        assert_eq!(scheduler.counts().error, 1);
    }

    #[test]
    fn removed_jobs_free_their_slot() {
        let mut scheduler = Scheduler::new().with_limit(2);
        for n in 0..3 {
            scheduler.insert(TrackedJob::imported(id(n), JobKind::Ai, 0));
        }
        let t = scheduler.due(0);
        assert_eq!(t.len(), 2);
        scheduler.remove(&t[0].id);
        assert_eq!(scheduler.in_flight(), 1);
        assert!(
            scheduler
                .complete(&t[0].id, &PollOutcome::Ready, 1)
                .is_none()
        );
        assert_eq!(scheduler.due(1).len(), 1);
    }

    #[test]
    fn states_round_trip_through_text() {
        for &state in JobState::ALL {
            assert_eq!(state.as_str().parse::<JobState>(), Ok(state));
        }
        assert!("lost".parse::<JobState>().is_err());
    }
}
