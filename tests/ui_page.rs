//! The AI overview pane of Search, the Page tab (one shop page from three countries and the
//! word diff of two), page jobs in the Jobs pane, and the usage overlay: pages from the
//! simulator on 127.0.0.1:0, drawn on `TestBackend`.

mod common;

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use time::OffsetDateTime;
use vantage::api::{Awaiting, BrowserRequest, JobId, JobKind, SearchFormat, SearchRequest};
use vantage::app::call::CallState;
use vantage::app::page::{DiffState, PageView};
use vantage::app::{App, CallEffect, Credits, Effect, Msg, StoreEffect, StoredView, Tab, Tag};
use vantage::app::{jobs_tab, update};
use vantage::jobs::PollOutcome;
use vantage::present::usage::{ServiceTotal, UsageSummary};
use vantage::present::{page, search_page};
use vantage::store::{Body, NewJob, RequestParams};

use common::view::{demo_connection, draw, press};

const SHOP: &str = "https://shop.example.net/boots";

fn app(tab: Tab) -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    app.credits = Credits::Known(990);
    app.tab = tab;
    app
}

/// A results page with its AI overview, as the simulator writes it, landed in Search.
async fn search_with_overview() -> App {
    search_awaiting_the_overview(SearchFormat::Html).await
}

async fn search_awaiting_the_overview(format: SearchFormat) -> App {
    let sim = common::start(common::quick()).await;
    let client = common::client(&sim);
    let request = SearchRequest {
        format,
        awaiting: vec![Awaiting::Ai],
        ..SearchRequest::new("best hiking boots")
    };
    let mut fetched = client.search(&request).await.unwrap();
    // What varies from run to run is not what the snapshot is about.
    fetched.elapsed = Duration::from_millis(2_300);
    let prepared = search_page::prepare(request, fetched);
    let mut app = app(Tab::Search);
    app.search.call = CallState::running(Tag(1), app.now, "Searching".into(), None);
    update(
        &mut app,
        Msg::SearchDone {
            tag: Tag(1),
            result: Ok(Box::new(prepared)),
        },
    );
    app
}

#[tokio::test]
async fn search_shows_the_overview_with_its_sources_and_questions() {
    let mut app = search_with_overview().await;
    let page = app.search.page.as_ref().unwrap();
    assert!(page.overview.open);
    assert!(!page.prepared.related_questions.is_empty());
    // Shift+Tab from the results: the pane, its first source picked.
    press(&mut app, KeyCode::BackTab);
    insta::assert_snapshot!("search_overview_pane", draw(&mut app, 110, 40));
    // At 80×24 the pane keeps to two fifths and folds with A.
    let small = draw(&mut app, 80, 24);
    assert!(small.contains("AI overview"), "{small}");
    press(&mut app, KeyCode::Char('A'));
    insta::assert_snapshot!("search_overview_folded_80x24", draw(&mut app, 80, 24));
}

#[tokio::test]
async fn a_json_page_awaiting_the_overview_shows_it_beside_the_ranked_rows() {
    let mut app = search_awaiting_the_overview(SearchFormat::Json).await;
    let page = app.search.page.as_ref().unwrap();
    assert!(
        page.overview.open,
        "the JSON page's overview opens its pane"
    );
    // Not a row of its own: no unknown `???` row, and the banner does not deny it.
    assert!(
        page.prepared
            .results
            .iter()
            .all(|r| !matches!(&r.kind, vantage::api::ResultKind::Other(k) if k == "ai-overview"))
    );
    let screen = draw(&mut app, 110, 40);
    assert!(!screen.contains("???"), "{screen}");
    assert!(!screen.contains("No AI overview"), "{screen}");
    assert!(screen.contains("AI overview"), "{screen}");
    insta::assert_snapshot!("search_overview_from_json", screen);
}

