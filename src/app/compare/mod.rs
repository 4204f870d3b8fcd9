//! The Compare tab: one prompt (or search terms) asked from several vantage points at once,
//! the answers in columns side by side, and what differs between them.
//!
//! Columns are the product of the axes (models × devices × locations for answers, locations ×
//! IP types for searches), plus any added by hand. At most `max_in_flight` calls run at once;
//! the rest queue and start as others end. A slow or failed column holds up no other.

use crate::app::{CallEffect, OsEffect, StoreEffect};
use std::time::Duration;

use crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

use crate::api::RetryNotice;
use crate::api::request::PROMPT_MAX_CHARS;
use crate::api::{AiFormat, AiRequest, ApiError, IpType, Location, Model, SearchRequest};
use crate::store::RequestParams;

use super::call::CallState;
use super::chat::{editor_chars, prompt_editor};
use super::keymap::{Action, Context};
use super::picker::PickerKind;
use super::{App, Effect, ExportSource, Popup, Tag, export_prompt, pickers};
use crate::present::answer::PreparedAnswer;
use crate::present::search_page::PreparedSearch;

use crate::present::compare::summary::{
    self, AnswerFacts, AnswerSummary, RankRow, RankSort, Ranked,
};
pub use crate::present::compare::{
    Axes, CompareMode, MAX_COLUMNS, MAX_IN_FLIGHT, Outcome, Vantage, answer_facts, ranked_results,
    vantages,
};

