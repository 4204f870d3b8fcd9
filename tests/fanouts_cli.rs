//! `vantage fanouts`: the answer's fanouts searched again from its place, and each tracked
//! brand's coverage of them — checked against the same searches made here.

use std::time::Duration;

mod common;

use common::Service;
use serde_json::Value;
use tempfile::TempDir;
use vantage::api::{Location, SearchAnswer, SearchFormat, SearchRequest};

/// REI's best organic rank in the top ten of a search, as this test reads the page itself.
fn rei_rank(service: &Service, query: &str) -> Option<u64> {
    let client = common::client(&service.sim);
    let request = SearchRequest {
        terms: query.to_string(),
        location: Location {
            country: Some("US".to_string()),
            ..Location::default()
        },
        format: SearchFormat::Json,
        ..SearchRequest::default()
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let fetched = runtime.block_on(client.search(&request)).unwrap();
    let SearchAnswer::Results(results) = fetched.value else {
        panic!("JSON results");
    };
    results
        .results
        .iter()
        .filter(|r| r.kind.is_organic() && !r.url.is_empty())
        .take(10)
        .position(|r| {
            let host = url::Url::parse(&r.url)
                .unwrap()
                .host_str()
                .unwrap()
                .to_string();
            host == "rei.com" || host.ends_with(".rei.com")
        })
        .map(|i| i as u64 + 1)
}

#[test]
fn each_fanout_is_searched_from_the_answers_place_and_rei_s_coverage_adds_up() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let output = common::run_vantage(
        &service.sim,
        dir.path(),
        &[
            "fanouts",
            "best hiking boots",
            "--country",
            "us",
            "--brands",
            "REI=rei.com",
            "--json",
        ],
        Duration::from_secs(60),
    );
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("fanouts from US:"),
        "the cost is said first: {stderr}"
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert!(rows.len() >= 2, "{json:#}");
    let mut covered = 0;
    let mut best: Option<u64> = None;
    for row in rows {
        let query = row["query"].as_str().unwrap();
        assert!(!row["results"].as_array().unwrap().is_empty(), "{row}");
        let expected = rei_rank(&service, query);
        assert_eq!(
            row["brands"][0].as_u64(),
            expected,
            "REI's rank for {query}"
        );
        if let Some(rank) = expected {
            covered += 1;
            best = Some(best.map_or(rank, |b| b.min(rank)));
        }
    }
    let rei = &json["brands"][0];
    assert_eq!(rei["brand"], "REI");
    assert_eq!(rei["covered"], covered);
    assert_eq!(rei["searched"].as_u64(), Some(rows.len() as u64));
    assert_eq!(rei["best_rank"].as_u64(), best);
    let share = rei["share"].as_f64().unwrap();
    assert!((share - covered as f64 * 100.0 / rows.len() as f64).abs() < 1e-9);
    // Every search went to History: the answer and one entry per fanout.
    let history = common::run_vantage(
        &service.sim,
        dir.path(),
        &["history", "--json"],
        Duration::from_secs(30),
    );
    let entries: Vec<Value> = serde_json::from_slice(&history.stdout).unwrap();
    assert_eq!(entries.len(), rows.len() + 1, "{entries:#?}");

    // A model whose answers list no fanouts: said, and not a success.
    let none = common::run_vantage(
        &service.sim,
        dir.path(),
        &["fanouts", "best hiking boots", "--model", "gemini"],
        Duration::from_secs(60),
    );
    assert_eq!(none.status.code(), Some(vantage::exit::NO_ANSWER));
    assert!(String::from_utf8_lossy(&none.stderr).contains("lists no fanout queries"));

    // --dry-run asks the prompt and says what the searches would take, making none.
    let dry = common::run_vantage(
        &service.sim,
        dir.path(),
        &[
            "fanouts",
            "best hiking boots",
            "--country",
            "us",
            "--dry-run",
        ],
        Duration::from_secs(60),
    );
    assert!(dry.status.success(), "{dry:?}");
    let said = String::from_utf8_lossy(&dry.stdout);
    assert!(
        said.contains(&format!(
            "The answer lists {} fanouts; searching them from US makes {} calls ({} searches × 1 = {} credits)",
            rows.len(),
            rows.len(),
            rows.len(),
            rows.len()
        )),
        "{said}"
    );
    let history = common::run_vantage(
        &service.sim,
        dir.path(),
        &["history", "--json"],
        Duration::from_secs(30),
    );
    let after: Vec<Value> = serde_json::from_slice(&history.stdout).unwrap();
    // The first run's entries, gemini's answer, and the dry run's answer alone.
    assert_eq!(after.len(), entries.len() + 2, "{after:#?}");
}
