//! Running a comparison: columns start as slots free up, land, fail, are cancelled or re-run.

use crate::app::{CallEffect, StoreEffect};

use std::time::Duration;

use crate::analysis::samples;
use crate::api::ApiError;

use crate::app::call::CallState;
use crate::app::{App, Confirm, Credits, Effect, Popup, Tag};
use crate::present::answer::PreparedAnswer;
use crate::present::search_page::PreparedSearch;

use super::{Column, CompareFocus, in_flight_cap};
use crate::present::compare::{CompareMode, MAX_COLUMNS, Outcome};

pub(crate) fn on_ai_done(
    app: &mut App,
    tag: Tag,
    result: Result<Box<PreparedAnswer>, ApiError>,
) -> Vec<Effect> {
    land(app, tag, result.map(Outcome::Answer))
}

pub(crate) fn on_search_done(
    app: &mut App,
    tag: Tag,
    result: Result<Box<PreparedSearch>, ApiError>,
) -> Vec<Effect> {
    land(app, tag, result.map(Outcome::Results))
}

fn land(app: &mut App, tag: Tag, result: Result<Outcome, ApiError>) -> Vec<Effect> {
    if let Err(error) = &result {
        app.note_error(error);
    }
    let now = app.now;
    if let Some(sample) = app.compare.sample_of(tag) {
        // A sample's call went to History on its own; only its reading is kept here.
        match result {
            Ok(Outcome::Answer(answer)) => {
                sample.call = CallState::Idle;
                sample.answer = Some(answer);
            }
            Ok(Outcome::Results(_)) => sample.call = CallState::Idle,
            Err(error) => sample.call = CallState::Failed(error),
        }
        app.compare.refresh_summary();
        super::refresh_views(app);
        return finish_if_done(app);
    }
    let Some(column) = app.compare.column_of(tag) else {
        return Vec::new();
    };
    column.landed_at = Some(now);
    match result {
        Ok(outcome) => {
            column.call = CallState::Idle;
            column.outcome = Some(outcome);
        }
        Err(error) => column.call = CallState::Failed(error),
    }
    column.earlier = None;
    app.compare.refresh_summary();
    super::refresh_views(app);
    finish_if_done(app)
}

/// A stored comparison back in the tab, ready to edit and run: its prompt, axes and
/// columns, without their answers. Nothing is sent; a run under way is cancelled.
pub(crate) fn edit_again(app: &mut App, requests: &[crate::store::RequestParams]) -> Vec<Effect> {
    let asked = match crate::app::stored::asked(requests) {
        Ok(asked) => asked,
        Err(error) => {
            app.flash_error(format!(
                "The stored comparison could not be read back: {error}"
            ));
            return Vec::new();
        }
    };
    let effects = cancel_all(app);
    let columns = asked.vantages.into_iter().map(|v| (v, None)).collect();
    app.compare
        .restore(asked.mode, &asked.prompt, asked.axes, columns);
    app.compare.focus = CompareFocus::Columns;
    app.tab = crate::app::Tab::Compare;
    let run = app.key_of(
        crate::app::keymap::Context::Compare,
        crate::app::keymap::Action::Send,
    );
    app.flash_info(format!(
        "The comparison is back in the form: edit it, then {run} runs every column."
    ));
    effects
}

/// Starts what now has a slot; once nothing runs or waits, stores the comparison and reads
/// the balance.
fn finish_if_done(app: &mut App) -> Vec<Effect> {
    let mut effects = pump(app);
    if app.compare.busy() == 0 {
        let took = app
            .compare
            .run_started
            .take()
            .map_or(Duration::ZERO, |started| {
                app.now.saturating_duration_since(started)
            });
        effects.push(Effect::Call(CallEffect::FetchAccount));
        // The whole comparison is one history entry: every column's request and body.
        let params = app.compare.history_params(&app.search.request());
        let columns: Vec<serde_json::Value> = app
            .compare
            .columns
            .iter()
            .map(Column::stored_body)
            .collect();
        effects.push(Effect::Store(StoreEffect::RecordComparison {
            entry: app.compare.grid.take(),
            params: Box::new(params),
            columns: serde_json::Value::Array(columns).to_string(),
            elapsed_ms: u64::try_from(took.as_millis()).unwrap_or(u64::MAX),
        }));
    }
    effects
}

/// How long the live service takes to answer a search awaiting its AI Overview, in seconds:
/// it holds the page until the overview is there, up to a minute.
const OVERVIEW_TYPICAL_SECONDS: (u32, u32) = (10, 60);

