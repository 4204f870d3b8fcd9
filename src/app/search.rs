//! The Search tab: terms, every parameter of `GET /search`, and the results browsed by hand.

use crate::app::{CallEffect, OsEffect};
use std::collections::HashMap;

use crossterm::event::KeyEvent;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui_textarea::TextArea;

use crate::api::request::{OFFSET_RANGE, SERPS_RANGE, SIZE_RANGE, TERMS_MAX_CHARS};
use crate::api::{ApiError, Awaiting, IpType, Location, SearchFormat, SearchRequest};
use crate::fuzzy::FuzzyMatcher;

use super::call::CallState;
use super::input::{InputPrompt, InputTarget};
use super::keymap::{Action, Context};
use super::layout::{self, Cell};
use super::picker::PickerKind;
use super::pickers;
use super::{App, Effect, ExportSource, Popup, Tag, export_prompt};
use crate::present::search_page::{EntryKind, PreparedSearch, SearchView};

/// The settings row of the Search tab, in its order on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchSetting {
    Pages,
    Size,
    Offset,
    Ip,
    Country,
    Subdivision,
    City,
    Uule,
    Language,
    Display,
    Format,
    Cache,
    Awaiting,
    Mode,
}

impl SearchSetting {
    pub const ALL: [SearchSetting; 14] = [
        SearchSetting::Pages,
        SearchSetting::Size,
        SearchSetting::Offset,
        SearchSetting::Ip,
        SearchSetting::Country,
        SearchSetting::Subdivision,
        SearchSetting::City,
        SearchSetting::Uule,
        SearchSetting::Language,
        SearchSetting::Display,
        SearchSetting::Format,
        SearchSetting::Cache,
        SearchSetting::Awaiting,
        SearchSetting::Mode,
    ];

    pub fn label(self) -> &'static str {
        match self {
            SearchSetting::Pages => "pages",
            SearchSetting::Size => "size",
            SearchSetting::Offset => "offset",
            SearchSetting::Ip => "ip",
            SearchSetting::Country => "country",
            SearchSetting::Subdivision => "subdiv",
            SearchSetting::City => "city",
            SearchSetting::Uule => "uule",
            SearchSetting::Language => "lang",
            SearchSetting::Display => "display",
            SearchSetting::Format => "format",
            SearchSetting::Cache => "cache",
            SearchSetting::Awaiting => "awaiting",
            SearchSetting::Mode => "mode",
        }
    }
}

/// Every parameter of the next search but the terms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchSettings {
    pub serps: Option<u32>,
    pub size: Option<u32>,
    pub offset: Option<u32>,
    pub ip: Option<IpType>,
    pub location: Location,
    pub uule: Option<String>,
    pub language: Option<String>,
    pub display: Option<String>,
    pub format: SearchFormat,
    pub no_cache: bool,
    pub awaiting: Vec<Awaiting>,
    /// Queue the search as a job (`mode=async`).
    pub async_mode: bool,
}

impl SearchSettings {
    pub fn value_text(&self, setting: SearchSetting) -> String {
        let number =
            |v: Option<u32>, unset: &str| v.map_or_else(|| unset.to_string(), |n| n.to_string());
        let text = |v: &Option<String>, unset: &str| {
            v.as_deref().map_or_else(
                || unset.to_string(),
                |s| crate::api::request::shorten(s, 22),
            )
        };
        match setting {
            SearchSetting::Pages => number(self.serps, "1"),
            SearchSetting::Size => number(self.size, "default"),
            SearchSetting::Offset => number(self.offset, "0"),
            SearchSetting::Ip => self.ip.map_or("random", IpType::as_str).to_string(),
            SearchSetting::Country => text(&self.location.country, "random"),
            SearchSetting::Subdivision => text(&self.location.subdivision, "random"),
            SearchSetting::City => text(&self.location.city, "random"),
            SearchSetting::Uule => text(&self.uule, "–"),
            SearchSetting::Language => text(&self.language, "–"),
            SearchSetting::Display => text(&self.display, "–"),
            SearchSetting::Format => self.format.as_str().to_string(),
            SearchSetting::Cache => if self.no_cache { "off" } else { "on" }.to_string(),
            SearchSetting::Mode => super::chat::mode_text(self.async_mode).to_string(),
            SearchSetting::Awaiting => {
                if self.awaiting.is_empty() {
                    "–".to_string()
                } else {
                    self.awaiting
                        .iter()
                        .map(|a| a.as_str())
                        .collect::<Vec<_>>()
                        .join("+")
                }
            }
        }
    }

