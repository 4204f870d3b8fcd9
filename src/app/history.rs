//! The History tab: every request sent from the app, newest first, read from the store off
//! the UI task a page at a time as the list scrolls, so all of it can be reached however much
//! is stored. `/` runs a full-text search over every stored request and answer; its results
//! page the same way, and `Esc` goes back to the whole list. `Enter` re-opens the stored
//! response in its viewer without a new call; `r` loads the request back into its form.

use crossterm::event::KeyEvent;

use crate::app::StoreEffect;
use crate::store::{HistoryItem, RequestParams};

use super::hub::Ask;
use super::input::EditState;
use super::keymap::{Action, Context};
use super::list::{FilteredList, ListKey};
use super::{App, Confirm, Effect, Popup};

/// How a History row's answer reads, so the view need not know how the store marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowStatus {
    /// No response stored yet.
    Waiting,
    Cancelled,
    /// The call got no answer (a transport error).
    Unanswered,
    /// The service answered with an error status.
    Failed(u16),
    Answered(u16),
}

impl RowStatus {
    /// The row's status in words: those of `vantage history` (`HistoryItem::status_word`),
    /// "–" while no answer is stored.
    pub fn word(item: &HistoryItem) -> String {
        item.status_word().unwrap_or_else(|| "–".to_string())
    }

    pub fn of(item: &HistoryItem) -> RowStatus {
        match item.status {
            None => RowStatus::Waiting,
            Some(crate::store::Body::CANCELLED) => RowStatus::Cancelled,
            Some(0) => RowStatus::Unanswered,
            Some(status) if status >= 400 => RowStatus::Failed(status),
            Some(status) => RowStatus::Answered(status),
        }
    }
}

/// Where the call came from when not from the app (the usual case, left unnamed).
pub fn named_origin(item: &HistoryItem) -> Option<String> {
    (item.origin != crate::store::Origin::App).then(|| item.origin.to_string())
}

/// Entries read at once.
pub const PAGE: usize = 200;
/// Entries kept in memory at most: the rows around the selection, whatever is stored.
pub const WINDOW: usize = 1_000;
/// How close to an end of the window the selection comes before the next page is read.
const MARGIN: usize = 50;

/// What to read: a page of every entry (`query` none) or of a search's results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRequest {
    /// Which listing the page belongs to: pages of an older one are dropped on arrival.
    pub generation: u64,
    pub query: Option<String>,
    pub offset: usize,
    pub limit: usize,
    /// Count the entries (or the matches) too: on the first page of a listing. The count
    /// answers apart, after the page ([`Count`]): the first screen costs its rows alone.
    pub count: bool,
}

/// A page as read.
pub struct Page {
    pub request: PageRequest,
    pub result: Result<PageRead, String>,
}

pub struct PageRead {
    pub items: Vec<HistoryItem>,
    /// The matches of the search (or every entry) in all, when asked.
    pub total: Option<usize>,
    /// Every entry stored, when asked.
    pub entries: Option<usize>,
}

impl Page {
    /// A whole history in one page, as a listing's first page (tests, small stores).
    pub fn all(generation: u64, items: Vec<HistoryItem>) -> Page {
        let total = items.len();
        Page {
            request: PageRequest {
                generation,
                query: None,
                offset: 0,
                limit: PAGE,
                count: true,
            },
            result: Ok(PageRead {
                items,
                total: Some(total),
                entries: Some(total),
            }),
        }
    }
}

/// The count of a listing, read after its page.
pub struct Count {
    /// The listing counted: a count of an older one is dropped on arrival.
    pub generation: u64,
    /// The rows of the listing in all, and every entry stored.
    pub result: Result<(usize, usize), String>,
}

/// Where an arriving page goes in the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placement {
    /// It replaces the window; the selection goes to its first or last row.
    Replace {
        select_last: bool,
    },
    Append,
    Prepend,
    /// The same rows read again (the store changed): the selection stays on its entry.
    Refresh,
}

/// The search line under the list: what is typed, and the query applied.
#[derive(Clone, Debug, Default)]
pub struct HistorySearch {
    pub typed: String,
    pub edit: EditState,
    pub typing: bool,
    /// The query whose results show; none while the whole list shows.
    pub applied: Option<String>,
}

#[derive(Default)]
pub struct HistoryState {
    /// The rows in memory: `items[0]` is row `start` of the listing.
    pub items: Vec<HistoryItem>,
    pub start: usize,
    /// Rows of the listing in all: every entry, or the matches of the search applied.
    pub total: usize,
    /// Every entry stored (the "N" of "n of N").
    pub entries: usize,
    /// The selection over the rows in memory (its fuzzy filter is not used here).
    pub list: FilteredList,
    pub search: HistorySearch,
    /// True once the first page answered.
    pub loaded: bool,
    /// True once the listing was counted: until then `total` is the rows read.
    pub counted: bool,
    /// `F` opened the selected answer: its fan-out coverage is asked for once it shows.
    pub coverage_on_open: bool,
    generation: u64,
    pending: Option<(usize, Placement)>,
}

