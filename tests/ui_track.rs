//! Snapshots of the Track tab on `TestBackend`: runs of two sets, the chart of the shown
//! set's brands over its runs, and the last run's changes; the keys that move and load.

mod common;

use common::view::{demo_connection, draw, press};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use vantage::app::{App, Effect, Msg, StoreEffect, Tab, update};
use vantage::store::{RunId, RunSummary};
use vantage::track::map::brand_maps;
use vantage::track::trends::{self, AnswerObservation, ResultObservation, RunObservations};
use vantage::track::view::TrackView;

const T0: i64 = 1_763_880_000_000;
const DAY: i64 = 86_400_000;

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
    }
}

/// Three days of answers: Merrell climbs, Salomon falls, Lowa comes in on day 3.
fn observations() -> Vec<RunObservations> {
    let named = [
        [Some(1), Some(2), None],
        [Some(1), None, None],
        [Some(1), None, Some(2)],
    ];
    (0..3)
        .map(|day| {
            let answers = ["chatgpt", "gemini"]
                .iter()
                .enumerate()
                .map(|(i, model)| AnswerObservation {
                    query: "best hiking boots".to_string(),
                    model: model.to_string(),
                    device: String::new(),
                    location: "US/CO/Denver".to_string(),
                    positions: if i == 0 || day == 2 {
                        named[day].to_vec()
                    } else {
                        vec![None, Some(1), None]
                    },
                    domains: vec![if day == 0 { "rei.com" } else { "reddit.com" }.to_string()],
                })
                .collect();
            RunObservations {
                label: format!("day {day}"),
                answers,
                results: vec![ResultObservation {
                    terms: "hiking boots".to_string(),
                    location: "US/CO/Denver".to_string(),
                    rank: 3 - day as u32,
                    domain: "rei.com".to_string(),
                    url: "https://rei.com/".to_string(),
                    title: String::new(),
                }],
            }
        })
        .collect()
}

fn view() -> TrackView {
    let brands: Vec<String> = ["Merrell", "Salomon", "Lowa"].map(String::from).to_vec();
    let observed = observations();
    TrackView {
        runs: vec![
            run(1, "boots", 20, 1, 0),
            run(2, "shoes", 6, 0, 0),
            run(3, "boots", 21, 0, 0),
            run(4, "boots", 17, 0, 4),
        ],
        set: Some("boots".to_string()),
        trends: trends::trends(&observed, &brands),
        diff: Some(trends::diff(&observed[1], &observed[2], &brands)),
        maps: Vec::new(),
        readings: None,
        calls_per_run: None,
    }
}

fn app_on_track() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    let index = Tab::ALL.iter().position(|t| *t == Tab::Track).unwrap();
    let digit = char::from_digit(index as u32 + 1, 10).unwrap();
    let effects = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char(digit), KeyModifiers::ALT)),
    );
    assert_eq!(
        effects,
        vec![
            Effect::Store(StoreEffect::LoadTrack { set: None }),
            // What another process wrote since is looked at too.
            Effect::Store(StoreEffect::ReadDataVersion),
        ]
    );
    app
}

#[test]
fn the_track_tab_shows_runs_a_chart_and_the_changes() {
    let mut app = app_on_track();
    insta::assert_snapshot!("track_reading", draw(&mut app, 100, 32));
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view()))));
    let screen = draw(&mut app, 100, 32);
    assert!(screen.contains("Merrell"), "{screen}");
    assert!(screen.contains("+ Lowa named by gemini"), "{screen}");
    insta::assert_snapshot!("track_runs_chart_diff", screen);
}

#[test]
fn keys_move_between_runs_and_enter_shows_a_runs_set() {
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view()))));
    // The newest run is selected first.
    assert_eq!(app.track.selected, 3);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    assert_eq!(app.track.selected_set(), Some("shoes"));
    let effects = press(&mut app, KeyCode::Enter);
    assert_eq!(
        effects,
        vec![Effect::Store(StoreEffect::LoadTrack {
            set: Some("shoes".to_string())
        })]
    );
    assert_eq!(
        press(&mut app, KeyCode::Char('r')),
        vec![Effect::Store(StoreEffect::LoadTrack {
            set: Some("boots".to_string())
        })]
    );
    let empty = TrackView::default();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(empty))));
    assert!(draw(&mut app, 100, 12).contains("No tracking runs yet."));
}

/// Two runs from four vantage points: Merrell is named everywhere but Tokyo, Lowa only in
/// Berlin; nobody answered from Sydney in the newest run.
fn world_view() -> TrackView {
    let brands: Vec<String> = ["Merrell", "Lowa"].map(String::from).to_vec();
    let answer = |location: &str, positions: Vec<Option<u32>>| AnswerObservation {
        query: "best hiking boots".to_string(),
        model: "chatgpt".to_string(),
        device: String::new(),
        location: location.to_string(),
        positions,
        domains: vec!["rei.com".to_string()],
    };
    let day = |n: usize, answers: Vec<AnswerObservation>| RunObservations {
        label: format!("day {n}"),
        answers,
        results: Vec::new(),
    };
    let observed = vec![
        day(
            1,
            vec![
                answer("US/CO/Denver", vec![Some(1), None]),
                answer("AU/–/Sydney", vec![Some(1), None]),
            ],
        ),
        day(
            2,
            vec![
                answer("US/CO/Denver", vec![Some(1), None]),
                answer("US/CO/Denver", vec![Some(2), None]),
                answer("DE/–/Berlin", vec![Some(2), Some(1)]),
                answer("DE/–/Berlin", vec![None, None]),
                answer("JP/–/Tokyo", vec![None, None]),
                answer("anywhere", vec![Some(1), None]),
            ],
        ),
    ];
    let trends = trends::trends(&observed, &brands);
    TrackView {
        runs: vec![run(1, "boots", 2, 0, 0), run(2, "boots", 6, 0, 0)],
        set: Some("boots".to_string()),
        maps: brand_maps(&trends),
        trends,
        diff: Some(trends::diff(&observed[0], &observed[1], &brands)),
        readings: None,
        calls_per_run: None,
    }
}

