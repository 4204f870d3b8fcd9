//! Conversion + wrapping at width 100 of the live pages, and re-wrapping a kept document.

// A benchmark reads fixtures of our own: a panic is the right answer to a broken one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use vantage::render::{RenderOptions, html_to_document};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/live");

fn chatgpt() -> (String, String) {
    let raw = std::fs::read_to_string(format!("{FIXTURES}/ai-chatgpt-sample.json"))
        .expect("chatgpt fixture");
    let v: serde_json::Value = serde_json::from_str(&raw).expect("json");
    (
        v["html"].as_str().expect("html").to_owned(),
        v["completion"].as_str().expect("completion").to_owned(),
    )
}

fn google() -> String {
    std::fs::read_to_string(format!("{FIXTURES}/search-google-sample.html"))
        .expect("google fixture")
}

fn bench(c: &mut Criterion) {
    let (html, completion) = chatgpt();
    let google = google();
    let opts = RenderOptions {
        number_links: true,
        ..Default::default()
    };
    let mut group = c.benchmark_group("render");
    group.sample_size(20);
    group.bench_function("chatgpt_page_394kb", |b| {
        b.iter(|| html_to_document(black_box(&html), &opts).wrap(100))
    });
    group.bench_function("chatgpt_completion_13kb", |b| {
        b.iter(|| html_to_document(black_box(&completion), &opts).wrap(100))
    });
    group.bench_function("google_page_1_2mb", |b| {
        b.iter(|| html_to_document(black_box(&google), &opts).wrap(100))
    });
    let doc = html_to_document(&google, &opts);
    assert!(doc.notice().is_none(), "the Google page is laid out");
    group.bench_function("google_page_rewrap_only", |b| {
        b.iter(|| black_box(&doc).wrap(black_box(100)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