impl HistoryState {
    pub fn editing(&self) -> bool {
        self.search.typing
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        vec![Context::History, Context::Viewer]
    }

    pub fn selected(&self) -> Option<&HistoryItem> {
        self.list.selected_index().and_then(|i| self.items.get(i))
    }

    /// The selected row's place in the whole listing.
    pub fn selected_row(&self) -> usize {
        self.start + self.list.selected
    }

    /// The listing shown now: a page read for another is dropped when it lands.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// True while a page is being read.
    pub fn reading(&self) -> bool {
        self.pending.is_some()
    }

    /// Shows the rows in memory again after they changed (a page landed, one was deleted).
    pub fn refresh(&mut self, _matcher: &mut crate::fuzzy::FuzzyMatcher) {
        let removed = self.list.shown.len().saturating_sub(self.items.len());
        self.total = self.total.saturating_sub(removed);
        self.entries = self.entries.saturating_sub(removed);
        self.show_rows();
    }

    fn show_rows(&mut self) {
        self.list.shown = (0..self.items.len()).collect();
        self.list.matched.clear();
        self.list.set_total(self.items.len());
        self.list.move_by(0);
    }

    /// Starts a listing afresh (the tab shows, a search is applied or dropped): its first
    /// page, counted.
    fn restart(&mut self) -> Effect {
        self.generation += 1;
        self.counted = false;
        self.read(0, PAGE, Placement::Replace { select_last: false }, true)
    }

    fn read(&mut self, offset: usize, limit: usize, placement: Placement, count: bool) -> Effect {
        self.pending = Some((offset, placement));
        Effect::Store(StoreEffect::LoadHistoryPage(PageRequest {
            generation: self.generation,
            query: self.search.applied.clone(),
            offset,
            limit,
            count,
        }))
    }

    /// The page to read when the selection nears an end of the window, if any.
    fn follow_selection(&mut self) -> Option<Effect> {
        if self.pending.is_some() || !self.loaded {
            return None;
        }
        let end = self.start + self.items.len();
        if self.list.selected + MARGIN >= self.items.len() && end < self.total {
            return Some(self.read(end, PAGE, Placement::Append, false));
        }
        if self.list.selected < MARGIN && self.start > 0 {
            let offset = self.start.saturating_sub(PAGE);
            return Some(self.read(offset, self.start - offset, Placement::Prepend, false));
        }
        None
    }

    /// Puts an arrived page into the window, keeping at most [`WINDOW`] rows and the
    /// selection on its row.
    fn take(&mut self, request: &PageRequest, read: PageRead) {
        let placement = match self.pending {
            Some((offset, placement)) if offset == request.offset => placement,
            // Not the page asked for last: a later one replaces it.
            _ => return,
        };
        self.pending = None;
        if let Some(total) = read.total {
            self.total = total;
            self.counted = true;
        }
        if let Some(entries) = read.entries {
            self.entries = entries;
        }
        let count = read.items.len();
        match placement {
            Placement::Replace { select_last } => {
                self.items = read.items;
                self.start = request.offset;
                self.list.selected = if select_last {
                    count.saturating_sub(1)
                } else {
                    0
                };
            }
            Placement::Append => {
                self.items.extend(read.items);
                let over = self.items.len().saturating_sub(WINDOW);
                self.items.drain(..over);
                self.start += over;
                self.list.selected = self.list.selected.saturating_sub(over);
            }
            Placement::Refresh => {
                let selected = self.selected().map(|item| item.id.clone());
                let at = self.list.selected;
                self.items = read.items;
                self.start = request.offset;
                self.list.selected = selected
                    .and_then(|id| self.items.iter().position(|item| item.id == id))
                    .unwrap_or(at.min(count.saturating_sub(1)));
            }
            Placement::Prepend => {
                let mut items = read.items;
                items.append(&mut self.items);
                self.items = items;
                self.items.truncate(WINDOW);
                self.start = request.offset;
                self.list.selected += count;
            }
        }
        // A listing that shrank since it was counted ends where its rows end; one not
        // counted yet has the rows read until its count comes.
        if count < request.limit || !self.counted {
            self.total = self.start + self.items.len();
        }
        self.loaded = true;
        self.show_rows();
    }

    /// The line under the list: the query typed or applied, and how many it found of all.
    pub fn search_status(&self) -> Option<String> {
        let applied = self.search.applied.as_ref()?;
        Some(format!(
            "{} of {} · {applied}",
            self.total,
            self.entries.max(self.total)
        ))
    }
}

/// The store changed (this process or another wrote it): the rows in view are read again,
/// counted, the selection kept on its entry. Nothing while a page is on its way.
pub(crate) fn on_store_changed(app: &mut App) -> Vec<Effect> {
    let history = &mut app.history;
    if history.pending.is_some() || !history.loaded {
        return Vec::new();
    }
    let limit = history.items.len().clamp(PAGE, WINDOW);
    vec![history.read(history.start, limit, Placement::Refresh, true)]
}

/// The tab shows: the listing (whole, or the search still applied) is read afresh.
pub(crate) fn on_enter(app: &mut App) -> Vec<Effect> {
    vec![app.history.restart()]
}

