//! The Chat tab's budgets: preparing the live 478 KB completion for its views, and drawing
//! the tab with a 2,000-line answer (a frame costs what is on screen).

// A benchmark reads fixtures of our own: a panic is the right answer to a broken one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use vantage::api::{AiAnswer, AiRequest, Completion, Fetched};
use vantage::app::{App, Connection, Msg, update};
use vantage::present::answer;
use vantage::ui;

const LIVE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/live/ai-chatgpt-sample.json"
);

fn fetched(completion: Completion, body: String) -> Fetched<AiAnswer> {
    Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body,
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_secs(15),
    }
}

fn bench_prepare(c: &mut Criterion) {
    let body = std::fs::read_to_string(LIVE).expect("the live fixture");
    c.bench_function("prepare_live_completion_478kb", |b| {
        b.iter(|| {
            let completion: Completion = serde_json::from_str(&body).unwrap();
            let prepared = answer::prepare(
                AiRequest::new("what is mcp"),
                fetched(completion, body.clone()),
            );
            // The first draw wraps the answer at the pane's width.
            prepared.answer.lines(118).len()
        })
    });
}

fn long_answer_app() -> App {
    let mut html = String::from("<h2>A long answer</h2><ol>");
    for i in 0..2000 {
        html.push_str(&format!(
            "<li><strong>Point {i}</strong>: a sentence about hiking boots and trails that is long enough to wrap once at this width, with <a href=\"https://example.test/{i}\">a link</a>.</li>"
        ));
    }
    html.push_str("</ol>");
    let completion = Completion {
        model: "chatgpt".into(),
        completion: html,
        ..Completion::default()
    };
    let mut app = App::new(
        Connection {
            demo: true,
            host: "127.0.0.1:4000".into(),
            token: Some("demo".into()),
            token_hint: String::new(),
        },
        Instant::now(),
    );
    app.area = ratatui::layout::Rect::new(0, 0, 120, 40);
    for c in "long".chars() {
        update(
            &mut app,
            Msg::Key(crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::Char(c),
                crossterm::event::KeyModifiers::NONE,
            )),
        );
    }
    update(
        &mut app,
        Msg::Key(crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Enter,
            crossterm::event::KeyModifiers::NONE,
        )),
    );
    let tag = app.chat.call.tag().expect("sent");
    let prepared = answer::prepare(AiRequest::new("long"), fetched(completion, String::new()));
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(Box::new(prepared)),
        },
    );
    app
}

fn bench_draw(c: &mut Criterion) {
    let mut app = long_answer_app();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| ui::view(&app, f)).unwrap();
    let lines = app
        .chat
        .answer
        .as_ref()
        .unwrap()
        .prepared
        .answer
        .wrapped_len();
    assert!(lines >= 2000, "the answer wraps to {lines} lines");
    // Scroll to the middle, where a frame would cost most if it were not sliced.
    for _ in 0..30 {
        update(
            &mut app,
            Msg::Key(crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::PageDown,
                crossterm::event::KeyModifiers::NONE,
            )),
        );
    }
    c.bench_function("draw_chat_tab_2000_line_answer", |b| {
        b.iter(|| terminal.draw(|f| ui::view(&app, f)).unwrap().area.width)
    });
}

criterion_group!(benches, bench_prepare, bench_draw);
criterion_main!(benches);
