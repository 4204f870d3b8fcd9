//! What a key, a click or a user's file read again does to the app, whichever tab shows:
//! the global keys first, then the tab's own (`tabs.rs`).

use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Position;

use super::keymap::{self, Action, Context};
use super::palette::{self, KeysHelp};
use super::{App, Effect, FileUnusable, OsEffect, Popup, Tab, UserFile, layout, popup, usage};

pub(super) fn on_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    app.flash = None;
    let contexts = app.key_contexts();
    let action = app.keys.lookup(&contexts, &key);
    if let Some(popup) = app.popup.take() {
        return popup::on_popup_key(app, popup, key, action);
    }
    // The usage overlay closes as a popup does (Esc), besides its own key.
    if app.usage.shown && app.keys.lookup(&[Context::Popup], &key) == Some(Action::Back) {
        app.usage.shown = false;
        return Vec::new();
    }
    match action {
        Some(action) => run_action(app, action),
        None if app.editing() => {
            (app.tab.spec().on_text_key)(app, key);
            Vec::new()
        }
        None => {
            explain_unbound(app, &contexts, &key);
            Vec::new()
        }
    }
}

/// What an action does, whether its key was pressed or the palette chose it: the global
/// actions here, the rest by the tab.
pub(super) fn run_action(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Quit => popup::quit(app),
        Action::Help => {
            app.popup = Some(Popup::Help(KeysHelp::default()));
            Vec::new()
        }
        Action::Palette => palette::open(app),
        Action::SelectTab(index) => {
            match Tab::ALL.get(index) {
                Some(tab) => {
                    // An overlay of the tab left does not stay over the next.
                    app.usage.shown = false;
                    return app.select_tab(*tab);
                }
                None => app.flash_info(format!(
                    "There is no tab {}; the tabs are {}.",
                    index + 1,
                    Tab::ALL.map(Tab::title).join(", ")
                )),
            }
            Vec::new()
        }
        Action::ShowUsage => usage::toggle(app),
        Action::SwitchToDemo if !app.connection.demo => {
            vec![Effect::Os(OsEffect::SwitchToDemo(app.prices))]
        }
        action => (app.tab.spec().on_action)(app, action),
    }
}

/// A user's file read again: applied whole, or, broken, not at all — the keys or theme in use
/// stay, and the app says which line is wrong.
pub(super) fn user_file_read(app: &mut App, file: UserFile) {
    match file {
        UserFile::Keys(Ok(keys)) => {
            app.keys = *keys;
            // The file's mistakes are no longer said once it reads well.
            if let Some(said) = app.keys_problem.take()
                && app.flash.as_ref().is_some_and(|flash| flash.text == said)
            {
                app.flash = None;
            }
            name_keys_in_placeholders(app);
        }
        UserFile::Keys(Err(unusable)) => {
            let sentence = match unusable {
                FileUnusable::Mistake(mistake) => {
                    let kept = if app.keys == keymap::Keymap::default() {
                        "The default keys are in use until it is fixed."
                    } else {
                        "The keys in use stay until it is fixed."
                    };
                    format!("{mistake} {kept}")
                }
                FileUnusable::Unreadable(sentence) => sentence,
            };
            // Help says it again for as long as the file is broken: a flash goes at the next key.
            app.keys_problem = Some(sentence.clone());
            app.flash_error(sentence);
        }
        UserFile::Theme(Ok(theme)) => {
            app.theme = *theme;
            app.theme_problem = None;
        }
        UserFile::Theme(Err(unusable)) => {
            let sentence = match unusable {
                FileUnusable::Mistake(mistake) => {
                    format!("{mistake} The theme in use stays until it is fixed.")
                }
                FileUnusable::Unreadable(sentence) => sentence,
            };
            app.theme_problem = Some(sentence.clone());
            app.flash_error(sentence);
        }
    }
}

/// The prompt editors' placeholders say the keys in effect: a send moved to Ctrl+S is not
/// announced as Enter.
fn name_keys_in_placeholders(app: &mut App) {
    let send = app.key_of(Context::Editing, Action::Send);
    let newline = app.key_of(Context::Editing, Action::Newline);
    app.chat.prompt.set_placeholder_text(format!(
        "Ask something, then press {send} ({newline} for a new line)"
    ));
    app.compare
        .prompt
        .set_placeholder_text(format!("One prompt for every column; {send} runs them all"));
    app.search.terms.set_placeholder_text(format!(
        "Search terms; \"quotes\" keep an exact phrase. {send} searches."
    ));
    app.page
        .url
        .set_placeholder_text(format!("https://… the page to fetch. {send} fetches it."));
}

/// Says which key sends a form again, for a press of the prompt's send key where the focus
/// reads (an answer, a page, results): reading never spends a call.
pub(crate) fn reading_never_sends(app: &mut App) {
    let again = app.key_of(Context::Form, Action::Send);
    let edit = app.key_of(Context::Form, Action::EditPrompt);
    let enter = app.key_of(Context::Editing, Action::Send);
    app.flash_info(format!(
        "{enter} sends from the prompt only, never from what you read: {again} sends the form again (spends credits); {edit} edits it first."
    ));
}

/// A key that does nothing where focus is says why, when it works elsewhere on the tab:
/// "] (next view) works in Reading answers and results; Tab moves the focus there."
fn explain_unbound(app: &mut App, here: &[Context], key: &KeyEvent) {
    // The prompt's send key, pressed over an answer or a page: reading never spends a call.
    if here.contains(&Context::Form)
        && app.keys.lookup(&[Context::Editing], key) == Some(Action::Send)
    {
        reading_never_sends(app);
        return;
    }
    let Some(binding) = app.keys.bound_elsewhere(here, app.tab.spec().help, key) else {
        return;
    };
    let focus = app
        .keys
        .label_of(Context::Global, keymap::Action::FocusNext, "Tab");
    let sentence = format!(
        "{} ({}) works in {}, not where the focus is; {focus} moves the focus.",
        binding.label.split_whitespace().next().unwrap_or_default(),
        binding.help,
        binding.context.title()
    );
    app.flash_info(sentence);
}

pub(super) fn on_mouse(app: &mut App, mouse: MouseEvent) -> Vec<Effect> {
    let at = Position::new(mouse.column, mouse.row);
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            if app.popup.is_some() {
                return Vec::new();
            }
            let frame = app.frame_areas();
            if frame.tabs.contains(at) {
                if let Some(tab) = layout::tab_at(frame.tabs, mouse.column) {
                    return app.select_tab(tab);
                }
                return Vec::new();
            }
            (app.tab.spec().on_click)(app, frame.body, at)
        }
        MouseEventKind::ScrollUp => {
            (app.tab.spec().on_wheel)(app, -3);
            Vec::new()
        }
        MouseEventKind::ScrollDown => {
            (app.tab.spec().on_wheel)(app, 3);
            Vec::new()
        }
        _ => Vec::new(),
    }
}
