//! Money by the one price table: a mixed set of calls against the simulator on 127.0.0.1:0
//! costs, by the table, what the balance dropped and what `vantage usage` reports; failed
//! calls cost nothing; a run is priced and refused by credits, not by calls.

// Test helpers outside #[test] functions may panic too: a panic is a failed test here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Duration;

use vantage::api::{AiRequest, ApiError, BrowserRequest, SearchRequest};
use vantage::price::{Billed, Prices};
use vantage::sim::{Fault, SimConfig, Simulator};

const START: u64 = 1_000;

/// A simulator on its own runtime, so the test thread can block on the binary.
struct Host {
    sim: Simulator,
    dir: tempfile::TempDir,
    runtime: tokio::runtime::Runtime,
}

impl Host {
    fn start(config: SimConfig) -> Host {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let sim = runtime.block_on(common::start(config));
        Host {
            sim,
            dir: tempfile::tempdir().unwrap(),
            runtime,
        }
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        common::run_vantage(&self.sim, self.dir.path(), args, Duration::from_secs(30))
    }
}

/// The credits of the "all" row of `vantage usage`.
fn usage_total(text: &str) -> u64 {
    let row = text
        .lines()
        .find(|line| line.starts_with("all "))
        .unwrap_or_else(|| panic!("no total row: {text}"));
    row.split_whitespace().last().unwrap().parse().unwrap()
}

#[test]
fn mixed_calls_cost_by_the_table_what_the_balance_dropped_and_usage_reports() {
    // Every queued job fails here: a failed job is not billed.
    let host = Host::start(SimConfig {
        credits: START,
        job_fail_share: 1.0,
        ..common::quick()
    });
    let client = common::client(&host.sim);
    let prices = Prices::default();
    let mut spent = 0;
    host.runtime.block_on(async {
        client
            .ai(&AiRequest::new("best hiking boots"))
            .await
            .unwrap();
        client
            .ai(&AiRequest::new("best trail shoes"))
            .await
            .unwrap();
        spent += 2 * prices.of(Billed::Ai);
        client
            .search(&SearchRequest::new("hiking boots"))
            .await
            .unwrap();
        spent += prices.of(Billed::Search);
        client
            .browser(&BrowserRequest::new("https://example.org"))
            .await
            .unwrap();
        spent += prices.of(Billed::Browser {
            ridiculous_speed: false,
        });
        // A page at `speed = ridiculous`, as another client of the service may ask: double.
        let fast = common::http::get(
            &host.sim,
            "/browser",
            &[("url", "https://example.org/fast"), ("speed", "ridiculous")],
        )
        .await;
        assert_eq!(fast.status, 200, "{}", fast.body);
        spent += prices.of(Billed::Browser {
            ridiculous_speed: true,
        });
        // Failed calls: a captcha refusal, and a queued answer whose job fails.
        host.sim.script(vec![Some(Fault::Captcha)]);
        let refused = client.ai(&AiRequest::new("refused")).await.unwrap_err();
        assert!(matches!(refused, ApiError::Captcha { .. }), "{refused:?}");
        client
            .ai_submit(&AiRequest::new("a job that fails"))
            .await
            .unwrap();
    });
    assert_eq!(spent, 2 * 5 + 1 + 1 + 2, "the live service's prices");
    assert_eq!(START - host.sim.credits(), spent, "the balance's drop");

    let usage = host.run(&["usage"]);
    assert!(usage.status.success(), "{usage:?}");
    let text = String::from_utf8_lossy(&usage.stdout);
    assert_eq!(usage_total(&text), spent, "{text}");
    // The failed calls are counted as calls, without credits.
    assert!(
        text.lines()
            .any(|l| l.starts_with("browser") && l.split_whitespace().nth(2) == Some("2")),
        "{text}"
    );
}

#[test]
fn a_balance_short_of_a_price_is_spent_to_zero_and_then_refused() {
    let host = Host::start(SimConfig {
        credits: 7,
        ..common::quick()
    });
    let client = common::client(&host.sim);
    host.runtime.block_on(async {
        client.ai(&AiRequest::new("first")).await.unwrap();
        client.ai(&AiRequest::new("second")).await.unwrap();
        assert_eq!(host.sim.credits(), 0);
        let error = client.ai(&AiRequest::new("third")).await.unwrap_err();
        assert!(matches!(error, ApiError::NoCredits { .. }), "{error:?}");
    });
    let usage = host.run(&["usage"]);
    assert_eq!(
        usage_total(&String::from_utf8_lossy(&usage.stdout)),
        7,
        "usage still equals the balance's drop"
    );
}

#[test]
fn the_config_files_prices_say_the_cost_and_a_wrong_price_is_refused() {
    let host = Host::start(common::quick());
    std::fs::write(
        host.dir.path().join("vantage.toml"),
        "[[sets]]\nname = \"b\"\nprompts = [\"best boots\", \"boots for rain\"]\nmodels = [\"chatgpt\", \"gemini\"]\nterms = [\"boots\"]\nlocations = [\"us\", \"de\"]\n",
    )
    .unwrap();
    let workspace = host.dir.path().join("vantage.toml");
    let workspace = workspace.to_str().unwrap();
    let dry = host.run(&["track", "--workspace", workspace, "run", "b", "--dry-run"]);
    assert!(dry.status.success(), "{dry:?}");
    assert_eq!(
        String::from_utf8_lossy(&dry.stdout).trim(),
        "A run of b makes 10 calls (8 answers × 5 + 2 searches × 1 = 42 credits); 1000 credits left. \
         With --wait, a call that fails or expires is asked again within the run, up to 2 more times, each priced as any call."
    );
    std::fs::write(
        host.dir.path().join("config.toml"),
        "[prices]\nai = 2\nsearch = 3\n",
    )
    .unwrap();
    let dry = host.run(&["track", "--workspace", workspace, "run", "b", "--dry-run"]);
    assert!(
        String::from_utf8_lossy(&dry.stdout)
            .contains("10 calls (8 answers × 2 + 2 searches × 3 = 22 credits)"),
        "{dry:?}"
    );
    // A price that is not one is refused with the line, as other config mistakes are.
    std::fs::write(host.dir.path().join("config.toml"), "[prices]\ngpt = 2\n").unwrap();
    let wrong = host.run(&["usage"]);
    assert_eq!(
        wrong.status.code(),
        Some(vantage::exit::INVALID_INPUT),
        "{wrong:?}"
    );
    let said = String::from_utf8_lossy(&wrong.stderr);
    assert!(said.contains("line 2, at `prices.gpt`"), "{said}");
    assert!(said.contains("`gpt` is not a price"), "{said}");
}