/// How many calls of a comparison run at once: `max_in_flight` when set, else 8 against the
/// service (calls take 7–150 s there and a burst draws 429s and 503s), and every column at
/// once against the embedded simulator, which is on loopback, unbilled and never
/// rate-limits, so a comparison there is one wave.
pub fn in_flight_cap(app: &App) -> usize {
    app.compare
        .max_in_flight
        .unwrap_or(if app.connection.demo {
            MAX_COLUMNS
        } else {
            MAX_IN_FLIGHT
        })
        .max(1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFocus {
    Prompt,
    Columns,
}

/// What the main pane shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComparePane {
    Columns,
    Summary,
}

#[derive(Debug)]
pub struct Column {
    pub vantage: Vantage,
    /// Added by hand rather than made from the axes.
    pub by_hand: bool,
    /// Waiting for a free slot.
    pub queued: bool,
    pub call: CallState,
    pub outcome: Option<Outcome>,
    pub scroll: usize,
    /// When its answer or error arrived (the clock of that batch).
    pub landed_at: Option<std::time::Instant>,
}

impl Column {
    /// A column re-opened from history: its answer, or the error it ended with.
    pub fn restored(vantage: Vantage, outcome: Result<Outcome, String>) -> Column {
        let mut column = Column::new(vantage, false);
        match outcome {
            Ok(outcome) => column.outcome = Some(outcome),
            Err(error) => {
                column.call = CallState::Failed(ApiError::BadBody {
                    what: error,
                    excerpt: String::new(),
                })
            }
        }
        column
    }

    /// The body as received and its time, for history; status 0 and the sentence when the
    /// column failed.
    pub fn stored_body(&self) -> serde_json::Value {
        let (status, body, elapsed) = match &self.outcome {
            Some(Outcome::Answer(a)) => (200, a.body.clone(), a.header.elapsed),
            Some(Outcome::Results(r)) => (200, r.body.clone(), r.header.elapsed),
            None => (
                0,
                self.call.error().map(|e| e.to_string()).unwrap_or_default(),
                Duration::ZERO,
            ),
        };
        serde_json::json!({"status": status, "elapsed_ms": elapsed.as_millis() as u64, "body": body})
    }

    fn new(vantage: Vantage, by_hand: bool) -> Column {
        Column {
            vantage,
            by_hand,
            queued: false,
            call: CallState::Idle,
            outcome: None,
            scroll: 0,
            landed_at: None,
        }
    }

    pub fn answer(&self) -> Option<&PreparedAnswer> {
        match &self.outcome {
            Some(Outcome::Answer(a)) => Some(a),
            _ => None,
        }
    }

    pub fn results(&self) -> Option<&PreparedSearch> {
        match &self.outcome {
            Some(Outcome::Results(r)) => Some(r),
            _ => None,
        }
    }

    /// How long the answer took, when it came.
    pub fn elapsed(&self) -> Option<Duration> {
        match &self.outcome {
            Some(Outcome::Answer(a)) => Some(a.header.elapsed),
            Some(Outcome::Results(r)) => Some(r.header.elapsed),
            None => None,
        }
    }
}

pub struct CompareState {
    pub prompt: TextArea<'static>,
    pub mode: CompareMode,
    pub axes: Axes,
    pub focus: CompareFocus,
    pub pane: ComparePane,
    pub columns: Vec<Column>,
    /// The focused column.
    pub selected: usize,
    /// The focused column fills the pane.
    pub full: bool,
    /// Scrolling moves every column together.
    pub sync: bool,
    /// Overrides the cap of calls at once (see `in_flight_cap`).
    pub max_in_flight: Option<usize>,
    pub sort: RankSort,
    /// The first row of the rank table on screen.
    pub table_scroll: usize,
    /// Recomputed when a column lands, not per frame.
    pub summary: Option<AnswerSummary>,
    pub table: Vec<RankRow>,
}

impl Default for CompareState {
    fn default() -> Self {
        CompareState::new()
    }
}

impl CompareState {
    pub fn new() -> CompareState {
        let mut state = CompareState {
            prompt: prompt_editor("One prompt for every column; Enter runs them all"),
            mode: CompareMode::Answers,
            axes: Axes::default(),
            focus: CompareFocus::Prompt,
            pane: ComparePane::Columns,
            columns: Vec::new(),
            selected: 0,
            full: false,
            sync: true,
            max_in_flight: None,
            sort: RankSort::Best,
            table_scroll: 0,
            summary: None,
            table: Vec::new(),
        };
        state.rebuild();
        state
    }

    pub fn prompt_text(&self) -> String {
        self.prompt.lines().join("\n")
    }

    pub fn prompt_chars(&self) -> usize {
        editor_chars(&self.prompt)
    }

    pub fn prompt_limit(&self) -> usize {
        match self.mode {
            CompareMode::Answers => PROMPT_MAX_CHARS,
            CompareMode::Search => crate::api::request::TERMS_MAX_CHARS,
        }
    }

    pub fn set_prompt(&mut self, text: &str) {
        self.prompt.select_all();
        self.prompt.cut();
        self.prompt.insert_str(text);
    }

    pub fn editing(&self) -> bool {
        self.focus == CompareFocus::Prompt
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        vec![Context::Compare, Context::Viewer]
    }

    pub fn edit(&mut self, key: KeyEvent) {
        self.prompt.input(key);
    }

    pub fn paste(&mut self, text: &str) {
        self.focus = CompareFocus::Prompt;
        self.prompt
            .insert_str(text.replace("\r\n", "\n").replace('\r', "\n"));
    }

    /// Remakes the columns from the axes, keeping those added by hand and the results of
    /// vantage points that stay.
    pub fn rebuild(&mut self) {
        let mut old: Vec<Column> = std::mem::take(&mut self.columns);
        let mut columns = Vec::new();
        for vantage in vantages(&self.axes, self.mode) {
            let column = match old.iter().position(|c| !c.by_hand && c.vantage == vantage) {
                Some(i) => old.remove(i),
                None => Column::new(vantage, false),
            };
            columns.push(column);
        }
        columns.extend(old.into_iter().filter(|c| c.by_hand));
        self.columns = columns;
        self.selected = self.selected.min(self.columns.len().saturating_sub(1));
        self.refresh_summary();
    }

    /// How many calls run now.
    pub fn running(&self) -> usize {
        self.columns.iter().filter(|c| c.call.is_running()).count()
    }

    /// Calls running or queued.
    pub fn busy(&self) -> usize {
        self.columns
            .iter()
            .filter(|c| c.queued || c.call.is_running())
            .count()
    }

    fn column_of(&mut self, tag: Tag) -> Option<&mut Column> {
        self.columns.iter_mut().find(|c| c.call.is_for(tag))
    }

    pub fn owns(&self, tag: Tag) -> bool {
        self.columns.iter().any(|c| c.call.is_for(tag))
    }

    pub fn on_retry(&mut self, tag: Tag, notice: RetryNotice, now: std::time::Instant) {
        if let Some(column) = self.column_of(tag) {
            column.call.on_retry(tag, notice, now);
        }
    }

    /// The AI request of a vantage point.
    pub fn ai_request(&self, vantage: &Vantage) -> AiRequest {
        self.axes.ai_request(self.prompt_text(), vantage)
    }

    /// The search request of a vantage point, on top of the Search tab's other settings.
    pub fn search_request(&self, base: &SearchRequest, vantage: &Vantage) -> SearchRequest {
        self.axes.search_request(self.prompt_text(), base, vantage)
    }

    /// Recomputes the summary (answers) or the rank table (search) from what has landed.
    pub fn refresh_summary(&mut self) {
        match self.mode {
            CompareMode::Answers => {
                let facts: Vec<AnswerFacts> = self
                    .columns
                    .iter()
                    .map(|c| {
                        answer_facts(
                            c.vantage.label(CompareMode::Answers),
                            c.answer(),
                            c.call.error().map(|e| e.to_string()),
                        )
                    })
                    .collect();
                self.summary = Some(AnswerSummary::of(facts));
                self.table.clear();
            }
            CompareMode::Search => {
                let ranked: Vec<Vec<Ranked>> = self
                    .columns
                    .iter()
                    .map(|c| c.results().map(ranked_results).unwrap_or_default())
                    .collect();
                self.table = summary::rank_table(&ranked, self.sort);
                self.summary = None;
            }
        }
    }

    /// What history keeps of this comparison: every column's request, as one entry.
    pub fn history_params(&self, base: &SearchRequest) -> RequestParams {
        RequestParams::Compare(
            self.columns
                .iter()
                .map(|c| match self.mode {
                    CompareMode::Answers => RequestParams::Ai(self.ai_request(&c.vantage)),
                    CompareMode::Search => {
                        RequestParams::Search(self.search_request(base, &c.vantage))
                    }
                })
                .collect(),
        )
    }

    /// The labels of the columns, in order.
    pub fn labels(&self) -> Vec<String> {
        self.columns
            .iter()
            .map(|c| c.vantage.label(self.mode))
            .collect()
    }

    /// Scrolls the focused column, or all of them when scrolling is synchronised.
    pub fn scroll_by(&mut self, delta: isize) {
        if self.mode == CompareMode::Search || self.pane == ComparePane::Summary {
            let len = match self.mode {
                CompareMode::Search => self.table.len(),
                CompareMode::Answers => self
                    .summary
                    .as_ref()
                    .map_or(0, |s| s.text(false).lines().count()),
            };
            let next = (self.table_scroll as isize + delta).max(0) as usize;
            self.table_scroll = next.min(len.saturating_sub(1));
            return;
        }
        let selected = self.selected;
        let sync = self.sync;
        for (i, column) in self.columns.iter_mut().enumerate() {
            if sync || i == selected {
                let max = column
                    .answer()
                    .map_or(0, |a| a.answer.wrapped_len().saturating_sub(1));
                let next = (column.scroll as isize + delta).max(0) as usize;
                column.scroll = next.min(max);
            }
        }
    }

    /// The Markdown export: the prompt, each answer, then the summary.
    pub fn export_markdown(&self) -> String {
        let mut out = format!(
            "# Comparison\n\n> {}\n",
            self.prompt_text().replace('\n', "\n> ")
        );
        for (i, column) in self.columns.iter().enumerate() {
            out.push_str(&format!(
                "\n## {}. {}\n\n",
                i + 1,
                column.vantage.label(CompareMode::Answers)
            ));
            match (column.answer(), column.call.error()) {
                (Some(answer), _) => {
                    out.push_str(&format!("*{}*\n\n", answer.header.describe()));
                    out.push_str(answer.markdown.trim_end());
                    out.push('\n');
                }
                (None, Some(error)) => out.push_str(&format!("The call failed: {error}\n")),
                (None, None) => out.push_str("No answer.\n"),
            }
        }
        if let Some(summary) = &self.summary {
            out.push_str("\n# What differs\n");
            out.push_str(&summary.text(true));
        }
        out
    }

    /// The JSON export: the summary (answers) or the rank table (search).
    pub fn export_json(&self) -> String {
        let value = match self.mode {
            CompareMode::Answers => serde_json::json!({
                "prompt": self.prompt_text(),
                "summary": self.summary,
                "answers": self.columns.iter().map(|c| serde_json::json!({
                    "column": c.vantage.label(CompareMode::Answers),
                    "markdown": c.answer().map(|a| a.markdown.clone()),
                    "error": c.call.error().map(|e| e.to_string()),
                })).collect::<Vec<_>>(),
            }),
            CompareMode::Search => serde_json::json!({
                "terms": self.prompt_text(),
                "columns": self.labels(),
                "sort": self.sort,
                "rows": self.table,
            }),
        };
        serde_json::to_string_pretty(&value).unwrap_or_default()
    }

    pub fn export_csv(&self) -> String {
        summary::rank_table_csv(&self.labels(), &self.table)
    }
}

/// Takes a column's answer. Effects start the queued columns that now have a slot.
pub fn on_ai_done(
    app: &mut App,
    tag: Tag,
    result: Result<Box<PreparedAnswer>, ApiError>,
) -> Vec<Effect> {
    land(app, tag, result.map(Outcome::Answer))
}

pub fn on_search_done(
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
    app.compare.refresh_summary();
    let mut effects = pump(app);
    if app.compare.busy() == 0 {
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
            params: Box::new(params),
            columns: serde_json::Value::Array(columns).to_string(),
        }));
    }
    effects
}

