//! Invalid requests are caught by the client before anything is sent: each names its field,
//! exits 2, and the simulator never hears of it.

mod common;

use common::{client, quick, start};
use vantage::api::{
    AiRequest, ApiError, Awaiting, Client, Field, JobId, JobKind, Location, SearchRequest,
};

enum Input {
    Ai(AiRequest),
    Search(SearchRequest),
    Job(JobKind, &'static str),
}

fn ai(prompt: &str) -> AiRequest {
    AiRequest::new(prompt)
}

fn ai_at(country: Option<&str>, subdivision: Option<&str>, city: Option<&str>) -> AiRequest {
    AiRequest {
        location: place(country, subdivision, city),
        ..ai("best hiking boots")
    }
}

fn search(terms: &str) -> SearchRequest {
    SearchRequest::new(terms)
}

fn search_with(edit: impl FnOnce(&mut SearchRequest)) -> SearchRequest {
    let mut request = search("best hiking boots");
    edit(&mut request);
    request
}

fn place(country: Option<&str>, subdivision: Option<&str>, city: Option<&str>) -> Location {
    Location {
        country: country.map(str::to_string),
        subdivision: subdivision.map(str::to_string),
        city: city.map(str::to_string),
    }
}

fn cases() -> Vec<(&'static str, Input, Field)> {
    use Input::{Ai, Job, Search};
    let long = |n: usize| "x".repeat(n);
    vec![
        ("empty prompt", Ai(ai("")), Field::Prompt),
        ("blank prompt", Ai(ai(" \t\n ")), Field::Prompt),
        ("2048-char prompt", Ai(ai(&long(2048))), Field::Prompt),
        (
            "2048 multi-byte chars",
            Ai(ai(&"é".repeat(2048))),
            Field::Prompt,
        ),
        ("2048 emoji", Ai(ai(&"🥾".repeat(2048))), Field::Prompt),
        ("NUL in prompt", Ai(ai("best\0boots")), Field::Prompt),
        (
            "ai expiration 2",
            Ai(AiRequest {
                expiration: Some(2),
                ..ai("hi")
            }),
            Field::Expiration,
        ),
        (
            "country USA",
            Ai(ai_at(Some("USA"), None, None)),
            Field::Country,
        ),
        (
            "country 1A",
            Ai(ai_at(Some("1A"), None, None)),
            Field::Country,
        ),
        (
            "country empty",
            Ai(ai_at(Some(""), None, None)),
            Field::Country,
        ),
        (
            "subdivision without country",
            Ai(ai_at(None, Some("NY"), None)),
            Field::Subdivision,
        ),
        (
            "subdivision N-Y",
            Ai(ai_at(Some("US"), Some("N-Y"), None)),
            Field::Subdivision,
        ),
        (
            "subdivision of 4",
            Ai(ai_at(Some("US"), Some("NYCA"), None)),
            Field::Subdivision,
        ),
        (
            "city without country",
            Ai(ai_at(None, None, Some("Berlin"))),
            Field::City,
        ),
        (
            "city of 101 chars",
            Ai(ai_at(Some("US"), None, Some(&long(101)))),
            Field::City,
        ),
        (
            "control char in city",
            Ai(ai_at(Some("US"), None, Some("New\u{7}York"))),
            Field::City,
        ),
        (
            "device blank",
            Ai(AiRequest {
                device: Some("  ".into()),
                ..ai("hi")
            }),
            Field::Device,
        ),
        (
            "device of 101 chars",
            Ai(AiRequest {
                device: Some(long(101)),
                ..ai("hi")
            }),
            Field::Device,
        ),
        (
            "ai language blank",
            Ai(AiRequest {
                language: Some(String::new()),
                ..ai("hi")
            }),
            Field::Language,
        ),
        (
            "ai display of 101 chars",
            Ai(AiRequest {
                display: Some(long(101)),
                ..ai("hi")
            }),
            Field::Display,
        ),
        ("empty terms", Search(search("")), Field::Terms),
        ("blank terms", Search(search("   ")), Field::Terms),
        ("256-char terms", Search(search(&long(256))), Field::Terms),
        (
            "256 multi-byte terms",
            Search(search(&"ü".repeat(256))),
            Field::Terms,
        ),
        (
            "newline in terms",
            Search(search("hiking\nboots")),
            Field::Terms,
        ),
        (
            "serps 0",
            Search(search_with(|r| r.serps = Some(0))),
            Field::Serps,
        ),
        (
            "serps 11",
            Search(search_with(|r| r.serps = Some(11))),
            Field::Serps,
        ),
        (
            "size 101",
            Search(search_with(|r| r.size = Some(101))),
            Field::Size,
        ),
        (
            "offset 101",
            Search(search_with(|r| r.offset = Some(101))),
            Field::Offset,
        ),
        (
            "search expiration 2",
            Search(search_with(|r| r.expiration = Some(2))),
            Field::Expiration,
        ),
        (
            "search country lowercase three letters",
            Search(search_with(|r| r.location = place(Some("usa"), None, None))),
            Field::Country,
        ),
        (
            "search subdivision without country",
            Search(search_with(|r| r.location = place(None, Some("CA"), None))),
            Field::Subdivision,
        ),
        (
            "search city without country",
            Search(search_with(|r| {
                r.location = place(None, None, Some("Paris"))
            })),
            Field::City,
        ),
        (
            "uule blank",
            Search(search_with(|r| r.uule = Some(" ".into()))),
            Field::Uule,
        ),
        (
            "uule of 1001 chars",
            Search(search_with(|r| r.uule = Some(long(1001)))),
            Field::Uule,
        ),
        (
            "search language blank",
            Search(search_with(|r| r.language = Some("".into()))),
            Field::Language,
        ),
        (
            "search display of 101 chars",
            Search(search_with(|r| r.display = Some(long(101)))),
            Field::Display,
        ),
        (
            "duplicate awaiting",
            Search(search_with(|r| {
                r.awaiting = vec![Awaiting::Ai, Awaiting::Ads, Awaiting::Ai]
            })),
            Field::Awaiting,
        ),
        ("empty job id", Job(JobKind::Ai, ""), Field::Id),
        (
            "job id not a uuid",
            Job(JobKind::Search, "not-a-uuid"),
            Field::Id,
        ),
        (
            "job id path",
            Job(JobKind::Browser, "../etc/passwd"),
            Field::Id,
        ),
        (
            "job id cut short",
            Job(JobKind::Ai, "0b6f1c2e-8f4a-4c1e-9d2b"),
            Field::Id,
        ),
        (
            "job id with a query",
            Job(JobKind::Search, "0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20&x=1"),
            Field::Id,
        ),
        (
            "job id with a space inside",
            Job(JobKind::Browser, "0b6f1c2e-8f4a 4c1e-9d2b-5a7e3c9f1b20"),
            Field::Id,
        ),
    ]
}

/// Sends the input every way the client offers; each attempt must fail before sending.
async fn attempts(api: &Client, input: &Input) -> Vec<ApiError> {
    match input {
        Input::Ai(request) => vec![
            api.ai(request).await.unwrap_err(),
            api.ai_submit(request).await.unwrap_err(),
        ],
        Input::Search(request) => vec![
            api.search(request).await.unwrap_err(),
            api.search_submit(request).await.unwrap_err(),
        ],
        // The client takes only parsed ids, so a bad string stops at parsing; were one to
        // parse, it would be sent, and the request count below would catch it.
        Input::Job(kind, text) => match JobId::parse(text) {
            Err(invalid) => vec![ApiError::from(invalid)],
            Ok(id) => vec![
                api.job(*kind, &id, vantage::api::BodyAsked::Json)
                    .await
                    .err()
                    .unwrap_or(ApiError::Cancelled),
            ],
        },
    }
}

#[tokio::test]
async fn invalid_inputs_fail_naming_their_field_and_nothing_is_sent() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let cases = cases();
    assert!(cases.len() >= 25, "{} cases", cases.len());
    for (name, input, field) in &cases {
        for error in attempts(&api, input).await {
            let ApiError::Invalid(invalid) = &error else {
                panic!("{name}: expected Invalid, got {error:?}");
            };
            assert_eq!(
                invalid.fields().collect::<Vec<_>>(),
                vec![*field],
                "{name}: {invalid}"
            );
            let message = invalid.message_for(*field).unwrap_or_default();
            assert!(!message.is_empty(), "{name}: a reason is given");
            assert_eq!(error.exit_code(), 2, "{name}");
            assert_eq!(error.status(), None, "{name}");
            let sentence = error.to_string();
            assert!(
                sentence.starts_with("Nothing was sent") && sentence.contains(field.as_str()),
                "{name}: {sentence}"
            );
        }
        assert_eq!(sim.requests_received(), 0, "{name} reached the simulator");
    }
    assert_eq!(sim.requests_received(), 0);
    assert_eq!(sim.credits(), 1_000);
}