/// Starts queued columns while fewer than `max_in_flight` run; through the queue, every
/// column is queued at once.
pub(super) fn pump(app: &mut App) -> Vec<Effect> {
    if app.compare.grid.is_some() {
        return queue_grid(app);
    }
    let mut effects = Vec::new();
    let base = app.search.request();
    let cap = in_flight_cap(app);
    while app.compare.running() < cap {
        let Some(i) = app.compare.columns.iter().position(|c| c.queued) else {
            break;
        };
        let tag = app.next_tag();
        let compare = &mut app.compare;
        let vantage = compare.columns[i].vantage.clone();
        let (label, typical, effect) = match compare.mode {
            CompareMode::Answers if vantage.overview => (
                "Waiting for the AI Overview".to_string(),
                Some(OVERVIEW_TYPICAL_SECONDS),
                Effect::Call(CallEffect::SendOverview {
                    tag,
                    request: compare.overview_request(&vantage),
                }),
            ),
            CompareMode::Answers => {
                let request = compare.ai_request(&vantage);
                let model = request.effective_model();
                (
                    format!("Asking {}", model.display_name()),
                    Some(model.typical_seconds()),
                    Effect::Call(CallEffect::SendAi { tag, request }),
                )
            }
            CompareMode::Search => (
                "Searching".to_string(),
                None,
                Effect::Call(CallEffect::SendSearch {
                    tag,
                    request: compare.search_request(&base, &vantage),
                }),
            ),
        };
        let column = &mut compare.columns[i];
        column.queued = false;
        column.call = CallState::running(tag, app.now, label, typical);
        effects.push(match effect {
            Effect::Call(call) => Effect::Call(CallEffect::Column(Box::new(call))),
            other => other,
        });
    }
    // Then the samples, once every column's first ask is out: each is its own call in
    // History, as it is a billed call of its own.
    while app.compare.running() < cap {
        let Some((i, k)) = app
            .compare
            .columns
            .iter()
            .enumerate()
            .find_map(|(i, c)| c.samples.iter().position(|s| s.queued).map(|k| (i, k)))
        else {
            break;
        };
        if app.compare.columns.iter().any(|c| c.queued) {
            break;
        }
        let tag = app.next_tag();
        let compare = &mut app.compare;
        let vantage = compare.columns[i].vantage.clone();
        let effect = if vantage.overview {
            CallEffect::SendOverview {
                tag,
                request: compare.overview_request(&vantage),
            }
        } else {
            CallEffect::SendAi {
                tag,
                request: compare.ai_request(&vantage),
            }
        };
        let sample = &mut compare.columns[i].samples[k];
        sample.queued = false;
        sample.call = CallState::running(tag, app.now, format!("Sample {}", k + 2), None);
        effects.push(Effect::Call(effect));
    }
    effects
}

/// Every waiting column of a comparison through the queue, submitted as a job.
fn queue_grid(app: &mut App) -> Vec<Effect> {
    let Some(entry) = app.compare.grid.clone() else {
        return Vec::new();
    };
    let mut effects = Vec::new();
    let base = app.search.request();
    for i in 0..app.compare.columns.len() {
        if !app.compare.columns[i].queued {
            continue;
        }
        let tag = app.next_tag();
        let compare = &mut app.compare;
        let vantage = compare.columns[i].vantage.clone();
        let request = match compare.mode {
            CompareMode::Answers if vantage.overview => {
                crate::store::RequestParams::Search(compare.overview_request(&vantage))
            }
            CompareMode::Answers => crate::store::RequestParams::Ai(compare.ai_request(&vantage)),
            CompareMode::Search => {
                crate::store::RequestParams::Search(compare.search_request(&base, &vantage))
            }
        };
        let column = &mut compare.columns[i];
        column.queued = false;
        column.call = CallState::running(tag, app.now, "Queuing".to_string(), None);
        effects.push(Effect::Call(CallEffect::SubmitGridColumn {
            tag,
            entry: entry.clone(),
            column: i,
            request,
        }));
    }
    effects
}

/// A queued column's job is stored: it is polled as every job is, and the column waits for
/// it; a column that could not be queued has failed.
pub(crate) fn on_grid_queued(
    app: &mut App,
    tag: Tag,
    result: Result<crate::store::JobRecord, String>,
) -> Vec<Effect> {
    match result {
        Ok(record) => {
            if let Some(column) = app.compare.column_of(tag) {
                column.job = Some(record.id.clone());
                column.call = CallState::running(
                    tag,
                    app.now,
                    format!("Job {} queued", record.id.short()),
                    None,
                );
            }
            app.ask(crate::app::hub::Ask::KeepJob(Box::new(record)));
            Vec::new()
        }
        Err(sentence) => land(
            app,
            tag,
            Err(ApiError::Unanswered(format!("Not queued: {sentence}"))),
        ),
    }
}

