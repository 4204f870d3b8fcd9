//! The History tab's paging and full-text search without a store: keys in, page requests
//! out, pages in.

use crossterm::event::KeyCode;

use super::{PAGE, Page, PageRead, PageRequest, WINDOW};
use crate::app::{App, Effect, Msg, StoreEffect, Tab, update};
use crate::store::{EntryId, HistoryItem, RequestKind};

use crate::app::test_support::demo_app as app;

use crate::app::test_support::key;

fn item(row: usize) -> HistoryItem {
    HistoryItem {
        id: EntryId(format!("e{row}")),
        kind: RequestKind::Ai,
        summary: format!("chatgpt · question {row}"),
        created_at: 1_700_000_000_000 - row as i64,
        origin: crate::store::Origin::App,
        status: Some(200),
        elapsed_ms: Some(1_000),
        size: Some(100),
    }
}

/// The one page request among `effects`.
fn asked(effects: &[Effect]) -> PageRequest {
    // Entering the tab also looks at the store's version (what another process wrote).
    let reads: Vec<&PageRequest> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Store(StoreEffect::LoadHistoryPage(request)) => Some(request),
            Effect::Store(StoreEffect::ReadDataVersion) => None,
            other => panic!("only a page read was expected: {other:?}"),
        })
        .collect();
    match reads.as_slice() {
        [request] => (*request).clone(),
        other => panic!("one page read was expected: {other:?}"),
    }
}

/// The rows of a listing of `total` rows that `request` asks for, as the store answers.
fn answer(app: &mut App, request: &PageRequest, total: usize, entries: usize) {
    let end = (request.offset + request.limit).min(total);
    let items = (request.offset..end).map(item).collect();
    update(
        app,
        Msg::HistoryPage(Page {
            request: request.clone(),
            result: Ok(PageRead {
                items,
                total: request.count.then_some(total),
                entries: request.count.then_some(entries),
            }),
        }),
    );
}

fn open_history(app: &mut App, total: usize) {
    let first = asked(&app.select_tab(Tab::History));
    assert_eq!((first.offset, first.limit, first.count), (0, PAGE, true));
    assert_eq!(first.query, None);
    answer(app, &first, total, total);
}

#[test]
fn pages_are_read_as_the_selection_nears_the_end_and_the_window_stays_bounded() {
    let mut app = app();
    open_history(&mut app, 50_000);
    assert_eq!(app.history.total, 50_000);
    assert_eq!(app.history.items.len(), PAGE);
    // Moving down reads the next page before the last row is reached, once.
    let mut reads = Vec::new();
    for _ in 0..10_000 {
        let effects = update(&mut app, key(KeyCode::Down));
        if !effects.is_empty() {
            let request = asked(&effects);
            assert_eq!(request.offset, app.history.start + app.history.items.len());
            assert!(!request.count, "only the first page is counted");
            reads.push(request.offset);
            answer(&mut app, &request, 50_000, 50_000);
        }
    }
    assert_eq!(app.history.selected_row(), 10_000);
    assert_eq!(app.history.selected().unwrap().id.0, "e10000");
    assert!(
        app.history.items.len() <= WINDOW,
        "{}",
        app.history.items.len()
    );
    assert!(app.history.start > 0);
    assert_eq!(reads.first(), Some(&PAGE));
    // Back up: the rows above the window are read again.
    let mut before = None;
    for _ in 0..2_000 {
        let effects = update(&mut app, key(KeyCode::Up));
        if !effects.is_empty() {
            let request = asked(&effects);
            assert_eq!(request.offset + request.limit, app.history.start);
            before = Some(request.offset);
            answer(&mut app, &request, 50_000, 50_000);
        }
    }
    assert!(before.is_some());
    assert_eq!(app.history.selected_row(), 8_000);
    assert_eq!(app.history.selected().unwrap().id.0, "e8000");
}

#[test]
fn home_and_end_jump_to_the_ends_of_everything_stored() {
    let mut app = app();
    open_history(&mut app, 50_000);
    let last = asked(&update(&mut app, key(KeyCode::End)));
    assert_eq!((last.offset, last.limit), (50_000 - PAGE, PAGE));
    answer(&mut app, &last, 50_000, 50_000);
    assert_eq!(app.history.selected().unwrap().id.0, "e49999");
    let first = asked(&update(&mut app, key(KeyCode::Home)));
    assert_eq!(first.offset, 0);
    answer(&mut app, &first, 50_000, 50_000);
    assert_eq!(app.history.selected().unwrap().id.0, "e0");
}

