//! `vantage compare` and `vantage compare-search` against a simulator whose answers the test
//! fetches itself with the client: the shared domains, their columns and the ranks printed
//! must be the ones those answers give.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Output;
use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;

use vantage::api::{
    AiRequest, Client, ClientSettings, IpType, Location, Model, ResultKind, SearchAnswer,
    SearchFormat, SearchRequest, Secret,
};
use vantage::present::answer;
use vantage::sim::{SimConfig, Simulator};

struct Host {
    sim: Simulator,
    dir: TempDir,
    runtime: tokio::runtime::Runtime,
}

impl Host {
    fn start() -> Host {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let sim = runtime
            .block_on(Simulator::start(SimConfig {
                latency_scale: 0.0,
                ..SimConfig::default()
            }))
            .unwrap();
        Host {
            sim,
            dir: tempfile::tempdir().unwrap(),
            runtime,
        }
    }

    fn client(&self) -> Client {
        let url = self.sim.url();
        Client::new(ClientSettings::new(
            &url,
            &url,
            Secret::new(self.sim.token()),
        ))
        .unwrap()
    }

    fn run(&self, args: &[&str]) -> Output {
        common::run_vantage(&self.sim, self.dir.path(), args, Duration::from_secs(30))
    }
}

fn location(country: &str, subdivision: Option<&str>, city: &str) -> Location {
    Location {
        country: Some(country.into()),
        subdivision: subdivision.map(Into::into),
        city: Some(city.into()),
    }
}

#[test]
fn compare_prints_the_domains_the_answers_share_and_with_which_columns() {
    let host = Host::start();
    let client = host.client();
    let models = [Model::Chatgpt, Model::Gemini, Model::Perplexity];
    let places = [
        location("US", Some("NY"), "New York"),
        location("DE", None, "Berlin"),
    ];
    // The expected answer, fetched column by column in the CLI's order (models, then places).
    let mut cited: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    let mut column = 0;
    for model in models {
        for place in &places {
            let mut request = AiRequest::new("best hiking boots");
            request.model = Some(model);
            request.location = place.clone();
            let fetched = host.runtime.block_on(client.ai(&request)).unwrap();
            let prepared = answer::prepare(request, fetched);
            for source in &prepared.sources {
                cited
                    .entry(source.domain.clone())
                    .or_default()
                    .insert(column + 1);
            }
            column += 1;
        }
    }
    let expected: BTreeMap<String, Vec<usize>> = cited
        .into_iter()
        .filter(|(_, columns)| columns.len() >= 2)
        .map(|(domain, columns)| (domain, columns.into_iter().collect()))
        .collect();
    assert!(!expected.is_empty(), "the scenario has shared domains");

    let args = [
        "compare",
        "best hiking boots",
        "--models",
        "chatgpt,gemini,perplexity",
        "--locations",
        "us:ny:New+York,de::Berlin",
    ];
    let output = host.run(&[&args[..], &["--json"]].concat());
    assert!(output.status.success(), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let printed: BTreeMap<String, Vec<usize>> = json["shared"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let columns = s["columns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap() as usize + 1)
                .collect();
            (s["domain"].as_str().unwrap().to_string(), columns)
        })
        .collect();
    assert_eq!(printed, expected);
    let matrix = json["similarity"].as_array().unwrap();
    assert_eq!(matrix.len(), 6);
    assert_eq!(matrix[2][2].as_f64(), Some(1.0));

    // The text form says the same, one domain a line.
    let output = host.run(&args);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    for (domain, columns) in &expected {
        let list: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(domain.as_str()))
            .unwrap_or_else(|| panic!("{domain} missing in\n{text}"));
        assert!(
            line.ends_with(&format!("columns {}", list.join(", "))),
            "{line}"
        );
    }
    assert!(text.contains("Jaccard"), "{text}");
    assert!(text.contains("ChatGPT · US/NY/New York"), "{text}");
}

