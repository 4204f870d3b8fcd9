//! Snapshots of the Track tab on `TestBackend`: runs of two sets, the chart of the shown
//! set's brands over its runs, and the last run's changes; the keys that move and load.

mod common;

use common::view::{demo_connection, draw, press};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use vantage::app::{App, Effect, Msg, StoreEffect, Tab, update};
use vantage::store::{RunId, RunSummary};
use vantage::track::diff;
use vantage::track::map::brand_maps;
use vantage::track::trends::{self, AnswerObservation, ResultObservation, RunObservations, Seen};
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
                    brands: seen(if i == 0 || day == 2 {
                        named[day].to_vec()
                    } else {
                        vec![None, Some(1), None]
                    }),
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
        diff: Some(diff::diff(&observed[1], &observed[2], &brands)),
        maps: Vec::new(),
        readings: None,
        calls_per_run: None,
        stale: 0,
        complete: 90,
        reading: None,
        fired: Vec::new(),
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
fn a_reading_under_way_is_said_whole_in_the_runs_title_at_80_columns() {
    let mut app = app_on_track();
    let mut shown = view();
    shown.calls_per_run = Some(500);
    shown.stale = 1000;
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(shown.clone()))));
    let screen = draw(&mut app, 80, 24);
    assert!(
        screen.contains("1000 runs shown as last read, reading again"),
        "{screen}"
    );
    shown.reading = Some(vantage::track::stored::Progress {
        read: 123_000,
        total: 500_000,
    });
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(shown.clone()))));
    let screen = draw(&mut app, 80, 24);
    assert!(
        screen.contains("reading answers again: 123000 of 500000"),
        "{screen}"
    );
    // Once read, the title says what a run of the set spends again.
    shown.reading = None;
    shown.stale = 0;
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(shown))));
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains("makes 500 calls"), "{screen}");
}

#[test]
fn the_track_tab_shows_runs_a_chart_and_the_changes() {
    let mut app = app_on_track();
    insta::assert_snapshot!("track_reading", draw(&mut app, 100, 32));
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view()))));
    let screen = draw(&mut app, 100, 32);
    assert!(screen.contains("Merrell"), "{screen}");
    // Two paired cells tell no change: the brands that moved are folded into one line.
    assert!(
        screen.contains("3 brands: no clear difference in 2 paired cells"),
        "{screen}"
    );
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
        brands: seen(positions),
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
        diff: Some(diff::diff(&observed[0], &observed[1], &brands)),
        readings: None,
        calls_per_run: None,
        stale: 0,
        complete: 90,
        reading: None,
        fired: Vec::new(),
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
                brands: seen(vec![Some(1), None]),
                domains: vec!["rei.com".to_string(), "reddit.com".to_string()],
            },
            AnswerObservation {
                query: "best hiking boots".to_string(),
                model: "gemini".to_string(),
                device: String::new(),
                location: "DE/–/Berlin".to_string(),
                brands: seen(vec![Some(2), Some(1)]),
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
        .map(|n| diff::MentionChange {
            brand: "Lowa".to_string(),
            query: format!("boots {n}"),
            model: "chatgpt".to_string(),
            device: String::new(),
            location: "DE/–/Berlin".to_string(),
            ..diff::MentionChange::default()
        })
        .collect();
    // Lowa gained in 12 paired cells: a change McNemar's test calls one, so its vantage
    // points are listed.
    let after = |named| vantage::track::stat::RunStat {
        answers: 12,
        named,
        position_sum: u64::from(named),
        mentions: u64::from(named),
        all_mentions: 12,
        recommended: 0,
    };
    if let Some(lowa) = view.trends.brands.iter_mut().find(|b| b.brand == "Lowa") {
        lowa.change = Some(vantage::track::stat::RunChange {
            before: after(0),
            after: after(12),
            cells: 12,
            lost: 0,
            gained: 12,
            p: 0.000_488,
            different: true,
        });
    }
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view))));
    // The chart leaves the changes eight lines: what they are over and what was not
    // compared first, each brand against the run before, then three shown and nine counted.
    let screen = draw(&mut app, 100, 32);
    assert!(
        screen.contains("Lowa moved clearly, 12 mentions gained"),
        "{screen}"
    );
    assert!(
        screen.contains("not compared, failed or not sent"),
        "{screen}"
    );
    assert!(
        screen.contains("Lowa: named in 0 of 12 (0–24 %) → 12 of 12 (76–100 %) of the same"),
        "{screen}"
    );
    assert!(screen.contains("boots 1\""), "{screen}");
    assert!(!screen.contains("boots 3\""), "{screen}");
    assert!(
        screen.contains("more: `vantage track trends boots`"),
        "{screen}"
    );
    // The map leaves them three: what they are over (two rows), and the rest counted.
    press(&mut app, KeyCode::Char('m'));
    let screen = draw(&mut app, 80, 24);
    assert!(screen.contains(" more: `vantage track trends"), "{screen}");
}

