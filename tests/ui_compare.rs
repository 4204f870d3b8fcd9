//! Snapshots of the Compare tab on `TestBackend`: columns mid-flight, the summary of what
//! differs, and the search rank table with movements.

mod common;

use common::view::{demo_connection, draw, press};
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;

use vantage::api::{
    AiAnswer, AiRequest, ApiError, Completion, Fetched, Model, RetryNotice, SearchAnswer,
    SearchRequest, SearchResults,
};
use vantage::app::{App, Credits, Msg, Tab, Tag, update};
use vantage::present::compare::summary::parse_location;
use vantage::present::{answer, search_page};

fn app_at(now: Instant) -> App {
    let mut app = App::new(demo_connection(), now);
    app.credits = Credits::Known(997);
    app.tab = Tab::Compare;
    app
}

fn completion(
    model: Model,
    text: &str,
    sources: &[&str],
    millis: u64,
) -> Box<answer::PreparedAnswer> {
    let links: String = sources
        .iter()
        .map(|url| format!("<li><a href=\"{url}\">{url}</a></li>"))
        .collect();
    let completion = Completion {
        model: model.as_str().into(),
        completion: format!("<div><p>{text}</p></div>"),
        sources: format!("<ol>{links}</ol>"),
        fanouts: if model == Model::Chatgpt {
            vec![
                "best hiking boots 2026".into(),
                "hiking boots reviews".into(),
            ]
        } else {
            Vec::new()
        },
        ..Completion::default()
    };
    let mut request = AiRequest::new("best hiking boots");
    request.model = Some(model);
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(millis),
    };
    Box::new(answer::prepare(request, fetched))
}

/// Two models × two cities, sent: four columns running.
fn four_sent(app: &mut App) -> Vec<Tag> {
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Gemini];
    app.compare.axes.locations = vec![
        parse_location("us:ny:New+York").unwrap(),
        parse_location("de::Berlin").unwrap(),
    ];
    app.compare.rebuild();
    // Enter in the prompt asks first (four calls); y runs them.
    press(app, KeyCode::Enter);
    press(app, KeyCode::Char('y'));
    app.compare
        .columns
        .iter()
        .map(|c| c.call.tag().expect("running"))
        .collect()
}

const BOOTS_US: &str = "For most hikers the Salomon X Ultra is the safe pick; try them on in the afternoon when feet are largest.";
const BOOTS_DE: &str =
    "Most hikers in Berlin pick the Salomon X Ultra or a Meindl; try them on in the afternoon.";

#[test]
fn four_columns_mid_flight() {
    let start = Instant::now();
    let mut app = app_at(start);
    let tags = four_sent(&mut app);
    app.set_clock(start + Duration::from_millis(1500));
    update(
        &mut app,
        Msg::AiDone {
            tag: tags[0],
            result: Ok(completion(
                Model::Chatgpt,
                BOOTS_US,
                &[
                    "https://www.rei.com/boots",
                    "https://www.switchbacktravel.com/boots",
                ],
                1400,
            )),
        },
    );
    update(
        &mut app,
        Msg::AiDone {
            tag: tags[1],
            result: Err(ApiError::from_status(
                500,
                "An unknown error occurred",
                None,
            )),
        },
    );
    update(
        &mut app,
        Msg::Retrying {
            tag: tags[3],
            notice: RetryNotice {
                attempt: 1,
                wait: Duration::from_secs(12),
                error: ApiError::from_status(
                    503,
                    "Service is autoscaling; please retry in 12 seconds",
                    None,
                ),
            },
        },
    );
    app.set_clock(start + Duration::from_millis(4200));
    insta::assert_snapshot!(draw(&mut app, 140, 30));
}

fn all_landed(app: &mut App) {
    let tags = four_sent(app);
    let answers = [
        (
            Model::Chatgpt,
            BOOTS_US,
            vec![
                "https://www.rei.com/boots",
                "https://www.switchbacktravel.com/boots",
            ],
            1400,
        ),
        (
            Model::Chatgpt,
            BOOTS_DE,
            vec![
                "https://www.idealo.de/boots",
                "https://www.switchbacktravel.com/boots",
            ],
            1100,
        ),
        (
            Model::Gemini,
            BOOTS_US,
            vec![
                "https://www.rei.com/boots?utm_source=x",
                "https://www.nytimes.com/wirecutter/boots",
            ],
            800,
        ),
        (
            Model::Gemini,
            BOOTS_DE,
            vec!["https://www.idealo.de/boots", "https://www.rei.com/de"],
            900,
        ),
    ];
    for (tag, (model, text, sources, millis)) in tags.into_iter().zip(answers) {
        update(
            app,
            Msg::AiDone {
                tag,
                result: Ok(completion(model, text, &sources, millis)),
            },
        );
    }
}

