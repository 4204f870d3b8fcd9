//! The one place that owns the terminal, the tokio tasks and the channels: it turns terminal
//! events and task results into messages, runs `update`, carries out the effects, and draws
//! once per batch. Idle means no wake-ups: the loop ticks only while something animates.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
    EventStream, KeyEventKind,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use std::task::Poll;

use futures_util::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::task::AbortHandle;

use crate::api::proxy::{ProxyEndpoints, ProxyError};
use crate::api::{Client, ClientSettings, Secret};
use crate::app::proxy::{DEMO_TARGET_URL, LIVE_TARGET_URL, ProxyDefaults, ProxyState};
use crate::app::{self, App, Connection, Effect, Msg, Tag};
use crate::config::Config;
use crate::sim::{SimConfig, Simulator};
use crate::ui;

/// How often the screen refreshes while a spinner or countdown runs.
const TICK: Duration = Duration::from_millis(100);

/// Runs the app in the real terminal until the user quits. Returns the exit code.
pub async fn run(config: Config, client: Client, simulator: Option<&Simulator>) -> i32 {
    // The simulator is kept alive by the caller for as long as the app runs.
    let proxy = proxy_defaults(&config, simulator);
    let connection = connection_of(&config, &client);
    let mut terminal = match setup_terminal() {
        Ok(t) => t,
        Err(e) => {
            restore_terminal();
            eprintln!("The terminal could not be set up: {e}. Is this an interactive terminal?");
            return 1;
        }
    };
    let (tx, mut rx) = unbounded_channel();
    let mut runner = EffectRunner::new(client, tx, config.data_dir.clone(), true);
    runner.set_proxy_endpoints(proxy.endpoints.clone());
    let mut app = App::new(connection, Instant::now());
    app.proxy = ProxyState::new(proxy);
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
    restore_terminal();
    match result {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("The app stopped on a terminal error: {e}.");
            1
        }
    }
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
        endpoints: Some(crate::cli::demo_proxy_endpoints(p)),
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
        EnableBracketedPaste
    )?;
    Terminal::new(CrosstermBackend::new(io::stdout()))
}

/// Puts the terminal back as it was. Safe to call more than once.
pub fn restore_terminal() {
    let _ = execute!(
        io::stdout(),
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

/// What one run of the loop did, for tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopStats {
    pub frames: u64,
    pub messages: u64,
}

/// The event loop, generic over the backend and the event source so tests drive it on
/// `TestBackend` with scripted events.
pub async fn run_loop<B, S>(
    terminal: &mut Terminal<B>,
    mut events: S,
    app: &mut App,
    runner: &mut EffectRunner,
    rx: &mut UnboundedReceiver<Msg>,
) -> io::Result<LoopStats>
where
    B: Backend,
    B::Error: std::error::Error + Send + Sync + 'static,
    S: Stream<Item = io::Result<Event>> + Unpin,
{
    let mut stats = LoopStats::default();
    app.set_clock(Instant::now());
    let effects = app.start();
    runner.run_all(effects, app).await;
    draw(terminal, app, &mut stats)?;
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut terminate = termination_signal();
    loop {
        let first = tokio::select! {
            event = events.next() => match event {
                Some(Ok(event)) => event_to_msg(event),
                Some(Err(e)) => return Err(e),
                None => break,
            },
            Some(msg) = rx.recv() => Some(msg),
            _ = ticker.tick(), if app.animating() => Some(Msg::Tick),
            _ = terminate.recv() => break,
        };
        // Everything else already waiting joins this batch; then one draw.
        let mut batch: Vec<Msg> = first.into_iter().collect();
        while let Ok(msg) = rx.try_recv() {
            batch.push(msg);
        }
        // Polled with this task's own waker: a no-op waker here would be the one crossterm
        // keeps, and the next real wait would never wake.
        while let Poll::Ready(Some(Ok(event))) =
            std::future::poll_fn(|cx| Poll::Ready(events.poll_next_unpin(cx))).await
        {
            batch.extend(event_to_msg(event));
        }
        if batch.is_empty() {
            continue;
        }
        app.set_clock(Instant::now());
        for msg in batch {
            stats.messages += 1;
            runner.observe(&msg);
            let effects = app::update(app, msg);
            runner.run_all(effects, app).await;
        }
        if app.should_quit {
            break;
        }
        draw(terminal, app, &mut stats)?;
    }
    runner.cancel_all();
    Ok(stats)
}

fn draw<B>(terminal: &mut Terminal<B>, app: &App, stats: &mut LoopStats) -> io::Result<()>
where
    B: Backend,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    terminal
        .draw(|frame| ui::view(app, frame))
        .map_err(io::Error::other)?;
    stats.frames += 1;
    Ok(())
}

