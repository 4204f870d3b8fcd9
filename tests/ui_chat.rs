//! Snapshots of the Chat tab on `TestBackend`, and the live ChatGPT answer rendered without
//! its hidden label.

mod common;

use common::view::{demo_connection, press, screen, terminal, type_text};
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use vantage::api::{
    AiAnswer, AiRequest, ApiError, Completion, Fetched, Location, Model, RetryNotice,
};
use vantage::app::{self, App, Credits, Devices, Msg, Tag, call::CallState, update};
use vantage::present::answer;

fn app_at(now: Instant) -> App {
    let mut app = App::new(demo_connection(), now);
    app.credits = Credits::Known(997);
    app
}

fn completion_answer() -> Box<answer::PreparedAnswer> {
    let completion = Completion {
        model: "perplexity".into(),
        query: "best hiking boots".into(),
        completion: concat!(
            "<div><span class=\"sr-only\">Perplexity</span>",
            "<h2>Best hiking boots</h2><p>For most hikers the <strong>Salomon X Ultra</strong> ",
            "is the safe pick <a href=\"https://www.rei.com/boots?utm_source=x\">REI</a>.</p>",
            "<ul><li>Fit first</li><li>Then <em>waterproofing</em></li></ul>",
            "<pre><code>budget: $150</code></pre></div>"
        )
        .into(),
        sources: concat!(
            "<ol><li><a href=\"https://www.outdoorgearlab.com/boots\"><div>The Best Hiking Boots, ",
            "Tested in the Field | OutdoorGearLab</div><div><span>OutdoorGearLab</span>",
            "<span>www.outdoorgearlab.com</span><span>1</span></div><div>We tested 18 pairs ",
            "for fit, grip and waterproofing over two seasons; the Salomon X Ultra came out ",
            "ahead on most trails.</div></a></li>",
            "<li><a href=\"https://www.rei.com/boots\">REI guide</a></li>",
            "<li><a href=\"https://www.switchbacktravel.com/hiking-boots\">Switchback Travel</a></li></ol>"
        )
        .into(),
        device: Some("iPhone 15 Pro".into()),
        country: Some("US".into()),
        subdivision: Some("NY".into()),
        city: Some("New York".into()),
        ..Completion::default()
    };
    let mut request = AiRequest::new("best hiking boots");
    request.model = Some(Model::Perplexity);
    request.location = Location {
        country: Some("US".into()),
        subdivision: Some("NY".into()),
        city: Some("New York".into()),
    };
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{\"model\":\"perplexity\"}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(23_400),
    };
    Box::new(answer::prepare(request, fetched))
}

/// Sends the prompt and returns the tag of the call.
fn send(app: &mut App, prompt: &str) -> Tag {
    type_text(app, prompt);
    press(app, KeyCode::Enter);
    app.chat.call.tag().expect("sent")
}

#[test]
fn empty_tab() {
    let mut app = app_at(Instant::now());
    insta::assert_snapshot!(screen(&terminal(&mut app, 80, 24)));
}

#[test]
fn empty_tab_wide() {
    let mut app = app_at(Instant::now());
    insta::assert_snapshot!(screen(&terminal(&mut app, 140, 30)));
}

fn open_picker(app: &mut App, key: char, filter: &str) -> String {
    press(app, KeyCode::Esc);
    press(app, KeyCode::Char(key));
    type_text(app, filter);
    screen(&terminal(app, 80, 24))
}

#[test]
fn model_picker_filtered() {
    let mut app = app_at(Instant::now());
    insta::assert_snapshot!(open_picker(&mut app, 'm', "gem"));
}

#[test]
fn device_picker_filtered() {
    let mut app = app_at(Instant::now());
    app.devices = Devices::Loaded(vec![
        "iPhone 15 Pro Max".into(),
        "Pixel 8 (Pro)".into(),
        "Pixel 7a".into(),
        "Samsung Galaxy S24 Ultra".into(),
    ]);
    insta::assert_snapshot!(open_picker(&mut app, 'd', "pixel"));
}

#[test]
fn device_picker_with_an_empty_list() {
    let mut app = app_at(Instant::now());
    app.devices = Devices::Loaded(Vec::new());
    insta::assert_snapshot!(open_picker(&mut app, 'd', "Nokia"));
}

#[test]
fn country_picker_filtered() {
    let mut app = app_at(Instant::now());
    insta::assert_snapshot!(open_picker(&mut app, 'c', "germ"));
}

