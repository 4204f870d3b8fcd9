//! The Jobs tab: every open job and the newest others ([`KEPT`]), newest first, polled by the
//! shared [`Scheduler`] (at most eight polls out at once, each job backing off from 2 s to
//! 30 s). The scheduler is driven by `App::wall` (set by the event loop); the loop sleeps
//! until [`JobsState::next_wake`].

use crate::api::{JobId, JobKind};
use crate::app::{CallEffect, OsEffect, StoreEffect};
use crate::jobs::{JobState, PollOutcome, Scheduler, TrackedJob, UnixMs};
use crate::store::{Body, JobRecord, NewJob};

use super::input::{InputPrompt, InputTarget};
use super::keymap::{Action, Context};
use super::list::{FilteredList, ListKey};
use super::{App, Confirm, Effect, Popup, Tab};
use crate::present::text::TextBody;

/// A text result (a browser job's content) open over the table.
#[derive(Debug)]
pub struct Reader {
    pub title: String,
    pub body: TextBody,
    pub scroll: usize,
    pub find: Option<super::text_search::TextSearch>,
}

/// Ended jobs the tab holds at most, the newest (open ones are all held, to be polled): a
/// store of a year of tracking keeps hundreds of thousands, which History lists and searches.
/// Enough for the largest runs whole (a few MB of rows).
pub const KEPT: usize = 5_000;

#[derive(Default)]
pub struct JobsState {
    pub scheduler: Scheduler,
    /// Every open job and the newest others ([`KEPT`]), newest first.
    pub rows: Vec<JobRecord>,
    /// How many jobs the store holds in each state, as last counted.
    pub stored: Vec<(JobState, usize)>,
    pub list: FilteredList,
    pub reader: Option<Reader>,
    /// Why jobs live in memory only this session (the store could not open).
    pub memory_only: Option<String>,
}

impl JobsState {
    /// When the scheduler next wants to poll; the event loop sleeps until then.
    pub fn next_wake(&self) -> Option<UnixMs> {
        self.scheduler.next_wake()
    }

    pub fn editing(&self) -> bool {
        self.list.filtering
            || self
                .reader
                .as_ref()
                .is_some_and(|r| r.find.as_ref().is_some_and(|f| f.typing))
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        if self.reader.is_some() {
            vec![Context::Viewer, Context::Jobs]
        } else {
            vec![Context::Jobs, Context::Viewer]
        }
    }

    pub fn selected(&self) -> Option<&JobRecord> {
        self.list.selected_index().and_then(|i| self.rows.get(i))
    }

    /// The selected job's full id and what comes next for it, for the footer.
    pub fn selected_next_step(&self, wall: UnixMs) -> Option<(String, NextStep)> {
        let job = self.selected()?;
        let step = match (&job.last_error, job.state) {
            (Some(error), _) => NextStep::Error(error.clone()),
            (None, JobState::Pending) => match job.next_poll_at {
                Some(at) if at > wall => NextStep::PollIn(at - wall),
                _ => NextStep::Polling,
            },
            (None, JobState::Done) => NextStep::Open,
            (None, JobState::Failed | JobState::Expired) => NextStep::Resubmit,
            (None, JobState::Error) => NextStep::Nothing,
        };
        Some((job.id.to_string(), step))
    }

    /// Jobs stored in `state`: the rows' own count while they hold every stored job (it
    /// follows this session's polls at once), else the store's as last counted.
    pub fn stored_count(&self, state: JobState) -> usize {
        let rows = self.rows.iter().filter(|r| r.state == state).count();
        if self.left_out() == 0 {
            return rows;
        }
        self.stored
            .iter()
            .find(|(s, _)| *s == state)
            .map_or(rows, |(_, n)| *n)
    }

    /// Stored jobs the rows leave out (older ended ones).
    pub fn left_out(&self) -> usize {
        let stored: usize = self.stored.iter().map(|(_, n)| n).sum();
        stored.saturating_sub(self.rows.len())
    }