/// A poll of a job that answers a column: its result read off the UI task, or the column
/// failed when its job ended without one.
pub(crate) fn on_grid_job(
    app: &mut App,
    id: &crate::api::JobId,
    state: crate::jobs::JobState,
    body: Option<crate::store::Body>,
) -> Vec<Effect> {
    use crate::jobs::JobState;
    let Some(i) = app
        .compare
        .columns
        .iter()
        .position(|c| c.job.as_ref() == Some(id))
    else {
        return Vec::new();
    };
    let Some(tag) = app.compare.columns[i].call.tag() else {
        return Vec::new();
    };
    match (state, body) {
        (JobState::Done, Some(body)) => {
            let compare = &app.compare;
            let vantage = &compare.columns[i].vantage;
            let request = match compare.mode {
                CompareMode::Answers if vantage.overview => {
                    crate::store::RequestParams::Search(compare.overview_request(vantage))
                }
                _ => crate::store::RequestParams::Ai(compare.ai_request(vantage)),
            };
            vec![Effect::Call(CallEffect::PrepareGridColumn {
                tag,
                request,
                body,
            })]
        }
        (JobState::Failed | JobState::Expired, _) => land(
            app,
            tag,
            Err(ApiError::Unanswered(format!(
                "Its job {} ended {state} with no answer: R asks the column again.",
                id.short()
            ))),
        ),
        _ => Vec::new(),
    }
}

/// Why the comparison cannot be sent as it stands, as a sentence.
fn refusal(app: &App) -> Option<String> {
    let compare = &app.compare;
    let n = compare.columns.len();
    if n == 0 {
        return Some(
            "There are no columns: choose models (m) or locations (c), or add one with +.".into(),
        );
    }
    if n > MAX_COLUMNS && compare.mode == CompareMode::Search {
        return Some(format!(
            "Not sent: {n} searches would be {n} billed calls; at most {MAX_COLUMNS} are compared. Remove a device, location or IP type."
        ));
    }
    if n > MAX_COLUMNS && compare.samples_per_column() > 1 {
        return Some(format!(
            "Not sent: with samples, at most {MAX_COLUMNS} columns are asked; {n} go through the queue one answer each. Set samples to 1, or remove a model, device or location."
        ));
    }
    if let Err(sentence) = samples::check_sampled_comparison(compare.samples_per_column(), n) {
        return Some(format!("Not sent: {sentence}"));
    }
    if let Some(unread) = app.brands_unread() {
        return Some(unread);
    }
    if app.connection.token.is_none() {
        return Some(app.no_token_sentence());
    }
    let (cost, allowed) = super::cost_line(app);
    if !allowed {
        return Some(format!(
            "Not sent: {cost}. Top up, or ask fewer columns or samples."
        ));
    }
    let base = app.search.request();
    for column in &compare.columns {
        let checked = match compare.mode {
            CompareMode::Answers if column.vantage.overview => {
                compare.overview_request(&column.vantage).validate()
            }
            CompareMode::Answers => compare.ai_request(&column.vantage).validate(),
            CompareMode::Search => compare.search_request(&base, &column.vantage).validate(),
        };
        if let Err(invalid) = checked {
            return Some(format!(
                "Not sent: {invalid} (column {}).",
                column.vantage.label(compare.mode)
            ));
        }
    }
    None
}

/// The balance when known, for a question before a spend.
fn balance(app: &App) -> Option<u64> {
    match app.credits {
        Credits::Known(n) => Some(n),
        _ => None,
    }
}

/// `r`: every column runs, after a yes to its calls and credits when it spends more than one
/// call.
pub(super) fn ask_send_all(app: &mut App) -> Vec<Effect> {
    if let Some(reason) = refusal(app) {
        app.flash_error(reason);
        return Vec::new();
    }
    if app.compare.calls_by_kind().total() <= 1 {
        return send_all(app);
    }
    let (cost, _) = super::cost_line(app);
    app.popup = Some(Popup::Confirm(Confirm::CompareRun {
        column: None,
        cost,
        credits: balance(app),
    }));
    Vec::new()
}

