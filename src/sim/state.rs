//! The simulator's state in a file every `--demo` process on the machine shares: its jobs,
//! its balance and its usage, in SQLite (which serialises writers across processes). Each
//! demo process serves on its own port, but they are one simulated service, as the live one
//! is one service to every client: a job one process queued is polled to its end by any
//! other, and the balance and usage are the same in all of them.
//!
//! A session of the demo starts with the balance topped up when it had fallen below a tenth
//! of the configured credits, so that a demo kept for weeks never runs dry.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use super::jobs::Job;
use super::lock;

/// How long a write waits for another process's.
const BUSY: Duration = Duration::from_secs(5);

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS jobs (
        id   TEXT PRIMARY KEY,
        job  TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS balance (
        one      INTEGER PRIMARY KEY CHECK (one = 1),
        credits  INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS usage (
        hour       INTEGER NOT NULL,
        service    TEXT NOT NULL,
        succeeded  INTEGER NOT NULL,
        calls      INTEGER NOT NULL,
        credits    INTEGER NOT NULL,
        secs       REAL NOT NULL,
        PRIMARY KEY (hour, service, succeeded)
    ) WITHOUT ROWID;
";

/// One row of usage: the hour, the service, whether the calls succeeded, and what they were.
pub(crate) type UsageRow = (i64, String, bool, u64, u64, f64);

pub(crate) struct SharedState {
    conn: Mutex<Connection>,
}

impl SharedState {
    /// Opens (or makes) the file; `credits` is the balance a new file starts with, and what a
    /// low balance is topped up to.
    pub(crate) fn open(path: &Path, credits: u64) -> rusqlite::Result<SharedState> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(parent);
        }
        let conn = Connection::open(path)?;
        conn.busy_timeout(BUSY)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.execute_batch(SCHEMA)?;
        let credits = i64::try_from(credits).unwrap_or(i64::MAX);
        conn.execute(
            "INSERT INTO balance (one, credits) VALUES (1, ?1)
             ON CONFLICT (one) DO UPDATE SET credits = ?1 WHERE credits < ?1 / 10",
            [credits],
        )?;
        Ok(SharedState {
            conn: Mutex::new(conn),
        })
    }

    /// [`SharedState::open`]; a file that is not one is set aside (`.corrupt`) and a new one
    /// made; `None` when even that fails (the simulator then keeps its state in memory).
    pub(crate) fn open_or_set_aside(path: &Path, credits: u64) -> Option<SharedState> {
        match SharedState::open(path, credits) {
            Ok(state) => return Some(state),
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "simulator state unreadable; set aside");
            }
        }
        let mut aside = path.as_os_str().to_owned();
        aside.push(".corrupt");
        let _ = std::fs::rename(path, std::path::PathBuf::from(aside));
        for suffix in ["-wal", "-shm"] {
            let mut side = path.as_os_str().to_owned();
            side.push(suffix);
            let _ = std::fs::remove_file(std::path::PathBuf::from(side));
        }
        SharedState::open(path, credits)
            .map_err(|error| tracing::warn!(%error, "simulator state not kept"))
            .ok()
    }

    pub(crate) fn put_job(&self, job: &Job) {
        let Ok(text) = serde_json::to_string(job) else {
            return;
        };
        let conn = lock(&self.conn);
        if let Err(error) = conn.execute(
            "INSERT OR REPLACE INTO jobs (id, job) VALUES (?1, ?2)",
            params![job.id, text],
        ) {
            tracing::warn!(%error, "the simulator could not keep a job");
        }
    }

    pub(crate) fn job(&self, id: &str) -> Option<Job> {
        let conn = lock(&self.conn);
        let text: Option<String> = conn
            .query_row("SELECT job FROM jobs WHERE id = ?1", [id], |r| r.get(0))
            .optional()
            .ok()
            .flatten();
        serde_json::from_str(&text?).ok()
    }

    /// Every job's query pairs, for tests that count submissions.
    pub(crate) fn jobs(&self) -> Vec<Job> {
        let conn = lock(&self.conn);
        let Ok(mut statement) = conn.prepare("SELECT job FROM jobs") else {
            return Vec::new();
        };
        statement
            .query_map([], |r| r.get::<_, String>(0))
            .map(|rows| {
                rows.filter_map(|text| serde_json::from_str(&text.ok()?).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    pub(crate) fn credits(&self) -> u64 {
        let conn = lock(&self.conn);
        conn.query_row("SELECT credits FROM balance WHERE one = 1", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_or(0, |c| u64::try_from(c).unwrap_or(0))
    }

    pub(crate) fn set_credits(&self, credits: u64) {
        let conn = lock(&self.conn);
        let _ = conn.execute(
            "UPDATE balance SET credits = ?1 WHERE one = 1",
            [i64::try_from(credits).unwrap_or(i64::MAX)],
        );
    }

    /// Takes `price` from the balance in one transaction, whatever other process bills at
    /// the same time; what it took (less than the price when the balance was short).
    pub(crate) fn charge(&self, price: u64) -> u64 {
        let mut conn = lock(&self.conn);
        let charged = || -> rusqlite::Result<u64> {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let before: i64 =
                tx.query_row("SELECT credits FROM balance WHERE one = 1", [], |r| {
                    r.get(0)
                })?;
            let before = u64::try_from(before).unwrap_or(0);
            let taken = before.min(price);
            tx.execute(
                "UPDATE balance SET credits = ?1 WHERE one = 1",
                [i64::try_from(before - taken).unwrap_or(0)],
            )?;
            tx.commit()?;
            Ok(taken)
        }();
        charged.unwrap_or_else(|error| {
            tracing::warn!(%error, "the simulator could not bill a call");
            0
        })
    }

    pub(crate) fn record_usage(
        &self,
        hour: i64,
        service: &str,
        succeeded: bool,
        credits: u64,
        secs: f64,
    ) {
        let conn = lock(&self.conn);
        let _ = conn.execute(
            "INSERT INTO usage (hour, service, succeeded, calls, credits, secs)
             VALUES (?1, ?2, ?3, 1, ?4, ?5)
             ON CONFLICT (hour, service, succeeded) DO UPDATE SET
                 calls = calls + 1, credits = credits + excluded.credits, secs = secs + excluded.secs",
            params![
                hour,
                service,
                succeeded,
                i64::try_from(credits).unwrap_or(i64::MAX),
                secs
            ],
        );
    }

    pub(crate) fn usage(&self) -> Vec<UsageRow> {
        let conn = lock(&self.conn);
        let Ok(mut statement) =
            conn.prepare("SELECT hour, service, succeeded, calls, credits, secs FROM usage")
        else {
            return Vec::new();
        };
        statement
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, bool>(2)?,
                    u64::try_from(r.get::<_, i64>(3)?).unwrap_or(0),
                    u64::try_from(r.get::<_, i64>(4)?).unwrap_or(0),
                    r.get::<_, f64>(5)?,
                ))
            })
            .map(|rows| rows.filter_map(Result::ok).collect())
            .unwrap_or_default()
    }
}

