//! SQLite in the data dir (`<data_dir>/vantage.db`): the history of requests and responses,
//! queued jobs with their results and state changes, and the cached device list.
//!
//! Writes never run on the caller's task: a [`Store`] (cheap to clone, `Send + Sync`) sends
//! each write to one writer thread, which applies whatever is queued in one transaction per
//! batch. Every write returns an [`Ack`], which may be dropped (fire and forget) or awaited
//! (resolves once the write is committed): `store.record_job(job).await` is how a job id is
//! made durable before anything else happens. Reads are plain sync functions over a small
//! pool of read connections; call them from `spawn_blocking` (or any thread but the UI's).
//!
//! ```no_run
//! # async fn demo(store: vantage::store::Store, id: vantage::api::JobId) {
//! use vantage::api::AiRequest;
//! use vantage::store::{NewJob, RequestParams};
//! let request = RequestParams::Ai(AiRequest::new("best hiking boots"));
//! store.record_job(NewJob::submitted(id, request)).await.expect("stored");
//! // Off the UI task:
//! let jobs = tokio::task::spawn_blocking(move || store.list_jobs()).await;
//! # }
//! ```
//!
//! Dropping the last clone finishes the queued writes and joins the writer thread.
//!
//! A file that cannot be written is opened read-only; a damaged one (a corruption error on
//! any statement, or [`Store::quick_check`] finding damage) gets no more writes, not even
//! the closing checkpoint. Either way reads go on, every write fails with a sentence, and
//! [`Store::health`] / [`Store::watch_health`] tell the app, which then keeps the session
//! in memory. [`Store::check`] and [`Store::recover`] are for the `store` commands.
//!
//! The token is never written: requests are stored as their typed parameters, which do not
//! carry it, and bodies are what the service answered.

mod closing;
mod entries;
mod error;
mod grid;
mod health;
mod import_check;
mod model;
pub mod names;
mod pages;
mod poison;
mod read;
pub mod readings;
mod repair;
pub mod row_check;
mod salvage;
mod schema;
mod search;
mod sessions;
mod track;
pub mod travel;
mod writer;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::thread::JoinHandle;

use rusqlite::Connection;
use tokio::sync::{oneshot, watch};

pub use error::StoreError;
pub use health::{Health, is_damage, is_write_refusal};
pub use import_check::ImportPlan;
pub use model::{
    Body, Devices, EntryId, HistoryEntry, HistoryItem, JobEvent, JobRecord, JobUpdate, NewJob,
    Origin, RequestKind, RequestParams, now_ms,
};
pub use poison::PoisonedRow;
pub use repair::{CheckReport, KEPT_TABLES, RecoverReport, TableCopy};
pub use schema::SCHEMA_VERSION;
pub use search::match_expression;
pub use sessions::ENDED as ENDED_UNANSWERED;
pub use track::{Delivery, NewRun, RunId, RunItem, RunSummary, TrackWrite};

use crate::api::JobId;
use crate::jobs::{JobState, Transition};
use writer::{Command, Op};

/// The database's file name inside the data dir.
pub const DB_FILE: &str = "vantage.db";
/// Read connections kept open for reuse.
const READ_POOL: usize = 4;

/// Settings of an open store.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// History entries kept; the oldest beyond it are deleted.
    pub history_max_entries: usize,
    /// Where the calls this process records come from.
    pub origin: Origin,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            history_max_entries: crate::config::DEFAULT_HISTORY_MAX_ENTRIES,
            origin: Origin::App,
        }
    }
}

impl StoreOptions {
    pub fn from_config(config: &crate::config::Config) -> Self {
        StoreOptions {
            history_max_entries: config.history_max_entries,
            origin: Origin::App,
        }
    }

    /// The options of a command of the CLI: its calls are marked as the CLI's in History.
    pub fn for_cli(config: &crate::config::Config) -> Self {
        StoreOptions {
            origin: Origin::Cli,
            ..StoreOptions::from_config(config)
        }
    }
}

/// A write on its way: await it to know it is committed, or drop it.
#[must_use = "await the Ack to wait for the commit, or call .detach() to fire and forget"]
pub struct Ack(AckInner);

