//! The tab table: each tab described once — its title, its key contexts and help, and the
//! handlers `update` dispatches to. A new tab is a variant here, one `TabSpec`, its state and
//! handlers in `app/<tab>.rs`, its view in `ui/<tab>.rs` (named in `ui::view_of`), and its
//! bindings in the keymap.

use crossterm::event::KeyEvent;
use ratatui::layout::{Position, Rect};

use super::keymap::{Action, Context};
use super::picker::PickerKind;
use super::{
    App, Effect, brands, chat, compare, history, jobs_tab, page, proxy, search, sets, track,
};
use crate::present::compare::CompareMode;

/// The tabs, in the order `Alt+1`… selects them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tab {
    Chat,
    Search,
    Jobs,
    History,
    Compare,
    Proxy,
    Page,
    Track,
}

impl Tab {
    /// The key that selects the tab, as its place in `Tab::ALL` (Alt+digit).
    pub fn key_label(self) -> String {
        let n = Tab::ALL.iter().position(|t| *t == self).unwrap_or(0) + 1;
        format!("Alt+{n}")
    }

    pub const ALL: [Tab; 8] = [
        Tab::Chat,
        Tab::Search,
        Tab::Jobs,
        Tab::History,
        Tab::Compare,
        Tab::Proxy,
        Tab::Page,
        Tab::Track,
    ];

    pub fn title(self) -> &'static str {
        self.spec().title
    }

    /// What the app knows of this tab.
    pub fn spec(self) -> &'static TabSpec {
        match self {
            Tab::Chat => &CHAT,
            Tab::Search => &SEARCH,
            Tab::Page => &PAGE,
            Tab::Jobs => &JOBS,
            Tab::History => &HISTORY,
            Tab::Compare => &COMPARE,
            Tab::Proxy => &PROXY,
            Tab::Track => &TRACK,
        }
    }
}

/// One tab, as `update`, the status bar and the help overlay see it.
pub struct TabSpec {
    pub title: &'static str,
    /// The keymap sections help lists for this tab, between the global ones and editing.
    pub help: &'static [Context],
    /// The actions the status bar hints at when not editing; `None` for the common set.
    pub hints: Option<&'static [Action]>,
    /// Effects to run when the tab is selected.
    pub on_enter: fn(&mut App) -> Vec<Effect>,
    /// True when keys go to a text field rather than acting as commands.
    pub editing: fn(&App) -> bool,
    /// True when the field being typed in takes line breaks (the status bar hints at them).
    pub multi_line: fn(&App) -> bool,
    /// The tab's own key contexts, most specific first.
    pub key_contexts: fn(&App) -> Vec<Context>,
    pub on_action: fn(&mut App, Action) -> Vec<Effect>,
    /// A key no binding took while editing: it goes to the text field.
    pub on_text_key: fn(&mut App, KeyEvent),
    /// Text pasted while no popup is open.
    pub on_paste: fn(&mut App, &str),
    /// A left click inside the tab's body.
    pub on_click: fn(&mut App, Rect, Position) -> Vec<Effect>,
    /// The mouse wheel, in lines (negative is up).
    pub on_wheel: fn(&mut App, isize),
    /// What a picker opened from this tab chose.
    pub on_choice: fn(&mut App, PickerKind, Option<String>),
    /// For a tab that shows stored rows: reads them again when the store changed (another
    /// process or this one wrote it). `None`: the tab shows nothing stored.
    pub on_store_changed: Option<fn(&mut App) -> Vec<Effect>>,
}

/// The list tabs' hints: their rows are acted on rather than edited.
const LIST_HINTS: &[Action] = &[
    Action::Accept,
    Action::PollNow,
    Action::Resubmit,
    Action::Rerun,
    Action::ImportJob,
    Action::Filter,
    Action::Delete,
    Action::Help,
];

fn nothing(_: &mut App) -> Vec<Effect> {
    Vec::new()
}

fn no_click(_: &mut App, _: Rect, _: Position) -> Vec<Effect> {
    Vec::new()
}

fn no_choice(_: &mut App, _: PickerKind, _: Option<String>) {}

fn no_paste(_: &mut App, _: &str) {}

/// The wheel moves a list's selection a row per step.
fn move_selection(app: &mut App, delta: isize, on_action: fn(&mut App, Action) -> Vec<Effect>) {
    on_action(app, if delta < 0 { Action::Up } else { Action::Down });
}

static CHAT: TabSpec = TabSpec {
    title: "Chat",
    help: &[
        Context::Form,
        Context::Chat,
        Context::Settings,
        Context::Viewer,
        Context::AnswerList,
        Context::Brands,
        Context::BrandEditor,
        Context::Finding,
    ],
    hints: None,
    on_enter: nothing,
    // While the Brands pane is open, keys go to it.
    editing: |app| match app.brands_pane.open {
        true => app.brands_pane.editing(),
        false => app.chat.editing(),
    },
    // The prompt takes line breaks; the answer's `/` search and the brand form do not.
    multi_line: |app| !app.brands_pane.open && app.chat.focus == chat::ChatFocus::Prompt,
    key_contexts: |app| match app.brands_pane.open {
        true => app.brands_pane.key_contexts(),
        false => app.chat.key_contexts(),
    },
    on_action: |app, action| match app.brands_pane.open {
        true => brands::on_action(app, action),
        false => chat::on_action(app, action),
    },
    on_text_key: |app, key| match app.brands_pane.open {
        true => brands::edit(app, key),
        false => app.chat.edit(key),
    },
    on_paste: |app, text| match app.brands_pane.open {
        true => brands::paste(app, text),
        false => app.chat.paste(text),
    },
    on_click: |app, body, at| match app.brands_pane.open {
        true => Vec::new(),
        false => chat::on_click(app, body, at),
    },
    on_wheel: |app, delta| match app.brands_pane.open {
        true => {
            brands::on_action(app, if delta < 0 { Action::Up } else { Action::Down });
        }
        false => app.chat.scroll_by(delta),
    },
    on_choice: chat::apply_choice,
    on_store_changed: None,
};

