//! Keys you can search: help filtered by what is typed over it (rows wrapped, never cut), and
//! the command palette, which runs the chosen action as its key would.

mod common;

use common::view::{demo_connection, draw, press, type_text};
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;

use vantage::api::{AiAnswer, AiRequest, Completion, Fetched};
use vantage::app::keymap::{Action, Keymap};
use vantage::app::{self, App, CallEffect, Credits, Effect, Msg, Popup, Tab, update};
use vantage::present::answer;

fn app() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    app.credits = Credits::Known(997);
    app
}

/// The Chat tab with an answer on screen (the focus on it, where single keys act).
fn app_with_an_answer() -> App {
    let mut app = app();
    type_text(&mut app, "best hiking boots");
    let effects = press(&mut app, KeyCode::Enter);
    let tag = effects
        .iter()
        .find_map(|e| match e {
            Effect::Call(CallEffect::SendAi { tag, .. }) => Some(*tag),
            _ => None,
        })
        .expect("the prompt was sent");
    let completion = Completion {
        model: "chatgpt".into(),
        query: "best hiking boots".into(),
        completion: "<p>The <strong>Salomon X Ultra</strong> is the safe pick.</p>".into(),
        ..Completion::default()
    };
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(1_500),
    };
    let prepared = answer::prepare(AiRequest::new("best hiking boots"), fetched);
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(Box::new(prepared)),
        },
    );
    assert!(app.chat.answer.is_some());
    app
}

fn help_state(app: &App) -> &app::palette::KeysHelp {
    match &app.popup {
        Some(Popup::Help(help)) => help,
        other => panic!("help is not open: {other:?}"),
    }
}

#[test]
fn help_overlay_lists_the_keymap_and_scrolls() {
    let mut app = app();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('?'));
    let text = draw(&mut app, 100, 40);
    assert!(!text.contains("Mouse: click a tab"));
    // Every key is listed, the current tab's first: page through the whole list.
    let mut seen = text.clone();
    for _ in 0..25 {
        press(&mut app, KeyCode::PageDown);
        seen.push_str(&draw(&mut app, 100, 40));
    }
    let tabs = format!("Alt+1…{}", app::Tab::ALL.len());
    for expected in ["Ctrl+C", tabs.as_str(), "cancel the call", "country"] {
        assert!(seen.contains(expected), "{expected} missing in\n{seen}");
    }
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::End);
    let text = draw(&mut app, 100, 40);
    assert!(text.contains("Mouse: click a tab"), "{text}");
    press(&mut app, KeyCode::Esc);
    assert!(app.popup.is_none());
}

#[test]
fn typing_over_help_keeps_only_the_rows_that_match() {
    let mut app = app();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('?'));
    // `q` is typed into the filter: it no longer closes help, nor quits.
    type_text(&mut app, "quit");
    assert!(!app.should_quit);
    let help = help_state(&app);
    assert_eq!(help.filter, "quit");
    let keys = Keymap::default();
    let actions = help.kept_actions(&keys).expect("a filter is typed");
    // Ctrl+C everywhere and q outside text fields: the two ways to quit, nothing else.
    assert_eq!(actions, [Action::Quit, Action::Quit]);
    let text = draw(&mut app, 80, 24);
    assert!(text.contains("filter › quit"), "{text}");
    assert!(
        text.contains("Ctrl+C") && text.contains("Everywhere"),
        "{text}"
    );
    assert!(
        !text.contains("export") && !text.contains("Alt+1"),
        "{text}"
    );
    insta::assert_snapshot!(text);

    // By key too, and by the action's name as keys.toml writes it.
    for _ in 0..4 {
        press(&mut app, KeyCode::Backspace);
    }
    assert!(
        help_state(&app).kept.is_none(),
        "an empty filter keeps every row"
    );
    type_text(&mut app, "pick model");
    let kept = help_state(&app).kept_actions(&keys).unwrap();
    assert!(!kept.is_empty());
    assert!(kept.iter().all(|a| *a == Action::PickModel), "{kept:?}");

    // `?` is typed while something is; Esc clears the filter, then closes.
    press(&mut app, KeyCode::Char('?'));
    assert_eq!(help_state(&app).filter, "pick model?");
    press(&mut app, KeyCode::Esc);
    assert!(help_state(&app).filter.is_empty());
    assert!(help_state(&app).kept.is_none());
    press(&mut app, KeyCode::Esc);
    assert!(app.popup.is_none());
}