#[test]
fn subdivision_picker_filtered() {
    let mut app = app_at(Instant::now());
    app.chat.settings.location.country = Some("US".into());
    insta::assert_snapshot!(open_picker(&mut app, 's', "new"));
}

#[test]
fn city_picker_filtered() {
    let mut app = app_at(Instant::now());
    app.chat.settings.location.country = Some("DE".into());
    insta::assert_snapshot!(open_picker(&mut app, 't', "mun"));
}

#[test]
fn language_picker_filtered() {
    let mut app = app_at(Instant::now());
    insta::assert_snapshot!(open_picker(&mut app, 'l', "span"));
}

/// Sends "best hiking boots" and lands the completion answer.
fn answer_the_boots_prompt(app: &mut App) {
    let tag = send(app, "best hiking boots");
    update(
        app,
        Msg::AiDone {
            tag,
            result: Ok(completion_answer()),
        },
    );
}

#[test]
fn a_completion_with_sources() {
    let mut app = app_at(Instant::now());
    answer_the_boots_prompt(&mut app);
    let answer_screen = screen(&terminal(&mut app, 100, 30));
    press(&mut app, KeyCode::Char(']'));
    let sources_screen = screen(&terminal(&mut app, 100, 30));
    insta::assert_snapshot!("completion_answer", answer_screen);
    insta::assert_snapshot!("completion_sources", sources_screen);
}

#[test]
fn a_completion_at_80_columns() {
    let mut app = app_at(Instant::now());
    answer_the_boots_prompt(&mut app);
    insta::assert_snapshot!(screen(&terminal(&mut app, 80, 24)));
}

#[test]
fn at_80_columns_every_chosen_setting_shows_while_the_answer_is_read() {
    let mut app = app_at(Instant::now());
    app.chat.settings.location.country = Some("US".into());
    app.chat.settings.location.subdivision = Some("CO".into());
    app.chat.settings.location.city = Some("Denver".into());
    app.chat.settings.format = vantage::api::AiFormat::Rendered;
    app.chat.settings.no_cache = true;
    answer_the_boots_prompt(&mut app);
    let screen = screen(&terminal(&mut app, 80, 24));
    // The settings row folds to one line; the city, the format and the cache are on it.
    let line = screen
        .lines()
        .find(|l| l.contains("model chatgpt"))
        .unwrap_or_else(|| panic!("a folded settings line: {screen}"));
    for chosen in [
        "country US",
        "subdiv CO",
        "city Denver",
        "format rendered",
        "cache off",
    ] {
        assert!(line.contains(chosen), "{chosen}: {line}");
    }
}

fn failed_with(status: u16, message: &str) -> String {
    let mut app = app_at(Instant::now());
    let tag = send(&mut app, "best hiking boots");
    let error = ApiError::from_status(status, message, None);
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Err(error),
        },
    );
    screen(&terminal(&mut app, 100, 24))
}

#[test]
fn unauthorized_401() {
    insta::assert_snapshot!(failed_with(401, "Authorization header must be provided"));
}

#[test]
fn out_of_credits_402() {
    insta::assert_snapshot!(failed_with(
        402,
        "Credit balance is 0; top up at https://example.test/plans"
    ));
}

#[test]
fn retry_countdown_503() {
    let start = Instant::now();
    let mut app = app_at(start);
    let tag = send(&mut app, "best hiking boots");
    update(
        &mut app,
        Msg::Retrying {
            tag,
            notice: RetryNotice {
                attempt: 1,
                wait: Duration::from_secs(30),
                error: ApiError::from_status(
                    503,
                    "Service is autoscaling; please retry in 30 seconds",
                    None,
                ),
            },
        },
    );
    app.set_clock(start + Duration::from_millis(12_300));
    let text = screen(&terminal(&mut app, 100, 24));
    assert!(text.contains("Retrying in 18 s"), "{text}");
    assert!(text.contains("12 s"));
    insta::assert_snapshot!(text);
}

#[test]
fn a_response_that_has_landed_is_read_not_asked() {
    let start = Instant::now();
    let mut app = app_at(start);
    let tag = send(&mut app, "best hiking boots");
    app.set_clock(start + Duration::from_millis(800));
    update(
        &mut app,
        Msg::Landed {
            tag,
            bytes: 300_000,
        },
    );
    app.set_clock(start + Duration::from_millis(22_300));
    let text = screen(&terminal(&mut app, 100, 24));
    assert!(
        text.contains("Reading the response (300.0 kB)… 22 s"),
        "{text}"
    );
    assert!(text.contains("it came back after 0.8 s"), "{text}");
    assert!(!text.contains("Asking"), "{text}");
}

