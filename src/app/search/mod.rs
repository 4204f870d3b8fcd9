//! The Search tab: terms, every parameter of `GET /search`, and the results browsed by hand.

use crate::app::{CallEffect, OsEffect};

use crossterm::event::KeyEvent;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui_textarea::TextArea;

use crate::api::request::TERMS_MAX_CHARS;
use crate::api::{ApiError, SearchRequest};
use crate::fuzzy::FuzzyMatcher;

use super::call::CallState;
use super::keymap::{Action, Context};
use super::layout::{self};
use super::text_search::TextSearch;
use super::{App, Effect, ExportSource, Popup, Tag, export_prompt};
use crate::present::search_page::{PreparedSearch, SearchView};

pub mod overview;
mod page;
mod settings;

pub use page::{PageState, text_of};
use settings::change_setting;
pub use settings::{SearchSetting, SearchSettings, apply_choice, apply_input};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchFocus {
    Terms,
    Settings,
    Results,
    /// The detail pane (on narrow screens it takes the results' place).
    Detail,
    /// The AI overview pane and its related questions.
    Overview,
}

pub struct SearchState {
    pub terms: TextArea<'static>,
    pub settings: SearchSettings,
    pub focus: SearchFocus,
    pub setting_cursor: usize,
    pub call: CallState,
    pub page: Option<PageState>,
    /// `/` inside a text view of the page (Page, HTML, JSON).
    pub find: Option<TextSearch>,
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
            find: None,
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
            device: s.device.clone(),
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
            device: request.device.clone(),
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
        self.focus == SearchFocus::Terms
            || self.page.as_ref().is_some_and(|p| p.filtering)
            || self.find.as_ref().is_some_and(|f| f.typing)
    }

    /// Finds the search's text again in the text view on screen, and scrolls to it.
    fn refresh_find(&mut self) {
        let (Some(find), Some(page)) = (self.find.as_mut(), self.page.as_mut()) else {
            return;
        };
        let view = page.view;
        match text_of(&page.prepared, view) {
            Some(body) => {
                find.refresh(body, page.text_scroll.get(&view).copied().unwrap_or(0));
                if let Some(line) = find.scroll_target() {
                    page.text_scroll.insert(view, line);
                }
            }
            None => find.found.clear(),
        }
    }

    /// `n` / `N` in a text view; false when nothing is searched there.
    fn step_find(&mut self, forward: bool) -> bool {
        let (Some(find), Some(page)) = (self.find.as_mut(), self.page.as_mut()) else {
            return false;
        };
        if text_of(&page.prepared, page.view).is_none() {
            return false;
        }
        find.step(forward);
        if let Some(line) = find.scroll_target() {
            page.text_scroll.insert(page.view, line);
        }
        true
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        match self.focus {
            SearchFocus::Terms => vec![Context::Editing],
            SearchFocus::Settings => vec![Context::Settings, Context::Search, Context::Form],
            SearchFocus::Overview => vec![
                Context::Overview,
                Context::Viewer,
                Context::Search,
                Context::Form,
            ],
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
        if let Some(find) = self.find.as_mut().filter(|f| f.typing) {
            if find.edit(key) {
                self.refresh_find();
            }
            return;
        }
        if let Some(page) = &mut self.page
            && page.filtering
        {
            if crate::app::input::edit_line(&mut page.filter, &mut page.filter_edit, key) {
                page.apply_filter(matcher);
            }
            return;
        }
        // One line only: a pasted or typed line break is a space.
        if key.code == crossterm::event::KeyCode::Enter {
            return;
        }
        crate::app::input::edit_text_area(&mut self.terms, key);
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
                self.find = None;
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
        const WITH_OVERVIEW: [SearchFocus; 4] = [
            SearchFocus::Terms,
            SearchFocus::Settings,
            SearchFocus::Overview,
            SearchFocus::Results,
        ];
        // The overview pane takes the focus only while it is open.
        let order: &[SearchFocus] = if self.page.as_ref().is_some_and(|p| p.overview.open) {
            &WITH_OVERVIEW
        } else {
            &ORDER
        };
        let current = if self.focus == SearchFocus::Detail {
            SearchFocus::Results
        } else {
            self.focus
        };
        let i = order.iter().position(|f| *f == current).unwrap_or(0);
        let next = if forward { i + 1 } else { i + order.len() - 1 };
        self.focus = order[next % order.len()];
    }

    /// Folds or opens the AI overview pane; folding moves the focus to the results.
    pub fn toggle_overview(&mut self) -> bool {
        let Some(page) = &mut self.page else {
            return false;
        };
        page.overview.open = !page.overview.open;
        if !page.overview.open && self.focus == SearchFocus::Overview {
            self.focus = SearchFocus::Results;
        }
        true
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

/// Where the terms, the settings, the header and the lists are.
pub struct SearchAreas {
    pub terms: Rect,
    pub settings: Rect,
    pub header: Rect,
    /// The AI overview pane: one line folded, bordered when open; empty before a search.
    pub overview: Rect,
    pub list: Rect,
    /// Empty when the detail pane is not shown beside the list.
    pub detail: Rect,
}

/// Wide screens show the detail pane beside the list; narrow ones show one or the other.
pub const SIDE_BY_SIDE_WIDTH: u16 = 110;

pub fn search_areas(search: &SearchState, body: Rect) -> SearchAreas {
    let cells = search.settings.cells();
    let mut rows = layout::flow_rows(body.width, &layout::cell_widths(&cells), 1);
    // Short screens: while the results have the focus, the settings fold to their first row
    // and the header to one line, so the results get most rows.
    let compact = body.height < layout::COMPACT_BELOW
        && matches!(
            search.focus,
            SearchFocus::Results | SearchFocus::Detail | SearchFocus::Overview
        );
    if compact {
        rows = rows.min(1);
    }
    let header_rows = match &search.page {
        Some(_) if compact => 1,
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
    let [terms, settings, header, below] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(rows),
        Constraint::Length(header_rows),
        Constraint::Min(3),
    ])
    .areas(body);
    let overview_rows = search.page.as_ref().map_or(0, |page| {
        // Short screens: the folded pane's line joins the header's.
        if !page.overview.open {
            return u16::from(!compact);
        }
        let lines = overview::line_count(&page.prepared, below.width.saturating_sub(2));
        // At most two fifths of the room, so the results keep the most of it.
        (lines as u16 + 2).min((below.height * 2 / 5).max(3))
    });
    let [overview, rest] =
        Layout::vertical([Constraint::Length(overview_rows), Constraint::Min(3)]).areas(below);
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
        overview,
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
    let overview_area = search_areas(&app.search, app.frame_areas().body).overview;
    if app.search.focus == SearchFocus::Overview
        && let Some(effects) = on_overview_action(app, action, overview_area)
    {
        return effects;
    }
    let search = &mut app.search;
    match action {
        Action::ToggleOverview if !search.toggle_overview() => {
            app.flash_info("Search first; the AI overview pane shows above the results.");
        }
        Action::FocusNext => search.focus_cycle(true),
        Action::FocusPrev => search.focus_cycle(false),
        Action::Back if search.find.as_ref().is_some_and(|f| f.typing) => search.find = None,
        Action::Send if search.find.as_ref().is_some_and(|f| f.typing) => {
            if let Some(find) = &mut search.find {
                find.typing = false;
                if find.query.is_empty() {
                    search.find = None;
                }
            }
        }
        Action::NextMatch | Action::PrevMatch => {
            let moved = search.step_find(action == Action::NextMatch);
            if !moved {
                app.flash_info(
                    "Press / in a text view to search it; n and N then move between matches.",
                );
            }
        }
        Action::NextPage
            if search.find.is_some()
                && search
                    .page
                    .as_ref()
                    .is_some_and(|p| p.view != SearchView::Results) =>
        {
            search.step_find(true);
        }
        Action::Back
            if search.find.is_some()
                && !search.call.is_running()
                && search
                    .page
                    .as_ref()
                    .is_some_and(|p| p.view != SearchView::Results) =>
        {
            search.find = None;
        }
        Action::Back if search.call.is_running() => {
            return on_action(app, Action::Cancel);
        }
        Action::Back => {
            if let Some(page) = &mut search.page
                && (page.filtering || !page.filter.is_empty())
            {
                // Esc drops the filter, applied or being typed; Enter keeps it.
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
            // results yet there is nothing to detail, and Enter still never sends from here.
            if search.page.is_some() {
                search.focus = SearchFocus::Detail;
            } else {
                crate::app::events::reading_never_sends(app);
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
                let forward = action == Action::NextPage;
                if !page.jump_page(forward, height) && forward && page.filter.is_empty() {
                    return fetch_next_pages(app);
                }
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
                search.refresh_find();
            }
        }
        Action::Filter => match &mut search.page {
            Some(page) if page.view == SearchView::Results => {
                page.filtering = true;
                search.focus = SearchFocus::Results;
            }
            Some(page) if text_of(&page.prepared, page.view).is_some() => {
                search.focus = SearchFocus::Results;
                search.find = Some(TextSearch::start());
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
                    app.flash_info(format!(
                        "Copied ({}).",
                        crate::plural::count(
                            text.chars().count() as u64,
                            "character",
                            "characters"
                        )
                    ));
                    vec![Effect::Os(OsEffect::Copy(text.into()))]
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
        Action::PickDevice => return change_setting(app, SearchSetting::Device),
        Action::ToggleAsync => return change_setting(app, SearchSetting::Mode),
        _ => {}
    }
    Vec::new()
}

/// Keys while the overview pane has the focus: the related questions are picked with the
/// arrows and searched with Enter; the pages keys scroll the pane. `None` leaves the action
/// to the rest of the tab.
fn on_overview_action(app: &mut App, action: Action, area: Rect) -> Option<Vec<Effect>> {
    let page = app.search.page.as_mut()?;
    let width = area.width.saturating_sub(2);
    let rows = usize::from(area.height.saturating_sub(2)).max(1);
    let lines = overview::line_count(&page.prepared, width);
    let pickable = overview::pickable(&page.prepared);
    let state = &mut page.overview;
    match action {
        Action::Up | Action::Down => {
            let delta = if action == Action::Up { -1 } else { 1 };
            if pickable == 0 {
                state.scroll_by(delta, lines);
            } else {
                state.move_pick(delta, pickable);
                // Keep the picked line on screen.
                let line = overview::picked_line(&page.prepared, state, width);
                if line < state.scroll {
                    state.scroll = line;
                } else if line >= state.scroll + rows {
                    state.scroll = line + 1 - rows;
                }
            }
        }
        Action::PageUp => state.scroll_by(-(rows as isize), lines),
        Action::PageDown => state.scroll_by(rows as isize, lines),
        Action::Top => state.scroll = 0,
        Action::Bottom => state.scroll_by(isize::MAX / 4, lines),
        Action::Accept | Action::Open => {
            return Some(match overview::picked(&page.prepared, state) {
                Some(overview::Picked::Source(source)) => {
                    vec![Effect::Os(OsEffect::OpenUrl(source.url.clone()))]
                }
                Some(overview::Picked::Question(question)) if action == Action::Accept => {
                    let terms = question.question.clone();
                    app.search.set_terms(&terms);
                    send(app)
                }
                Some(overview::Picked::Question(_)) => {
                    let (search, open) = (
                        app.key_of(Context::Overview, Action::Accept),
                        app.key_of(Context::Normal, Action::Open),
                    );
                    app.flash_info(format!(
                        "{search} searches the related question; {open} opens a source."
                    ));
                    Vec::new()
                }
                None => {
                    app.flash_info("The pane has no source or related question to pick.");
                    Vec::new()
                }
            });
        }
        _ => return None,
    }
    Some(Vec::new())
}

/// Sends the search the form describes (or queues it in async mode), focus on the results.
pub(crate) fn send(app: &mut App) -> Vec<Effect> {
    if app.search.call.is_running() {
        let cancel = app.key_of(Context::Form, Action::Cancel);
        app.flash_info(format!("A search is already running; {cancel} cancels it."));
        return Vec::new();
    }
    let request = app.search.request();
    if !app.may_send(request.validate()) {
        return Vec::new();
    }
    if app.search.settings.async_mode {
        app.flash_info("Queueing the search…");
        return vec![Effect::submit_job(crate::store::RequestParams::Search(
            request,
        ))];
    }
    let tag = app.next_tag();
    let pages = request.serps.unwrap_or(1);
    let searching = format!(
        "Searching {}",
        crate::plural::count(u64::from(pages), "page", "pages")
    );
    app.search.call = CallState::running(tag, app.now, searching, None);
    app.search.focus = SearchFocus::Results;
    vec![Effect::Call(CallEffect::SendSearch { tag, request })]
}

/// `n` past the last loaded page: the same search again, offset past what is loaded. The
/// form follows, so what is on screen is what the form would send.
fn fetch_next_pages(app: &mut App) -> Vec<Effect> {
    if app.search.call.is_running() {
        let cancel = app.key_of(Context::Form, Action::Cancel);
        app.flash_info(format!(
            "The next results are on their way; {cancel} cancels."
        ));
        return Vec::new();
    }
    let Some(next) = app
        .search
        .page
        .as_ref()
        .and_then(PageState::next_pages_request)
    else {
        app.flash_info(
            "This is as far as paging goes: the service skips at most 100 results (offset).",
        );
        return Vec::new();
    };
    app.search.load_request(&next);
    let offset = next.offset.unwrap_or(0);
    let effects = send(app);
    if app.search.call.is_running() {
        app.flash_info(format!(
            "Fetching the results after the first {offset} (offset {offset})…"
        ));
    }
    effects
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
        if let Some(i) = layout::cell_at(areas.settings, &app.search.settings.cells(), at) {
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

/// Enter on a fanout: searches it from the answer's own place (and language), as the model
/// did, in the Search tab, the focus on where its results land. Search has no device
/// setting, so a device of the answer is named rather than silently dropped.
pub(crate) fn search_from(app: &mut App, query: &str, from: &crate::api::AiRequest) -> Vec<Effect> {
    app.search.set_terms(query);
    app.search.settings.location = from.location.clone();
    if from.language.is_some() {
        app.search.settings.language = from.language.clone();
    }
    let mut effects = app.select_tab(super::Tab::Search);
    effects.extend(send(app));
    if app.search.call.is_running() {
        let place = crate::present::compare::summary::location_label(&from.location);
        let device = match &from.device {
            Some(device) => format!(" (searches have no device: {device} is not emulated)"),
            None => String::new(),
        };
        app.flash_info(format!("Searching the fanout from {place}{device}…"));
    }
    effects
}

/// A stored search back in the form, ready to edit and send again.
pub(crate) fn edit_again(app: &mut App, request: &SearchRequest) {
    app.search.load_request(request);
    app.search.focus = SearchFocus::Terms;
    app.tab = super::Tab::Search;
    let send = app.key_of(Context::Editing, Action::Send);
    app.flash_info(format!(
        "The search is back in the form: edit it, then {send} sends it."
    ));
}