    pub fn cells(&self) -> Vec<Cell> {
        SearchSetting::ALL
            .iter()
            .map(|s| Cell {
                label: s.label(),
                value: self.value_text(*s),
            })
            .collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchFocus {
    Terms,
    Settings,
    Results,
    /// The detail pane (on narrow screens it takes the results' place).
    Detail,
}

/// nucleo gives 16 a matched letter before bonuses and gap penalties.
const FILTER_SCORE_PER_LETTER: u32 = 16;

/// A page of results on screen: the view, the selection, the filter.
#[derive(Debug)]
pub struct PageState {
    pub prepared: Box<PreparedSearch>,
    pub view: SearchView,
    /// Indices into `prepared.entries` that the filter lets through, in order.
    pub visible: Vec<usize>,
    /// The first screen row of each visible entry, and the total after the last.
    pub offsets: Vec<u32>,
    /// The selected position in `visible`.
    pub selected: usize,
    /// The first row shown.
    pub scroll: usize,
    pub filter: String,
    pub filtering: bool,
    /// Scroll of the text views, and selection of the Links view.
    pub text_scroll: HashMap<SearchView, usize>,
    pub link_selected: usize,
    /// How far the detail pane is scrolled; back to the top when the selection moves.
    pub detail_scroll: usize,
}

impl PageState {
    pub fn new(prepared: Box<PreparedSearch>) -> PageState {
        let view = prepared.views[0];
        let mut state = PageState {
            visible: Vec::new(),
            offsets: Vec::new(),
            prepared,
            view,
            selected: 0,
            scroll: 0,
            filter: String::new(),
            filtering: false,
            text_scroll: HashMap::new(),
            link_selected: 0,
            detail_scroll: 0,
        };
        state.apply_filter(&mut FuzzyMatcher::new());
        state
    }

    /// Recomputes which entries show: results matching the filter, with their sitelinks and
    /// images, and the headers of the groups they are in.
    pub fn apply_filter(&mut self, matcher: &mut FuzzyMatcher) {
        let prepared = &self.prepared;
        let matched: Option<Vec<bool>> = (!self.filter.trim().is_empty()).then(|| {
            let mut hits = vec![false; prepared.results.len()];
            // Long snippets hold almost any letters somewhere; a match must score about as
            // well as the query's letters appearing close together to count.
            let letters = self.filter.chars().filter(|c| !c.is_whitespace()).count() as u32;
            let min_score = FILTER_SCORE_PER_LETTER * letters;
            let haystacks = prepared.haystacks.iter().map(String::as_str);
            for ranked in matcher.rank(&self.filter, haystacks) {
                if ranked.score >= min_score {
                    hits[ranked.index] = true;
                }
            }
            hits
        });
        let keep_result = |r: usize| matched.as_ref().is_none_or(|m| m[r]);
        let mut visible = Vec::with_capacity(prepared.entries.len());
        let mut pending_headers: Vec<usize> = Vec::new();
        for (i, entry) in prepared.entries.iter().enumerate() {
            match entry.kind {
                EntryKind::Page(_) => {
                    pending_headers.clear();
                    pending_headers.push(i);
                }
                EntryKind::Section(_) => {
                    pending_headers
                        .retain(|h| matches!(prepared.entries[*h].kind, EntryKind::Page(_)));
                    pending_headers.push(i);
                }
                _ => {
                    if entry.result().is_some_and(keep_result) {
                        visible.append(&mut pending_headers);
                        visible.push(i);
                    }
                }
            }
        }
        let mut offsets = Vec::with_capacity(visible.len() + 1);
        let mut row = 0u32;
        for &i in &visible {
            offsets.push(row);
            row += u32::from(prepared.entries[i].height);
        }
        offsets.push(row);
        self.visible = visible;
        self.offsets = offsets;
        self.selected = self.first_selectable_from(0, 1).unwrap_or(0);
        self.scroll = 0;
    }

    /// How many results the filter lets through, of how many.
    pub fn shown_of_total(&self) -> (usize, usize) {
        let shown = self
            .visible
            .iter()
            .filter(|i| matches!(self.prepared.entries[**i].kind, EntryKind::Result(_)))
            .count();
        (shown, self.prepared.results.len())
    }

    pub fn total_rows(&self) -> usize {
        self.offsets.last().copied().unwrap_or(0) as usize
    }

    fn first_selectable_from(&self, start: usize, step: isize) -> Option<usize> {
        let mut i = start as isize;
        while i >= 0 && (i as usize) < self.visible.len() {
            if self.prepared.entries[self.visible[i as usize]].selectable() {
                return Some(i as usize);
            }
            i += step;
        }
        None
    }

    /// The entry under the selection.
    pub fn selected_entry(&self) -> Option<&crate::present::search_page::Entry> {
        self.visible
            .get(self.selected)
            .map(|i| &self.prepared.entries[*i])
    }

    /// Moves the selection by `steps` selectable entries.
    pub fn move_selection(&mut self, steps: isize, height: usize) {
        let step = steps.signum();
        let mut at = self.selected;
        for _ in 0..steps.unsigned_abs() {
            let next = at as isize + step;
            if next < 0 {
                break;
            }
            match self.first_selectable_from(next as usize, step) {
                Some(found) => at = found,
                None => break,
            }
        }
        self.selected = at;
        self.keep_selection_in_view(height);
    }

    /// Jumps to the first result of the next (or previous) page group.
    pub fn jump_page(&mut self, forward: bool, height: usize) {
        let current_page = self.selected_entry().map(|e| e.page);
        let found = if forward {
            (self.selected + 1..self.visible.len()).find(|&i| {
                let e = &self.prepared.entries[self.visible[i]];
                Some(e.page) != current_page && e.selectable()
            })
        } else {
            // The first selectable entry of the page before the current one.
            let before = (0..self.selected).rev().find(|&i| {
                let e = &self.prepared.entries[self.visible[i]];
                Some(e.page) != current_page && e.selectable()
            });
            before.map(|b| {
                let page = self.prepared.entries[self.visible[b]].page;
                (0..=b)
                    .find(|&i| {
                        let e = &self.prepared.entries[self.visible[i]];
                        e.page == page && e.selectable()
                    })
                    .unwrap_or(b)
            })
        };
        if let Some(i) = found {
            self.selected = i;
            // Show the page's header above the result.
            let header_row = self.offsets[i].saturating_sub(2) as usize;
            self.scroll = header_row;
            self.keep_selection_in_view(height);
        }
    }

    /// Scrolls the least needed so the selected entry is on screen.
    pub fn keep_selection_in_view(&mut self, height: usize) {
        let Some(&top) = self.offsets.get(self.selected) else {
            return;
        };
        let top = top as usize;
        let bottom = self.offsets.get(self.selected + 1).copied().unwrap_or(0) as usize;
        if top < self.scroll {
            self.scroll = top;
        } else if bottom > self.scroll + height {
            self.scroll = bottom.saturating_sub(height);
        }
    }

    /// The URL of the selection: a sitelink's, else its result's.
    pub fn selected_url(&self) -> Option<String> {
        if self.view == SearchView::Links {
            return self
                .prepared
                .html
                .as_ref()
                .and_then(|h| h.links.get(self.link_selected))
                .map(|l| l.url.clone());
        }
        let entry = self.selected_entry()?;
        let url = match entry.kind {
            EntryKind::Sitelink { result, link } => {
                self.prepared.results[result].sitelinks[link].url.clone()
            }
            EntryKind::Result(r) => self.prepared.results[r].target_url().to_string(),
            _ => return None,
        };
        (!url.is_empty()).then_some(url)
    }
}

pub struct SearchState {
    pub terms: TextArea<'static>,
    pub settings: SearchSettings,
    pub focus: SearchFocus,
    pub setting_cursor: usize,
    pub call: CallState,
    pub page: Option<PageState>,
}

impl Default for SearchState {
    fn default() -> Self {
        SearchState::new()
    }
}

impl SearchState {
    pub fn new() -> SearchState {
        let mut terms = TextArea::default();
        terms
            .set_placeholder_text("Search terms; \"quotes\" keep an exact phrase. Enter searches.");
        SearchState {
            terms,
            settings: SearchSettings::default(),
            focus: SearchFocus::Terms,
            setting_cursor: 0,
            call: CallState::Idle,
            page: None,
        }
    }

    pub fn terms_text(&self) -> String {
        self.terms.lines().join(" ")
    }

    pub fn terms_chars(&self) -> usize {
        self.terms_text().chars().count()
    }

    pub fn set_terms(&mut self, text: &str) {
        self.terms.select_all();
        self.terms.cut();
        self.terms.insert_str(text.replace(['\n', '\r'], " "));
    }

    pub fn request(&self) -> SearchRequest {
        let s = &self.settings;
        SearchRequest {
            terms: self.terms_text(),
            serps: s.serps,
            size: s.size,
            offset: s.offset,
            ip: s.ip,
            location: s.location.clone(),
            uule: s.uule.clone(),
            language: s.language.clone(),
            display: s.display.clone(),
            format: s.format,
            expiration: s.no_cache.then_some(0),
            awaiting: s.awaiting.clone(),
        }
    }

    /// Puts a request's values back into the form (re-runs from history, compare).
    pub fn load_request(&mut self, request: &SearchRequest) {
        self.set_terms(&request.terms);
        self.settings = SearchSettings {
            serps: request.serps,
            size: request.size,
            offset: request.offset,
            ip: request.ip,
            location: request.location.clone(),
            uule: request.uule.clone(),
            language: request.language.clone(),
            display: request.display.clone(),
            format: request.format,
            no_cache: request.expiration == Some(0),
            awaiting: request.awaiting.clone(),
            async_mode: self.settings.async_mode,
        };
    }

    pub fn editing(&self) -> bool {
        self.focus == SearchFocus::Terms || self.page.as_ref().is_some_and(|p| p.filtering)
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        match self.focus {
            SearchFocus::Terms => vec![Context::Editing],
            SearchFocus::Settings => vec![Context::Settings, Context::Search, Context::Form],
            SearchFocus::Results | SearchFocus::Detail => {
                vec![
                    Context::Results,
                    Context::Viewer,
                    Context::Search,
                    Context::Form,
                ]
            }
        }
    }

    pub fn edit(&mut self, key: KeyEvent, matcher: &mut FuzzyMatcher) {
        if let Some(page) = &mut self.page
            && page.filtering
        {
            match key.code {
                crossterm::event::KeyCode::Backspace => {
                    page.filter.pop();
                }
                crossterm::event::KeyCode::Char(c) => page.filter.push(c),
                _ => return,
            }
            page.apply_filter(matcher);
            return;
        }
        // One line only: a pasted or typed line break is a space.
        if key.code == crossterm::event::KeyCode::Enter {
            return;
        }
        self.terms.input(key);
    }

    pub fn paste(&mut self, text: &str) {
        self.focus = SearchFocus::Terms;
        self.terms.insert_str(text.replace(['\n', '\r'], " "));
    }

    /// Takes the results of the search in flight; those of cancelled searches are dropped.
    pub fn on_done(&mut self, tag: Tag, result: Result<Box<PreparedSearch>, ApiError>) -> bool {
        if !self.call.is_for(tag) {
            return false;
        }
        match result {
            Ok(prepared) => {
                self.call = CallState::Idle;
                self.page = Some(PageState::new(prepared));
                self.focus = SearchFocus::Results;
                true
            }
            Err(error) => {
                self.call = CallState::Failed(error);
                false
            }
        }
    }

    fn focus_cycle(&mut self, forward: bool) {
        const ORDER: [SearchFocus; 3] = [
            SearchFocus::Terms,
            SearchFocus::Settings,
            SearchFocus::Results,
        ];
        let current = if self.focus == SearchFocus::Detail {
            SearchFocus::Results
        } else {
            self.focus
        };
        let i = ORDER.iter().position(|f| *f == current).unwrap_or(0);
        let next = if forward { i + 1 } else { i + ORDER.len() - 1 };
        self.focus = ORDER[next % ORDER.len()];
    }

    /// Scrolls or moves the selection of the current view by `delta` rows or entries; with
    /// the detail pane focused, scrolls it.
    pub fn scroll_by(&mut self, delta: isize, height: usize) {
        let Some(page) = &mut self.page else {
            return;
        };
        if self.focus == SearchFocus::Detail {
            page.detail_scroll = (page.detail_scroll as isize + delta).clamp(0, 500) as usize;
            return;
        }
        match page.view {
            SearchView::Results => {
                page.move_selection(delta, height);
                page.detail_scroll = 0;
            }
            SearchView::Links => {
                let len = page.prepared.html.as_ref().map_or(0, |h| h.links.len());
                if len > 0 {
                    page.link_selected =
                        (page.link_selected as isize + delta).clamp(0, len as isize - 1) as usize;
                }
            }
            view => {
                let max =
                    text_of(&page.prepared, view).map_or(0, |b| b.wrapped_len().saturating_sub(1));
                let current = page.text_scroll.get(&view).copied().unwrap_or(0) as isize;
                let next = ((current + delta).max(0) as usize).min(max);
                page.text_scroll.insert(view, next);
            }
        }
    }
}

/// The text body behind a text view of a search answer.
pub fn text_of(
    prepared: &PreparedSearch,
    view: SearchView,
) -> Option<&crate::present::text::TextBody> {
    match view {
        SearchView::Page => prepared.html.as_ref().map(|h| &h.text),
        SearchView::Html => prepared.html.as_ref().map(|h| &h.raw),
        SearchView::Json => prepared.json.as_ref(),
        SearchView::Results | SearchView::Links => None,
    }
}

/// Where the terms, the settings, the header and the lists are.
pub struct SearchAreas {
    pub terms: Rect,
    pub settings: Rect,
    pub header: Rect,
    pub list: Rect,
    /// Empty when the detail pane is not shown beside the list.
    pub detail: Rect,
}

/// Wide screens show the detail pane beside the list; narrow ones show one or the other.
pub const SIDE_BY_SIDE_WIDTH: u16 = 110;

pub fn search_areas(search: &SearchState, body: Rect) -> SearchAreas {
    let cells = search.settings.cells();
    let rows = layout::flow_rows(body.width, &layout::cell_widths(&cells), 1);
    let header_rows = match &search.page {
        Some(page) => {
            let width = usize::from(body.width.max(1));
            (page
                .prepared
                .header
                .describe()
                .chars()
                .count()
                .div_ceil(width))
            .clamp(1, 2) as u16
        }
        None => 0,
    };
    let [terms, settings, header, rest] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(rows),
        Constraint::Length(header_rows),
        Constraint::Min(3),
    ])
    .areas(body);
    let results_view = search
        .page
        .as_ref()
        .is_some_and(|p| p.view == SearchView::Results);
    let (list, detail) = if results_view && body.width >= SIDE_BY_SIDE_WIDTH {
        let [list, detail] =
            Layout::horizontal([Constraint::Percentage(58), Constraint::Percentage(42)])
                .areas(rest);
        (list, detail)
    } else if results_view && search.focus == SearchFocus::Detail {
        (Rect::default(), rest)
    } else {
        (rest, Rect::default())
    };
    SearchAreas {
        terms,
        settings,
        header,
        list,
        detail,
    }
}