static SEARCH: TabSpec = TabSpec {
    title: "Search",
    help: &[
        Context::Form,
        Context::Search,
        Context::Settings,
        Context::Viewer,
        Context::Results,
        Context::Overview,
        Context::Finding,
    ],
    hints: None,
    // The results, once there are any: the next key is a command, not text.
    on_enter: |app| {
        if app.search.page.is_some() && app.search.focus == search::SearchFocus::Terms {
            app.search.focus = search::SearchFocus::Results;
        }
        Vec::new()
    },
    editing: |app| app.search.editing(),
    multi_line: |_| false,
    key_contexts: |app| app.search.key_contexts(),
    on_action: search::on_action,
    on_text_key: |app, key| app.search.edit(key, &mut app.matcher),
    on_paste: |app, text| app.search.paste(text),
    on_click: search::on_click,
    on_wheel: search::wheel,
    on_choice: search::apply_choice,
    on_store_changed: None,
};

static PAGE: TabSpec = TabSpec {
    title: "Page",
    help: &[
        Context::Form,
        Context::Page,
        Context::Settings,
        Context::Viewer,
    ],
    hints: None,
    on_enter: nothing,
    editing: |app| app.page.editing(),
    multi_line: |_| false,
    key_contexts: |app| app.page.key_contexts(),
    on_action: page::on_action,
    on_text_key: |app, key| app.page.edit(key),
    on_paste: |app, text| app.page.paste(text),
    on_click: page::on_click,
    on_wheel: page::wheel,
    on_choice: page::apply_choice,
    on_store_changed: None,
};

static JOBS: TabSpec = TabSpec {
    title: "Jobs",
    help: &[Context::Jobs, Context::Settings, Context::Viewer],
    hints: Some(LIST_HINTS),
    on_enter: nothing,
    editing: |app| app.jobs.editing(),
    multi_line: |_| false,
    key_contexts: |app| app.jobs.key_contexts(),
    on_action: jobs_tab::on_action,
    on_text_key: jobs_tab::edit,
    on_paste: no_paste,
    on_click: no_click,
    on_wheel: |app, delta| move_selection(app, delta, jobs_tab::on_action),
    on_choice: no_choice,
    on_store_changed: Some(|_| vec![Effect::Store(super::StoreEffect::LoadJobs)]),
};

static HISTORY: TabSpec = TabSpec {
    title: "History",
    help: &[Context::History, Context::Settings, Context::Viewer],
    hints: Some(LIST_HINTS),
    // The store is read afresh each time the tab shows.
    on_enter: history::on_enter,
    editing: |app| app.history.editing(),
    multi_line: |_| false,
    key_contexts: |app| app.history.key_contexts(),
    on_action: history::on_action,
    on_text_key: history::edit,
    on_paste: no_paste,
    on_click: no_click,
    on_wheel: |app, delta| move_selection(app, delta, history::on_action),
    on_choice: no_choice,
    on_store_changed: Some(history::on_store_changed),
};

static COMPARE: TabSpec = TabSpec {
    title: "Compare",
    help: &[
        Context::Compare,
        Context::Settings,
        Context::Viewer,
        Context::Finding,
    ],
    hints: None,
    // The columns, where every key of the tab works (`i` edits the prompt): opening the tab
    // must not turn the next command into text.
    on_enter: |app| {
        app.compare.focus = compare::CompareFocus::Columns;
        Vec::new()
    },
    editing: |app| app.compare.editing(),
    multi_line: |app| app.compare.mode == CompareMode::Answers,
    key_contexts: |app| app.compare.key_contexts(),
    on_action: compare::on_action,
    on_text_key: |app, key| app.compare.edit(key),
    on_paste: |app, text| app.compare.paste(text),
    on_click: no_click,
    on_wheel: |app, delta| app.compare.scroll_by(delta),
    on_choice: compare::apply_choice,
    on_store_changed: None,
};

static PROXY: TabSpec = TabSpec {
    title: "Proxy",
    help: &[Context::Proxy, Context::Settings, Context::Viewer],
    hints: None,
    on_enter: nothing,
    editing: |_| false,
    multi_line: |_| false,
    key_contexts: |app| app.proxy.key_contexts(),
    on_action: proxy::on_action,
    on_text_key: |_, _| {},
    on_paste: no_paste,
    on_click: proxy::on_click,
    on_wheel: |app, delta| app.proxy.scroll_by(delta),
    on_choice: proxy::apply_choice,
    on_store_changed: None,
};

static TRACK: TabSpec = TabSpec {
    title: "Track",
    help: &[
        Context::Track,
        Context::CellAnswers,
        Context::Discover,
        Context::SetEditor,
    ],
    hints: Some(&[Action::Accept, Action::RunSet, Action::Help]),
    // Read again when the tab shows if the store changed: runs go on in other processes.
    on_enter: track::enter,
    editing: |_| false,
    multi_line: |_| false,
    key_contexts: |app| app.track.key_contexts(),
    on_action: track::on_action,
    on_text_key: |_, _| {},
    on_paste: no_paste,
    on_click: no_click,
    on_wheel: |app, delta| move_selection(app, delta, track::on_action),
    on_choice: sets::apply_choice,
    on_store_changed: Some(track::on_store_changed),
};
