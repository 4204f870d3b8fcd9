//! A realistic search body for the benchmarks: organic results with sitelinks and inline
//! images, "People also ask" answers, top stories and related searches.
#![allow(dead_code)]

use serde_json::{Value, json};

pub const PAGES: u32 = 10;
pub const PER_PAGE: u32 = 100;

/// A base64-looking inline thumbnail of about 2 KB, as the live service inlines images.
fn thumbnail(seed: u32) -> String {
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    let mut data = String::from("data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ");
    for _ in 0..2_000 {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        data.push(alphabet[(state % 64) as usize] as char);
    }
    data
}

fn organic(page: u32, feature: u32, position: u32) -> Value {
    let host = format!("www.site{}.example.com", (page * 7 + position) % 300);
    let url = format!("https://{host}/guides/best-hiking-boots-{page}-{position}/");
    let sitelinks: Vec<Value> = if position % 10 == 1 {
        (1..=4)
            .map(|i| {
                json!({
                    "position": i,
                    "url": format!("https://{host}/section-{i}/"),
                    "title": format!("Section {i} of {host}"),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let images: Vec<Value> = if position.is_multiple_of(4) {
        // Both spellings of the alt text, as seen on the live service and in the contract.
        let alt_key = if position.is_multiple_of(8) {
            "alt"
        } else {
            "altText"
        };
        let mut image = serde_json::Map::new();
        image.insert("position".into(), json!(1));
        image.insert("source".into(), json!(thumbnail(page * 1000 + position)));
        image.insert(alt_key.into(), json!(format!("hiking boots from {host}")));
        vec![Value::Object(image)]
    } else {
        Vec::new()
    };
    let rated = position.is_multiple_of(5);
    json!({
        "type": if sitelinks.is_empty() { "organic" } else { "organic-with-sitelinks" },
        "page": page,
        "section": "main",
        "feature": feature,
        "position": position,
        "url": url,
        "title": format!("The {position} Best Hiking Boots of 2025, Tested and Reviewed | Site {page}"),
        "site": format!("Site {}", (page * 7 + position) % 300),
        "visibleUrl": format!("https://{host} › guides › best-hiking-boots-{page}-{position}"),
        "date": if position.is_multiple_of(3) { json!("Mar 4, 2025") } else { Value::Null },
        "snippet": "We tested dozens of pairs on rocky trails, wet meadows and long descents to find \
                    the boots that keep feet dry, stable and comfortable. Here are our picks for \
                    every budget, with notes on fit, weight, waterproofing and break-in time.",
        "rating": if rated { json!(4.6) } else { Value::Null },
        "votes": if rated { json!(1_284) } else { Value::Null },
        "sitelinks": sitelinks,
        "images": images,
    })
}

fn also_asked(page: u32, feature: u32, position: u32) -> Value {
    json!({
        "type": "also-asked",
        "page": page,
        "section": "main",
        "feature": feature,
        "position": position,
        "question": format!("What should I look for in hiking boots? ({position})"),
        "answer": {
            "heading": null,
            "description": "Look for a snug heel, room for the toes on descents, a stiff enough \
                            sole for the terrain and a waterproof membrane if trails are wet.",
            "date": null,
            "url": format!("https://www.rei.com/learn/expert-advice/hiking-boots.html#{position}"),
            "title": "How to Choose Hiking Boots | REI Expert Advice",
            "site": "REI",
            "visibleUrl": "https://www.rei.com › learn › expert-advice",
        },
    })
}

fn top_story(page: u32, feature: u32, position: u32) -> Value {
    json!({
        "type": "top-story",
        "page": page,
        "section": "main",
        "feature": feature,
        "position": position,
        "url": format!("https://news.example.com/2025/hiking-boots-{page}-{position}"),
        "publisher": "Outdoor News",
        "headline": "The hiking boots that held up best after 500 miles on the trail",
        "date": format!("{position} hours ago"),
        "image": thumbnail(90_000 + page * 10 + position),
    })
}

fn also_searched(page: u32, position: u32) -> Value {
    json!({
        "type": "also-searched",
        "page": page,
        "section": "bottom",
        "feature": 1,
        "position": position,
        "url": format!("https://www.google.com/search?q=hiking+boots+{position}&sa=X&ved=2ahUKEwi{page}"),
        "query": format!("hiking boots {position}"),
    })
}

/// `pages` × `per_page` organic results, plus the extras of the first page and every page's
/// related searches.
pub fn body(pages: u32, per_page: u32) -> String {
    let mut results = Vec::new();
    for page in 1..=pages {
        let mut feature = 1;
        for position in 1..=per_page {
            if page == 1 && position == 2 {
                feature += 1;
                results.extend((1..=4).map(|i| also_asked(page, feature, i)));
                feature += 1;
            }
            if position == 5 {
                feature += 1;
                results.extend((1..=3).map(|i| top_story(page, feature, i)));
                feature += 1;
            }
            results.push(organic(page, feature, position));
        }
        results.extend((1..=8).map(|i| also_searched(page, i)));
    }
    let count = results.len();
    json!({
        "engine": "google",
        "terms": "best hiking boots",
        "results": results,
        "resultsCount": count,
        "pageCount": pages,
        "pageSize": per_page,
        "approxResultsCount": 255_000_000u64,
        "resultsOffset": 0,
        "country": "US",
        "subdivision": "NY",
        "city": "New York",
        "uule": null,
        "language": "en",
        "display": null,
    })
    .to_string()
}
