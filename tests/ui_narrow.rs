//! Every tab at 80×24, as a new user on a small terminal meets it: no word is cut by the
//! edge of its pane without an ellipsis. The snapshots are also the captures of docs/app.md
//! (tests/docs_captures.rs keeps the two equal).

mod common;

use std::time::{Duration, Instant};

use common::view::{demo_connection, press, terminal, type_text};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use vantage::api::{
    AiAnswer, AiRequest, Completion, Fetched, JobId, Model, SearchAnswer, SearchRequest,
    SearchResults,
};
use vantage::app::{App, Connection, Credits, Msg, Tab, Tag, jobs_tab, update};
use vantage::jobs::{JobState, UnixMs};
use vantage::present::compare::summary::parse_location;
use vantage::present::{answer, search_page};
use vantage::store::{EntryId, HistoryItem, NewJob, RequestKind, RequestParams};

const WIDTH: u16 = 80;
const HEIGHT: u16 = 24;
const T0: UnixMs = 1_700_000_000_000;

fn app() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    app.credits = Credits::Known(997);
    app.set_wall(T0);
    app
}

fn go_to(app: &mut App, tab: Tab) {
    let index = Tab::ALL.iter().position(|t| *t == tab).unwrap();
    let digit = char::from_digit(index as u32 + 1, 10).unwrap();
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char(digit), KeyModifiers::ALT)),
    );
}

fn fetched<T>(value: T, millis: u64) -> Fetched<T> {
    Fetched {
        value,
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(millis),
    }
}

fn completion(model: Model, text: &str, sources: &[&str]) -> Box<answer::PreparedAnswer> {
    let links: String = sources
        .iter()
        .map(|url| format!("<li><a href=\"{url}\">{url}</a></li>"))
        .collect();
    let completion = Completion {
        model: model.as_str().into(),
        completion: format!("<div><p>{text}</p></div>"),
        sources: format!("<ol>{links}</ol>"),
        ..Completion::default()
    };
    let mut request = AiRequest::new("best hiking boots for wide feet");
    request.model = Some(model);
    let answer = AiAnswer::Completion(Box::new(completion));
    Box::new(answer::prepare(request, fetched(answer, 1_400)))
}

fn results(terms: &str, urls: &[&str]) -> Box<search_page::PreparedSearch> {
    let results: Vec<serde_json::Value> = urls
        .iter()
        .enumerate()
        .map(|(i, url)| {
            serde_json::json!({
                "type": "organic", "page": 1, "section": "main", "feature": 1,
                "position": i + 1, "url": url,
                "title": "The best hiking boots of the year, tested on long trails by our editors",
                "site": "Outdoor Gear Lab", "visibleUrl": url,
                "snippet": "We walked more than two thousand miles in forty pairs of boots to find the ones that stay comfortable, dry and stable from the first mile to the last.",
                "sitelinks": [], "images": []
            })
        })
        .collect();
    let parsed: SearchResults = serde_json::from_value(serde_json::json!({
        "engine": "google", "terms": terms, "results": results
    }))
    .unwrap();
    let answer = SearchAnswer::Results(Box::new(parsed));
    Box::new(search_page::prepare(
        SearchRequest::new(terms),
        fetched(answer, 700),
    ))
}

const URLS: [&str; 4] = [
    "https://www.outdoorgearlab.com/topics/shoes-and-boots/best-hiking-boots",
    "https://www.rei.com/learn/expert-advice/hiking-boots.html",
    "https://www.switchbacktravel.com/best-hiking-boots-for-wide-feet",
    "https://www.nytimes.com/wirecutter/reviews/best-hiking-boots-and-shoes/",
];

fn chat() -> App {
    let mut app = app();
    type_text(&mut app, "best hiking boots for wide feet");
    press(&mut app, KeyCode::Enter);
    let tag = app.chat.call.tag().unwrap();
    let text = "For wide feet, three boots come up again and again:</p>\
        <ul><li><strong>Keen Targhee IV</strong>: a roomy toe box, sold in wide sizes.</li>\
        <li><strong>Merrell Moab 3</strong>: comfortable from the first mile; wide sizes too.</li>\
        <li><strong>Altra Lone Peak Hiker</strong>: a foot-shaped toe box and zero drop.</li></ul>\
        <p>Try them on in the afternoon, when feet are largest, with the socks you hike in, \
        and walk down a slope: a boot that fits keeps your toes off its front.";
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(completion(Model::Chatgpt, text, &URLS)),
        },
    );
    app
}

fn search() -> App {
    let mut app = app();
    go_to(&mut app, Tab::Search);
    type_text(&mut app, "hiking boots wide feet");
    press(&mut app, KeyCode::Enter);
    let tag = app.search.call.tag().unwrap();
    update(
        &mut app,
        Msg::SearchDone {
            tag,
            result: Ok(results("hiking boots wide feet", &URLS)),
        },
    );
    app
}

fn job_id(n: u32) -> JobId {
    JobId::parse(&format!("{n:08x}-0000-4000-8000-000000000000")).unwrap()
}

