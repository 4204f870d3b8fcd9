//! Every file vantage writes for a person to open, share or `cat`, written from hostile text:
//! answers that hold markup as words, links of every scheme, names with control characters,
//! cells a spreadsheet would run. Markdown is rendered as a renderer that passes raw HTML on
//! renders it (pulldown-cmark's `push_html`), HTML is taken as written, and both are parsed
//! with scraper: no element or attribute that runs code, no link but to http(s). CSV is read
//! back with the csv crate, cell by cell. No control character is in any file. What is
//! legitimate still shows: a link to a web page stays a link, a `<` in the text reads `<`.

mod common;

use std::time::{Duration, Instant};

use common::view::{demo_connection, press};
use crossterm::event::KeyCode;
use pulldown_cmark::{Options, Parser};
use scraper::{Html, Selector};

use vantage::analysis::adaptive::Pool;
use vantage::analysis::mentions::Brand;
use vantage::analysis::roll_up::RollRow;
use vantage::analysis::stance::Stance;
use vantage::api::{
    AiAnswer, AiRequest, ApiError, Completion, Fetched, Model, SearchAnswer, SearchRequest,
    SearchResults,
};
use vantage::app::{App, Credits, Msg, Tab, update};
use vantage::present::compare::summary::parse_location;
use vantage::present::{answer, search_page};
use vantage::sanitize::is_unsafe;
use vantage::track::answers::{Cell, CellAnswer, NamedBrand, compare};
use vantage::track::answers_read::CellChanged;
use vantage::track::diff::{MentionChange, RunDiff};
use vantage::track::map::{Band, BrandMap, MapPoint};
use vantage::track::report::{self, ReportFormat, ReportRow};
use vantage::track::report_page::{self, BrandExamples, Example, ReportInput};
use vantage::track::stat::{RunChange, RunStat};
use vantage::track::trends::{BrandTrend, DomainShare, Trends};

/// Terminal controls: a window title ended by BEL, a clipboard write, an 8-bit CSI, a bidi
/// override.
const CONTROLS: &str = "\x1b]0;owned\x07\x1b]52;c;ZWNobw==\x1b\\\u{9b}2J\u{202e}";

/// An answer's HTML: markup meant as its words (escaped in the HTML), links of every scheme,
/// and the tags a page would run.
fn answer_html() -> String {
    format!(
        "<h2>Picks &lt;script&gt;alert(1)&lt;/script&gt;</h2>\
         <p>Try the <b>Lowa Renegade</b> &lt;img src=x onerror=alert(2)&gt; or \
         &lt;iframe src=javascript:alert(3)&gt;&lt;/iframe&gt; [x](javascript:alert(4)) \
         &lt;javascript:alert(5)&gt; &lt;object data=x&gt;&lt;embed src=x&gt; since a &lt; b {CONTROLS} done.</p>\
         <ul><li><a href=\"javascript:alert(6)\">a script link</a></li>\
         <li><a href=\"data:text/html,&lt;script&gt;alert(7)&lt;/script&gt;\">a data link</a></li>\
         <li><a href=\"vbscript:msgbox(8)\">a vbscript link</a></li>\
         <li><a href=\"JaVaScRiPt:alert(9)\">a mixed-case link</a></li>\
         <li><a href=\"https://ok.example/boots\">a fine link</a></li></ul>\
         <script>alert(10)</script><img src=x onerror=alert(11)>\
         <pre>```\nfence &lt;/pre&gt;</pre>"
    )
}

/// A sources panel: a title with markup, a script link and a fine one.
const SOURCES: &str = "<ol><li><a href=\"javascript:alert(12)\">Source &lt;b onclick=alert(13)&gt;</a></li>\
     <li><a href=\"https://ok.example/source\">Good source</a></li></ol>";

/// Names a spreadsheet would run, or that carry markup and controls.
fn hostile_names() -> Vec<String> {
    vec![
        format!("Evil{CONTROLS}<b onmouseover=alert(1)>\"Brand"),
        "=cmd|' /C calc'!A0".into(),
        "+Boots".into(),
        "-Lowa".into(),
        "@SUM(A1)".into(),
        "\tTab".into(),
        "\rCR".into(),
        "[x](javascript:alert(1))".into(),
    ]
}

