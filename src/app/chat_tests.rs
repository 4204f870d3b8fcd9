//! The Chat tab's answer views without a terminal: keys in, state and effects out.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::ChatFocus;
use crate::api::{AiAnswer, Completion, Fetched};
use crate::app::{App, CallEffect, Effect, Msg, OsEffect, Tab, update};
use crate::present::answer::{self, AnswerView};

use crate::app::test_support::demo_app;

use crate::app::test_support::key;

/// An app with an answer on screen that cites two sources and searched two fanouts.
fn app_with_an_answer() -> App {
    let mut app = demo_app();
    for c in "hi".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    let effects = update(&mut app, key(KeyCode::Enter));
    let tag = effects
        .iter()
        .find_map(|e| match e {
            Effect::Call(CallEffect::SendAi { tag, .. }) => Some(*tag),
            _ => None,
        })
        .expect("a request was sent");
    let completion = Completion {
        model: "chatgpt".into(),
        query: "hi".into(),
        completion: "<p>Hello <a href=\"https://a.example/x\">A</a></p>".into(),
        sources: "<a href=\"https://b.example/\">B</a>".into(),
        fanouts: vec!["first query".into(), "second query".into()],
        ..Completion::default()
    };
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(1500),
    };
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(Box::new(answer::prepare(
                crate::api::AiRequest {
                    device: Some("iPhone 15".into()),
                    location: crate::api::Location {
                        country: Some("US".into()),
                        subdivision: Some("CO".into()),
                        city: Some("Denver".into()),
                    },
                    ..crate::api::AiRequest::new("hi")
                },
                fetched,
            ))),
        },
    );
    assert_eq!(app.chat.focus, ChatFocus::Answer);
    app
}

fn show_view(app: &mut App, view: AnswerView) {
    for _ in 0..8 {
        if app.chat.answer.as_ref().map(|a| a.view) == Some(view) {
            return;
        }
        update(app, key(KeyCode::Char(']')));
    }
    panic!("the answer has no {view:?} view");
}

#[test]
fn enter_on_a_fanout_searches_it_from_the_answers_place_with_focus_on_the_results() {
    let mut app = app_with_an_answer();
    show_view(&mut app, AnswerView::Fanouts);
    update(&mut app, key(KeyCode::Down));
    // What the status bar and help name for Enter here: the row (its link, its mention in the
    // answer, or Search for a fanout), not "send".
    let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    let contexts = app.key_contexts();
    let nearest = app
        .keys
        .bindings(contexts[0])
        .find(|b| b.keys.iter().any(|k| k.code == enter.code))
        .map(|b| b.help);
    assert_eq!(nearest, Some("open the row"));
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Call(CallEffect::SendAi { .. }))),
        "Enter in Fanouts sent the prompt again: {effects:?}"
    );
    assert_eq!(app.tab, Tab::Search);
    assert_eq!(app.search.terms_text(), "second query");
    // Sent at once, from where the model answered, and the focus where results land, so
    // that the next key is a command, not text.
    let sent = effects.iter().find_map(|e| match e {
        Effect::Call(CallEffect::SendSearch { request, .. }) => Some(request),
        _ => None,
    });
    let sent = sent.expect("the fanout was searched");
    assert_eq!(sent.terms, "second query");
    assert_eq!(sent.location.city.as_deref(), Some("Denver"));
    assert_eq!(sent.location.subdivision.as_deref(), Some("CO"));
    assert_eq!(app.search.focus, crate::app::search::SearchFocus::Results);
    let flash = format!("{:?}", app.flash);
    assert!(flash.contains("iPhone 15 is not emulated"), "{flash}");
}

#[test]
fn enter_on_a_source_opens_it() {
    let mut app = app_with_an_answer();
    show_view(&mut app, AnswerView::Sources);
    let effects = update(&mut app, key(KeyCode::Enter));
    assert_eq!(
        effects,
        vec![Effect::Os(OsEffect::OpenUrl("https://b.example/".into()))]
    );
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, key(KeyCode::Char(c)));
    }
}

#[test]
fn slash_searches_the_answer_and_n_moves_between_matches() {
    let mut app = app_with_an_answer();
    update(&mut app, key(KeyCode::Char('/')));
    assert!(app.editing(), "keys type into the search");
    type_text(&mut app, "LO");
    let find = app.chat.find.as_ref().expect("a search is open");
    assert_eq!(find.found.len(), 1, "Hello, without case");
    assert_eq!(find.status(), "1 of 1");
    // Enter keeps the search and gives the keys back; Esc drops it.
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(effects.is_empty(), "Enter in the search sends nothing");
    assert!(!app.editing());
    update(&mut app, key(KeyCode::Char('n')));
    assert_eq!(app.chat.find.as_ref().map(|f| f.current), Some(0));
    update(&mut app, key(KeyCode::Esc));
    assert!(app.chat.find.is_none());

    update(&mut app, key(KeyCode::Char('/')));
    type_text(&mut app, "zzz");
    assert_eq!(app.chat.find.as_ref().unwrap().status(), "no match");
    update(&mut app, key(KeyCode::Esc));
    assert!(app.chat.find.is_none());
    assert!(!app.editing());
}

