//! The Track tab's chart with many brands, as text (what a terminal without colour shows):
//! every line has a marker of its own, every brand is in the legend, the y-axis spans the
//! data, and runs of one day are told apart by their time.

mod common;

use common::view::{demo_connection, draw};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use vantage::app::{App, Msg, Tab, update};
use vantage::store::{RunId, RunSummary};
use vantage::track::chart_scale::MARKERS;
use vantage::track::trends::{self, AnswerObservation, RunObservations, Seen};
use vantage::track::view::TrackView;

const BRANDS: [&str; 12] = [
    "Salomon",
    "Merrell",
    "Lowa",
    "Keen",
    "Columbia",
    "Hoka",
    "Altra",
    "La Sportiva",
    "Scarpa",
    "Vasque",
    "Oboz",
    "Danner",
];

/// 25 Nov 06:15, 27 Nov 06:15 and 27 Nov 18:40 (UTC): two runs share a date.
const STARTS: [i64; 3] = [1_795_587_300_000, 1_795_760_100_000, 1_795_804_800_000];

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

/// Three runs of 100 answers where brand `b` is named in between 10 and 32 % of them, each
/// brand at a share of its own in each run (2 points apart at least).
fn view(brands: usize) -> TrackView {
    let names: Vec<String> = BRANDS[..brands].iter().map(|b| b.to_string()).collect();
    let observed: Vec<RunObservations> = STARTS
        .iter()
        .enumerate()
        .map(|(r, &start)| {
            // 5 is prime to 12: the twelve brands take twelve different values in each run.
            let named: Vec<usize> = (0..brands)
                .map(|b| 10 + 2 * ((b * 5 + r * 3) % 12))
                .collect();
            let answers = (0..100)
                .map(|a| AnswerObservation {
                    query: "best hiking boots".to_string(),
                    model: "chatgpt".to_string(),
                    device: String::new(),
                    location: "US/CO/Denver".to_string(),
                    brands: named
                        .iter()
                        .map(|&n| Seen::at((a < n).then_some(1)))
                        .collect(),
                    domains: Vec::new(),
                })
                .collect();
            RunObservations {
                label: vantage::track::report::timestamp(start),
                answers,
                results: Vec::new(),
            }
        })
        .collect();
    let runs = STARTS
        .iter()
        .enumerate()
        .map(|(n, &started_at)| RunSummary {
            id: RunId(format!("{:08x}-0000-4000-8000-000000000000", n + 1)),
            set_name: "boots".to_string(),
            started_at,
            planned: 100,
            queued: 100,
            unsent: 0,
            refused: 0,
            done: 100,
            failed: 0,
            pending: 0,
            done_answers: 100,
        })
        .collect();
    TrackView {
        runs,
        set: Some("boots".to_string()),
        trends: trends::trends(&observed, &names),
        calls_per_run: Some(100),
        ..TrackView::default()
    }
}

/// The screen's rows, each as its characters.
fn rows(screen: &str) -> Vec<Vec<char>> {
    screen
        .lines()
        .map(|l| l.trim_matches('"').chars().collect())
        .collect()
}

/// The chart's plot: from the row of its top tick ("40%") to the row of its 0 tick, and
/// the column where the plot starts (after the axis).
fn plot(screen: &[Vec<char>]) -> (usize, usize, usize) {
    let find = |needle: &str| {
        screen.iter().enumerate().find_map(|(i, row)| {
            let text: String = row.iter().collect();
            text.find(needle)
                .map(|at| (i, text[..at].chars().count() + needle.chars().count()))
        })
    };
    let (top, column) = find(" 40%").expect("the axis tops at 40 %");
    let (bottom, _) = find("  0┤").expect("the axis starts at 0");
    (top, bottom, column)
}

/// Checks one screen of `brands` brands: the legend names them all, each with its own
/// marker; where the plot is tall enough to keep 2 points apart (`plotted`), each marker is
/// drawn in it and its top quarter is used.
fn check(screen: &str, brands: usize, plotted: bool) {
    let markers = &MARKERS[..brands];
    let mut distinct = markers.to_vec();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), brands, "no two lines share a marker");
    for (marker, brand) in markers.iter().zip(BRANDS) {
        assert!(
            screen.contains(&format!("{marker} {brand}")),
            "{brand} is in the legend with its marker {marker}: {screen}"
        );
    }
    // The axis spans the data (10–35 % tops at 40), never 0–100.
    assert!(!screen.contains("100%"), "{screen}");
    let screen_rows = rows(screen);
    let (top, bottom, column) = plot(&screen_rows);
    let height = bottom - top + 1;
    let drawn = |marker: &str| {
        let marker = marker.chars().next().unwrap();
        screen_rows[top..=bottom]
            .iter()
            .enumerate()
            .filter(|(_, row)| row.iter().skip(column).any(|c| *c == marker))
            .map(|(i, _)| i)
            .collect::<Vec<usize>>()
    };
    if plotted {
        let mut highest = height;
        for marker in markers {
            let at = drawn(marker);
            assert!(!at.is_empty(), "{marker} is drawn in the plot: {screen}");
            highest = highest.min(at[0]);
        }
        // 35 % of a 40 % axis: the highest point is in the top quarter of the plot.
        assert!(
            highest * 4 <= height,
            "the highest point is on row {highest} of {height}: {screen}"
        );
        // Runs of one day are told apart by their time.
        assert!(screen.contains("25 Nov 06:15"), "{screen}");
        assert!(screen.contains("27 Nov 18:40"), "{screen}");
    }
}

#[test]
fn five_and_twelve_brands_each_have_a_marker_and_a_place_in_the_legend() {
    for brands in [5, 12] {
        for (width, height) in [(80, 24), (160, 45)] {
            let mut app = app_on_track();
            update(&mut app, Msg::TrackLoaded(Ok(Box::new(view(brands)))));
            let screen = draw(&mut app, width, height);
            check(&screen, brands, width >= 160);
            insta::assert_snapshot!(format!("track_{brands}_brands_{width}x{height}"), screen);
        }
    }
}

/// The brand list's figures say what they are.
#[test]
fn the_brand_figures_have_a_key() {
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view(5)))));
    for (width, height) in [(80, 24), (160, 45)] {
        let screen = draw(&mut app, width, height);
        assert!(
            screen.contains("% named · 95% interval · @ position"),
            "{screen}"
        );
    }
}
