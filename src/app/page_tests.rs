use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::api::Fetched;
use crate::app::{Connection, Msg, Tab, update};
use crate::present::page::{self, PreparedPage};

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
    app.tab = Tab::Page;
    app
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn prepared(request: &BrowserRequest, html: &str) -> Box<PreparedPage> {
    Box::new(page::prepare(
        request.clone(),
        Fetched {
            value: html.to_string(),
            body: html.to_string(),
            status: 200,
            content_type: "text/html".into(),
            elapsed: Duration::from_millis(300),
        },
    ))
}

fn fetches(effects: &[Effect]) -> Vec<(Tag, BrowserRequest)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Call(CallEffect::FetchPage { tag, request }) => Some((*tag, request.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn one_url_is_fetched_from_each_country_and_the_first_two_are_diffed() {
    let mut app = app();
    app.page.set_url("https://shop.example.net/boots");
    app.page.settings.location.country = Some("US".into());
    app.page.focus = PageFocus::View;
    // C picks a country to compare, twice; the picker checks those compared, and choosing
    // a checked one removes it alone.
    let pick = |app: &mut App, country: &str| {
        update(app, key(KeyCode::Char('C')));
        assert!(matches!(app.popup, Some(Popup::Picker(_))));
        app.popup = None;
        apply_choice(app, PickerKind::Country, Some(country.into()));
    };
    pick(&mut app, "DE");
    pick(&mut app, "JP");
    assert_eq!(app.page.settings.also_from, ["DE", "JP"]);
    pick(&mut app, "FR");
    assert_eq!(app.page.settings.also_from, ["DE", "JP"], "at most two");
    update(&mut app, key(KeyCode::Char('C')));
    let Some(Popup::Picker(picker)) = &app.popup else {
        panic!("the country picker")
    };
    assert_eq!(
        picker.checked.as_deref(),
        Some(&["DE".to_string(), "JP".to_string()][..])
    );
    app.popup = None;
    apply_choice(&mut app, PickerKind::Country, Some("DE".into()));
    assert_eq!(
        app.page.settings.also_from,
        ["JP"],
        "one removed, the other kept"
    );
    pick(&mut app, "DE");
    assert_eq!(app.page.settings.also_from, ["JP", "DE"]);
    app.page.settings.also_from = vec!["DE".into(), "JP".into()];
    assert_eq!(app.page.settings.location.country.as_deref(), Some("US"));

    app.page.focus = PageFocus::Url;
    let effects = update(&mut app, key(KeyCode::Enter));
    let sent = fetches(&effects);
    let countries: Vec<_> = sent
        .iter()
        .map(|(_, r)| r.location.country.clone().unwrap_or_default())
        .collect();
    assert_eq!(countries, ["US", "DE", "JP"]);
    assert!(
        sent.iter()
            .all(|(_, r)| r.url == "https://shop.example.net/boots")
    );
    assert_eq!(app.page.running(), 3);
    assert_eq!(app.in_flight(), 3);

    let html = |price: &str| format!("<h1>Boots</h1><p>Price {price}</p>");
    // Germany lands, then Japan: no diff until the form's own page is in.
    for (i, price) in [(1, "110 €"), (2, "¥17,000")] {
        let effects = update(
            &mut app,
            Msg::PageDone {
                tag: sent[i].0,
                result: Ok(prepared(&sent[i].1, &html(price))),
            },
        );
        assert!(
            !effects
                .iter()
                .any(|e| matches!(e, Effect::Call(CallEffect::DiffPages { .. })))
        );
    }
    let effects = update(
        &mut app,
        Msg::PageDone {
            tag: sent[0].0,
            result: Ok(prepared(&sent[0].1, &html("$120"))),
        },
    );
    let Some(Effect::Call(CallEffect::DiffPages { tag, left, right })) = effects
        .iter()
        .find(|e| matches!(e, Effect::Call(CallEffect::DiffPages { .. })))
        .cloned()
    else {
        panic!("no diff asked: {effects:?}");
    };
    // The first two vantage points of the form, whatever order they landed in.
    assert_eq!((left.label.as_str(), right.label.as_str()), ("US", "DE"));
    let diff = page::diff(&left, &right);
    update(
        &mut app,
        Msg::PageDiffed {
            tag,
            diff: Box::new(diff),
        },
    );
    assert!(matches!(app.page.diff, DiffState::Ready(_)));
    assert_eq!(
        app.page.views(),
        [
            PageView::Seen(0),
            PageView::Seen(1),
            PageView::Seen(2),
            PageView::Links,
            PageView::Diff
        ]
    );
    // ] walks the views to the diff.
    for _ in 0..4 {
        update(&mut app, key(KeyCode::Char(']')));
    }
    assert_eq!(app.page.view, PageView::Diff);

    // p diffs the next pair: the form's own with the third, then the two compared, then
    // round again; each asks a new diff whose answer replaces the one shown.
    let mut pairs = Vec::new();
    for _ in 0..3 {
        let effects = update(&mut app, key(KeyCode::Char('p')));
        let [Effect::Call(CallEffect::DiffPages { tag, left, right })] = effects.as_slice() else {
            panic!("not one diff: {effects:?}");
        };
        assert!(matches!(app.page.diff, DiffState::Running(t) if t == *tag));
        pairs.push(format!("{}–{}", left.label, right.label));
        let diff = page::diff(left, right);
        update(
            &mut app,
            Msg::PageDiffed {
                tag: *tag,
                diff: Box::new(diff),
            },
        );
        let DiffState::Ready(shown) = &app.page.diff else {
            panic!("no diff shown");
        };
        assert_eq!(
            format!("{}–{}", shown.left, shown.right),
            pairs[pairs.len() - 1]
        );
    }
    assert_eq!(pairs, ["US–JP", "DE–JP", "US–DE"]);
    assert_eq!(app.page.view, PageView::Diff);
}

#[test]
fn with_two_pages_there_is_no_other_pair_to_choose() {
    let mut app = app();
    app.page.set_url("https://shop.example.net/boots");
    app.page.settings.also_from = vec!["DE".into()];
    let sent = fetches(&update(&mut app, key(KeyCode::Enter)));
    for (tag, request) in &sent {
        update(
            &mut app,
            Msg::PageDone {
                tag: *tag,
                result: Ok(prepared(request, "<p>Boots</p>")),
            },
        );
    }
    assert!(matches!(app.page.diff, DiffState::Running(_)));
    let effects = update(&mut app, key(KeyCode::Char('p')));
    assert!(effects.is_empty(), "{effects:?}");
    let flash = app
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(flash.contains("add a country with C"), "{flash}");
}

#[test]
fn a_country_that_failed_gives_its_place_in_the_diff_to_the_next() {
    let mut app = app();
    app.page.set_url("https://shop.example.net/boots");
    app.page.settings.also_from = vec!["DE".into(), "JP".into()];
    let sent = fetches(&update(&mut app, key(KeyCode::Enter)));
    let land = |app: &mut App, i: usize, result| {
        update(
            app,
            Msg::PageDone {
                tag: sent[i].0,
                result,
            },
        )
    };
    let failed = Err(ApiError::Cancelled);
    assert!(land(&mut app, 2, Ok(prepared(&sent[2].1, "<p>¥</p>"))).len() == 1);
    assert!(land(&mut app, 1, failed).len() == 1, "only the balance");
    let effects = land(&mut app, 0, Ok(prepared(&sent[0].1, "<p>$</p>")));
    let diffed: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Call(CallEffect::DiffPages { left, right, .. }) => {
                Some((left.label.clone(), right.label.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(diffed, [("any".to_string(), "JP".to_string())]);
}

#[test]
fn esc_cancels_the_pages_still_on_their_way() {
    let mut app = app();
    app.page.set_url("https://shop.example.net/boots");
    app.page.settings.also_from = vec!["DE".into()];
    let sent = fetches(&update(&mut app, key(KeyCode::Enter)));
    update(
        &mut app,
        Msg::PageDone {
            tag: sent[0].0,
            result: Ok(prepared(&sent[0].1, "<p>Boots</p>")),
        },
    );
    let effects = update(&mut app, key(KeyCode::Esc));
    assert_eq!(effects, vec![Effect::Call(CallEffect::Cancel(sent[1].0))]);
    assert_eq!(app.page.running(), 0);
}

#[test]
fn async_mode_queues_a_browser_job_per_vantage_point() {
    let mut app = app();
    app.page.set_url("https://example.com");
    app.page.settings.format = BrowserFormat::Markdown;
    app.page.settings.async_mode = true;
    app.page.settings.also_from = vec!["FR".into()];
    let effects = update(&mut app, key(KeyCode::Enter));
    // The settings set above are remembered with the first message after them.
    let effects: Vec<&Effect> = effects
        .iter()
        .filter(|e| !matches!(e, Effect::Os(crate::app::OsEffect::SaveSettings(_))))
        .collect();
    assert_eq!(effects.len(), 2, "{effects:?}");
    for effect in effects {
        let Effect::Call(CallEffect::SubmitJob { request, .. }) = effect else {
            panic!("not a job: {effect:?}");
        };
        assert_eq!(request.job_kind(), Some(crate::api::JobKind::Browser));
        let RequestParams::Browser(value) = request else {
            panic!("not a page request: {request:?}");
        };
        assert_eq!(value["format"], "markdown", "{value}");
    }
    assert!(app.page.fetches.is_empty());
}

#[test]
fn a_bad_address_is_refused_before_anything_leaves() {
    let mut app = app();
    app.page.set_url("example.com");
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(effects.is_empty());
    let flash = app
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(flash.contains("not a web address"), "{flash}");
}

/// Reading a page never fetches it again: Enter over it sends nothing and names the key that
/// does. Quitting asks only while a page is still on its way.
#[test]
fn enter_over_a_page_fetches_nothing_and_quit_follows_the_fetch() {
    let mut app = app();
    app.page.set_url("https://shop.example.net/boots");
    let sent = fetches(&update(&mut app, key(KeyCode::Enter)));
    assert_eq!(sent.len(), 1);
    assert_eq!(app.page.focus, PageFocus::View);
    update(&mut app, key(KeyCode::Char('q')));
    assert!(matches!(
        app.popup,
        Some(Popup::Confirm(crate::app::Confirm::Quit { calls: 1 }))
    ));
    update(
        &mut app,
        Msg::Landed {
            tag: sent[0].0,
            bytes: 300,
        },
    );
    assert!(matches!(
        app.popup,
        Some(Popup::Confirm(crate::app::Confirm::Quit { calls: 0 }))
    ));
    app.popup = None;
    update(
        &mut app,
        Msg::PageDone {
            tag: sent[0].0,
            result: Ok(prepared(&sent[0].1, "<p>Boots</p>")),
        },
    );
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(fetches(&effects).is_empty(), "{effects:?}");
    assert!(format!("{:?}", app.flash).contains("R sends the form again"));
    let again = KeyEvent::new(KeyCode::Char('R'), KeyModifiers::SHIFT);
    assert_eq!(fetches(&update(&mut app, Msg::Key(again))).len(), 1);
}
