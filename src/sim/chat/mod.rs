//! Simulated chatbot answers: an answer is first composed as neutral blocks in the model's
//! voice, then written out in the model's own chat-page markup (hidden labels, citation
//! styles), because the app must cope with each chatbot's page as the live service returns it.

use serde_json::{Map, Value, json};

mod markup;
mod parts;
mod picks;
mod sse;
mod voices;

use super::html::noise;
use super::place::Place;
use super::seed::{FRESH_ASK, Mix, hash_parts};
use super::topic::{Topic, topic_of};

use markup::{ads_markup, completion_markup, page_markup, prompt_markup, sources_markup};
use parts::{pick_sources, sources_from_fanouts};
use voices::{compose_chatgpt, compose_copilot, compose_gemini, compose_perplexity, fanouts};

pub(crate) use super::devices::DeviceClass;
use super::devices::device_class;

/// A validated completion request: everything that shapes the answer.
#[derive(Clone, Debug)]
pub(crate) struct AiRequest {
    pub prompt: String,
    pub model: &'static str,
    pub device: Option<&'static str>,
    pub country: Option<String>,
    pub subdivision: Option<String>,
    pub city: Option<String>,
    pub language: Option<String>,
    pub display: Option<String>,
}

impl AiRequest {
    /// Stable text of the fields that shape the answer, for seeds and cache keys.
    pub(crate) fn content_key(&self) -> String {
        let parts = [
            self.model,
            &self.prompt,
            self.device.unwrap_or(""),
            self.country.as_deref().unwrap_or(""),
            self.subdivision.as_deref().unwrap_or(""),
            self.city.as_deref().unwrap_or(""),
            self.language.as_deref().unwrap_or(""),
            self.display.as_deref().unwrap_or(""),
        ];
        parts.join("\u{1f}")
    }
}

#[derive(Clone, Debug)]
struct Source {
    url: String,
    host: String,
    name: String,
    title: String,
    /// What the page's card quotes from it (empty for a card with none), filled by
    /// [`build`] once the sources are chosen.
    snippet: String,
}

enum Inline {
    Text(String),
    Bold(String),
    Code(String),
    Link(String, String),
    /// Index into the answer's sources.
    Cite(usize),
}

struct Item {
    lead: Vec<Inline>,
    sub: Vec<Vec<Inline>>,
}

enum Block {
    Heading(u8, String),
    Para(Vec<Inline>),
    List {
        ordered: bool,
        items: Vec<Item>,
    },
    Code {
        lang: &'static str,
        text: String,
    },
    Table {
        head: Vec<String>,
        rows: Vec<Vec<String>>,
    },
}

fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

fn bold(s: impl Into<String>) -> Inline {
    Inline::Bold(s.into())
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The parts of a chat page, as the JSON completion carries them.
pub(crate) struct ChatPage {
    pub prompt_html: String,
    pub completion_html: String,
    pub sources_html: String,
    pub ads_html: String,
    pub fanouts: Vec<String>,
    pub page_html: String,
    seed: u64,
}

struct Ctx<'a> {
    request: &'a AiRequest,
    topic: Topic,
    place: Place,
    class: DeviceClass,
    sources: Vec<Source>,
    mix: Mix,
    /// For a fresh ask (expiration=0), the seed of the picks every fresh ask of the same
    /// prompt and place shares; none for a cacheable one.
    steady: Option<u64>,
    /// Citations rotate through the sources from a seeded start, so each gets cited.
    next_cite: usize,
    /// The picks the answer put forward: a warning names another.
    listed: Vec<&'static str>,
}

