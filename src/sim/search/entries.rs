//! The entries of a results page: organic results with their snippets and thumbnails,
//! "People also ask", top stories, related searches and the features above the results.

use serde_json::{Value, json};

use super::super::html::query_value;
use super::super::place::Place;
use super::super::seed::Mix;
use super::super::topic::{Intent, Topic, slugify, title_case};
use super::{Candidate, SearchRequest, TINY_PNG};

/// "https://host › section › slug", as a results page shows an address, long parts cut.
fn visible_url(url: &str) -> String {
    let Ok(parsed) = url::Url::parse(url) else {
        return url.to_string();
    };
    let host = parsed.host_str().unwrap_or_default();
    let shown: Vec<String> = parsed
        .path_segments()
        .into_iter()
        .flatten()
        .filter(|p| !p.is_empty())
        .map(|p| {
            if p.chars().count() > 22 {
                format!("{}...", p.chars().take(20).collect::<String>())
            } else {
                p.to_string()
            }
        })
        .collect();
    if shown.is_empty() {
        format!("https://{host}")
    } else {
        format!("https://{host} › {}", shown.join(" › "))
    }
}

fn thumbnail(mix: &mut Mix) -> String {
    if mix.chance(0.5) {
        TINY_PNG.to_string()
    } else {
        format!(
            "https://encrypted-tbn0.gstatic.com/images?q=tbn:ANd9Gc{:016x}&s",
            mix.next_u64()
        )
    }
}

fn date_text(mix: &mut Mix) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    if mix.chance(0.3) {
        format!("{} days ago", 1 + mix.below(6))
    } else {
        format!(
            "{} {}, {}",
            mix.pick(&MONTHS),
            1 + mix.below(28),
            2023 + mix.below(3)
        )
    }
}

fn snippet(topic: &Topic, mix: &mut Mix) -> String {
    let aspects = topic.aspects(mix, 2);
    let subject = &topic.subject;
    let text = match mix.below(4) {
        0 => format!(
            "We tested {} {subject} for {} and {}. Here are the ones worth your money, and the ones to skip.",
            8 + mix.below(30),
            aspects[0],
            aspects[1]
        ),
        1 => format!(
            "Everything you need to know about {subject}: {}, {}, prices and how to choose the right one for you.",
            aspects[0], aspects[1]
        ),
        2 => format!(
            "Looking for {subject}? Compare {} and {} across the most popular options, with real owner reviews.",
            aspects[0], aspects[1]
        ),
        _ => format!(
            "{} explained in plain language. Our experts cover {} first, then {}.",
            title_case(subject),
            aspects[0],
            aspects[1]
        ),
    };
    if text.chars().count() > 160 {
        format!("{} ...", text.chars().take(155).collect::<String>())
    } else {
        text
    }
}

