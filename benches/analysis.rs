//! Part 11's budgets: mentions of 20 brands in the live 478 KB ChatGPT answer (≤ 1 ms), a
//! full-text query over 50,000 stored answers (≤ 50 ms), and the first page of a History of
//! 50,000 entries (≤ 50 ms). Part 20's: an answer's shape read when it lands (the live
//! Gemini top 10), its 12 brands read in that shape, and `brands discover` over 500 stored
//! answers (what `D` in the Brands pane waits for).

// A benchmark reads fixtures of our own: a panic is the right answer to a broken one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};

use vantage::analysis::mentions::{Brand, mentions};
use vantage::analysis::names::shape_and_names;
use vantage::api::{AiAnswer, AiRequest, Completion, Fetched};
use vantage::present::answer;
use vantage::present::discover::untracked_in_stored;
use vantage::store::{Body, RequestParams, Store, StoreOptions, now_ms};

const LIVE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/live/ai-chatgpt-sample.json"
);

const STORED: usize = 50_000;

fn brands() -> Vec<Brand> {
    [
        ("Anthropic", &["Claude"][..], &["anthropic.com"][..]),
        ("OpenAI", &["ChatGPT"], &["openai.com"]),
        ("Google", &["Gemini"], &["google.com"]),
        ("Microsoft", &["Copilot"], &["microsoft.com"]),
        ("GitHub", &[], &["github.com"]),
        ("Slack", &[], &["slack.com"]),
        ("Cursor", &[], &["cursor.com"]),
        ("Zed", &[], &["zed.dev"]),
        ("Cloudflare", &[], &["cloudflare.com"]),
        ("Stripe", &[], &["stripe.com"]),
        ("Postgres", &["PostgreSQL"], &["postgresql.org"]),
        ("Docker", &[], &["docker.com"]),
        ("Figma", &[], &["figma.com"]),
        ("Notion", &[], &["notion.so"]),
        ("Linear", &[], &["linear.app"]),
        ("Sentry", &[], &["sentry.io"]),
        ("Vercel", &[], &["vercel.com"]),
        ("Hugging Face", &[], &["huggingface.co"]),
        ("Löwa", &[], &["lowa.com"]),
        ("Wikipedia", &[], &["wikipedia.org"]),
    ]
    .into_iter()
    .map(|(name, aliases, domains)| Brand {
        name: name.to_string(),
        aliases: aliases.iter().map(|s| s.to_string()).collect(),
        domains: domains.iter().map(|s| s.to_string()).collect(),
    })
    .collect()
}

fn bench_mentions(c: &mut Criterion) {
    let body = std::fs::read_to_string(LIVE).expect("the live fixture");
    let completion: Completion = serde_json::from_str(&body).unwrap();
    let prepared = answer::prepare(
        AiRequest::new("what is mcp"),
        Fetched {
            value: AiAnswer::Completion(Box::new(completion)),
            body: body.clone(),
            status: 200,
            content_type: "application/json".into(),
            elapsed: Duration::from_secs(15),
        },
    );
    let brands = brands();
    let urls: Vec<&str> = prepared.sources.iter().map(|s| s.url.as_str()).collect();
    c.bench_function("mentions_20_brands_live_answer", |b| {
        b.iter(|| black_box(&prepared).mentions(&brands))
    });
    // The whole 478 KB body, markup and all: the worst a caller could hand it.
    c.bench_function("mentions_20_brands_whole_478kb_body", |b| {
        b.iter(|| mentions(black_box(&body), &urls, &brands))
    });
}

const GEMINI: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/live/ai-gemini-sample.json"
);

/// The live Gemini top 10: its shape read from its 58 KB answer, and its brands read in it.
fn bench_shape(c: &mut Criterion) {
    let body = std::fs::read_to_string(GEMINI).expect("the live fixture");
    let completion: Completion = serde_json::from_str(&body).unwrap();
    let question = "What are the best AI coding tools right now? List the top 10.";
    c.bench_function("shape_and_names_live_gemini_top10", |b| {
        b.iter(|| shape_and_names(black_box(&completion.completion), question, None))
    });
    let prepared = answer::prepare(
        AiRequest::new(question),
        Fetched {
            value: AiAnswer::Completion(Box::new(completion)),
            body: body.clone(),
            status: 200,
            content_type: "application/json".into(),
            elapsed: Duration::from_secs(9),
        },
    );
    let brands: Vec<Brand> = [
        "Claude Code",
        "Cursor",
        "Windsurf",
        "GitHub Copilot",
        "OpenAI Codex",
        "Continue",
        "Gemini Code Assist",
        "Aider",
        "Replit",
        "Amazon Q Developer",
        "Kiro",
        "Tabnine",
    ]
    .into_iter()
    .map(Brand::named)
    .collect();
    c.bench_function("mentions_12_brands_live_gemini_top10", |b| {
        b.iter(|| black_box(&prepared).mentions(&brands))
    });
}

