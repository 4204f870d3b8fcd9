//! The Chat tab: a prompt, the settings of one vantage point, and the answer in its views.

use crate::app::{CallEffect, OsEffect};
use std::collections::HashMap;

use crossterm::event::KeyEvent;
use ratatui::layout::{Position, Rect};
use ratatui_textarea::TextArea;

use crate::api::request::PROMPT_MAX_CHARS;
use crate::api::{AiFormat, AiRequest, ApiError};
use crate::devices::DeviceList;

use super::call::{CallState, mode_flash};
pub use super::chat_settings::{ChatSettings, Setting};
use super::hub::Ask;
use super::input::{editor_chars, prompt_editor};
use super::keymap::{Action, Context};
use super::layout;
use super::picker::PickerKind;
use super::pickers;
use super::text_search::{TextSearch, fold_term};
use super::{App, Effect, ExportSource, Popup, Tag, export_prompt};
use crate::analysis::mentions::Mention;
use crate::analysis::stance::Stance;
use crate::present::answer::{AnswerView, PreparedAnswer};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatFocus {
    Prompt,
    Settings,
    Answer,
}

/// An answer on screen, with where each view is scrolled to.
#[derive(Debug)]
pub struct AnswerState {
    pub prepared: Box<PreparedAnswer>,
    pub view: AnswerView,
    pub scroll: HashMap<AnswerView, usize>,
    /// The selected row of list views (sources, fanouts, mentions).
    pub selected: HashMap<AnswerView, usize>,
    /// How the answer names each tracked brand: those named in the answer's order,
    /// then the others. Computed when the answer lands or the brands change.
    pub mentions: Vec<Mention>,
    /// The marks (folded names and aliases) of the brands this answer cautions against,
    /// marked apart in its text.
    pub cautioned_marks: Vec<String>,
    /// The searches of its fanouts and who ranks there (`F`).
    pub coverage: Option<super::coverage::FanoutCoverage>,
}

impl AnswerState {
    pub fn new(prepared: Box<PreparedAnswer>) -> AnswerState {
        AnswerState {
            prepared,
            view: AnswerView::Answer,
            scroll: HashMap::new(),
            selected: HashMap::new(),
            mentions: Vec::new(),
            cautioned_marks: Vec::new(),
            coverage: None,
        }
    }

    /// Rows of a list view (sources, fanouts, mentions); 0 for text views.
    fn list_len(&self, view: AnswerView) -> usize {
        match view {
            AnswerView::Mentions => self.mentions.len(),
            _ => self.prepared.list_len(view),
        }
    }

    pub fn scroll_of(&self, view: AnswerView) -> usize {
        self.scroll.get(&view).copied().unwrap_or(0)
    }

    pub fn selected_of(&self, view: AnswerView) -> usize {
        self.selected.get(&view).copied().unwrap_or(0)
    }
}

pub struct ChatState {
    pub prompt: TextArea<'static>,
    pub settings: ChatSettings,
    pub focus: ChatFocus,
    /// The setting selected while the settings row has focus.
    pub setting_cursor: usize,
    pub call: CallState,
    pub answer: Option<AnswerState>,
    /// `/` inside the answer's text view.
    pub find: Option<TextSearch>,
    /// The words marked in the answer: the tracked brands' names and aliases, folded.
    pub marks: Vec<String>,
}

impl Default for ChatState {
    fn default() -> Self {
        ChatState::new()
    }
}

impl ChatState {
    /// The fan-out coverage's searches waiting for their pages.
    pub fn coverage_running(&self) -> usize {
        self.coverage().map_or(0, |c| c.running())
    }

    /// The fan-out coverage of the answer on screen, when one was asked for.
    pub fn coverage(&self) -> Option<&super::coverage::FanoutCoverage> {
        self.answer.as_ref().and_then(|a| a.coverage.as_ref())
    }

