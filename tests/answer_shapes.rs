//! The simulator's answers in the live shapes (part 23), read by vantage as a user sees and
//! counts them: either name of the searches a model made, Copilot's chrome, Perplexity's
//! folded citation tokens, and answers that follow the prompt.

use std::collections::BTreeSet;

use serde_json::Value;
use vantage::analysis::mentions::Brand;
use vantage::api::{AiAnswer, AiRequest, Client, Location, Model};
use vantage::present::answer::{self, PreparedAnswer};

mod common;

use common::{client, quick, start};

async fn ask(api: &Client, model: Model, prompt: &str) -> (Value, PreparedAnswer) {
    let request = AiRequest {
        model: Some(model),
        location: Location {
            country: Some("US".into()),
            ..Location::default()
        },
        ..AiRequest::new(prompt)
    };
    let fetched = api.ai(&request).await.expect("answered");
    let raw: Value = serde_json::from_str(&fetched.body).expect("JSON");
    (raw, answer::prepare(request, fetched))
}

/// The Answer view as drawn, a line a row.
fn shown(answer: &PreparedAnswer) -> String {
    answer
        .answer
        .lines(100)
        .iter()
        .map(|line| {
            line.spans
                .iter()
                .map(|span| span.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn completion(raw: &Value) -> &str {
    raw["completion"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn either_name_of_the_searches_is_read_as_fanouts() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let mut names = BTreeSet::new();
    for n in 0..16 {
        let request = AiRequest {
            model: Some(Model::Chatgpt),
            ..AiRequest::new(format!("best hiking boots for trip {n}"))
        };
        let fetched = api.ai(&request).await.unwrap();
        let raw: Value = serde_json::from_str(&fetched.body).unwrap();
        let (name, searches) = ["fanouts", "subqueries"]
            .iter()
            .find_map(|name| raw.get(*name).map(|v| (*name, v.clone())))
            .expect("the searches under one name or the other");
        names.insert(name);
        let AiAnswer::Completion(read) = &fetched.value else {
            panic!("a completion");
        };
        let searches: Vec<String> = serde_json::from_value(searches).unwrap();
        assert!(!searches.is_empty());
        assert_eq!(read.fanouts, searches, "{name}");
        assert_eq!(answer::prepare(request, fetched).fanouts, searches);
    }
    assert_eq!(names.len(), 2, "both names met: {names:?}");
}

#[tokio::test]
async fn copilots_chrome_is_neither_shown_nor_read() {
    let sim = start(quick()).await;
    let (raw, answer) = ask(&client(&sim), Model::Copilot, "best hiking boots").await;
    let html = completion(&raw);
    for chrome in ["Show all", "Edit in a page", "citation-cards-row"] {
        assert!(html.contains(chrome), "the simulator sends {chrome}");
    }
    let first_title = answer.sources[0].title.clone();
    assert!(
        html.contains(&first_title),
        "the card repeats the first reference"
    );
    let view = shown(&answer);
    for text in [&answer.plain_text, &view] {
        assert!(!text.contains("Show all"), "{text}");
        assert!(!text.contains("Edit in a page"), "{text}");
        assert!(!text.contains(&first_title), "{text}");
    }
    let names: Vec<&str> = answer.candidates.iter().map(|c| c.name.as_str()).collect();
    assert!(
        !names
            .iter()
            .any(|n| n.contains("Show all") || n.contains("Edit")),
        "{names:?}"
    );
    // The references, without their tracking, and the card's page counted once.
    let references = raw["sources"].as_str().unwrap_or_default();
    assert_eq!(
        answer.sources.len(),
        references.matches("?utm_source=copilot.com").count()
    );
    assert!(answer.sources.iter().all(|s| !s.url.contains("utm_source")));
}

#[tokio::test]
async fn perplexitys_tokens_are_neither_words_nor_brands() {
    let sim = start(quick()).await;
    let (raw, answer) = ask(&client(&sim), Model::Perplexity, "best hiking boots").await;
    let html = completion(&raw);
    // The sites the chips name: `<span class="citation-site">rei</span><span …>+1</span>`.
    let sites: BTreeSet<&str> = html
        .split("class=\"citation-site\">")
        .skip(1)
        .filter_map(|rest| rest.split('<').next())
        .collect();
    assert!(html.contains("class=\"citation-more\">+"), "folded chips");
    assert!(sites.len() >= 3, "{sites:?}");
    let glued = |text: &str| {
        text.split_whitespace().any(|word| {
            word.split_once('+').is_some_and(|(before, count)| {
                !before.is_empty() && !count.is_empty() && count.chars().all(|c| c.is_ascii_digit())
            })
        })
    };
    assert!(!glued(&answer.plain_text), "{}", answer.plain_text);
    assert!(!glued(&shown(&answer)), "{}", shown(&answer));
    // A brand named like a chip's site is not named by the chip.
    let brands: Vec<Brand> = sites.iter().map(|site| Brand::named(site)).collect();
    for mention in answer.mentions(&brands) {
        let in_words = answer
            .plain_text
            .to_lowercase()
            .contains(&mention.brand.to_lowercase());
        assert!(in_words || mention.count == 0, "{mention:?}");
    }
}

#[tokio::test]
async fn a_json_only_answer_reads_as_json() {
    let sim = start(quick()).await;
    let api = client(&sim);
    for model in [
        Model::Chatgpt,
        Model::Gemini,
        Model::Perplexity,
        Model::Copilot,
    ] {
        let (_, answer) = ask(&api, model, "Reply with only JSON: the best CRM tools").await;
        let value: Value = serde_json::from_str(answer.plain_text.trim())
            .unwrap_or_else(|e| panic!("{model}: {e}: {}", answer.plain_text));
        assert!(
            value["items"]
                .as_array()
                .is_some_and(|items| items.len() == 3)
        );
    }
}

#[tokio::test]
async fn a_list_of_n_is_read_as_n_ranked_items_and_a_field_as_its_brands() {
    let sim = start(quick()).await;
    let api = client(&sim);
    for model in [
        Model::Chatgpt,
        Model::Gemini,
        Model::Perplexity,
        Model::Copilot,
    ] {
        let (raw, answer) = ask(&api, model, "list 7 espresso machines").await;
        // The items' names, from the list as sent: `<li>\n<p><strong>Name</strong>`.
        let names: Vec<String> = completion(&raw)
            .split("<li>\n<p><strong>")
            .skip(1)
            .filter_map(|rest| rest.split("</strong>").next())
            .map(|name| html_escape::decode_html_entities(name).into_owned())
            .collect();
        assert_eq!(names.len(), 7, "{model}");
        let brands: Vec<Brand> = names.iter().map(|name| Brand::named(name)).collect();
        let ranks: BTreeSet<Option<usize>> = answer
            .mentions(&brands)
            .iter()
            .map(|mention| mention.rank)
            .collect();
        assert_eq!(ranks, (1..=7).map(Some).collect(), "{model}");

        // A tracker of a field's makers finds four to seven of them.
        let (_, answer) = ask(&api, model, "best running shoes").await;
        let makers = [
            "Brooks",
            "Hoka",
            "Asics",
            "Nike",
            "Saucony",
            "New Balance",
            "Adidas",
            "Mizuno",
            "Cloudmonster",
        ];
        let brands: Vec<Brand> = makers.iter().map(|name| Brand::named(name)).collect();
        let named = answer
            .mentions(&brands)
            .iter()
            .filter(|mention| mention.count > 0)
            .count();
        assert!((4..=7).contains(&named), "{model}: {named}");
    }
}
