//! Driving the app's views on `TestBackend`: a demo connection, keys, and the screen as text.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use vantage::app::{App, Connection, Effect, Msg, update};
use vantage::ui;

/// What the app is connected to in the view tests: the demo, with a token.
pub fn demo_connection() -> Connection {
    Connection {
        demo: true,
        host: "127.0.0.1:4000".into(),
        token: Some("demo".into()),
        token_hint: "the config file".into(),
    }
}

/// One frame of the app at this size.
pub fn terminal(app: &mut App, width: u16, height: u16) -> Terminal<TestBackend> {
    app.area = ratatui::layout::Rect::new(0, 0, width, height);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| ui::view(app, f)).unwrap();
    terminal
}

/// What a terminal shows, as text.
pub fn screen(terminal: &Terminal<TestBackend>) -> String {
    terminal.backend().to_string()
}

/// One frame of the app at this size, as text.
pub fn draw(app: &mut App, width: u16, height: u16) -> String {
    screen(&terminal(app, width, height))
}

/// A key without modifiers, and the effects it asked for.
pub fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

/// Types text a character at a time.
pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}