#[tokio::test]
async fn several_broken_rules_are_all_named() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let request = AiRequest {
        device: Some(" ".into()),
        expiration: Some(5),
        location: place(Some("USA"), Some("N-Y"), None),
        ..AiRequest::new("")
    };
    let Err(ApiError::Invalid(invalid)) = api.ai(&request).await else {
        panic!("expected Invalid");
    };
    let fields: Vec<Field> = invalid.fields().collect();
    for field in [
        Field::Prompt,
        Field::Device,
        Field::Country,
        Field::Subdivision,
        Field::Expiration,
    ] {
        assert!(fields.contains(&field), "{field} missing from {fields:?}");
    }
    assert_eq!(sim.requests_received(), 0);
}

#[tokio::test]
async fn the_limits_themselves_are_valid_and_reach_the_service() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let prompt = AiRequest::new("é".repeat(2047));
    assert!(api.ai(&prompt).await.is_ok());
    let request = SearchRequest {
        serps: Some(10),
        size: Some(0),
        offset: Some(100),
        format: vantage::api::SearchFormat::Json,
        location: place(Some("us"), Some("NY"), Some(&"y".repeat(100))),
        ..SearchRequest::new("ü".repeat(255))
    };
    assert!(api.search(&request).await.is_ok());
    assert_eq!(sim.requests_received(), 2);
}