enum AckInner {
    Waiting(oneshot::Receiver<Result<(), StoreError>>),
    Failed(Option<StoreError>),
}

impl Ack {
    /// Fire and forget: the write still happens; its outcome goes to the log only.
    pub fn detach(self) {}

    /// Blocks the thread until the write is committed. Not for async tasks: await instead.
    pub fn wait(self) -> Result<(), StoreError> {
        match self.0 {
            AckInner::Waiting(rx) => rx.blocking_recv().unwrap_or(Err(StoreError::Closed)),
            AckInner::Failed(error) => Err(error.unwrap_or(StoreError::Closed)),
        }
    }
}

impl Future for Ack {
    type Output = Result<(), StoreError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match &mut self.0 {
            AckInner::Waiting(rx) => Pin::new(rx)
                .poll(cx)
                .map(|r| r.unwrap_or(Err(StoreError::Closed))),
            AckInner::Failed(error) => Poll::Ready(Err(error.take().unwrap_or(StoreError::Closed))),
        }
    }
}

struct Inner {
    path: PathBuf,
    health: Arc<health::HealthCell>,
    /// Opened read-only from the start: readers open the file read-only too.
    read_only: bool,
    /// Where the calls this process records come from.
    origin: Origin,
    commands: Mutex<Option<mpsc::Sender<Command>>>,
    writer: Mutex<Option<JoinHandle<()>>>,
    readers: Mutex<Vec<Connection>>,
    /// The one connection `data_version` is read on: its value changes only when another
    /// connection (this process's writer, or another process) commits, and only values read
    /// on one connection can be compared.
    watcher: Mutex<Option<Connection>>,
    /// The check running beside the writes (see [`Store::quick_check`]), to stop it.
    checking: Arc<closing::Interrupts>,
    /// The reads in progress, stopped when the app quits.
    reading: closing::Interrupts,
    /// This process's hold on its calls out, let go once the writer has stopped (dropped
    /// after `Drop::drop`, which joins it).
    _session: Option<sessions::Session>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // A check still reading the whole file is of no use once the store is closed.
        self.checking.stop();
        // Readers close first, so the writer's connection is the last and tidies the WAL.
        if let Ok(mut readers) = self.readers.lock() {
            readers.clear();
        }
        if let Ok(mut watcher) = self.watcher.lock() {
            watcher.take();
        }
        // Closing the channel lets the writer finish what is queued, then stop.
        if let Ok(mut commands) = self.commands.lock() {
            commands.take();
        }
        if let Some(handle) = self.writer.lock().ok().and_then(|mut w| w.take()) {
            let _ = handle.join();
        }
    }
}

/// The handle to the database. Clone it freely; the last clone dropped finishes pending
/// writes and closes the file.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.inner.path)
            .finish()
    }
}