    pub fn owns_coverage(&self, tag: Tag) -> bool {
        self.answer
            .as_ref()
            .and_then(|a| a.coverage.as_ref())
            .is_some_and(|c| c.owns(tag))
    }

    pub fn new() -> ChatState {
        let prompt = prompt_editor("Ask something, then press Enter (Alt+Enter for a new line)");
        ChatState {
            prompt,
            settings: ChatSettings::default(),
            focus: ChatFocus::Prompt,
            setting_cursor: 0,
            call: CallState::Idle,
            answer: None,
            find: None,
            marks: Vec::new(),
        }
    }

    pub fn prompt_text(&self) -> String {
        self.prompt.lines().join("\n")
    }

    pub fn prompt_chars(&self) -> usize {
        editor_chars(&self.prompt)
    }

    pub fn prompt_over_limit(&self) -> bool {
        self.prompt_chars() > PROMPT_MAX_CHARS
    }

    pub fn set_prompt(&mut self, text: &str) {
        self.prompt.select_all();
        self.prompt.cut();
        self.prompt.insert_str(text);
    }

    pub fn editing(&self) -> bool {
        self.focus == ChatFocus::Prompt || self.find.as_ref().is_some_and(|f| f.typing)
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        match self.focus {
            ChatFocus::Prompt => vec![Context::Editing],
            ChatFocus::Settings => vec![Context::Settings, Context::Chat, Context::Form],
            ChatFocus::Answer if viewing_list(self) => vec![
                Context::AnswerList,
                Context::Viewer,
                Context::Chat,
                Context::Form,
            ],
            ChatFocus::Answer => vec![Context::Viewer, Context::Chat, Context::Form],
        }
    }

    /// The request the form describes now.
    pub fn request(&self) -> AiRequest {
        let s = &self.settings;
        AiRequest {
            prompt: self.prompt_text(),
            model: s.model,
            device: s.device.clone(),
            location: s.location.clone(),
            language: s.language.clone(),
            display: s.display.clone(),
            format: s.format,
            expiration: s.no_cache.then_some(0),
        }
    }

    /// Puts a request's values back into the form (re-runs from history).
    pub fn load_request(&mut self, request: &AiRequest) {
        self.set_prompt(&request.prompt);
        self.settings = ChatSettings {
            model: request.model,
            device: request.device.clone(),
            location: request.location.clone(),
            language: request.language.clone(),
            display: request.display.clone(),
            format: request.format,
            no_cache: request.expiration == Some(0),
            async_mode: self.settings.async_mode,
        };
    }

    pub fn edit(&mut self, key: KeyEvent) {
        if let Some(find) = self.find.as_mut().filter(|f| f.typing) {
            if find.edit(key) {
                self.refresh_find();
            }
            return;
        }
        super::input::edit_text_area(&mut self.prompt, key);
    }

    /// Finds the search's text again in the view on screen, and scrolls to the match.
    fn refresh_find(&mut self) {
        let (Some(find), Some(answer)) = (self.find.as_mut(), self.answer.as_mut()) else {
            return;
        };
        let view = answer.view;
        match answer.prepared.body_of(view) {
            Some(body) => {
                find.refresh(body, answer.scroll.get(&view).copied().unwrap_or(0));
                if let Some(line) = find.scroll_target() {
                    answer.scroll.insert(view, line);
                }
            }
            None => find.found.clear(),
        }
    }

    /// `n` / `N`: the next or previous match, scrolled to.
    fn step_find(&mut self, forward: bool) -> bool {
        let (Some(find), Some(answer)) = (self.find.as_mut(), self.answer.as_mut()) else {
            return false;
        };
        find.step(forward);
        if let Some(line) = find.scroll_target() {
            answer.scroll.insert(answer.view, line);
        }
        true
    }

