//! Simulated search results. One ranked list of URLs per query is perturbed by location and
//! IP type (the same set largely shared, the order moved a few places, local sites only
//! where they are local), then cut into pages by serps, size and offset.

use serde_json::{Value, json};

use super::html::{esc, noise, query_value};
use super::place::Place;
use super::seed::{Mix, hash_parts};
use super::topic::{GENERAL_SITES, Intent, Topic, slugify, title_case, topic_of};

/// A 1x1 PNG: the live service inlines small thumbnails as data: URIs.
const TINY_PNG: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const DEFAULT_PAGE_SIZE: u32 = 10;

#[derive(Clone, Debug)]
pub(crate) struct SearchRequest {
    pub terms: String,
    pub serps: u32,
    pub size: Option<u32>,
    pub offset: Option<u32>,
    pub ip: Option<&'static str>,
    pub country: Option<String>,
    pub subdivision: Option<String>,
    pub city: Option<String>,
    pub uule: Option<String>,
    pub language: Option<String>,
    pub display: Option<String>,
    pub awaiting: Vec<&'static str>,
}

impl SearchRequest {
    pub(crate) fn content_key(&self) -> String {
        let numbers = format!(
            "{}/{:?}/{:?}/{}",
            self.serps,
            self.size,
            self.offset,
            self.awaiting.join(",")
        );
        let parts = [
            self.terms.as_str(),
            &numbers,
            self.ip.unwrap_or(""),
            self.country.as_deref().unwrap_or(""),
            self.subdivision.as_deref().unwrap_or(""),
            self.city.as_deref().unwrap_or(""),
            self.uule.as_deref().unwrap_or(""),
            self.language.as_deref().unwrap_or(""),
            self.display.as_deref().unwrap_or(""),
        ];
        parts.join("\u{1f}")
    }

    /// Only what moves ranks: the query, the location and the IP type.
    fn vantage_key(&self) -> String {
        [
            self.terms.as_str(),
            self.ip.unwrap_or(""),
            self.country.as_deref().unwrap_or(""),
            self.subdivision.as_deref().unwrap_or(""),
            self.city.as_deref().unwrap_or(""),
            self.uule.as_deref().unwrap_or(""),
        ]
        .join("\u{1f}")
    }
}

#[derive(Clone, Debug)]
struct Candidate {
    url: String,
    host: String,
    site: String,
    title: String,
    /// Rank before perturbation; lower ranks higher.
    base: f64,
}

fn candidates(topic: &Topic, place: &Place, needed: usize) -> Vec<Candidate> {
    let mut list = Vec::new();
    let slug = &topic.slug;
    for (i, site) in topic.category.sites.iter().enumerate() {
        list.push(Candidate {
            url: format!("https://{}/{}/{slug}", site.host, site.section),
            host: site.host.to_string(),
            site: site.name.to_string(),
            title: topic.article_title(site.name, i),
            base: i as f64,
        });
    }
    if topic.category.key != "general" {
        for (i, site) in GENERAL_SITES.iter().enumerate() {
            list.push(Candidate {
                url: format!("https://{}/{}/{slug}", site.host, site.section),
                host: site.host.to_string(),
                site: site.name.to_string(),
                title: topic.article_title(site.name, i + 1),
                base: 4.0 + i as f64 * 1.5,
            });
        }
    }
    // Local sites exist only in the results of their own country or city.
    for (i, site) in place.country_sites().iter().enumerate() {
        list.push(Candidate {
            url: format!("https://{}/{slug}", site.host),
            host: site.host.clone(),
            site: site.name.clone(),
            title: topic.article_title(&site.name, i + 2),
            base: 1.0 + i as f64 * 2.5,
        });
    }
    if let Some(site) = place.city_site(topic.category) {
        list.push(Candidate {
            url: format!("https://{}/{slug}", site.host),
            host: site.host.clone(),
            title: format!("{} in {} | {}", topic.title(), place.town(), site.name),
            site: site.name,
            base: 2.0,
        });
    }
    let curated = list.len();
    let words: Vec<String> = topic.subject.split(' ').map(slugify).collect();
    const SUFFIXES: [&str; 10] = [
        "hub", "guide", "review", "lab", "daily", "world", "insider", "central", "pro", "zone",
    ];
    let mut n = 0;
    while list.len() < needed.max(curated) + 10 {
        let word = &words[n % words.len()];
        let suffix = SUFFIXES[(n / words.len()) % SUFFIXES.len()];
        let host = format!("www.{word}{suffix}.com");
        let site = format!("{} {}", title_case(word), title_case(suffix));
        list.push(Candidate {
            url: format!("https://{host}/articles/{slug}-{}", n + 1),
            title: topic.article_title(&site, n),
            host,
            site,
            base: (curated + n) as f64 * 0.8,
        });
        n += 1;
    }
    list
}