/// Rows the results list shows at once (inside its border).
fn list_height(app: &App) -> usize {
    let areas = search_areas(&app.search, app.frame_areas().body);
    areas.list.height.saturating_sub(2).max(1) as usize
}

/// Handles an action the keymap found, on the Search tab.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let height = list_height(app);
    let search = &mut app.search;
    match action {
        Action::FocusNext => search.focus_cycle(true),
        Action::FocusPrev => search.focus_cycle(false),
        Action::Back if search.call.is_running() => {
            return on_action(app, Action::Cancel);
        }
        Action::Back => {
            if let Some(page) = &mut search.page
                && page.filtering
            {
                // Esc drops the filter; Enter keeps it.
                page.filtering = false;
                page.filter.clear();
                page.apply_filter(&mut app.matcher);
            } else {
                search.focus = SearchFocus::Results;
            }
        }
        Action::EditPrompt => search.focus = SearchFocus::Terms,
        Action::Send => {
            if let Some(page) = &mut search.page
                && page.filtering
            {
                page.filtering = false;
                return Vec::new();
            }
            return send(app);
        }
        Action::Newline => {}
        Action::Accept => {
            if search.focus == SearchFocus::Settings {
                let setting =
                    SearchSetting::ALL[search.setting_cursor.min(SearchSetting::ALL.len() - 1)];
                return change_setting(app, setting);
            }
            // Enter on a result opens its detail (beside the list on wide screens); with no
            // results yet there is nothing to detail, so Enter searches.
            if search.page.is_some() {
                search.focus = SearchFocus::Detail;
            } else {
                return send(app);
            }
        }
        Action::Cancel => {
            if let Some(tag) = search.call.tag() {
                search.call = CallState::Idle;
                app.flash_info("Cancelled.");
                return vec![Effect::Call(CallEffect::Cancel(tag))];
            }
            if search.call.error().is_some() {
                search.call = CallState::Idle;
            }
        }
        Action::Left => search.setting_cursor = search.setting_cursor.saturating_sub(1),
        Action::Right => {
            search.setting_cursor = (search.setting_cursor + 1).min(SearchSetting::ALL.len() - 1)
        }
        Action::Up => search.scroll_by(-1, height),
        Action::Down => search.scroll_by(1, height),
        Action::PageUp => search.scroll_by(-(height as isize), height),
        Action::PageDown => search.scroll_by(height as isize, height),
        Action::Top => search.scroll_by(isize::MIN / 4, height),
        Action::Bottom => search.scroll_by(isize::MAX / 4, height),
        Action::NextPage | Action::PrevPage => {
            if let Some(page) = &mut search.page
                && page.view == SearchView::Results
            {
                page.jump_page(action == Action::NextPage, height);
            }
        }
        Action::NextView | Action::PrevView => {
            if let Some(page) = &mut search.page {
                let views = &page.prepared.views;
                let i = views.iter().position(|v| *v == page.view).unwrap_or(0);
                let next = if action == Action::NextView {
                    i + 1
                } else {
                    i + views.len() - 1
                };
                page.view = views[next % views.len()];
            }
        }
        Action::Filter => match &mut search.page {
            Some(page) if page.view == SearchView::Results => {
                page.filtering = true;
                search.focus = SearchFocus::Results;
            }
            Some(_) => {
                app.flash_info("The filter works on the Results view; [ and ] switch views.")
            }
            None => app.flash_info("Search first; / then filters the results."),
        },
        Action::Open => {
            return match search.page.as_ref().and_then(PageState::selected_url) {
                Some(url) => vec![Effect::Os(OsEffect::OpenUrl(url))],
                None => {
                    app.flash_info("Select a result or a sitelink to open.");
                    Vec::new()
                }
            };
        }
        Action::Copy => {
            let text = search.page.as_ref().and_then(|page| match page.view {
                SearchView::Results | SearchView::Links => page.selected_url(),
                SearchView::Json => Some(page.prepared.export_json()),
                SearchView::Html => Some(page.prepared.body.clone()),
                SearchView::Page => page
                    .prepared
                    .html
                    .as_ref()
                    .and_then(|h| h.text.as_document().map(|d| d.plain_text())),
            });
            return match text {
                Some(text) => {
                    app.flash_info(format!("Copied ({} characters).", text.chars().count()));
                    vec![Effect::Os(OsEffect::Copy(text))]
                }
                None => {
                    app.flash_info("There is nothing selected to copy.");
                    Vec::new()
                }
            };
        }
        Action::Export => {
            if search.page.is_none() {
                app.flash_info("There are no results to export yet.");
            } else {
                let slug: String = search
                    .terms_text()
                    .chars()
                    .map(|c| {
                        if c.is_alphanumeric() {
                            c.to_ascii_lowercase()
                        } else {
                            '-'
                        }
                    })
                    .take(40)
                    .collect();
                app.popup = Some(Popup::Input(export_prompt(
                    ExportSource::SearchResults,
                    format!("vantage-search-{}.csv", slug.trim_matches('-')),
                )));
            }
        }
        Action::PickCountry => return change_setting(app, SearchSetting::Country),
        Action::PickSubdivision => return change_setting(app, SearchSetting::Subdivision),
        Action::PickCity => return change_setting(app, SearchSetting::City),
        Action::PickLanguage => return change_setting(app, SearchSetting::Language),
        Action::PickDisplay => return change_setting(app, SearchSetting::Display),
        Action::CycleFormat => return change_setting(app, SearchSetting::Format),
        Action::ToggleCache => return change_setting(app, SearchSetting::Cache),
        Action::CycleIp => return change_setting(app, SearchSetting::Ip),
        Action::ToggleAsync => return change_setting(app, SearchSetting::Mode),
        _ => {}
    }
    Vec::new()
}

