//! Exports without a terminal: a file in the way is replaced only once the user says so.

use std::path::PathBuf;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{ExportSource, WriteFailure};
use crate::app::{App, Connection, Effect, Msg, OsEffect, Popup, Tab, update};

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// The Compare tab: its export always has something to write.
fn app() -> App {
    let mut app = App::new(
        Connection {
            demo: true,
            host: "127.0.0.1:4000".into(),
            token: Some("demo".into()),
            token_hint: "the config file".into(),
        },
        Instant::now(),
    );
    app.tab = Tab::Compare;
    app.compare.focus = crate::app::compare::CompareFocus::Columns;
    app
}

fn write_effect(effects: &[Effect]) -> (PathBuf, bool) {
    match effects {
        [
            Effect::Os(OsEffect::WriteFile {
                path, overwrite, ..
            }),
        ] => (path.clone(), *overwrite),
        other => panic!("expected one write, got {other:?}"),
    }
}

/// The export prompt, as `e` opens it, with `name` typed, then Enter.
fn export_as(app: &mut App, name: &str) -> Vec<Effect> {
    let prompt = super::export_prompt(ExportSource::Comparison, name.to_string());
    app.popup = Some(Popup::Input(prompt));
    update(app, key(KeyCode::Enter))
}

#[test]
fn a_file_in_the_way_is_replaced_only_after_a_second_enter() {
    let mut app = app();
    let (path, overwrite) = write_effect(&export_as(&mut app, "out/cmp.md"));
    assert_eq!(path, PathBuf::from("out/cmp.md"));
    assert!(!overwrite, "the first try never replaces a file");

    update(
        &mut app,
        Msg::FileWritten {
            path: path.clone(),
            result: Err(WriteFailure::Exists),
        },
    );
    let Some(Popup::Input(prompt)) = &app.popup else {
        panic!("the prompt asks again");
    };
    assert_eq!(prompt.value, "out/cmp.md");
    assert!(prompt.note.contains("exists"), "{}", prompt.note);
    let (again, overwrite) = write_effect(&update(&mut app, key(KeyCode::Enter)));
    assert_eq!(again, path);
    assert!(overwrite, "Enter on the same name replaces it");

    // The agreement was for that once: a later export asks again.
    let (_, overwrite) = write_effect(&export_as(&mut app, "out/cmp.md"));
    assert!(!overwrite);
}

#[test]
fn a_new_name_after_the_warning_does_not_replace_anything() {
    let mut app = app();
    let (path, _) = write_effect(&export_as(&mut app, "cmp.md"));
    update(
        &mut app,
        Msg::FileWritten {
            path,
            result: Err(WriteFailure::Exists),
        },
    );
    let Some(Popup::Input(prompt)) = &mut app.popup else {
        panic!("the prompt asks again");
    };
    prompt.value = "cmp-2.md".into();
    let (path, overwrite) = write_effect(&update(&mut app, key(KeyCode::Enter)));
    assert_eq!(path, PathBuf::from("cmp-2.md"));
    assert!(!overwrite);
}

#[test]
fn a_folder_that_cannot_be_made_is_said_in_a_sentence() {
    let mut app = app();
    update(
        &mut app,
        Msg::FileWritten {
            path: "/x/y/cmp.md".into(),
            result: Err(WriteFailure::Folder {
                folder: "/x/y".into(),
                reason: "Permission denied (os error 13)".into(),
            }),
        },
    );
    let flash = app
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert_eq!(
        flash,
        "Could not create the folder /x/y: Permission denied (os error 13). Press e to choose another path."
    );
}

/// A comparison named `.html` is one page: its Markdown as HTML, styles inline.
#[test]
fn a_comparison_exports_as_one_html_page() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    let effects = export_as(&mut app, "cmp.html");
    let [Effect::Os(OsEffect::WriteFile { contents, .. })] = effects.as_slice() else {
        panic!("one write: {effects:?}");
    };
    let contents = contents.make();
    assert!(contents.starts_with("<!doctype html>"), "{contents}");
    assert!(contents.contains("<h1>Comparison</h1>"), "{contents}");
    assert!(contents.contains("best hiking boots"), "{contents}");
    assert!(!contents.contains("<link") && !contents.contains("<script"));
}

/// `x` in Track asks where, then writes the shown set's report off the UI task.
#[test]
fn x_in_track_writes_the_shown_set_s_report() {
    let mut app = app();
    app.tab = Tab::Track;
    app.track.view = Some(crate::track::view::TrackView {
        set: Some("boots".to_string()),
        ..Default::default()
    });
    update(&mut app, key(KeyCode::Char('x')));
    let Some(Popup::Input(prompt)) = &app.popup else {
        panic!("x asks where: {:?}", app.popup);
    };
    assert_eq!(prompt.value, "boots-report.html");
    let effects = update(&mut app, key(KeyCode::Enter));
    match effects.as_slice() {
        [Effect::Store(crate::app::StoreEffect::WriteReport { set, path, .. })] => {
            assert_eq!(set, "boots");
            assert_eq!(path, &PathBuf::from("boots-report.html"));
        }
        other => panic!("the report is written: {other:?}"),
    }
}
