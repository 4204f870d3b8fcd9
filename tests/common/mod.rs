//! Helpers shared by the integration tests: a quick simulator and a client pointed at it.
#![allow(dead_code)]

pub mod cli;
pub mod http;
pub mod pty;
pub mod view;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use vantage::api::{Client, ClientSettings, RetryNotice, RetryPolicy, Secret};
use vantage::sim::{SimConfig, Simulator};

/// A simulator that answers at once, with short jobs that never fail unless told.
pub fn quick() -> SimConfig {
    SimConfig {
        latency_scale: 0.0,
        job_pending: Duration::from_millis(150),
        job_fail_share: 0.0,
        ..SimConfig::default()
    }
}

pub async fn start(config: SimConfig) -> Simulator {
    Simulator::start(config).await.expect("simulator starts")
}

/// Settings for a client of `sim` with its token.
pub fn settings(sim: &Simulator) -> ClientSettings {
    ClientSettings::new(&sim.url(), &sim.url(), Secret::new(sim.token()))
}

/// A client of `sim` with the default retry policy.
pub fn client(sim: &Simulator) -> Client {
    Client::new(settings(sim)).expect("client builds")
}

/// A client of `sim` that never retries, to see raw statuses.
pub fn raw_client(sim: &Simulator) -> Client {
    let mut settings = settings(sim);
    settings.retry = RetryPolicy::none();
    Client::new(settings).expect("client builds")
}

/// Collects the waits a client reports before retrying.
#[derive(Clone, Default)]
pub struct Notices(Arc<Mutex<Vec<RetryNotice>>>);

impl Notices {
    pub fn watch(&self, client: &Client) -> Client {
        let seen = Arc::clone(&self.0);
        client.observed(move |notice| seen.lock().expect("notices lock").push(notice))
    }

    pub fn all(&self) -> Vec<RetryNotice> {
        self.0.lock().expect("notices lock").clone()
    }
}

/// The documented sample is not JSON as printed: it stands in for omitted entries with
/// objects holding one bracketed string (`{ "[Remaining … here]" }`) and leaves trailing
/// commas. This removes exactly those, outside strings, and keeps everything else.
pub fn fix_documented_json(markdown: &str) -> String {
    let start = markdown.find("```json").map_or(0, |i| i + "```json".len());
    let end = markdown[start..]
        .find("```")
        .map_or(markdown.len(), |i| start + i);
    let text = &markdown[start..end];
    let chars: Vec<char> = text.chars().collect();

    // Pass 1: drop placeholder objects.
    let mut kept = Vec::with_capacity(chars.len());
    let mut i = 0;
    let mut in_string = false;
    let mut escaped = false;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            kept.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if c == '{'
            && let Some(after) = placeholder_end(&chars, i)
        {
            i = after;
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        kept.push(c);
        i += 1;
    }

    // Pass 2: drop commas with nothing after them (before `]`, `}` or another comma) and
    // commas right after an opening bracket.
    let mut out = String::with_capacity(kept.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut last_significant = ' ';
    for (i, &c) in kept.iter().enumerate() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == ',' {
            let next = kept[i + 1..].iter().find(|c| !c.is_whitespace());
            let dangling = matches!(next, Some(']' | '}' | ',') | None);
            if dangling || matches!(last_significant, '[' | '{' | ',') {
                continue;
            }
        }
        if c == '"' {
            in_string = true;
        }
        if !c.is_whitespace() {
            last_significant = c;
        }
        out.push(c);
    }
    out
}

/// If `chars[open]` starts `{ "[…]" }`, the index just past its `}`.
fn placeholder_end(chars: &[char], open: usize) -> Option<usize> {
    let skip_ws = |mut i: usize| {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        i
    };
    let quote = skip_ws(open + 1);
    if chars.get(quote) != Some(&'"') || chars.get(quote + 1) != Some(&'[') {
        return None;
    }
    let close_quote = quote + 1 + chars[quote + 1..].iter().position(|c| *c == '"')?;
    if chars[close_quote - 1] != ']' {
        return None;
    }
    let brace = skip_ws(close_quote + 1);
    (chars.get(brace) == Some(&'}')).then_some(brace + 1)
}

/// Where a test sends the terminal events of [`scripted_events`].
pub type EventSender = tokio::sync::mpsc::UnboundedSender<crossterm::event::Event>;

