//! The README's picture of the app, `assets/app-chat.svg`, is drawn from the app itself: the
//! Chat tab on `TestBackend` with a live Gemini answer (the one the tests keep) and four
//! tracked brands, each cell in the dark theme's colours. A view change that moves the
//! screen fails here until the picture is drawn again: `VANTAGE_UPDATE_README=1` writes it.

mod common;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::view::{demo_connection, press, terminal, type_text};
use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

use vantage::analysis::workspace::Workspace;
use vantage::api::{AiAnswer, AiRequest, Completion, Fetched, Model};
use vantage::app::brands::LoadedWorkspace;
use vantage::app::{App, Credits, Msg, update};
use vantage::present::answer;

const WIDTH: u16 = 100;
const HEIGHT: u16 = 30;
/// A cell, in pixels: a 14 px monospace font is about 8.4 px wide.
const CELL_WIDTH: f64 = 8.4;
const CELL_HEIGHT: f64 = 18.0;
const BACKGROUND: &str = "#1e1e1e";
const FOREGROUND: &str = "#d4d4d4";

const PROMPT: &str = "What are the best AI coding tools right now? List the top 10.";
const WORKSPACE: &str = "[[brands]]\nname = \"Cursor\"\nown = true\n\n[[brands]]\nname = \"GitHub Copilot\"\n\n[[brands]]\nname = \"Claude Code\"\n\n[[brands]]\nname = \"Windsurf\"\n";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The app as a user sees it once the live Gemini answer has landed.
fn app_with_a_live_answer() -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    app.credits = Credits::Known(995);
    let workspace = Workspace::parse(std::path::Path::new("/work/tools/vantage.toml"), WORKSPACE)
        .expect("the workspace parses");
    update(
        &mut app,
        Msg::WorkspaceLoaded(Ok(LoadedWorkspace {
            workspace,
            existed: true,
        })),
    );
    // Gemini from the model picker, then the prompt, as a user picks them.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('m'));
    type_text(&mut app, "gemini");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('i'));
    type_text(&mut app, PROMPT);
    press(&mut app, KeyCode::Enter);
    let tag = app.chat.call.tag().expect("sent");
    let body = std::fs::read_to_string(root().join("tests/fixtures/live/ai-gemini-sample.json"))
        .expect("the live answer is kept with the tests");
    let completion: Completion = serde_json::from_str(&body).expect("a completion");
    let mut request = AiRequest::new(PROMPT);
    request.model = Some(Model::Gemini);
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body,
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(21_300),
    };
    update(
        &mut app,
        Msg::AiDone {
            tag,
            result: Ok(Box::new(answer::prepare(request, fetched))),
        },
    );
    app
}

/// A terminal colour as the dark theme's terminal shows it (VS Code's palette).
fn hex(color: Color, default: &str) -> String {
    const ANSI: [&str; 16] = [
        "#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
        "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
    ];
    let index = match color {
        Color::Reset => return default.to_string(),
        Color::Rgb(r, g, b) => return format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        Color::Indexed(i) if i < 16 => i as usize,
        Color::Indexed(i) if i >= 232 => {
            let level = 8 + 10 * (i as u32 - 232);
            return format!("#{level:02x}{level:02x}{level:02x}");
        }
        Color::Indexed(i) => {
            let cube = i as u32 - 16;
            let step = |v: u32| if v == 0 { 0 } else { 55 + 40 * v };
            return format!(
                "#{:02x}{:02x}{:02x}",
                step(cube / 36),
                step(cube / 6 % 6),
                step(cube % 6)
            );
        }
    };
    ANSI[index].to_string()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A row's cells as runs of one look: (first column, columns, text, fg, bg, modifiers).
type Run = (u16, u16, String, String, String, Modifier);

fn runs(buffer: &Buffer, y: u16) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut x = 0;
    while x < buffer.area.width {
        let cell = &buffer[(x, y)];
        let symbol = cell.symbol();
        let wide = symbol.width().max(1) as u16;
        let reversed = cell.modifier.contains(Modifier::REVERSED);
        let (fg, bg) = (hex(cell.fg, FOREGROUND), hex(cell.bg, BACKGROUND));
        let (fg, bg) = if reversed { (bg, fg) } else { (fg, bg) };
        match runs.last_mut() {
            Some(run) if run.3 == fg && run.4 == bg && run.5 == cell.modifier && wide == 1 => {
                run.1 += 1;
                run.2.push_str(symbol);
            }
            _ => runs.push((x, wide, symbol.to_string(), fg, bg, cell.modifier)),
        }
        // A wide character stands alone, so the next run starts on its own column.
        if wide > 1 {
            runs.push((
                x + wide,
                0,
                String::new(),
                String::new(),
                String::new(),
                Modifier::empty(),
            ));
        }
        x += wide;
    }
    runs.into_iter().filter(|run| run.1 > 0).collect()
}

