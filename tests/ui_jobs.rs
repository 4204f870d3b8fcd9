//! Snapshots of the Jobs and History tabs on `TestBackend`: a mix of job states, the filter,
//! a browser job's content, and past requests.

mod common;

use common::view::{demo_connection, draw, press};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use vantage::api::{AiRequest, JobId, JobKind, SearchRequest};
use vantage::app::{App, Credits, Msg, StoredView, Tab, jobs_tab, update};
use vantage::jobs::{JobState, UnixMs};
use vantage::present::text;
use vantage::store::{EntryId, HistoryItem, JobRecord, NewJob, RequestKind, RequestParams};

const T0: UnixMs = 1_700_000_000_000;

fn app() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    app.credits = Credits::Known(997);
    app.set_wall(T0);
    app
}

fn go_to(app: &mut App, tab: Tab) {
    let index = Tab::ALL.iter().position(|t| *t == tab).unwrap();
    let digit = char::from_digit(index as u32 + 1, 10).unwrap();
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char(digit), KeyModifiers::ALT)),
    );
}

fn id(n: u32) -> JobId {
    JobId::parse(&format!("{n:08x}-0000-4000-8000-000000000000")).unwrap()
}

fn job(n: u32, request: Option<RequestParams>, state: JobState, age_s: i64) -> JobRecord {
    let new = match request {
        Some(request) => NewJob::submitted(id(n), request),
        None => NewJob::imported(id(n), JobKind::Browser),
    };
    let mut record = jobs_tab::record_of(&new);
    record.created_at = T0 - age_s * 1_000;
    record.state = state;
    record.next_poll_at = (!state.is_terminal()).then_some(T0 + 5_000);
    if state != JobState::Pending || age_s > 10 {
        record.attempts = 3;
        record.last_poll_at = Some(T0 - 4_000);
    }
    if state == JobState::Done {
        record.result_size = Some(48_213);
    }
    record
}

fn ai(prompt: &str, country: &str) -> Option<RequestParams> {
    let mut request = AiRequest::new(prompt);
    request.location.country = Some(country.into());
    Some(RequestParams::Ai(request))
}

fn search(terms: &str) -> Option<RequestParams> {
    Some(RequestParams::Search(SearchRequest::new(terms)))
}

fn jobs_app() -> App {
    let mut app = app();
    update(
        &mut app,
        Msg::JobsLoaded(Ok(vec![
            job(
                1,
                ai("best hiking boots for wide feet", "US"),
                JobState::Done,
                3_700,
            ),
            job(2, search("trail running shoes"), JobState::Pending, 5),
            job(
                3,
                ai("cheapest flights to Lisbon", "DE"),
                JobState::Failed,
                600,
            ),
            job(4, search("standing desk"), JobState::Expired, 200_000),
            job(5, None, JobState::Error, 90),
            job(6, None, JobState::Done, 40),
        ])),
    );
    go_to(&mut app, Tab::Jobs);
    app
}

#[test]
fn jobs_in_every_state() {
    let mut app = jobs_app();
    insta::assert_snapshot!(draw(&mut app, 120, 16));
}

#[test]
fn jobs_at_80_columns() {
    let mut app = jobs_app();
    insta::assert_snapshot!(draw(&mut app, 80, 24));
}

#[test]
fn jobs_filtered() {
    let mut app = jobs_app();
    press(&mut app, KeyCode::Char('/'));
    for c in "boots".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    insta::assert_snapshot!(draw(&mut app, 100, 12));
}

#[test]
fn no_jobs_yet_and_memory_only() {
    let mut app = app();
    app.jobs.memory_only =
        Some("The data folder /ro could not be made: read-only file system.".into());
    go_to(&mut app, Tab::Jobs);
    insta::assert_snapshot!(draw(&mut app, 80, 12));
}

#[test]
fn a_browser_jobs_content_over_the_table() {
    let mut app = jobs_app();
    let body = vantage::app::stored::prepare(
        JobKind::Browser,
        None,
        &vantage::store::Body {
            status: 200,
            text: "<h1>Example Domain</h1><p>This domain is for use in examples.</p>".into(),
            elapsed_ms: 10,
            received_at: T0,
        },
        "browser job 00000006",
    );
    assert!(matches!(body, Ok(StoredView::Text { .. })));
    update(&mut app, Msg::StoredOpened(body));
    assert_eq!(app.tab, Tab::Jobs);
    insta::assert_snapshot!(draw(&mut app, 80, 10));
    press(&mut app, KeyCode::Esc);
    assert!(app.jobs.reader.is_none());
    let _ = text::TextBody::raw("");
}

#[test]
fn past_requests_newest_first() {
    let mut app = app();
    go_to(&mut app, Tab::History);
    let item = |n: &str, kind, summary: &str, ago_s: i64, status, size| HistoryItem {
        id: EntryId(n.into()),
        kind,
        summary: summary.into(),
        created_at: T0 - ago_s * 1_000,
        origin: vantage::store::Origin::App,
        status,
        elapsed_ms: status.map(|_| 8_400),
        size,
    };
    let generation = app.history.generation();
    update(
        &mut app,
        Msg::HistoryPage(vantage::app::history::Page::all(
            generation,
            vec![
                item(
                    "a",
                    RequestKind::Ai,
                    "perplexity · best hiking boots · DE, Berlin",
                    30,
                    Some(200),
                    Some(48_213),
                ),
                // Made by `vantage search` in another process.
                HistoryItem {
                    origin: vantage::store::Origin::Cli,
                    ..item(
                        "b",
                        RequestKind::Search,
                        "trail running shoes · US",
                        400,
                        Some(200),
                        Some(912_000),
                    )
                },
                item(
                    "c",
                    RequestKind::Ai,
                    "chatgpt · cheapest flights · random",
                    7_200,
                    Some(402),
                    Some(120),
                ),
                item(
                    "d",
                    RequestKind::Search,
                    "standing desk · FR",
                    90_000,
                    None,
                    None,
                ),
            ],
        )),
    );
    insta::assert_snapshot!(draw(&mut app, 100, 12));
}
