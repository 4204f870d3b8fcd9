//! The Search tab on `TestBackend`: snapshots of results, filter, detail and HTML views; the
//! documented JSON sample and the live Google page; a flow against the simulator.

mod common;

use common::view::{demo_connection, draw, press, type_text};

use std::time::{Duration, Instant};
use vantage::app::{CallEffect, OsEffect};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use vantage::api::{
    Fetched, ResultImage, ResultKind, SearchAnswer, SearchRequest, SearchResult, SearchResults,
    Sitelink,
};
use vantage::app::search::SearchFocus;
use vantage::app::{App, Credits, Msg, Tab, update};
use vantage::present::search_page::{self, EntryKind, SearchView};
use vantage::sim::{SimConfig, Simulator};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/live");

fn app() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    app.credits = Credits::Known(990);
    app.tab = Tab::Search;
    app
}

fn organic(page: u32, position: u32, title: &str, site: &str) -> SearchResult {
    let slug = title.to_lowercase().replace(' ', "-");
    let json = serde_json::json!({
        "type": "organic", "page": page, "section": "main", "feature": 1, "position": position,
        "url": format!("https://www.{site}/{slug}"), "title": title, "site": site,
        "visibleUrl": format!("https://www.{site} › {slug}"), "date": null,
        "snippet": format!("{title}: boots tested on wet rock, scree and mud over three seasons, with notes on fit, weight and how long the soles last."),
        "rating": null, "votes": null, "sitelinks": [], "images": []
    });
    serde_json::from_value(json).unwrap()
}

/// Three pages: sitelinks and images on page 1, an also-asked entry, a top story, an
/// unknown type and related searches at the bottom.
fn sample_results() -> SearchResults {
    let mut results = Vec::new();
    let mut first = organic(1, 1, "Best Hiking Boots of 2026", "rei.com");
    first.kind = ResultKind::OrganicWithSitelinks;
    first.rating = Some(4.6);
    first.votes = Some(1284);
    first.sitelinks = vec![
        Sitelink {
            position: Some(1),
            url: "https://www.rei.com/c/hiking-boots".into(),
            title: "Hiking Boots".into(),
        },
        Sitelink {
            position: Some(2),
            url: "https://www.rei.com/c/womens-hiking-boots".into(),
            title: "Women's Boots".into(),
        },
    ];
    results.push(first);
    let mut second = organic(1, 2, "The 9 Best Hiking Boots", "switchbacktravel.com");
    second.date = Some("Mar 3, 2026".into());
    second.images = vec![
        ResultImage {
            position: Some(1),
            source: "data:image/png;base64,AAAA".into(),
            alt: "boots on a trail".into(),
        },
        ResultImage {
            position: Some(2),
            source: "https://img.example/boot.jpg".into(),
            alt: "a boot".into(),
        },
    ];
    results.push(second);
    results.push(
        serde_json::from_value(serde_json::json!({
            "type": "also-asked", "page": 1, "section": "main", "feature": 2, "position": 1,
            "question": "Are waterproof boots worth it?",
            "answer": {"heading": null, "description": "For wet climates, yes: a membrane keeps feet dry on long days.",
                       "date": null, "url": "https://www.outdoorgearlab.com/waterproof", "title": "Waterproof boots",
                       "site": "OutdoorGearLab", "visibleUrl": "https://www.outdoorgearlab.com"}
        }))
        .unwrap(),
    );
    results.push(
        serde_json::from_value(serde_json::json!({
            "type": "top-story", "page": 1, "section": "main", "feature": 3, "position": 1,
            "url": "https://news.example/boots", "publisher": "Trail News",
            "headline": "Boot makers race to lighter soles", "date": "2 hours ago", "image": null
        }))
        .unwrap(),
    );
    // An unknown type keeps its JSON, as the tolerant reader of a body does.
    let carousel = serde_json::json!({
        "type": "shopping-carousel", "page": 1, "section": "right", "feature": 4, "position": 1,
        "items": [1, 2, 3], "title": "Shop boots"
    });
    let mut unknown: SearchResult = serde_json::from_value(carousel.clone()).unwrap();
    unknown.raw = Some(carousel);
    results.push(unknown);
    for (page, titles) in [
        (2, ["Hiking Boot Buying Guide", "Merrell Moab 3 Review"]),
        (3, ["Salomon X Ultra 4 Review", "How to Break In Boots"]),
    ] {
        for (i, title) in titles.iter().enumerate() {
            results.push(organic(
                page,
                (page - 1) * 10 + i as u32 + 1,
                title,
                "example.com",
            ));
        }
    }
    results.push(
        serde_json::from_value(serde_json::json!({
            "type": "also-searched", "page": 3, "section": "bottom", "feature": 1, "position": 1,
            "url": "https://www.google.com/search?q=trail+runners", "query": "trail runners"
        }))
        .unwrap(),
    );
    SearchResults {
        engine: "google".into(),
        terms: "best hiking boots".into(),
        results_count: Some(results.len() as u64),
        page_count: Some(3),
        page_size: Some(10),
        approx_results_count: Some(255_000_000),
        results_offset: Some(0),
        country: Some("US".into()),
        subdivision: Some("NY".into()),
        city: Some("New York".into()),
        results,
        ..SearchResults::default()
    }
}

