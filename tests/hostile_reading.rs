//! The app on a real pseudo-terminal while it reads a 1 MiB answer written to be slow to read
//! (one paragraph naming tracked brands thousands of times): Esc cancels the reading and the
//! app goes on answering keys; Ctrl+C ends it within a second with the terminal restored.

use std::process::Command;
use std::time::Duration;

use axum::routing::get;

mod common;

use common::pty::OnTerminal;

const BIN: &str = env!("CARGO_BIN_EXE_vantage");

fn hostile_answer() -> String {
    let mut paragraph = String::from("<p>");
    let brands = ["Lowa", "Merrell", "Salomon", "Keen", "Hoka", "Scarpa"];
    let mut i = 0;
    while paragraph.len() < 1024 * 1024 {
        paragraph.push_str(&format!(
            "<strong>{}</strong> beats {} and the {} Renegade is recommended over {}, ",
            brands[i % 6],
            brands[(i + 1) % 6],
            brands[(i + 2) % 6],
            brands[(i + 3) % 6]
        ));
        i += 1;
    }
    paragraph.push_str("</p>");
    serde_json::json!({ "model": "chatgpt", "completion": paragraph, "sources": "" }).to_string()
}

/// The app against `url`, its data in `home`.
fn start(url: &str, home: &std::path::Path) -> OnTerminal {
    let mut cmd = Command::new(BIN);
    cmd.env("VANTAGE_DATA_DIR", home.join("data"))
        .env("VANTAGE_CONFIG", home.join("none.toml"))
        .env("VANTAGE_TOKEN", "a-token-of-the-test")
        .env("TERM", "xterm-256color")
        .env_remove("MASSIVE_TOKEN")
        .current_dir(home)
        .args(["--render-url", url, "--search-url", url]);
    OnTerminal::start(cmd)
}

fn service() -> common::Served {
    let answer = hostile_answer();
    common::serve(axum::Router::new().route(
        "/ai",
        get(move || {
            let answer = answer.clone();
            async move { ([("content-type", "application/json")], answer) }
        }),
    ))
}

/// The app asked a question and now reading the hostile answer to it (with the service and
/// the home folder it needs kept alive).
fn reading_a_hostile_answer() -> (common::Served, tempfile::TempDir, OnTerminal) {
    let service = service();
    let home = tempfile::tempdir().unwrap();
    let mut app = start(&service.url, home.path());
    assert!(
        app.wait_for("Chat", Duration::from_secs(20)),
        "the app draws"
    );
    app.press(b"best hiking boots\r");
    assert!(
        app.wait_for("Reading the response", Duration::from_secs(20)),
        "the answer lands"
    );
    (service, home, app)
}

#[test]
fn ctrl_c_ends_the_app_within_a_second_while_a_hostile_answer_is_read() {
    let (_service, _home, mut app) = reading_a_hostile_answer();
    let took = app.quit();
    assert!(took < Duration::from_secs(1), "Ctrl+C took {took:?}");
    app.assert_restored();
}

#[test]
fn esc_cancels_the_reading_of_a_hostile_answer_and_the_app_answers_keys() {
    let (_service, _home, mut app) = reading_a_hostile_answer();
    app.press(b"\x1b");
    assert!(
        app.wait_for("Cancelled", Duration::from_secs(1)),
        "Esc cancels within a second"
    );
    // The app goes on: the help overlay opens at once.
    app.press(b"?");
    assert!(
        app.wait_for("Keys", Duration::from_secs(1)),
        "the app answers keys"
    );
    let took = app.quit();
    assert!(took < Duration::from_secs(1), "Ctrl+C took {took:?}");
    app.assert_restored();
}
