//! Track's answers of one cell on `TestBackend` at 80×24: `a` lists the shown set's cells,
//! Enter asks for the cell's runs, which show newest first beside the selected run's answer;
//! the newest two answered runs are compared (Tab shows what changed), Space marks others.

mod common;

use common::view::{demo_connection, draw, press};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use vantage::app::{App, Effect, Msg, StoreEffect, Tab, update};
use vantage::track::answers::{Cell, CellAnswer, CellHistory, CellRun, CellStatus, NamedBrand};

const T0: i64 = 1_763_880_000_000;
const HOUR: i64 = 3_600_000;

const WORKSPACE: &str = r#"[[brands]]
name = "Merrell"

[[brands]]
name = "Salomon"

[[brands]]
name = "Keen"

[[sets]]
name = "boots"
prompts = ["best hiking boots"]
models = ["chatgpt", "perplexity"]
locations = ["us:co:Denver"]
"#;

fn app_on_track() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    let index = Tab::ALL.iter().position(|t| *t == Tab::Track).unwrap();
    let digit = char::from_digit(index as u32 + 1, 10).unwrap();
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char(digit), KeyModifiers::ALT)),
    );
    let path = std::path::Path::new("/work/shop/vantage.toml");
    app.brands_pane.workspace =
        Some(vantage::analysis::workspace::Workspace::parse(path, WORKSPACE).unwrap());
    app.brands_pane.exists = true;
    app
}

fn brand(name: &str, position: u32, stance: &str) -> NamedBrand {
    NamedBrand {
        brand: name.to_string(),
        position: Some(position),
        stance: stance.to_string(),
        count: 1,
        cited: false,
    }
}

fn run(hour: i64, status: CellStatus, answer: Option<CellAnswer>) -> CellRun {
    CellRun {
        run: format!("{hour:08x}-0000-4000-8000-000000000000"),
        started_at: T0 + hour * HOUR,
        status,
        answer,
    }
}

/// Three runs: Merrell first, then a failed run, then Salomon first with Keen in.
fn history(cell: Cell) -> CellHistory {
    let old = CellAnswer {
        brands: vec![
            brand("Merrell", 1, "recommended"),
            brand("Salomon", 2, "listed"),
        ],
        sources: vec!["rei.com".into(), "outdoorgearlab.com".into()],
        text:
            "Top picks\n1. Merrell Moab 3 Mid: the safe choice.\n2. Salomon X Ultra 4 GTX: light."
                .into(),
        text_read: true,
        seq: 0,
    };
    let new = CellAnswer {
        brands: vec![
            brand("Salomon", 1, "recommended"),
            brand("Merrell", 2, "listed"),
            brand("Keen", 3, "cautioned"),
        ],
        sources: vec!["rei.com".into(), "reddit.com".into()],
        text: "Top picks\n1. Salomon X Ultra 4 GTX: light and dry.\n2. Merrell Moab 3 Mid: the safe choice.\n3. Keen Targhee IV: runs wide, but heavy."
            .into(),
        text_read: true,
        seq: 0,
    };
    CellHistory {
        set: "boots".into(),
        cell,
        runs: vec![
            run(2, CellStatus::Answered, Some(new)),
            run(1, CellStatus::Failed, None),
            run(0, CellStatus::Answered, Some(old)),
        ],
    }
}

#[test]
fn a_cells_runs_show_newest_first_and_what_changed_between_the_newest_two() {
    let mut app = app_on_track();
    assert!(press(&mut app, KeyCode::Char('a')).is_empty());
    let cells = draw(&mut app, 80, 24);
    insta::assert_snapshot!("track_answers_cells_80x24", cells);

    press(&mut app, KeyCode::Down);
    let effects = press(&mut app, KeyCode::Enter);
    let cell = match &effects[..] {
        [
            Effect::Store(StoreEffect::LoadCellAnswers {
                set, cell, brands, ..
            }),
        ] => {
            assert_eq!(set, "boots");
            assert_eq!(brands.len(), 3, "the set's brands are read");
            cell.clone()
        }
        other => panic!("the cell is read off the UI task: {other:?}"),
    };
    assert_eq!(cell.model, "perplexity");
    assert_eq!(cell.place, "US/CO/Denver");
    assert!(draw(&mut app, 80, 24).contains("Reading the answers of"));

    update(
        &mut app,
        Msg::CellAnswersLoaded(Ok(Box::new(history(cell)))),
    );
    let answer = draw(&mut app, 80, 24);
    insta::assert_snapshot!("track_answers_runs_80x24", answer);

    press(&mut app, KeyCode::Tab);
    let changes = draw(&mut app, 80, 24);
    for said in [
        "Now named: Keen",
        "Salomon moved up: #2 → #1",
        "Merrell: recommended → listed",
        "reddit.com",
        "outdoorgearlab.com",
        "{+",
    ] {
        assert!(changes.contains(said), "{said}: {changes}");
    }
    insta::assert_snapshot!("track_answers_changes_80x24", changes);

    // The failed run cannot be marked; the newest unmarked, nothing is compared.
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Char(' '));
    let one = draw(&mut app, 80, 24);
    assert!(one.contains("Mark two runs that answered"), "{one}");

    // Esc back to the cells, Esc again to the tab.
    press(&mut app, KeyCode::Esc);
    assert!(draw(&mut app, 80, 24).contains("pick a prompt × model × place"));
    press(&mut app, KeyCode::Esc);
    assert!(app.track.answers.is_none());
}
