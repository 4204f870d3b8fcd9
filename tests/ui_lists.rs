//! Snapshots of the shared list and picker widgets as a new user meets them: without colour,
//! with a filter applied, with long prompts on a wide screen.

mod common;

use common::view::{demo_connection, draw, press, terminal};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;

use vantage::app::{App, Credits, Msg, Tab, update};
use vantage::jobs::UnixMs;
use vantage::store::{EntryId, HistoryItem, RequestKind};

const T0: UnixMs = 1_700_000_000_000;

fn app() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    app.credits = Credits::Known(997);
    app.set_wall(T0);
    app
}

/// What a terminal without colour shows: the text, and under each line that has any, a
/// line of `^` under the cells drawn in reverse video. Colours are left out on purpose.
fn draw_without_colour(app: &mut App, width: u16, height: u16) -> String {
    let terminal = terminal(app, width, height);
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let mut text = String::new();
        let mut marks = String::new();
        let mut skip = 0;
        for x in 0..width {
            let cell = &buffer[(x, y)];
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = cell.symbol();
            let cell_width = unicode_width::UnicodeWidthStr::width(symbol).max(1);
            skip = cell_width - 1;
            text.push_str(symbol);
            let mark = if cell.modifier.contains(Modifier::REVERSED) {
                '^'
            } else {
                ' '
            };
            marks.extend(std::iter::repeat_n(mark, cell_width));
        }
        out.push_str(text.trim_end());
        out.push('\n');
        if marks.contains('^') {
            out.push_str(marks.trim_end());
            out.push('\n');
        }
    }
    out
}

fn go_to(app: &mut App, tab: Tab) {
    let index = Tab::ALL.iter().position(|t| *t == tab).unwrap();
    let digit = char::from_digit(index as u32 + 1, 10).unwrap();
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char(digit), KeyModifiers::ALT)),
    );
}

fn history_item(n: &str, kind: RequestKind, summary: &str, ago_s: i64) -> HistoryItem {
    HistoryItem {
        id: EntryId(n.into()),
        kind,
        summary: summary.into(),
        created_at: T0 - ago_s * 1_000,
        origin: vantage::store::Origin::App,
        status: Some(200),
        elapsed_ms: Some(8_400),
        size: Some(48_213),
    }
}

fn history_app(items: Vec<HistoryItem>) -> App {
    let mut app = app();
    go_to(&mut app, Tab::History);
    let generation = app.history.generation();
    update(
        &mut app,
        Msg::HistoryPage(vantage::app::history::Page::all(generation, items)),
    );
    app
}

fn three_requests() -> Vec<HistoryItem> {
    vec![
        history_item(
            "a",
            RequestKind::Ai,
            "perplexity · best hiking boots · DE, Berlin",
            30,
        ),
        history_item("b", RequestKind::Search, "trail running shoes · US", 400),
        history_item(
            "c",
            RequestKind::Ai,
            "chatgpt · cheapest flights · random",
            7_200,
        ),
    ]
}

#[test]
fn a_list_and_the_tab_bar_without_colour() {
    let mut app = history_app(three_requests());
    press(&mut app, KeyCode::Down);
    insta::assert_snapshot!(draw_without_colour(&mut app, 80, 8));
}

#[test]
fn history_uses_the_width_it_has_for_prompts() {
    let mut request = vantage::api::AiRequest::new(
        "which trail running shoes hold up best on wet rock and loose gravel for a beginner \
         training for a first ultramarathon",
    );
    request.location.country = Some("US".into());
    let long = &vantage::store::RequestParams::Ai(request).summary();
    let mut app = history_app(vec![history_item("a", RequestKind::Ai, long, 30)]);
    let wide = draw(&mut app, 160, 6);
    // Before, the prompt was cut at 48 characters whatever the width.
    assert!(
        wide.contains("loose gravel for a beginner training"),
        "{wide}"
    );
    let narrow = draw(&mut app, 80, 6);
    assert!(narrow.contains("…"), "a cut shows as one: {narrow}");
    insta::assert_snapshot!(narrow);
}

#[test]
fn a_multi_select_picker_shows_checkmarks() {
    let mut app = app();
    go_to(&mut app, Tab::Compare);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('m'));
    for _ in 0..2 {
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
    }
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("[✓]"), "{screen}");
    insta::assert_snapshot!(screen);
}

/// The one page read `effects` ask for.
fn page_asked(effects: &[vantage::app::Effect]) -> vantage::app::history::PageRequest {
    match effects {
        [vantage::app::Effect::Store(vantage::app::StoreEffect::LoadHistoryPage(request))] => {
            request.clone()
        }
        other => panic!("one page read was expected: {other:?}"),
    }
}