fn send(app: &mut App) -> Vec<Effect> {
    if app.search.call.is_running() {
        app.flash_info("A search is already running; Esc cancels it.");
        return Vec::new();
    }
    let request = app.search.request();
    if !app.may_send(request.validate()) {
        return Vec::new();
    }
    if app.search.settings.async_mode {
        app.flash_info("Queueing the search…");
        return vec![super::jobs_tab::submit(
            crate::store::RequestParams::Search(request),
        )];
    }
    let tag = app.next_tag();
    let pages = request.serps.unwrap_or(1);
    app.search.call = CallState::running(tag, app.now, format!("Searching {pages} page(s)"), None);
    app.search.focus = SearchFocus::Results;
    vec![Effect::Call(CallEffect::SendSearch { tag, request })]
}

/// Opens the picker or input of a setting, or cycles it.
fn change_setting(app: &mut App, setting: SearchSetting) -> Vec<Effect> {
    let settings = &mut app.search.settings;
    let number_prompt = |title: &str, value: Option<u32>, range: std::ops::RangeInclusive<u32>| {
        InputPrompt::new(
            InputTarget::Search(setting),
            title,
            value.map_or(String::new(), |v| v.to_string()),
        )
        .with_note(format!(
            "A whole number from {} to {}; empty leaves it to the service.",
            range.start(),
            range.end()
        ))
    };
    let popup = match setting {
        SearchSetting::Pages => Popup::Input(number_prompt(
            "Result pages (serps)",
            settings.serps,
            SERPS_RANGE,
        )),
        SearchSetting::Size => Popup::Input(number_prompt(
            "Results per page (size)",
            settings.size,
            SIZE_RANGE,
        )),
        SearchSetting::Offset => Popup::Input(number_prompt(
            "Results to skip (offset)",
            settings.offset,
            OFFSET_RANGE,
        )),
        SearchSetting::Uule => Popup::Input(
            InputPrompt::new(
                InputTarget::Search(setting),
                "uule (encoded location)",
                settings.uule.clone().unwrap_or_default(),
            )
            .with_note(
                "Where possible the service uses the real location instead. Empty unsets it.",
            ),
        ),
        SearchSetting::Country => {
            Popup::Picker(pickers::location(PickerKind::Country, &settings.location))
        }
        SearchSetting::Subdivision | SearchSetting::City if settings.location.country.is_none() => {
            app.flash_info("Choose a country first (c): subdivisions and cities belong to one.");
            return Vec::new();
        }
        SearchSetting::Subdivision => Popup::Picker(pickers::location(
            PickerKind::Subdivision,
            &settings.location,
        )),
        SearchSetting::City => {
            Popup::Picker(pickers::location(PickerKind::City, &settings.location))
        }
        SearchSetting::Language => Popup::Picker(pickers::language(
            PickerKind::Language,
            settings.language.as_deref(),
        )),
        SearchSetting::Display => Popup::Picker(pickers::language(
            PickerKind::Display,
            settings.display.as_deref(),
        )),
        SearchSetting::Ip => {
            settings.ip = match settings.ip {
                None => Some(IpType::Residential),
                Some(IpType::Residential) => Some(IpType::Isp),
                Some(IpType::Isp) => None,
            };
            let ip = settings.ip.map_or("random", IpType::as_str);
            app.flash_info(format!("IP type: {ip}"));
            return Vec::new();
        }
        SearchSetting::Format => {
            settings.format = match settings.format {
                SearchFormat::Json => SearchFormat::Html,
                SearchFormat::Html => SearchFormat::Json,
            };
            let format = settings.format;
            app.flash_info(format!("Format: {format}"));
            return Vec::new();
        }
        SearchSetting::Mode => {
            settings.async_mode = !settings.async_mode;
            let text = super::chat::mode_flash(settings.async_mode);
            app.flash_info(text);
            return Vec::new();
        }
        SearchSetting::Cache => {
            settings.no_cache = !settings.no_cache;
            let no_cache = settings.no_cache;
            app.flash_info(if no_cache {
                "Cache off: a fresh results page (expiration=0)."
            } else {
                "Cache on: a cached page up to a day old may come back (expiration=1)."
            });
            return Vec::new();
        }
        SearchSetting::Awaiting => {
            // Cycles through none, each one, and all three.
            const CYCLE: [&[Awaiting]; 5] = [
                &[],
                &[Awaiting::Ai],
                &[Awaiting::Answers],
                &[Awaiting::Ads],
                &[Awaiting::Ai, Awaiting::Answers, Awaiting::Ads],
            ];
            let i = CYCLE
                .iter()
                .position(|c| *c == settings.awaiting.as_slice())
                .unwrap_or(0);
            settings.awaiting = CYCLE[(i + 1) % CYCLE.len()].to_vec();
            return Vec::new();
        }
    };
    app.popup = Some(popup);
    Vec::new()
}

