//! `keys.toml` and theme files as the app reads them: at start, through the real event loop,
//! and again when the terminal regains focus — a broken file never half-applied.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use common::view::{demo_connection, draw};
use common::{ctrl_c, key, key_with, scripted_events};
use vantage::api::{Client, ClientSettings, Secret};
use vantage::app::keymap::Keymap;
use vantage::app::{App, update};
use vantage::theme::{Theme, ThemeChoice};
use vantage::tui::{UserFiles, run_loop, test_runner};

fn client() -> Client {
    Client::new(ClientSettings::new(
        "http://127.0.0.1:1",
        "http://127.0.0.1:1",
        Secret::new("test"),
    ))
    .unwrap()
}

/// The app as `tui::run` starts it: the user's files read before the first frame.
fn started(keys: &Path, theme: ThemeChoice) -> (App, UserFiles) {
    let mut app = App::new(demo_connection(), Instant::now());
    app.area = ratatui::layout::Rect::new(0, 0, 100, 40);
    let files = UserFiles::new(keys.to_path_buf(), theme);
    files.apply_at_start(&mut app);
    (app, files)
}

fn flash(app: &App) -> String {
    app.flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quit_moved_to_shift_q_q_no_longer_quits_and_help_shows_q() {
    let folder = tempfile::tempdir().unwrap();
    let keys = folder.path().join("keys.toml");
    std::fs::write(&keys, "# mine\n[normal]\nquit = \"Q\"\n").unwrap();
    let (app, _) = started(&keys, ThemeChoice::default());
    assert!(flash(&app).is_empty(), "{}", flash(&app));

    // q, then help: the loop is still running, and help lists Q for quit.
    let data = tempfile::tempdir().unwrap();
    let (mut runner, mut rx) = test_runner(client(), data.path().to_path_buf());
    let mut terminal = Terminal::new(TestBackend::new(100, 40)).unwrap();
    let (tx, events) = scripted_events();
    let mut app = app;
    let looped = tokio::spawn(async move {
        run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        (terminal, app)
    });
    tx.send(key(KeyCode::Esc)).unwrap();
    tx.send(key(KeyCode::Char('q'))).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!looped.is_finished(), "q still quit");
    tx.send(key(KeyCode::Char('?'))).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Over help Q is typed into its filter; Esc clears it, Esc closes help, and Q quits.
    tx.send(key_with(KeyCode::Char('Q'), KeyModifiers::SHIFT))
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!looped.is_finished(), "Q over help is typed, not quit");
    tx.send(key(KeyCode::Esc)).unwrap();
    tx.send(key(KeyCode::Esc)).unwrap();
    tx.send(key_with(KeyCode::Char('Q'), KeyModifiers::SHIFT))
        .unwrap();
    let (_, mut app) = tokio::time::timeout(Duration::from_secs(10), looped)
        .await
        .expect("Q quits")
        .unwrap();

    // What help showed: Q for quit, and no q.
    update(
        &mut app,
        vantage::app::Msg::Key(crossterm::event::KeyEvent::new(
            KeyCode::Char('?'),
            KeyModifiers::NONE,
        )),
    );
    let help = draw(&mut app, 100, 400);
    assert!(
        help.lines()
            .any(|l| l.contains("  Q ") && l.contains("quit")),
        "{help}"
    );
    assert!(
        !help
            .lines()
            .any(|l| l.contains("  q ") && l.contains("quit")),
        "{help}"
    );
    assert!(help.contains("Esc or ? closes this"), "{help}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_still_quits_when_q_is_moved() {
    let folder = tempfile::tempdir().unwrap();
    let keys = folder.path().join("keys.toml");
    std::fs::write(&keys, "[normal]\nquit = \"Q\"\n").unwrap();
    let (mut app, _) = started(&keys, ThemeChoice::default());
    let data = tempfile::tempdir().unwrap();
    let (mut runner, mut rx) = test_runner(client(), data.path().to_path_buf());
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let (tx, events) = scripted_events();
    tx.send(ctrl_c()).unwrap();
    tokio::time::timeout(
        Duration::from_secs(10),
        run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx),
    )
    .await
    .expect("Ctrl+C quits")
    .unwrap();
}