/// Builds the whole page; `variation` is 0 for cacheable answers and a fresh number otherwise.
pub(crate) fn build(request: &AiRequest, variation: u64) -> ChatPage {
    let seed = hash_parts(&[&request.content_key(), &variation.to_string()]);
    let topic = topic_of(&request.prompt);
    let place = Place::new(
        request.country.as_deref(),
        request.subdivision.as_deref(),
        request.city.as_deref(),
    );
    // A model that searches before answering cites what ranked for its searches.
    let fanouts = fanouts(request, &topic, &place);
    let mut sources = if fanouts.is_empty() {
        pick_sources(&topic, &place, request.model)
    } else {
        sources_from_fanouts(&fanouts, request)
    };
    for source in &mut sources {
        source.snippet = parts::snippet_of(&topic, &source.url);
    }
    let mut ctx = Ctx {
        request,
        topic,
        place,
        class: device_class(request.device),
        next_cite: (seed % 7) as usize,
        sources,
        mix: Mix::new(seed),
        steady: (variation & FRESH_ASK != 0).then(|| hash_parts(&[&request.content_key()])),
        listed: Vec::new(),
    };
    let mut blocks = match request.model {
        "gemini" => compose_gemini(&mut ctx),
        "perplexity" => compose_perplexity(&mut ctx),
        "copilot" => compose_copilot(&mut ctx),
        _ => compose_chatgpt(&mut ctx),
    };
    // Before the closing paragraph.
    if let Some(caveat) = parts::caveat_para(&mut ctx) {
        blocks.insert(blocks.len().saturating_sub(1), caveat);
    }
    let mut ids = Mix::new(seed ^ 0x5eed);
    let prompt_html = prompt_markup(request.model, &request.prompt, &mut ids);
    let completion_html = completion_markup(
        request.model,
        request.country.as_deref(),
        &blocks,
        &ctx.sources,
        &mut ids,
    );
    let sources_html = sources_markup(request.model, &ctx.sources);
    let ads_html = ads_markup(&ctx);
    let page_html = page_markup(
        request.model,
        &prompt_html,
        &completion_html,
        &sources_html,
        &ads_html,
    );
    ChatPage {
        prompt_html,
        completion_html,
        sources_html,
        ads_html,
        fanouts,
        page_html,
        seed,
    }
}

/// The JSON completion. Unset optional fields are omitted for ChatGPT (as in the live sample)
/// and empty strings for the others, since the live service does both.
pub(crate) fn completion_json(request: &AiRequest, page: &ChatPage) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert("query".into(), json!(request.prompt));
    body.insert("html".into(), json!(page.page_html));
    body.insert("prompt".into(), json!(page.prompt_html));
    body.insert("completion".into(), json!(page.completion_html));
    body.insert("sources".into(), json!(page.sources_html));
    body.insert("ads".into(), json!(page.ads_html));
    body.insert("fanouts".into(), json!(page.fanouts));
    // Required by the live schema for every model, filled by ChatGPT only.
    let sse = if request.model == "chatgpt" {
        sse::events(request, page)
    } else {
        String::new()
    };
    body.insert("sse".into(), json!(sse));
    let optional = [
        ("device", request.device.map(str::to_string)),
        ("country", request.country.clone()),
        ("subdivision", request.subdivision.clone()),
        ("city", request.city.clone()),
        ("language", request.language.clone()),
        ("display", request.display.clone()),
    ];
    for (name, value) in optional {
        match value {
            Some(value) => {
                body.insert(name.into(), json!(value));
            }
            None if request.model != "chatgpt" => {
                body.insert(name.into(), json!(""));
            }
            None => {}
        }
    }
    Value::Object(body)
}

