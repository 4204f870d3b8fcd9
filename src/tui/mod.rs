//! The one place that owns the terminal, the tokio tasks and the channels: it turns terminal
//! events and task results into messages, runs `update`, carries out the effects, and draws
//! once per batch. Idle means no wake-ups: the loop ticks only while something animates.
//!
//! `mod.rs` sets the terminal up and restores it; `event_loop` is the loop; `effects` carries
//! out what `update` asks for, one runner per kind of effect.

mod effects;
mod event_loop;
mod user_files;

pub use effects::{EffectRunner, restore_settings, test_runner};
pub use event_loop::{FRAME_BUDGET, LoopStats, run_loop};
pub use user_files::UserFiles;

use std::io;
use std::path::PathBuf;
use std::time::Instant;

use crossterm::event::{
    DisableBracketedPaste, DisableFocusChange, DisableMouseCapture, EnableBracketedPaste,
    EnableFocusChange, EnableMouseCapture, EventStream,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

use crate::api::proxy::ProxyEndpoints;
use crate::api::{Client, Secret};
use crate::app::proxy::{DEMO_TARGET_URL, LIVE_TARGET_URL, ProxyDefaults, ProxyState};
use crate::app::{App, Connection, Msg};
use crate::config::Config;
use crate::sim::Simulator;
use crate::store::{Store, StoreError, StoreOptions};

/// Runs the app in the real terminal until the user quits. Returns the exit code.
/// `start_warning` (the log could not be opened, say) is shown as the first flash.
pub async fn run(
    config: Config,
    client: Client,
    simulator: Option<&Simulator>,
    start_warning: Option<String>,
    workspace: Option<std::path::PathBuf>,
) -> i32 {
    // SQLite opens (and on a first run creates) the file on the blocking pool while the
    // terminal is set up and the first frame drawn; the loop waits for it after that frame.
    let store = PendingStore::open(
        config.data_dir.clone(),
        StoreOptions::from_config(&config),
        start_warning.is_some(),
    );
    // The simulator is kept alive by the caller for as long as the app runs.
    let proxy = proxy_defaults(&config, simulator);
    let connection = connection_of(&config, &client);
    let mut terminal = match setup_terminal() {
        Ok(t) => t,
        Err(e) => {
            restore_terminal();
            last_words(&format!(
                "The terminal could not be set up: {e}. Is this an interactive terminal?"
            ));
            return crate::exit::FAILURE;
        }
    };
    let (tx, mut rx) = unbounded_channel();
    let mut runner = EffectRunner::new(client, tx.clone(), config.data_dir.clone(), true);
    runner.set_proxy_endpoints(proxy.endpoints.clone());
    runner.set_pending_store(store);
    runner.set_workspace(workspace.clone());
    let mut app = App::new(connection, Instant::now());
    app.brands_pane.explicit = workspace;
    app.proxy = ProxyState::new(proxy);
    if let Some(warning) = start_warning {
        app.flash_error(warning);
    }
    app.reading_width = config.reading_width;
    app.prices = config.prices;
    let user_files = UserFiles::new(config.keys_file(), config.theme.clone());
    user_files.apply_at_start(&mut app);
    runner.set_user_files(user_files);
    restore_settings(&mut app, &config.data_dir);
    if let Ok(size) = terminal.size() {
        app.area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
    }
    let result = run_loop(
        &mut terminal,
        EventStream::new(),
        &mut app,
        &mut runner,
        &mut rx,
    )
    .await;
    // The terminal is the user's again at once; what is left is finished within a bound.
    restore_terminal();
    runner.close().await;
    match result {
        Ok(_) => 0,
        Err(e) => {
            last_words(&format!("The app stopped on a terminal error: {e}."));
            crate::exit::FAILURE
        }
    }
}

/// The app's last sentence, on stderr once the terminal is restored, cleaned of anything a
/// terminal would obey (an error's text may quote the service).
fn last_words(sentence: &str) {
    use std::io::Write;
    let mut line = crate::sanitize::for_terminal(sentence).into_owned();
    if !line.ends_with('\n') {
        line.push('\n');
    }
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(line.as_bytes());
    let _ = stderr.flush();
}

/// The store being opened on the blocking pool, and whether the log is missing too (said in
/// the same flash if the store does not open).
pub struct PendingStore {
    opening: JoinHandle<Result<Store, StoreError>>,
    no_log: bool,
    /// What it was opened with, for a store opened later (the demo's).
    options: StoreOptions,
}

impl PendingStore {
    /// Starts opening the store in `data_dir` on the blocking pool (call it inside the
    /// runtime). `no_log`: the log could not be opened either.
    pub fn open(data_dir: PathBuf, options: StoreOptions, no_log: bool) -> PendingStore {
        let opening = {
            let options = options.clone();
            tokio::task::spawn_blocking(move || Store::open_in(&data_dir, options))
        };
        PendingStore {
            opening,
            no_log,
            options,
        }
    }

    /// The options the store opens with.
    pub fn options(&self) -> &StoreOptions {
        &self.options
    }

    /// Waits for the store. Opened, it is watched for damage; not opened, the app says why
    /// and keeps this session in memory (returns `None`).
    pub(crate) async fn settle(self, app: &mut App, tx: &UnboundedSender<Msg>) -> Option<Store> {
        let opened = self.opening.await.unwrap_or_else(|stopped| {
            Err(StoreError::Sqlite(format!(
                "opening it stopped ({stopped})"
            )))
        });
        match opened {
            Ok(store) => {
                watch_store(&store, tx.clone());
                Some(store)
            }
            Err(error) => {
                tracing::warn!(%error, "the store did not open");
                app.flash_error(format!(
                    "{error} Jobs and history live in memory only this session{}.",
                    // The store's sentence replaces the log's warning, so it keeps its gist.
                    if self.no_log {
                        ", and no log is written"
                    } else {
                        ""
                    }
                ));
                app.jobs.memory_only = Some(error.to_string());
                None
            }
        }
    }
}

/// Starts SQLite's quick check of the store without waiting for it, and tells the app, once,
/// when the store stops writing: it opened read-only, or the check or a write found it
/// read-only or damaged. The store itself refuses every later write.
pub fn watch_store(store: &Store, tx: UnboundedSender<Msg>) {
    let mut health = store.watch_health();
    // Its answer arrives through the health watch.
    store.quick_check().detach();
    let path = store.path().to_path_buf();
    tokio::spawn(async move {
        loop {
            let refusal = health.borrow_and_update().refusal(&path);
            if let Some(error) = refusal {
                let _ = tx.send(Msg::StoreUnwritable(error.to_string()));
                return;
            }
            if health.changed().await.is_err() {
                return;
            }
        }
    });
}

/// The proxies and credentials: the simulator's in demo mode, else the config's.
pub fn proxy_defaults(config: &Config, simulator: Option<&Simulator>) -> ProxyDefaults {
    match simulator {
        Some(sim) => demo_proxy_defaults(sim),
        None => ProxyDefaults {
            username: config.proxy_username.clone(),
            key: config.proxy_key.clone(),
            endpoints: Some(ProxyEndpoints::live(
                &config.proxy_host,
                &config.isp_proxy_host,
            )),
            target_url: LIVE_TARGET_URL.to_string(),
        },
    }
}

/// The simulator's proxies, its credentials, and its target page.
pub fn demo_proxy_defaults(sim: &Simulator) -> ProxyDefaults {
    let p = sim.proxies();
    ProxyDefaults {
        username: Some(p.username.clone()),
        key: Secret::new(&p.key),
        endpoints: Some(sim.client_proxy_endpoints()),
        target_url: DEMO_TARGET_URL.to_string(),
    }
}

fn connection_of(config: &Config, client: &Client) -> Connection {
    Connection {
        demo: config.demo,
        host: client.render_host(),
        token: config.token.as_ref().map(|t| t.masked()),
        token_hint: config.token_hint(),
    }
}

fn setup_terminal() -> io::Result<Terminal<CrosstermBackend<io::Stdout>>> {
    install_panic_hook();
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste,
        // Focus regained: what another vantage process wrote meanwhile is looked at.
        EnableFocusChange
    )?;
    Terminal::new(CrosstermBackend::new(io::stdout()))
}

/// Puts the terminal back as it was. Safe to call more than once.
pub fn restore_terminal() {
    let _ = execute!(
        io::stdout(),
        DisableFocusChange,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
}

/// A panic restores the terminal before the message is printed, so it is readable.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
}