#[test]
fn a_malformed_keys_toml_starts_with_the_defaults_and_says_which_line() {
    let folder = tempfile::tempdir().unwrap();
    let keys = folder.path().join("keys.toml");
    std::fs::write(
        &keys,
        "[normal]\nquit = \"Q\"\n\n[chat]\npick_model = \"ctrl-\"\n",
    )
    .unwrap();
    let (mut app, _) = started(&keys, ThemeChoice::default());
    assert_eq!(app.keys, Keymap::default(), "nothing of the file is used");
    let sentence = flash(&app);
    assert!(sentence.contains(&keys.display().to_string()), "{sentence}");
    assert!(sentence.contains("line 5, at `pick_model`"), "{sentence}");
    assert!(sentence.contains("default keys are in use"), "{sentence}");
    // The app says it where it can be read.
    let screen = draw(&mut app, 200, 24);
    assert!(screen.contains("line 5"), "{screen}");
}

#[test]
fn a_keys_toml_broken_while_the_app_runs_keeps_the_last_good_one() {
    let folder = tempfile::tempdir().unwrap();
    let keys = folder.path().join("keys.toml");
    std::fs::write(&keys, "[normal]\nquit = \"Q\"\n").unwrap();
    let (mut app, files) = started(&keys, ThemeChoice::default());
    let good = app.keys.clone();
    assert_ne!(good, Keymap::default());
    // Unchanged: nothing to read again, nothing said.
    assert!(files.read_changes().is_empty());
    // Broken in the editor: the keys stay those of the good file, and the line is named.
    std::fs::write(&keys, "[normal]\nquit = \"Q\"\nhelp = \"Q\"\n").unwrap();
    for msg in files.read_changes() {
        update(&mut app, msg);
    }
    assert_eq!(app.keys, good);
    let sentence = flash(&app);
    assert!(sentence.contains("line 3, at `help`"), "{sentence}");
    assert!(sentence.contains("keys in use stay"), "{sentence}");
    // The flash goes at the next key; help says it for as long as the file is broken.
    update(
        &mut app,
        vantage::app::Msg::Key(crossterm::event::KeyEvent::new(
            KeyCode::Esc,
            KeyModifiers::NONE,
        )),
    );
    update(
        &mut app,
        vantage::app::Msg::Key(crossterm::event::KeyEvent::new(
            KeyCode::Char('?'),
            KeyModifiers::NONE,
        )),
    );
    let help = draw(&mut app, 100, 40);
    assert!(help.contains("line 3, at `help`"), "{help}");
    update(
        &mut app,
        vantage::app::Msg::Key(crossterm::event::KeyEvent::new(
            KeyCode::Esc,
            KeyModifiers::NONE,
        )),
    );
    // Fixed: used whole.
    std::fs::write(&keys, "[normal]\nquit = \"Q\"\nhelp = \"h\"\n").unwrap();
    for msg in files.read_changes() {
        update(&mut app, msg);
    }
    assert_eq!(
        app.keys.label_of(
            vantage::app::keymap::Context::Normal,
            vantage::app::keymap::Action::Help,
            ""
        ),
        "h"
    );
    assert!(app.keys_problem.is_none(), "fixed: help no longer says it");
    // Removed: the defaults.
    std::fs::remove_file(&keys).unwrap();
    for msg in files.read_changes() {
        update(&mut app, msg);
    }
    assert_eq!(app.keys, Keymap::default());
}

#[test]
fn every_mistake_of_keys_toml_is_said_in_line_order_and_unsaid_once_fixed() {
    let folder = tempfile::tempdir().unwrap();
    let keys = folder.path().join("keys.toml");
    std::fs::write(
        &keys,
        "[normal]\nquitt = \"Q\"\n[chat]\npick_model = \"ctrl-\"\n[global]\nquit = \"q\"\n",
    )
    .unwrap();
    let (mut app, files) = started(&keys, ThemeChoice::default());
    let sentence = flash(&app);
    let at = |what: &str| {
        sentence
            .find(what)
            .unwrap_or_else(|| panic!("{what} in {sentence}"))
    };
    assert!(sentence.contains("has 3 mistakes"), "{sentence}");
    assert!(
        at("line 2, at `quitt`") < at("line 4, at `pick_model`"),
        "{sentence}"
    );
    assert!(
        at("line 4, at `pick_model`") < at("line 6, at `quit`"),
        "{sentence}"
    );
    assert_eq!(app.keys_problem.as_deref(), Some(sentence.as_str()));
    // Fixed in the editor: the keys are used, and the app no longer says the mistakes.
    std::fs::write(&keys, "[normal]\nquit = \"Q\"\n").unwrap();
    for msg in files.read_changes() {
        update(&mut app, msg);
    }
    assert!(app.flash.is_none(), "{:?}", flash(&app));
    assert!(app.keys_problem.is_none());
    assert_ne!(app.keys, Keymap::default());
    let screen = draw(&mut app, 100, 40);
    assert!(!screen.contains("mistake"), "{screen}");
}