/// The balance: a simulator's own, or the one every demo process shares.
pub(crate) enum Balance {
    Own(std::sync::atomic::AtomicU64),
    Shared(std::sync::Arc<SharedState>),
}

impl Balance {
    pub(crate) fn new(credits: u64, shared: Option<std::sync::Arc<SharedState>>) -> Balance {
        match shared {
            Some(shared) => Balance::Shared(shared),
            None => Balance::Own(std::sync::atomic::AtomicU64::new(credits)),
        }
    }

    pub(crate) fn get(&self) -> u64 {
        match self {
            Balance::Own(credits) => credits.load(std::sync::atomic::Ordering::SeqCst),
            Balance::Shared(shared) => shared.credits(),
        }
    }

    pub(crate) fn set(&self, credits: u64) {
        match self {
            Balance::Own(own) => own.store(credits, std::sync::atomic::Ordering::SeqCst),
            Balance::Shared(shared) => shared.set_credits(credits),
        }
    }

    /// Takes `price`, or what is left when the balance is short; what it took.
    pub(crate) fn charge(&self, price: u64) -> u64 {
        use std::sync::atomic::Ordering;
        match self {
            Balance::Own(credits) => credits
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |c| {
                    Some(c.saturating_sub(price))
                })
                .unwrap_or_else(|c| c)
                .min(price),
            Balance::Shared(shared) => shared.charge(price),
        }
    }
}