    /// Ranks the rows against the filter again.
    pub fn refresh(&mut self, matcher: &mut crate::fuzzy::FuzzyMatcher) {
        let haystacks: Vec<String> = self
            .rows
            .iter()
            // The summary first, so matched positions in it are its own (for highlighting).
            .map(|r| format!("{} {} {} {}", summary_of(r), r.kind, r.id, r.state))
            .collect();
        self.list.set_total(self.rows.len());
        self.list
            .refresh(haystacks.iter().map(String::as_str), matcher);
    }

    /// Changes the rows and ranks them again, the selection staying on the job it was on: a
    /// job put above it (a re-submission is newest) does not move it to another row.
    fn change_rows(
        &mut self,
        matcher: &mut crate::fuzzy::FuzzyMatcher,
        change: impl FnOnce(&mut Self),
    ) {
        let selected = self.selected().map(|job| job.id.clone());
        change(self);
        self.refresh(matcher);
        let Some(id) = selected else {
            return;
        };
        if let Some(row) = self.rows.iter().position(|r| r.id == id)
            && let Some(at) = self.list.shown.iter().position(|i| *i == row)
        {
            self.list.selected = at;
        }
    }

    /// Takes the stored jobs as they are now, written by this process or another: the rows
    /// become the store's (newest first, as read); a job still open there and not polled
    /// here yet is scheduled; one that ended or was deleted elsewhere is no longer polled.
    /// A job whose poll is out keeps it: its answer is stored as it lands.
    fn merge(&mut self, records: Vec<JobRecord>, wall: UnixMs) {
        let stored: std::collections::HashSet<&JobId> = records.iter().map(|r| &r.id).collect();
        let gone: Vec<JobId> = self
            .scheduler
            .jobs()
            .map(|job| job.id.clone())
            .filter(|id| !stored.contains(id))
            .collect();
        for id in gone {
            self.scheduler.remove(&id);
        }
        // What this process knows of a job can be newer than the store's row (its writes
        // are on their way): an ended job never goes back to open, and a job polled here
        // keeps the row its polls made.
        let mut known: std::collections::HashMap<JobId, JobRecord> = std::mem::take(&mut self.rows)
            .into_iter()
            .map(|row| (row.id.clone(), row))
            .collect();
        let mut rows = Vec::with_capacity(records.len());
        for record in records {
            let polled_here = self.scheduler.get(&record.id).is_some();
            match (record.is_open(), polled_here) {
                (true, false) => self.scheduler.insert(record.tracked(wall)),
                (false, true) if !self.scheduler.is_in_flight(&record.id) => {
                    self.scheduler.remove(&record.id);
                }
                _ => {}
            }
            let ours = known.remove(&record.id).filter(|row| {
                (row.state.is_terminal() && record.is_open()) || (polled_here && record.is_open())
            });
            rows.push(ours.unwrap_or(record));
        }
        // Newest first, whatever order they came in.
        rows.sort_by_key(|row| std::cmp::Reverse(row.created_at));
        self.rows = rows;
    }

    fn put(&mut self, record: JobRecord) {
        self.rows.retain(|r| r.id != record.id);
        let at = self
            .rows
            .iter()
            .position(|r| r.created_at < record.created_at)
            .unwrap_or(self.rows.len());
        self.rows.insert(at, record);
    }

    /// The polls due now, as effects.
    pub(crate) fn due(&mut self, wall: UnixMs) -> Vec<Effect> {
        self.scheduler
            .due(wall)
            .into_iter()
            .map(|ticket| {
                Effect::Call(CallEffect::PollJob {
                    id: ticket.id,
                    kind: ticket.kind,
                    asked: ticket.asked,
                })
            })
            .collect()
    }
}

/// The row a job gets the moment it is recorded.
pub fn record_of(job: &NewJob) -> JobRecord {
    JobRecord {
        id: job.id.clone(),
        kind: job.kind,
        request: job.request.clone(),
        summary: job.summary.clone(),
        state: JobState::Pending,
        known: job.known,
        created_at: job.created_at,
        last_poll_at: None,
        next_poll_at: Some(job.next_poll_at),
        attempts: 0,
        result_size: None,
        last_error: None,
    }
}