/// `brands discover` over 500 stored answers: the simulator's answers of the corpus, each
/// read from its stored body as the command reads them, names counted in every one.
fn bench_discover(c: &mut Criterion) {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/sim");
    let mut bodies: Vec<(AiRequest, String)> = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let body = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let value: serde_json::Value = serde_json::from_str(&body).unwrap();
        let mut request = AiRequest::new(value["query"].as_str().unwrap());
        request.model = value["model"].as_str().and_then(|m| m.parse().ok());
        bodies.push((request, body));
    }
    let stored: Vec<(AiRequest, String)> = bodies.iter().cycle().take(500).cloned().collect();
    let tracked = [Brand::named("Salomon")];
    let mut group = c.benchmark_group("discover");
    group.sample_size(10);
    group.bench_function("untracked_names_of_500_stored_answers", |b| {
        b.iter(|| untracked_in_stored(black_box(stored.clone()), &tracked))
    });
    group.finish();
}

/// A store of 50,000 answered AI requests, their answers drawn from a small vocabulary so
/// that some words are rare and some are everywhere.
fn seeded_store(dir: &std::path::Path) -> Store {
    let words = [
        "boots",
        "trail",
        "waterproof",
        "grip",
        "ankle",
        "support",
        "budget",
        "weight",
        "leather",
        "mesh",
        "Salomon",
        "Merrell",
        "Keen",
        "Scarpa",
        "Hoka",
        "Lowa",
        "fit",
        "sizing",
        "review",
        "durable",
        "comfort",
        "winter",
        "summer",
        "hiking",
        "running",
    ];
    let store = Store::open_in(
        dir,
        StoreOptions {
            history_max_entries: STORED,
            ..StoreOptions::default()
        },
    )
    .unwrap();
    let started = Instant::now();
    let mut state: u32 = 7;
    for n in 0..STORED {
        let mut text = String::with_capacity(900);
        for _ in 0..120 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            text.push_str(words[state as usize % words.len()]);
            text.push(' ');
        }
        // One answer in a thousand names a rare word.
        if n % 1_000 == 0 {
            text.push_str("Zamberlan");
        }
        let prompt = format!("best hiking boots {n}");
        let (id, _) = store.add_request(RequestParams::Ai(AiRequest::new(prompt)));
        let json = serde_json::json!({ "model": "chatgpt", "completion": text }).to_string();
        store
            .add_response(
                &id,
                Body {
                    status: 200,
                    text: json,
                    elapsed_ms: 1_000,
                    received_at: now_ms(),
                },
            )
            .detach();
    }
    store.flush().wait().unwrap();
    eprintln!(
        "seeded {STORED} answered requests in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(store.history_len().unwrap(), STORED);
    store
}

fn bench_history(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let store = seeded_store(dir.path());
    let mut group = c.benchmark_group("history_50k");
    group.sample_size(30);
    group.bench_function("fts_rare_word_first_page", |b| {
        b.iter(|| {
            store
                .search_history(black_box("zamberlan"), None, 100, 0)
                .unwrap()
        })
    });
    group.bench_function("fts_common_words_first_page", |b| {
        b.iter(|| {
            store
                .search_history(black_box("salomon waterproof"), None, 100, 0)
                .unwrap()
        })
    });
    group.bench_function("fts_prefix_first_page_of_ai", |b| {
        b.iter(|| {
            store
                .search_history(
                    black_box("zamb*"),
                    Some(vantage::store::RequestKind::Ai),
                    100,
                    0,
                )
                .unwrap()
        })
    });
    group.bench_function("list_first_page", |b| {
        b.iter(|| {
            let page = store.history(black_box(100), 0).unwrap();
            (page, store.history_len().unwrap())
        })
    });
    group.bench_function("list_last_page", |b| {
        b.iter(|| store.history(100, black_box(STORED - 100)).unwrap())
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_mentions,
    bench_shape,
    bench_discover,
    bench_history
);
criterion_main!(benches);
