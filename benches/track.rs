//! Part 12's budget: trends over 30 runs × 2,000 answers (100 prompts × 4 models × 5
//! locations, 6 brands, a few cited domains each, and 20 searches × 5 locations of 10
//! results) in ≤ 200 ms, with the run-to-run diff of the last two runs.

// A benchmark builds its own data: a panic is the right answer to a broken one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};

use vantage::track::diff::diff;
use vantage::track::trends::{AnswerObservation, ResultObservation, RunObservations, Seen, trends};

const RUNS: usize = 30;
const BUDGET: Duration = Duration::from_millis(200);

/// A small deterministic spread (SplitMix64), so every run differs a little.
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn brands() -> Vec<String> {
    ["Merrell", "Salomon", "Lowa", "Keen", "Hoka", "Scarpa"]
        .iter()
        .map(|b| b.to_string())
        .collect()
}

fn run(n: usize) -> RunObservations {
    let models = ["chatgpt", "gemini", "perplexity", "copilot"];
    let locations = [
        "US/–/Denver",
        "DE/–/Berlin",
        "FR/–/Lyon",
        "GB/–/Leeds",
        "JP/–/Osaka",
    ];
    let mut answers = Vec::with_capacity(2_000);
    for prompt in 0..100u64 {
        for model in models {
            for location in locations {
                let seed = mix(n as u64 * 1_000_003 + prompt * 31 + answers.len() as u64);
                let positions = (0..6u64)
                    .map(|b| {
                        Seen::at(
                            ((seed >> (b * 8)) & 3 != 0)
                                .then_some((b as u32 + (seed as u32 >> 20)) % 6 + 1),
                        )
                    })
                    .collect();
                let domains = (0..4u64)
                    .map(|d| format!("source{}.com", (seed >> (d * 5)) % 40))
                    .collect();
                answers.push(AnswerObservation {
                    query: format!("best hiking boots {prompt}"),
                    model: model.to_string(),
                    device: String::new(),
                    location: location.to_string(),
                    brands: positions,
                    domains,
                });
            }
        }
    }
    let mut results = Vec::new();
    for terms in 0..20u64 {
        for location in locations {
            for rank in 1..=10u32 {
                let seed = mix(n as u64 * 7 + terms * 131 + u64::from(rank));
                results.push(ResultObservation {
                    terms: format!("hiking boots {terms}"),
                    location: location.to_string(),
                    rank,
                    domain: format!("site{}.com", seed % 25),
                    url: format!("https://site{}.com/{terms}", seed % 25),
                    title: String::new(),
                });
            }
        }
    }
    RunObservations {
        label: format!("run {n}"),
        answers,
        results,
    }
}

fn bench(c: &mut Criterion) {
    let runs: Vec<RunObservations> = (0..RUNS).map(run).collect();
    let brands = brands();
    let compute = || {
        let t = trends(&runs, &brands);
        let d = diff(&runs[RUNS - 2], &runs[RUNS - 1], &brands);
        (t, d)
    };
    let start = Instant::now();
    let (t, d) = compute();
    let once = start.elapsed();
    println!(
        "trends over {RUNS} runs × 2,000 answers: {once:?} ({} brands, {} sources, {} rank lines, {} mentions gained)",
        t.brands.len(),
        t.sources.len(),
        t.ranks.len(),
        d.mentions_gained.len()
    );
    assert!(once <= BUDGET, "{once:?} is over the {BUDGET:?} budget");
    c.bench_function("trends_30_runs_x_2000_answers", |b| {
        b.iter(|| black_box(compute()))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
