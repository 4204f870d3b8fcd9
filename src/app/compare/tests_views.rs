//! The comparison's views: the brand matrix, the views' cycle and the diff, the AI
//! Overview as a column, and what follows (split from `tests.rs` by what a reader looks for).

use crate::app::{CallEffect, StoreEffect};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::run::send_all;
use super::*;
use crate::api::Model;
use crate::app::picker::PickerKind;
use crate::app::{Effect, Popup};
use crate::app::{Msg, Tab, update};
use crate::present::compare::mentions as brand_mentions;

use super::tests::*;

fn brands() -> Vec<crate::analysis::mentions::Brand> {
    use crate::analysis::mentions::Brand;
    vec![
        Brand::named("Salomon"),
        Brand {
            name: "Merrell".into(),
            domains: vec!["merrell.com".into()],
            ..Brand::default()
        },
        Brand::named("Lowa"),
    ]
}

/// Two columns (ChatGPT and Gemini, no location) with their answers landed.
fn two_landed(app: &mut App, first: &str, second: &str) {
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Gemini];
    app.compare.rebuild();
    let effects = send_all(app);
    let tags = sent_tags(&effects);
    let texts = [
        (first, "<a href=\"https://www.merrell.com/x\">m</a>"),
        (second, ""),
    ];
    for (tag, (text, sources)) in tags.into_iter().zip(texts) {
        update(
            app,
            Msg::AiDone {
                tag,
                result: Ok(answer("chatgpt", text, sources)),
            },
        );
    }
}

#[test]
fn the_matrix_follows_the_brands_and_sorts_by_each_measure() {
    let mut app = app();
    app.brands = brands();
    two_landed(
        &mut app,
        "Lowa first, then Merrell, and Merrell again.",
        "Salomon only.",
    );
    let views = &app.compare.brand_views;
    let names = |app: &App| -> Vec<String> {
        app.compare
            .brand_views
            .sorted()
            .iter()
            .map(|r| r.brand.clone())
            .collect()
    };
    assert_eq!(names(&app), vec!["Salomon", "Merrell", "Lowa"]);
    let merrell = &views.matrix[1];
    let cell = merrell.columns[0].as_ref().unwrap();
    assert_eq!((cell.position, cell.count, cell.cited), (Some(2), 2, true));
    assert_eq!(merrell.visibility, 50.0);
    assert_eq!(merrell.share_of_voice, 50.0);

    // S steps through brand, visibility, average position and share of voice.
    key(&mut app, KeyCode::Char('S'), KeyModifiers::NONE);
    assert_eq!(
        app.compare.brand_views.sort,
        brand_mentions::MatrixSort::Brand
    );
    assert_eq!(names(&app), vec!["Lowa", "Merrell", "Salomon"]);
    key(&mut app, KeyCode::Char('S'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Char('S'), KeyModifiers::NONE);
    assert_eq!(
        app.compare.brand_views.sort,
        brand_mentions::MatrixSort::AveragePosition
    );
    assert_eq!(names(&app), vec!["Salomon", "Lowa", "Merrell"]);
    key(&mut app, KeyCode::Char('S'), KeyModifiers::NONE);
    assert_eq!(names(&app)[0], "Merrell", "two of the four mentions");

    // Brands changed elsewhere are read at the next key.
    app.brands.truncate(1);
    key(&mut app, KeyCode::Char(']'), KeyModifiers::NONE);
    assert_eq!(app.compare.brand_views.matrix.len(), 1);
}

#[test]
fn the_views_cycle_and_the_diff_compares_a_base_with_the_focused_column() {
    let mut app = app();
    two_landed(
        &mut app,
        "Buy Salomon boots today",
        "Buy Merrell boots today",
    );
    let panes: Vec<ComparePane> = (0..5)
        .map(|_| {
            key(&mut app, KeyCode::Char(']'), KeyModifiers::NONE);
            app.compare.pane
        })
        .collect();
    assert_eq!(
        panes,
        vec![
            ComparePane::Summary,
            ComparePane::Matrix,
            ComparePane::Sources,
            ComparePane::Diff,
            ComparePane::Columns
        ]
    );
    key(&mut app, KeyCode::Char('['), KeyModifiers::NONE);
    assert_eq!(app.compare.pane, ComparePane::Diff);
    // Opening the diff on the base column moves the focus to the next one.
    assert_eq!(app.compare.diff_pair(), (0, 1));
    let diff = &app.compare.diff.as_ref().unwrap().diff;
    assert_eq!(diff.marked_text(), "Buy [-Salomon-]{+Merrell+} boots today");

    // Enter makes the focused column the base; ← then picks the other side.
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(app.compare.diff_pair(), (1, 1));
    assert!(app.compare.diff.is_none(), "a column against itself");
    key(&mut app, KeyCode::Left, KeyModifiers::NONE);
    assert_eq!(app.compare.diff_pair(), (1, 0));
    let diff = &app.compare.diff.as_ref().unwrap().diff;
    assert_eq!(diff.marked_text(), "Buy [-Merrell-]{+Salomon+} boots today");
    assert!(
        !app.compare.full,
        "Enter in the diff does not open a column full width"
    );
}

#[test]
fn the_ai_overview_is_one_more_column_per_location_sent_as_a_search() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
    );
    apply_choice(&mut app, PickerKind::Model, Some("chatgpt".into()));
    apply_choice(&mut app, PickerKind::Model, Some("ai-overview".into()));
    app.compare.axes.locations = vec![loc("us:ny:New+York"), loc("de::Berlin")];
    app.compare.rebuild();
    let labels = app.compare.labels();
    assert_eq!(labels.len(), 4, "{labels:?}");
    assert!(labels[2].starts_with("AI Overview · "), "{labels:?}");
    let effects = send_all(&mut app);
    let overviews: Vec<&crate::api::SearchRequest> = columns_sent(&effects)
        .into_iter()
        .filter_map(|call| match call {
            CallEffect::SendOverview { request, .. } => Some(request),
            _ => None,
        })
        .collect();
    assert_eq!(overviews.len(), 2);
    assert!(overviews.iter().all(|r| {
        r.awaiting == vec![crate::api::Awaiting::Ai]
            && r.format == crate::api::SearchFormat::Html
            && r.terms == "best hiking boots"
    }));
    assert_eq!(overviews[1].location, loc("de::Berlin"));
    // Running, its column says what it waits for.
    let column = &app.compare.columns[2];
    assert!(column.call.is_running());
    // Toggled off again, only the model's columns stay.
    apply_choice(&mut app, PickerKind::Model, Some("ai-overview".into()));
    assert!(app.compare.columns.iter().all(|c| !c.vantage.overview));
}