/// Sets a value typed in an input popup; a bad number is refused with the reason.
pub fn apply_input(app: &mut App, setting: SearchSetting, typed: &str) -> Result<(), String> {
    let typed = typed.trim();
    let settings = &mut app.search.settings;
    let number = |range: std::ops::RangeInclusive<u32>| -> Result<Option<u32>, String> {
        if typed.is_empty() {
            return Ok(None);
        }
        match typed.parse::<u32>() {
            Ok(n) if range.contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "{typed:?} is not a whole number from {} to {}.",
                range.start(),
                range.end()
            )),
        }
    };
    match setting {
        SearchSetting::Pages => number(SERPS_RANGE).map(|v| settings.serps = v),
        SearchSetting::Size => number(SIZE_RANGE).map(|v| settings.size = v),
        SearchSetting::Offset => number(OFFSET_RANGE).map(|v| settings.offset = v),
        SearchSetting::Uule => {
            if typed.chars().count() > 1000 || typed.chars().any(char::is_control) {
                Err("A uule is at most 1,000 characters, with no control characters.".to_string())
            } else {
                settings.uule = (!typed.is_empty()).then(|| typed.to_string());
                Ok(())
            }
        }
        _ => Ok(()),
    }
}

/// Sets what a picker chose in the Search form.
pub fn apply_choice(app: &mut App, kind: PickerKind, value: Option<String>) {
    let s = &mut app.search.settings;
    match kind {
        PickerKind::Country | PickerKind::Subdivision | PickerKind::City => {
            pickers::apply_location(&mut s.location, kind, value)
        }
        PickerKind::Language => s.language = value,
        PickerKind::Display => s.display = value,
        PickerKind::Model | PickerKind::Device => {}
    }
}

