//! Carries out what `update` asks for. One runner per kind of effect, each matching its kind
//! exhaustively: calls of the service (`calls`), the local store (`store`), and the terminal
//! and the machine (`os`). Effects that finish at once answer a message right away; the
//! others answer later through the channel.

mod calls;
mod os;
mod store;
mod track_runs;

pub use os::restore_settings;

use std::collections::HashMap;
use std::path::PathBuf;

use std::time::Duration;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use tokio::task::JoinHandle;

use crate::api::proxy::ProxyEndpoints;
use crate::api::{Client, JobId};
use crate::app::{self, App, Effect, Msg, Tag};
use crate::sim::Simulator;
use crate::store::{Body, Store};

use super::PendingStore;

/// A call in flight: its task, and the flag that stops its preparation (which runs on the
/// blocking pool, where aborting the task does not reach).
pub(super) struct CallTask {
    pub(super) task: JoinHandle<()>,
    pub(super) stop: crate::present::Stop,
}

impl CallTask {
    /// Stops the call; the handle resolves once its task is dropped (its History entry then
    /// marked cancelled).
    pub(super) fn cancel(self) -> JoinHandle<()> {
        self.stop.set();
        self.task.abort();
        self.task
    }
}

/// What quitting waits for at most: the cancelled calls' History entries and the store's
/// queued writes. Anything still running after it (a load of the whole store) is left to
/// the end of the process.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Carries out effects: spawns calls, cancels them, reads and writes the store, copies,
/// opens, writes files.
pub struct EffectRunner {
    client: Client,
    tx: UnboundedSender<Msg>,
    tasks: HashMap<Tag, CallTask>,
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
    /// The store still opening: the loop waits for it once the first frame is drawn.
    pending_store: Option<PendingStore>,
    /// What the store was opened with: the demo's store, opened on a switch, takes the same.
    store_options: crate::store::StoreOptions,
    /// Job results of this session when there is no store.
    memory: HashMap<JobId, Body>,
    /// False while a comparison's column is started: the comparison is one History entry.
    keep_history: bool,
    /// The workspace file named with `--workspace` (else the nearest `vantage.toml`).
    workspace: Option<PathBuf>,
    /// The latest write of the remembered settings; each waits for the one before it.
    settings_save: Option<tokio::task::JoinHandle<()>>,
    /// `keys.toml` and the theme file, read again when the terminal regains focus.
    user_files: Option<super::user_files::UserFiles>,
    /// The calls cancelled as the loop ended, until their tasks are dropped.
    stopping: Vec<JoinHandle<()>>,
    /// Raised to stop the Track tab's reading under way (a new one replaces it; the app
    /// ends).
    track_stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Drop for EffectRunner {
    fn drop(&mut self) {
        // Work on the blocking pool for a view no one will see stops at its next batch.
        if let Some(stop) = self.track_stop.take() {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
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
            store_options: crate::store::StoreOptions::default(),
            pending_store: None,
            memory: HashMap::new(),
            settings_save: None,
            user_files: None,
            keep_history: true,
            workspace: None,
            stopping: Vec::new(),
            track_stop: None,
        }
    }

    /// The workspace file named with `--workspace`, for the reads of the Track tab.
    pub fn set_workspace(&mut self, workspace: Option<PathBuf>) {
        self.workspace = workspace;
    }

    /// The user's keys and theme files, read again when the terminal regains focus.
    pub fn set_user_files(&mut self, files: super::user_files::UserFiles) {
        self.user_files = Some(files);
    }

    /// The store history and jobs are written to (`None`: memory only).
    pub fn set_store(&mut self, store: Option<Store>) {
        self.store = store;
    }

    /// The store opening in the background; it replaces the one set before, once opened.
    pub fn set_pending_store(&mut self, pending: PendingStore) {
        self.store_options = pending.options().clone();
        self.pending_store = Some(pending);
    }

    /// Waits for a store still opening; true when the app's state changed (it did not open).
    pub(super) async fn settle_store(&mut self, app: &mut App) -> bool {
        let Some(pending) = self.pending_store.take() else {
            return false;
        };
        self.store = pending.settle(app, &self.tx).await;
        self.store.is_none()
    }

    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Where proxied requests go; without endpoints they fail with a sentence.
    pub fn set_proxy_endpoints(&mut self, endpoints: Option<ProxyEndpoints>) {
        self.proxy = endpoints;
    }

    /// Forgets the tasks whose answers arrive.
    pub(super) fn observe(&mut self, msg: &Msg) {
        if let Msg::AiDone { tag, .. } | Msg::SearchDone { tag, .. } | Msg::ProxyDone { tag, .. } =
            msg
        {
            self.tasks.remove(tag);
        }
    }

    pub(super) fn cancel_all(&mut self) {
        for (_, task) in self.tasks.drain() {
            self.stopping.push(task.cancel());
        }
    }

    /// Ends what the runner started, within [`QUIT_GRACE`]: the cancelled calls' tasks are
    /// dropped (their History entries say cancelled), the store's reads are stopped and its
    /// queued writes committed, and the store is closed. A load still running on the blocking
    /// pool, or a long write, is not waited for beyond that.
    pub async fn close(&mut self) {
        let deadline = tokio::time::Instant::now() + QUIT_GRACE;
        let stopping = std::mem::take(&mut self.stopping);
        let _ = tokio::time::timeout_at(deadline, futures_util::future::join_all(stopping)).await;
        self.close_store_by(deadline).await;
    }

    /// Closes the store within [`QUIT_GRACE`] (when the demo takes its own).
    pub(super) async fn close_store(&mut self) {
        self.close_store_by(tokio::time::Instant::now() + QUIT_GRACE)
            .await;
    }

    /// Stops the store's reads, commits its queued writes and closes it, by `deadline`.
    async fn close_store_by(&mut self, deadline: tokio::time::Instant) {
        let Some(store) = self.store.take() else {
            return;
        };
        store.stop_reads();
        let _ = tokio::time::timeout_at(deadline, store.flush()).await;
        // The last handle joins the writer thread (which folds the log into the file): on a
        // thread of its own, waited for within the same bound.
        let (closed, closing) = tokio::sync::oneshot::channel();
        let spawned = std::thread::Builder::new()
            .name("vantage-store-close".to_string())
            .spawn(move || {
                drop(store);
                let _ = closed.send(());
            });
        if spawned.is_ok() {
            let _ = tokio::time::timeout_at(deadline, closing).await;
        }
    }

    /// Carries out effects, feeding the messages of those that finish at once back through
    /// `update`. Public so tests can drive effects without the event loop.
    pub async fn run_all(&mut self, effects: Vec<Effect>, app: &mut App) {
        for effect in effects {
            let answered = match effect {
                Effect::Call(call) => self.run_call(call),
                Effect::Store(store) => self.run_store(store),
                Effect::Os(os) => self.run_os(os).await,
            };
            if let Some(msg) = answered {
                let more = app::update(app, msg);
                Box::pin(self.run_all(more, app)).await;
            }
        }
    }
}

/// A test-friendly runner and channel on a given client.
pub fn test_runner(client: Client, data_dir: PathBuf) -> (EffectRunner, UnboundedReceiver<Msg>) {
    let (tx, rx) = unbounded_channel();
    (EffectRunner::new(client, tx, data_dir, false), rx)
}