#[test]
fn an_over_long_prompt() {
    let mut app = app_at(Instant::now());
    app.chat.set_prompt(&"word ".repeat(420));
    press(&mut app, KeyCode::Enter);
    let text = screen(&terminal(&mut app, 100, 24));
    assert!(text.contains("2100/2047"), "{text}");
    assert!(text.contains("at most 2047"), "{text}");
    assert!(matches!(app.chat.call, CallState::Idle));
    insta::assert_snapshot!(text);
}

#[test]
fn the_live_chatgpt_answer_renders_without_its_hidden_label() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/live/ai-chatgpt-sample.json"
    );
    let body = std::fs::read_to_string(path).expect("the live fixture is beside the repo");
    let completion: Completion = serde_json::from_str(&body).unwrap();
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body,
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_secs(15),
    };
    let prepared = answer::prepare(AiRequest::new("what is mcp"), fetched);
    assert!(!prepared.plain_text.contains("ChatGPT said"));
    assert!(
        prepared
            .plain_text
            .contains("can mean a lot of different things")
    );
    assert_eq!(prepared.fanouts, vec!["what is mcp", "mcp meaning"]);
    assert!(prepared.sources.len() >= 3, "{:?}", prepared.sources);

    let mut app = app_at(Instant::now());
    let tag = send(&mut app, "what is mcp");
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(Box::new(prepared)),
        },
    );
    let text = screen(&terminal(&mut app, 120, 40));
    assert!(!text.contains("ChatGPT said"), "{text}");
    assert!(text.contains("“MCP” can mean"), "{text}");
}

#[test]
fn the_status_bar_says_demo_and_the_host_and_live_otherwise() {
    let mut app = app_at(Instant::now());
    let text = screen(&terminal(&mut app, 100, 24));
    assert!(
        text.contains("DEMO") && text.contains("127.0.0.1:4000") && text.contains("997 credits")
    );
    app.connection.demo = false;
    app.connection.host = "render.joinmassive.com".into();
    let text = screen(&terminal(&mut app, 100, 24));
    assert!(text.contains("LIVE") && text.contains("render.joinmassive.com"));
    let _ = app::Tab::Chat;
}

/// An answer of one long paragraph, to see where it wraps.
fn long_paragraph_answer() -> Box<answer::PreparedAnswer> {
    let words = "Waterproof leather boots with a stiff sole suit rocky trails and heavy packs, \
        while light mesh shoes dry faster and suit warm weather and well kept paths. ";
    let completion = Completion {
        model: "chatgpt".into(),
        query: "boots or shoes".into(),
        completion: format!("<p>{}</p>", words.repeat(4)),
        ..Completion::default()
    };
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(9_000),
    };
    Box::new(answer::prepare(AiRequest::new("boots or shoes"), fetched))
}

/// The columns of `row` that hold text other than spaces, as (first, last).
fn text_span(terminal: &Terminal<TestBackend>, row: u16) -> Option<(u16, u16)> {
    let buffer = terminal.backend().buffer();
    let width = buffer.area.width;
    let filled: Vec<u16> = (1..width - 2)
        .filter(|x| buffer[(*x, row)].symbol() != " ")
        .collect();
    Some((*filled.first()?, *filled.last()?))
}

#[test]
fn answers_wrap_at_the_reading_width_centred_on_a_wide_screen() {
    let mut app = app_at(Instant::now());
    let tag = send(&mut app, "boots or shoes");
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(long_paragraph_answer()),
        },
    );
    let terminal = terminal(&mut app, 160, 45);
    let text = screen(&terminal);
    let row = (0..45)
        .find(|y| {
            let line: String = text.lines().nth(*y as usize).unwrap_or_default().into();
            line.contains("Waterproof leather")
        })
        .expect("the answer is on screen");
    let (first, last) = text_span(&terminal, row).unwrap();
    assert!(last - first < 100, "a line runs {first}..{last}");
    // Centred: about as much room on the left as on the right of the 100 columns.
    assert!(
        (25..=35).contains(&first),
        "the text starts at column {first}"
    );
    insta::assert_snapshot!(text);

    // 0 in the config file uses the whole pane.
    app.reading_width = 0;
    let terminal = common::view::terminal(&mut app, 160, 45);
    let (first, last) = text_span(&terminal, row).unwrap();
    assert!(first < 5 && last > 140, "a line runs {first}..{last}");
}