/// The count of the listing shown arrived (after its first page, or a page read again).
pub(crate) fn on_count(app: &mut App, count: Count) {
    let history = &mut app.history;
    if count.generation != history.generation {
        return;
    }
    match count.result {
        Ok((total, entries)) => {
            // Rows read since the count are rows of the listing too.
            history.total = total.max(history.start + history.items.len());
            history.entries = match history.search.applied {
                Some(_) => entries.max(history.total),
                None => history.total,
            };
            history.counted = true;
        }
        Err(e) => app.flash_error(format!("The history could not be counted: {e}")),
    }
}

pub(crate) fn on_page(app: &mut App, page: Page) {
    let history = &mut app.history;
    if page.request.generation != history.generation {
        return;
    }
    match page.result {
        Ok(read) => history.take(&page.request, read),
        Err(e) => {
            history.pending = None;
            app.flash_error(format!("The history could not be read: {e}"));
        }
    }
}

/// A stored request to run again: it goes into its form, ready to edit.
pub(crate) fn on_rerun(app: &mut App, result: Result<RequestParams, String>) {
    match result {
        Ok(request) => app.ask(Ask::EditAgain(request)),
        Err(e) => app.flash_error(format!("The request could not be read back: {e}")),
    }
}

/// The keys of the search line while it is typed in.
fn on_search_action(app: &mut App, action: Action) -> Vec<Effect> {
    let history = &mut app.history;
    match action {
        Action::Send => {
            history.search.typing = false;
            let query = history.search.typed.trim().to_string();
            if crate::store::match_expression(&query).is_none() {
                let had = history.search.applied.take().is_some();
                history.search.typed.clear();
                let effects = if had {
                    vec![history.restart()]
                } else {
                    Vec::new()
                };
                if !query.is_empty() {
                    app.flash_info("Type a word to look for: letters or digits.");
                }
                return effects;
            }
            history.search.applied = Some(query);
            vec![history.restart()]
        }
        Action::Back => {
            history.search.typing = false;
            history.search.typed = history.search.applied.clone().unwrap_or_default();
            Vec::new()
        }
        _ => Vec::new(),
    }
}

pub(crate) fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    if app.history.search.typing {
        return on_search_action(app, action);
    }
    let history = &mut app.history;
    match action {
        Action::Filter => {
            history.search.typing = true;
            history.search.edit = EditState::default();
            return Vec::new();
        }
        Action::Back if history.search.applied.is_some() => {
            history.search.applied = None;
            history.search.typed.clear();
            return vec![history.restart()];
        }
        Action::Top if history.start > 0 => {
            history.generation += 1;
            return vec![history.read(0, PAGE, Placement::Replace { select_last: false }, false)];
        }
        Action::Bottom if history.start + history.items.len() < history.total => {
            history.generation += 1;
            let offset = history.total.saturating_sub(PAGE);
            let limit = history.total - offset;
            let placement = Placement::Replace { select_last: true };
            return vec![history.read(offset, limit, placement, false)];
        }
        _ => {}
    }
    match history.list.on_action(action) {
        ListKey::Handled | ListKey::FilterDropped => {
            return history.follow_selection().into_iter().collect();
        }
        ListKey::NotMine => {}
    }
    match action {
        Action::Accept => {
            let Some(item) = app.history.selected() else {
                let back = app.key_of(Context::History, Action::Back);
                app.flash_info(if app.history.search.applied.is_some() {
                    format!("Nothing stored matches the search; {back} goes back to every entry.")
                } else {
                    "The history is empty: what you send from Chat and Search shows here."
                        .to_string()
                });
                return Vec::new();
            };
            if item.status.is_none() {
                app.flash_info(
                    "No response was stored for this request; r puts it back in its form.",
                );
                return Vec::new();
            }
            return vec![Effect::Store(StoreEffect::OpenHistory(item.id.clone()))];
        }
        Action::FanoutCoverage => {
            let Some(item) = app.history.selected() else {
                return Vec::new();
            };
            if item.kind != crate::store::RequestKind::Ai || item.status.is_none() {
                let key = app.key_of(Context::History, Action::FanoutCoverage);
                app.flash_info(format!(
                    "{key} searches the fanouts of a stored AI answer; this entry is not one."
                ));
                return Vec::new();
            }
            let id = item.id.clone();
            app.history.coverage_on_open = true;
            return vec![Effect::Store(StoreEffect::OpenHistory(id))];
        }
        Action::Rerun => {
            if let Some(item) = app.history.selected() {
                return vec![Effect::Store(StoreEffect::LoadRerun(item.id.clone()))];
            }
        }
        Action::Delete => {
            let Some(item) = app.history.selected() else {
                return Vec::new();
            };
            app.popup = Some(Popup::Confirm(Confirm::DeleteHistory {
                id: item.id.clone(),
                summary: item.summary.clone(),
            }));
        }
        _ => {}
    }
    Vec::new()
}

pub(crate) fn edit(app: &mut App, key: KeyEvent) {
    let search = &mut app.history.search;
    super::input::edit_line(&mut search.typed, &mut search.edit, key);
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
