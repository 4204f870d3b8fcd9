//! `vantage brands discover`: the names stored answers put forward that no tracked brand
//! covers, counted over answers, models and places.

use std::time::Duration;

mod common;

use common::Service;
use serde_json::Value;
use tempfile::TempDir;

fn run(service: &Service, dir: &TempDir, args: &[&str]) -> std::process::Output {
    let output = common::run_vantage(&service.sim, dir.path(), args, Duration::from_secs(60));
    assert!(output.status.success(), "{args:?}: {output:?}");
    output
}

#[test]
fn stored_answers_give_the_names_nobody_tracks_with_their_counts() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    // Nothing stored yet: said, not an error.
    let empty = run(&service, &dir, &["brands", "discover"]);
    assert!(String::from_utf8_lossy(&empty.stderr).contains("No answers are stored yet"));
    for (model, country) in [
        ("chatgpt", "US"),
        ("gemini", "DE"),
        ("perplexity", "US"),
        ("copilot", "GB"),
    ] {
        run(
            &service,
            &dir,
            &[
                "ai",
                "best hiking boots",
                "--model",
                model,
                "--country",
                country,
            ],
        );
    }
    let output = run(
        &service,
        &dir,
        &["brands", "discover", "--brands", "Salomon", "--json"],
    );
    let found: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert!(found.len() >= 3, "{found:#?}");
    for name in &found {
        let name_text = name["name"].as_str().unwrap();
        assert!(
            !name_text.to_lowercase().contains("salomon"),
            "a tracked brand's product: {name_text}"
        );
        assert!(name["answers"].as_u64().unwrap() >= 1);
        assert!(!name["models"].as_array().unwrap().is_empty());
        assert!(!name["places"].as_array().unwrap().is_empty());
        assert!(!name["sentence"].as_str().unwrap().is_empty());
    }
    // Most named first.
    let counts: Vec<u64> = found
        .iter()
        .map(|n| n["answers"].as_u64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    let text = run(
        &service,
        &dir,
        &["brands", "discover", "--brands", "Salomon"],
    );
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Names the 4 stored answers put forward"),
        "{text}"
    );
    // A time that is neither an age nor a date is refused before anything is read.
    let refused = common::run_vantage(
        &service.sim,
        dir.path(),
        &["brands", "discover", "--since", "last tuesday"],
        Duration::from_secs(30),
    );
    assert_eq!(refused.status.code(), Some(2));
    let recent = run(
        &service,
        &dir,
        &["brands", "discover", "--since", "1h", "--json"],
    );
    let recent: Vec<Value> = serde_json::from_slice(&recent.stdout).unwrap();
    assert!(!recent.is_empty());
    // A comparison's columns are stored answers too: two models asked twice each.
    run(
        &service,
        &dir,
        &[
            "compare",
            "best hiking boots",
            "--models",
            "chatgpt,gemini",
            "--samples",
            "2",
        ],
    );
    let text = run(
        &service,
        &dir,
        &["brands", "discover", "--brands", "Salomon"],
    );
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Names the 8 stored answers put forward"),
        "{text}"
    );
}

#[test]
fn a_listed_name_is_counted_in_every_answer_that_lists_it_and_no_site_is_a_name() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let mut readings: Vec<Value> = Vec::new();
    for (model, country) in [
        ("chatgpt", "US"),
        ("gemini", "US"),
        ("perplexity", "DE"),
        ("copilot", "US"),
        ("chatgpt", "GB"),
        ("gemini", "FR"),
    ] {
        let output = run(
            &service,
            &dir,
            &[
                "ai",
                "best hiking boots",
                "--model",
                model,
                "--country",
                country,
                "--json",
            ],
        );
        readings.push(serde_json::from_slice(&output.stdout).unwrap());
    }
    let output = run(
        &service,
        &dir,
        &["brands", "discover", "--brands", "Salomon", "--json"],
    );
    let found: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert!(found.len() >= 3, "{found:#?}");
    // The sites the answers cite, by label and host name.
    let mut sites = std::collections::HashSet::new();
    for reading in &readings {
        for source in reading["sources"].as_array().unwrap() {
            let squeeze = |t: &str| -> String {
                t.chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .collect()
            };
            sites.insert(squeeze(source["site"].as_str().unwrap()));
            let host = url::Url::parse(source["url"].as_str().unwrap()).unwrap();
            let host = host
                .host_str()
                .unwrap()
                .trim_start_matches("www.")
                .to_string();
            sites.insert(squeeze(host.split('.').next().unwrap()));
        }
    }
    for row in &found {
        let name = row["name"].as_str().unwrap();
        let squeezed: String = name
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        assert!(!sites.contains(&squeezed), "a cited site as a name: {name}");
        // Every answer that names it, other than to warn of it or say nothing is known.
        let naming = readings
            .iter()
            .filter(|reading| {
                reading["text"].as_str().unwrap().lines().any(|line| {
                    line.contains(name)
                        && !line.starts_with("Skip the")
                        && !line.contains("couldn't find")
                })
            })
            .count();
        assert_eq!(
            row["answers"].as_u64(),
            Some(naming as u64),
            "{name} is named in {naming} answers: {row}"
        );
    }
}

/// The prompt as the near-duplicate check sees it, written out here apart from the app:
/// lower case, words without punctuation, a plural's s dropped, in order.
fn loose(prompt: &str) -> String {
    let mut words: Vec<String> = prompt
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches('s').to_string())
        .collect();
    words.sort();
    words.join(" ")
}

#[test]
fn discover_finds_prompts_around_a_topic_from_two_places_and_depth_2_finds_more() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let args = [
        "discover",
        "hiking boots",
        "--locations",
        "us,de",
        "--json",
        "--limit",
        "200",
    ];
    let output = run(&service, &dir, &args);
    let found: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert!(found.len() >= 15, "{found:#?}");
    let mut seen = std::collections::HashSet::new();
    for row in &found {
        let prompt = row["prompt"].as_str().unwrap();
        assert!(seen.insert(loose(prompt)), "a near-duplicate: {prompt}");
        let raisers = row["raised_by"].as_array().unwrap();
        assert_eq!(row["count"].as_u64(), Some(raisers.len() as u64), "{row}");
        for raiser in raisers {
            assert!(!raiser["by"].as_str().unwrap().is_empty());
            assert!(
                ["US", "DE"].contains(&raiser["place"].as_str().unwrap()),
                "{raiser}"
            );
        }
    }
    let counts: Vec<u64> = found.iter().map(|r| r["count"].as_u64().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    // Both places and both kinds of raiser are heard.
    let text = serde_json::to_string(&found).unwrap();
    for needle in [
        "ChatGPT fanout",
        "Google related question",
        "Google related search",
        "\"DE\"",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let mut deeper = args.to_vec();
    deeper.extend(["--depth", "2"]);
    let output = run(&service, &dir, &deeper);
    let more: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        more.len() > found.len(),
        "{} then {}",
        found.len(),
        more.len()
    );
    assert!(more.iter().any(|r| r["depth"] == 2));
    // The cost is said before, and --dry-run stops there.
    let dry = run(
        &service,
        &dir,
        &[
            "discover",
            "hiking boots",
            "--locations",
            "us,de",
            "--depth",
            "2",
            "--dry-run",
        ],
    );
    let said = String::from_utf8_lossy(&dry.stdout);
    assert!(
        said.contains(
            "4 calls (2 answers × 5 + 2 searches × 1 = 12 credits), then up to 20 calls (10 answers × 5 + 10 searches × 1 = 60 credits) more"
        ),
        "{said}"
    );
}