fn hostile_brands() -> Vec<Brand> {
    hostile_names()
        .into_iter()
        .map(|name| Brand {
            name,
            ..Brand::default()
        })
        .chain([Brand::named("Lowa Renegade")])
        .collect()
}

/// Markdown as a renderer that lets raw HTML through renders it.
fn rendered(markdown: &str) -> String {
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, Parser::new_ext(markdown, options));
    html
}

/// Whether a link's target is one a file may hold: an http(s) URL or a place in the same
/// page; with `images_beside`, an image in a file beside it by a `./` path.
fn allowed_target(element: &str, target: &str, images_beside: bool) -> bool {
    let target = target.trim();
    if target.starts_with('#') {
        return true;
    }
    if images_beside && element == "img" && target.starts_with("./") && !target.contains(':') {
        return true;
    }
    url::Url::parse(target).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
}

/// What in a page could run code or send the reader elsewhere than the web, and any control
/// character: empty for a safe file.
fn dangers(html: &str, images_beside: bool) -> Vec<String> {
    let mut found = Vec::new();
    let document = Html::parse_document(html);
    let every = Selector::parse("*").unwrap();
    for element in document.select(&every) {
        let name = element.value().name();
        if matches!(
            name,
            "script"
                | "iframe"
                | "object"
                | "embed"
                | "frame"
                | "frameset"
                | "applet"
                | "base"
                | "form"
                | "link"
        ) {
            found.push(format!("a <{name}> element"));
        }
        for (attribute, value) in element.value().attrs() {
            let attribute = attribute.to_ascii_lowercase();
            if attribute.starts_with("on") {
                found.push(format!("<{name} {attribute}=\"{value}\">"));
            }
            let is_target = matches!(
                attribute.as_str(),
                "href"
                    | "src"
                    | "action"
                    | "formaction"
                    | "xlink:href"
                    | "data"
                    | "poster"
                    | "background"
                    | "srcset"
                    | "srcdoc"
            );
            if is_target && !allowed_target(name, value, images_beside) {
                found.push(format!("<{name} {attribute}=\"{value}\">"));
            }
            if attribute == "style" && (value.contains("url(") || value.contains("expression")) {
                found.push(format!("<{name} style=\"{value}\">"));
            }
            if name == "meta" && attribute == "http-equiv" {
                found.push(format!("<meta http-equiv=\"{value}\">"));
            }
        }
    }
    found.extend(controls(html));
    found
}

/// A value as the files show it: control characters as their marks, on one line.
fn shown(value: &str) -> String {
    vantage::sanitize::one_line(value).into_owned()
}

fn controls(text: &str) -> Option<String> {
    text.chars()
        .find(|c| is_unsafe(*c))
        .map(|c| format!("the control character {c:?}"))
}

/// Cells a spreadsheet would evaluate, and control characters, in CSV read back.
fn formula_cells(csv_text: &str) -> Vec<String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv_text.as_bytes());
    let mut found = Vec::new();
    for record in reader.records() {
        for cell in record.unwrap().iter() {
            let first = cell.chars().next();
            let first_seen = cell.trim_start().chars().next();
            let number = cell.parse::<f64>().is_ok();
            let formula = matches!(first, Some('\t' | '\r' | '\n'))
                || matches!(first_seen, Some('=' | '+' | '-' | '@'));
            if formula && !number {
                found.push(format!("the cell {cell:?}"));
            }
            found.extend(controls(cell));
        }
    }
    found.extend(controls(csv_text));
    found
}

/// A JSON file: JSON, with control characters only as escapes.
fn assert_json_inert(what: &str, json: &str) {
    assert_eq!(controls(json), None, "{what}: {json}");
    serde_json::from_str::<serde_json::Value>(json)
        .unwrap_or_else(|e| panic!("{what} is not JSON ({e}): {json}"));
}

fn assert_inert(what: &str, html: &str, images_beside: bool) {
    let found = dangers(html, images_beside);
    assert!(found.is_empty(), "{what} could run: {found:#?}\n{html}");
}

/// The words of the page, markup aside, as a reader sees them.
fn page_text(html: &str) -> String {
    Html::parse_document(html)
        .root_element()
        .text()
        .collect::<Vec<_>>()
        .join("")
}