#[test]
fn slash_searches_everything_and_esc_goes_back_to_the_whole_list() {
    let mut app = app();
    open_history(&mut app, 50_000);
    update(&mut app, key(KeyCode::Char('/')));
    assert!(app.editing(), "keys type the query");
    for c in "zamberlan".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    let search = asked(&update(&mut app, key(KeyCode::Enter)));
    assert_eq!(search.query.as_deref(), Some("zamberlan"));
    assert!(search.count);
    assert!(!app.editing());
    // A page of the whole list still on its way is dropped when it lands.
    let stale = PageRequest {
        generation: search.generation - 1,
        query: None,
        offset: 0,
        limit: PAGE,
        count: true,
    };
    answer(&mut app, &stale, 50_000, 50_000);
    assert_eq!(app.history.total, 50_000);
    answer(&mut app, &search, 50, 50_000);
    assert_eq!(app.history.items.len(), 50);
    assert_eq!(
        app.history.search_status().as_deref(),
        Some("50 of 50000 · zamberlan")
    );
    // Enter opens a found entry as any entry opens.
    assert_eq!(
        update(&mut app, key(KeyCode::Enter)),
        vec![Effect::Store(StoreEffect::OpenHistory(EntryId(
            "e0".into()
        )))]
    );
    let back = asked(&update(&mut app, key(KeyCode::Esc)));
    assert_eq!(back.query, None);
    assert!(back.generation > search.generation);
    answer(&mut app, &back, 50_000, 50_000);
    assert_eq!(app.history.search_status(), None);
    assert_eq!(app.history.total, 50_000);
}

#[test]
fn a_query_without_a_word_is_not_run() {
    let mut app = app();
    open_history(&mut app, 10);
    update(&mut app, key(KeyCode::Char('/')));
    update(&mut app, key(KeyCode::Char('*')));
    assert!(update(&mut app, key(KeyCode::Enter)).is_empty());
    assert!(app.flash.as_ref().unwrap().text.contains("Type a word"));
    assert_eq!(app.history.search.applied, None);
}

/// `F` on a stored answer opens it and asks for its fan-out coverage once it shows; on an
/// entry that is not an answer it says so and opens nothing.
#[test]
fn f_opens_a_stored_answer_and_asks_for_its_fanout_coverage() {
    let mut app = app();
    open_history(&mut app, 3);
    let effects = update(&mut app, key(KeyCode::Char('F')));
    assert_eq!(
        effects,
        vec![Effect::Store(StoreEffect::OpenHistory(EntryId(
            "e0".into()
        )))]
    );
    let completion = crate::api::Completion {
        model: "chatgpt".into(),
        completion: "<p>Lowa.</p>".into(),
        fanouts: vec!["hiking boots".into()],
        ..crate::api::Completion::default()
    };
    let prepared = crate::present::answer::prepare(
        crate::api::AiRequest::new("best hiking boots"),
        crate::api::Fetched {
            value: crate::api::AiAnswer::Completion(Box::new(completion)),
            body: "{}".into(),
            status: 200,
            content_type: "application/json".into(),
            elapsed: std::time::Duration::from_millis(900),
        },
    );
    update(
        &mut app,
        Msg::StoredOpened(Ok(crate::app::StoredView::Answer(Box::new(prepared)))),
    );
    assert_eq!(app.tab, Tab::Chat);
    assert!(
        matches!(
            app.popup,
            Some(crate::app::Popup::Confirm(
                crate::app::popup::Confirm::FanoutCoverage { searches: 1, .. }
            ))
        ),
        "{:?}",
        app.popup
    );
    // A search entry is not an answer.
    app.popup = None;
    app.tab = Tab::History;
    app.history.items[1].kind = RequestKind::Search;
    update(&mut app, key(KeyCode::Down));
    assert!(update(&mut app, key(KeyCode::Char('F'))).is_empty());
    assert!(format!("{:?}", app.flash).contains("not one"));
}

