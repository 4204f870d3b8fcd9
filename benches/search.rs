//! The Search tab's budgets: from a 10-page × 100-result body to a drawable list, and the
//! cost of a frame with 1,000 results against 10 (it must not grow with what is loaded).

// A benchmark reads fixtures of our own: a panic is the right answer to a broken one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use vantage::api::decode::{RawResponse, decode_search};
use vantage::api::{Fetched, SearchRequest};
use vantage::app::search::PageState;
use vantage::app::{App, Connection, Tab};
use vantage::present::search_page;
use vantage::ui;

mod common;

fn fetched(body: &str) -> Fetched<vantage::api::SearchAnswer> {
    let raw = RawResponse {
        status: 200,
        content_type: "application/json".into(),
        body: body.to_string(),
        elapsed: Duration::from_secs(2),
    };
    Fetched {
        value: decode_search(&raw).expect("the body parses"),
        body: raw.body,
        status: 200,
        content_type: raw.content_type,
        elapsed: raw.elapsed,
    }
}

/// Body → parsed results → entries, offsets and the filter's haystacks: all the work done
/// once when a response lands.
fn bench_prepare(c: &mut Criterion) {
    let body = common::body(10, 100);
    c.bench_function("search_body_10x100_to_drawable_list", |b| {
        b.iter(|| {
            let prepared = search_page::prepare(
                SearchRequest::new("best hiking boots"),
                fetched(black_box(&body)),
            );
            PageState::new(Box::new(prepared)).visible.len()
        })
    });
}

fn app_with(pages: u32, per_page: u32) -> App {
    let mut app = App::new(
        Connection {
            demo: true,
            host: "127.0.0.1:4000".into(),
            token: Some("demo".into()),
            token_hint: String::new(),
        },
        Instant::now(),
    );
    app.tab = Tab::Search;
    app.area = ratatui::layout::Rect::new(0, 0, 140, 44);
    let body = common::body(pages, per_page);
    let prepared = search_page::prepare(SearchRequest::new("best hiking boots"), fetched(&body));
    app.search.page = Some(PageState::new(Box::new(prepared)));
    app
}

fn bench_draw(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw_search_tab");
    for (name, pages, per_page) in [("10_results", 1, 10), ("1000_results", 10, 100)] {
        let app = app_with(pages, per_page);
        let mut terminal = Terminal::new(TestBackend::new(140, 44)).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| terminal.draw(|f| ui::view(&app, f)).unwrap().area.width)
        });
    }
    group.finish();
}

criterion_group!(benches, bench_prepare, bench_draw);
criterion_main!(benches);
