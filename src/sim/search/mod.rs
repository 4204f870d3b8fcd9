//! Simulated search results. One ranked list of URLs per query is perturbed by location and
//! IP type (the same set largely shared, the order moved a few places, local sites only
//! where they are local), then cut into pages by serps, size and offset.

use serde_json::{Value, json};

use super::place::Place;
use super::seed::{Mix, hash_parts};
use super::topic::{GENERAL_SITES, Topic, slugify, title_case, topic_of};

mod entries;
mod features;
mod operators;
mod page;

use entries::{also_asked, also_searched, organic, top_extras, top_stories};
pub(crate) use page::results_html;

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
    /// The emulated device, as the catalogue spells it; none is the desktop.
    pub device: Option<&'static str>,
}

/// Results a page holds on a phone when no size is asked: Google's mobile pages are shorter.
const MOBILE_PAGE_SIZE: u32 = 7;

impl SearchRequest {
    /// Whether the page is laid out for a phone (one column, shorter pages).
    pub(crate) fn on_phone(&self) -> bool {
        crate::sim::devices::device_class(self.device) == crate::sim::devices::DeviceClass::Phone
    }

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
        let mut key = parts.join("\u{1f}");
        // A device only where one is asked: the desktop's key is as it always was.
        if let Some(device) = self.device {
            key.push('\u{1f}');
            key.push_str(device);
        }
        key
    }

    /// Only what moves ranks: the query, the location, the IP type and whether the page is
    /// a phone's (mobile ranking differs a little from the desktop's).
    fn vantage_key(&self) -> String {
        let mut parts = vec![
            self.terms.as_str(),
            self.ip.unwrap_or(""),
            self.country.as_deref().unwrap_or(""),
            self.subdivision.as_deref().unwrap_or(""),
            self.city.as_deref().unwrap_or(""),
            self.uule.as_deref().unwrap_or(""),
        ];
        // The desktop's key is as it always was, so its ranks stay put.
        if self.on_phone() {
            parts.push("phone");
        }
        parts.join("\u{1f}")
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
    // The makers' own sites rank below the best guides: in the top ten for some searches,
    // rarely in the top three a model cites from.
    for (i, (brand, host)) in topic.brand_sites().into_iter().enumerate() {
        list.push(Candidate {
            url: format!("https://{host}/{slug}"),
            title: format!("{} | {brand} Official Site", topic.title()),
            host,
            site: brand,
            base: 4.5 + i as f64 * 1.3,
        });
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
    // A varied request carries its variation after a unit separator; the operators are
    // the user's terms alone.
    let terms = request.terms.split('\u{1f}').next().unwrap_or_default();
    let pages = match operators::read(terms).site {
        Some(site) => operators::on_site(&site, topic, needed),
        None => candidates(topic, place, needed),
    };
    let mut scored: Vec<(f64, Candidate)> = pages
        .into_iter()
        .map(|candidate| {
            let jitter = Mix::of(&[&vantage, &candidate.url]).unit() - 0.5;
            (candidate.base + jitter * 5.0, candidate)
        })
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.url.cmp(&b.1.url)));
    scored.into_iter().map(|(_, c)| c).collect()
}

/// One result page as ranked: what a model that searched the query could cite.
pub(crate) struct RankedPage {
    pub url: String,
    pub host: String,
    pub site: String,
    pub title: String,
}

/// The first `count` organic pages of `terms` searched from a place, as `results_json`
/// ranks them for a cacheable search: a model citing from its fanouts cites these.
pub(crate) fn top_pages(
    terms: &str,
    country: Option<&str>,
    subdivision: Option<&str>,
    city: Option<&str>,
    count: usize,
) -> Vec<RankedPage> {
    let request = SearchRequest {
        terms: terms.to_string(),
        serps: 1,
        size: None,
        offset: None,
        ip: None,
        country: country.map(str::to_string),
        subdivision: subdivision.map(str::to_string),
        city: city.map(str::to_string),
        uule: None,
        language: None,
        display: None,
        awaiting: Vec::new(),
        device: None,
    };
    let place = Place::new(country, subdivision, city);
    let topic = topic_of(&operators::read(terms).plain);
    ranked(&request, &topic, &place, count)
        .into_iter()
        .take(count)
        .map(|c| RankedPage {
            url: c.url,
            host: c.host,
            site: c.site,
            title: c.title,
        })
        .collect()
}

/// The JSON results body. `variation` is 0 for cacheable results, fresh otherwise; it only
/// moves ranks slightly, as a re-crawl would.
pub(crate) fn results_json(request: &SearchRequest, variation: u64) -> Value {
    let asked = operators::read(&request.terms);
    let topic = topic_of(&asked.plain);
    let place = Place::new(
        request.country.as_deref(),
        request.subdivision.as_deref(),
        request.city.as_deref(),
    );
    let size = request.size.unwrap_or(match request.on_phone() {
        true => MOBILE_PAGE_SIZE,
        false => DEFAULT_PAGE_SIZE,
    }) as usize;
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
            results.extend(also_asked(request, &topic, &place, &pool, feature));
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
                    // A phone's page has one column: the panel sits above the results.
                    "section": if request.on_phone() { "top" } else { "right" },
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
        results.extend(also_searched(request, &topic, &place, page));
    }
    for result in &mut results {
        operators::show_phrases(result, &asked.phrases);
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
            device: None,
        }
    }

    #[test]
    fn a_phone_gets_shorter_pages_and_its_own_ranks() {
        let desktop = SearchRequest {
            size: None,
            offset: None,
            serps: 1,
            ..request(Some("US"))
        };
        let phone = SearchRequest {
            device: crate::sim::devices::device_named("iPhone 15"),
            ..desktop.clone()
        };
        let organic = |body: &Value| organic_urls(body).len();
        assert_eq!(organic(&results_json(&desktop, 0)), 10);
        assert_eq!(organic(&results_json(&phone, 0)), 7);
        assert_ne!(desktop.content_key(), phone.content_key());
        // The contract's body names no device: the page's shape says it.
        assert!(results_json(&phone, 0).get("device").is_none());
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