fn land(app: &mut App, answer: SearchAnswer, body: String) {
    type_text(app, "best hiking boots");
    press(app, KeyCode::Enter);
    let tag = app.search.call.tag().expect("sent");
    let fetched = Fetched {
        value: answer,
        body,
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(2300),
    };
    let prepared = search_page::prepare(SearchRequest::new("best hiking boots"), fetched);
    update(
        app,
        Msg::SearchDone {
            tag,
            result: Ok(Box::new(prepared)),
        },
    );
}

fn landed_sample() -> App {
    let mut app = app();
    land(
        &mut app,
        SearchAnswer::Results(Box::new(sample_results())),
        "{}".into(),
    );
    app
}

#[test]
fn empty_tab() {
    let mut app = app();
    insta::assert_snapshot!(draw(&mut app, 80, 24));
}

#[test]
fn a_multi_page_result_set_with_sitelinks_and_images() {
    let mut app = landed_sample();
    let text = draw(&mut app, 140, 44);
    for expected in [
        "Page 1",
        "Page 2",
        "Page 3",
        "Hiking Boots",
        "↳",
        "[inline image]",
        "★★★★★ 4.6 (1,284)",
        "Are waterproof boots worth it?",
        "Boot makers race",
        "[shopping-carousel]",
        "items: [3 items]",
    ] {
        assert!(text.contains(expected), "{expected} missing:\n{text}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn narrow_results() {
    let mut app = landed_sample();
    insta::assert_snapshot!(draw(&mut app, 80, 24));
}

#[test]
fn the_filter_shows_n_of_total() {
    let mut app = landed_sample();
    type_text(&mut app, "/review");
    let text = draw(&mut app, 140, 30);
    assert!(text.contains("filter › review"), "{text}");
    assert!(text.contains("2 of 10"), "{text}");
    assert!(text.contains("Merrell Moab 3 Review"));
    assert!(!text.contains("Best Hiking Boots of 2026"));
    insta::assert_snapshot!(text);
    // Enter keeps the filter and leaves the field; Esc there would clear it.
    press(&mut app, KeyCode::Enter);
    assert!(!app.search.page.as_ref().unwrap().filtering);
    assert_eq!(app.search.page.as_ref().unwrap().filter, "review");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.search.page.as_ref().unwrap().filter, "");
}

#[test]
fn a_sitelink_selected_with_its_detail() {
    let mut app = landed_sample();
    press(&mut app, KeyCode::Down);
    let page = app.search.page.as_ref().unwrap();
    assert!(matches!(
        page.selected_entry().unwrap().kind,
        EntryKind::Sitelink { result: 0, link: 0 }
    ));
    assert_eq!(
        page.selected_url().as_deref(),
        Some("https://www.rei.com/c/hiking-boots")
    );
    let text = draw(&mut app, 140, 40);
    assert!(text.contains("Sitelinks (2)"), "{text}");
    insta::assert_snapshot!(text);
    // o opens the sitelink, y copies it.
    assert_eq!(
        update(
            &mut app,
            Msg::Key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE))
        ),
        vec![vantage::app::Effect::Os(OsEffect::OpenUrl(
            "https://www.rei.com/c/hiking-boots".into()
        ))]
    );
}