/// The stored jobs, read at start: open ones resume polling.
pub fn on_loaded(app: &mut App, result: Result<Vec<JobRecord>, String>) -> Vec<Effect> {
    match result {
        Ok(records) => {
            let wall = app.wall;
            app.jobs
                .change_rows(&mut app.matcher, |jobs| jobs.merge(records, wall));
        }
        Err(e) => app.flash_error(format!("The stored jobs could not be read: {e}")),
    }
    app.jobs.due(app.wall)
}

/// The store's jobs counted by state, read after the rows.
pub fn on_counted(app: &mut App, result: Result<Vec<(JobState, usize)>, String>) {
    match result {
        Ok(counts) => app.jobs.stored = counts,
        Err(e) => app.flash_error(format!("The stored jobs could not be counted: {e}")),
    }
}

/// A job recorded (submitted from a form, re-submitted, or imported): it shows at once and
/// its polls are scheduled.
/// A job recorded in the store, polled from now on and listed in Jobs (said by the caller).
pub(crate) fn keep_queued(app: &mut App, record: JobRecord) {
    let tracked = if record.known {
        TrackedJob::submitted(record.id.clone(), record.kind, app.wall)
    } else {
        TrackedJob::imported(record.id.clone(), record.kind, app.wall)
    }
    .asking(record.body_asked());
    app.jobs.scheduler.insert(tracked);
    app.jobs
        .change_rows(&mut app.matcher, |jobs| jobs.put(record));
}

pub fn on_queued(app: &mut App, result: Result<JobRecord, String>) -> Vec<Effect> {
    match result {
        Ok(record) => {
            // An imported job was not queued here; and on the Jobs tab it is already in view.
            let done = if record.known { "Queued" } else { "Imported" };
            let pointer = if app.tab == Tab::Jobs {
                String::new()
            } else {
                format!("; it lands in Jobs ({})", Tab::Jobs.key_label())
            };
            app.flash_info(format!(
                "{done} {} job {}{pointer}.",
                record.kind,
                record.id.short()
            ));
            keep_queued(app, record);
        }
        Err(e) => app.flash_error(format!("Not queued: {e}")),
    }
    app.jobs.due(app.wall)
}

/// A poll answered: the scheduler moves the job, the row follows, the store keeps it.
pub fn on_polled(
    app: &mut App,
    id: JobId,
    outcome: PollOutcome,
    result: Option<Body>,
) -> Vec<Effect> {
    let mut effects = Vec::new();
    if let Some(transition) = app.jobs.scheduler.complete(&id, &outcome, app.wall) {
        if let Some(row) = app.jobs.rows.iter_mut().find(|r| r.id == id) {
            row.state = transition.to;
            row.attempts = transition.attempts;
            row.known = transition.known;
            row.last_poll_at = Some(transition.polled_at);
            row.next_poll_at = transition.next_poll_at;
            row.last_error = transition.error.clone();
            if let Some(body) = &result {
                row.result_size = Some(body.size());
            }
        }
        if transition.changed() {
            app.jobs.refresh(&mut app.matcher);
        }
        effects.push(Effect::Store(StoreEffect::SaveJob { transition, result }));
    }
    effects.extend(app.jobs.due(app.wall));
    effects
}

/// The loop's timer: whatever is due now is polled.
pub fn on_wake(app: &mut App) -> Vec<Effect> {
    app.jobs.due(app.wall)
}