/// The shop page from the US, Germany and Japan, landed in the Page tab with its diff.
async fn shop_from_three_countries() -> App {
    let sim = common::start(common::quick()).await;
    let client = common::client(&sim);
    let mut app = app(Tab::Page);
    app.page.set_url(SHOP);
    app.page.settings.location.country = Some("US".into());
    app.page.settings.also_from = vec!["DE".into(), "JP".into()];
    app.page.focus = vantage::app::page::PageFocus::Url;
    let effects = press(&mut app, KeyCode::Enter);
    let sent: Vec<(Tag, BrowserRequest)> = effects
        .into_iter()
        .filter_map(|e| match e {
            Effect::Call(CallEffect::FetchPage { tag, request }) => Some((tag, request)),
            _ => None,
        })
        .collect();
    assert_eq!(sent.len(), 3);
    let mut diff_asked = None;
    for (tag, request) in sent {
        let mut fetched = client.browser(&request).await.unwrap();
        fetched.elapsed = Duration::from_millis(800);
        let prepared = page::prepare(request, fetched);
        let effects = update(
            &mut app,
            Msg::PageDone {
                tag,
                result: Ok(Box::new(prepared)),
            },
        );
        for effect in effects {
            if let Effect::Call(CallEffect::DiffPages { tag, left, right }) = effect {
                diff_asked = Some((tag, left, right));
            }
        }
    }
    let (tag, left, right) = diff_asked.expect("a diff once two pages are in");
    let diff = page::diff(&left, &right);
    update(
        &mut app,
        Msg::PageDiffed {
            tag,
            diff: Box::new(diff),
        },
    );
    app
}

#[tokio::test]
async fn the_page_tab_diffs_a_shop_page_seen_from_two_countries() {
    let mut app = shop_from_three_countries().await;
    let DiffState::Ready(diff) = &app.page.diff else {
        panic!("no diff");
    };
    assert_eq!((diff.left.as_str(), diff.right.as_str()), ("US", "DE"));
    assert!(diff.removed > 0 && diff.added > 0, "{diff:?}");
    // The three pages differ in language and prices.
    let plains: Vec<String> = app
        .page
        .fetches
        .iter()
        .map(|f| f.page.as_ref().unwrap().plain.clone())
        .collect();
    assert_ne!(plains[0], plains[1]);
    assert_ne!(plains[1], plains[2]);
    assert!(plains[2].contains('¥'), "{}", plains[2]);

    insta::assert_snapshot!("page_seen_from_the_us", draw(&mut app, 100, 30));
    for _ in 0..4 {
        press(&mut app, KeyCode::Char(']'));
    }
    assert_eq!(app.page.view, PageView::Diff);
    insta::assert_snapshot!("page_diff_us_de", draw(&mut app, 100, 30));
    let small = draw(&mut app, 80, 24);
    assert!(small.contains("US → DE"), "{small}");

    // p diffs the next pair: the form's own page with the third country's.
    let effects = press(&mut app, KeyCode::Char('p'));
    let [Effect::Call(CallEffect::DiffPages { tag, left, right })] = effects.as_slice() else {
        panic!("not one diff: {effects:?}");
    };
    let diff = page::diff(left, right);
    update(
        &mut app,
        Msg::PageDiffed {
            tag: *tag,
            diff: Box::new(diff),
        },
    );
    assert_eq!(app.page.view, PageView::Diff);
    insta::assert_snapshot!("page_diff_us_jp", draw(&mut app, 100, 30));
}

#[test]
fn the_empty_page_tab_says_what_to_do() {
    let mut app = app(Tab::Page);
    insta::assert_snapshot!("page_empty_80x24", draw(&mut app, 80, 24));
}

