//! The JSON field names of the contract, pinned: the simulator's bodies carry exactly these
//! keys, the client's types read them, and real captures from the live service parse.

// Test helpers outside #[test] functions may panic too: a panic is a failed test here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;

use common::{client, fix_documented_json, quick, start};
use serde_json::Value;
use vantage::api::{
    AiRequest, Completion, Location, Model, ResultKind, SearchFormat, SearchRequest, SearchResults,
};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/live");

const COMPLETION_REQUIRED: [&str; 9] = [
    "model",
    "query",
    "html",
    "prompt",
    "completion",
    "sources",
    "ads",
    "sse",
    "fanouts",
];
const COMPLETION_OPTIONAL: [&str; 6] = [
    "device",
    "country",
    "subdivision",
    "city",
    "language",
    "display",
];
const SEARCH_KEYS: [&str; 14] = [
    "engine",
    "terms",
    "results",
    "resultsCount",
    "pageCount",
    "pageSize",
    "approxResultsCount",
    "resultsOffset",
    "country",
    "subdivision",
    "city",
    "uule",
    "language",
    "display",
];
const ORGANIC_KEYS: [&str; 15] = [
    "type",
    "page",
    "section",
    "feature",
    "position",
    "url",
    "title",
    "site",
    "visibleUrl",
    "date",
    "snippet",
    "rating",
    "votes",
    "sitelinks",
    "images",
];

/// The keys of an object; `subqueries`, the older name live answers still carry on a share
/// of answers (the simulator too, by the day's seed), read as the contract's `fanouts`.
fn keys(value: &Value) -> BTreeSet<&str> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(|key| match key.as_str() {
            "subqueries" => "fanouts",
            other => other,
        })
        .collect()
}

fn set<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeSet<&'a str> {
    names.into_iter().collect()
}

fn fixture(name: &str) -> String {
    let path = format!("{FIXTURES}/{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("fixture {path}: {e}"))
}

fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or_default()
}

// ---------- completions ----------

#[tokio::test]
async fn completion_keys_are_the_contract_s() {
    let sim = start(quick()).await;
    let api = client(&sim);

    // ChatGPT with no options: the required fields only.
    let plain = api.ai(&AiRequest::new("best hiking boots")).await.unwrap();
    let body: Value = serde_json::from_str(&plain.body).unwrap();
    assert_eq!(keys(&body), set(COMPLETION_REQUIRED));

    // Every option set: the optional fields join them.
    let full = AiRequest {
        model: Some(Model::Copilot),
        device: Some("Pixel 4a (5G)".into()),
        location: Location {
            country: Some("FR".into()),
            subdivision: Some("IDF".into()),
            city: Some("Paris".into()),
        },
        language: Some("French".into()),
        display: Some("fr".into()),
        ..AiRequest::new("meilleures chaussures de randonnée")
    };
    let fetched = api.ai(&full).await.unwrap();
    let body: Value = serde_json::from_str(&fetched.body).unwrap();
    // `sse` is ChatGPT's only, as live answers carry it.
    let all: BTreeSet<&str> = COMPLETION_REQUIRED
        .into_iter()
        .chain(COMPLETION_OPTIONAL)
        .filter(|key| *key != "sse")
        .collect();
    assert_eq!(keys(&body), all);
    for key in all.iter().filter(|k| **k != "fanouts") {
        assert!(body[key].is_string(), "{key} is a string");
    }
    assert!(body["fanouts"].is_array() || body["subqueries"].is_array());

    // The client's type reads every one of them.
    let typed: Completion = serde_json::from_value(body.clone()).unwrap();
    assert_eq!(typed.model, str_of(&body, "model"));
    assert_eq!(typed.query, str_of(&body, "query"));
    assert_eq!(typed.html, str_of(&body, "html"));
    assert_eq!(typed.prompt, str_of(&body, "prompt"));
    assert_eq!(typed.completion, str_of(&body, "completion"));
    assert_eq!(typed.sources, str_of(&body, "sources"));
    assert_eq!(typed.ads, str_of(&body, "ads"));
    assert_eq!(typed.device.as_deref(), Some("Pixel 4a (5G)"));
    assert_eq!(typed.country.as_deref(), Some("FR"));
    assert_eq!(typed.subdivision.as_deref(), Some("IDF"));
    assert_eq!(typed.city.as_deref(), Some("Paris"));
    assert_eq!(typed.language.as_deref(), Some("French"));
    assert_eq!(typed.display.as_deref(), Some("fr"));

    // Models other than ChatGPT send unset options as empty strings: read as unset.
    let gemini = api
        .ai(&AiRequest {
            model: Some(Model::Gemini),
            ..AiRequest::new("hi")
        })
        .await
        .unwrap();
    let body: Value = serde_json::from_str(&gemini.body).unwrap();
    assert_eq!(keys(&body), all);
    assert_eq!(body["device"], "");
    let typed: Completion = serde_json::from_value(body).unwrap();
    assert_eq!((typed.device, typed.country), (None, None));
}

