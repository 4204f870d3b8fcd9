//! Parsing the largest search answer the contract allows: 10 pages of 100 results, with
//! sitelinks, inline images, "People also ask" answers, top stories and related searches.

// A benchmark reads fixtures of our own: a panic is the right answer to a broken one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use vantage::api::SearchResults;

mod common;
use common::{PAGES, PER_PAGE};

fn parse(c: &mut Criterion) {
    let body = common::body(PAGES, PER_PAGE);
    let parsed: SearchResults = serde_json::from_str(&body).expect("the body parses");
    let organic = parsed
        .results
        .iter()
        .filter(|r| r.kind.is_organic())
        .count();
    assert_eq!(organic, (PAGES * PER_PAGE) as usize);
    assert!(parsed.results.iter().all(|r| r.raw.is_none()));
    eprintln!(
        "search body: {} results, {:.1} MB",
        parsed.results.len(),
        body.len() as f64 / 1e6
    );
    c.bench_function("search_results_10x100", |b| {
        b.iter(|| serde_json::from_str::<SearchResults>(black_box(&body)).expect("parses"))
    });
}

criterion_group!(benches, parse);
criterion_main!(benches);