    pub fn paste(&mut self, text: &str) {
        if let Some(find) = self.find.as_mut().filter(|f| f.typing) {
            find.query.push_str(&text.replace(['\n', '\r'], " "));
            self.refresh_find();
            return;
        }
        if self.focus != ChatFocus::Prompt {
            self.focus = ChatFocus::Prompt;
        }
        self.prompt
            .insert_str(text.replace("\r\n", "\n").replace('\r', "\n"));
    }

    /// Takes the answer of the call in flight; answers of cancelled calls are dropped.
    /// True when an answer landed.
    pub fn on_done(&mut self, tag: Tag, result: Result<Box<PreparedAnswer>, ApiError>) -> bool {
        if !self.call.is_for(tag) {
            return false;
        }
        match result {
            Ok(prepared) => {
                self.call = CallState::Idle;
                self.answer = Some(AnswerState::new(prepared));
                self.find = None;
                true
            }
            Err(error) => {
                self.call = CallState::Failed(error);
                false
            }
        }
    }

    fn focus_cycle(&mut self, forward: bool) {
        const ORDER: [ChatFocus; 3] = [ChatFocus::Prompt, ChatFocus::Settings, ChatFocus::Answer];
        let i = ORDER.iter().position(|f| *f == self.focus).unwrap_or(0);
        let next = if forward { i + 1 } else { i + ORDER.len() - 1 };
        self.focus = ORDER[next % ORDER.len()];
    }

    pub fn scroll_by(&mut self, delta: isize) {
        let Some(answer) = &mut self.answer else {
            return;
        };
        let view = answer.view;
        if answer.list_len(view) > 0 {
            let len = answer.list_len(view);
            let current = answer.selected_of(view) as isize;
            let next = (current + delta).clamp(0, len as isize - 1) as usize;
            answer.selected.insert(view, next);
            return;
        }
        let max = answer
            .prepared
            .body_of(view)
            .map_or(0, |b| b.wrapped_len().saturating_sub(1));
        let current = answer.scroll_of(view) as isize;
        let next = (current + delta).max(0) as usize;
        answer.scroll.insert(view, next.min(max));
    }

    fn scroll_to(&mut self, top: bool) {
        self.scroll_by(if top { isize::MIN / 2 } else { isize::MAX / 2 });
    }

    fn switch_view(&mut self, forward: bool) {
        let Some(answer) = &mut self.answer else {
            return;
        };
        let views = &answer.prepared.views;
        let i = views.iter().position(|v| *v == answer.view).unwrap_or(0);
        let next = if forward { i + 1 } else { i + views.len() - 1 };
        answer.view = views[next % views.len()];
        // The search follows to the new view's text.
        self.refresh_find();
    }
}