fn event_to_msg(event: Event) -> Option<Msg> {
    match event {
        // Some terminals report releases too; only presses (and repeats) act.
        Event::Key(key) if key.kind != KeyEventKind::Release => Some(Msg::Key(key)),
        Event::Mouse(mouse) => Some(Msg::Mouse(mouse)),
        Event::Paste(text) => Some(Msg::Paste(text)),
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}

/// SIGTERM ends the loop like a quit, so the terminal is restored.
struct Termination {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl Termination {
    async fn recv(&mut self) {
        #[cfg(unix)]
        if let Some(signal) = &mut self.signal {
            signal.recv().await;
            return;
        }
        std::future::pending::<()>().await
    }
}

fn termination_signal() -> Termination {
    Termination {
        #[cfg(unix)]
        signal: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok(),
    }
}

/// Carries out effects: spawns calls, cancels them, copies, opens, writes files.
pub struct EffectRunner {
    client: Client,
    tx: UnboundedSender<Msg>,
    tasks: HashMap<Tag, AbortHandle>,
    data_dir: PathBuf,
    /// False in tests: copies are recorded instead of written to the terminal, and links are
    /// recorded instead of opened.
    real_terminal: bool,
    pub copied: Vec<String>,
    pub opened: Vec<String>,
    demo: Option<Simulator>,
    proxy: Option<ProxyEndpoints>,
}

impl EffectRunner {
    pub fn new(
        client: Client,
        tx: UnboundedSender<Msg>,
        data_dir: PathBuf,
        real_terminal: bool,
    ) -> Self {
        EffectRunner {
            client,
            tx,
            tasks: HashMap::new(),
            data_dir,
            real_terminal,
            copied: Vec::new(),
            opened: Vec::new(),
            demo: None,
            proxy: None,
        }
    }

    /// Where proxied requests go; without endpoints they fail with a sentence.
    pub fn set_proxy_endpoints(&mut self, endpoints: Option<ProxyEndpoints>) {
        self.proxy = endpoints;
    }

    /// Forgets the tasks whose answers arrive.
    fn observe(&mut self, msg: &Msg) {
        if let Msg::AiDone { tag, .. } | Msg::SearchDone { tag, .. } | Msg::ProxyDone { tag, .. } =
            msg
        {
            self.tasks.remove(tag);
        }
    }

    fn cancel_all(&mut self) {
        for (_, task) in self.tasks.drain() {
            task.abort();
        }
    }

    async fn run_all(&mut self, effects: Vec<Effect>, app: &mut App) {
        for effect in effects {
            if let Some(msg) = self.run(effect).await {
                let more = app::update(app, msg);
                Box::pin(self.run_all(more, app)).await;
            }
        }
    }

    /// Starts an effect; the few that finish at once answer a message right away.
    async fn run(&mut self, effect: Effect) -> Option<Msg> {
        match effect {
            Effect::SendAi { tag, request } => {
                tracing::info!(tag = tag.0, model = %request.effective_model(), "sending an AI call");
                let tx = self.tx.clone();
                let retry_tx = self.tx.clone();
                let client = self.client.observed(move |notice| {
                    let _ = retry_tx.send(Msg::Retrying { tag, notice });
                });
                let task = tokio::spawn(async move {
                    let result = match client.ai(&request).await {
                        Ok(fetched) => tokio::task::spawn_blocking(move || {
                            Box::new(app::answer::prepare(request, fetched))
                        })
                        .await
                        .map_err(|e| crate::api::ApiError::BadBody {
                            what: format!("preparing the answer failed: {e}"),
                            excerpt: String::new(),
                        }),
                        Err(e) => Err(e),
                    };
                    let _ = tx.send(Msg::AiDone { tag, result });
                });
                self.tasks.insert(tag, task.abort_handle());
                None
            }
            Effect::SendSearch { tag, request } => {
                tracing::info!(
                    tag = tag.0,
                    pages = request.serps.unwrap_or(1),
                    "sending a search"
                );
                let tx = self.tx.clone();
                let retry_tx = self.tx.clone();
                let client = self.client.observed(move |notice| {
                    let _ = retry_tx.send(Msg::Retrying { tag, notice });
                });
                let task = tokio::spawn(async move {
                    let result = match client.search(&request).await {
                        Ok(fetched) => tokio::task::spawn_blocking(move || {
                            Box::new(app::search_page::prepare(request, fetched))
                        })
                        .await
                        .map_err(|e| crate::api::ApiError::BadBody {
                            what: format!("preparing the results failed: {e}"),
                            excerpt: String::new(),
                        }),
                        Err(e) => Err(e),
                    };
                    let _ = tx.send(Msg::SearchDone { tag, result });
                });
                self.tasks.insert(tag, task.abort_handle());
                None
            }
            Effect::SendProxy { tag, request } => {
                tracing::info!(
                    tag = tag.0,
                    network = %request.network,
                    protocol = %request.protocol,
                    "sending a proxied request"
                );
                let tx = self.tx.clone();
                let endpoints = self.proxy.clone();
                let task = tokio::spawn(async move {
                    let result = match endpoints {
                        Some(endpoints) => request.send(&endpoints).await,
                        None => Err(ProxyError::Transport {
                            detail: "no proxy hosts are set".to_string(),
                        }),
                    };
                    let result = match result {
                        Ok(response) => tokio::task::spawn_blocking(move || {
                            Box::new(app::proxy::prepare(response))
                        })
                        .await
                        .map_err(|e| ProxyError::Transport {
                            detail: format!("preparing the response failed: {e}"),
                        }),
                        Err(e) => Err(e),
                    };
                    let _ = tx.send(Msg::ProxyDone { tag, result });
                });
                self.tasks.insert(tag, task.abort_handle());
                None
            }
            Effect::Cancel(tag) => {
                if let Some(task) = self.tasks.remove(&tag) {
                    task.abort();
                }
                None
            }
            Effect::FetchDevices => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                tokio::spawn(async move {
                    let result = client.devices().await.map(|f| f.value);
                    let _ = tx.send(Msg::Devices(result));
                });
                None
            }
            Effect::FetchAccount => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                tokio::spawn(async move {
                    let _ = tx.send(Msg::Account(client.account().await));
                });
                None
            }
            Effect::Copy(text) => {
                if self.real_terminal {
                    copy_with_osc52(&text);
                }
                self.copied.push(text);
                None
            }
            Effect::OpenUrl(url) => {
                self.opened.push(url.clone());
                if !self.real_terminal {
                    return Some(Msg::Opened {
                        url,
                        result: Ok(()),
                    });
                }
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = open_in_browser(&url);
                    let _ = tx.send(Msg::Opened { url, result });
                });
                None
            }
            Effect::WriteFile { path, contents } => {
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = std::fs::write(&path, contents).map_err(|e| e.to_string());
                    // The full path says where to look, whatever the working directory was.
                    let path = std::path::absolute(&path).unwrap_or(path);
                    let _ = tx.send(Msg::FileWritten { path, result });
                });
                None
            }
            Effect::SwitchToDemo => Some(Msg::DemoStarted(self.switch_to_demo().await)),
            Effect::Quit => None,
        }
    }

    /// Starts the embedded simulator and points every later call at it.
    async fn switch_to_demo(&mut self) -> Result<Connection, String> {
        let mut config = SimConfig::demo();
        config.state_file = Some(self.data_dir.join("demo-simulator-jobs.json"));
        let simulator = Simulator::start(config).await.map_err(|e| e.to_string())?;
        let settings = ClientSettings::new(
            &simulator.url(),
            &simulator.url(),
            crate::api::Secret::new(simulator.token()),
        );
        self.client = Client::new(settings).map_err(|e| e.to_string())?;
        let proxy = demo_proxy_defaults(&simulator);
        self.proxy = proxy.endpoints.clone();
        let _ = self.tx.send(Msg::ProxyDefaults(proxy));
        let connection = Connection {
            demo: true,
            host: self.client.render_host(),
            token: Some("demo".to_string()),
            token_hint: "the demo simulator".to_string(),
        };
        self.demo = Some(simulator);
        Ok(connection)
    }
}

/// Copies through the terminal (OSC 52), which works over SSH and inside tmux.
fn copy_with_osc52(text: &str) {
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let mut stdout = io::stdout();
    let _ = write!(stdout, "\x1b]52;c;{encoded}\x07");
    let _ = stdout.flush();
}

/// Opens a URL with the platform's opener, detached and silent.
fn open_in_browser(url: &str) -> Result<(), String> {
    if !(url.starts_with("https://") || url.starts_with("http://")) {
        return Err("only http(s) links are opened".to_string());
    }
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(target_os = "windows") {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| format!("no opener ({e})"))
}

/// A test-friendly runner and channel on a given client.
pub fn test_runner(client: Client, data_dir: PathBuf) -> (EffectRunner, UnboundedReceiver<Msg>) {
    let (tx, rx) = unbounded_channel();
    (EffectRunner::new(client, tx, data_dir, false), rx)
}