/// `R`: the focused column runs again, after a yes when its samples make it several calls.
pub(super) fn ask_rerun(app: &mut App) -> Vec<Effect> {
    let selected = app.compare.selected;
    if selected >= app.compare.columns.len() {
        return Vec::new();
    }
    if let Some(reason) = refusal(app) {
        app.flash_error(reason);
        return Vec::new();
    }
    let compare = &app.compare;
    let calls = compare.calls_of(&compare.columns[selected..=selected]);
    if calls.total() <= 1 {
        return rerun(app);
    }
    let cost = format!(
        "{} samples = {}",
        compare.samples_per_column(),
        calls.in_words(&app.prices)
    );
    app.popup = Some(Popup::Confirm(Confirm::CompareRun {
        column: Some(selected),
        cost,
        credits: balance(app),
    }));
    Vec::new()
}

/// After the yes: every column (`None`) or the one asked about runs.
pub(crate) fn run_confirmed(app: &mut App, column: Option<usize>) -> Vec<Effect> {
    let Some(column) = column else {
        return send_all(app);
    };
    if column >= app.compare.columns.len() {
        return Vec::new();
    }
    app.compare.selected = column;
    rerun(app)
}

/// Runs every column again: the running ones are cancelled first.
pub(super) fn send_all(app: &mut App) -> Vec<Effect> {
    if let Some(reason) = refusal(app) {
        app.flash_error(reason);
        return Vec::new();
    }
    let mut effects = cancel_all(app);
    app.compare.run_started = Some(app.now);
    let samples = app.compare.samples_per_column();
    // More columns than are asked at once: one History entry now, each column a job.
    app.compare.grid = None;
    if app.compare.columns.len() > MAX_COLUMNS {
        let entry = crate::store::EntryId::new();
        let params = app.compare.history_params(&app.search.request());
        effects.push(Effect::Store(StoreEffect::StartComparison {
            entry: entry.clone(),
            params: Box::new(params),
        }));
        app.compare.grid = Some(entry);
    }
    for column in &mut app.compare.columns {
        column.queue(samples);
        column.scroll = 0;
    }
    app.compare.focus = CompareFocus::Columns;
    app.compare.table_scroll = 0;
    app.compare.find = None;
    app.compare.refresh_summary();
    let n = app.compare.columns.len() * samples;
    let cap = in_flight_cap(app);
    if let Some(entry) = &app.compare.grid {
        let short = entry.as_str().get(..8).unwrap_or_default().to_string();
        app.flash_info(format!(
            "{n} columns through the service's queue: each fills as its job lands. If the app is closed first, `vantage compare --resume {short}` finishes it."
        ));
    } else if samples > 1 {
        app.flash_info(format!(
            "{n} calls: each of the {} columns asked {samples} times afresh, {cap} at once.",
            app.compare.columns.len()
        ));
    } else if n > cap {
        app.flash_info(format!(
            "{n} calls: {cap} at once, the other {} queue.",
            n - cap
        ));
    }
    effects.extend(pump(app));
    effects
}

pub(super) fn rerun(app: &mut App) -> Vec<Effect> {
    if app.compare.columns.is_empty() {
        return Vec::new();
    }
    if let Some(reason) = refusal(app) {
        app.flash_error(reason);
        return Vec::new();
    }
    let mut effects = cancel_one(app);
    // A column run again alone is a run of its own, unless others are still out.
    if app.compare.busy() == 0 {
        app.compare.run_started = Some(app.now);
    }
    let samples = app.compare.samples_per_column();
    app.compare.columns[app.compare.selected].queue(samples);
    app.compare.refresh_summary();
    effects.extend(pump(app));
    effects
}

pub(super) fn cancel_one(app: &mut App) -> Vec<Effect> {
    let Some(column) = app.compare.columns.get_mut(app.compare.selected) else {
        return Vec::new();
    };
    let tags = column.cancel();
    app.compare.refresh_summary();
    if tags.is_empty() {
        return Vec::new();
    }
    let mut effects: Vec<Effect> = tags
        .into_iter()
        .map(|tag| Effect::Call(CallEffect::Cancel(tag)))
        .collect();
    effects.extend(pump(app));
    effects
}

pub(super) fn cancel_all(app: &mut App) -> Vec<Effect> {
    let mut effects = Vec::new();
    for column in &mut app.compare.columns {
        for tag in column.cancel() {
            effects.push(Effect::Call(CallEffect::Cancel(tag)));
        }
    }
    app.compare.refresh_summary();
    effects
}