/// Handles an action the keymap found, on the Chat tab.
pub(crate) fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let page = page_height(app) as isize;
    let chat = &mut app.chat;
    match action {
        Action::FocusNext => chat.focus_cycle(true),
        Action::FocusPrev => chat.focus_cycle(false),
        Action::Back if chat.find.as_ref().is_some_and(|f| f.typing) => chat.find = None,
        Action::Back => chat.focus = ChatFocus::Answer,
        Action::Send if chat.find.as_ref().is_some_and(|f| f.typing) => {
            if let Some(find) = &mut chat.find {
                find.typing = false;
                if find.query.is_empty() {
                    chat.find = None;
                }
            }
        }
        Action::EditPrompt => chat.focus = ChatFocus::Prompt,
        Action::Newline => chat.prompt.insert_newline(),
        Action::Send => return send(app),
        Action::Cancel if !chat.call.is_running() && chat.find.is_some() => chat.find = None,
        Action::Cancel => {
            if let Some(tag) = chat.call.tag() {
                chat.call = CallState::Idle;
                app.flash_info("Cancelled.");
                return vec![Effect::Call(CallEffect::Cancel(tag))];
            }
            if chat.call.error().is_some() {
                chat.call = CallState::Idle;
            }
        }
        Action::NextView => chat.switch_view(true),
        Action::PrevView => chat.switch_view(false),
        Action::Up => chat.scroll_by(-1),
        Action::Down => chat.scroll_by(1),
        Action::PageUp => chat.scroll_by(-page),
        Action::PageDown => chat.scroll_by(page),
        Action::Top => chat.scroll_to(true),
        Action::Bottom => chat.scroll_to(false),
        Action::Left => {
            chat.setting_cursor = chat.setting_cursor.saturating_sub(1);
        }
        Action::Right => {
            chat.setting_cursor = (chat.setting_cursor + 1).min(Setting::ALL.len() - 1);
        }
        // Enter on a list of the answer acts on its selected row; the answer's text views
        // bind no Enter, so reading never sends.
        Action::Accept if chat.focus == ChatFocus::Answer && viewing_list(chat) => {
            return act_on_selected_row(app);
        }
        Action::Accept if chat.focus == ChatFocus::Answer => {}
        Action::Accept => {
            let setting = Setting::ALL[chat.setting_cursor.min(Setting::ALL.len() - 1)];
            return on_action(app, setting.action());
        }
        Action::PickModel
        | Action::PickDevice
        | Action::PickCountry
        | Action::PickSubdivision
        | Action::PickCity
        | Action::PickLanguage
        | Action::PickDisplay => open_picker(app, action),
        Action::CycleFormat => {
            chat.settings.format = super::cycle::next(AiFormat::ALL, chat.settings.format);
            let format = chat.settings.format;
            app.flash_info(format!("Format: {format}"));
        }
        Action::ToggleCache => {
            chat.settings.no_cache = !chat.settings.no_cache;
            let text = if chat.settings.no_cache {
                "Cache off: every call asks for a fresh answer (expiration=0)."
            } else {
                "Cache on: a cached answer up to a day old may come back (expiration=1)."
            };
            app.flash_info(text);
        }
        Action::ToggleAsync => {
            chat.settings.async_mode = !chat.settings.async_mode;
            let async_mode = chat.settings.async_mode;
            let send = app.key_of(
                crate::app::keymap::Context::Editing,
                crate::app::keymap::Action::Send,
            );
            let text = mode_flash(async_mode, &send);
            app.flash_info(text);
        }
        Action::FanoutCoverage => return super::coverage::ask(app),
        Action::OpenBrands => {
            app.ask(Ask::OpenBrands);
            return Vec::new();
        }
        Action::Copy => return copy(app),
        Action::Open => return open(app),
        Action::Export => {
            if app.chat.answer.is_none() {
                app.flash_info("There is no answer to export yet.");
            } else {
                let model = app.chat.request().effective_model();
                app.popup = Some(Popup::Input(export_prompt(
                    ExportSource::ChatAnswer,
                    format!("vantage-{model}-answer.md"),
                )));
            }
        }
        Action::Filter => {
            let has_text = chat
                .answer
                .as_ref()
                .is_some_and(|a| a.prepared.body_of(a.view).is_some());
            if has_text {
                chat.focus = ChatFocus::Answer;
                chat.find = Some(TextSearch::start());
            } else if chat.answer.is_some() {
                app.flash_info(
                    "/ searches the text views (Answer, HTML, JSON…); [ and ] switch to one.",
                );
            } else {
                app.flash_info("There is no answer to search yet.");
            }
        }
        Action::NextMatch | Action::PrevMatch => {
            let moved = chat.step_find(action == Action::NextMatch);
            if !moved {
                app.flash_info(
                    "Press / to search the text first; n and N then move between matches.",
                );
            }
        }
        _ => {}
    }
    Vec::new()
}

/// Lines the answer pane shows at once, for paging.
fn page_height(app: &App) -> usize {
    let areas = chat_areas(&app.chat, app.frame_areas().body);
    areas.answer.height.saturating_sub(4).max(1) as usize
}