fn ranked(request: &SearchRequest, topic: &Topic, place: &Place, needed: usize) -> Vec<Candidate> {
    let vantage = request.vantage_key();
    let mut scored: Vec<(f64, Candidate)> = candidates(topic, place, needed)
        .into_iter()
        .map(|candidate| {
            let jitter = Mix::of(&[&vantage, &candidate.url]).unit() - 0.5;
            (candidate.base + jitter * 5.0, candidate)
        })
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.url.cmp(&b.1.url)));
    scored.into_iter().map(|(_, c)| c).collect()
}

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

fn organic(
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

fn questions(topic: &Topic) -> Vec<String> {
    let s = &topic.subject;
    match topic.intent {
        Intent::Buying => vec![
            format!("What are the best {s} right now?"),
            format!("How much should I spend on {s}?"),
            format!("How do I choose {s}?"),
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
    }
}

fn also_asked(
    request: &SearchRequest,
    topic: &Topic,
    pool: &[Candidate],
    feature: u32,
) -> Vec<Value> {
    questions(topic)
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

fn top_stories(request: &SearchRequest, topic: &Topic, place: &Place, feature: u32) -> Vec<Value> {
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

fn also_searched(request: &SearchRequest, topic: &Topic, page: u32) -> Vec<Value> {
    let modifiers = [
        "reviews",
        "near me",
        "sale",
        "for beginners",
        "2025",
        "alternatives",
        "price",
        "reddit",
    ];
    let mut mix = Mix::of(&["searched", &request.terms, &page.to_string()]);
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

fn top_extras(request: &SearchRequest, topic: &Topic, ranked: &[Candidate]) -> Vec<Value> {
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
                let sources: Vec<&str> = ranked.iter().take(3).map(|c| c.url.as_str()).collect();
                extras.push(json!({
                    "type": "ai-overview",
                    "page": 1,
                    "section": "top",
                    "feature": feature,
                    "position": 1,
                    "text": format!("{} vary mostly in {}. Most guides recommend comparing a few options before buying.", title_case(&topic.subject), topic.category.aspects[0]),
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

/// The JSON results body. `variation` is 0 for cacheable results, fresh otherwise; it only
/// moves ranks slightly, as a re-crawl would.
pub(crate) fn results_json(request: &SearchRequest, variation: u64) -> Value {
    let topic = topic_of(&request.terms);
    let place = Place::new(
        request.country.as_deref(),
        request.subdivision.as_deref(),
        request.city.as_deref(),
    );
    let size = request.size.unwrap_or(DEFAULT_PAGE_SIZE) as usize;
    let offset = request.offset.unwrap_or(0) as usize;
    let serps = request.serps.max(1);
    let needed = offset + serps as usize * size;
    let mut varied = request.clone();
    if variation != 0 {
        varied.terms = format!("{}\u{1f}{variation}", request.terms);
    }
    let ranked = ranked(&varied, &topic, &place, needed);
    let mut news = Mix::of(&["news", &request.terms]);
    let has_news = news.chance(0.5);
    let has_panel = news.chance(0.5);
    let mut results = top_extras(request, &topic, &ranked);
    for page in 1..=serps {
        let start = offset + (page as usize - 1) * size;
        let slice: Vec<(usize, &Candidate)> =
            ranked.iter().enumerate().skip(start).take(size).collect();
        let mut feature = 1;
        let mut emitted = 0;
        let mut push_organic = |results: &mut Vec<Value>, upto: usize, feature: u32| {
            while emitted < upto.min(slice.len()) {
                let (rank, candidate) = slice[emitted];
                // The top result of a query gets sitelinks when its site is a known one.
                let sitelinks = rank == 0 && !candidate.url.contains("/articles/");
                results.push(organic(
                    request,
                    &topic,
                    candidate,
                    page,
                    feature,
                    rank + 1,
                    sitelinks,
                ));
                emitted += 1;
            }
        };
        if page == 1 && !slice.is_empty() {
            push_organic(&mut results, 1, feature);
            feature += 1;
            let pool: Vec<Candidate> = ranked.iter().take(8).cloned().collect();
            results.extend(also_asked(request, &topic, &pool, feature));
            feature += 1;
            push_organic(&mut results, 4, feature);
            feature += 1;
            if has_news {
                results.extend(top_stories(request, &topic, &place, feature));
                feature += 1;
            }
            push_organic(&mut results, usize::MAX, feature);
            if has_panel {
                let wiki = format!(
                    "https://en.wikipedia.org/wiki/{}",
                    title_case(&topic.subject).replace(' ', "_")
                );
                results.push(json!({
                    "type": "knowledge-panel",
                    "page": 1,
                    "section": "right",
                    "feature": 1,
                    "position": 1,
                    "title": topic.title(),
                    "description": format!("{} is a widely discussed topic; guides focus on {} and {}.", topic.title(), topic.category.aspects[0], topic.category.aspects[1]),
                    "url": wiki,
                    "source": "Wikipedia",
                }));
            }
        } else {
            push_organic(&mut results, usize::MAX, feature);
        }
        results.extend(also_searched(request, &topic, page));
    }
    let approx = 100_000 + hash_parts(&[&request.terms]) % 500_000_000;
    json!({
        "engine": "google",
        "terms": request.terms,
        "results": results,
        "resultsCount": results.len(),
        "pageCount": serps,
        "pageSize": request.size,
        "approxResultsCount": approx,
        "resultsOffset": request.offset,
        "country": request.country,
        "subdivision": request.subdivision,
        "city": request.city,
        "uule": request.uule,
        "language": request.language,
        "display": request.display,
    })
}

fn field<'a>(value: &'a Value, name: &str) -> &'a str {
    value.get(name).and_then(Value::as_str).unwrap_or("")
}

/// The results page as HTML, written from the same results as the JSON body.
pub(crate) fn results_html(request: &SearchRequest, body: &Value) -> String {
    let mut mix = Mix::of(&["html", &request.content_key()]);
    let empty = Vec::new();
    let results = body
        .get("results")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let lang = request.language.as_deref().unwrap_or("en");
    let terms = esc(&request.terms);
    let mut top = String::new();
    let mut main = String::new();
    let mut right = String::new();
    let mut bottom = String::new();
    let mut current_page = 0;
    let mut in_asked = false;
    let mut in_stories = false;
    for result in results {
        let kind = field(result, "type");
        let page = result.get("page").and_then(Value::as_u64).unwrap_or(1);
        if page != current_page && field(result, "section") == "main" {
            if current_page != 0 {
                main.push_str("</div>");
            }
            main.push_str(&format!("<div class=\"serp-page\" data-page=\"{page}\">"));
            current_page = page;
        }
        if kind != "also-asked" && in_asked {
            main.push_str("</div>");
            in_asked = false;
        }
        if kind != "top-story" && in_stories {
            main.push_str("</g-section-with-header>");
            in_stories = false;
        }
        match kind {
            "organic" | "organic-with-sitelinks" => {
                let mut block = format!(
                    "<div class=\"MjjYud\"><div class=\"g tF2Cxc\" data-rpos=\"{}\"><div class=\"yuRUbf\"><a jsname=\"UWckNb\" href=\"{}\" data-ved=\"2ahUKEwi{:x}\"><h3 class=\"LC20lb MBeuO DKV0Md\">{}</h3><div class=\"notranslate\"><span class=\"VuuXrf\">{}</span><cite class=\"qLRx3b\">{}</cite></div></a></div><div class=\"VwiC3b\">",
                    result.get("position").and_then(Value::as_u64).unwrap_or(0),
                    esc(field(result, "url")),
                    mix.next_u64() & 0xffff_ffff,
                    esc(field(result, "title")),
                    esc(field(result, "site")),
                    esc(field(result, "visibleUrl")),
                );
                if let Some(date) = result.get("date").and_then(Value::as_str) {
                    block.push_str(&format!("<span class=\"LEwnzc\">{} — </span>", esc(date)));
                }
                block.push_str(&format!(
                    "<span>{}</span></div>",
                    esc(field(result, "snippet"))
                ));
                if let Some(rating) = result.get("rating").and_then(Value::as_f64) {
                    block.push_str(&format!(
                        "<div class=\"fG8Fp\">Rating: {rating} · {} votes</div>",
                        result.get("votes").and_then(Value::as_u64).unwrap_or(0)
                    ));
                }
                if let Some(links) = result.get("sitelinks").and_then(Value::as_array)
                    && !links.is_empty()
                {
                    block.push_str("<table class=\"sitelinks\"><tr>");
                    for link in links {
                        block.push_str(&format!(
                            "<td><a href=\"{}\">{}</a></td>",
                            esc(field(link, "url")),
                            esc(field(link, "title"))
                        ));
                    }
                    block.push_str("</tr></table>");
                }
                block.push_str("</div></div>");
                main.push_str(&block);
            }
            "also-asked" => {
                if !in_asked {
                    main.push_str("<div class=\"related-question-pairs\"><h2 class=\"Uo8X3b\">People also ask</h2>");
                    in_asked = true;
                }
                let answer = result.get("answer").unwrap_or(&Value::Null);
                main.push_str(&format!(
                    "<div class=\"related-question-pair\"><div role=\"heading\" aria-level=\"3\">{}</div><div class=\"answer\"><span>{}</span><a href=\"{}\"><h3>{}</h3><cite>{}</cite></a></div></div>",
                    esc(field(result, "question")),
                    esc(field(answer, "description")),
                    esc(field(answer, "url")),
                    esc(field(answer, "title")),
                    esc(field(answer, "visibleUrl"))
                ));
            }
            "top-story" => {
                if !in_stories {
                    main.push_str("<g-section-with-header><h3 role=\"heading\" aria-level=\"2\">Top stories</h3>");
                    in_stories = true;
                }
                main.push_str(&format!(
                    "<a class=\"WlydOe\" href=\"{}\"><img src=\"{}\" alt=\"\"><div class=\"MgUUmf\">{}</div><div role=\"heading\" class=\"n0jPhd\">{}</div><span class=\"OSrXXb\">{}</span></a>",
                    esc(field(result, "url")),
                    esc(field(result, "image")),
                    esc(field(result, "publisher")),
                    esc(field(result, "headline")),
                    esc(field(result, "date"))
                ));
            }
            "also-searched" => {
                if result.get("position").and_then(Value::as_u64) == Some(1) {
                    if !bottom.is_empty() {
                        bottom.push_str("</div>");
                    }
                    bottom.push_str(&format!("<div class=\"related-searches\" data-page=\"{page}\"><h2>People also search for</h2>"));
                }
                bottom.push_str(&format!(
                    "<a class=\"k8XOCe\" href=\"{}\"><span>{}</span></a>",
                    esc(field(result, "url")),
                    esc(field(result, "query"))
                ));
            }
            "knowledge-panel" => {
                right.push_str(&format!(
                    "<div class=\"kp-wholepage\"><h2 data-attrid=\"title\">{}</h2><div class=\"kno-rdesc\"><span>{}</span> <a href=\"{}\">{}</a></div></div>",
                    esc(field(result, "title")),
                    esc(field(result, "description")),
                    esc(field(result, "url")),
                    esc(field(result, "source"))
                ));
            }
            "ai-overview" => {
                top.push_str(&format!(
                    "<div class=\"ai-overview\"><h2>AI Overview</h2><p>{}</p></div>",
                    esc(field(result, "text"))
                ));
            }
            _ => {
                top.push_str(&format!(
                    "<div class=\"uEierd\"><span>Sponsored</span><a href=\"{}\"><div role=\"heading\">{}</div></a><div>{}</div></div>",
                    esc(field(result, "url")),
                    esc(field(result, "title")),
                    esc(&format!("{}{}", field(result, "snippet"), field(result, "answer")))
                ));
            }
        }
    }
    if in_asked {
        main.push_str("</div>");
    }
    if in_stories {
        main.push_str("</g-section-with-header>");
    }
    if current_page != 0 {
        main.push_str("</div>");
    }
    if !bottom.is_empty() {
        bottom.push_str("</div>");
    }
    let head_noise = noise(&mut mix, 6);
    let tail_noise = noise(&mut mix, 4);
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"UTF-8\"><title>{terms} - Google Search</title>{head_noise}</head><body jsmodel=\"hspDDf\"><div id=\"searchform\"><form action=\"/search\" role=\"search\"><textarea name=\"q\" aria-label=\"Search\">{terms}</textarea></form></div><div id=\"main\"><div id=\"center_col\"><div id=\"taw\">{top}</div><div id=\"search\"><h1 class=\"bNg8Rb\">Search Results</h1><div id=\"rso\">{main}</div></div><div id=\"botstuff\">{bottom}</div></div><div id=\"rhs\">{right}</div></div><footer><a href=\"https://policies.google.com/privacy\">Privacy</a> <a href=\"https://policies.google.com/terms\">Terms</a></footer>{tail_noise}</body></html>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(country: Option<&str>) -> SearchRequest {
        SearchRequest {
            terms: "best hiking boots".into(),
            serps: 2,
            size: Some(5),
            offset: Some(3),
            ip: None,
            country: country.map(str::to_string),
            subdivision: None,
            city: None,
            uule: None,
            language: None,
            display: None,
            awaiting: Vec::new(),
        }
    }

    fn organic_urls(body: &Value) -> Vec<(u64, u64, String)> {
        body["results"]
            .as_array()
            .map(|results| {
                results
                    .iter()
                    .filter(|r| r["type"].as_str().is_some_and(|t| t.starts_with("organic")))
                    .map(|r| {
                        (
                            r["page"].as_u64().unwrap_or(0),
                            r["position"].as_u64().unwrap_or(0),
                            r["url"].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn pages_follow_serps_size_and_offset() {
        let body = results_json(&request(None), 0);
        let organic = organic_urls(&body);
        assert_eq!(organic.len(), 10);
        assert_eq!(organic[0].0, 1);
        assert_eq!(organic[0].1, 4);
        assert_eq!(organic[9].0, 2);
        assert_eq!(organic[9].1, 13);
        assert_eq!(
            body["resultsCount"].as_u64(),
            Some(body["results"].as_array().map_or(0, Vec::len) as u64)
        );
    }

    #[test]
    fn the_largest_request_has_every_position_once() {
        let big = SearchRequest {
            serps: 10,
            size: Some(100),
            offset: Some(100),
            city: Some("Lyon".into()),
            ..request(Some("FR"))
        };
        let organic = organic_urls(&results_json(&big, 0));
        assert_eq!(organic.len(), 1000);
        let positions: Vec<u64> = organic.iter().map(|o| o.1).collect();
        assert_eq!(positions, (101..=1100).collect::<Vec<u64>>());
        let mut urls: Vec<&String> = organic.iter().map(|o| &o.2).collect();
        urls.sort();
        urls.dedup();
        assert_eq!(urls.len(), 1000, "no URL ranks twice");
        assert_eq!(organic[999].0, 10);
    }

    #[test]
    fn location_moves_ranks_and_html_carries_links() {
        let us = organic_urls(&results_json(&request(Some("US")), 0));
        let de = organic_urls(&results_json(&request(Some("DE")), 0));
        assert_ne!(us, de);
        let body = results_json(&request(Some("DE")), 0);
        let html = results_html(&request(Some("DE")), &body);
        assert!(html.contains("<h3"));
        assert!(html.contains(&format!("href=\"{}\"", de[0].2)));
    }
}
