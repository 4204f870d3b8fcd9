//! The report read on a phone: computed from its SVG (viewBox, font sizes, positions), no
//! text is under 11 px on a screen 390 px wide, no chart text runs out of its chart, no two
//! place labels of a map overlap, and every time is a local minute without milliseconds.

use vantage::track::local_time::{reader_time, stamp_at};
use vantage::track::map::brand_maps;
use vantage::track::report_page::{self, ReportInput};
use vantage::track::trends::{self, AnswerObservation, RunObservations, Seen};

/// The page's width on a phone 390 px wide: the report's body keeps 8 px each side there.
const PHONE_PAGE: f64 = 374.0;

const PLACES: [&str; 12] = [
    "US/CO/Denver",
    "US/CO/Boulder",
    "US/NY/New York",
    "DE/–/Berlin",
    "DE/–/Munich",
    "DE/–/Hamburg",
    "DE/–/Frankfurt",
    "FR/–/Paris",
    "GB/–/London",
    "NL/–/Amsterdam",
    "BE/–/Brussels",
    "CH/–/Zurich",
];

fn brands() -> Vec<String> {
    let mut names: Vec<String> = [
        "Salomon", "Merrell", "Lowa", "Keen", "Columbia", "Hoka", "Altra", "Scarpa", "Vasque",
        "Oboz", "Danner",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    names.push("The Very Long Outdoor Footwear Company of North America".to_string());
    names
}

/// Three runs (two on one day), each place answering for every brand; shares high enough
/// that "100%" tops an axis.
fn input() -> ReportInput {
    let brands = brands();
    // 27 Nov 2026 06:37:38.528 UTC and the days around it, written an hour east of UTC.
    let starts = [1_795_588_658_528, 1_795_761_458_528, 1_795_790_258_528];
    let observed: Vec<RunObservations> = starts
        .iter()
        .enumerate()
        .map(|(r, &start)| RunObservations {
            label: stamp_at(start, 3600),
            answers: PLACES
                .iter()
                .enumerate()
                .map(|(p, place)| AnswerObservation {
                    query: "best hiking boots".to_string(),
                    model: "chatgpt".to_string(),
                    device: String::new(),
                    location: place.to_string(),
                    brands: (0..brands.len())
                        .map(|b| Seen::at(((b + p + r) % 3 != 0 || b == 0).then_some(1)))
                        .collect(),
                    domains: Vec::new(),
                })
                .collect(),
            results: Vec::new(),
        })
        .collect();
    let trends = trends::trends(&observed, &brands);
    ReportInput {
        set: "boots".to_string(),
        written_at: reader_time(&stamp_at(1_795_790_300_123, 3600)),
        maps: brand_maps(&trends),
        trends,
        ..ReportInput::default()
    }
}

/// The value of attribute `name` in a tag's text.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = tag[at..].find('"')?;
    Some(tag[at..at + end].to_string())
}

fn number(tag: &str, name: &str) -> Option<f64> {
    attribute(tag, name)?.parse().ok()
}

/// Each `<svg …>…</svg>` of the page.
fn svgs(page: &str) -> Vec<&str> {
    page.match_indices("<svg xmlns")
        .map(|(at, _)| {
            let end = page[at..].find("</svg>").unwrap();
            &page[at..at + end]
        })
        .collect()
}

/// Each text of an SVG: its tag and its words (entities counted as one character).
fn texts(svg: &str) -> Vec<(&str, String)> {
    svg.match_indices("<text ")
        .map(|(at, _)| {
            let close = svg[at..].find('>').unwrap();
            let end = svg[at..].find("</text>").unwrap();
            let words = &svg[at + close + 1..at + end];
            let mut plain = String::new();
            let mut in_entity = false;
            for c in words.chars() {
                match c {
                    '&' => {
                        in_entity = true;
                        plain.push('x');
                    }
                    ';' if in_entity => in_entity = false,
                    _ if in_entity => {}
                    _ => plain.push(c),
                }
            }
            (&svg[at..at + close], plain)
        })
        .collect()
}

/// The box a text takes, estimated as the report lays text out: 0.6 em a character, from
/// 0.8 em above its baseline to 0.2 em below.
fn text_box(tag: &str, words: &str, inherited: f64) -> (f64, f64, f64, f64) {
    let size = number(tag, "font-size").unwrap_or(inherited);
    let (x, y) = (number(tag, "x").unwrap(), number(tag, "y").unwrap());
    let width = words.chars().count() as f64 * size * 0.6;
    let x0 = match attribute(tag, "text-anchor").as_deref() {
        Some("middle") => x - width / 2.0,
        Some("end") => x - width,
        _ => x,
    };
    (x0, y - 0.8 * size, x0 + width, y + 0.2 * size)
}