#[tokio::test]
async fn queued_job_ids_devices_and_account_have_their_shapes() {
    let sim = start(quick()).await;
    let api = client(&sim);
    // The 202 of an async submission is {"id": uuid}; seen through the raw body.
    let url = format!(
        "{}/ai?prompt=hi&mode=async&format=json",
        sim.url().trim_end_matches('/')
    );
    let _ = rustls::crypto::ring::default_provider().install_default();
    let response = reqwest::Client::new()
        .get(url)
        .bearer_auth(sim.token())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 202);
    let body: Value = response.json().await.unwrap();
    assert_eq!(keys(&body), set(["id"]));
    assert!(uuid::Uuid::parse_str(str_of(&body, "id")).is_ok());

    let devices = api.devices().await.unwrap();
    let list: Value = serde_json::from_str(&devices.body).unwrap();
    assert!(list.as_array().unwrap().iter().all(Value::is_string));
    assert_eq!(list.as_array().unwrap().len(), devices.value.len());

    let account = api.account().await.unwrap();
    assert_eq!(account.credits, Some(sim.credits()));
}

#[test]
fn the_live_chatgpt_completion_parses() {
    let text = fixture("ai-chatgpt-sample.json");
    let raw: Value = serde_json::from_str(&text).unwrap();
    assert!(raw.get("subqueries").is_some() && raw.get("fanouts").is_none());
    let completion: Completion = serde_json::from_str(&text).unwrap();
    assert_eq!(completion.fanouts, vec!["what is mcp", "mcp meaning"]);
    assert_eq!(completion.model, "chatgpt");
    assert_eq!(completion.query, "what is mcp");
    assert!(!completion.completion.is_empty());
    assert!(completion.html.len() > 300_000);
    assert_eq!(
        (completion.sources.as_str(), completion.ads.as_str()),
        ("", "")
    );
    assert_eq!(completion.device, None);
}

// ---------- search results ----------