pub(super) fn organic(
    request: &SearchRequest,
    topic: &Topic,
    candidate: &Candidate,
    page: u32,
    feature: u32,
    position: usize,
    with_sitelinks: bool,
) -> Value {
    // Details hang on the URL, not the vantage point: a page has the same date everywhere.
    let mut mix = Mix::of(&["result", &request.terms, &candidate.url]);
    let date = mix.chance(0.35).then(|| date_text(&mut mix));
    let rated = mix.chance(0.25);
    let rating = rated.then(|| (35 + mix.below(16)) as f64 / 10.0);
    let votes = rated.then(|| mix.between(12, 20_000));
    let sitelinks: Vec<Value> = if with_sitelinks {
        ["Reviews", "Buying guide", "Deals", "About us"]
            .iter()
            .enumerate()
            .map(|(i, title)| {
                json!({
                    "position": i + 1,
                    "url": format!("https://{}/{}/", candidate.host, slugify(title)),
                    "title": title,
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let images: Vec<Value> = if mix.chance(0.3) {
        let alt = format!("{} from {}", topic.subject, candidate.host);
        // The live service has used both names for the alt text.
        let alt_key = if mix.chance(0.5) { "alt" } else { "altText" };
        let mut image = serde_json::Map::new();
        image.insert("position".into(), json!(1));
        image.insert("source".into(), json!(thumbnail(&mut mix)));
        image.insert(alt_key.into(), json!(alt));
        vec![Value::Object(image)]
    } else {
        Vec::new()
    };
    json!({
        "type": if with_sitelinks { "organic-with-sitelinks" } else { "organic" },
        "page": page,
        "section": "main",
        "feature": feature,
        "position": position,
        "url": candidate.url,
        "title": candidate.title,
        "site": candidate.site,
        "visibleUrl": visible_url(&candidate.url),
        "date": date,
        "snippet": snippet(topic, &mut mix),
        "rating": rating,
        "votes": votes,
        "sitelinks": sitelinks,
        "images": images,
    })
}

/// The questions Google relates to a search: five of a pool that follows the topic's intent
/// (a product category is asked about as something to buy), its aspects and the place, drawn
/// for the terms and the place, so that other places raise some other questions.
fn questions(request: &SearchRequest, topic: &Topic, place: &Place) -> Vec<String> {
    let s = &topic.subject;
    let mut mix = Mix::of(&["questions", &request.terms, &place.label()]);
    let aspects = topic.aspects(&mut mix, 2);
    let product = !topic.category.technical && !topic.category.picks.is_empty();
    let mut pool = match topic.intent {
        Intent::Buying => vec![
            format!("What are the best {s} right now?"),
            format!("How much should I spend on {s}?"),
            format!("How do I choose {s}?"),
            format!("Are expensive {s} worth it?"),
        ],
        Intent::Explainer if product => vec![
            format!("What are the best {s} right now?"),
            format!("How do I choose {s}?"),
            format!("How long do {s} last?"),
            format!("Are expensive {s} worth it?"),
        ],
        Intent::Comparison => vec![
            format!("Which is better: {s}?"),
            format!("What is the main difference in {s}?"),
            format!("Is it worth switching between {s}?"),
        ],
        Intent::HowTo => vec![
            format!("How do you {s}?"),
            format!("What is the easiest way to {s}?"),
            format!("How long does it take to {s}?"),
            format!("What do I need to {s}?"),
        ],
        Intent::Explainer => vec![
            format!("What is {s}?"),
            format!("What is {s} used for?"),
            format!("How does {s} work?"),
            format!("Is {s} free?"),
        ],
    };
    if product {
        for aspect in aspects {
            pool.push(format!("Which {s} are best for {aspect}?"));
        }
        if place.is_set() {
            pool.push(format!("Where can I buy {s} in {}?", place.town()));
            pool.push(format!(
                "What {s} do people in {} recommend?",
                place.country_name
            ));
        }
    }
    let take = pool.len().min(5);
    mix.sample_indices(pool.len(), take)
        .into_iter()
        .map(|i| pool[i].clone())
        .collect()
}

pub(super) fn also_asked(
    request: &SearchRequest,
    topic: &Topic,
    place: &Place,
    pool: &[Candidate],
    feature: u32,
) -> Vec<Value> {
    questions(request, topic, place)
        .into_iter()
        .enumerate()
        .map(|(i, question)| {
            let source = &pool[i % pool.len()];
            let mut mix = Mix::of(&["asked", &request.terms, &question]);
            let date = mix.chance(0.3).then(|| date_text(&mut mix));
            let heading = mix.chance(0.3).then(|| title_case(&topic.subject));
            json!({
                "type": "also-asked",
                "page": 1,
                "section": "main",
                "feature": feature,
                "position": i + 1,
                "question": question,
                "answer": {
                    "heading": heading,
                    "description": snippet(topic, &mut mix),
                    "date": date,
                    "url": source.url,
                    "title": source.title,
                    "site": source.site,
                    "visibleUrl": visible_url(&source.url),
                },
            })
        })
        .collect()
}

pub(super) fn top_stories(
    request: &SearchRequest,
    topic: &Topic,
    place: &Place,
    feature: u32,
) -> Vec<Value> {
    let global = [
        ("www.nytimes.com", "The New York Times"),
        ("www.theguardian.com", "The Guardian"),
        ("www.reuters.com", "Reuters"),
        ("www.cnn.com", "CNN"),
    ];
    let mut publishers: Vec<(String, String)> = place
        .country_sites()
        .iter()
        .map(|s| (s.host.clone(), s.name.clone()))
        .collect();
    publishers.extend(global.iter().map(|(h, n)| (h.to_string(), n.to_string())));
    let title = topic.title();
    let headlines = [
        format!("{title}: what's changed this year"),
        format!("Why everyone is talking about {}", topic.subject),
        format!("The surprising truth about {}", topic.subject),
    ];
    headlines
        .iter()
        .enumerate()
        .map(|(i, headline)| {
            let (host, publisher) = &publishers[i % publishers.len()];
            let mut mix = Mix::of(&["story", &request.terms, host]);
            json!({
                "type": "top-story",
                "page": 1,
                "section": "main",
                "feature": feature,
                "position": i + 1,
                "url": format!("https://{host}/{}/{}-{}", 2025, slugify(headline), mix.between(10_000, 99_999)),
                "publisher": publisher,
                "headline": headline,
                "date": format!("{} hours ago", 1 + mix.below(20)),
                "image": thumbnail(&mut mix),
            })
        })
        .collect()
}

/// The searches Google relates to a search: drawn for the terms and the place from common
/// modifiers and, somewhere, the place's own ("hiking boots Berlin").
pub(super) fn also_searched(
    request: &SearchRequest,
    topic: &Topic,
    place: &Place,
    page: u32,
) -> Vec<Value> {
    let mut modifiers: Vec<String> = [
        "reviews",
        "near me",
        "sale",
        "for beginners",
        "2025",
        "alternatives",
        "price",
        "reddit",
    ]
    .map(String::from)
    .to_vec();
    if place.is_set() {
        modifiers.push(place.town());
        modifiers.push(format!("in {}", place.country_name));
    }
    let mut mix = Mix::of(&[
        "searched",
        &request.terms,
        &page.to_string(),
        &place.label(),
    ]);
    let count = 4 + mix.below(4);
    mix.sample_indices(modifiers.len(), count)
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            let query = format!("{} {}", topic.subject, modifiers[m]);
            json!({
                "type": "also-searched",
                "page": page,
                "section": "bottom",
                "feature": 1,
                "position": i + 1,
                "url": format!("https://www.google.com/search?q={}&sa=X&ved=2ahUKEwi{:x}", query_value(&query), mix.next_u64() & 0xffff_ffff),
                "query": query,
            })
        })
        .collect()
}

pub(super) fn top_extras(
    request: &SearchRequest,
    topic: &Topic,
    ranked: &[Candidate],
) -> Vec<Value> {
    let mut extras = Vec::new();
    for (feature, awaited) in (1..).zip(request.awaiting.iter()) {
        match *awaited {
            "ads" => {
                for position in 1..=2 {
                    let host = format!("www.{}-store.com", topic.category.local_word);
                    let url = format!("https://{host}/{}?ad={position}", topic.slug);
                    extras.push(json!({
                        "type": "ad",
                        "page": 1,
                        "section": "top",
                        "feature": feature,
                        "position": position,
                        "url": url,
                        "title": format!("{} – Official Store", topic.title()),
                        "site": format!("{} Store", title_case(topic.category.local_word)),
                        "visibleUrl": format!("https://{host}"),
                        "snippet": format!("Shop {} with free returns.", topic.subject),
                    }));
                }
            }
            "ai" => {
                let sources: Vec<Value> = ranked
                    .iter()
                    .take(3)
                    .map(|c| json!({"url": c.url, "title": c.title, "site": c.site}))
                    .collect();
                let subject = title_case(&topic.subject);
                let points: Vec<Value> = topic
                    .category
                    .aspects
                    .iter()
                    .take(3)
                    .map(|aspect| {
                        json!({
                            "label": title_case(aspect),
                            "text": format!("reviewers weigh {aspect} first when they compare {}.", topic.subject),
                        })
                    })
                    .collect();
                extras.push(json!({
                    "type": "ai-overview",
                    "page": 1,
                    "section": "top",
                    "feature": feature,
                    "position": 1,
                    "text": format!("{subject} vary mostly in {}. Most guides recommend comparing a few options before buying.", topic.category.aspects[0]),
                    "heading": "Key points",
                    "points": points,
                    "sources": sources,
                }));
            }
            _ => {
                if let Some(first) = ranked.first() {
                    extras.push(json!({
                        "type": "answer",
                        "page": 1,
                        "section": "top",
                        "feature": feature,
                        "position": 1,
                        "answer": format!("{}: {}.", title_case(&topic.subject), topic.category.aspects[1]),
                        "url": first.url,
                        "title": first.title,
                    }));
                }
            }
        }
    }
    extras
}