#[test]
fn help_rows_wrap_rather_than_cut_at_80_and_60_columns() {
    let mut app = app();
    if let crossterm::event::Event::Key(key) = common::tab_key(Tab::Page) {
        update(&mut app, Msg::Key(key));
    }
    assert_eq!(app.tab, Tab::Page);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('?'));
    type_text(&mut app, "country");
    for width in [80, 60] {
        let text = draw(&mut app, width, 30);
        // The Page tab's longest row, whole over two lines: no word lost to an edge.
        assert!(text.contains("a checked one"), "{width}:\n{text}");
        assert!(text.contains("is removed"), "{width}:\n{text}");
        // Inside help (the page's placeholder has an ellipsis of its own).
        let help_rows = text.lines().filter(|l| l.contains("││"));
        assert!(
            help_rows.clone().count() > 5,
            "help is drawn at {width}:\n{text}"
        );
        assert!(
            help_rows.into_iter().all(|l| !l.contains('…')),
            "a row was cut at {width}:\n{text}"
        );
    }
}

#[test]
fn the_palette_lists_the_tabs_actions_with_their_keys_and_filters_them() {
    let mut app = app_with_an_answer();
    press(&mut app, KeyCode::Char(':'));
    let Some(Popup::Palette(palette)) = &app.popup else {
        panic!("the palette is not open: {:?}", app.popup);
    };
    let export = palette
        .commands
        .iter()
        .find(|c| c.action == Action::Export)
        .expect("export is an action of Chat");
    assert_eq!(export.keys, "e");
    assert!(
        palette
            .commands
            .iter()
            .any(|c| c.action == Action::PickModel),
        "the form's pickers are listed"
    );
    assert!(
        !palette.commands.iter().any(|c| c.action == Action::Palette),
        "the palette does not list itself"
    );
    type_text(&mut app, "exp");
    let text = draw(&mut app, 80, 24);
    assert!(text.contains(": exp"), "{text}");
    assert!(text.contains("export"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn the_palette_runs_export_as_the_export_key_does() {
    let mut by_key = app_with_an_answer();
    let effects_by_key = press(&mut by_key, KeyCode::Char('e'));

    let mut by_name = app_with_an_answer();
    press(&mut by_name, KeyCode::Char(':'));
    type_text(&mut by_name, "exp");
    let effects_by_name = press(&mut by_name, KeyCode::Enter);

    assert_eq!(effects_by_name, effects_by_key);
    let Some(Popup::Input(prompt)) = &by_name.popup else {
        panic!("export asks where to write: {:?}", by_name.popup);
    };
    assert!(prompt.value.ends_with("-answer.md"), "{}", prompt.value);
    assert_eq!(
        format!("{:?}", by_name.popup),
        format!("{:?}", by_key.popup),
        "the same export prompt"
    );
}

#[test]
fn the_palette_is_not_opened_by_a_colon_typed_in_a_field() {
    let mut app = app();
    // Chat opens in its prompt: `:` is text there.
    type_text(&mut app, "time: 10:30");
    assert!(app.popup.is_none());
    assert_eq!(app.chat.prompt_text(), "time: 10:30");
    // Esc closes the palette, and nothing ran.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char(':'));
    assert!(matches!(app.popup, Some(Popup::Palette(_))));
    type_text(&mut app, "quit");
    press(&mut app, KeyCode::Esc);
    assert!(app.popup.is_none());
    assert!(!app.should_quit);
}