fn view_box(svg: &str) -> (f64, f64) {
    let open = &svg[..svg.find('>').unwrap()];
    let numbers: Vec<f64> = attribute(open, "viewBox")
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    (numbers[2], numbers[3])
}

#[test]
fn on_a_phone_every_chart_text_is_11_px_or_more_and_inside_its_chart() {
    let page = report_page::html(&input());
    let all = svgs(&page);
    assert_eq!(all.len(), 3 + 12, "three charts and a map a brand");
    for svg in all {
        let (width, height) = view_box(svg);
        let open = &svg[..svg.find('>').unwrap()];
        let inherited = number(open, "font-size").unwrap_or(16.0);
        let texts = texts(svg);
        assert!(!texts.is_empty());
        for (tag, words) in texts {
            let size = number(tag, "font-size").unwrap_or(inherited);
            let shown = size * PHONE_PAGE / width;
            assert!(
                shown >= 11.0,
                "{words:?} is {shown:.1} px on a phone: {tag}"
            );
            let (x0, y0, x1, y1) = text_box(tag, &words, inherited);
            assert!(
                x0 >= 0.0 && y0 >= 0.0 && x1 <= width && y1 <= height,
                "{words:?} runs out of its {width}×{height} chart: {tag}"
            );
        }
    }
    // Every brand is in each chart's legend, the long one cut with `…`.
    for brand in brands().iter().take(11) {
        assert_eq!(
            page.matches(&format!(">{brand}</text>")).count(),
            3,
            "{brand}"
        );
    }
    let long: Vec<String> = svgs(&page)
        .into_iter()
        .flat_map(texts)
        .map(|(_, words)| words)
        .filter(|words| words.starts_with("The Very Long"))
        .collect();
    assert_eq!(long.len(), 3, "the long name is in each legend");
    assert!(long.iter().all(|w| w.ends_with('…')), "{long:?}");
}

#[test]
fn no_two_place_labels_of_a_map_overlap() {
    let page = report_page::html(&input());
    let maps: Vec<&str> = svgs(&page)
        .into_iter()
        .filter(|s| s.contains("class=\"map\""))
        .collect();
    assert_eq!(maps.len(), 12);
    for map in maps {
        let boxes: Vec<(f64, f64, f64, f64)> = texts(map)
            .into_iter()
            .filter(|(tag, _)| tag.contains("class=\"place\""))
            .map(|(tag, words)| text_box(tag, &words, 16.0))
            .collect();
        assert!(
            boxes.len() >= 10,
            "the places are labelled: {}",
            boxes.len()
        );
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let overlap = a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
                assert!(!overlap, "labels at {a:?} and {b:?} overlap");
            }
        }
    }
    // Each number is named in the key beside the map.
    assert!(page.contains("<td>1</td><td>"), "{page}");
    assert!(page.contains("Munich") || page.contains("München"));
}

#[test]
fn times_are_local_minutes_without_milliseconds() {
    let page = report_page::html(&input());
    assert!(
        page.contains("written 27 Nov 2026, 15:38 (UTC+01:00)"),
        "{page}"
    );
    assert!(
        page.contains("3 runs, 25 Nov 2026, 07:37 (UTC+01:00) to 27 Nov 2026, 15:37 (UTC+01:00)"),
        "{page}"
    );
    assert!(!page.contains(".528") && !page.contains(".123"), "{page}");
    assert!(!page.contains("T06:37") && !page.contains("Z<"), "{page}");
    // Two runs on one date: the chart names them by their time.
    assert!(page.contains(">27 Nov 07:37</text>"), "{page}");
    assert!(page.contains(">27 Nov 15:37</text>"), "{page}");
    let (markdown, _) = report_page::markdown(&input(), "report");
    assert!(
        markdown.contains("written 27 Nov 2026, 15:38 \\(UTC+01:00\\)")
            || markdown.contains("written 27 Nov 2026, 15:38 (UTC+01:00)"),
        "{markdown}"
    );
}

#[test]
fn each_chart_says_how_to_read_it() {
    let page = report_page::html(&input());
    assert_eq!(page.matches("<p class=\"how\">").count(), 3);
    assert!(
        page.contains("the share of that run&#39;s answers that named the brand")
            || page.contains("the share of that run's answers that named the brand"),
        "{page}"
    );
    assert!(page.contains("on a scale of 0 to 100 %"), "{page}");
}