fn fine_link_stays(what: &str, html: &str, url: &str, text: &str) {
    let document = Html::parse_document(html);
    let links = Selector::parse("a").unwrap();
    assert!(
        document
            .select(&links)
            .any(|a| a.value().attr("href") == Some(url) && a.text().collect::<String>() == text),
        "{what}: no link to {url} reading {text:?}\n{html}"
    );
}

/// An answer as it lands, its body holding raw controls as a hostile service may send them.
fn hostile_answer(model: Model) -> Box<answer::PreparedAnswer> {
    let completion = Completion {
        model: model.as_str().into(),
        completion: answer_html(),
        sources: SOURCES.into(),
        fanouts: vec![format!("=fanout{CONTROLS}<script>alert(1)</script>")],
        ..Completion::default()
    };
    let mut request = AiRequest::new(format!("best boots <script>alert(1)</script>{CONTROLS}"));
    request.model = Some(model);
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: format!("{{\"completion\": \"raw {CONTROLS} \u{7f} \u{85}\"}}"),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(900),
    };
    Box::new(answer::prepare(request, fetched))
}

#[test]
fn a_chat_answer_exported_runs_nothing() {
    let prepared = hostile_answer(Model::Chatgpt);
    let markdown = prepared.export_markdown();
    assert_eq!(controls(&markdown), None, "{markdown}");
    let html = rendered(&markdown);
    assert_inert("the answer's Markdown", &html, false);
    fine_link_stays(
        "the answer",
        &html,
        "https://ok.example/boots",
        "a fine link",
    );
    fine_link_stays(
        "the sources",
        &html,
        "https://ok.example/source",
        "Good source",
    );
    let text = page_text(&html);
    for words in [
        "Picks <script>alert(1)</script>",
        "<img src=x onerror=alert(2)>",
        "since a < b",
        "a script link",
        "best boots <script>alert(1)</script>",
    ] {
        assert!(text.contains(words), "{words:?} is not read in {text}");
    }
    assert_json_inert("the answer's JSON", &prepared.export_json());
}

fn hostile_page(term: &str) -> Box<search_page::PreparedSearch> {
    let result = |position: usize, url: &str, title: &str| {
        serde_json::json!({
            "type": "organic", "page": 1, "section": "main", "feature": 1, "position": position,
            "url": url, "title": title, "site": "@SUM(A1)", "visibleUrl": url,
            "snippet": format!("-2+3 {CONTROLS}"), "sitelinks": [], "images": []
        })
    };
    let parsed: SearchResults = serde_json::from_value(serde_json::json!({
        "engine": "google", "terms": term, "results": [
            result(1, "javascript:alert(1)", "=HYPERLINK(\"https://evil.example\")"),
            result(2, "https://ok.example/boots", "\tTab title"),
            result(3, "data:text/html,<script>alert(2)</script>", "+SUM(1)"),
        ]
    }))
    .unwrap();
    let fetched = Fetched {
        value: SearchAnswer::Results(Box::new(parsed)),
        body: format!("{{\"terms\": \"{CONTROLS}\u{85}\"}}"),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(700),
    };
    Box::new(search_page::prepare(SearchRequest::new(term), fetched))
}

#[test]
fn search_results_exported_are_text_in_every_cell() {
    let page = hostile_page("boots");
    let csv = page.export_csv();
    let found = formula_cells(&csv);
    assert!(found.is_empty(), "{found:#?}\n{csv}");
    assert!(
        csv.contains("'=HYPERLINK"),
        "the title is kept, as text: {csv}"
    );
    assert!(csv.contains("https://ok.example/boots"), "{csv}");
    assert_json_inert("the results' JSON", &page.export_json());
}

fn compare_app() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    app.credits = Credits::Known(997);
    app.tab = Tab::Compare;
    app.brands = hostile_brands();
    app
}