impl Store {
    /// Opens (creating and migrating) `<data_dir>/vantage.db`.
    pub fn open_in(data_dir: &Path, options: StoreOptions) -> Result<Store, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|e| StoreError::Folder {
            path: data_dir.to_path_buf(),
            reason: e.to_string(),
        })?;
        Store::open(&data_dir.join(DB_FILE), options)
    }

    /// Opens (creating and migrating) the database at `path`; if the file or its folder
    /// refuses writes, opens it read-only (see [`Store::health`]). Blocks briefly: call it
    /// at start-up or off the UI task.
    pub fn open(path: &Path, options: StoreOptions) -> Result<Store, StoreError> {
        let mut conn = match schema::open_writer(path).map_err(|e| health::name_full_disk(e, path))
        {
            Ok(conn) => conn,
            Err(StoreError::ReadOnly { reason, .. }) if path.exists() => {
                return Store::open_read_only_as(path, Health::ReadOnly { reason });
            }
            Err(StoreError::ReadOnly { reason, .. }) => {
                return Err(StoreError::Open {
                    path: path.to_path_buf(),
                    reason,
                });
            }
            // A full disk cannot grow the log SQLite keeps beside the file: what is stored is
            // still read.
            Err(StoreError::Full { .. }) if path.exists() => {
                return Store::open_read_only_as(path, Health::Full);
            }
            Err(error) => return Err(error),
        };
        let session = sessions::begin(&mut conn, path);
        let reader = schema::open_reader(path)?;
        let (health, _) = watch::channel(Health::Writable);
        let health = Arc::new(health);
        let (tx, rx) = mpsc::channel();
        let history_max = options.history_max_entries;
        let writer = writer::Writer {
            conn,
            path: path.to_path_buf(),
            health: Arc::clone(&health),
            session: session.as_ref().map(|s| s.id.clone()),
        };
        let handle = std::thread::Builder::new()
            .name("vantage-store".to_string())
            .spawn(move || writer.run(rx, history_max))
            .map_err(|e| StoreError::Sqlite(format!("the writer thread could not start: {e}")))?;
        Ok(Store {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                health,
                read_only: false,
                origin: options.origin,
                commands: Mutex::new(Some(tx)),
                writer: Mutex::new(Some(handle)),
                readers: Mutex::new(vec![reader]),
                watcher: Mutex::new(None),
                checking: Arc::default(),
                reading: closing::Interrupts::default(),
                _session: session,
            }),
        })
    }

    /// Opens an existing database for reading only: every write fails with
    /// [`StoreError::ReadOnly`]. What [`Store::open`] falls back to when writes are refused.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let reason = "opened for reading only".to_string();
        Store::open_read_only_as(path, Health::ReadOnly { reason })
    }

    fn open_read_only_as(path: &Path, health: Health) -> Result<Store, StoreError> {
        let reader = schema::open_read_only(path)?;
        // A file whose first open could not make its tables (the disk was full) holds
        // nothing to read: say why, not "no such table".
        let version: u32 = reader
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap_or(0);
        if version == 0 {
            return Err(match health {
                Health::Full => StoreError::Full {
                    path: path.to_path_buf(),
                },
                Health::ReadOnly { reason } => StoreError::Open {
                    path: path.to_path_buf(),
                    reason,
                },
                _ => StoreError::Open {
                    path: path.to_path_buf(),
                    reason: "it was never made whole".to_string(),
                },
            });
        }
        tracing::warn!(path = %path.display(), ?health, "the store is read-only");
        let (health, _) = watch::channel(health);
        Ok(Store {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                health: Arc::new(health),
                read_only: true,
                origin: Origin::App,
                commands: Mutex::new(None),
                writer: Mutex::new(None),
                readers: Mutex::new(vec![reader]),
                watcher: Mutex::new(None),
                checking: Arc::default(),
                reading: closing::Interrupts::default(),
                _session: None,
            }),
        })
    }

    /// Whether the file can be written now.
    pub fn health(&self) -> Health {
        self.inner.health.borrow().clone()
    }

    /// Follows [`Store::health`]: changes when damage is found or writes are refused.
    pub fn watch_health(&self) -> watch::Receiver<Health> {
        self.inner.health.subscribe()
    }

    /// Runs SQLite's `quick_check` on a thread and a connection of its own, beside the
    /// writes: on a large file it reads for many seconds, and neither the writes nor the
    /// reads queued meanwhile wait for it (a write that meets damage first is refused by
    /// SQLite itself, which stops the writes as the check would). Resolves to
    /// [`StoreError::Damaged`] when the file is damaged, which also stops every later write.
    /// Call it once after opening; the app need not wait for it. Dropping the store stops it.
    pub fn quick_check(&self) -> Ack {
        let (ack, rx) = oneshot::channel();
        let path = self.inner.path.clone();
        let read_only = self.inner.read_only;
        let health = Arc::clone(&self.inner.health);
        let checking = Arc::clone(&self.inner.checking);
        let started = std::thread::Builder::new()
            .name("vantage-store-check".to_string())
            .spawn(move || {
                let result = repair::check_beside(&path, read_only, &checking)
                    .map_err(|e| health::note(&health, &path, e));
                let _ = ack.send(result);
            });
        match started {
            Ok(_) => Ack(AckInner::Waiting(rx)),
            Err(e) => Ack(AckInner::Failed(Some(StoreError::Sqlite(format!(
                "the check could not start: {e}"
            ))))),
        }
    }

    /// Runs SQLite's `integrity_check` over the file at `path`, opened read-only: the
    /// problems it finds, none when the file is whole. For `vantage store check`.
    pub fn check(path: &Path) -> Result<CheckReport, StoreError> {
        repair::check(path)
    }

    /// Copies what can be read from the file at `path` into a new store that takes its name,
    /// keeping the old file aside as it was (named in the report), in a time bounded by the
    /// file's size whatever it holds. For `vantage store recover`.
    pub fn recover(path: &Path) -> Result<RecoverReport, StoreError> {
        repair::recover(path)
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Queues a write, unless the file is read-only or damaged.
    fn send(&self, op: Op) -> Ack {
        let barrier = matches!(op, Op::Barrier);
        if !barrier && let Some(refusal) = self.health().refusal(&self.inner.path) {
            return Ack(AckInner::Failed(Some(refusal)));
        }
        if barrier && self.inner.read_only {
            // Nothing can be queued, so everything queued is done.
            let (done, rx) = oneshot::channel();
            let _ = done.send(Ok(()));
            return Ack(AckInner::Waiting(rx));
        }
        self.send_anyway(op)
    }

    fn send_anyway(&self, op: Op) -> Ack {
        let (ack, rx) = oneshot::channel();
        let sent = match self.inner.commands.lock() {
            Ok(commands) => commands
                .as_ref()
                .is_some_and(|c| c.send(Command { op, ack: Some(ack) }).is_ok()),
            Err(_) => false,
        };
        if sent {
            Ack(AckInner::Waiting(rx))
        } else {
            Ack(AckInner::Failed(Some(StoreError::Closed)))
        }
    }

    // ---- writes (queued; await the Ack for durability) ----

    /// Records a request in the history; its id is returned at once, before the write.
    pub fn add_request(&self, params: RequestParams) -> (EntryId, Ack) {
        self.add_request_from(params, self.inner.origin)
    }

    /// Records a request under an id made beforehand (a comparison whose columns are queued
    /// by other tasks, each naming it).
    pub fn add_request_as(&self, id: EntryId, params: RequestParams) -> Ack {
        self.send(Op::AddRequest {
            id,
            params,
            created_at: now_ms(),
            origin: self.inner.origin,
        })
    }

    /// Records a request made elsewhere than this process's default (a tracking run's).
    pub fn add_request_from(&self, params: RequestParams, origin: Origin) -> (EntryId, Ack) {
        let id = EntryId::new();
        let ack = self.send(Op::AddRequest {
            id: id.clone(),
            params,
            created_at: now_ms(),
            origin,
        });
        (id, ack)
    }

    /// Stores the response of a history entry (replacing an earlier one: one per entry).
    pub fn add_response(&self, id: &EntryId, body: Body) -> Ack {
        self.send(Op::AddResponse {
            id: id.clone(),
            body,
        })
    }

    /// Records a queued job. Await it before going on: the job is then on disk. Recording
    /// an id already stored changes nothing.
    pub fn record_job(&self, job: NewJob) -> Ack {
        self.send(Op::RecordJob(job))
    }

    /// Stores what a poll changed (state, times, attempts, error) and, when done, the
    /// result body, all in one transaction. A state change adds an event.
    pub fn update_job(&self, transition: Transition, result: Option<Body>) -> Ack {
        self.send(Op::UpdateJob(JobUpdate { transition, result }))
    }

    /// Deletes a job with its result and events.
    pub fn delete_job(&self, id: &JobId) -> Ack {
        self.send(Op::DeleteJob(id.clone()))
    }

    /// Deletes a history entry with its response.
    pub fn delete_history(&self, id: &EntryId) -> Ack {
        self.send(Op::DeleteHistory(id.clone()))
    }

    /// Deletes every history entry (jobs stay).
    pub fn clear_history(&self) -> Ack {
        self.send(Op::ClearHistory)
    }

    /// Caches one of the service's device lists.
    pub fn save_devices(&self, list: crate::devices::DeviceList, names: Vec<String>) -> Ack {
        self.send(Op::SaveDevices {
            list,
            names,
            fetched_at: now_ms(),
        })
    }

    /// Changes the history cap (trims at once).
    pub fn set_history_limit(&self, max_entries: usize) -> Ack {
        self.send(Op::SetHistoryLimit(max_entries))
    }

    /// A tracking run's write (see `track.rs` for the order that makes runs resumable).
    pub fn track(&self, write: TrackWrite) -> Ack {
        self.send(Op::Track(write))
    }

    /// Resolves once every write queued before it is committed.
    pub fn flush(&self) -> Ack {
        self.send(Op::Barrier)
    }

    // ---- reads (sync; run them off the UI task) ----

    fn with_reader<R>(
        &self,
        read: impl FnOnce(&Connection) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        let path = &self.inner.path;
        if self.inner.reading.stopped() {
            return Err(StoreError::Closed);
        }
        let pooled = self.inner.readers.lock().ok().and_then(|mut p| p.pop());
        let conn = match pooled {
            Some(conn) => conn,
            None if self.inner.read_only => schema::open_read_only(path)?,
            None => schema::open_reader(path)?,
        };
        let result = match self.inner.reading.enter(&conn) {
            Some(_reading) => read(&conn).map_err(|e| health::note(&self.inner.health, path, e)),
            None => Err(StoreError::Closed),
        };
        if let Ok(mut pool) = self.inner.readers.lock()
            && pool.len() < READ_POOL
        {
            pool.push(conn);
        }
        result
    }

    /// Stops every read in progress (SQLite interrupts its statement) and refuses later ones
    /// with [`StoreError::Closed`]; the start-up check stops too. Writes go on. For a quitting
    /// app: a loader reading the whole store ends within moments instead of running on.
    pub fn stop_reads(&self) {
        self.inner.reading.stop();
        self.inner.checking.stop();
    }

    /// A number that changes whenever anything is committed to the file, by this process or
    /// another: cheap to read (no table is touched), so a view of stored rows can look often
    /// and read its rows again only when it changed. Blocks briefly: off the UI task.
    pub fn data_version(&self) -> Result<i64, StoreError> {
        let path = &self.inner.path;
        let mut watcher = self
            .inner
            .watcher
            .lock()
            .map_err(|_| StoreError::Sqlite("the store's watcher was poisoned".to_string()))?;
        if watcher.is_none() {
            *watcher = Some(match self.inner.read_only {
                true => schema::open_read_only(path)?,
                false => schema::open_reader(path)?,
            });
        }
        let Some(conn) = watcher.as_ref() else {
            return Err(StoreError::Closed);
        };
        conn.pragma_query_value(None, "data_version", |row| row.get(0))
            .map_err(|e| health::note(&self.inner.health, path, StoreError::from(e)))
    }

    /// Every stored job, newest first.
    pub fn list_jobs(&self) -> Result<Vec<JobRecord>, StoreError> {
        self.with_reader(|c| read::jobs(c, None))
    }

    /// Every open job and the newest `newest` others, newest first: what the app's Jobs tab
    /// holds, bounded whatever is stored.
    pub fn recent_jobs(&self, newest: usize) -> Result<Vec<JobRecord>, StoreError> {
        self.with_reader(|c| read::recent_jobs(c, newest))
    }

    /// How many jobs are stored in each state.
    pub fn job_counts(&self) -> Result<Vec<(JobState, usize)>, StoreError> {
        self.with_reader(read::job_counts)
    }

    /// The jobs in any of these states, newest first.
    pub fn jobs_in(&self, states: &[JobState]) -> Result<Vec<JobRecord>, StoreError> {
        self.with_reader(|c| read::jobs(c, Some(states)))
    }

    /// Jobs still to poll: pending or in error.
    pub fn open_jobs(&self) -> Result<Vec<JobRecord>, StoreError> {
        self.jobs_in(&[JobState::Pending, JobState::Error])
    }

    pub fn job(&self, id: &JobId) -> Result<Option<JobRecord>, StoreError> {
        self.with_reader(|c| read::job(c, id))
    }

    /// The result body of a done job.
    pub fn job_result(&self, id: &JobId) -> Result<Option<Body>, StoreError> {
        self.with_reader(|c| read::job_result(c, id))
    }

    /// A job's state changes, oldest first.
    pub fn job_events(&self, id: &JobId) -> Result<Vec<JobEvent>, StoreError> {
        self.with_reader(|c| read::job_events(c, id))
    }

    /// History entries, newest first, without bodies.
    pub fn history(&self, limit: usize, offset: usize) -> Result<Vec<HistoryItem>, StoreError> {
        self.with_reader(|c| read::history(c, limit, offset))
    }

    /// History entries whose request or answer holds every word of `query` (case and
    /// diacritics ignored; a word ending in `*` is a prefix), newest first, optionally of
    /// one kind only. An empty query finds nothing.
    pub fn search_history(
        &self,
        query: &str,
        kind: Option<RequestKind>,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<HistoryItem>, StoreError> {
        self.with_reader(|c| search::search(c, query, kind, limit, offset))
    }

    /// How many entries [`Store::search_history`] finds in all.
    pub fn search_history_len(
        &self,
        query: &str,
        kind: Option<RequestKind>,
    ) -> Result<usize, StoreError> {
        self.with_reader(|c| search::count(c, query, kind))
    }

    pub fn history_len(&self) -> Result<usize, StoreError> {
        self.with_reader(read::history_len)
    }

    /// One history entry with its request and response body.
    pub fn history_entry(&self, id: &EntryId) -> Result<Option<HistoryEntry>, StoreError> {
        self.with_reader(|c| read::history_entry(c, id))
    }

    /// The ids of the entries whose id starts with `prefix` (at most `max`), for an id typed
    /// in part.
    pub fn history_ids_starting(
        &self,
        prefix: &str,
        max: usize,
    ) -> Result<Vec<EntryId>, StoreError> {
        self.with_reader(|c| read::history_ids_starting(c, prefix, max))
    }

    /// The AI answers stored, newest first: each answered AI entry's request and body, and
    /// each answered column of a stored comparison; those stored before `since_ms` are left
    /// out, and at most `max` are read (a bound on the work whatever is stored).
    pub fn stored_ai_answers(
        &self,
        since_ms: Option<crate::jobs::UnixMs>,
        max: usize,
    ) -> Result<Vec<(crate::api::AiRequest, String)>, StoreError> {
        const PAGE: usize = 200;
        let mut answers = Vec::new();
        let mut offset = 0;
        loop {
            let items = self.history(PAGE, offset)?;
            if items.is_empty() {
                return Ok(answers);
            }
            offset += items.len();
            for item in items {
                if since_ms.is_some_and(|since| item.created_at < since) {
                    return Ok(answers);
                }
                let wanted = matches!(item.kind, RequestKind::Ai | RequestKind::Compare);
                if !wanted || item.status != Some(200) {
                    continue;
                }
                let Some(entry) = self.history_entry(&item.id)? else {
                    continue;
                };
                let Some(body) = entry.response else {
                    continue;
                };
                match entry.request {
                    RequestParams::Ai(request) => answers.push((request, body.text)),
                    // A comparison keeps each column's status and body, in its columns' order.
                    RequestParams::Compare(columns) => {
                        let stored: Vec<serde_json::Value> =
                            serde_json::from_str(&body.text).unwrap_or_default();
                        for (request, column) in columns.into_iter().zip(stored) {
                            if let (RequestParams::Ai(request), Some(200), Some(text)) =
                                (request, column["status"].as_u64(), column["body"].as_str())
                            {
                                answers.push((request, text.to_string()));
                            }
                        }
                    }
                    _ => {}
                }
                if answers.len() >= max {
                    answers.truncate(max);
                    return Ok(answers);
                }
            }
        }
    }

    /// The cached device list, if one was saved.
    pub fn load_devices(
        &self,
        list: crate::devices::DeviceList,
    ) -> Result<Option<Devices>, StoreError> {
        self.with_reader(|conn| read::devices(conn, list))
    }
}
