//! Conversion + wrapping at width 100 of real and generated pages.

use std::fmt::Write;
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

/// The Google sample padded with generated paragraphs, lists, code and tables to 1.5 MB.
fn page_1_5mb() -> String {
    let mut page = std::fs::read_to_string(format!("{FIXTURES}/search-google-sample.html"))
        .expect("google fixture");
    let target = 1_500_000;
    let mut i = 0;
    while page.len() < target {
        let _ = write!(
            page,
            "<h2>Section {i}</h2><p>Paragraph {i} with <b>bold</b>, <em>emphasis</em>, \
             <code>code()</code> and <a href=\"https://example.com/{i}\">a link</a>. \
             Lorem ipsum dolor sit amet, consectetur adipiscing elit &mdash; sed do eiusmod \
             tempor incididunt ut labore et dolore magna aliqua. 日本語のテキストも少し。</p>\
             <ul><li>First item {i}</li><li>Second <a href=\"/url?q=https://ex.org/{i}&amp;sa=U\">item</a>\
             <ol start=\"3\"><li>nested</li><li>nested two</li></ol></li></ul>\
             <pre><code>fn main() {{\n    println!(\"{i}\");\n}}</code></pre>\
             <table><tr><th>a</th><th>b</th></tr><tr><td>{i}</td><td>x</td></tr></table>\
             <div class=\"sr-only\">hidden label</div>"
        );
        i += 1;
    }
    page
}

fn bench(c: &mut Criterion) {
    let (html, completion) = chatgpt();
    let big = page_1_5mb();
    let opts = RenderOptions::default();
    let mut group = c.benchmark_group("render");
    group.sample_size(20);
    group.bench_function("chatgpt_page_394kb", |b| {
        b.iter(|| html_to_document(black_box(&html), &opts).wrap(100))
    });
    group.bench_function("chatgpt_completion_13kb", |b| {
        b.iter(|| html_to_document(black_box(&completion), &opts).wrap(100))
    });
    group.bench_function("page_1_5mb", |b| {
        b.iter(|| html_to_document(black_box(&big), &opts).wrap(100))
    });
    let doc = html_to_document(&big, &opts);
    group.bench_function("page_1_5mb_rewrap_only", |b| {
        b.iter(|| black_box(&doc).wrap(100))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