#[test]
fn the_summary_lists_shared_domains_and_the_similarity_matrix() {
    let mut app = app_at(Instant::now());
    all_landed(&mut app);
    press(&mut app, KeyCode::Char(']'));
    let screen = draw(&mut app, 120, 40);
    assert!(screen.contains("rei.com"), "{screen}");
    assert!(screen.contains("columns 1, 3, 4"), "{screen}");
    assert!(screen.contains("Jaccard"), "{screen}");
    insta::assert_snapshot!(screen);
}

/// Sources by kind in the summary, wide and at 80×24 (where the summary scrolls to it).
#[test]
fn the_summary_classes_cited_sites_by_kind() {
    let mut app = app_at(Instant::now());
    all_landed(&mut app);
    press(&mut app, KeyCode::Char(']'));
    let wide = draw(&mut app, 160, 45);
    assert!(wide.contains("Sources by kind"), "{wide}");
    assert!(wide.contains("model chatgpt"), "{wide}");
    insta::assert_snapshot!("sources_by_kind_160x45", wide);
    let narrow = draw(&mut app, 80, 24);
    assert!(narrow.contains("Sources by kind"), "{narrow}");
    insta::assert_snapshot!("sources_by_kind_80x24", narrow);
}

#[test]
fn one_column_full_width() {
    let mut app = app_at(Instant::now());
    all_landed(&mut app);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Enter);
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("Column 2 of 4, full width"), "{screen}");
    assert!(screen.contains("Berlin pick the Salomon"), "{screen}");
}