/// The page as a browser fetched it: the rendered page with its scripts and styles.
pub(crate) fn raw_page(page: &ChatPage) -> String {
    let mut mix = Mix::new(page.seed ^ 0x7a3);
    let head_noise = noise(&mut mix, 12);
    let tail_noise = noise(&mut mix, 9);
    page.page_html
        .replacen("</head>", &format!("{head_noise}</head>"), 1)
        .replacen("</body>", &format!("{tail_noise}</body>"), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(model: &'static str) -> AiRequest {
        AiRequest {
            prompt: "best hiking boots".into(),
            model,
            device: None,
            country: Some("DE".into()),
            subdivision: None,
            city: Some("Munich".into()),
            language: None,
            display: None,
        }
    }

    #[test]
    fn each_model_has_its_hidden_label_and_citation_style() {
        let chatgpt = build(&request("chatgpt"), 0);
        // Asked from Germany, the hidden label is in German, as the live pages write it.
        assert!(
            chatgpt
                .completion_html
                .contains("<h4 class=\"sr-only select-none\">ChatGPT hat gesagt:</h4>")
        );
        let anywhere = build(
            &AiRequest {
                country: None,
                city: None,
                ..request("chatgpt")
            },
            0,
        );
        assert!(anywhere.completion_html.contains(">ChatGPT said:</h4>"));
        assert!(chatgpt.completion_html.contains("utm_source=chatgpt.com"));
        assert!(chatgpt.completion_html.contains("webpage-citation-pill"));
        assert!(chatgpt.sources_html.is_empty());
        assert!((2..=5).contains(&chatgpt.fanouts.len()));
        let gemini = build(&request("gemini"), 0);
        assert!(
            gemini
                .completion_html
                .contains("<h2 class=\"cdk-visually-hidden\">")
        );
        assert!(!gemini.completion_html.contains("href="));
        assert!(gemini.fanouts.is_empty());
        let copilot = build(&request("copilot"), 0);
        assert!(copilot.completion_html.contains("<h6 class=\"sr-only\">"));
        assert!(!copilot.completion_html.contains("href="));
        assert!(copilot.sources_html.contains("References"));
        assert!(copilot.sources_html.contains("?utm_source=copilot.com\""));
        let perplexity = build(&request("perplexity"), 0);
        assert!(perplexity.sources_html.matches("href=").count() >= 6);
        for page in [&chatgpt, &gemini, &copilot, &perplexity] {
            assert!(page.completion_html.contains("<pre"));
            assert!(page.completion_html.contains("<code"));
            assert!(page.completion_html.contains("Munich"));
            assert!(page.page_html.contains(&page.completion_html));
        }
    }

    #[test]
    fn models_share_some_sources_and_location_changes_them() {
        let chatgpt = build(&request("chatgpt"), 0);
        let perplexity = build(&request("perplexity"), 0);
        // Every model cites the prompt's core pair.
        let topic = topic_of("best hiking boots");
        let place = Place::new(Some("DE"), None, Some("Munich"));
        let a = pick_sources(&topic, &place, "chatgpt");
        let b = pick_sources(&topic, &place, "perplexity");
        assert_eq!(a[0].url, b[0].url);
        assert!(chatgpt.completion_html.contains(".de/"));
        assert!(perplexity.sources_html.contains(".de/"));
        let phone = build(
            &AiRequest {
                device: Some("iPhone 15"),
                ..request("chatgpt")
            },
            0,
        );
        assert!(phone.completion_html.len() < chatgpt.completion_html.len());
        assert!(phone.completion_html.contains("mobile layout"));
    }

    #[test]
    fn variation_changes_the_page_and_zero_repeats_it() {
        let a = build(&request("gemini"), 0).page_html;
        let b = build(&request("gemini"), 0).page_html;
        let c = build(&request("gemini"), 1).page_html;
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn picks_come_in_the_forms_live_answers_use() {
        // Over many asks, each model writes its picks in more than one form, and the forms
        // of the live models all turn up: numbered headings, "— Best for", tables, bold leads.
        let mut seen = std::collections::BTreeSet::new();
        for model in ["chatgpt", "gemini", "perplexity", "copilot"] {
            let mut forms = std::collections::BTreeSet::new();
            for n in 1..=24 {
                let html = build(&request(model), FRESH_ASK | n).completion_html;
                for (form, mark) in [
                    ("numbered headings", "<h3>1. "),
                    ("best for", " — Best for "),
                    ("table", "<table>"),
                    ("bold with price", "</strong> (about "),
                    ("name colon", "<p>Salomon X Ultra 4 GTX: "),
                ] {
                    if html.contains(mark) {
                        forms.insert(form);
                    }
                }
            }
            assert!(forms.len() >= 2, "{model}: {forms:?}");
            seen.extend(forms);
        }
        assert_eq!(seen.len(), 5, "{seen:?}");
    }

    #[test]
    fn fresh_asks_keep_some_picks_and_vary_the_others() {
        let topic = topic_of("best hiking boots");
        for model in ["chatgpt", "gemini", "perplexity", "copilot"] {
            let named: Vec<Vec<&str>> = (1..=8)
                .map(|n| {
                    let page = build(&request(model), FRESH_ASK | n);
                    let text = page.completion_html;
                    topic
                        .category
                        .picks
                        .iter()
                        .copied()
                        .filter(|pick| text.contains(pick))
                        .collect()
                })
                .collect();
            let always = topic
                .category
                .picks
                .iter()
                .filter(|pick| named.iter().all(|n| n.contains(pick)))
                .count();
            let sometimes = topic
                .category
                .picks
                .iter()
                .filter(|pick| {
                    named.iter().any(|n| n.contains(pick))
                        && !named.iter().all(|n| n.contains(pick))
                })
                .count();
            assert!(always >= 1, "{model}: a pick named in every ask: {named:?}");
            assert!(
                sometimes >= 1,
                "{model}: a pick named now and then: {named:?}"
            );
            let again: Vec<String> = (1..=8)
                .map(|n| build(&request(model), FRESH_ASK | n).completion_html)
                .collect();
            assert_eq!(
                again,
                (1..=8)
                    .map(|n| build(&request(model), FRESH_ASK | n).completion_html)
                    .collect::<Vec<_>>(),
                "the same asks repeat"
            );
        }
    }
}