#[test]
fn exports_carry_the_mentions_when_brands_are_known() {
    let mut app = app();
    app.brands = brands();
    two_landed(&mut app, "Lowa first, then Merrell.", "Salomon only.");
    let json: serde_json::Value = serde_json::from_str(&app.compare.to_export().json()).unwrap();
    assert_eq!(json["mentions"].as_array().unwrap().len(), 3);
    assert_eq!(json["mentions"][1]["columns"][0]["cited"], true);
    let markdown = app.compare.to_export().markdown();
    assert!(markdown.contains("# Mentions"), "{markdown}");
    assert!(
        markdown.contains("| Merrell | 50% | 2.0 | 33% | 2\\* | – |"),
        "{markdown}"
    );
    let csv = app.compare.to_export().csv();
    assert!(csv.starts_with("brand,"), "{csv}");
    assert!(app.compare.has_mentions());

    let mut plain = self::app();
    two_landed(&mut plain, "Lowa.", "Salomon.");
    assert!(!plain.compare.has_mentions());
    let json: serde_json::Value = serde_json::from_str(&plain.compare.to_export().json()).unwrap();
    assert_eq!(json["mentions"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_reopened_comparison_keeps_its_overview_columns() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Gemini];
    app.compare.axes.overview = true;
    app.compare.axes.locations = vec![loc("de::Berlin")];
    app.compare.rebuild();
    let fresh = run_and_reopen(&mut app);
    assert_eq!(fresh.compare.mode, CompareMode::Answers);
    assert!(fresh.compare.axes.overview);
    assert_eq!(fresh.compare.axes.models, vec![Model::Gemini]);
    let labels = fresh.compare.labels();
    assert_eq!(labels, app.compare.labels());
    let overview = &fresh.compare.columns[1];
    assert!(overview.vantage.overview);
    // The stored page had no overview: the column says so rather than failing.
    let answer = overview.answer().expect("an answer");
    assert!(
        answer.markdown.contains("No AI Overview"),
        "{}",
        answer.markdown
    );
}

#[test]
fn the_search_csv_carries_the_brand_rows_as_the_json_does() {
    let mut app = app();
    app.compare.focus = CompareFocus::Columns;
    key(&mut app, KeyCode::Char('M'), KeyModifiers::NONE);
    assert_eq!(app.compare.mode, CompareMode::Search);
    app.compare.brand_views.ranks = vec![crate::present::compare::mentions::BrandRanks {
        brand: "Merrell".into(),
        ranks: vec![Some(3); app.compare.labels().len()],
    }];
    let csv = app.compare.to_export().csv();
    assert!(csv.starts_with("url,brand,"), "{csv}");
    let brand_line = csv.lines().last().unwrap();
    assert!(brand_line.starts_with(",Merrell,3,"), "{csv}");
    let json: serde_json::Value = serde_json::from_str(&app.compare.to_export().json()).unwrap();
    assert_eq!(json["brand_rows"][0]["brand"], "Merrell");
}

/// The samples' calls: sent on their own (each its own History entry), not as columns.
fn samples_sent(effects: &[Effect]) -> Vec<(Tag, bool)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Call(CallEffect::SendAi { tag, request }) => {
                Some((*tag, request.expiration == Some(0)))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn samples_ask_each_column_again_afresh_and_the_matrix_counts_every_answer() {
    let mut app = app();
    app.brands = brands();
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Gemini];
    app.compare.rebuild();
    app.compare.focus = CompareFocus::Columns;
    // a: 1 → 3 samples; the cost says so before anything is sent.
    key(&mut app, KeyCode::Char('a'), KeyModifiers::NONE);
    assert_eq!(app.compare.axes.samples(), 3);
    assert_eq!(
        cost_line(&app),
        (
            "2 columns × 3 samples = 6 calls (6 answers × 5 = 30 credits)".to_string(),
            true
        )
    );
    let effects = send_all(&mut app);
    // Each column's first ask is marked as the column's (one History entry for them all).
    let firsts: Vec<(Tag, bool)> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Call(CallEffect::Column(call)) => match call.as_ref() {
                CallEffect::SendAi { tag, request } => Some((*tag, request.expiration == Some(0))),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let more = samples_sent(&effects);
    assert_eq!((firsts.len(), more.len()), (2, 4), "{effects:?}");
    assert!(
        firsts.iter().chain(&more).all(|(_, fresh)| *fresh),
        "every ask afresh"
    );
    let firsts: Vec<Tag> = firsts.into_iter().map(|(tag, _)| tag).collect();
    assert_eq!(app.compare.busy(), 6);
    // ChatGPT names Salomon in all three answers; Gemini in one of three.
    let land = |app: &mut App, tag: Tag, text: &str| {
        update(
            app,
            Msg::AiDone {
                tag,
                result: Ok(answer("chatgpt", text, "")),
            },
        )
    };
    land(&mut app, firsts[0], "Salomon is the pick.");
    land(&mut app, firsts[1], "Merrell is fine.");
    // Samples go out column by column: two of ChatGPT, then two of Gemini.
    land(&mut app, more[0].0, "Salomon again.");
    land(&mut app, more[1].0, "Salomon, then Lowa.");
    land(&mut app, more[2].0, "Salomon this time.");
    let effects = update(
        &mut app,
        Msg::AiDone {
            tag: more[3].0,
            result: Err(ApiError::BadBody {
                what: "a sample failed".into(),
                excerpt: String::new(),
            }),
        },
    );
    // Done: the comparison of the first answers goes to History as one entry.
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Store(StoreEffect::RecordComparison { .. })))
    );
    let sampled = app.compare.brand_views.sampled.as_ref().expect("sampled");
    let salomon = &sampled[0];
    assert_eq!(salomon.brand, "Salomon");
    assert_eq!((salomon.columns[0].named, salomon.columns[0].asked), (3, 3));
    // The failed sample is not counted: two answers back of three asked.
    assert_eq!((salomon.columns[1].named, salomon.columns[1].asked), (1, 2));
    assert!(!salomon.difference.as_ref().unwrap().different);
    assert_eq!(app.compare.columns[1].samples_back(), (2, 3));
    // . steps the focused column through its answers back, and round to the first.
    app.compare.selected = 0;
    key(&mut app, KeyCode::Char('.'), KeyModifiers::NONE);
    assert_eq!(app.compare.columns[0].showing, 1);
    let shown = app.compare.columns[0].shown_answer().unwrap();
    assert!(
        shown.plain_text.contains("Salomon again"),
        "{}",
        shown.plain_text
    );
    key(&mut app, KeyCode::Char('.'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Char('.'), KeyModifiers::NONE);
    assert_eq!(app.compare.columns[0].showing, 0);
    key(&mut app, KeyCode::Char(','), KeyModifiers::NONE);
    assert_eq!(app.compare.columns[0].showing, 2);
    let csv = app.compare.to_export().csv();
    assert!(csv.lines().next().unwrap().contains("low %"), "{csv}");
    // Back to one sample: the matrix reads the first answers only, as before.
    for _ in 0..3 {
        key(&mut app, KeyCode::Char('a'), KeyModifiers::NONE);
    }
    assert_eq!(app.compare.axes.samples(), 1);
}