#[tokio::test]
async fn search_keys_are_the_contract_s() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let request = SearchRequest {
        serps: Some(3),
        size: Some(30),
        format: SearchFormat::Json,
        ..SearchRequest::new("best hiking boots")
    };
    let fetched = api.search(&request).await.unwrap();
    let body: Value = serde_json::from_str(&fetched.body).unwrap();
    assert_eq!(keys(&body), set(SEARCH_KEYS));
    for key in [
        "country",
        "subdivision",
        "city",
        "uule",
        "language",
        "display",
    ] {
        assert!(body[key].is_null(), "{key} is present as null when unset");
    }
    assert_eq!(body["resultsOffset"], Value::Null);
    let results = body["results"].as_array().unwrap();
    assert_eq!(body["resultsCount"], results.len());

    let typed: SearchResults = serde_json::from_value(body.clone()).unwrap();
    assert_eq!(typed.engine, "google");
    assert_eq!(typed.terms, "best hiking boots");
    assert_eq!(typed.results.len(), results.len());
    assert_eq!(typed.results_count, Some(results.len() as u64));
    assert_eq!(typed.page_count, Some(3));
    assert_eq!(typed.page_size, Some(30));
    assert_eq!(
        typed.approx_results_count,
        body["approxResultsCount"].as_u64()
    );

    let mut sitelinks_seen = 0;
    let mut images_seen = 0;
    for (value, result) in results.iter().zip(&typed.results) {
        let kind = str_of(value, "type");
        assert_eq!(result.kind.type_name(), kind);
        if !kind.starts_with("organic") {
            continue;
        }
        assert_eq!(keys(value), set(ORGANIC_KEYS), "{value}");
        assert_eq!(result.page as u64, value["page"].as_u64().unwrap());
        assert_eq!(result.section, str_of(value, "section"));
        assert_eq!(result.feature as u64, value["feature"].as_u64().unwrap());
        assert_eq!(result.position as u64, value["position"].as_u64().unwrap());
        assert_eq!(result.url, str_of(value, "url"));
        assert_eq!(result.title, str_of(value, "title"));
        assert_eq!(result.site, str_of(value, "site"));
        assert_eq!(result.visible_url, str_of(value, "visibleUrl"));
        assert_eq!(result.date.as_deref(), value["date"].as_str());
        assert_eq!(result.snippet, str_of(value, "snippet"));
        assert_eq!(result.rating, value["rating"].as_f64());
        assert_eq!(result.votes, value["votes"].as_u64());
        assert!(result.raw.is_none(), "an organic result reads whole");
        for (link, typed_link) in value["sitelinks"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&result.sitelinks)
        {
            sitelinks_seen += 1;
            assert_eq!(keys(link), set(["position", "url", "title"]));
            assert_eq!(typed_link.url, str_of(link, "url"));
            assert_eq!(typed_link.title, str_of(link, "title"));
            assert_eq!(
                typed_link.position.map(u64::from),
                link["position"].as_u64()
            );
        }
        for (image, typed_image) in value["images"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&result.images)
        {
            images_seen += 1;
            let image_keys = keys(image);
            assert!(
                image_keys == set(["position", "source", "alt"])
                    || image_keys == set(["position", "source", "altText"]),
                "{image_keys:?}"
            );
            let alt = image
                .get("alt")
                .or_else(|| image.get("altText"))
                .and_then(Value::as_str)
                .unwrap();
            assert_eq!(typed_image.alt, alt);
            assert_eq!(typed_image.source, str_of(image, "source"));
        }
        assert_eq!(
            result.sitelinks.len(),
            value["sitelinks"].as_array().unwrap().len()
        );
        assert_eq!(
            result.images.len(),
            value["images"].as_array().unwrap().len()
        );
    }
    assert!(sitelinks_seen > 0, "some result has sitelinks");
    assert!(images_seen > 0, "some result has images");
}

#[tokio::test]
async fn search_keys_echo_the_chosen_options() {
    let sim = start(quick()).await;
    let request = SearchRequest {
        size: Some(10),
        offset: Some(5),
        location: Location {
            country: Some("US".into()),
            subdivision: Some("NY".into()),
            city: Some("New York".into()),
        },
        uule: Some("w+CAIQICIGTmV3IFlvcms".into()),
        language: Some("en".into()),
        display: Some("English".into()),
        format: SearchFormat::Json,
        ..SearchRequest::new("pizza")
    };
    let fetched = client(&sim).search(&request).await.unwrap();
    let body: Value = serde_json::from_str(&fetched.body).unwrap();
    assert_eq!(keys(&body), set(SEARCH_KEYS));
    let typed: SearchResults = serde_json::from_value(body).unwrap();
    assert_eq!(typed.page_size, Some(10));
    assert_eq!(typed.results_offset, Some(5));
    assert_eq!(typed.country.as_deref(), Some("US"));
    assert_eq!(typed.subdivision.as_deref(), Some("NY"));
    assert_eq!(typed.city.as_deref(), Some("New York"));
    assert_eq!(typed.uule.as_deref(), Some("w+CAIQICIGTmV3IFlvcms"));
    assert_eq!(typed.language.as_deref(), Some("en"));
    assert_eq!(typed.display.as_deref(), Some("English"));
}

#[test]
fn the_fixer_removes_only_placeholders_and_dangling_commas() {
    let fixed = fix_documented_json(
        r#"{"a": [{"[Remaining here]"}, {"x": "a, ]"}, {"[More]"}, {"y": 1,}, {"[Last]"}],}"#,
    );
    let value: Value = serde_json::from_str(&fixed).unwrap_or_else(|e| panic!("{e}: {fixed}"));
    assert_eq!(value, serde_json::json!({"a": [{"x": "a, ]"}, {"y": 1}]}));
}