#[test]
fn slash_finds_text_in_the_answer_with_n_of_total() {
    let mut app = app_at(Instant::now());
    let tag = send(&mut app, "boots or shoes");
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(long_paragraph_answer()),
        },
    );
    terminal(&mut app, 80, 24);
    press(&mut app, KeyCode::Char('/'));
    type_text(&mut app, "trails");
    // While the search is typed, the status line does not offer a new line.
    let typing = screen(&terminal(&mut app, 80, 24));
    assert!(!typing.contains("new line"), "{typing}");
    assert!(typing.contains("Enter keep the search"), "{typing}");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('n'));
    let terminal = terminal(&mut app, 80, 24);
    let text = screen(&terminal);
    assert!(text.contains("/trails  2 of 4"), "{text}");
    // The current match is marked without colour: reverse video, bold and underlined.
    let buffer = terminal.backend().buffer();
    // The answer's own rows: the tab bar and the view tabs mark the active one in reverse too.
    let marked = (7..21u16)
        .flat_map(|y| (0..80u16).map(move |x| (x, y)))
        .filter(|at| {
            buffer[*at]
                .modifier
                .contains(ratatui::style::Modifier::REVERSED)
        })
        .count();
    assert_eq!(marked, 4 * "trails".len(), "every visible match is marked");
    insta::assert_snapshot!(text);
}

/// An answer naming Salomon, Merrell (citing merrell.com), Löwa and Keen, in that order.
fn boots_answer() -> Box<answer::PreparedAnswer> {
    let completion = Completion {
        model: "chatgpt".into(),
        query: "best hiking boots".into(),
        completion: concat!(
            "<h2>Best hiking boots</h2><p>The <strong>Salomon X Ultra 4</strong> leads for most ",
            "hikers; the <strong>Merrell Moab 3</strong> is the budget pick ",
            "<a href=\"https://www.merrell.com/moab\">Merrell</a>.</p><ul>",
            "<li><strong>Salomon X Ultra 4</strong>: light and grippy.</li>",
            "<li><strong>Merrell Moab 3</strong>: roomy. Merrell sizes run wide.</li>",
            "<li><strong>Löwa Renegade GTX</strong>: for heavy loads.</li>",
            "<li><strong>Keen Targhee</strong>: a wide toe box.</li></ul>"
        )
        .into(),
        sources: concat!(
            "<ol><li><a href=\"https://www.merrell.com/moab\">Merrell Moab 3</a></li>",
            "<li><a href=\"https://www.rei.com/boots\">REI guide</a></li></ol>"
        )
        .into(),
        ..Completion::default()
    };
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{\"model\":\"chatgpt\"}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(9_100),
    };
    Box::new(answer::prepare(
        AiRequest::new("best hiking boots"),
        fetched,
    ))
}

const BOOTS_FILE: &str = "# Hiking boots we follow.\n[[brands]]\nname = \"Salomon\"\ndomains = [\"salomon.com\"]\n\n[[brands]]\nname = \"Merrell\"\ndomains = [\"merrell.com\"]\n\n[[brands]]\nname = \"Lowa\"\n\n[[brands]]\nname = \"Hoka\"\n";

/// An app showing `boots_answer`, the brands of `file` tracked.
fn boots_app(file: &str) -> App {
    use vantage::analysis::workspace::Workspace;
    use vantage::app::brands::LoadedWorkspace;
    let mut app = app_at(Instant::now());
    let workspace = Workspace::parse(std::path::Path::new("/work/shop/vantage.toml"), file)
        .expect("the file parses");
    update(
        &mut app,
        Msg::WorkspaceLoaded(Ok(LoadedWorkspace {
            workspace,
            existed: true,
        })),
    );
    let tag = send(&mut app, "best hiking boots");
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(boots_answer()),
        },
    );
    app
}

/// The screen as text, and under each line with any, `_` under the cells drawn bold and
/// underlined: what a terminal without colour still shows of a mark.
fn marked_screen(app: &mut App, width: u16, height: u16) -> String {
    use ratatui::style::Modifier;
    let terminal = terminal(app, width, height);
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let mut text = String::new();
        let mut marks = String::new();
        for x in 0..width {
            let cell = &buffer[(x, y)];
            text.push_str(cell.symbol());
            let marked = cell
                .modifier
                .contains(Modifier::BOLD | Modifier::UNDERLINED);
            marks.push(if marked { '_' } else { ' ' });
        }
        out.push_str(text.trim_end());
        out.push('\n');
        if marks.contains('_') {
            out.push_str(marks.trim_end());
            out.push('\n');
        }
    }
    out
}