/// Handles an action the keymap found, on the Jobs tab.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    if let Some(reader) = &mut app.jobs.reader {
        let page = 10;
        if super::text_search::on_action(&mut reader.find, &mut reader.scroll, action) {
            return Vec::new();
        }
        match action {
            Action::Back => app.jobs.reader = None,
            Action::Up => reader.scroll = reader.scroll.saturating_sub(1),
            Action::Down => reader.scroll = reader.scroll.saturating_add(1),
            Action::PageUp => reader.scroll = reader.scroll.saturating_sub(page),
            Action::PageDown => reader.scroll = reader.scroll.saturating_add(page),
            Action::Top => reader.scroll = 0,
            Action::Bottom => reader.scroll = reader.body.wrapped_len(),
            _ => {}
        }
        if let Some(reader) = &mut app.jobs.reader {
            reader.scroll = reader
                .scroll
                .min(reader.body.wrapped_len().saturating_sub(1));
        }
        return Vec::new();
    }
    match app.jobs.list.on_action(action) {
        ListKey::Handled => return Vec::new(),
        ListKey::FilterDropped => {
            app.jobs.refresh(&mut app.matcher);
            return Vec::new();
        }
        ListKey::NotMine => {}
    }
    match action {
        Action::ImportJob => {
            app.popup = Some(Popup::Input(
                InputPrompt::new(InputTarget::ImportJob, "Import a job: kind and id", "")
                    .with_note("ai, search or browser, then the job id (a UUID). Browser jobs are fetched this way."),
            ));
        }
        Action::Accept => return open(app),
        Action::Copy => {
            if let Some(job) = app.jobs.selected() {
                let id = job.id.to_string();
                app.flash_info(format!("Copied the job id {id}."));
                return vec![Effect::Os(OsEffect::Copy(id.into()))];
            }
            app.flash_info("There is no job to copy; i imports one by its id.");
        }
        Action::PollNow => return poll_now(app),
        Action::Resubmit => return resubmit(app),
        Action::Delete => {
            let Some(job) = app.jobs.selected() else {
                app.flash_info("There is no job to delete.");
                return Vec::new();
            };
            let id = job.id.clone();
            app.popup = Some(Popup::Confirm(Confirm::DeleteJob { id }));
        }
        _ => {}
    }
    Vec::new()
}

/// Types into the filter while it is open.
pub fn edit(app: &mut App, key: crossterm::event::KeyEvent) {
    if let Some(r) = &mut app.jobs.reader
        && super::text_search::on_key(&mut r.find, &r.body, &mut r.scroll, key)
    {
        return;
    }
    if app.jobs.list.edit(key) {
        app.jobs.refresh(&mut app.matcher);
    }
}

fn open(app: &mut App) -> Vec<Effect> {
    let Some(job) = app.jobs.selected() else {
        app.flash_info(
            "There are no jobs yet: send in async mode (a in a form) or import one with i.",
        );
        return Vec::new();
    };
    let short = job.id.short().to_string();
    match job.state {
        JobState::Done => vec![Effect::Store(StoreEffect::OpenJob {
            id: job.id.clone(),
            kind: job.kind,
            request: job.request.clone(),
        })],
        JobState::Pending | JobState::Error => {
            let polls = job.attempts;
            app.flash_info(format!(
                "Job {short} has not landed yet ({polls} polls); r polls it now."
            ));
            Vec::new()
        }
        JobState::Failed => {
            let why = job
                .last_error
                .clone()
                .unwrap_or_else(|| crate::jobs::failure_sentence(None));
            app.flash_error(format!("Job {short}: {why}"));
            Vec::new()
        }
        JobState::Expired => {
            app.flash_error(format!(
                "The service no longer keeps job {short}; R re-submits its request."
            ));
            Vec::new()
        }
    }
}

fn poll_now(app: &mut App) -> Vec<Effect> {
    let Some(job) = app.jobs.selected() else {
        app.flash_info("There is no job to poll.");
        return Vec::new();
    };
    let id = job.id.clone();
    if job.state.is_terminal() {
        app.flash_info(format!(
            "Job {} is {}: it is not polled again.",
            id.short(),
            job.state
        ));
        return Vec::new();
    }
    if app.jobs.scheduler.is_in_flight(&id) {
        app.flash_info(format!("A poll of job {} is on its way.", id.short()));
        return Vec::new();
    }
    let tracked = match app.jobs.scheduler.get(&id) {
        Some(tracked) => TrackedJob {
            next_poll_at: app.wall,
            ..tracked.clone()
        },
        None => job.tracked(app.wall),
    };
    app.jobs.scheduler.insert(tracked);
    app.jobs.due(app.wall)
}