#[test]
fn a_theme_file_with_an_unknown_key_is_refused_with_file_and_line() {
    let folder = tempfile::tempdir().unwrap();
    let theme = folder.path().join("paper.toml");
    std::fs::write(
        &theme,
        "base = \"light\"\naccent = { fg = \"blue\" }\nacent = { fg = \"red\" }\n",
    )
    .unwrap();
    let (app, files) = started(
        &folder.path().join("keys.toml"),
        ThemeChoice::File(theme.clone()),
    );
    assert_eq!(app.theme, Theme::dark(), "nothing of the file is used");
    let sentence = flash(&app);
    assert!(
        sentence.contains(&theme.display().to_string()),
        "{sentence}"
    );
    assert!(sentence.contains("line 3, at `acent`"), "{sentence}");
    assert!(sentence.contains("not a style"), "{sentence}");
    // Fixed while the app runs: applied; broken again: the fixed one stays.
    let mut app = app;
    std::fs::write(&theme, "base = \"light\"\naccent = { fg = \"blue\" }\n").unwrap();
    for msg in files.read_changes() {
        update(&mut app, msg);
    }
    assert_eq!(app.theme.key_hint, Theme::light().key_hint);
    let applied = app.theme.clone();
    std::fs::write(&theme, "base = \"light\"\naccent = { fg = \"nope\" }\n").unwrap();
    for msg in files.read_changes() {
        update(&mut app, msg);
    }
    assert_eq!(app.theme, applied);
    assert!(
        flash(&app).contains("line 2, at `accent`"),
        "{}",
        flash(&app)
    );
    assert!(
        app.theme_problem
            .as_deref()
            .is_some_and(|p| p.contains("line 2")),
        "help says it while the file is broken"
    );
}

#[test]
fn a_missing_theme_file_is_said_and_the_dark_theme_used() {
    let folder = tempfile::tempdir().unwrap();
    let theme_path = folder.path().join("nowhere.toml");
    let (app, _) = started(
        &folder.path().join("keys.toml"),
        ThemeChoice::File(theme_path.clone()),
    );
    assert_eq!(app.theme, Theme::dark());
    // The sentence says the path it looked at, and where a relative one is looked for.
    assert!(
        flash(&app).contains(&format!("no theme file at {}", theme_path.display())),
        "{}",
        flash(&app)
    );
    assert!(
        flash(&app).contains("beside the config file"),
        "{}",
        flash(&app)
    );
}

/// The words of the views follow a moved key: the prompt's placeholder and the intro's hints.
#[test]
fn placeholders_and_hints_name_the_keys_in_effect() {
    let folder = tempfile::tempdir().unwrap();
    let keys = folder.path().join("keys.toml");
    std::fs::write(
        &keys,
        "[form]\nedit_prompt = \"I\"\n[editing]\nsend = \"ctrl-s\"\nnewline = [\"enter\", \"alt-enter\"]\n",
    )
    .unwrap();
    let (mut app, _) = started(&keys, ThemeChoice::default());
    assert_eq!(
        app.chat.prompt.placeholder_text(),
        "Ask something, then press Ctrl+S (Enter for a new line)"
    );
    update(
        &mut app,
        vantage::app::Msg::Key(crossterm::event::KeyEvent::new(
            KeyCode::Esc,
            KeyModifiers::NONE,
        )),
    );
    let screen = draw(&mut app, 100, 30);
    assert!(
        screen.contains("Press I (or click) to type a prompt; Ctrl+S sends."),
        "{screen}"
    );
    assert!(screen.contains("I back to the prompt"), "{screen}");
}