fn jobs() -> App {
    let mut app = app();
    let mut records = Vec::new();
    for (n, prompt, state, age_s) in [
        (
            1,
            "which hiking boots do podiatrists recommend for wide feet and high arches",
            JobState::Done,
            3_700,
        ),
        (
            2,
            "trail running shoes for muddy winter trails",
            JobState::Pending,
            5,
        ),
        (
            3,
            "cheapest flights from Berlin to Lisbon in May",
            JobState::Failed,
            600,
        ),
    ] {
        let mut request = AiRequest::new(prompt);
        request.location.country = Some("US".into());
        let mut record =
            jobs_tab::record_of(&NewJob::submitted(job_id(n), RequestParams::Ai(request)));
        record.created_at = T0 - age_s * 1_000;
        record.state = state;
        record.next_poll_at = (!state.is_terminal()).then_some(T0 + 5_000);
        records.push(record);
    }
    update(&mut app, Msg::JobsLoaded(Ok(records)));
    go_to(&mut app, Tab::Jobs);
    app
}

fn history() -> App {
    let mut app = app();
    let item = |n: &str, kind, summary: &str, ago_s: i64| HistoryItem {
        id: EntryId(n.into()),
        kind,
        summary: summary.into(),
        created_at: T0 - ago_s * 1_000,
        origin: vantage::store::Origin::App,
        status: Some(200),
        elapsed_ms: Some(8_400),
        size: Some(48_213),
    };
    go_to(&mut app, Tab::History);
    let generation = app.history.generation();
    update(
        &mut app,
        Msg::HistoryPage(vantage::app::history::Page::all(
            generation,
            vec![
                item(
                    "3",
                    RequestKind::Ai,
                    "chatgpt · which hiking boots do podiatrists recommend for wide feet · US",
                    40,
                ),
                item(
                    "2",
                    RequestKind::Search,
                    "google · hiking boots wide feet · DE",
                    600,
                ),
                item(
                    "1",
                    RequestKind::Compare,
                    "2 models × 2 locations · best hiking boots for wide feet",
                    90_000,
                ),
            ],
        )),
    );
    app
}

/// Two models × two cities, every column landed, the summary of what differs on screen.
fn compare() -> App {
    let mut app = app();
    go_to(&mut app, Tab::Compare);
    app.compare.set_prompt("best hiking boots for wide feet");
    app.compare.axes.models = vec![Model::Chatgpt, Model::Gemini, Model::Perplexity];
    app.compare.axes.devices = vec!["iPhone 15 Pro Max".into(), "Samsung Galaxy S24".into()];
    app.compare.axes.locations = vec![
        parse_location("us:ny:New+York").unwrap(),
        parse_location("de::Berlin").unwrap(),
    ];
    app.compare.rebuild();
    app
}

/// Compare as it opens, the prompt left: its hint in the prompt's box.
fn compare_empty() -> App {
    let mut app = app();
    go_to(&mut app, Tab::Compare);
    press(&mut app, KeyCode::Esc);
    app
}

fn compare_summary() -> App {
    let mut app = compare();
    app.compare.axes.devices.clear();
    app.compare.axes.models.pop();
    app.compare.rebuild();
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    let tags: Vec<Tag> = app
        .compare
        .columns
        .iter()
        .map(|c| c.call.tag().unwrap())
        .collect();
    let text = "Most hikers with wide feet pick the Keen Targhee or a Merrell Moab in a wide size.";
    for (i, tag) in tags.into_iter().enumerate() {
        let model = if i < 2 { Model::Chatgpt } else { Model::Gemini };
        update(
            &mut app,
            Msg::AiDone {
                tag,
                result: Ok(completion(model, text, &URLS[i % 2..i % 2 + 2])),
            },
        );
    }
    press(&mut app, KeyCode::Char(']'));
    app
}

fn compare_search() -> App {
    let mut app = app();
    go_to(&mut app, Tab::Compare);
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('M'));
    app.compare.set_prompt("hiking boots wide feet");
    app.compare.axes.locations = vec![
        parse_location("us").unwrap(),
        parse_location("de::Berlin").unwrap(),
    ];
    app.compare.rebuild();
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    let tags: Vec<Tag> = app
        .compare
        .columns
        .iter()
        .map(|c| c.call.tag().unwrap())
        .collect();
    let mut reversed = URLS;
    reversed.reverse();
    for (tag, urls) in tags.into_iter().zip([URLS, reversed]) {
        update(
            &mut app,
            Msg::SearchDone {
                tag,
                result: Ok(results("hiking boots wide feet", &urls)),
            },
        );
    }
    app
}

fn proxy() -> App {
    let mut app = app();
    go_to(&mut app, Tab::Proxy);
    app
}

fn help() -> App {
    let mut app = app();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('?'));
    app
}