#[test]
fn a_comparison_of_answers_exported_runs_nothing() {
    let mut app = compare_app();
    app.compare
        .set_prompt("best boots\n<script>alert(1)</script>");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Gemini, Model::Perplexity];
    app.compare.rebuild();
    press(&mut app, KeyCode::Enter);
    // Several calls: Enter asks first, y runs them.
    press(&mut app, KeyCode::Char('y'));
    let tags: Vec<_> = app
        .compare
        .columns
        .iter()
        .map(|c| c.call.tag().expect("running"))
        .collect();
    let mut results = vec![
        Ok(hostile_answer(Model::Chatgpt)),
        Ok(hostile_answer(Model::Gemini)),
        Err(ApiError::Unauthorized {
            message: format!("<script>alert(1)</script>{CONTROLS}"),
        }),
    ]
    .into_iter();
    for tag in tags {
        let result = results.next().unwrap();
        update(&mut app, Msg::AiDone { tag, result });
    }
    assert!(app.compare.has_mentions(), "the brands were read");

    let markdown = app.compare.to_export().markdown();
    assert_eq!(controls(&markdown), None, "{markdown}");
    let from_markdown = rendered(&markdown);
    assert_inert("the comparison's Markdown", &from_markdown, false);
    fine_link_stays(
        "the comparison",
        &from_markdown,
        "https://ok.example/boots",
        "a fine link",
    );
    let text = page_text(&from_markdown);
    for words in [
        "<script>alert(1)</script>",
        &shown(&hostile_names()[0]),
        "=cmd|' /C calc'!A0",
        "[x](javascript:alert(1))",
        "since a < b",
    ] {
        assert!(text.contains(words), "{words:?} is not read in {text}");
    }

    let page = app.compare.to_export().html();
    assert_inert("the comparison's page", &page, false);
    fine_link_stays("the page", &page, "https://ok.example/boots", "a fine link");
    assert!(
        page.contains("<title>Comparison · vantage</title>"),
        "{page}"
    );

    let csv = app.compare.to_export().csv();
    let found = formula_cells(&csv);
    assert!(found.is_empty(), "{found:#?}\n{csv}");
    assert!(csv.contains("'=cmd|' /C calc'!A0"), "{csv}");
    assert_json_inert("the comparison's JSON", &app.compare.to_export().json());
}

#[test]
fn a_search_comparison_exported_is_text_in_every_cell() {
    let mut app = compare_app();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('M'));
    app.compare.set_prompt("boots");
    app.compare.axes.locations = vec![
        parse_location("us").unwrap(),
        parse_location("de::Berlin").unwrap(),
    ];
    app.compare.rebuild();
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    let tags: Vec<_> = app
        .compare
        .columns
        .iter()
        .map(|c| c.call.tag().expect("running"))
        .collect();
    assert_eq!(tags.len(), 2);
    for tag in tags {
        let result = Ok(hostile_page("boots"));
        update(&mut app, Msg::SearchDone { tag, result });
    }
    let csv = app.compare.to_export().csv();
    let found = formula_cells(&csv);
    assert!(found.is_empty(), "{found:#?}\n{csv}");
    assert!(csv.contains("https://ok.example/boots"), "{csv}");
    assert_json_inert("the rank table's JSON", &app.compare.to_export().json());
}

fn stat(named: u32) -> RunStat {
    RunStat {
        answers: 4,
        named,
        position_sum: u64::from(named),
        mentions: u64::from(named),
        all_mentions: 8,
        recommended: named / 2,
    }
}