#[test]
fn the_documented_search_sample_parses_with_every_entry() {
    let markdown = fixture("search-json-sample.md");
    let fixed = fix_documented_json(&markdown);
    let body: Value = serde_json::from_str(&fixed).unwrap_or_else(|e| panic!("{e}\n{fixed}"));
    let real_entries = markdown.matches("\"type\":").count();
    assert_eq!(real_entries, 12);
    assert_eq!(body["results"].as_array().unwrap().len(), real_entries);

    let page: SearchResults = serde_json::from_str(&fixed).unwrap();
    assert_eq!(page.engine, "google");
    assert_eq!(page.terms, "foo");
    assert_eq!(page.results_count, Some(43));
    assert_eq!(page.approx_results_count, Some(255_000_000));
    assert_eq!(page.results.len(), real_entries);
    let kinds: Vec<&str> = page.results.iter().map(|r| r.kind.type_name()).collect();
    assert_eq!(
        kinds,
        [
            "organic",
            "also-asked",
            "also-asked",
            "also-asked",
            "organic",
            "organic",
            "top-story",
            "top-story",
            "top-story",
            "also-searched",
            "also-searched",
            "also-searched",
        ]
    );
    assert!(
        page.results
            .iter()
            .all(|r| !matches!(r.kind, ResultKind::Other(_)) && r.raw.is_none()),
        "every kind is recognised and read whole"
    );

    let first = &page.results[0];
    assert_eq!(first.url, "https://foofighters.com/");
    assert_eq!(first.visible_url, "https://foofighters.com");
    assert_eq!(
        (first.date.as_deref(), first.rating, first.votes),
        (None, None, None)
    );
    assert_eq!(first.sitelinks.len(), 4);
    assert_eq!(first.sitelinks[3].position, Some(4));
    assert_eq!(first.sitelinks[0].title, "Tour Dates");

    let asked = &page.results[3];
    assert_eq!(asked.question, "Why do Hispanics say \"foo\"?");
    let answer = asked.answer.as_ref().unwrap();
    assert_eq!(answer.site, "Our Esquina");
    assert_eq!(answer.date.as_deref(), Some("Apr 11, 2022"));
    assert_eq!(answer.heading, None);
    assert_eq!(asked.heading(), asked.question);
    assert!(asked.target_url().starts_with("https://ouresquina.com/"));

    let wiki = &page.results[4];
    assert_eq!(wiki.site, "Wikipedia");
    assert_eq!(wiki.images.len(), 1);
    assert_eq!(wiki.images[0].alt, "foo from en.wikipedia.org");
    assert_eq!(wiki.images[0].position, Some(1));

    let story = &page.results[6];
    assert_eq!(story.publisher, "New York Post");
    assert!(story.headline.starts_with("Foo Fighters’ Dave Grohl"));
    assert_eq!(story.date.as_deref(), Some("2 hours ago"));
    assert_eq!(story.image.as_deref(), Some("[Image data here]"));

    let also = &page.results[9];
    assert_eq!(also.query, "Dave Grohl");
    assert_eq!(also.section, "bottom");
    assert_eq!(page.results[11].query, "Nirvana");
}

#[test]
fn contract_spellings_and_live_spellings_both_read() {
    // altText (contract) and alt (live); fanouts (contract) and subqueries (older live).
    let image: vantage::api::response::ResultImage =
        serde_json::from_str(r#"{"position":1,"source":"s","altText":"a"}"#).unwrap();
    assert_eq!(image.alt, "a");
    let image: vantage::api::response::ResultImage =
        serde_json::from_str(r#"{"position":1,"source":"s","alt":"b"}"#).unwrap();
    assert_eq!(image.alt, "b");
    let c: Completion = serde_json::from_str(r#"{"fanouts":["x"]}"#).unwrap();
    assert_eq!(c.fanouts, ["x"]);
    let c: Completion = serde_json::from_str(r#"{"subqueries":["y"]}"#).unwrap();
    assert_eq!(c.fanouts, ["y"]);
}