/// An answer whose model searched these fanouts.
fn answer_with_fanouts(fanouts: &[&str]) -> Box<vantage::present::answer::PreparedAnswer> {
    let completion = vantage::api::Completion {
        model: "chatgpt".into(),
        completion: "<p>Boots.</p>".into(),
        fanouts: fanouts.iter().map(|f| f.to_string()).collect(),
        ..Default::default()
    };
    Box::new(vantage::present::answer::prepare(
        vantage::api::AiRequest::new("hiking boots"),
        vantage::api::Fetched {
            value: vantage::api::AiAnswer::Completion(Box::new(completion)),
            body: "{}".into(),
            status: 200,
            content_type: "application/json".into(),
            elapsed: std::time::Duration::from_millis(900),
        },
    ))
}

/// A results page with these related questions and searches.
fn related(
    questions: &[&str],
    searches: &[&str],
) -> Box<vantage::present::search_page::PreparedSearch> {
    let mut results: Vec<serde_json::Value> = questions
        .iter()
        .map(|q| serde_json::json!({"type": "also-asked", "question": q}))
        .collect();
    results.extend(
        searches
            .iter()
            .map(|q| serde_json::json!({"type": "also-searched", "query": q})),
    );
    let results: vantage::api::SearchResults =
        serde_json::from_value(serde_json::json!({ "results": results })).unwrap();
    Box::new(vantage::present::search_page::prepare(
        vantage::api::SearchRequest::default(),
        vantage::api::Fetched {
            value: vantage::api::SearchAnswer::Results(Box::new(results)),
            body: "{}".into(),
            status: 200,
            content_type: "application/json".into(),
            elapsed: std::time::Duration::from_millis(700),
        },
    ))
}

/// D in Track: a topic, its prompts ranked by who raised them, two marked and added to a
/// new set of the workspace file.
#[test]
fn discover_finds_prompts_and_adds_the_marked_ones_to_a_set() {
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view()))));
    let path = std::path::Path::new("/work/shop/vantage.toml");
    let workspace = vantage::analysis::workspace::Workspace::parse(
        path,
        "# Ours.\n[[brands]]\nname = \"Merrell\"\n",
    )
    .unwrap();
    app.brands_pane.workspace = Some(workspace);
    app.brands_pane.exists = true;
    app.compare.axes.locations = vec![
        vantage::present::compare::summary::parse_location("us").unwrap(),
        vantage::present::compare::summary::parse_location("de").unwrap(),
    ];
    press(&mut app, KeyCode::Char('D'));
    let asked = draw(&mut app, 100, 32);
    assert!(
        asked.contains("(Compare's models and places): 4"),
        "the cost is said: {asked}"
    );
    for c in "hiking boots".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    let effects = press(&mut app, KeyCode::Enter);
    let mut ai = Vec::new();
    let mut searches = Vec::new();
    for effect in effects {
        match effect {
            Effect::Call(vantage::app::CallEffect::SendAi { tag, .. }) => ai.push(tag),
            Effect::Call(vantage::app::CallEffect::SendSearch { tag, .. }) => searches.push(tag),
            _ => {}
        }
    }
    assert_eq!((ai.len(), searches.len()), (2, 2));
    update(
        &mut app,
        Msg::AiDone {
            tag: ai[0],
            result: Ok(answer_with_fanouts(&[
                "hiking boots reviews",
                "hiking boots Denver",
            ])),
        },
    );
    update(
        &mut app,
        Msg::AiDone {
            tag: ai[1],
            result: Ok(answer_with_fanouts(&[
                "Hiking boots, reviews",
                "hiking boots Berlin",
            ])),
        },
    );
    update(
        &mut app,
        Msg::SearchDone {
            tag: searches[0],
            result: Ok(related(
                &["How long do hiking boots last?"],
                &["hiking boots sale"],
            )),
        },
    );
    update(
        &mut app,
        Msg::SearchDone {
            tag: searches[1],
            result: Ok(related(
                &["How long do hiking boots last?"],
                &["hiking boots in Germany"],
            )),
        },
    );
    let discover = app.track.discover.as_ref().unwrap();
    assert_eq!(discover.rows[0].count, 2, "{:?}", discover.rows);
    assert_eq!(discover.rows.len(), 6);
    // Mark the first two, then add them to a new set.
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Char(' '));
    let wide = draw(&mut app, 160, 45);
    assert!(wide.contains("[x]"), "{wide}");
    insta::assert_snapshot!("discover_160x45", wide);
    insta::assert_snapshot!("discover_80x24", draw(&mut app, 80, 24));
    press(&mut app, KeyCode::Char('a'));
    // The field holds the shown set's name: replace it with a new one.
    for _ in 0.."boots".len() {
        press(&mut app, KeyCode::Backspace);
    }
    for c in "fresh".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    let effects = press(&mut app, KeyCode::Enter);
    let text = effects
        .iter()
        .find_map(|e| match e {
            Effect::Store(StoreEffect::SaveWorkspace { text, .. }) => Some(text.clone()),
            _ => None,
        })
        .expect("the workspace file is written");
    assert!(text.starts_with("# Ours.\n[[brands]]"), "{text}");
    assert!(text.contains("name = \"fresh\""), "{text}");
    assert!(
        text.contains("prompts = [\"hiking boots reviews\", \"How long do hiking boots last?\"]"),
        "{text}"
    );
    assert!(text.contains("locations = [\"US\", \"DE\"]"), "{text}");
    let flash = format!("{:?}", app.flash);
    assert!(flash.contains("Made the set fresh"), "{flash}");
}

