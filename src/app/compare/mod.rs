//! The Compare tab: one prompt (or search terms) asked from several vantage points at once,
//! the answers in columns side by side, and what differs between them.
//!
//! Columns are the product of the axes (models × devices × locations for answers, locations ×
//! IP types for searches), plus any added by hand. At most `max_in_flight` calls run at once;
//! the rest queue and start as others end. A slow or failed column holds up no other.

use crate::analysis::sources::Classifier;
use std::time::Duration;

use crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

use crate::api::RetryNotice;
use crate::api::request::PROMPT_MAX_CHARS;
use crate::api::{AiRequest, ApiError, SearchRequest};
use crate::store::RequestParams;

use super::call::CallState;
use super::input::{editor_chars, prompt_editor};
use super::keymap::Context;
use super::text_search::TextSearch;
use super::{App, Tag};
use crate::present::answer::PreparedAnswer;
use crate::present::search_page::PreparedSearch;

use crate::present::compare::summary::{
    self, AnswerFacts, AnswerSummary, RankRow, RankSort, Ranked,
};
pub(crate) use crate::present::compare::{
    Axes, CompareMode, MAX_COLUMNS, MAX_IN_FLIGHT, Outcome, Vantage, answer_facts, ranked_results,
    vantages,
};

/// How many calls of a comparison run at once: `max_in_flight` when set, else 8 against the
/// service (calls take 7–150 s there and a burst draws 429s and 503s), and every column at
/// once against the embedded simulator, which is on loopback, unbilled and never
/// rate-limits, so a comparison there is one wave.
pub(crate) fn in_flight_cap(app: &App) -> usize {
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

/// What the main pane shows (answers; a search comparison always shows its rank table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComparePane {
    Columns,
    Summary,
    /// Brands × columns: where each answer first names each tracked brand.
    Matrix,
    /// The pages the focused column cites.
    Sources,
    /// The focused column's words against the base column's.
    Diff,
}

impl ComparePane {
    /// The order `]` steps through.
    pub const ALL: [ComparePane; 5] = [
        ComparePane::Columns,
        ComparePane::Summary,
        ComparePane::Matrix,
        ComparePane::Sources,
        ComparePane::Diff,
    ];

    pub fn title(self) -> &'static str {
        match self {
            ComparePane::Columns => "columns",
            ComparePane::Summary => "what differs",
            ComparePane::Matrix => "mention matrix",
            ComparePane::Sources => "sources",
            ComparePane::Diff => "word diff",
        }
    }
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
    /// What the column showed before it was run again, brought back if that run is cancelled.
    pub earlier: Option<Outcome>,
    /// Its last run was cancelled (it shows the earlier answer, if there was one).
    pub cancelled: bool,
    pub scroll: usize,
    /// When its answer or error arrived (the clock of that batch).
    pub landed_at: Option<std::time::Instant>,
    /// With several samples, the asks after the first (which is `outcome`).
    pub samples: Vec<Sample>,
    /// Which answer the column shows: 0 its first, k its sample k + 1.
    pub showing: usize,
    /// In a comparison through the queue, the job that answers it once queued.
    pub job: Option<crate::api::JobId>,
}

/// One more ask of a column, for the brand readings over samples.
#[derive(Debug)]
pub struct Sample {
    /// Waiting for a free slot.
    pub queued: bool,
    pub call: CallState,
    /// Its answer, once back: read for the brands, and shown when the column steps to it.
    pub answer: Option<Box<PreparedAnswer>>,
}

