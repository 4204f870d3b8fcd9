//! Snapshots of the Track tab's chart: `v` splits it by model and by place, `c` turns it
//! from visibility to share of voice and recommended share; the changes under it.

mod common;

use common::view::{demo_connection, draw, press};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use vantage::analysis::stance::Stance;
use vantage::app::{App, Msg, Tab, update};
use vantage::store::{RunId, RunSummary};
use vantage::track::diff;
use vantage::track::trends::{self, AnswerObservation, RunObservations, Seen};
use vantage::track::view::TrackView;

const T0: i64 = 1_763_880_000_000;
const DAY: i64 = 86_400_000;

/// Each watched brand named at its position (once, listed), or not named.
fn seen(positions: Vec<Option<u32>>) -> Vec<Seen> {
    positions.into_iter().map(Seen::at).collect()
}

fn run(n: u32, set: &str, done: u32, failed: u32, pending: u32) -> RunSummary {
    RunSummary {
        id: RunId(format!("{n:08x}-0000-4000-8000-000000000000")),
        set_name: set.to_string(),
        started_at: T0 + i64::from(n) * DAY,
        planned: done + failed + pending,
        queued: done + failed + pending,
        unsent: 0,
        refused: 0,
        done,
        failed,
        pending,
        done_answers: done,
    }
}

fn app_on_track() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    let index = Tab::ALL.iter().position(|t| *t == Tab::Track).unwrap();
    let digit = char::from_digit(index as u32 + 1, 10).unwrap();
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char(digit), KeyModifiers::ALT)),
    );
    app
}

/// Three runs of two models from two places: Salomon holds in ChatGPT and falls in Gemini,
/// holds in Denver and falls in Berlin.
fn split_view() -> TrackView {
    let brands: Vec<String> = ["Salomon", "Lowa"].map(String::from).to_vec();
    let answer = |model: &str, location: &str, positions: Vec<Option<u32>>| AnswerObservation {
        query: "best hiking boots".to_string(),
        model: model.to_string(),
        device: String::new(),
        location: location.to_string(),
        brands: seen(positions),
        domains: Vec::new(),
    };
    let observed: Vec<RunObservations> = (0..3)
        .map(|day| {
            let later = day > 0;
            RunObservations {
                label: format!("day {day}"),
                answers: vec![
                    answer("chatgpt", "US/CO/Denver", vec![Some(1), Some(2)]),
                    answer("chatgpt", "DE/–/Berlin", vec![Some(1), None]),
                    answer("gemini", "US/CO/Denver", vec![Some(2), Some(1)]),
                    answer(
                        "gemini",
                        "DE/–/Berlin",
                        vec![if later { None } else { Some(1) }, Some(1)],
                    ),
                ],
                results: Vec::new(),
            }
        })
        .collect();
    TrackView {
        runs: vec![
            run(1, "boots", 4, 0, 0),
            run(2, "boots", 4, 0, 0),
            run(3, "boots", 4, 0, 0),
        ],
        set: Some("boots".to_string()),
        trends: trends::trends(&observed, &brands),
        diff: Some(diff::diff(&observed[1], &observed[2], &brands)),
        maps: Vec::new(),
        readings: None,
        calls_per_run: Some(4),
        // Salomon's Gemini alert fired on the newest run.
        stale: 0,
        complete: 90,
        reading: None,
        fired: vec![(
            "00000003-0000-4000-8000-000000000000".to_string(),
            vec![vantage::track::alerts::Fired {
                set: "boots".to_string(),
                run: "00000003-0000-4000-8000-000000000000".to_string(),
                subject: "Salomon".to_string(),
                measure: "visibility",
                condition: "below",
                threshold: 60.0,
                value: Some(50.0),
                previous: Some(100.0),
                models: vec!["gemini".to_string()],
                locations: Vec::new(),
                text: "boots: Salomon's visibility (gemini) is 50 %, below 60 % in run 00000003."
                    .to_string(),
            }],
        )],
    }
}