#[test]
fn the_detail_pane_takes_the_screen_when_narrow() {
    let mut app = landed_sample();
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.search.focus, SearchFocus::Detail);
    let text = draw(&mut app, 80, 30);
    assert!(text.contains("Detail"), "{text}");
    assert!(
        text.contains("https://www.rei.com/best-hiking-boots-of-2026"),
        "{text}"
    );
    insta::assert_snapshot!(text);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.search.focus, SearchFocus::Results);
}

#[test]
fn n_and_p_jump_between_page_groups() {
    let mut app = landed_sample();
    press(&mut app, KeyCode::Char('n'));
    let page = app.search.page.as_ref().unwrap();
    assert_eq!(page.selected_entry().unwrap().page, 2);
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(
        app.search
            .page
            .as_ref()
            .unwrap()
            .selected_entry()
            .unwrap()
            .page,
        3
    );
    press(&mut app, KeyCode::Char('p'));
    assert_eq!(
        app.search
            .page
            .as_ref()
            .unwrap()
            .selected_entry()
            .unwrap()
            .page,
        2
    );
}

#[test]
fn n_on_the_last_loaded_page_fetches_the_results_after_it() {
    let mut app = landed_sample();
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Char('n'));
    assert!(app.search.call.tag().is_none(), "pages 2 and 3 are loaded");
    let effects = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::NONE)),
    );
    let sent = effects.iter().find_map(|e| match e {
        vantage::app::Effect::Call(CallEffect::SendSearch { request, .. }) => Some(request),
        _ => None,
    });
    let sent = sent.expect("n past page 3 searches for what follows");
    assert_eq!(sent.terms, "best hiking boots");
    assert_eq!(sent.offset, Some(30), "three pages of ten are loaded");
    assert_eq!(app.search.settings.offset, Some(30), "the form shows it");
}

#[test]
fn paging_stops_at_the_services_offset_limit() {
    let mut app = app();
    type_text(&mut app, "best hiking boots");
    press(&mut app, KeyCode::Enter);
    let tag = app.search.call.tag().expect("sent");
    let mut request = SearchRequest::new("best hiking boots");
    request.offset = Some(95);
    let fetched = Fetched {
        value: SearchAnswer::Results(Box::new(sample_results())),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(10),
    };
    let prepared = search_page::prepare(request, fetched);
    update(
        &mut app,
        Msg::SearchDone {
            tag,
            result: Ok(Box::new(prepared)),
        },
    );
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('n'));
    }
    assert!(app.search.call.tag().is_none());
    let flash = app
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(flash.contains("at most 100"), "{flash}");
}