#[test]
fn a_search_applied_shows_what_it_found_of_all_until_esc() {
    use vantage::app::history::{Page, PageRead};
    let mut app = history_app(three_requests());
    press(&mut app, KeyCode::Char('/'));
    for c in "hiking".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    let typing = draw(&mut app, 80, 8);
    assert!(typing.contains("/ hiking"), "{typing}");
    let request = page_asked(&press(&mut app, KeyCode::Enter));
    assert_eq!(request.query.as_deref(), Some("hiking"));
    // The store answers: one entry of the three holds the word.
    let found = three_requests().into_iter().take(1).collect();
    update(
        &mut app,
        Msg::HistoryPage(Page {
            request,
            result: Ok(PageRead {
                items: found,
                total: Some(1),
                entries: Some(3),
            }),
        }),
    );
    let screen = draw_without_colour(&mut app, 80, 8);
    assert!(
        screen.contains("History  DEMO  1 of 3 requests"),
        "{screen}"
    );
    assert!(screen.contains("/ hiking  1 of 3"), "{screen}");
    insta::assert_snapshot!(screen);
    let request = page_asked(&press(&mut app, KeyCode::Esc));
    assert_eq!(request.query, None);
    update(
        &mut app,
        Msg::HistoryPage(Page::all(request.generation, three_requests())),
    );
    let screen = draw(&mut app, 80, 8);
    assert!(screen.contains("History  DEMO  3 requests"), "{screen}");
    assert!(!screen.contains("hiking  1 of"), "{screen}");
}

#[test]
fn an_imported_unknown_id_reads_the_same_in_its_row_and_the_title() {
    use vantage::api::{JobId, JobKind};
    use vantage::jobs::JobState;
    use vantage::store::NewJob;
    let id = JobId::parse("0000000a-0000-4000-8000-000000000000").unwrap();
    let mut record = vantage::app::jobs_tab::record_of(&NewJob::imported(id, JobKind::Ai));
    record.created_at = T0 - 4_000;
    record.state = JobState::Error;
    record.last_error = Some(vantage::jobs::UNKNOWN_JOB.to_string());
    let mut app = app();
    update(&mut app, Msg::JobsLoaded(Ok(vec![record])));
    go_to(&mut app, Tab::Jobs);
    let screen = draw(&mut app, 80, 7);
    assert!(
        screen.contains("0 pending · 1 error (retrying)"),
        "{screen}"
    );
    assert!(!screen.contains("waiting"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn alt_enter_is_hinted_only_where_a_line_break_can_go() {
    let mut app = app();
    let chat = draw(&mut app, 160, 24);
    assert!(chat.contains("Alt+Enter new line"), "{chat}");
    go_to(&mut app, Tab::Search);
    assert!(app.editing(), "the terms field has the focus");
    let search = draw(&mut app, 160, 24);
    assert!(!search.contains("Alt+Enter"), "{search}");
}

fn chord(app: &mut App, c: char) {
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
    );
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

#[test]
fn every_text_field_takes_the_same_editing_keys() {
    // The Chat prompt: Ctrl+U deleted nothing there, it undid.
    let mut app = app();
    type_text(&mut app, "best boots");
    chord(&mut app, 'w');
    assert_eq!(app.chat.prompt_text(), "best ");
    chord(&mut app, 'u');
    assert_eq!(app.chat.prompt_text(), "");
    chord(&mut app, 'z');
    assert_eq!(app.chat.prompt_text(), "best ");
    // The History search: Ctrl+U typed a literal "u" in filters.
    let mut app = history_app(three_requests());
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "trail xx");
    chord(&mut app, 'w');
    assert_eq!(app.history.search.typed, "trail ");
    chord(&mut app, 'a');
    chord(&mut app, 'k');
    assert_eq!(app.history.search.typed, "");
    chord(&mut app, 'z');
    assert_eq!(app.history.search.typed, "trail ");
    // A picker's filter.
    let mut app = self::app();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('c'));
    type_text(&mut app, "united st");
    chord(&mut app, 'u');
    let vantage::app::Popup::Picker(picker) = app.popup.as_ref().unwrap() else {
        panic!("the country picker is open")
    };
    assert_eq!(picker.filter, "");
    assert_eq!(picker.rows.len(), picker.items.len());
}

/// The device picker opened from Chat with this filter typed.
fn device_picker(app: &mut App, filter: &str) -> String {
    press(app, KeyCode::Esc);
    press(app, KeyCode::Char('d'));
    type_text(app, filter);
    draw(app, 80, 24)
}

#[test]
fn device_picker_lists_phones_then_tablets_and_finds_a_kind() {
    let mut app = app();
    // As the live `/ai/devices` lists them: alphabetized, tablets among the phones.
    app.devices = vantage::app::Devices::Loaded(
        [
            "Blackberry PlayBook",
            "Blackberry PlayBook landscape",
            "BlackBerry Z30",
            "iPad Mini",
            "iPhone 14",
            "Pixel 5",
            "Pixel 7",
        ]
        .map(String::from)
        .to_vec(),
    );
    let all = device_picker(&mut app, "");
    let row = |name: &str| all.find(name).unwrap_or_else(|| panic!("{name}:\n{all}"));
    assert!(row("BlackBerry Z30") < row("Pixel 7"), "{all}");
    assert!(
        row("Pixel 7") < row("Blackberry PlayBook "),
        "phones first:\n{all}"
    );
    assert!(row("Blackberry PlayBook ") < row("iPad Mini"), "{all}");
    insta::assert_snapshot!(device_picker(&mut app, "tablet"));
}