#[test]
fn tracked_brands_are_marked_in_the_answer_without_colour() {
    let mut app = boots_app(BOOTS_FILE);
    let screen = marked_screen(&mut app, 80, 24);
    // Salomon, Merrell and Löwa (as Lowa) are marked; Keen, not tracked, is not.
    assert!(screen.contains("Löwa"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_mentions_view_lists_brands_in_order_of_first_mention() {
    let mut app = boots_app(BOOTS_FILE);
    press(&mut app, KeyCode::Char(']'));
    press(&mut app, KeyCode::Char(']'));
    let view = app.chat.answer.as_ref().unwrap().view;
    assert_eq!(view, answer::AnswerView::Mentions);
    let screen = screen(&terminal(&mut app, 80, 24));
    assert!(screen.contains("Mentions 3"), "{screen}");
    insta::assert_snapshot!(screen);
    let wide = screen_of(&mut app, 160, 45);
    assert!(wide.contains("Hoka  not named"), "{wide}");
}

fn screen_of(app: &mut App, width: u16, height: u16) -> String {
    screen(&terminal(app, width, height))
}

#[test]
fn the_brands_pane_suggests_names_from_the_answer() {
    let mut app = boots_app("[[brands]]\nname = \"Salomon\"\n");
    press(&mut app, KeyCode::Char('b'));
    assert!(app.brands_pane.open);
    let screen = screen(&terminal(&mut app, 80, 24));
    // The product goes under its brand, which the answer names alone too.
    assert!(screen.contains("+ Merrell  (Merrell Moab 3)"), "{screen}");
    insta::assert_snapshot!(screen);
    // a opens the editor below the list.
    press(&mut app, KeyCode::Char('a'));
    type_text(&mut app, "Lowa");
    let editing = screen_of(&mut app, 80, 24);
    assert!(editing.contains("name: Lowa"), "{editing}");
    // The status line says what the form's keys do, not the prompt's or the panes'.
    assert!(editing.contains("Enter save the brand"), "{editing}");
    assert!(editing.contains("Tab next field"), "{editing}");
    assert!(!editing.contains("new line"), "{editing}");
}

/// A results page whose organic results are on these hosts, in this order.
fn results_on(hosts: &[&str]) -> Box<vantage::present::search_page::PreparedSearch> {
    let results: Vec<serde_json::Value> = hosts
        .iter()
        .enumerate()
        .map(|(i, host)| {
            serde_json::json!({
                "type": "organic",
                "position": i + 1,
                "url": format!("https://{host}/page"),
                "title": format!("A page on {host}"),
            })
        })
        .collect();
    let results: vantage::api::SearchResults =
        serde_json::from_value(serde_json::json!({ "results": results })).unwrap();
    Box::new(vantage::present::search_page::prepare(
        vantage::api::SearchRequest::default(),
        Fetched {
            value: vantage::api::SearchAnswer::Results(Box::new(results)),
            body: "{}".into(),
            status: 200,
            content_type: "application/json".into(),
            elapsed: Duration::from_millis(800),
        },
    ))
}

/// F on an answer with fanouts: the question of its cost, then who ranks for each fanout.
#[test]
fn the_fan_out_coverage_of_an_answer() {
    let mut app = app_at(Instant::now());
    app.brands = vec![
        vantage::analysis::mentions::Brand {
            name: "REI".into(),
            domains: vec!["rei.com".into()],
            ..Default::default()
        },
        vantage::analysis::mentions::Brand {
            name: "Merrell".into(),
            domains: vec!["merrell.com".into()],
            ..Default::default()
        },
    ];
    let tag = send(&mut app, "best hiking boots");
    let mut prepared = completion_answer();
    prepared.fanouts = vec![
        "best hiking boots 2026".into(),
        "hiking boots reviews".into(),
        "hiking boots new york".into(),
    ];
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(prepared),
        },
    );
    press(&mut app, KeyCode::Char('F'));
    let asked = screen(&terminal(&mut app, 80, 24));
    assert!(asked.contains("3 fanouts from US/NY/New York?"), "{asked}");
    press(&mut app, KeyCode::Char('y'));
    let tags: Vec<Tag> = app
        .chat
        .answer
        .as_ref()
        .unwrap()
        .coverage
        .as_ref()
        .unwrap()
        .searches
        .iter()
        .map(|s| s.call.tag().unwrap())
        .collect();
    let pages = [
        vec!["outdoorgearlab.com", "rei.com", "merrell.com"],
        vec!["rei.com", "switchbacktravel.com"],
        vec!["nytimes.com", "outdoorgearlab.com"],
    ];
    for (tag, hosts) in tags.into_iter().zip(pages) {
        update(
            &mut app,
            Msg::SearchDone {
                tag,
                result: Ok(results_on(&hosts)),
            },
        );
    }
    let wide = screen(&terminal(&mut app, 160, 45));
    assert!(
        wide.contains("REI      2 of 3 fanouts (67 %), best rank 1"),
        "{wide}"
    );
    assert!(wide.contains("REI 2 · Merrell 3"), "{wide}");
    insta::assert_snapshot!("fanout_coverage_160x45", wide);
    insta::assert_snapshot!("fanout_coverage_80x24", screen(&terminal(&mut app, 80, 24)));
}

/// The answer with its tracked brands, drawn in a theme: the snapshot holds each cell's
/// colours and modifiers, not only the text.
fn themed_screen(theme: vantage::theme::Theme) -> Terminal<TestBackend> {
    let mut app = boots_app(BOOTS_FILE);
    app.theme = theme;
    terminal(&mut app, 80, 24)
}

#[test]
fn each_built_in_theme_and_a_theme_file_styles_the_answer() {
    use vantage::theme::{Theme, theme_from};
    for (name, theme) in [
        ("dark", Theme::dark()),
        ("light", Theme::light()),
        ("high_contrast", Theme::high_contrast()),
    ] {
        let terminal = themed_screen(theme);
        insta::assert_snapshot!(
            format!("theme_{name}"),
            format!("{:?}", terminal.backend().buffer())
        );
    }
    let file = "# paper: light, with the brands in green and no bold titles\nbase = \"light\"\nbrand = { fg = \"#006400\", modifiers = [\"underlined\"] }\ntitle = {}\nkey_hint = { fg = \"24\" }\n";
    let theme = theme_from(file, std::path::Path::new("paper.toml")).unwrap();
    let terminal = themed_screen(theme);
    insta::assert_snapshot!(
        "theme_user_file",
        format!("{:?}", terminal.backend().buffer())
    );
}

/// On a light background, text is never drawn in a colour a white page washes out (yellow,
/// white, light grey, the light variants); a reversed cell shows its colours the other way.
#[test]
fn the_light_theme_draws_no_text_in_washed_out_colours() {
    use ratatui::style::{Color, Modifier};
    let terminal = themed_screen(vantage::theme::Theme::light());
    let buffer = terminal.backend().buffer();
    let washed_out = |color: Color| {
        matches!(
            color,
            Color::Yellow
                | Color::White
                | Color::Gray
                | Color::LightYellow
                | Color::LightCyan
                | Color::LightGreen
                | Color::LightBlue
                | Color::LightMagenta
                | Color::LightRed
        )
    };
    for cell in &buffer.content {
        if cell.symbol().trim().is_empty() || cell.bg != Color::Reset {
            continue;
        }
        let shown = if cell.modifier.contains(Modifier::REVERSED) {
            cell.bg
        } else {
            cell.fg
        };
        assert!(
            !washed_out(shown),
            "{:?} drawn in {shown:?} on a light background",
            cell.symbol()
        );
    }
}

#[test]
fn a_long_paste_is_counted_whole_shown_at_its_end_and_refused_with_a_sentence() {
    let mut app = app_at(Instant::now());
    // 2,400 characters pasted at once, as a terminal's bracketed paste delivers them.
    let pasted = format!("{}the END", "hiking boots ".repeat(184));
    assert_eq!(pasted.chars().count(), 2399);
    update(&mut app, Msg::Paste(pasted));
    assert_eq!(app.chat.prompt_chars(), 2399);
    let shown = screen(&terminal(&mut app, 100, 30));
    assert!(shown.contains("2399/2047"), "{shown}");
    assert!(shown.contains("352 characters too many"), "{shown}");
    assert!(
        shown.contains("the END"),
        "the box follows the paste to its end: {shown}"
    );
    // Sending is refused with the reason; nothing goes out.
    let effects = press(&mut app, KeyCode::Enter);
    assert!(effects.is_empty(), "{effects:?}");
    let flash = app.flash.as_ref().expect("a sentence").text.clone();
    assert!(flash.contains("2399 characters"), "{flash}");
    assert!(flash.contains("2047"), "{flash}");
}
