//! What the `update` tests of every tab start from.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{App, Connection, Msg};

/// An app on the demo connection, with a token.
pub(crate) fn demo_app() -> App {
    App::new(
        Connection {
            demo: true,
            host: "127.0.0.1:4000".into(),
            token: Some("demo".into()),
            token_hint: "the config file".into(),
        },
        Instant::now(),
    )
}

pub(crate) fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}