/// The terms counter's limit, for the view.
pub const TERMS_LIMIT: usize = TERMS_MAX_CHARS;

/// A click on the Search tab's body.
pub fn on_click(app: &mut App, body: Rect, at: ratatui::layout::Position) -> Vec<Effect> {
    let areas = search_areas(&app.search, body);
    if areas.terms.contains(at) {
        app.search.focus = SearchFocus::Terms;
    } else if areas.settings.contains(at) {
        app.search.focus = SearchFocus::Settings;
        let cells = app.search.settings.cells();
        let positions = layout::flow(areas.settings.width, &layout::cell_widths(&cells), 1);
        if let Some(i) = positions.iter().position(|c| {
            Rect::new(areas.settings.x + c.x, areas.settings.y + c.y, c.width, 1).contains(at)
        }) {
            app.search.setting_cursor = i;
            return change_setting(app, SearchSetting::ALL[i]);
        }
    } else if areas.list.contains(at) {
        app.search.focus = SearchFocus::Results;
    } else if areas.detail.contains(at) {
        app.search.focus = SearchFocus::Detail;
    }
    Vec::new()
}

/// The mouse wheel over the Search tab.
pub fn wheel(app: &mut App, delta: isize) {
    let height = list_height(app);
    app.search.scroll_by(delta, height);
}