impl Column {
    /// A column re-opened from history: its answer, or the error it ended with; `None`: not
    /// run yet (a stored comparison put back to be run again).
    pub fn restored(vantage: Vantage, outcome: Option<Result<Outcome, String>>) -> Column {
        let mut column = Column::new(vantage, false);
        match outcome {
            None => {}
            Some(Ok(outcome)) => column.outcome = Some(outcome),
            Some(Err(error)) => {
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
        if self.cancelled {
            // An earlier answer on screen is not this run's: history keeps the cancel.
            let body = crate::store::Body::cancelled(0);
            return crate::present::compare::stored_column(body.status, &body.text, Duration::ZERO);
        }
        let (status, body, elapsed) = match &self.outcome {
            Some(Outcome::Answer(a)) => (200, a.body.clone(), a.header.elapsed),
            Some(Outcome::Results(r)) => (200, r.body.clone(), r.header.elapsed),
            None => (
                0,
                self.call.error().map(|e| e.to_string()).unwrap_or_default(),
                Duration::ZERO,
            ),
        };
        crate::present::compare::stored_column(status, &body, elapsed)
    }

    fn new(vantage: Vantage, by_hand: bool) -> Column {
        Column {
            vantage,
            by_hand,
            queued: false,
            call: CallState::Idle,
            outcome: None,
            earlier: None,
            cancelled: false,
            scroll: 0,
            landed_at: None,
            samples: Vec::new(),
            showing: 0,
            job: None,
        }
    }

    /// Queues the column for a new run of `samples` asks (the first is the one shown);
    /// what it showed is kept aside until the run ends.
    pub(crate) fn queue(&mut self, samples: usize) {
        if let Some(outcome) = self.outcome.take() {
            self.earlier = Some(outcome);
        }
        self.call = CallState::Idle;
        self.queued = true;
        self.cancelled = false;
        self.job = None;
        self.samples = (1..samples)
            .map(|_| Sample {
                queued: true,
                call: CallState::Idle,
                answer: None,
            })
            .collect();
        self.showing = 0;
    }

    /// Stops the column's run, if it has one: the earlier answer comes back, marked
    /// cancelled, and the samples not yet back are dropped. The tags of the calls to
    /// cancel.
    pub(crate) fn cancel(&mut self) -> Vec<Tag> {
        let mut tags: Vec<Tag> = self.samples.iter().filter_map(|s| s.call.tag()).collect();
        self.samples.retain(|s| s.answer.is_some());
        self.showing = 0;
        let tag = self.call.tag();
        if !self.queued && tag.is_none() {
            return tags;
        }
        self.queued = false;
        self.call = CallState::Idle;
        self.outcome = self.earlier.take();
        self.cancelled = true;
        tags.extend(tag);
        tags
    }

    /// The call waiting for `tag`: the column's own or a sample's.
    fn call_for(&mut self, tag: Tag) -> Option<&mut CallState> {
        if self.call.is_for(tag) {
            return Some(&mut self.call);
        }
        self.samples
            .iter_mut()
            .map(|s| &mut s.call)
            .find(|c| c.is_for(tag))
    }

    /// Asks running or queued, samples included.
    fn busy(&self) -> usize {
        usize::from(self.queued || self.call.is_running())
            + self
                .samples
                .iter()
                .filter(|s| s.queued || s.call.is_running())
                .count()
    }

    fn running(&self) -> usize {
        usize::from(self.call.is_running())
            + self.samples.iter().filter(|s| s.call.is_running()).count()
    }

    /// Calls whose answer is not in yet (see `CallState::is_waiting`).
    fn waiting(&self) -> usize {
        usize::from(self.call.is_waiting())
            + self.samples.iter().filter(|s| s.call.is_waiting()).count()
    }

    /// Samples back with an answer, and those asked in all (the first ask included).
    pub fn samples_back(&self) -> (usize, usize) {
        let back = usize::from(self.answer().is_some())
            + self.samples.iter().filter(|s| s.answer.is_some()).count();
        (back, self.samples.len() + 1)
    }

    /// The answer on screen: the first, or the sample the column stepped to.
    pub fn shown_answer(&self) -> Option<&PreparedAnswer> {
        match self.showing {
            0 => self.answer(),
            k => self.samples.get(k - 1).and_then(|s| s.answer.as_deref()),
        }
    }

    /// Steps to the next (or previous) answer back, the first included; false when the
    /// column has no other.
    pub fn step_sample(&mut self, forward: bool) -> bool {
        let back: Vec<usize> = std::iter::once(0)
            .filter(|_| self.answer().is_some())
            .chain(
                self.samples
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.answer.is_some())
                    .map(|(k, _)| k + 1),
            )
            .collect();
        if back.len() < 2 {
            return false;
        }
        let at = back.iter().position(|&k| k == self.showing).unwrap_or(0);
        let next = if forward {
            (at + 1) % back.len()
        } else {
            (at + back.len() - 1) % back.len()
        };
        self.showing = back[next];
        self.scroll = 0;
        true
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
    /// `/` inside the focused column's answer.
    pub find: Option<TextSearch>,
    /// Counts changes of the columns' answers, so that the views computed from them know
    /// when they are stale.
    pub generation: u64,
    /// The mention matrix and the brand rows.
    pub brand_views: BrandViews,
    /// The column the word diff compares the focused one against.
    pub diff_base: usize,
    pub diff: Option<DiffCache>,
    /// How the summary classes cited sites: set from the workspace when the brands change.
    pub classifier: Classifier,
    /// The workspace's own brand (`own = true`), whose gaps the summary shows.
    pub own: Option<String>,
    /// When the run under way began: its History entry says how long it took in all.
    pub run_started: Option<std::time::Instant>,
    /// The History entry of a run through the service's queue (more columns than are
    /// asked at once): each column is a job stored with it.
    pub grid: Option<crate::store::EntryId>,
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
            find: None,
            generation: 0,
            brand_views: BrandViews::default(),
            diff_base: 0,
            diff: None,
            classifier: Classifier::default(),
            own: None,
            run_started: None,
            grid: None,
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
        self.focus == CompareFocus::Prompt || self.find.as_ref().is_some_and(|f| f.typing)
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        vec![Context::Compare, Context::Viewer]
    }

    pub fn edit(&mut self, key: KeyEvent) {
        if let Some(find) = self.find.as_mut().filter(|f| f.typing) {
            if find.edit(key) {
                self.refresh_find();
            }
            return;
        }
        crate::app::input::edit_text_area(&mut self.prompt, key);
    }

    /// Finds the search's text again in the focused column's answer, and scrolls to it.
    pub(crate) fn refresh_find(&mut self) {
        let Some(find) = self.find.as_mut() else {
            return;
        };
        let Some(column) = self.columns.get_mut(self.selected) else {
            find.found.clear();
            return;
        };
        match &column.outcome {
            Some(Outcome::Answer(answer)) => {
                find.refresh(&answer.answer, column.scroll);
                if let Some(line) = find.scroll_target() {
                    column.scroll = line;
                }
            }
            _ => find.found.clear(),
        }
    }

    /// `n` / `N` in the focused column; false when nothing is searched.
    pub(crate) fn step_find(&mut self, forward: bool) -> bool {
        let Some(find) = self.find.as_mut() else {
            return false;
        };
        find.step(forward);
        if let (Some(line), Some(column)) =
            (find.scroll_target(), self.columns.get_mut(self.selected))
        {
            column.scroll = line;
        }
        true
    }

    pub fn paste(&mut self, text: &str) {
        self.focus = CompareFocus::Prompt;
        self.prompt
            .insert_str(text.replace("\r\n", "\n").replace('\r', "\n"));
    }

    /// Shows a stored comparison: its prompt, the axes its columns were made from (so the
    /// setup box says what was asked), and each column as received (`None`: to run again).
    /// No call is made.
    pub fn restore(
        &mut self,
        mode: CompareMode,
        prompt: &str,
        axes: Axes,
        columns: Vec<(Vantage, Option<Result<Outcome, String>>)>,
    ) {
        self.mode = mode;
        self.set_prompt(prompt);
        let from_axes = vantages(&axes, mode);
        self.axes = axes;
        self.columns = columns
            .into_iter()
            .map(|(vantage, outcome)| {
                let by_hand = !from_axes.contains(&vantage);
                let mut column = Column::restored(vantage, outcome);
                column.by_hand = by_hand;
                column
            })
            .collect();
        self.selected = 0;
        self.full = false;
        self.pane = ComparePane::Columns;
        self.table_scroll = 0;
        self.refresh_summary();
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

    /// How many calls run now, samples included.
    pub fn running(&self) -> usize {
        self.columns.iter().map(Column::running).sum()
    }

    /// How many calls, samples included, still wait for their answer.
    pub fn waiting(&self) -> usize {
        self.columns.iter().map(Column::waiting).sum()
    }

    /// Calls running or queued, samples included.
    pub fn busy(&self) -> usize {
        self.columns.iter().map(Column::busy).sum()
    }

    /// The column whose own call waits for `tag` (not a sample's).
    fn column_of(&mut self, tag: Tag) -> Option<&mut Column> {
        self.columns.iter_mut().find(|c| c.call.is_for(tag))
    }

    /// The sample that waits for `tag`.
    fn sample_of(&mut self, tag: Tag) -> Option<&mut Sample> {
        self.columns
            .iter_mut()
            .flat_map(|c| c.samples.iter_mut())
            .find(|s| s.call.is_for(tag))
    }

    fn call_for(&mut self, tag: Tag) -> Option<&mut CallState> {
        self.columns.iter_mut().find_map(|c| c.call_for(tag))
    }

    pub fn owns(&self, tag: Tag) -> bool {
        self.columns
            .iter()
            .any(|c| c.call.is_for(tag) || c.samples.iter().any(|s| s.call.is_for(tag)))
    }

    /// Whether the comparison reads several samples per column (answers only).
    pub fn sampled(&self) -> bool {
        self.samples_per_column() > 1
    }

    /// The calls a run makes, by kind for their price: a model's answer is an AI call, an
    /// AI Overview or a column of ranks a search; each asked [`Self::samples_per_column`] times.
    pub fn calls_by_kind(&self) -> crate::price::Calls {
        self.calls_of(&self.columns)
    }

    /// The calls a run of these columns makes, by kind (see [`Self::calls_by_kind`]).
    pub fn calls_of(&self, columns: &[Column]) -> crate::price::Calls {
        let samples = self.samples_per_column() as u64;
        let mut calls = crate::price::Calls::default();
        for column in columns {
            let searched = self.mode == CompareMode::Search || column.vantage.overview;
            if searched {
                calls.searches += samples;
            } else {
                calls.answers += samples;
            }
        }
        calls
    }

    /// How many times a run asks each column: the samples for answers, once for searches.
    pub fn samples_per_column(&self) -> usize {
        match self.mode {
            CompareMode::Answers => self.axes.samples(),
            CompareMode::Search => 1,
        }
    }

    pub fn on_retry(&mut self, tag: Tag, notice: RetryNotice, now: std::time::Instant) {
        if let Some(call) = self.call_for(tag) {
            call.on_retry(tag, notice, now);
        }
    }

    pub fn on_landed(&mut self, tag: Tag, bytes: usize, now: std::time::Instant) {
        if let Some(call) = self.call_for(tag) {
            call.on_landed(tag, bytes, now);
        }
    }

    /// The AI request of a vantage point.
    pub fn ai_request(&self, vantage: &Vantage) -> AiRequest {
        self.axes.ai_request(self.prompt_text(), vantage)
    }

    /// The search that brings an overview column's AI Overview.
    pub fn overview_request(&self, vantage: &Vantage) -> SearchRequest {
        self.axes.overview_request(self.prompt_text(), vantage)
    }

    /// The search request of a vantage point, on top of the Search tab's other settings.
    pub fn search_request(&self, base: &SearchRequest, vantage: &Vantage) -> SearchRequest {
        self.axes.search_request(self.prompt_text(), base, vantage)
    }

    /// Recomputes the summary (answers) or the rank table (search) from what has landed.
    pub fn refresh_summary(&mut self) {
        self.generation += 1;
        self.diff_base = self.diff_base.min(self.columns.len().saturating_sub(1));
        match self.mode {
            CompareMode::Answers => {
                let facts: Vec<AnswerFacts> = self
                    .columns
                    .iter()
                    .map(|c| {
                        answer_facts(
                            c.vantage.label(CompareMode::Answers),
                            &c.vantage.location,
                            c.answer(),
                            c.call.error().map(|e| e.to_string()),
                        )
                    })
                    .collect();
                self.summary = Some(AnswerSummary::of(facts).with_source_kinds(&self.classifier));
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
                    CompareMode::Answers if c.vantage.overview => {
                        RequestParams::Search(self.overview_request(&c.vantage))
                    }
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
        if self.mode == CompareMode::Search || self.pane != ComparePane::Columns {
            let len = match (self.mode, self.pane) {
                (CompareMode::Search, _) => self.table.len() + self.brand_views.ranks.len(),
                (CompareMode::Answers, ComparePane::Summary) => self
                    .summary
                    .as_ref()
                    .map_or(0, |s| s.text(false).lines().count()),
                (CompareMode::Answers, _) => self.view_len(),
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
                    .shown_answer()
                    .map_or(0, |a| a.answer.wrapped_len().saturating_sub(1));
                let next = (column.scroll as isize + delta).max(0) as usize;
                column.scroll = next.min(max);
            }
        }
    }

    /// Whether the export can write the mentions as CSV.
    pub fn has_mentions(&self) -> bool {
        self.mode == CompareMode::Answers && !self.brand_views.matrix.is_empty()
    }

    /// What the exports are made of, taken so that the file is made off the UI task.
    pub fn to_export(&self) -> CompareExport {
        let columns = self
            .columns
            .iter()
            .map(|column| {
                let label = column.vantage.label(CompareMode::Answers);
                ColumnExport {
                    answer: column.answer().map(|answer| {
                        let header = match column.vantage.overview {
                            true => {
                                format!(
                                    "{label} · {}",
                                    crate::measure::duration(answer.header.elapsed)
                                )
                            }
                            false => answer.header.describe(),
                        };
                        (header, answer.markdown.clone())
                    }),
                    error: column.call.error().map(|e| e.to_string()),
                    label,
                }
            })
            .collect();
        CompareExport {
            mode: self.mode,
            prompt: self.prompt_text(),
            columns,
            labels: self.labels(),
            summary: self.summary.clone(),
            mention_rows: self.brand_views.sorted().into_iter().cloned().collect(),
            sampled: self.brand_views.sampled.clone(),
            samples: self.axes.samples(),
            samples_per_column: self.samples_per_column(),
            sort: self.sort,
            table: self.table.clone(),
            ranks: self.brand_views.ranks.clone(),
        }
    }
}

/// Takes a column's answer. Effects start the queued columns that now have a slot.
pub use crate::present::compare::export::{ColumnExport, CompareExport};
mod keys;
mod run;
mod views;

pub(crate) use views::refresh_views;
pub use views::{BrandViews, DiffCache};

pub(crate) use keys::{apply_choice, cost_line, on_action};
pub(crate) use run::{
    edit_again, on_ai_done, on_grid_job, on_grid_queued, on_search_done, run_confirmed,
};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_views;
