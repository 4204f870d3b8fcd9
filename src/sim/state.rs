//! The simulator's state in a file every `--demo` process on the machine shares: its jobs,
//! its balance and its usage, in SQLite (which serialises writers across processes). Each
//! demo process serves on its own port, but they are one simulated service, as the live one
//! is one service to every client: a job one process queued is polled to its end by any
//! other, and the balance and usage are the same in all of them.
//!
//! A session of the demo starts with the balance topped up when it had fallen below a tenth
//! of the configured credits, so that a demo kept for weeks never runs dry.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
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
    path: PathBuf,
    /// The balance a new file starts with, and what a low balance is topped up to.
    credits: u64,
    /// Opened at the first use, off the start-up path; `None` when it could not be (the
    /// simulator then goes on alone, its balance in `fallback`).
    conn: OnceLock<Option<Mutex<Connection>>>,
    fallback: AtomicU64,
}

impl SharedState {
    /// The state in `path`, opened (or made) when first used.
    pub(crate) fn at(path: &Path, credits: u64) -> SharedState {
        SharedState {
            path: path.to_path_buf(),
            credits,
            conn: OnceLock::new(),
            fallback: AtomicU64::new(credits),
        }
    }

    fn connect(path: &Path, credits: u64) -> rusqlite::Result<Connection> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(parent);
        }
        let conn = Connection::open(path)?;
        conn.busy_timeout(BUSY)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // A simulated service's state: a crash may lose the last job, never the file.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.execute_batch(SCHEMA)?;
        let credits = i64::try_from(credits).unwrap_or(i64::MAX);
        conn.execute(
            "INSERT INTO balance (one, credits) VALUES (1, ?1)
             ON CONFLICT (one) DO UPDATE SET credits = ?1 WHERE credits < ?1 / 10",
            [credits],
        )?;
        Ok(conn)
    }

    /// The file's connection; a file that is not a database is set aside (`.corrupt`) and a
    /// new one made.
    fn connection(&self) -> Option<MutexGuard<'_, Connection>> {
        let opened = self.conn.get_or_init(|| {
            let path = &self.path;
            match SharedState::connect(path, self.credits) {
                Ok(conn) => return Some(Mutex::new(conn)),
                Err(error) => {
                    tracing::warn!(path = %path.display(), %error, "simulator state unreadable; set aside");
                }
            }
            let beside = |suffix: &str| {
                let mut name = path.as_os_str().to_owned();
                name.push(suffix);
                PathBuf::from(name)
            };
            let _ = std::fs::rename(path, beside(".corrupt"));
            for suffix in ["-wal", "-shm"] {
                let _ = std::fs::remove_file(beside(suffix));
            }
            SharedState::connect(path, self.credits)
                .map_err(|error| tracing::warn!(%error, "simulator state not kept"))
                .ok()
                .map(Mutex::new)
        });
        opened.as_ref().map(lock)
    }

    pub(crate) fn put_job(&self, job: &Job) {
        let Ok(text) = serde_json::to_string(job) else {
            return;
        };
        let Some(conn) = self.connection() else {
            return;
        };
        if let Err(error) = conn.execute(
            "INSERT OR REPLACE INTO jobs (id, job) VALUES (?1, ?2)",
            params![job.id, text],
        ) {
            tracing::warn!(%error, "the simulator could not keep a job");
        }
    }

    pub(crate) fn job(&self, id: &str) -> Option<Job> {
        let conn = self.connection()?;
        let text: Option<String> = conn
            .query_row("SELECT job FROM jobs WHERE id = ?1", [id], |r| r.get(0))
            .optional()
            .ok()
            .flatten();
        serde_json::from_str(&text?).ok()
    }

    /// Every job's query pairs, for tests that count submissions.
    pub(crate) fn jobs(&self) -> Vec<Job> {
        let Some(conn) = self.connection() else {
            return Vec::new();
        };
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
        let Some(conn) = self.connection() else {
            return self.fallback.load(Ordering::SeqCst);
        };
        conn.query_row("SELECT credits FROM balance WHERE one = 1", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_or(0, |c| u64::try_from(c).unwrap_or(0))
    }

    pub(crate) fn set_credits(&self, credits: u64) {
        let Some(conn) = self.connection() else {
            self.fallback.store(credits, Ordering::SeqCst);
            return;
        };
        let _ = conn.execute(
            "UPDATE balance SET credits = ?1 WHERE one = 1",
            [i64::try_from(credits).unwrap_or(i64::MAX)],
        );
    }

    /// Takes `price` from the balance in one transaction, whatever other process bills at
    /// the same time; what it took (less than the price when the balance was short).
    pub(crate) fn charge(&self, price: u64) -> u64 {
        let Some(mut conn) = self.connection() else {
            return take(&self.fallback, price);
        };
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
        let Some(conn) = self.connection() else {
            return;
        };
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
        let Some(conn) = self.connection() else {
            return Vec::new();
        };
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
        match self {
            Balance::Own(credits) => take(credits, price),
            Balance::Shared(shared) => shared.charge(price),
        }
    }
}

/// Takes `price` from `credits` (what is left when they are short); what it took.
fn take(credits: &AtomicU64, price: u64) -> u64 {
    credits
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |c| {
            Some(c.saturating_sub(price))
        })
        .unwrap_or_else(|c| c)
        .min(price)
}