/// Starts queued columns while fewer than `max_in_flight` run.
pub fn pump(app: &mut App) -> Vec<Effect> {
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
        effects.push(effect);
    }
    effects
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
    if n > MAX_COLUMNS {
        return Some(format!(
            "Not sent: {n} columns would be {n} billed calls; at most {MAX_COLUMNS} are allowed. Remove a model, device or location."
        ));
    }
    if app.connection.token.is_none() {
        return Some(app.no_token_sentence());
    }
    let base = app.search.request();
    for column in &compare.columns {
        let checked = match compare.mode {
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

/// Runs every column again: the running ones are cancelled first.
pub fn send_all(app: &mut App) -> Vec<Effect> {
    if let Some(reason) = refusal(app) {
        app.flash_error(reason);
        return Vec::new();
    }
    let mut effects = cancel_all(app);
    for column in &mut app.compare.columns {
        column.outcome = None;
        column.call = CallState::Idle;
        column.queued = true;
        column.scroll = 0;
    }
    app.compare.focus = CompareFocus::Columns;
    app.compare.refresh_summary();
    let n = app.compare.columns.len();
    let cap = in_flight_cap(app);
    if n > cap {
        app.flash_info(format!(
            "{n} calls: {cap} at once, the other {} queue.",
            n - cap
        ));
    }
    effects.extend(pump(app));
    effects
}

fn rerun(app: &mut App) -> Vec<Effect> {
    if app.compare.columns.is_empty() {
        return Vec::new();
    }
    if let Some(reason) = refusal(app) {
        app.flash_error(reason);
        return Vec::new();
    }
    let mut effects = cancel_one(app);
    let column = &mut app.compare.columns[app.compare.selected];
    column.outcome = None;
    column.call = CallState::Idle;
    column.queued = true;
    app.compare.refresh_summary();
    effects.extend(pump(app));
    effects
}

fn cancel_one(app: &mut App) -> Vec<Effect> {
    let Some(column) = app.compare.columns.get_mut(app.compare.selected) else {
        return Vec::new();
    };
    column.queued = false;
    match column.call.tag() {
        Some(tag) => {
            column.call = CallState::Idle;
            let mut effects = vec![Effect::Call(CallEffect::Cancel(tag))];
            effects.extend(pump(app));
            effects
        }
        None => Vec::new(),
    }
}

fn cancel_all(app: &mut App) -> Vec<Effect> {
    let mut effects = Vec::new();
    for column in &mut app.compare.columns {
        column.queued = false;
        if let Some(tag) = column.call.tag() {
            column.call = CallState::Idle;
            effects.push(Effect::Call(CallEffect::Cancel(tag)));
        }
    }
    effects
}

/// Handles an action the keymap found, on the Compare tab.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let compare = &mut app.compare;
    let n = compare.columns.len();
    match action {
        Action::FocusNext | Action::FocusPrev => {
            compare.focus = match compare.focus {
                CompareFocus::Prompt => CompareFocus::Columns,
                CompareFocus::Columns => CompareFocus::Prompt,
            };
        }
        Action::Back => compare.focus = CompareFocus::Columns,
        Action::EditPrompt => compare.focus = CompareFocus::Prompt,
        Action::Newline => compare.prompt.insert_newline(),
        Action::Send => return send_all(app),
        Action::Rerun => return rerun(app),
        Action::Cancel => {
            let running = compare
                .columns
                .get(compare.selected)
                .is_some_and(|c| c.queued || c.call.is_running());
            if running {
                app.flash_info("Cancelled this column; R runs it again.");
                return cancel_one(app);
            }
            compare.full = false;
        }
        Action::CancelAll => {
            let effects = cancel_all(app);
            if !effects.is_empty() {
                app.flash_info(format!("Cancelled {} calls.", effects.len()));
            }
            return effects;
        }
        Action::Left => compare.selected = compare.selected.saturating_sub(1),
        Action::Right => compare.selected = (compare.selected + 1).min(n.saturating_sub(1)),
        Action::Accept if n > 0 && compare.mode == CompareMode::Answers => {
            compare.full = !compare.full;
            compare.pane = ComparePane::Columns;
        }
        Action::Up => compare.scroll_by(-1),
        Action::Down => compare.scroll_by(1),
        Action::PageUp => compare.scroll_by(-10),
        Action::PageDown => compare.scroll_by(10),
        Action::Top => compare.scroll_by(isize::MIN / 2),
        Action::Bottom => compare.scroll_by(isize::MAX / 2),
        Action::NextView | Action::PrevView => {
            compare.pane = match compare.pane {
                ComparePane::Columns => ComparePane::Summary,
                ComparePane::Summary => ComparePane::Columns,
            };
            compare.full = false;
        }
        Action::ToggleSync => {
            compare.sync = !compare.sync;
            let text = if compare.sync {
                "Columns scroll together."
            } else {
                "Only the focused column scrolls."
            };
            app.flash_info(text);
        }
        Action::ToggleMode => {
            if compare.busy() > 0 {
                app.flash_info("Calls are running; Ctrl+X cancels them before switching.");
                return Vec::new();
            }
            compare.mode = match compare.mode {
                CompareMode::Answers => CompareMode::Search,
                CompareMode::Search => CompareMode::Answers,
            };
            compare.columns.clear();
            compare.full = false;
            compare.rebuild();
            let text = match compare.mode {
                CompareMode::Answers => "Comparing chatbot answers: models × devices × locations.",
                CompareMode::Search => {
                    "Comparing search ranks: locations × IP types, with the Search tab's other settings."
                }
            };
            app.flash_info(text);
        }
        Action::SortBy => {
            compare.sort = compare.sort.next();
            summary::sort_rows(&mut compare.table, compare.sort);
            let label = compare.sort.label();
            app.flash_info(format!("Rows sorted by {label}."));
        }
        Action::CycleFormat => {
            let all = AiFormat::ALL;
            let i = all
                .iter()
                .position(|f| *f == compare.axes.format)
                .unwrap_or(0);
            compare.axes.format = all[(i + 1) % all.len()];
            let format = compare.axes.format;
            app.flash_info(format!("Format for every column: {format}"));
        }
        Action::ToggleCache => {
            compare.axes.no_cache = !compare.axes.no_cache;
            let text = if compare.axes.no_cache {
                "Cache off for every column (expiration=0)."
            } else {
                "Cache on for every column (expiration=1)."
            };
            app.flash_info(text);
        }
        Action::CycleIp => {
            // none → residential → isp → both → none
            compare.axes.ips = match compare.axes.ips.as_slice() {
                [] => vec![IpType::Residential],
                [IpType::Residential] => vec![IpType::Isp],
                [IpType::Isp] => vec![IpType::Residential, IpType::Isp],
                _ => Vec::new(),
            };
            compare.rebuild();
        }
        Action::Clear => {
            if compare.axes.locations.pop().is_some() {
                compare.rebuild();
            } else {
                app.flash_info("There is no location to remove.");
            }
        }
        Action::AddColumn => {
            let vantage = match compare.mode {
                CompareMode::Answers => Vantage {
                    model: app.chat.settings.model,
                    device: app.chat.settings.device.clone(),
                    location: app.chat.settings.location.clone(),
                    ip: None,
                },
                CompareMode::Search => Vantage {
                    location: app.search.settings.location.clone(),
                    ip: app.search.settings.ip,
                    ..Vantage::default()
                },
            };
            let label = vantage.label(compare.mode);
            compare.columns.push(Column::new(vantage, true));
            compare.selected = compare.columns.len() - 1;
            compare.refresh_summary();
            let source = match compare.mode {
                CompareMode::Answers => "Chat",
                CompareMode::Search => "Search",
            };
            app.flash_info(format!(
                "Added a column from the {source} tab's settings: {label}."
            ));
        }
        Action::RemoveColumn => {
            if n == 0 {
                return Vec::new();
            }
            let mut effects = cancel_one(app);
            let compare = &mut app.compare;
            let column = compare.columns.remove(compare.selected);
            compare.selected = compare
                .selected
                .min(compare.columns.len().saturating_sub(1));
            compare.full = false;
            compare.refresh_summary();
            if !column.by_hand {
                app.flash_info("Removed; it comes back when the axes change.");
            }
            effects.extend(pump(app));
            return effects;
        }
        Action::PickModel => app.popup = Some(Popup::Picker(model_picker(compare, None))),
        Action::PickDevice => {
            app.popup = Some(Popup::Picker(device_picker(&app.devices, compare, None)));
        }
        Action::PickCountry => {
            let picker = pickers::location(PickerKind::Country, &Location::default())
                .with_note("Adds a location; s and t then set its subdivision and city.");
            app.popup = Some(Popup::Picker(picker));
        }
        Action::PickSubdivision | Action::PickCity => {
            let Some(last) = compare.axes.locations.last() else {
                app.flash_info(
                    "Add a location with c first: subdivisions and cities belong to a country.",
                );
                return Vec::new();
            };
            let kind = if action == Action::PickCity {
                PickerKind::City
            } else {
                PickerKind::Subdivision
            };
            app.popup = Some(Popup::Picker(pickers::location(kind, last)));
        }
        Action::Export => {
            if compare.columns.iter().all(|c| c.outcome.is_none()) {
                app.flash_info("There is nothing to export yet: run the comparison first.");
            } else {
                let name = match compare.mode {
                    CompareMode::Answers => "vantage-compare.md",
                    CompareMode::Search => "vantage-compare-search.csv",
                };
                app.popup = Some(Popup::Input(export_prompt(
                    ExportSource::Comparison,
                    name.to_string(),
                )));
            }
        }
        Action::Copy => {
            let text = match compare.mode {
                CompareMode::Answers => compare.export_markdown(),
                CompareMode::Search => compare.export_csv(),
            };
            app.flash_info("Copied the comparison.");
            return vec![Effect::Os(OsEffect::Copy(text))];
        }
        _ => {}
    }
    Vec::new()
}

/// The model picker as a multi-select: it stays open, Enter toggles, Esc closes.
fn model_picker(compare: &CompareState, at: Option<Model>) -> super::picker::Picker {
    pickers::model(at).with_note(format!(
        "Chosen: {}. Enter adds or removes the highlighted model; Esc when done.",
        list_or_none(compare.axes.models.iter().map(|m| m.as_str().to_string()))
    ))
}

fn device_picker(
    devices: &super::Devices,
    compare: &CompareState,
    at: Option<&str>,
) -> super::picker::Picker {
    pickers::device(devices, at).with_note(format!(
        "Chosen: {}. Enter adds or removes the highlighted device; Esc when done.",
        list_or_none(compare.axes.devices.iter().cloned())
    ))
}

fn list_or_none(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

fn toggle<T: PartialEq>(list: &mut Vec<T>, value: T) {
    match list.iter().position(|v| *v == value) {
        Some(i) => {
            list.remove(i);
        }
        None => list.push(value),
    }
}

/// Sets what a picker chose: models and devices toggle; a country adds a location;
/// subdivision and city set those of the last location.
pub fn apply_choice(app: &mut App, kind: PickerKind, value: Option<String>) {
    let compare = &mut app.compare;
    match kind {
        PickerKind::Model => {
            let model = value.and_then(|v| v.parse::<Model>().ok());
            if let Some(model) = model {
                toggle(&mut compare.axes.models, model);
            }
            compare.rebuild();
            app.popup = Some(Popup::Picker(model_picker(&app.compare, model)));
            return;
        }
        PickerKind::Device => {
            if let Some(device) = &value {
                toggle(&mut compare.axes.devices, device.clone());
            }
            compare.rebuild();
            app.popup = Some(Popup::Picker(device_picker(
                &app.devices,
                &app.compare,
                value.as_deref(),
            )));
            return;
        }
        PickerKind::Country => {
            let mut location = Location::default();
            pickers::apply_location(&mut location, kind, value);
            if compare.axes.locations.contains(&location) {
                app.flash_info("That location is already a column axis.");
                return;
            }
            compare.axes.locations.push(location);
        }
        PickerKind::Subdivision | PickerKind::City => {
            if let Some(last) = compare.axes.locations.last_mut() {
                pickers::apply_location(last, kind, value);
            }
        }
        PickerKind::Language | PickerKind::Display => {}
    }
    compare.rebuild();
}

/// The line that says what a send costs: "8 columns = 8 calls", or why it is refused.
pub fn cost_line(compare: &CompareState) -> (String, bool) {
    let n = compare.columns.len();
    if n > MAX_COLUMNS {
        (
            format!("{n} columns = {n} calls: too many, at most {MAX_COLUMNS}"),
            false,
        )
    } else {
        let s = if n == 1 { "" } else { "s" };
        (format!("{n} column{s} = {n} call{s}"), true)
    }
}

#[cfg(test)]
mod tests;
