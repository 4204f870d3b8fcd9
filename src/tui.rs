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
use crate::api::{Client, ClientSettings, JobId, Secret};
use crate::app::proxy::{DEMO_TARGET_URL, LIVE_TARGET_URL, ProxyDefaults, ProxyState};
use crate::app::{self, App, Connection, Effect, Msg, Tag};
use crate::config::Config;
use crate::jobs::PollOutcome;
use crate::sim::Simulator;
use crate::store::{Body, EntryId, NewJob, RequestParams, Store, StoreOptions, now_ms};
use crate::ui;
use std::sync::{Arc, Mutex};

/// How often the screen refreshes while a spinner or countdown runs.
const TICK: Duration = Duration::from_millis(100);

/// What one frame may cost: one frame at 60 Hz.
pub const FRAME_BUDGET: Duration = Duration::from_millis(16);

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
    match Store::open_in(&config.data_dir, StoreOptions::from_config(&config)) {
        Ok(store) => runner.set_store(Some(store)),
        Err(error) => {
            tracing::warn!(%error, "the store did not open");
            app.flash_error(format!(
                "{error} Jobs and history live in memory only this session."
            ));
            app.jobs.memory_only = Some(error.to_string());
        }
    }
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
    /// The longest `terminal.draw`.
    pub slowest_frame: Duration,
    /// All `terminal.draw` calls together.
    pub frame_time: Duration,
    /// Frames that took longer than [`FRAME_BUDGET`].
    pub frames_over_budget: u64,
    /// The most job polls seen in flight at once.
    pub most_polls_in_flight: usize,
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
    app.set_wall(now_ms());
    let effects = app.start();
    runner.run_all(effects, app).await;
    draw(terminal, app, &mut stats)?;
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut terminate = termination_signal();
    loop {
        // Sleep until the scheduler's next poll falls due; no timer while no job waits.
        let wake = app
            .jobs
            .next_wake()
            .map(|at| Duration::from_millis((at - now_ms()).clamp(0, 60_000) as u64));
        let timer = async move {
            match wake {
                Some(wait) => tokio::time::sleep(wait).await,
                None => std::future::pending().await,
            }
        };
        let first = tokio::select! {
            event = events.next() => match event {
                Some(Ok(event)) => event_to_msg(event),
                Some(Err(e)) => return Err(e),
                None => break,
            },
            Some(msg) = rx.recv() => Some(msg),
            _ = ticker.tick(), if app.animating() => Some(Msg::Tick),
            () = timer => Some(Msg::JobsWake),
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
        app.set_wall(now_ms());
        for msg in batch {
            stats.messages += 1;
            runner.observe(&msg);
            let effects = app::update(app, msg);
            runner.run_all(effects, app).await;
            stats.most_polls_in_flight = stats
                .most_polls_in_flight
                .max(app.jobs.scheduler.in_flight());
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
    let started = Instant::now();
    terminal
        .draw(|frame| ui::view(app, frame))
        .map_err(io::Error::other)?;
    let took = started.elapsed();
    stats.slowest_frame = stats.slowest_frame.max(took);
    stats.frame_time += took;
    stats.frames_over_budget += u64::from(took > FRAME_BUDGET);
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
    /// Where history and jobs are kept; `None` when it could not open (memory only).
    store: Option<Store>,
    /// Job results of this session when there is no store.
    memory: HashMap<JobId, Body>,
    /// The history entry of each job submitted this session, to attach its result to.
    job_entries: Arc<Mutex<HashMap<JobId, EntryId>>>,
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
            store: None,
            memory: HashMap::new(),
            job_entries: Arc::default(),
        }
    }

    /// The store history and jobs are written to (`None`: memory only).
    pub fn set_store(&mut self, store: Option<Store>) {
        self.store = store;
    }

    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
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
                let history = History::start(&self.store, RequestParams::Ai(request.clone()));
                let task = tokio::spawn(async move {
                    let fetched = client.ai(&request).await;
                    history.finish(&fetched);
                    let result = match fetched {
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
                let history = History::start(&self.store, RequestParams::Search(request.clone()));
                let task = tokio::spawn(async move {
                    let fetched = client.search(&request).await;
                    history.finish(&fetched);
                    let result = match fetched {
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
            effect => self.run_store(effect),
        }
    }

    /// The effects of queued jobs and history: calls in tasks, reads in `spawn_blocking`,
    /// writes through the store's writer thread.
    fn run_store(&mut self, effect: Effect) -> Option<Msg> {
        let tx = self.tx.clone();
        let store = self.store.clone();
        match effect {
            Effect::SubmitJob { request } => {
                let client = self.client.clone();
                let links = self.job_entries.clone();
                tokio::spawn(async move {
                    let result = submit_job(&client, store.as_ref(), &links, request).await;
                    let _ = tx.send(Msg::JobQueued(result));
                });
                None
            }
            Effect::ImportJob { id, kind } => {
                let job = NewJob::imported(id, kind);
                let record = app::jobs_tab::record_of(&job);
                match store {
                    Some(store) => {
                        tokio::spawn(async move {
                            let result = store
                                .record_job(job)
                                .await
                                .map(|()| record)
                                .map_err(|e| e.to_string());
                            let _ = tx.send(Msg::JobQueued(result));
                        });
                        None
                    }
                    None => Some(Msg::JobQueued(Ok(record))),
                }
            }
            Effect::PollJob { id, kind } => {
                let client = self.client.clone();
                tokio::spawn(async move {
                    let answer = client.job(kind, &id).await;
                    let outcome = PollOutcome::of(&answer);
                    let result = match (&outcome, &answer) {
                        (PollOutcome::Ready, Ok(fetched)) => Some(Body::of(fetched)),
                        _ => None,
                    };
                    let _ = tx.send(Msg::JobPolled {
                        id,
                        outcome,
                        result,
                    });
                });
                None
            }
            Effect::SaveJob { transition, result } => {
                let id = transition.id.clone();
                match &store {
                    Some(store) => {
                        if let Some(body) = &result
                            && let Some(entry) = lock(&self.job_entries).remove(&id)
                        {
                            store.add_response(&entry, body.clone()).detach();
                        }
                        store.update_job(transition, result).detach();
                    }
                    None => {
                        if let Some(body) = result {
                            self.memory.insert(id, body);
                        }
                    }
                }
                None
            }
            Effect::DeleteJob(id) => {
                self.memory.remove(&id);
                if let Some(store) = store {
                    store.delete_job(&id).detach();
                }
                None
            }
            Effect::LoadJobs => {
                let store = store?;
                let links = self.job_entries.clone();
                tokio::task::spawn_blocking(move || {
                    let result = store.list_jobs().map_err(|e| e.to_string());
                    if let Ok(jobs) = &result {
                        relink(&store, jobs, &links);
                    }
                    let _ = tx.send(Msg::JobsLoaded(result));
                });
                None
            }
            Effect::LoadHistory => {
                let Some(store) = store else {
                    return Some(Msg::HistoryLoaded(Ok(Vec::new())));
                };
                tokio::spawn(async move {
                    let _ = store.flush().await;
                    let result = tokio::task::spawn_blocking(move || {
                        store.history(app::history::SHOWN_ENTRIES, 0)
                    })
                    .await
                    .map_err(|e| e.to_string())
                    .and_then(|r| r.map_err(|e| e.to_string()));
                    let _ = tx.send(Msg::HistoryLoaded(result));
                });
                None
            }
            Effect::DeleteHistory(id) => {
                if let Some(store) = store {
                    store.delete_history(&id).detach();
                }
                None
            }
            Effect::OpenJob { id, kind, request } => {
                let title = format!("{kind} job {}", id.short());
                let memory = self.memory.get(&id).cloned();
                tokio::spawn(async move {
                    let body = match (memory, store) {
                        (Some(body), _) => Ok(Some(body)),
                        (None, Some(store)) => {
                            let _ = store.flush().await;
                            blocking(move || store.job_result(&id).map_err(|e| e.to_string())).await
                        }
                        (None, None) => Ok(None),
                    };
                    let result = match body {
                        Ok(Some(body)) => {
                            blocking(move || app::stored::prepare(kind, request, &body, &title))
                                .await
                        }
                        Ok(None) => Err("the result is not stored; r polls the job again".into()),
                        Err(e) => Err(e),
                    };
                    let _ = tx.send(Msg::StoredOpened(result));
                });
                None
            }
            Effect::OpenHistory(entry) => {
                let store = store?;
                tokio::spawn(async move {
                    let _ = store.flush().await;
                    let result = blocking(move || {
                        let entry = store
                            .history_entry(&entry)
                            .map_err(|e| e.to_string())?
                            .ok_or("the entry is no longer stored")?;
                        let body = entry
                            .response
                            .ok_or("no response was stored for this request")?;
                        if let RequestParams::Compare(columns) = &entry.request {
                            return app::stored::prepare_comparison(columns, &body);
                        }
                        let kind = app::stored::kind_of(&entry.request)
                            .ok_or("this kind of request has no viewer here")?;
                        let title = entry.item.summary.clone();
                        app::stored::prepare(kind, Some(entry.request), &body, &title)
                    })
                    .await;
                    let _ = tx.send(Msg::StoredOpened(result));
                });
                None
            }
            Effect::RecordComparison { params, columns } => {
                if let Some(store) = store {
                    let (entry, ack) = store.add_request(*params);
                    ack.detach();
                    let body = crate::store::Body {
                        status: 200,
                        text: columns,
                        elapsed_ms: 0,
                        received_at: crate::store::now_ms(),
                    };
                    store.add_response(&entry, body).detach();
                }
                None
            }
            Effect::LoadRerun(entry) => {
                let store = store?;
                tokio::task::spawn_blocking(move || {
                    let result = match store.history_entry(&entry) {
                        Ok(Some(entry)) => Ok(entry.request),
                        Ok(None) => Err("the entry is no longer stored".to_string()),
                        Err(e) => Err(e.to_string()),
                    };
                    let _ = tx.send(Msg::Rerun(result));
                });
                None
            }
            Effect::SaveDevices(names) => {
                if let Some(store) = store {
                    store.save_devices(names).detach();
                }
                None
            }
            _ => None,
        }
    }

    /// Starts the embedded simulator and points every later call at it.
    async fn switch_to_demo(&mut self) -> Result<Connection, String> {
        let simulator = crate::sim::demo::start(&self.data_dir)
            .await
            .map_err(|e| e.to_string())?;
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

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs heavy work (SQLite reads, JSON and HTML) on the blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| format!("the work stopped: {e}"))
        .and_then(|r| r)
}

/// Submits a request in async mode, then records its job (awaited) before anything else:
/// the id is never lost. The submission is a history entry; the job's result becomes its
/// response when it lands.
async fn submit_job(
    client: &Client,
    store: Option<&Store>,
    links: &Mutex<HashMap<JobId, EntryId>>,
    request: RequestParams,
) -> Result<crate::store::JobRecord, String> {
    let started = Instant::now();
    let entry = store.map(|store| {
        let (entry, ack) = store.add_request(request.clone());
        ack.detach();
        entry
    });
    let submitted = match &request {
        RequestParams::Ai(r) => client.ai_submit(r).await,
        RequestParams::Search(r) => client.search_submit(r).await,
        other => {
            return Err(format!(
                "a {} request is not queued from here",
                other.kind()
            ));
        }
    };
    let id = match submitted {
        Ok(id) => id,
        Err(error) => {
            if let (Some(store), Some(entry)) = (store, &entry) {
                store
                    .add_response(entry, error_body(&error, started))
                    .detach();
            }
            return Err(error.to_string());
        }
    };
    let job = NewJob::submitted(id.clone(), request);
    let record = app::jobs_tab::record_of(&job);
    if let Some(store) = store
        && let Err(error) = store.record_job(job).await
    {
        tracing::warn!(%error, "a job could not be stored");
    }
    if let Some(entry) = entry {
        lock(links).insert(id, entry);
    }
    Ok(record)
}

/// Finds again the history entries of jobs submitted in an earlier session and still open,
/// so their results become those entries' responses when they land: the entry without a
/// response, of the same request, recorded within a minute before the job.
fn relink(store: &Store, jobs: &[crate::store::JobRecord], links: &Mutex<HashMap<JobId, EntryId>>) {
    let open: Vec<_> = jobs
        .iter()
        .filter(|j| j.is_open() && j.request.is_some())
        .collect();
    if open.is_empty() {
        return;
    }
    let Ok(items) = store.history(app::history::SHOWN_ENTRIES, 0) else {
        return;
    };
    let mut links = lock(links);
    for job in open {
        let found = items.iter().find(|item| {
            item.status.is_none()
                && item.summary == job.summary
                && (0..60_000).contains(&(job.created_at - item.created_at))
                && !links.values().any(|e| *e == item.id)
        });
        if let Some(item) = found {
            links.insert(job.id.clone(), item.id.clone());
        }
    }
}

fn error_body(error: &crate::api::ApiError, started: Instant) -> Body {
    Body {
        status: error.status().unwrap_or(0),
        text: error.to_string(),
        elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        received_at: now_ms(),
    }
}

/// The history entry of one sync call: the request is written when it leaves, the response
/// (or the error) when it lands; both through the store's writer thread.
struct History {
    store: Option<Store>,
    entry: Option<EntryId>,
    started: Instant,
}

impl History {
    fn start(store: &Option<Store>, request: RequestParams) -> History {
        let entry = store.as_ref().map(|store| {
            let (entry, ack) = store.add_request(request);
            ack.detach();
            entry
        });
        History {
            store: store.clone(),
            entry,
            started: Instant::now(),
        }
    }

    fn finish<T>(&self, result: &Result<crate::api::Fetched<T>, crate::api::ApiError>) {
        let (Some(store), Some(entry)) = (&self.store, &self.entry) else {
            return;
        };
        let body = match result {
            Ok(fetched) => Body::of(fetched),
            Err(error) => error_body(error, self.started),
        };
        store.add_response(entry, body).detach();
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