/// Where the prompt, the settings row and the answer are, inside the tab's body.
pub(crate) fn chat_areas(chat: &ChatState, body: Rect) -> layout::ChatAreas {
    let widths = layout::cell_widths(&chat.settings.cells());
    let mut rows = layout::flow_rows(body.width, &widths, 1);
    // Short screens: while an answer is read, the settings fold to their first row.
    if body.height < layout::COMPACT_BELOW
        && chat.focus == ChatFocus::Answer
        && chat.answer.is_some()
    {
        rows = rows.min(1);
    }
    let prompt_rows = layout::wrapped_rows(chat.prompt.lines(), body.width.saturating_sub(2));
    layout::chat(body, prompt_rows, rows)
}

fn send(app: &mut App) -> Vec<Effect> {
    if app.chat.call.is_running() {
        let cancel = app.key_of(Context::Form, Action::Cancel);
        app.flash_info(format!("A call is already running; {cancel} cancels it."));
        return Vec::new();
    }
    let request = app.chat.request();
    if !app.may_send(request.validate()) {
        return Vec::new();
    }
    if let Some(unread) = app.brands_unread() {
        app.flash_error(unread);
        return Vec::new();
    }
    if app.chat.settings.async_mode {
        app.flash_info("Queueing the request…");
        return vec![Effect::submit_job(crate::store::RequestParams::Ai(request))];
    }
    let tag = app.next_tag();
    let model = request.effective_model();
    app.chat.call = CallState::running(
        tag,
        app.now,
        format!("Asking {}", model.display_name()),
        Some(model.typical_seconds()),
    );
    app.chat.focus = ChatFocus::Answer;
    vec![Effect::Call(CallEffect::SendAi { tag, request })]
}

/// True when the answer shows a list view (sources, fanouts).
fn viewing_list(chat: &ChatState) -> bool {
    chat.answer.as_ref().is_some_and(|a| {
        matches!(
            a.view,
            AnswerView::Sources | AnswerView::Fanouts | AnswerView::Mentions
        )
    })
}

/// Enter on a source opens it; on a fanout, puts the query into Search, ready to send.
fn act_on_selected_row(app: &mut App) -> Vec<Effect> {
    let Some(answer) = &app.chat.answer else {
        return Vec::new();
    };
    if answer.view == AnswerView::Sources {
        return open(app);
    }
    if answer.view == AnswerView::Mentions {
        show_in_answer(&mut app.chat);
        return Vec::new();
    }
    let Some(query) = answer
        .prepared
        .fanouts
        .get(answer.selected_of(AnswerView::Fanouts))
        .cloned()
    else {
        app.flash_info("There is no fanout query to search.");
        return Vec::new();
    };
    let answer = answer.prepared.request.clone();
    app.ask(Ask::SearchFrom {
        terms: query,
        answer,
    });
    Vec::new()
}

/// Enter on a mentioned brand: the Answer view, scrolled to where it is first named, its
/// name searched so n and N step through the others.
fn show_in_answer(chat: &mut ChatState) {
    let Some(answer) = chat.answer.as_mut() else {
        return;
    };
    let Some(mention) = answer
        .mentions
        .get(answer.selected_of(AnswerView::Mentions))
        .filter(|m| m.position.is_some())
    else {
        return;
    };
    chat.find = Some(TextSearch {
        query: mention.brand.clone(),
        ..TextSearch::default()
    });
    answer.view = AnswerView::Answer;
    answer.scroll.insert(AnswerView::Answer, 0);
    chat.refresh_find();
}

