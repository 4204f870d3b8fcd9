//! Snapshots of your brand marked in the Brands pane and of a set's alerts in the Track
//! tab's set form, at 80×24: the list says which brand is yours, the form lists the set's
//! alerts as they read, and an alert's own form says what it watches and when it fires.

mod common;

use common::view::{demo_connection, draw, press};
use std::path::Path;
use std::time::Instant;

use crossterm::event::KeyCode;

use vantage::analysis::workspace::Workspace;
use vantage::app::brands::LoadedWorkspace;
use vantage::app::{App, Msg, Tab, update};

const FILE: &str = "[[brands]]\nname = \"Lowa\"\ndomains = [\"lowa.com\"]\nown = true\n\n[[brands]]\nname = \"Merrell\"\naliases = [\"Merrel\"]\n\n[[brands]]\nname = \"Hoka\"\ndomains = [\"hoka.com\"]\n\n[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\"]\nmodels = [\"chatgpt\", \"gemini\"]\n\n[[sets.alerts]]\nbrand = \"Lowa\"\nmeasure = \"visibility\"\ndrops_by = 10\n\n[[sets.alerts]]\nbrand = \"Hoka\"\nmeasure = \"best_rank\"\nabove = 5\nmodels = [\"chatgpt\"]\n";

fn app_with_the_file() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    let workspace = Workspace::parse(Path::new("/work/shop/vantage.toml"), FILE).unwrap();
    update(
        &mut app,
        Msg::WorkspaceLoaded(Ok(LoadedWorkspace {
            workspace,
            existed: true,
        })),
    );
    app
}

#[test]
fn the_brands_pane_says_which_brand_is_yours_and_the_form_marks_it() {
    let mut app = app_with_the_file();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('b'));
    assert!(app.brands_pane.open);
    let list = draw(&mut app, 80, 24);
    assert!(list.contains("Lowa  (yours)"), "{list}");
    assert!(!list.contains("Merrell  (yours)"), "{list}");
    // Merrell's form, on its own mark.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    let form = draw(&mut app, 80, 24);
    assert!(form.contains("yours: [ ] a brand you watch"), "{form}");
    press(&mut app, KeyCode::Char(' '));
    let marked = draw(&mut app, 80, 24);
    assert!(marked.contains("yours: [x] your brand"), "{marked}");
    insta::assert_snapshot!("brands_form_own_80x24", marked);
    press(&mut app, KeyCode::Enter);
    let moved = draw(&mut app, 80, 24);
    assert!(moved.contains("Merrell  (yours)"), "{moved}");
    assert!(
        moved.contains("Merrell is your brand now (Lowa no longer"),
        "{moved}"
    );
}

#[test]
fn the_set_form_lists_the_sets_alerts_and_opens_one() {
    let mut app = app_with_the_file();
    app.tab = Tab::Track;
    // e: the picker of the file's sets, after "+ a new set".
    press(&mut app, KeyCode::Char('e'));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    assert!(app.track.editor.is_some(), "e opens the set's form");
    // To the last rows: the alerts.
    press(&mut app, KeyCode::End);
    press(&mut app, KeyCode::Up);
    let form = draw(&mut app, 80, 24);
    assert!(
        form.contains("alerts     Lowa visibility drops by 10 points"),
        "{form}"
    );
    assert!(form.contains("Hoka best rank above 5 (chatgpt)"), "{form}");
    assert!(form.contains("+ add an alert"), "{form}");
    insta::assert_snapshot!("set_form_alerts_80x24", form);
    press(&mut app, KeyCode::Enter);
    let alert = draw(&mut app, 80, 24);
    assert!(
        alert.contains("Reads: Hoka best rank above 5 (chatgpt)"),
        "{alert}"
    );
    insta::assert_snapshot!("alert_form_80x24", alert);
}