fn type_in(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// `n` in Track: a set made in the form (prompts typed; models, a place and a brand
/// picked; renamed) is written with the file's comments kept, and runs with `vantage
/// track run`.
#[test]
fn a_set_made_in_the_track_tab_is_written_and_runs_with_track_run() {
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view()))));
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("vantage.toml");
    let original = "# Boots we follow.\n[[brands]]\nname = \"Salomon\" # ours\n\n[[brands]]\nname = \"Lowa\"\n";
    // The app reads it at a path of its own, so the snapshots do not show a temporary one.
    app.brands_pane.workspace = Some(
        vantage::analysis::workspace::Workspace::parse(
            std::path::Path::new("/work/shop/vantage.toml"),
            original,
        )
        .unwrap(),
    );
    app.brands_pane.exists = true;
    press(&mut app, KeyCode::Char('n'));
    let editor = app.track.editor.as_ref().expect("n opens the form");
    assert!(
        editor
            .problem
            .as_deref()
            .unwrap_or("")
            .contains("neither prompts nor terms"),
        "an empty set is said to be unready: {:?}",
        editor.problem
    );
    // The cursor waits on "+ add a prompt".
    for prompt in ["best hiking boots", "waterproof hiking boots"] {
        press(&mut app, KeyCode::Enter);
        type_in(&mut app, prompt);
        press(&mut app, KeyCode::Enter);
    }
    // A prompt already there is refused, the field kept open with the reason.
    press(&mut app, KeyCode::Enter);
    type_in(&mut app, "Best hiking boots");
    press(&mut app, KeyCode::Enter);
    assert!(
        format!("{:?}", app.flash).contains("already"),
        "{:?}",
        app.flash
    );
    press(&mut app, KeyCode::Esc);
    // Down to the models: ChatGPT and Gemini.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
    // A place: Germany, then Berlin.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    type_in(&mut app, "germany");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    type_in(&mut app, "berlin");
    press(&mut app, KeyCode::Enter);
    // The city picker follows the subdivision; Esc keeps the subdivision alone.
    press(&mut app, KeyCode::Esc);
    // The brands: Lowa only.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
    // Renamed from "new set" to "boots".
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Enter);
    for _ in 0.."new set".len() {
        press(&mut app, KeyCode::Backspace);
    }
    type_in(&mut app, "boots");
    press(&mut app, KeyCode::Enter);
    let editor = app.track.editor.as_ref().unwrap();
    assert_eq!(editor.problem, None, "{:?}", editor.problem);
    assert_eq!(editor.set.name, "boots");
    assert_eq!(editor.set.models.len(), 2, "{:?}", editor.set);
    assert_eq!(editor.set.brands, vec!["Lowa".to_string()]);
    let form = draw(&mut app, 100, 32);
    assert!(
        form.contains("A run makes 4 calls (4 answers × 5 = 20 credits)"),
        "{form}"
    );
    insta::assert_snapshot!("set_form_100x32", form);
    insta::assert_snapshot!("set_form_80x24", draw(&mut app, 80, 24));
    let effects = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    let text = effects
        .iter()
        .find_map(|e| match e {
            Effect::Store(StoreEffect::SaveWorkspace { text, .. }) => Some(text.clone()),
            _ => None,
        })
        .expect("Ctrl+S writes the workspace file");
    // Once the file holds it, the tab shows the new set.
    let shown = update(
        &mut app,
        Msg::WorkspaceSaved {
            path: "/work/shop/vantage.toml".into(),
            created: false,
            result: Ok(()),
        },
    );
    assert!(
        shown.contains(&Effect::Store(StoreEffect::LoadTrack {
            set: Some("boots".to_string())
        })),
        "the tab shows the new set: {shown:?}"
    );
    assert!(app.track.editor.is_none());
    assert!(
        text.starts_with(original),
        "comments and order kept: {text}"
    );
    insta::assert_snapshot!("set_form_written", text);
    // The file as written runs with `vantage track run`.
    std::fs::write(&path, &text).unwrap();
    let service = common::Service::with(vantage::sim::SimConfig {
        job_pending: std::time::Duration::from_millis(100),
        job_fail_share: 0.0,
        ..common::quick()
    });
    let workspace = path.to_string_lossy().to_string();
    let run = common::run_vantage(
        &service.sim,
        tmp.path(),
        &["track", "run", "boots", "--wait", "--workspace", &workspace],
        std::time::Duration::from_secs(120),
    );
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let store = vantage::store::Store::open_in(
        &tmp.path().join("data"),
        vantage::store::StoreOptions::default(),
    )
    .unwrap();
    let runs = store.track_runs(Some("boots")).unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!((runs[0].planned, runs[0].done), (4, 4), "{runs:?}");
}