fn copy(app: &mut App) -> Vec<Effect> {
    let Some(answer) = &app.chat.answer else {
        app.flash_info("There is nothing to copy yet.");
        return Vec::new();
    };
    let view = answer.view;
    let selected = answer.selected_of(view);
    let prepared = &answer.prepared;
    let text = match view {
        AnswerView::Answer => prepared.markdown.clone(),
        AnswerView::Sources => match prepared.sources.get(selected) {
            Some(s) => s.url.clone(),
            None => return Vec::new(),
        },
        AnswerView::Fanouts => match prepared.fanouts.get(selected) {
            Some(q) => q.clone(),
            None => return Vec::new(),
        },
        AnswerView::Ads | AnswerView::Prompt => prepared
            .body_of(view)
            .and_then(|b| b.as_document())
            .map(|d| d.plain_text())
            .unwrap_or_default(),
        AnswerView::Html => match &prepared.json {
            Some(_) => serde_json::from_str::<crate::api::Completion>(&prepared.body)
                .map(|c| c.html)
                .unwrap_or_default(),
            None => prepared.body.clone(),
        },
        AnswerView::Json => prepared.export_json(),
        AnswerView::Mentions => mentions_text(&answer.mentions),
    };
    let what = view.title();
    app.flash_info(format!(
        "Copied {what} ({}).",
        crate::plural::count(text.chars().count() as u64, "character", "characters")
    ));
    vec![Effect::Os(OsEffect::Copy(text.into()))]
}