/// A set's report with a hostile name in every place a name or an answer's words go.
fn hostile_report() -> ReportInput {
    let names = hostile_names();
    let set = format!("boots{CONTROLS}<script>alert(1)</script>\u{7}");
    let brands: Vec<BrandTrend> = names
        .iter()
        .map(|name| BrandTrend {
            brand: name.clone(),
            overall: vec![stat(1), stat(3)],
            by_model: vec![(format!("chatgpt{CONTROLS}<i>"), vec![stat(1), stat(3)])],
            by_location: vec![("=US/–/Denver".into(), vec![stat(1), stat(3)])],
            change: Some(RunChange {
                before: stat(1),
                after: stat(3),
                cells: 4,
                lost: 0,
                gained: 2,
                p: 0.01,
                different: true,
            }),
        })
        .collect();
    let change = |brand: &str| MentionChange {
        brand: brand.to_string(),
        query: "<script>alert(1)</script>".into(),
        model: "chatgpt".into(),
        device: "desktop".into(),
        location: format!("US{CONTROLS}"),
        named_before: 0,
        answers_before: 1,
        named_after: 1,
        answers_after: 1,
    };
    ReportInput {
        set,
        written_at: "2026-11-27T10:00:00Z".into(),
        prompts: vec![
            "best boots <img src=x onerror=alert(1)>".into(),
            "[x](javascript:alert(1))".into(),
        ],
        terms: vec!["=boots".into()],
        models: vec!["chatgpt".into()],
        places: vec![format!("US/CO/Denver{CONTROLS}")],
        trends: Trends {
            runs: vec!["2026-11-26".into(), "2026-11-27".into()],
            held: Vec::new(),
            brands,
            sources: vec![DomainShare {
                domain: "<script>alert(1)</script>.example".into(),
                share: vec![10.0, 20.0],
            }],
            ranks: Vec::new(),
        },
        diff: Some(RunDiff {
            mentions_gained: names.iter().map(|n| change(n)).collect(),
            sources_gained: vec!["javascript:alert(1)".into()],
            answers_compared: 2,
            ..RunDiff::default()
        }),
        maps: names
            .iter()
            .map(|name| BrandMap {
                brand: name.clone(),
                points: vec![MapPoint {
                    location: format!("US/CO/Denver<script>{CONTROLS}"),
                    longitude: -104.99,
                    latitude: 39.74,
                    at_city: true,
                    visibility: Some(50.0),
                    band: Band::ALL[0],
                }],
                unplaced: vec![format!("<img src=x onerror=alert(1)>{CONTROLS}")],
            })
            .collect(),
        examples: names
            .iter()
            .map(|name| BrandExamples {
                brand: name.clone(),
                names: vec![name.clone()],
                answers: vec![Example {
                    model: "chatgpt".into(),
                    location: "US/CO/Denver".into(),
                    query: "<iframe src=javascript:alert(1)>".into(),
                    sentence: format!(
                        "Pick {name} <script>alert(1)</script> [x](javascript:alert(2)) <javascript:alert(3)> since a < b."
                    ),
                    stance: Stance::Recommended,
                }],
            })
            .collect(),
        cell_changes: vec![hostile_cell_changes(&names)],
        roll_up: names
            .iter()
            .map(|name| RollRow {
                brand: name.clone(),
                pool: Pool::Place(format!("US/CO/Denver<script>{CONTROLS}")),
                cells: 2,
                answers: 3,
                visibility: 50.0,
                visibility_half: 20.0,
                recommended: 25.0,
                recommended_half: 20.0,
                position: Some(1.5),
                position_half: None,
            })
            .collect(),
    }
}

/// A cell of the report whose answer names every hostile name now, cites a hostile site and
/// whose words are hostile.
fn hostile_cell_changes(names: &[String]) -> CellChanged {
    let named = |i: usize, name: &String| NamedBrand {
        brand: name.clone(),
        position: Some(i as u32 + 1),
        stance: "recommended".into(),
        count: 1,
        cited: false,
    };
    let old = CellAnswer {
        text: "Boots <b>are</b> fine.".into(),
        ..CellAnswer::default()
    };
    let new = CellAnswer {
        brands: names.iter().enumerate().map(|(i, n)| named(i, n)).collect(),
        sources: vec![
            "javascript:alert(1)".into(),
            "<script>x</script>.example".into(),
        ],
        text: format!(
            "Boots <script>alert(1)</script> [x](javascript:alert(2)) {}",
            names.join(" ")
        ),
        text_read: true,
        seq: 0,
    };
    CellChanged {
        cell: Cell {
            prompt: "best boots <img src=x onerror=alert(1)>".into(),
            model: format!("chatgpt{CONTROLS}"),
            place: "US/CO/Denver<script>".into(),
        },
        changes: compare(&old, &new, true),
    }
}