/// Terminal events a test feeds to the real event loop by hand.
pub fn scripted_events() -> (
    tokio::sync::mpsc::UnboundedSender<crossterm::event::Event>,
    impl futures_util::Stream<Item = std::io::Result<crossterm::event::Event>> + Unpin,
) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|event| (Ok(event), rx))
    });
    (tx, Box::pin(stream))
}

/// A key press with modifiers.
pub fn key_with(
    code: crossterm::event::KeyCode,
    modifiers: crossterm::event::KeyModifiers,
) -> crossterm::event::Event {
    crossterm::event::Event::Key(crossterm::event::KeyEvent::new(code, modifiers))
}

/// A key press alone.
pub fn key(code: crossterm::event::KeyCode) -> crossterm::event::Event {
    key_with(code, crossterm::event::KeyModifiers::NONE)
}

pub fn ctrl_c() -> crossterm::event::Event {
    key_with(
        crossterm::event::KeyCode::Char('c'),
        crossterm::event::KeyModifiers::CONTROL,
    )
}

/// The Alt+digit of a tab, found by its position (tabs may be added between others).
pub fn tab_key(tab: vantage::app::Tab) -> crossterm::event::Event {
    let index = vantage::app::Tab::ALL
        .iter()
        .position(|t| *t == tab)
        .expect("the tab is listed");
    let digit = char::from_digit(index as u32 + 1, 10).expect("at most nine tabs");
    key_with(
        crossterm::event::KeyCode::Char(digit),
        crossterm::event::KeyModifiers::ALT,
    )
}

/// Types text into the loop, one key a character.
pub fn type_events(tx: &tokio::sync::mpsc::UnboundedSender<crossterm::event::Event>, text: &str) {
    for c in text.chars() {
        tx.send(key(crossterm::event::KeyCode::Char(c)))
            .expect("the loop listens");
    }
}

/// A simulator on its own runtime, so a test thread can block on the binary meanwhile.
pub struct Service {
    pub sim: Simulator,
    _runtime: tokio::runtime::Runtime,
}

impl Service {
    /// A simulator that answers at once.
    pub fn start() -> Service {
        Service::with(SimConfig {
            latency_scale: 0.0,
            ..SimConfig::default()
        })
    }

    /// A simulator of this configuration.
    pub fn with(config: SimConfig) -> Service {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let sim = runtime
            .block_on(Simulator::start(config))
            .expect("simulator starts");
        Service {
            sim,
            _runtime: runtime,
        }
    }
}

/// Runs the built `vantage` against `sim` with its token, its data and config in `dir`, and
/// no token or service URL taken from the environment.
pub fn run_vantage(
    sim: &Simulator,
    dir: &std::path::Path,
    args: &[&str],
    timeout: Duration,
) -> std::process::Output {
    let url = sim.url();
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_vantage"))
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("config.toml"))
        .env("VANTAGE_TOKEN", sim.token())
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_RENDER_URL")
        .env_remove("VANTAGE_SEARCH_URL")
        .args(["--render-url", &url, "--search-url", &url])
        .args(args)
        .timeout(timeout)
        .output()
        .expect("vantage runs")
}

/// Overwrites six pages in the middle of a database file with pseudo-random bytes.
pub fn damage_middle_pages(path: &std::path::Path) {
    const PAGE: usize = 4096;
    let mut bytes = std::fs::read(path).expect("read");
    let pages = bytes.len() / PAGE;
    assert!(pages > 40, "{pages} pages is too small to damage");
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for byte in &mut bytes[pages / 2 * PAGE..(pages / 2 + 6) * PAGE] {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *byte = (seed >> 33) as u8;
    }
    std::fs::write(path, bytes).expect("write");
}

/// A test's own service (an axum router) on 127.0.0.1:0, on a runtime of its own that lives
/// as long as this value.
pub struct Served {
    pub url: String,
    _runtime: tokio::runtime::Runtime,
}

pub fn serve(app: axum::Router) -> Served {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    runtime.spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Served {
        url,
        _runtime: runtime,
    }
}

/// A test's own service (an axum router) on 127.0.0.1:0, on the runtime of the calling async
/// test; its URL.
pub async fn serve_here(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    url
}