/// `F` on a Compare column: its answer shows in Chat and the cost of searching its fanouts
/// is asked there; a column with no answer says so.
#[test]
fn f_takes_the_focused_answer_to_chat_for_its_fanout_coverage() {
    let mut app = app();
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Gemini];
    app.compare.rebuild();
    app.compare.focus = CompareFocus::Columns;
    press_f(&mut app);
    assert_eq!(app.tab, Tab::Compare);
    assert!(format!("{:?}", app.flash).contains("no answer yet"));
    let mut with_fanouts = answer("chatgpt", "Salomon is best.", "");
    with_fanouts.fanouts = vec![
        "best hiking boots 2026".into(),
        "hiking boots reviews".into(),
    ];
    app.compare.columns[1].outcome = Some(Outcome::Answer(with_fanouts));
    app.compare.selected = 1;
    press_f(&mut app);
    assert_eq!(app.tab, Tab::Chat);
    let shown = app
        .chat
        .answer
        .as_ref()
        .expect("the column's answer is Chat's now");
    assert_eq!(shown.prepared.fanouts.len(), 2);
    assert!(
        matches!(
            app.popup,
            Some(Popup::Confirm(crate::app::popup::Confirm::FanoutCoverage {
                searches: 2,
                ..
            }))
        ),
        "{:?}",
        app.popup
    );
}

fn press_f(app: &mut App) {
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char('F'), KeyModifiers::SHIFT)),
    );
}