#[test]
fn export_writes_csv_or_json() {
    let mut app = landed_sample();
    press(&mut app, KeyCode::Char('e'));
    for _ in 0..80 {
        press(&mut app, KeyCode::Backspace);
    }
    type_text(&mut app, "boots");
    let effects = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    match &effects[..] {
        [vantage::app::Effect::Os(OsEffect::WriteFile { path, contents, .. })] => {
            assert_eq!(path.to_str(), Some("boots.csv"));
            let contents = contents.make();
            let mut lines = contents.lines();
            assert!(
                lines
                    .next()
                    .unwrap()
                    .starts_with("page,section,feature,position,type,title,url")
            );
            assert_eq!(contents.lines().count(), 1 + 10);
            assert!(contents.contains("Hiking Boots <https://www.rei.com/c/hiking-boots>"));
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn invalid_settings_are_refused_at_the_field_before_sending() {
    let mut app = app();
    type_text(&mut app, "boots");
    press(&mut app, KeyCode::Tab);
    // pages is the first setting: type 11.
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "11");
    press(&mut app, KeyCode::Enter);
    assert!(app.popup.is_some(), "the input stays open");
    assert!(app.flash.as_ref().unwrap().text.contains("from 1 to 10"));
    for _ in 0..2 {
        press(&mut app, KeyCode::Backspace);
    }
    type_text(&mut app, "3");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.search.settings.serps, Some(3));
    // A city needs a country first.
    press(&mut app, KeyCode::Char('t'));
    assert!(app.popup.is_none());
    // Over-long terms are refused with the reason.
    app.search.set_terms(&"x".repeat(256));
    app.search.focus = SearchFocus::Terms;
    let effects = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    assert!(effects.is_empty());
    assert!(app.flash.as_ref().unwrap().text.contains("at most 255"));
    let text = draw(&mut app, 100, 24);
    assert!(text.contains("256/255"), "{text}");
}

#[test]
fn an_exact_phrase_is_kept_as_typed() {
    let mut app = app();
    type_text(&mut app, "\"best hiking boots\"");
    assert_eq!(app.search.request().terms, "\"best hiking boots\"");
}

#[test]
fn the_documented_json_sample_shows_every_entry() {
    let markdown = std::fs::read_to_string(format!("{FIXTURES}/search-json-sample.md")).unwrap();
    let body = common::fix_documented_json(&markdown);
    let results: SearchResults = serde_json::from_str(&body).unwrap();
    let mut app = app();
    land(
        &mut app,
        SearchAnswer::Results(Box::new(results.clone())),
        body,
    );
    let prepared = &app.search.page.as_ref().unwrap().prepared;
    assert_eq!(prepared.results.len(), 12);
    let text = draw(&mut app, 160, 90);
    for result in &results.results {
        let heading = result.heading();
        let shown: String = heading.chars().take(30).collect();
        assert!(text.contains(&shown), "{heading:?} missing:\n{text}");
    }
    assert!(text.contains("43 results (about 255,000,000)"), "{text}");
}

#[test]
fn the_live_google_page_reads_as_text_with_its_links_listed() {
    let html = std::fs::read_to_string(format!("{FIXTURES}/search-google-sample.html")).unwrap();
    let mut app = app();
    land(&mut app, SearchAnswer::Html(html.clone()), html);
    // The ranked results read from the page come first, as from a JSON page.
    let page = app.search.page.as_ref().unwrap();
    assert_eq!(page.view, SearchView::Results);
    assert!(page.prepared.results.len() >= 8);
    // Its CSV export holds those rows, as a JSON page's does.
    let csv = page.prepared.export_csv();
    assert!(csv.starts_with("page,section"), "{csv}");
    assert_eq!(csv.lines().count(), page.prepared.results.len() + 1);
    press(&mut app, KeyCode::Char(']'));
    let page = app.search.page.as_ref().unwrap();
    assert_eq!(page.view, SearchView::Page);
    let links = &page.prepared.html.as_ref().unwrap().links;
    let external = links
        .iter()
        .filter(|l| l.url.starts_with("http") && !l.url.contains("google."))
        .count();
    assert!(external > 10, "{external} result links");
    let text = draw(&mut app, 120, 40);
    assert!(text.contains("Page │ Links"), "{text}");
    insta::assert_snapshot!("google_page_text", text);
    press(&mut app, KeyCode::Char(']'));
    let text = draw(&mut app, 120, 40);
    assert!(text.contains("   1. "), "{text}");
    insta::assert_snapshot!("google_page_links", text);
}

#[test]
fn slash_searches_the_page_text_and_n_moves_on() {
    let html = std::fs::read_to_string(format!("{FIXTURES}/search-google-sample.html")).unwrap();
    let mut app = app();
    land(&mut app, SearchAnswer::Html(html.clone()), html);
    draw(&mut app, 120, 40);
    // From the ranked results to the page's text.
    press(&mut app, KeyCode::Char(']'));
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "mcp");
    press(&mut app, KeyCode::Enter);
    let total = app.search.find.as_ref().unwrap().found.len();
    assert!(total > 2, "{total} matches");
    press(&mut app, KeyCode::Char('n'));
    let text = draw(&mut app, 120, 40);
    assert!(text.contains(&format!("/mcp  2 of {total}")), "{text}");
    press(&mut app, KeyCode::Esc);
    assert!(app.search.find.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_from_a_city_over_three_pages_then_a_sitelink_detail() {
    let sim = Simulator::start(SimConfig {
        latency_scale: 0.0,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let (mut runner, mut rx) =
        vantage::tui::test_runner(common::client(&sim), data.path().to_path_buf());
    let mut app = app();
    app.tab = vantage::app::Tab::Chat;
    app.area = ratatui::layout::Rect::new(0, 0, 140, 44);
    let mut terminal = Terminal::new(TestBackend::new(140, 44)).unwrap();
    let (tx, events) = common::scripted_events();
    let key = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
    let send_text = |text: &str| {
        for c in text.chars() {
            tx.send(key(KeyCode::Char(c))).unwrap();
        }
    };
    tx.send(Event::Key(KeyEvent::new(
        KeyCode::Char('2'),
        KeyModifiers::ALT,
    )))
    .unwrap();
    send_text("best hiking boots");
    tx.send(key(KeyCode::Tab)).unwrap();
    tx.send(key(KeyCode::Enter)).unwrap(); // pages
    send_text("3");
    tx.send(key(KeyCode::Enter)).unwrap();
    tx.send(key(KeyCode::Char('c'))).unwrap();
    send_text("united states");
    tx.send(key(KeyCode::Enter)).unwrap();
    tx.send(key(KeyCode::Char('t'))).unwrap();
    send_text("chicago");
    tx.send(key(KeyCode::Enter)).unwrap();
    tx.send(key(KeyCode::Char('i'))).unwrap();
    tx.send(key(KeyCode::Enter)).unwrap();
    let looped = tokio::spawn(async move {
        let stats = vantage::tui::run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        (terminal, app, stats)
    });
    tokio::time::sleep(Duration::from_millis(1200)).await;
    tx.send(Event::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )))
    .unwrap();
    let (mut terminal, mut app, _stats) = tokio::time::timeout(Duration::from_secs(20), looped)
        .await
        .expect("the loop ends")
        .unwrap();
    let page = app.search.page.as_ref().expect("results landed");
    assert_eq!(page.prepared.request.serps, Some(3));
    assert_eq!(
        page.prepared.request.location.city.as_deref(),
        Some("Chicago")
    );
    assert_eq!(page.prepared.header.page_count, Some(3));
    let pages: std::collections::BTreeSet<u32> =
        page.prepared.results.iter().map(|r| r.page).collect();
    assert_eq!(pages.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
    // Where the first sitelink is among the selectable rows: that many Downs select it.
    let selectable: Vec<&vantage::present::search_page::Entry> = page
        .visible
        .iter()
        .map(|i| &page.prepared.entries[*i])
        .filter(|e| e.selectable())
        .collect();
    let downs = selectable
        .iter()
        .position(|e| matches!(e.kind, EntryKind::Sitelink { .. }))
        .expect("the simulator's results have sitelinks");
    let (result, link) = match selectable[downs].kind {
        EntryKind::Sitelink { result, link } => (result, link),
        _ => unreachable!(),
    };
    let sitelink = page.prepared.results[result].sitelinks[link].clone();

    // Back into the same app: select the sitelink and open its detail.
    app.should_quit = false;
    let (tx, events) = common::scripted_events();
    for _ in 0..downs {
        tx.send(key(KeyCode::Down)).unwrap();
    }
    tx.send(key(KeyCode::Enter)).unwrap();
    let (mut runner, mut rx) =
        vantage::tui::test_runner(common::client(&sim), data.path().to_path_buf());
    let looped = tokio::spawn(async move {
        vantage::tui::run_loop(&mut terminal, events, &mut app, &mut runner, &mut rx)
            .await
            .unwrap();
        (terminal, app)
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    tx.send(Event::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )))
    .unwrap();
    let (terminal, app) = tokio::time::timeout(Duration::from_secs(20), looped)
        .await
        .expect("the loop ends")
        .unwrap();
    let page = app.search.page.as_ref().unwrap();
    assert!(matches!(
        page.selected_entry().unwrap().kind,
        EntryKind::Sitelink { .. }
    ));
    assert_eq!(page.selected_url().as_deref(), Some(sitelink.url.as_str()));
    let text = terminal.backend().to_string();
    assert!(text.contains("Chicago"), "{text}");
    assert!(text.contains("Detail"), "{text}");
    assert!(text.contains("sitelink"), "{text}");
    assert!(text.contains(&sitelink.url), "{text}");
    sim.shutdown().await;
}

/// Enter sends from the terms only: out of them it names the key that sends, which does.
#[test]
fn out_of_the_terms_enter_names_the_key_that_searches() {
    let mut app = app();
    type_text(&mut app, "boots");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.search.focus, SearchFocus::Results);
    let effects = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    assert!(effects.is_empty(), "{effects:?}");
    let effects = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('R'), KeyModifiers::SHIFT)),
    );
    assert!(matches!(
        effects.as_slice(),
        [vantage::app::Effect::Call(CallEffect::SendSearch { .. })]
    ));
}