/// A results page whose organic results are on these hosts, in this order.
fn results_on(hosts: &[&str]) -> Box<crate::present::search_page::PreparedSearch> {
    use crate::api::{SearchAnswer, SearchRequest, SearchResults};
    let results: Vec<serde_json::Value> = hosts
        .iter()
        .enumerate()
        .map(|(i, host)| {
            serde_json::json!({
                "type": "organic",
                "position": i + 1,
                "url": format!("https://{host}/page"),
                "title": format!("A page on {host}"),
            })
        })
        .collect();
    let results: SearchResults =
        serde_json::from_value(serde_json::json!({ "results": results })).unwrap();
    let fetched = Fetched {
        value: SearchAnswer::Results(Box::new(results)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(800),
    };
    Box::new(crate::present::search_page::prepare(
        SearchRequest::default(),
        fetched,
    ))
}

#[test]
fn f_asks_before_searching_each_fanout_and_reads_who_ranks() {
    let mut app = app_with_an_answer();
    app.brands = vec![crate::analysis::mentions::Brand {
        name: "REI".into(),
        domains: vec!["rei.com".into()],
        ..crate::analysis::mentions::Brand::default()
    }];
    app.credits = crate::app::Credits::Known(120);
    // The cost first: nothing is sent before the yes.
    let effects = update(&mut app, key(KeyCode::Char('F')));
    assert!(effects.is_empty(), "{effects:?}");
    let question = match &app.popup {
        Some(crate::app::Popup::Confirm(confirm)) => confirm.question(),
        other => panic!("a question, not {other:?}"),
    };
    assert!(
        question.contains(
            "2 fanouts from US/CO/Denver? 2 calls (2 searches × 1 = 2 credits); 120 credits left."
        ),
        "{question}"
    );
    let effects = update(&mut app, key(KeyCode::Char('y')));
    let sent: Vec<(crate::app::Tag, crate::api::SearchRequest)> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Call(CallEffect::SendSearch { tag, request }) => Some((*tag, request.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        sent.len(),
        2,
        "one search per fanout, each its own History entry"
    );
    assert_eq!(sent[0].1.terms, "first query");
    assert_eq!(sent[1].1.location.city.as_deref(), Some("Denver"));
    assert_eq!(app.in_flight(), 2);
    update(
        &mut app,
        Msg::SearchDone {
            tag: sent[0].0,
            result: Ok(results_on(&["b.example", "rei.com"])),
        },
    );
    assert!(
        app.chat
            .answer
            .as_ref()
            .unwrap()
            .coverage
            .as_ref()
            .unwrap()
            .report
            .is_none()
    );
    update(
        &mut app,
        Msg::SearchDone {
            tag: sent[1].0,
            result: Ok(results_on(&["other.example"])),
        },
    );
    let answer = app.chat.answer.as_ref().unwrap();
    assert_eq!(answer.view, AnswerView::Fanouts);
    let report = answer.coverage.as_ref().unwrap().report.as_ref().unwrap();
    assert_eq!(report.rows[0].brands, [Some(2)]);
    assert_eq!(report.rows[1].brands, [None]);
    let rei = &report.brands[0];
    assert_eq!((rei.covered, rei.searched, rei.best_rank), (1, 2, Some(2)));
    // The answer cites b.example, which ranks first for the first fanout.
    assert_eq!(report.rows[0].cited[0].domain, "b.example");
    // n declines: a second F asks again, and n leaves everything as it was.
    update(&mut app, key(KeyCode::Char('F')));
    let effects = update(&mut app, key(KeyCode::Char('n')));
    assert!(effects.is_empty());
    assert!(app.popup.is_none());
}

fn sends_a_call(effects: &[Effect]) -> bool {
    effects.iter().any(|e| {
        matches!(
            e,
            Effect::Call(
                CallEffect::SendAi { .. }
                    | CallEffect::SendSearch { .. }
                    | CallEffect::SubmitJob { .. }
            )
        )
    })
}

/// Reading never spends: Enter in each text view of the answer sends nothing and says which
/// key sends again; that key sends the form's request.
#[test]
fn enter_in_a_reading_view_sends_nothing_and_r_sends_again() {
    let mut app = app_with_an_answer();
    for view in [
        AnswerView::Answer,
        AnswerView::Ads,
        AnswerView::Prompt,
        AnswerView::Html,
        AnswerView::Json,
    ] {
        show_view(&mut app, view);
        let effects = update(&mut app, key(KeyCode::Enter));
        assert!(
            !sends_a_call(&effects),
            "Enter in {view:?} sent: {effects:?}"
        );
        let flash = format!("{:?}", app.flash);
        assert!(
            flash.contains("R sends the form again"),
            "{view:?}: {flash}"
        );
    }
    let again = KeyEvent::new(KeyCode::Char('R'), KeyModifiers::SHIFT);
    let effects = update(&mut app, Msg::Key(again));
    assert!(sends_a_call(&effects), "R sent nothing: {effects:?}");
}