#[test]
fn a_set_report_as_markdown_and_its_charts_run_nothing() {
    let input = hostile_report();
    let (markdown, charts) = report_page::markdown(&input, "javascript:alert(1)");
    assert_eq!(controls(&markdown), None, "{markdown}");
    let html = rendered(&markdown);
    // The charts are images in files beside the report, by `./` paths.
    assert_inert("the report's Markdown", &html, true);
    let images = Selector::parse("img").unwrap();
    let document = Html::parse_document(&html);
    let sources: Vec<&str> = document
        .select(&images)
        .filter_map(|i| i.value().attr("src"))
        .collect();
    assert_eq!(sources.len(), charts.len(), "{sources:?}");
    assert!(
        sources.contains(&"./javascript%3Aalert%281%29-visibility.svg"),
        "{sources:?}"
    );
    let text = page_text(&html);
    for words in [
        &shown(&hostile_report().set),
        "Pick =cmd|' /C calc'!A0 <script>alert(1)</script> [x](javascript:alert(2)) <javascript:alert(3)> since a < b.",
        "+Boots",
        "best boots <img src=x onerror=alert(1)>",
    ] {
        assert!(text.contains(words), "{words:?} is not read in {text}");
    }
    for chart in &charts {
        assert_inert(&chart.name, &chart.svg, false);
    }
}

#[test]
fn a_set_report_as_a_page_runs_nothing() {
    let page = report_page::html(&hostile_report());
    assert_inert("the report's page", &page, false);
    let document = Html::parse_document(&page);
    let title: String = document
        .select(&Selector::parse("head > title").unwrap())
        .flat_map(|t| t.text())
        .collect();
    let set = hostile_report().set;
    assert_eq!(title, format!("{} · vantage report", shown(&set)));
    let text = page_text(&page);
    assert!(
        text.contains("Pick @SUM(A1) <script>alert(1)</script>"),
        "{text}"
    );
    // Each prompt's section quotes the answer's changes as text.
    assert!(
        text.contains("Sources cited now: javascript:alert(1)"),
        "{text}"
    );
    // The brand's name is marked in the sentence quoted.
    let marks: Vec<String> = document
        .select(&Selector::parse("mark").unwrap())
        .map(|m| m.text().collect())
        .collect();
    assert!(marks.contains(&"+Boots".to_string()), "{marks:?}");
}

#[test]
fn a_set_report_as_rows_is_text_in_every_cell() {
    let rows: Vec<ReportRow> = hostile_names()
        .into_iter()
        .map(|name| ReportRow {
            run: "r1".into(),
            set: name.clone(),
            kind: "ai",
            query: name.clone(),
            model: "chatgpt".into(),
            location: format!("US{CONTROLS}"),
            state: "done".into(),
            brand: name.clone(),
            named: Some(true),
            position: Some(1),
            url: "javascript:alert(1)".into(),
            title: name,
            ..ReportRow::default()
        })
        .collect();
    let csv = report::render(&rows, ReportFormat::Csv, true).unwrap();
    let found = formula_cells(&csv);
    assert!(found.is_empty(), "{found:#?}\n{csv}");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let brands: Vec<String> = reader
        .records()
        .map(|r| r.unwrap().get(9).unwrap().to_string())
        .collect();
    assert_eq!(brands[1], "'=cmd|' /C calc'!A0");
    let jsonl = report::render(&rows, ReportFormat::Jsonl, false).unwrap();
    for line in jsonl.lines() {
        assert_json_inert("a report line", line);
    }
}

/// The checks above find what they look for: each of these would fail a test.
#[test]
fn the_checks_find_what_runs() {
    for page in [
        "<script>alert(1)</script>",
        "<p><a href=\"javascript:alert(1)\">x</a></p>",
        "<a href=\" JaVaScRiPt:alert(1)\">x</a>",
        "<img src=\"data:image/svg+xml,x\">",
        "<img src=\"./chart.svg\">",
        "<p onclick=\"x\">x</p>",
        "<iframe src=\"https://e.example\"></iframe>",
        "<svg><a xlink:href=\"vbscript:x\">x</a></svg>",
        "<p>title\x1b]0;x\x07</p>",
    ] {
        assert!(!dangers(page, false).is_empty(), "{page}");
    }
    assert!(dangers("<img src=\"./chart.svg\">", true).is_empty());
    assert!(!dangers(&rendered("<img src=x onerror=alert(1)>"), false).is_empty());
    assert!(!dangers(&rendered("[x](javascript:alert(1))"), false).is_empty());
    for csv in ["=1+1\n", "a,+SUM(1)\n", "\"\tx\"\n", "\" =1\"\n", "@x\n"] {
        assert!(!formula_cells(csv).is_empty(), "{csv:?}");
    }
    assert!(formula_cells("-3,+2.5,'=1,a\n").is_empty());
}