/// No token and no demo: the banner across the top, and the status bar's hints.
fn no_token() -> App {
    let mut app = App::new(
        Connection {
            demo: false,
            host: "render.example.com".into(),
            token: None,
            token_hint: "/home/someone/.config/vantage/config.toml".into(),
        },
        Instant::now(),
    );
    press(&mut app, KeyCode::Esc);
    app
}

/// An export that could not be written: the error in the status bar.
fn export_error() -> App {
    let mut app = chat();
    update(
        &mut app,
        Msg::FileWritten {
            path: "/home/someone/exports/answers/best-hiking-boots-for-wide-feet.md".into(),
            result: Err(vantage::app::WriteFailure::Write(
                "Permission denied (os error 13)".into(),
            )),
        },
    );
    app
}

/// The model multi-select of Compare, with a long note under its filter.
fn compare_models_picker() -> App {
    let mut app = compare();
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('m'));
    app
}

/// Every screen of this file, by snapshot name.
fn screens() -> Vec<(&'static str, App)> {
    vec![
        ("chat", chat()),
        ("search", search()),
        ("jobs", jobs()),
        ("history", history()),
        ("compare", compare()),
        ("compare_empty", compare_empty()),
        ("compare_summary", compare_summary()),
        ("compare_search", compare_search()),
        ("compare_models_picker", compare_models_picker()),
        ("proxy", proxy()),
        ("help", help()),
        ("no_token", no_token()),
        ("export_error", export_error()),
    ]
}

fn drawn(app: &mut App) -> Terminal<TestBackend> {
    terminal(app, WIDTH, HEIGHT)
}

/// Characters that end a pane on the right: borders and the scrollbar.
const RIGHT_EDGES: &[&str] = &["│", "┐", "┘", "┤", "║", "┃", "█", "▐"];

/// Whether the line at `(x, y)` ends a pane on its right. A vertical line is the left border
/// of a popup when, going up, it meets `┌`: text under a popup is covered, not cut.
fn is_right_border(buffer: &Buffer, x: u16, y: u16) -> bool {
    if !RIGHT_EDGES.contains(&buffer[(x, y)].symbol()) {
        return false;
    }
    for up in (buffer.area.top()..y).rev() {
        match buffer[(x, up)].symbol() {
            "│" | "║" | "┃" | "┤" | "├" | "█" | "▐" => continue,
            "┌" | "╭" => return false,
            _ => return true,
        }
    }
    true
}

/// The rows where a letter or digit touches the right end of its pane or of the screen:
/// there a word was most likely cut by the edge rather than ended, since a line that was
/// fitted ends in `…`, a space or punctuation.
fn cut_words(buffer: &Buffer) -> Vec<String> {
    let area = buffer.area;
    let mut found = Vec::new();
    for y in area.top()..area.bottom() {
        let row: String = (area.left()..area.right())
            .map(|x| buffer[(x, y)].symbol())
            .collect();
        for x in area.left()..area.right() {
            let symbol = buffer[(x, y)].symbol();
            let Some(last) = symbol.chars().last() else {
                continue;
            };
            if !last.is_alphanumeric() {
                continue;
            }
            // The cell after a wide character is blank: the character's second half.
            let mut next = x + 1;
            while next < area.right() && buffer[(next, y)].symbol().is_empty() {
                next += 1;
            }
            let at_edge = next >= area.right() || is_right_border(buffer, next, y);
            if at_edge {
                found.push(format!("row {y}, column {x}: {row}"));
            }
        }
    }
    found
}

#[test]
fn every_tab_at_80_by_24() {
    for (name, mut app) in screens() {
        let terminal = drawn(&mut app);
        insta::assert_snapshot!(name, terminal.backend().to_string());
    }
}

#[test]
fn no_word_is_cut_by_an_edge_without_an_ellipsis() {
    let mut cuts = Vec::new();
    for (name, mut app) in screens() {
        let terminal = drawn(&mut app);
        for cut in cut_words(terminal.backend().buffer()) {
            cuts.push(format!("{name}: {cut}"));
        }
    }
    assert!(cuts.is_empty(), "words cut without …:\n{}", cuts.join("\n"));
}

#[test]
fn the_scan_finds_a_word_cut_by_an_edge() {
    use ratatui::widgets::{Block, Borders, Paragraph};
    let mut terminal = Terminal::new(TestBackend::new(30, 4)).unwrap();
    terminal
        .draw(|frame| {
            let text = "a sentence longer than its pane";
            let [left, right] = ratatui::layout::Layout::horizontal([
                ratatui::layout::Constraint::Length(15),
                ratatui::layout::Constraint::Length(15),
            ])
            .areas(frame.area());
            frame.render_widget(
                Paragraph::new(text).block(Block::default().borders(Borders::ALL)),
                left,
            );
            frame.render_widget(Paragraph::new(format!("{text}\n{text}")), right);
        })
        .unwrap();
    let cuts = cut_words(terminal.backend().buffer());
    // "a sentence lo│" inside the box; the two lines running off the screen.
    assert_eq!(cuts.len(), 3, "{cuts:#?}");
}