/// `e` in Track: the shown set opened, an item removed, and `X` deletes it from the file
/// after a yes; Esc over changes asks first.
#[test]
fn a_set_is_edited_and_deleted_in_the_track_tab() {
    let mut app = app_on_track();
    update(&mut app, Msg::TrackLoaded(Ok(Box::new(view()))));
    let path = std::path::Path::new("/work/shop/vantage.toml");
    let text = "[[sets]]\nname = \"boots\" # the main one\nprompts = [\"a\", \"b\"]\n\n[[sets]]\nname = \"tents\"\nprompts = [\"c\"]\n";
    app.brands_pane.workspace =
        Some(vantage::analysis::workspace::Workspace::parse(path, text).unwrap());
    app.brands_pane.exists = true;
    press(&mut app, KeyCode::Char('e'));
    // The picker starts on the shown set.
    press(&mut app, KeyCode::Enter);
    let editor = app
        .track
        .editor
        .as_ref()
        .expect("e then Enter opens the set");
    assert_eq!(editor.original.as_deref(), Some("boots"));
    // Down to the second prompt, d removes it.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Char('d'));
    assert_eq!(app.track.editor.as_ref().unwrap().set.prompts, vec!["a"]);
    // Esc over a change asks; n keeps the form.
    press(&mut app, KeyCode::Esc);
    let asked = draw(&mut app, 100, 32);
    assert!(asked.contains("without writing its changes"), "{asked}");
    press(&mut app, KeyCode::Char('n'));
    assert!(app.track.editor.is_some());
    // Renamed onto the other set's name: refused with the reason.
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Enter);
    for _ in 0.."boots".len() {
        press(&mut app, KeyCode::Backspace);
    }
    type_in(&mut app, "Tents");
    press(&mut app, KeyCode::Enter);
    let problem = app.track.editor.as_ref().unwrap().problem.clone();
    assert!(
        problem
            .as_deref()
            .unwrap_or("")
            .contains("another set is named"),
        "{problem:?}"
    );
    let refused = update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    assert!(refused.is_empty(), "nothing written: {refused:?}");
    press(&mut app, KeyCode::Char('X'));
    let effects = press(&mut app, KeyCode::Char('y'));
    let written = effects
        .iter()
        .find_map(|e| match e {
            Effect::Store(StoreEffect::SaveWorkspace { text, .. }) => Some(text.clone()),
            _ => None,
        })
        .expect("the file is written without the set");
    assert!(!written.contains("boots"), "{written}");
    assert!(written.contains("name = \"tents\""), "{written}");
    assert!(app.track.editor.is_none());
}