/// The first page shows before anything is counted: its rows are the listing until the
/// count comes (after it, from the store), and a count of an older listing is dropped.
#[test]
fn the_first_page_shows_before_its_count() {
    let mut app = app();
    let first = asked(&app.select_tab(Tab::History));
    assert!(first.count, "the first page asks for a count");
    let rows = (0..PAGE).map(item).collect();
    update(
        &mut app,
        Msg::HistoryPage(Page {
            request: first.clone(),
            result: Ok(PageRead {
                items: rows,
                total: None,
                entries: None,
            }),
        }),
    );
    assert!(app.history.loaded && !app.history.counted);
    assert_eq!(app.history.total, PAGE);
    assert_eq!(app.history.selected().unwrap().id.0, "e0");
    let stale = super::Count {
        generation: first.generation - 1,
        result: Ok((7, 7)),
    };
    update(&mut app, Msg::HistoryCounted(stale));
    assert!(!app.history.counted);
    let count = super::Count {
        generation: first.generation,
        result: Ok((50_000, 50_000)),
    };
    update(&mut app, Msg::HistoryCounted(count));
    assert!(app.history.counted);
    assert_eq!((app.history.total, app.history.entries), (50_000, 50_000));
    // Counted, the list reads on as the selection nears the end of the page.
    let mut next = None;
    for _ in 0..PAGE {
        let effects = update(&mut app, key(KeyCode::Down));
        if !effects.is_empty() {
            next = Some(asked(&effects));
            break;
        }
    }
    assert_eq!(next.map(|r| (r.offset, r.count)), Some((PAGE, false)));
}

/// Enter on an entry re-opens it as the runner does (`stored::prepare` of its request and
/// body) and returns what the form it lands in would send next.
fn reopen(app: &mut App, request: crate::store::RequestParams, body: &str) {
    open_history(app, 1);
    let effects = update(app, key(KeyCode::Enter));
    assert_eq!(
        effects,
        vec![Effect::Store(StoreEffect::OpenHistory(EntryId(
            "e0".into()
        )))]
    );
    let kind = request.job_kind().expect("a single call");
    let body = crate::store::Body {
        status: 200,
        text: body.into(),
        elapsed_ms: 900,
        received_at: 0,
    };
    let view = crate::app::stored::prepare(kind, Some(request), &body, "entry");
    update(app, Msg::StoredOpened(view));
}

/// What is on screen is what the next send sends: a re-opened entry's form holds its request,
/// model, device, place and format alike.
#[test]
fn a_reopened_answer_puts_its_request_in_the_chat_form() {
    let mut app = app();
    app.chat.set_prompt("another prompt");
    let request = crate::api::AiRequest {
        model: Some(crate::api::Model::Perplexity),
        device: Some("Pixel 8".into()),
        location: crate::api::Location {
            country: Some("DE".into()),
            subdivision: Some("BY".into()),
            city: Some("Munich".into()),
        },
        format: crate::api::AiFormat::ALL[1],
        ..crate::api::AiRequest::new("best hiking boots")
    };
    assert_ne!(request.format, crate::api::AiFormat::default());
    reopen(
        &mut app,
        crate::store::RequestParams::Ai(request.clone()),
        r#"{"model":"perplexity","completion":"<p>Lowa.</p>"}"#,
    );
    assert_eq!(app.tab, Tab::Chat);
    assert!(app.chat.answer.is_some(), "{:?}", app.flash);
    assert_eq!(app.chat.request(), request);
}

#[test]
fn a_reopened_search_puts_its_request_in_the_search_form() {
    let mut app = app();
    let request = crate::api::SearchRequest {
        serps: Some(2),
        ip: Some(crate::api::IpType::Isp),
        location: crate::api::Location {
            country: Some("FR".into()),
            subdivision: None,
            city: Some("Paris".into()),
        },
        language: Some("fr".into()),
        ..crate::api::SearchRequest::new("\"chaussures de randonnée\"")
    };
    reopen(
        &mut app,
        crate::store::RequestParams::Search(request.clone()),
        r#"{"results":[{"type":"organic","position":1,"url":"https://a.example/","title":"A"}]}"#,
    );
    assert_eq!(app.tab, Tab::Search);
    assert!(app.search.page.is_some(), "{:?}", app.flash);
    assert_eq!(app.search.request(), request);
}

#[test]
fn a_reopened_page_puts_its_request_in_the_page_form() {
    let mut app = app();
    let request = crate::api::BrowserRequest {
        device: Some("iPad Air".into()),
        location: crate::api::Location {
            country: Some("JP".into()),
            subdivision: None,
            city: None,
        },
        ..crate::api::BrowserRequest::new("https://shop.example.net/boots")
    };
    reopen(
        &mut app,
        crate::app::page::browser_params(&request),
        "<p>Boots</p>",
    );
    assert_eq!(app.page.requests(), vec![request]);
}