fn page(urls: &[(&str, usize)]) -> Box<search_page::PreparedSearch> {
    let results: Vec<serde_json::Value> = urls
        .iter()
        .enumerate()
        .map(|(i, (url, sitelinks))| {
            let links: Vec<serde_json::Value> = (0..*sitelinks)
                .map(|j| serde_json::json!({"position": j + 1, "url": format!("{url}/s{j}"), "title": "S"}))
                .collect();
            serde_json::json!({
                "type": if *sitelinks > 0 { "organic-with-sitelinks" } else { "organic" },
                "page": 1, "section": "main", "feature": 1, "position": i + 1,
                "url": url, "title": "T", "site": "S", "visibleUrl": url, "snippet": "",
                "sitelinks": links, "images": []
            })
        })
        .collect();
    let parsed: SearchResults = serde_json::from_value(serde_json::json!({
        "engine": "google", "terms": "hiking boots", "results": results
    }))
    .unwrap();
    let fetched = Fetched {
        value: SearchAnswer::Results(Box::new(parsed)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(700),
    };
    Box::new(search_page::prepare(
        SearchRequest::new("hiking boots"),
        fetched,
    ))
}

/// A search comparison of the US and Berlin (residential IPs only when asked), sent.
fn search_sent(app: &mut App, residential: bool) -> Vec<Tag> {
    press(app, KeyCode::Esc);
    press(app, KeyCode::Char('M'));
    app.compare.set_prompt("hiking boots");
    app.compare.axes.locations = vec![
        parse_location("us").unwrap(),
        parse_location("de::Berlin").unwrap(),
    ];
    if residential {
        press(app, KeyCode::Char('I'));
    }
    app.compare.rebuild();
    press(app, KeyCode::Char('r'));
    press(app, KeyCode::Char('y'));
    app.compare
        .columns
        .iter()
        .map(|c| c.call.tag().expect("running"))
        .collect()
}

fn land_pages(app: &mut App, tags: Vec<Tag>, pages: [Box<search_page::PreparedSearch>; 2]) {
    assert_eq!(tags.len(), pages.len());
    for (tag, page) in tags.into_iter().zip(pages) {
        update(
            app,
            Msg::SearchDone {
                tag,
                result: Ok(page),
            },
        );
    }
}

#[test]
fn the_search_rank_table_shows_movements() {
    let mut app = app_at(Instant::now());
    let tags = search_sent(&mut app, true);
    let us = page(&[
        ("https://www.rei.com/boots/", 3),
        ("https://www.switchbacktravel.com/boots", 0),
        ("https://www.bestbuy.com/boots", 0),
        ("https://www.nytimes.com/boots", 0),
    ]);
    let de = page(&[
        ("https://www.idealo.de/boots", 0),
        ("https://WWW.REI.com/boots?utm_source=google", 2),
        ("https://www.nytimes.com/boots", 0),
        ("https://www.switchbacktravel.com/boots", 0),
    ]);
    land_pages(&mut app, tags, [us, de]);
    let screen = draw(&mut app, 120, 24);
    assert!(screen.contains("2 ↓1 +2"), "{screen}");
    assert!(screen.contains("1 new"), "{screen}");
    assert!(screen.contains("– gone"), "{screen}");
    insta::assert_snapshot!(screen);
}

fn tracked_brands() -> Vec<vantage::analysis::mentions::Brand> {
    use vantage::analysis::mentions::Brand;
    vec![
        Brand::named("Salomon"),
        Brand::named("Meindl"),
        Brand {
            name: "REI".into(),
            domains: vec!["rei.com".into()],
            ..Brand::default()
        },
        Brand {
            name: "Idealo".into(),
            domains: vec!["idealo.de".into()],
            ..Brand::default()
        },
    ]
}

/// Four answers landed, the brands tracked, and `]` pressed `views` times.
fn landed_with_brands(views: usize) -> App {
    let mut app = app_at(Instant::now());
    app.brands = tracked_brands();
    all_landed(&mut app);
    for _ in 0..views {
        press(&mut app, KeyCode::Char(']'));
    }
    app
}

#[test]
fn the_mention_matrix_sorted_by_share_of_voice() {
    let mut app = landed_with_brands(2);
    for _ in 0..4 {
        press(&mut app, KeyCode::Char('S'));
    }
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("sorted by share of voice"), "{screen}");
    assert!(screen.contains("* site cited"), "{screen}");
    assert!(screen.contains("SoV share of all mentions"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_mention_matrix_at_160_columns() {
    let mut app = landed_with_brands(2);
    insta::assert_snapshot!(draw(&mut app, 160, 45));
}

/// With Meindl marked as yours, the summary says where it is missing: wide and at 80×24
/// (scrolled down to it).
#[test]
fn the_gaps_of_your_brand_in_the_summary() {
    let text = "[[brands]]\nname = \"Salomon\"\n\n[[brands]]\nname = \"Meindl\"\nown = true\n\n[[brands]]\nname = \"REI\"\ndomains = [\"rei.com\"]\n\n[[brands]]\nname = \"Idealo\"\ndomains = [\"idealo.de\"]\n";
    let workspace =
        vantage::analysis::workspace::Workspace::parse(std::path::Path::new("vantage.toml"), text)
            .unwrap();
    let mut app = app_at(Instant::now());
    app.brands = workspace.brands().to_vec();
    app.brands_pane.workspace = Some(workspace);
    all_landed(&mut app);
    press(&mut app, KeyCode::Char(']'));
    let wide = draw(&mut app, 160, 45);
    assert!(
        wide.contains("Gaps: where Meindl (your brand) is missing"),
        "{wide}"
    );
    assert!(wide.contains("Salomon named 1st"), "{wide}");
    insta::assert_snapshot!("gaps_160x45", wide);
    for _ in 0..12 {
        press(&mut app, KeyCode::Down);
    }
    let narrow = draw(&mut app, 80, 24);
    assert!(narrow.contains("Gaps: where Meindl"), "{narrow}");
    insta::assert_snapshot!("gaps_80x24", narrow);
}

#[test]
fn the_sources_of_the_focused_column() {
    let mut app = landed_with_brands(3);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("Sources of #3"), "{screen}");
    assert!(screen.contains("[REI]"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_two_column_word_diff() {
    let mut app = landed_with_brands(4);
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("Diff #1 → #2"), "{screen}");
    assert!(
        screen.contains("{+Berlin+}") || screen.contains("{+"),
        "{screen}"
    );
    assert!(screen.contains("[-"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_brand_rows_of_a_search_comparison() {
    let mut app = app_at(Instant::now());
    app.brands = tracked_brands();
    let tags = search_sent(&mut app, false);
    let us = page(&[
        ("https://www.switchbacktravel.com/boots", 0),
        ("https://www.rei.com/boots/", 3),
        ("https://www.rei.com/c/hiking", 0),
    ]);
    let de = page(&[
        ("https://www.idealo.de/boots", 0),
        ("https://www.nytimes.com/boots", 0),
        ("https://de.rei.com/boots", 0),
    ]);
    land_pages(&mut app, tags, [us, de]);
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("◆ REI"), "{screen}");
    assert!(screen.contains("◆ Idealo"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn an_overview_column_says_plainly_when_the_page_has_none() {
    use vantage::present::compare::overview::{overview_answer, overview_request};
    let mut app = app_at(Instant::now());
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt];
    app.compare.axes.overview = true;
    app.compare.rebuild();
    // Two calls: Enter asks first, y runs them.
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('y'));
    let tags: Vec<Tag> = app
        .compare
        .columns
        .iter()
        .map(|c| c.call.tag().expect("running"))
        .collect();
    let running = draw(&mut app, 80, 24);
    assert!(running.contains("AI Overview"), "{running}");
    assert!(running.contains("Google"), "{running}");
    let page =
        "<html><body><div class=\"g\"><a href=\"https://www.rei.com/\">REI</a></div></body></html>";
    let fetched = Fetched {
        value: SearchAnswer::Html(page.into()),
        body: page.into(),
        status: 200,
        content_type: "text/html".into(),
        elapsed: Duration::from_millis(900),
    };
    let answer = overview_answer(
        overview_request("best hiking boots".into(), Default::default(), None),
        fetched,
    );
    update(
        &mut app,
        Msg::AiDone {
            tag: tags[1],
            result: Ok(Box::new(answer)),
        },
    );
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("No AI Overview on this"), "{screen}");
    assert!(screen.contains("✓ 0.9 s"), "{screen}");
}

/// Four columns asked five times each: Salomon named in every ChatGPT answer and in one
/// of Gemini's, with a warning; the matrix counts them with their intervals and says whether the columns differ.
#[test]
fn the_mention_matrix_over_five_samples() {
    let mut app = app_at(Instant::now());
    app.brands = tracked_brands();
    app.compare.axes.samples = 5;
    let tags = four_sent(&mut app);
    let text = |column: usize, ask: usize| -> &'static str {
        match (column, ask) {
            (0 | 1, _) => "Salomon X Ultra first, then Meindl.",
            (3, 1) => "Meindl is a safe pick. Avoid Salomon: its sole wears fast.",
            _ => "Meindl Borneo for rocky trails.",
        }
    };
    // Columns 1 and 2 are ChatGPT's, 3 and 4 Gemini's.
    let land = |app: &mut App, column: usize, ask: usize, tag: Tag| {
        let model = [Model::Chatgpt, Model::Gemini][column / 2];
        let answer = completion(model, text(column, ask), &[], 1000);
        update(
            app,
            Msg::AiDone {
                tag,
                result: Ok(answer),
            },
        );
    };
    for (column, tag) in tags.into_iter().enumerate() {
        land(&mut app, column, 0, tag);
    }
    // Every sample out and back, one column at a time.
    loop {
        let pending: Vec<(usize, usize, Tag)> = app
            .compare
            .columns
            .iter()
            .enumerate()
            .flat_map(|(c, column)| {
                column
                    .samples
                    .iter()
                    .enumerate()
                    .filter_map(move |(k, s)| s.call.tag().map(|tag| (c, k + 1, tag)))
            })
            .collect();
        if pending.is_empty() {
            break;
        }
        for (column, ask, tag) in pending {
            land(&mut app, column, ask, tag);
        }
    }
    assert_eq!(app.compare.busy(), 0);
    press(&mut app, KeyCode::Char(']'));
    press(&mut app, KeyCode::Char(']'));
    let wide = draw(&mut app, 160, 45);
    assert!(wide.contains("11/20"), "{wide}");
    assert!(wide.contains("1/5!"), "{wide}");
    assert!(
        wide.contains("Salomon: #1 5/5 vs #3 0/5: different (p = 0.008)"),
        "{wide}"
    );
    assert!(wide.contains("Meindl: no clear difference"), "{wide}");
    assert!(wide.contains("named in 5 of 5 (57–100 %)"), "{wide}");
    insta::assert_snapshot!("sampled_matrix_160x45", wide);
    let narrow = draw(&mut app, 80, 24);
    assert!(narrow.contains("named"), "{narrow}");
    insta::assert_snapshot!("sampled_matrix_80x24", narrow);
}