/// `v` splits the chart: the selected brand by model, then by place, each line's last
/// value in the legend; `←`/`→` pick the brand; `v` again goes back to every brand.
#[test]
fn v_breaks_a_brand_down_by_model_and_by_place() {
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(split_view()))));
    press(&mut app, KeyCode::Char('v'));
    let by_model = draw(&mut app, 160, 45);
    assert!(
        by_model.contains("Salomon: visibility by model"),
        "{by_model}"
    );
    assert!(by_model.contains("chatgpt 100%"), "{by_model}");
    assert!(by_model.contains("gemini 50%"), "{by_model}");
    assert!(
        by_model.contains("⚑ boots: Salomon's visibility (gemini) is 50 %"),
        "the alert that fired shows under the chart: {by_model}"
    );
    insta::assert_snapshot!("track_by_model_160x45", by_model);
    press(&mut app, KeyCode::Char('v'));
    let by_place = draw(&mut app, 80, 24);
    assert!(by_place.contains("by place"), "{by_place}");
    insta::assert_snapshot!("track_by_place_80x24", by_place);
    insta::assert_snapshot!("track_by_place_160x45", draw(&mut app, 160, 45));
    // Lowa by place: the brand follows → .
    press(&mut app, KeyCode::Right);
    let lowa = draw(&mut app, 160, 45);
    assert!(lowa.contains("Lowa: visibility by place"), "{lowa}");
    press(&mut app, KeyCode::Char('v'));
    insta::assert_snapshot!("track_by_model_80x24", {
        press(&mut app, KeyCode::Char('v'));
        draw(&mut app, 80, 24)
    });
}

/// Two runs where Salomon is named as often but recommended more and named more times an
/// answer: `c` turns the chart from visibility to share of voice, then to recommended share,
/// then back, and the title says which; a split keeps the share.
#[test]
fn c_turns_the_chart_to_share_of_voice_and_recommended_share() {
    let brands: Vec<String> = ["Salomon", "Lowa"].map(String::from).to_vec();
    let answer = |model: &str, salomon: Seen, lowa: Seen| AnswerObservation {
        query: "best hiking boots".to_string(),
        model: model.to_string(),
        device: String::new(),
        location: "US/CO/Denver".to_string(),
        brands: vec![salomon, lowa],
        domains: Vec::new(),
    };
    let named = |position: u32, count: u32, stance: Stance| Seen {
        position: Some(position),
        count,
        stance,
    };
    let observed = vec![
        RunObservations {
            label: "day 1".to_string(),
            answers: vec![
                answer(
                    "chatgpt",
                    named(1, 1, Stance::Listed),
                    named(2, 3, Stance::Recommended),
                ),
                answer(
                    "gemini",
                    named(2, 1, Stance::Listed),
                    named(1, 1, Stance::Listed),
                ),
            ],
            results: Vec::new(),
        },
        RunObservations {
            label: "day 2".to_string(),
            answers: vec![
                answer(
                    "chatgpt",
                    named(1, 4, Stance::Recommended),
                    named(2, 1, Stance::Listed),
                ),
                answer(
                    "gemini",
                    named(1, 3, Stance::Recommended),
                    named(2, 1, Stance::Listed),
                ),
            ],
            results: Vec::new(),
        },
    ];
    let view = TrackView {
        runs: vec![run(1, "boots", 2, 0, 0), run(2, "boots", 2, 0, 0)],
        set: Some("boots".to_string()),
        trends: trends::trends(&observed, &brands),
        diff: Some(diff::diff(&observed[0], &observed[1], &brands)),
        calls_per_run: Some(2),
        ..TrackView::default()
    };
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view))));
    let visibility = draw(&mut app, 140, 40);
    assert!(
        visibility.contains(
            "Visibility of each brand over the runs of boots (%) · v: by model · c: share of voice"
        ),
        "{visibility}"
    );
    press(&mut app, KeyCode::Char('c'));
    let voice = draw(&mut app, 140, 40);
    assert!(
        voice.contains("Share of voice of each brand over the runs of boots (%)"),
        "{voice}"
    );
    // Salomon's share of voice moved 33 % → 78 % in two paired cells: within chance, so
    // the headline says no clear change rather than nothing, and folds the brands.
    assert!(
        voice.contains("no clear change in the 2 cells both runs answered (2 brands moved"),
        "{voice}"
    );
    assert!(
        voice.contains("2 brands: no clear difference in 2 paired cells (Salomon, Lowa)"),
        "{voice}"
    );
    insta::assert_snapshot!("track_share_of_voice_140x40", voice);
    press(&mut app, KeyCode::Char('c'));
    let recommended = draw(&mut app, 80, 24);
    assert!(
        recommended.contains("Recommended share (%) · v · c"),
        "{recommended}"
    );
    insta::assert_snapshot!("track_recommended_80x24", recommended);
    // Split by model, the share stays and the title names it.
    press(&mut app, KeyCode::Char('v'));
    let by_model = draw(&mut app, 140, 40);
    assert!(
        by_model.contains("Salomon: recommended share by model (%) · ←→ · v · c"),
        "{by_model}"
    );
    assert!(by_model.contains("chatgpt 100%"), "{by_model}");
    press(&mut app, KeyCode::Char('v'));
    press(&mut app, KeyCode::Char('v'));
    press(&mut app, KeyCode::Char('c'));
    assert!(draw(&mut app, 140, 40).contains("Visibility of each brand"));
}
