//! The app on a real pseudo-terminal while it reads a 1 MiB answer written to be slow to read
//! (one paragraph naming tracked brands thousands of times): Esc cancels the reading and the
//! app goes on answering keys; Ctrl+C ends it within a second with the terminal restored.

use std::io::{Read, Write};
use std::process::{Child, Command};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use axum::routing::get;

mod common;

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

/// The app on a new pseudo-terminal, and what the terminal receives, as it comes.
struct OnTerminal {
    child: Child,
    keys: std::fs::File,
    received: mpsc::Receiver<Vec<u8>>,
    seen: Vec<u8>,
}

impl OnTerminal {
    fn start(url: &str, home: &std::path::Path) -> OnTerminal {
        let mut cmd = Command::new(BIN);
        cmd.env("VANTAGE_DATA_DIR", home.join("data"))
            .env("VANTAGE_CONFIG", home.join("none.toml"))
            .env("VANTAGE_TOKEN", "a-token-of-the-test")
            .env("TERM", "xterm-256color")
            .env_remove("MASSIVE_TOKEN")
            .current_dir(home)
            .args(["--render-url", url, "--search-url", url]);
        let (child, master) = common::pty::spawn(cmd);
        let keys = master.try_clone().expect("dup");
        let (tx, received) = mpsc::channel();
        std::thread::spawn(move || {
            let mut master = master;
            let mut buffer = [0u8; 8192];
            while let Ok(n @ 1..) = master.read(&mut buffer) {
                if tx.send(buffer[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        OnTerminal {
            child,
            keys,
            received,
            seen: Vec::new(),
        }
    }

    fn press(&mut self, bytes: &[u8]) {
        self.keys.write_all(bytes).expect("key");
        self.keys.flush().expect("flush");
    }

    /// Waits until the terminal received `text` (after what was seen before); false at the
    /// deadline.
    fn wait_for(&mut self, text: &str, within: Duration) -> bool {
        let from = self.seen.len();
        let deadline = Instant::now() + within;
        loop {
            let tail = String::from_utf8_lossy(&self.seen[from..]);
            if tail.contains(text) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            if let Ok(bytes) = self
                .received
                .recv_timeout(left.min(Duration::from_millis(20)))
            {
                self.seen.extend(bytes);
            }
        }
    }

    /// Ctrl+C, then how long the app took to end.
    fn quit(&mut self) -> Duration {
        let pressed = Instant::now();
        self.press(b"\x03");
        loop {
            if self.child.try_wait().expect("wait").is_some() {
                let took = pressed.elapsed();
                while let Ok(bytes) = self.received.recv_timeout(Duration::from_millis(200)) {
                    self.seen.extend(bytes);
                }
                return took;
            }
            if pressed.elapsed() > Duration::from_secs(10) {
                let _ = self.child.kill();
                panic!("the app did not end within 10 s of Ctrl+C");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The terminal is left as it was found: the main screen back and the cursor shown.
    fn assert_restored(&self) {
        let all = String::from_utf8_lossy(&self.seen);
        let left = all
            .rfind("\x1b[?1049l")
            .expect("the main screen is restored");
        let entered = all
            .rfind("\x1b[?1049h")
            .expect("the app drew on its own screen");
        assert!(left > entered, "the app's screen is left last");
        let shown = all.rfind("\x1b[?25h").expect("the cursor is shown");
        assert!(
            shown > entered,
            "the cursor is shown again after the app drew"
        );
    }
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
    let mut app = OnTerminal::start(&service.url, home.path());
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