/// The screen as an SVG: a rectangle per run with a background of its own, a text per run
/// with something to show, stretched to its columns so the grid holds in any monospace font.
fn svg(buffer: &Buffer) -> String {
    let (width, height) = (
        f64::from(buffer.area.width) * CELL_WIDTH,
        f64::from(buffer.area.height) * CELL_HEIGHT,
    );
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"'DejaVu Sans Mono', Menlo, Consolas, monospace\" font-size=\"14\">\n<rect width=\"100%\" height=\"100%\" fill=\"{BACKGROUND}\"/>\n"
    );
    for y in 0..buffer.area.height {
        let top = f64::from(y) * CELL_HEIGHT;
        for (x, columns, text, fg, bg, modifier) in runs(buffer, y) {
            let left = f64::from(x) * CELL_WIDTH;
            let span = f64::from(columns) * CELL_WIDTH;
            if bg != BACKGROUND {
                writeln!(
                    out,
                    "<rect x=\"{left:.1}\" y=\"{top:.0}\" width=\"{span:.1}\" height=\"{CELL_HEIGHT:.0}\" fill=\"{bg}\"/>"
                )
                .unwrap();
            }
            if text.trim().is_empty() {
                continue;
            }
            let mut look = String::new();
            if modifier.contains(Modifier::BOLD) {
                look.push_str(" font-weight=\"bold\"");
            }
            if modifier.contains(Modifier::ITALIC) {
                look.push_str(" font-style=\"italic\"");
            }
            if modifier.contains(Modifier::UNDERLINED) {
                look.push_str(" text-decoration=\"underline\"");
            }
            if modifier.contains(Modifier::DIM) {
                look.push_str(" opacity=\"0.6\"");
            }
            writeln!(
                out,
                "<text x=\"{left:.1}\" y=\"{:.1}\" fill=\"{fg}\"{look} textLength=\"{span:.1}\" lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\">{}</text>",
                top + CELL_HEIGHT * 0.75,
                escape(&text)
            )
            .unwrap();
        }
    }
    out.push_str("</svg>\n");
    out
}

#[test]
fn the_readme_picture_is_the_app_as_drawn_now() {
    let mut app = app_with_a_live_answer();
    let terminal = terminal(&mut app, WIDTH, HEIGHT);
    let screen = terminal.backend().to_string();
    // What the picture promises: a real answer with the tracked brands marked.
    for shown in [
        "model gemini",
        "Gemini ·",
        "Cursor",
        "Claude Code",
        "Mentions 4",
    ] {
        assert!(screen.contains(shown), "{shown} is not on\n{screen}");
    }
    let drawn = svg(terminal.backend().buffer());
    let path = root().join("assets/app-chat.svg");
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    if kept == drawn {
        return;
    }
    if std::env::var_os("VANTAGE_UPDATE_README").is_some() {
        std::fs::write(&path, drawn).unwrap();
        return;
    }
    panic!(
        "assets/app-chat.svg is not the app as drawn now; run with VANTAGE_UPDATE_README=1 to draw it again. The screen:\n{screen}"
    );
}

#[test]
fn the_picture_shows_each_cell_in_its_colour() {
    let mut buffer = Buffer::empty(ratatui::layout::Rect::new(0, 0, 6, 1));
    buffer.set_string(
        0,
        0,
        "ab",
        ratatui::style::Style::default().fg(Color::Magenta),
    );
    buffer.set_string(
        2,
        0,
        "<c",
        ratatui::style::Style::default()
            .fg(Color::Indexed(24))
            .add_modifier(Modifier::BOLD | Modifier::REVERSED),
    );
    let drawn = svg(&buffer);
    assert!(drawn.contains("fill=\"#bc3fbc\""), "{drawn}");
    assert!(drawn.contains(">ab</text>"), "{drawn}");
    // Reversed: the default background becomes the text's colour, on a rectangle of index 24.
    assert!(drawn.contains("fill=\"#005f87\""), "{drawn}");
    assert!(drawn.contains(">&lt;c</text>"), "{drawn}");
    assert!(drawn.contains("font-weight=\"bold\""), "{drawn}");
}