#[test]
fn compare_search_prints_each_urls_rank_per_column() {
    let host = Host::start();
    let client = host.client();
    let vantages = [
        (location("US", Some("NY"), "New York"), IpType::Residential),
        (location("US", Some("NY"), "New York"), IpType::Isp),
        (location("DE", None, "Berlin"), IpType::Residential),
        (location("DE", None, "Berlin"), IpType::Isp),
    ];
    let mut expected: Vec<BTreeMap<String, u32>> = Vec::new();
    for (place, ip) in &vantages {
        let request = SearchRequest {
            location: place.clone(),
            ip: Some(*ip),
            format: SearchFormat::Json,
            ..SearchRequest::new("hiking boots")
        };
        let fetched = host.runtime.block_on(client.search(&request)).unwrap();
        let SearchAnswer::Results(results) = fetched.value else {
            panic!("JSON results")
        };
        let mut ranks = BTreeMap::new();
        let organic = results.results.iter().filter(|r| {
            matches!(
                r.kind,
                ResultKind::Organic | ResultKind::OrganicWithSitelinks
            ) && !r.url.is_empty()
        });
        for (i, result) in organic.enumerate() {
            let url = result.url.trim_end_matches('/').to_lowercase();
            ranks.entry(url).or_insert(i as u32 + 1);
        }
        expected.push(ranks);
    }

    let output = host.run(&[
        "compare-search",
        "hiking boots",
        "--locations",
        "us:ny:New+York,de::Berlin",
        "--ip",
        "residential,isp",
        "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = json["rows"].as_array().unwrap();
    let all: BTreeSet<&String> = expected.iter().flat_map(|m| m.keys()).collect();
    assert_eq!(rows.len(), all.len());
    for row in rows {
        let url = row["url"].as_str().unwrap().to_lowercase();
        let cells = row["cells"].as_array().unwrap();
        for (column, ranks) in expected.iter().enumerate() {
            let want = ranks.get(&url).copied();
            let got = cells[column]["rank"].as_u64().map(|r| r as u32);
            assert_eq!(got, want, "{url} in column {}", column + 1);
            let first = expected[0].get(&url).copied();
            let movement = &cells[column]["movement"];
            match (column, first, want) {
                (0, _, _) => assert_eq!(movement, "same"),
                (_, Some(a), Some(b)) if b < a => assert_eq!(movement["up"], a - b),
                (_, Some(a), Some(b)) if b > a => assert_eq!(movement["down"], b - a),
                (_, None, Some(_)) => assert_eq!(movement, "new"),
                (_, Some(_), None) => assert_eq!(movement, "gone"),
                _ => {}
            }
        }
    }

    // Text: one line per URL with its rank in each column.
    let output = host.run(&[
        "compare-search",
        "hiking boots",
        "--locations",
        "us:ny:New+York,de::Berlin",
        "--ip",
        "residential,isp",
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("DE/–/Berlin · isp"), "{text}");
    assert!(text.contains("movement against column 1"), "{text}");
}

#[test]
fn compare_search_prints_brand_rows_as_text_json_and_csv() {
    let host = Host::start();
    let request = SearchRequest {
        location: location("US", Some("NY"), "New York"),
        format: SearchFormat::Json,
        ..SearchRequest::new("hiking boots")
    };
    let fetched = host
        .runtime
        .block_on(host.client().search(&request))
        .unwrap();
    let SearchAnswer::Results(results) = fetched.value else {
        panic!("JSON results")
    };
    let first = results
        .results
        .iter()
        .find(|r| {
            matches!(
                r.kind,
                ResultKind::Organic | ResultKind::OrganicWithSitelinks
            )
        })
        .expect("an organic result");
    let domain = url::Url::parse(&first.url)
        .unwrap()
        .host_str()
        .unwrap()
        .trim_start_matches("www.")
        .to_string();
    let brands = format!("Top={domain},Nodomain");
    let args = |extra: &[&'static str]| {
        let mut all = vec![
            "compare-search".to_string(),
            "hiking boots".into(),
            "--locations".into(),
            "us:ny:New+York".into(),
            "--brands".into(),
            brands.clone(),
        ];
        all.extend(extra.iter().map(|s| s.to_string()));
        all
    };
    let run = |extra: &[&'static str]| {
        let all = args(extra);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let output = host.run(&refs);
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let text = run(&[]);
    assert!(text.contains("Brands (best rank"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("Top") && l.trim_end().ends_with(" 1")),
        "{text}"
    );
    assert!(
        text.contains("Not ranked, for want of a domain: Nodomain"),
        "{text}"
    );
    let json: Value = serde_json::from_str(&run(&["--json"])).unwrap();
    assert_eq!(json["brand_rows"][0]["brand"], "Top");
    assert_eq!(json["brand_rows"][0]["ranks"][0], 1);
    let csv = run(&["--csv"]);
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("brand,"), "{csv}");
    assert_eq!(lines.next(), Some("Top,1"), "{csv}");
}

#[test]
fn invalid_comparisons_are_refused_before_anything_is_sent() {
    let host = Host::start();
    // 104 columns cost 520 credits, over the 500 asked without --yes.
    let too_costly = host.run(&[
        "compare",
        "boots",
        "--models",
        "chatgpt,gemini,perplexity,copilot",
        "--locations",
        "us,de,fr,it,es,gb,ca,au,jp,br,mx,in,nl,se,no,dk,fi,pl,pt,ie,at,ch,be,nz,za,ar",
    ]);
    assert_eq!(too_costly.status.code(), Some(2));
    let err = String::from_utf8_lossy(&too_costly.stderr);
    assert!(
        err.contains("104 columns") && err.contains("520 credits") && err.contains("--yes"),
        "{err}"
    );
    let bad = host.run(&["compare", "boots", "--locations", ":ny:"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no country"));
    let long = "x".repeat(2048);
    let over = host.run(&["compare", &long, "--models", "chatgpt"]);
    assert_eq!(over.status.code(), Some(2));
}

#[test]
fn the_ai_overview_is_a_column_beside_a_model_and_mentions_cover_it() {
    let host = Host::start();
    // What the column must hold: the overview of the results page, fetched as the CLI does.
    let request = vantage::present::compare::overview::overview_request(
        "best hiking boots".into(),
        Location::default(),
        None,
    );
    let fetched = host
        .runtime
        .block_on(host.client().search(&request))
        .unwrap();
    let expected = vantage::present::compare::overview::overview_answer(request, fetched);
    let cited = expected.sources.first().expect("the overview cites pages");
    let cited_domain = cited.domain.clone();
    assert!(!expected.plain_text.is_empty());

    let brands = format!("Keen,Cited={cited_domain}");
    let output = host.run(&[
        "compare",
        "best hiking boots",
        "--models",
        "chatgpt,ai-overview",
        "--brands",
        &brands,
        "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("Waiting for the AI Overview"), "{stderr}");
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let columns = json["columns"].as_array().unwrap();
    assert_eq!(columns.len(), 2);
    assert_eq!(columns[1]["label"], "AI Overview · anywhere");
    assert_eq!(
        columns[1]["chars"].as_u64(),
        Some(expected.plain_text.chars().count() as u64)
    );
    assert!(columns.iter().all(|c| c["error"].is_null()), "{json}");
    // The overview's column is not counted as a model's.
    assert_eq!(columns[1]["model"], "ai-overview");
    // Each column carries its reading, as `ai --json` prints one.
    let chatgpt = &columns[0]["reading"];
    assert_eq!(chatgpt["model"], "chatgpt");
    assert_eq!(chatgpt["prompt"], "best hiking boots");
    assert!(chatgpt["fanouts"].as_array().is_some_and(|f| !f.is_empty()));
    assert!(chatgpt["overview"].is_null());
    let overview = &columns[1]["reading"];
    assert_eq!(overview["model"], "ai-overview");
    assert_eq!(overview["text"], expected.plain_text.as_str());
    assert_eq!(overview["overview"]["text"], expected.plain_text.as_str());
    let sources = overview["overview"]["sources"].as_array().unwrap();
    assert_eq!(sources.len(), expected.sources.len());
    assert_eq!(sources[0]["url"], cited.url.as_str());
    assert_eq!(sources[0]["n"], 1);
    let cited_brand = overview["mentions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["brand"] == "Cited")
        .expect("the tracked brand's mention");
    assert_eq!(cited_brand["cited"], true);
    let rows = json["mentions"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for row in rows {
        let cells = row["columns"].as_array().unwrap();
        assert_eq!(cells.len(), 2);
        assert!(
            cells.iter().all(|c| c.is_object()),
            "both columns answered: {row}"
        );
    }
    assert_eq!(rows[1]["columns"][1]["cited"], true, "{json}");

    // Text: the overview's column is in the summary and the matrix.
    let output = host.run(&[
        "compare",
        "best hiking boots",
        "--models",
        "ai-overview,gemini",
        "--brands",
        &brands,
    ]);
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("AI Overview · anywhere"), "{text}");
    assert!(text.contains("Mentions — "), "{text}");

    let refused = host.run(&["compare", "boots", "--models", "bard"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("ai-overview"), "{stderr}");
}

#[test]
fn gaps_name_the_columns_where_competitors_stand_without_your_brand() {
    let host = Host::start();
    let args = [
        "compare",
        "best hiking boots",
        "--models",
        "chatgpt,gemini,perplexity,copilot",
        "--locations",
        "us,de",
        "--brands",
        "Lowa,Salomon,Scarpa,Keen,La Sportiva",
        "--gaps",
    ];
    // Without your brand there is nothing to compare: refused before anything is sent.
    let refused = host.run(&args);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("own = true"));
    let mut with_own = args.to_vec();
    with_own.extend(["--own", "lowa", "--json"]);
    let output = host.run(&with_own);
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let gaps = &json["gaps"];
    assert_eq!(gaps["own"], "Lowa");
    let columns = gaps["columns"].as_array().unwrap();
    assert!(!columns.is_empty(), "{json:#}");
    // Each gap is a column whose row in the matrix lacks Lowa and has a competitor.
    let rows = json["mentions"].as_array().unwrap();
    let lowa = rows.iter().find(|r| r["brand"] == "Lowa").unwrap();
    for gap in columns {
        let i = gap["column"].as_u64().unwrap() as usize - 1;
        assert!(lowa["columns"][i]["position"].is_null(), "{gap}");
        assert!(!gap["competitors"].as_array().unwrap().is_empty());
    }
    let text = host.run(&with_own[..with_own.len() - 1]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Gaps: where Lowa (your brand) is missing"),
        "{text}"
    );
}

/// The 95 % Wilson score interval, written out here apart from the app's code.
fn wilson_percent(named: f64, asked: f64) -> (f64, f64) {
    let z: f64 = 1.959_963_984_540_054;
    let p = named / asked;
    let centre = p + z * z / (2.0 * asked);
    let half = z * (p * (1.0 - p) / asked + z * z / (4.0 * asked * asked)).sqrt();
    let scale = 1.0 + z * z / asked;
    (
        (centre - half) / scale * 100.0,
        (centre + half) / scale * 100.0,
    )
}

#[test]
fn samples_give_each_cell_a_count_and_its_interval() {
    let host = Host::start();
    let args = [
        "compare",
        "best hiking boots",
        "--models",
        "chatgpt,gemini",
        "--locations",
        "us,de",
        "--samples",
        "5",
        "--brands",
        "Salomon,Merrell",
    ];
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let output = host.run(&json_args);
    assert!(output.status.success(), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["samples"], 5);
    let rows = json["sampled"].as_array().expect("sampled rows");
    assert_eq!(rows.len(), 2);
    let mut varied = 0;
    for row in rows {
        let cells = row["columns"].as_array().unwrap();
        assert_eq!(cells.len(), 4, "{row}");
        for cell in cells {
            let named = cell["named"].as_f64().unwrap();
            let asked = cell["asked"].as_f64().unwrap();
            assert_eq!(asked, 5.0, "{cell}");
            let (low, high) = wilson_percent(named, asked);
            assert!((cell["low"].as_f64().unwrap() - low).abs() < 1e-6, "{cell}");
            assert!(
                (cell["high"].as_f64().unwrap() - high).abs() < 1e-6,
                "{cell}"
            );
            if named > 0.0 && named < asked {
                varied += 1;
            }
        }
        let overall = &row["overall"];
        assert_eq!(overall["asked"], 20);
        assert!(row["difference"]["different"].is_boolean(), "{row}");
    }
    // The simulator's samples of one prompt and place differ: some brand is named in some
    // of a cell's answers and not in others.
    assert!(varied > 0, "{json:#}");

    let text = host.run(&args);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("Each column was asked 5 times"), "{text}");
    assert!(text.contains(" of 5 ("), "{text}");
    assert!(
        text.contains("no clear difference") || text.contains("different (p = "),
        "{text}"
    );
    let mut csv_args = args.to_vec();
    csv_args.extend(["--csv", "matrix"]);
    let csv = host.run(&csv_args);
    let csv = String::from_utf8_lossy(&csv.stdout);
    let header = csv.lines().next().unwrap_or_default();
    assert!(
        header.contains("ChatGPT · US named") && header.contains("ChatGPT · US low %"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 3, "{csv}");

    for (extra, said) in [
        (vec!["--samples", "30"], "1 to 20"),
        (vec!["--samples", "5", "--expiration", "1"], "afresh"),
    ] {
        let mut refused = args[..args.len() - 4].to_vec();
        refused.extend(extra);
        let output = host.run(&refused);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains(said));
    }
}