/// The Mentions view as plain lines, for the clipboard.
fn mentions_text(mentions: &[Mention]) -> String {
    mentions
        .iter()
        .map(|m| match m.position {
            Some(position) => format!(
                "{position}. {} · {} mention{} · {} · {}",
                m.brand,
                m.count,
                if m.count == 1 { "" } else { "s" },
                if m.cited { "cited" } else { "not cited" },
                m.sentence.as_deref().unwrap_or("")
            ),
            None => format!("–  {} · {}", m.brand, crate::analysis::mentions::NOT_NAMED),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Finds the tracked brands in the answer on screen again, and the words to mark in it:
/// when an answer lands or opens, and when the brands change.
pub(crate) fn refresh_mentions(app: &mut App) {
    let brands = &app.brands;
    app.chat.marks = brands
        .iter()
        .flat_map(|b| std::iter::once(&b.name).chain(&b.aliases))
        .map(|term| fold_term(term))
        .filter(|term| !term.is_empty())
        .collect();
    let Some(answer) = app.chat.answer.as_mut() else {
        return;
    };
    let mut found = answer.prepared.mentions(brands);
    answer.cautioned_marks = brands
        .iter()
        .filter(|b| {
            found
                .iter()
                .any(|m| m.brand == b.name && m.position.is_some() && m.stance == Stance::Cautioned)
        })
        .flat_map(|b| std::iter::once(&b.name).chain(&b.aliases))
        .map(|term| fold_term(term))
        .filter(|term| !term.is_empty())
        .collect();
    // Named ones by position, then the others in the file's order.
    found.sort_by_key(|m| m.position.unwrap_or(usize::MAX));
    answer.mentions = found;
    let last = answer.mentions.len().saturating_sub(1);
    if let Some(selected) = answer.selected.get_mut(&AnswerView::Mentions) {
        *selected = (*selected).min(last);
    }
    // The coverage names the brands too.
    super::coverage::refresh(app);
}

fn open(app: &mut App) -> Vec<Effect> {
    let Some(answer) = &mut app.chat.answer else {
        app.flash_info("There is no answer yet.");
        return Vec::new();
    };
    if answer.view != AnswerView::Sources {
        answer.view = AnswerView::Sources;
        let open = app.key_of(Context::Normal, Action::Open);
        app.flash_info(format!(
            "Choose a source with ↑↓, then press {open} to open it."
        ));
        return Vec::new();
    }
    match answer
        .prepared
        .sources
        .get(answer.selected_of(AnswerView::Sources))
    {
        Some(source) => vec![Effect::Os(OsEffect::OpenUrl(source.url.clone()))],
        None => {
            app.flash_info("This answer cites no sources.");
            Vec::new()
        }
    }
}

fn open_picker(app: &mut App, action: Action) {
    let settings = &app.chat.settings;
    let country = settings.location.country.clone();
    let picker = match action {
        Action::PickModel => pickers::model(settings.model),
        Action::PickDevice => pickers::device(app, DeviceList::Ai, settings.device.as_deref()),
        Action::PickCountry => pickers::location(PickerKind::Country, &settings.location),
        Action::PickSubdivision | Action::PickCity if country.is_none() => {
            app.flash_info("Choose a country first (c): subdivisions and cities belong to one.");
            return;
        }
        Action::PickSubdivision => pickers::location(PickerKind::Subdivision, &settings.location),
        Action::PickCity => pickers::location(PickerKind::City, &settings.location),
        Action::PickLanguage => {
            pickers::language(PickerKind::Language, settings.language.as_deref())
        }
        Action::PickDisplay => pickers::language(PickerKind::Display, settings.display.as_deref()),
        _ => return,
    };
    app.popup = Some(Popup::Picker(picker));
}

/// Sets what a picker chose. A new country clears the subdivision and city of the old one.
/// Shows an answer received elsewhere (History, a Compare column) as Chat's answer.
pub(crate) fn show_answer(app: &mut App, prepared: Box<PreparedAnswer>) {
    // What is on screen is what the next send sends: the form holds the answer's request
    // (an imported job's answer has none to hold).
    if !prepared.request.prompt.trim().is_empty() {
        app.chat.load_request(&prepared.request);
    }
    app.chat.answer = Some(AnswerState::new(prepared));
    refresh_mentions(app);
    app.chat.focus = ChatFocus::Answer;
    app.tab = super::Tab::Chat;
}

pub(crate) fn apply_choice(app: &mut App, kind: PickerKind, value: Option<String>) {
    let s = &mut app.chat.settings;
    match kind {
        PickerKind::Model => s.model = value.and_then(|v| v.parse().ok()),
        PickerKind::Device => s.device = value.as_deref().and_then(crate::devices::emulated),
        PickerKind::Country | PickerKind::Subdivision | PickerKind::City => {
            pickers::apply_location(&mut s.location, kind, value)
        }
        PickerKind::Language => s.language = value,
        PickerKind::Display => s.display = value,
        PickerKind::SearchDevice
        | PickerKind::AxisLocation
        | PickerKind::TrackSet
        | PickerKind::Brand => {}
    }
}

/// A click on the Chat tab's body: focus what was clicked.
pub(crate) fn on_click(app: &mut App, body: Rect, at: Position) -> Vec<Effect> {
    let widths = layout::cell_widths(&app.chat.settings.cells());
    let areas = chat_areas(&app.chat, body);
    if areas.prompt.contains(at) {
        app.chat.focus = ChatFocus::Prompt;
    } else if areas.settings.contains(at) {
        app.chat.focus = ChatFocus::Settings;
        let cells = layout::flow(areas.settings.width, &widths, 1);
        if let Some(i) = cells.iter().position(|c| {
            let abs = Rect::new(
                areas.settings.x + c.x,
                areas.settings.y + c.y,
                c.width,
                c.height,
            );
            abs.contains(at)
        }) {
            app.chat.setting_cursor = i;
            return on_action(app, Setting::ALL[i].action());
        }
    } else if areas.answer.contains(at) {
        app.chat.focus = ChatFocus::Answer;
    }
    Vec::new()
}

/// A stored request back in the form, ready to edit and send again.
pub(crate) fn edit_again(app: &mut App, request: &AiRequest) {
    app.chat.load_request(request);
    app.chat.focus = ChatFocus::Prompt;
    app.tab = super::Tab::Chat;
    let send = app.key_of(Context::Editing, Action::Send);
    app.flash_info(format!(
        "The request is back in the form: edit it, then {send} sends it."
    ));
}

#[cfg(test)]
#[path = "chat_tests.rs"]
mod tests;