/// The world view's last run read for its sources by kind and the gaps of Lowa, marked as
/// the workspace's own brand.
fn world_view_with_readings() -> TrackView {
    use vantage::analysis::mentions::Brand;
    use vantage::analysis::sources::Classifier;
    let mut view = world_view();
    let brands = vec![
        Brand::named("Merrell"),
        Brand {
            name: "Lowa".to_string(),
            domains: vec!["lowa.com".to_string()],
            ..Brand::default()
        },
    ];
    let last = RunObservations {
        label: "day 2".to_string(),
        answers: vec![
            AnswerObservation {
                query: "best hiking boots".to_string(),
                model: "chatgpt".to_string(),
                device: String::new(),
                location: "US/CO/Denver".to_string(),
                positions: vec![Some(1), None],
                domains: vec!["rei.com".to_string(), "reddit.com".to_string()],
            },
            AnswerObservation {
                query: "best hiking boots".to_string(),
                model: "gemini".to_string(),
                device: String::new(),
                location: "DE/–/Berlin".to_string(),
                positions: vec![Some(2), Some(1)],
                domains: vec!["lowa.com".to_string(), "outdoorgearlab.com".to_string()],
            },
        ],
        results: Vec::new(),
    };
    let classifier = Classifier::new(&brands, Some("Lowa"), Vec::new());
    view.calls_per_run = Some(8);
    view.readings = Some(vantage::track::readings::readings(
        &last,
        &brands,
        Some("Lowa"),
        &classifier,
    ));
    view
}

#[test]
fn s_shows_the_last_runs_sources_by_kind_and_the_gaps() {
    let mut app = app_on_track();
    update(
        &mut app,
        Msg::TrackLoaded(Ok(Box::new(world_view_with_readings()))),
    );
    press(&mut app, KeyCode::Char('s'));
    assert!(app.track.show_readings);
    let wide = draw(&mut app, 160, 45);
    assert!(wide.contains("Sources by kind"), "{wide}");
    assert!(wide.contains("model gemini"), "{wide}");
    assert!(
        wide.contains("Gaps: where Lowa (your brand) is missing"),
        "{wide}"
    );
    assert!(wide.contains("Merrell named 1st"), "{wide}");
    assert!(wide.contains("a run of boots makes 8 calls"), "{wide}");
    insta::assert_snapshot!("track_readings_160x45", wide);
    insta::assert_snapshot!("track_readings_80x24", draw(&mut app, 80, 24));
    // m swaps in the map instead; s again goes back to the chart.
    press(&mut app, KeyCode::Char('m'));
    assert!(app.track.show_map && !app.track.show_readings);
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Char('s'));
    assert!(!app.track.show_map && !app.track.show_readings);
}

#[test]
fn the_map_shows_each_vantage_point_of_the_picked_brand() {
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(world_view()))));
    press(&mut app, KeyCode::Char('m'));
    assert!(app.track.show_map);
    let screen = draw(&mut app, 100, 32);
    assert!(
        screen.contains("Merrell in the last run of boots"),
        "{screen}"
    );
    // Denver 2 of 2, Berlin 1 of 2, Tokyo 0 of 1; Sydney had no answer this time.
    for symbol in ["●", "◐", "×", "?"] {
        assert!(screen.contains(symbol), "{symbol} missing:\n{screen}");
    }
    assert!(screen.contains("not on the map: anywhere"), "{screen}");
    insta::assert_snapshot!("track_map_merrell", screen);

    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    assert_eq!(app.track.brand, 1, "the last brand stays picked");
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("Lowa in the last run"), "{screen}");
    insta::assert_snapshot!("track_map_lowa_narrow", screen);

    press(&mut app, KeyCode::Char('h'));
    press(&mut app, KeyCode::Char('m'));
    assert_eq!(app.track.brand, 0);
    assert!(draw(&mut app, 100, 32).contains("Visibility of each brand"));
}

#[test]
fn changes_that_do_not_fit_are_counted_and_pointed_to() {
    let mut view = world_view();
    let diff = view.diff.get_or_insert_with(Default::default);
    diff.mentions_gained = (0..12)
        .map(|n| trends::MentionChange {
            brand: "Lowa".to_string(),
            query: format!("boots {n}"),
            model: "chatgpt".to_string(),
            device: String::new(),
            location: "DE/–/Berlin".to_string(),
            ..trends::MentionChange::default()
        })
        .collect();
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view))));
    // The chart leaves the changes eight lines: what they are over and what was not
    // compared first, then five shown and seven counted.
    let screen = draw(&mut app, 100, 32);
    assert!(
        screen.contains("changes in the 2 answers both runs have"),
        "{screen}"
    );
    assert!(
        screen.contains("not compared, failed or not sent"),
        "{screen}"
    );
    assert!(screen.contains("boots 4\""), "{screen}");
    assert!(!screen.contains("boots 5\""), "{screen}");
    assert!(
        screen.contains("… 7 more: `vantage track trends boots`"),
        "{screen}"
    );
    // The map leaves them three: what they are over, what was not, and all twelve counted.
    press(&mut app, KeyCode::Char('m'));
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("… 12 more"), "{screen}");
}