#[test]
fn at_80_by_24_the_results_get_most_rows_and_the_settings_fold() {
    let mut app = landed_sample();
    let text = draw(&mut app, 80, 24);
    let body = app.frame_areas().body;
    let areas = vantage::app::search::search_areas(&app.search, body);
    assert_eq!(areas.settings.height, 1, "{text}");
    assert!(
        areas.list.height >= 17,
        "the list has {} rows",
        areas.list.height
    );
    // The settings come back when they have the focus.
    app.search.focus = SearchFocus::Settings;
    let areas = vantage::app::search::search_areas(&app.search, body);
    assert!(areas.settings.height >= 3);
}

/// The Search tab's device picker, from the results page's own list (`/search/devices`): a
/// phone chosen is sent and shown in the settings row; desktop is none; a name the list
/// lacks is refused in the picker.
#[test]
fn the_device_picker_reads_the_search_list_and_a_phone_is_sent() {
    let mut app = app();
    app.search_devices = vantage::app::Devices::Loaded(
        ["iPad Mini", "iPhone 15", "iPhone 15 Pro", "Pixel 7"]
            .map(String::from)
            .to_vec(),
    );
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('d'));
    type_text(&mut app, "iphone 15");
    insta::assert_snapshot!(draw(&mut app, 80, 24));
    press(&mut app, KeyCode::Enter);
    assert!(app.popup.is_none());
    assert_eq!(app.search.settings.device.as_deref(), Some("iPhone 15"));
    assert_eq!(app.search.request().device.as_deref(), Some("iPhone 15"));
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("device iPhone 15"), "{screen}");

    press(&mut app, KeyCode::Char('d'));
    type_text(&mut app, "Nokia 3310");
    press(&mut app, KeyCode::Enter);
    let screen = draw(&mut app, 80, 24);
    assert!(
        screen.contains("Nokia N9") || screen.contains("nearest"),
        "{screen}"
    );
    assert_eq!(app.search.settings.device.as_deref(), Some("iPhone 15"));

    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('d'));
    type_text(&mut app, "desktop");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.search.settings.device, None);
    assert_eq!(app.search.request().device, None);
}