#[test]
fn an_async_page_request_is_a_browser_job_in_the_jobs_pane() {
    let mut app = app(Tab::Page);
    app.page.set_url("https://example.com");
    app.page.settings.format = vantage::api::BrowserFormat::Markdown;
    app.page.settings.async_mode = true;
    let effects = press(&mut app, KeyCode::Enter);
    // The settings set above are remembered with the first message after them.
    let effects: Vec<Effect> = effects
        .into_iter()
        .filter(|e| !matches!(e, Effect::Os(vantage::app::OsEffect::SaveSettings(_))))
        .collect();
    let [Effect::Call(CallEffect::SubmitJob { request, .. })] = effects.as_slice() else {
        panic!(
            "not one job: {effects:?} {:?}",
            app.flash.as_ref().map(|f| &f.text)
        );
    };
    // The runner submits it and records the job; the pane lists it.
    let id = JobId::parse("00000000-0000-4000-8000-000000000007").unwrap();
    let record = jobs_tab::record_of(&NewJob::submitted(id.clone(), request.clone()));
    update(&mut app, Msg::JobQueued(Ok(record)));
    // A minute on, the scheduler polls it like any other job.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    app.set_wall(now + 60_000);
    let effects = update(&mut app, Msg::JobsWake);
    assert!(
        effects.iter().any(|e| matches!(
            e,
            Effect::Call(CallEffect::PollJob {
                kind: JobKind::Browser,
                ..
            })
        )),
        "{effects:?}"
    );
    update(
        &mut app,
        Msg::JobPolled {
            id: id.clone(),
            outcome: PollOutcome::Ready,
            result: Some(Body {
                status: 200,
                text: "# Example Domain\n\nThis domain is for use in examples.\n".into(),
                elapsed_ms: 40,
                received_at: 1_700_000_000_000,
            }),
        },
    );
    app.tab = Tab::Jobs;
    let screen = draw(&mut app, 100, 12);
    assert!(screen.contains("browser"), "{screen}");
    assert!(screen.contains("https://example.com"), "{screen}");
    let effects = press(&mut app, KeyCode::Enter);
    let flash = app.flash.as_ref().map(|f| f.text.clone());
    assert!(
        effects.iter().any(|e| matches!(
            e,
            Effect::Store(StoreEffect::OpenJob { kind: JobKind::Browser, id: opened, .. }) if *opened == id
        )),
        "{effects:?} {flash:?} {screen}"
    );
    // The stored Markdown opens as text, line for line.
    let opened = vantage::app::stored::prepare(
        JobKind::Browser,
        Some(RequestParams::Browser(
            serde_json::json!({"url": "https://example.com"}),
        )),
        &Body {
            status: 200,
            text: "# Example Domain\n\nThis domain is for use in examples.\n".into(),
            elapsed_ms: 40,
            received_at: 1_700_000_000_000,
        },
        "browser job 00000007",
    );
    assert!(matches!(opened, Ok(StoredView::Text { .. })));
    update(&mut app, Msg::StoredOpened(opened));
    let screen = draw(&mut app, 100, 12);
    assert!(screen.contains("# Example Domain"), "{screen}");
}

#[test]
fn the_usage_overlay_shows_todays_credits_by_service_and_hour() {
    let mut app = app(Tab::Jobs);
    let effects = press(&mut app, KeyCode::Char('$'));
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::Call(CallEffect::FetchUsage(_))]
        ),
        "{effects:?}"
    );
    app.usage.since = Some(OffsetDateTime::from_unix_timestamp(1_700_006_400).unwrap());
    let mut hourly = vec![0; 14];
    hourly[9] = 3;
    hourly[12] = 9;
    hourly[13] = 2;
    update(
        &mut app,
        Msg::Usage(Ok(UsageSummary {
            by_service: vec![
                ServiceTotal {
                    service: "browser".into(),
                    calls: 4,
                    failed_calls: 1,
                    credits: 4,
                    mean_secs: 1.5,
                },
                ServiceTotal {
                    service: "search".into(),
                    calls: 10,
                    failed_calls: 0,
                    credits: 10,
                    mean_secs: 2.0,
                },
            ],
            credits: 14,
            hourly,
            first_hour: None,
        })),
    );
    insta::assert_snapshot!("usage_overlay_80x24", draw(&mut app, 80, 24));
    // A second call soon after does not ask again; $ closes.
    let effects = update(&mut app, Msg::Account(Ok(Default::default())));
    assert!(effects.is_empty(), "{effects:?}");
    press(&mut app, KeyCode::Char('$'));
    assert!(!draw(&mut app, 80, 24).contains("Usage"));
}

#[tokio::test]
async fn the_page_tab_says_when_the_domain_does_not_exist() {
    let sim = common::start(common::quick()).await;
    let client = common::client(&sim);
    let mut app = app(Tab::Page);
    app.page.set_url("https://shop.invalid/boots");
    app.page.focus = vantage::app::page::PageFocus::Url;
    let effects = press(&mut app, KeyCode::Enter);
    let [Effect::Call(CallEffect::FetchPage { tag, request })] = effects.as_slice() else {
        panic!("not one fetch: {effects:?}");
    };
    let error = client.browser(request).await.unwrap_err();
    update(
        &mut app,
        Msg::PageDone {
            tag: *tag,
            result: Err(error),
        },
    );
    let screen = draw(&mut app, 160, 30);
    assert!(
        screen.contains("\"Domain is nonexistant\" (404)"),
        "{screen}"
    );
}