fn resubmit(app: &mut App) -> Vec<Effect> {
    let Some(job) = app.jobs.selected() else {
        app.flash_info("There is no job to re-submit.");
        return Vec::new();
    };
    if !matches!(job.state, JobState::Failed | JobState::Expired) {
        app.flash_info(format!(
            "Job {} is {}; only failed or expired jobs are re-submitted.",
            job.id.short(),
            job.state
        ));
        return Vec::new();
    }
    match &job.request {
        Some(request) if let Some(kind) = request.job_kind() => {
            let call = crate::price::Calls::one(kind.into());
            let cost = call.in_words(&app.prices);
            if let super::Credits::Known(left) = app.credits
                && left < call.credits(&app.prices)
            {
                app.flash_error(format!(
                    "Re-submitting job {} makes {cost} and {left} credits are left: not sent. Top up first.",
                    job.id.short()
                ));
                return Vec::new();
            }
            let said = format!("Re-submitting job {}: {cost}.", job.id.short());
            let effect = Effect::Call(CallEffect::SubmitJob {
                request: request.clone(),
                replaces: Some(job.id.clone()),
            });
            app.flash_info(said);
            vec![effect]
        }
        _ => {
            app.flash_error(format!(
                "Job {} was imported by its id, without its request: it cannot be re-submitted.",
                job.id.short()
            ));
            Vec::new()
        }
    }
}

/// The import popup's value: a kind and an id, in either order. Nothing is sent unless both
/// are valid.
pub fn import(app: &mut App, prompt: InputPrompt) -> Vec<Effect> {
    match parse_import(&prompt.value) {
        Ok((kind, id)) => vec![Effect::Store(StoreEffect::ImportJob { id, kind })],
        Err(message) => {
            app.flash_error(message);
            app.popup = Some(Popup::Input(prompt));
            Vec::new()
        }
    }
}

fn parse_import(text: &str) -> Result<(JobKind, JobId), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let kind = words.iter().find_map(|w| w.parse::<JobKind>().ok());
    let id_text = words
        .iter()
        .find(|w| w.parse::<JobKind>().is_err())
        .copied()
        .unwrap_or("");
    let Some(kind) = kind else {
        return Err(
            "Not imported: say which kind the job is (ai, search or browser), then its id."
                .to_string(),
        );
    };
    if id_text.is_empty() {
        return Err("Not imported: type the job id (a UUID) after its kind.".to_string());
    }
    let id = JobId::parse(id_text).map_err(|e| format!("Not imported: {e}."))?;
    Ok((kind, id))
}

/// The request a job was queued with, for the summary column.
pub fn summary_of(job: &JobRecord) -> String {
    if !job.summary.is_empty() {
        return job.summary.clone();
    }
    match &job.request {
        Some(request) => request.summary(),
        None => "(imported by id)".to_string(),
    }
}

/// True while the Jobs table shows ages that a second changes: the loop then redraws every
/// second, and not otherwise.
pub fn ages_on_screen(app: &App) -> bool {
    app.tab == super::Tab::Jobs && app.jobs.reader.is_none() && !app.jobs.rows.is_empty()
}

/// What comes next for a job, or why it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NextStep {
    /// The last poll's error.
    Error(String),
    /// The next poll, in this many milliseconds.
    PollIn(UnixMs),
    Polling,
    /// Done: Enter opens the result.
    Open,
    /// Failed or expired: R re-submits it.
    Resubmit,
    Nothing,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_import_needs_a_kind_and_a_uuid() {
        let id = "0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20";
        assert!(parse_import(&format!("browser {id}")).is_ok());
        assert!(parse_import(&format!("{id} ai")).is_ok());
        assert!(parse_import(id).unwrap_err().contains("which kind"));
        assert!(
            parse_import("ai not-a-uuid")
                .unwrap_err()
                .contains("not a job id")
        );
    }
}
