//! Simulated chatbot answers: an answer is first composed as neutral blocks in the model's
//! voice, then written out in the model's own chat-page markup (hidden labels, citation
//! styles), because the app must cope with each chatbot's page as the live service returns it.

use serde_json::{Map, Value, json};

mod follow;
mod labels;
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
    let asked = follow::asked(&request.prompt, &ctx.topic);
    let mut blocks = match (asked, request.model) {
        (follow::Asked { json: true, count }, _) => {
            follow::json_answer(&mut ctx, &request.prompt, count)
        }
        (follow::Asked { count: Some(n), .. }, _) => follow::list_answer(&mut ctx, n),
        (_, "gemini") => compose_gemini(&mut ctx),
        (_, "perplexity") => compose_perplexity(&mut ctx),
        (_, "copilot") => compose_copilot(&mut ctx),
        _ => compose_chatgpt(&mut ctx),
    };
    // Before the closing paragraph; never inside a JSON answer.
    if !asked.json
        && let Some(caveat) = parts::caveat_para(&mut ctx)
    {
        blocks.insert(blocks.len().saturating_sub(1), caveat);
    }
    let mut ids = Mix::new(seed ^ 0x5eed);
    let prompt_html = prompt_markup(
        request.model,
        &request.prompt,
        request.country.as_deref(),
        &mut ids,
    );
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
    body.insert(fanouts_field(page).into(), json!(page.fanouts));
    // The live schema calls it required, but live pages carry it for ChatGPT only.
    if request.model == "chatgpt" {
        body.insert("sse".into(), json!(sse::events(request, page)));
    }
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

/// The name the searches a model made go under. The live service renamed `subqueries` to
/// `fanouts`, yet live captures of May 2026 still carried `subqueries`: a share of answers
/// (one in four, drawn from the answer's seed, so a repeated ask repeats it) uses the old
/// name, and a client of either name meets both.
fn fanouts_field(page: &ChatPage) -> &'static str {
    match (page.seed >> 17) % 4 {
        0 => "subqueries",
        _ => "fanouts",
    }
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
mod tests;
