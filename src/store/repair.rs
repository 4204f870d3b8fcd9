//! Finding damage in the database file, and recovering what can still be read of it.
//! Neither ever writes to the file it examines: recovery writes a new store, then gives it
//! the old file's name and keeps the old file aside.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;

use super::pages;
use super::salvage::{self, Deadline};
use super::schema;
use super::{StoreError, now_ms};

/// The tables [`recover`] copies row by row, parents before children (so that references
/// hold): what the user made and paid for. The others are made again from these: the
/// full-text index (`history_text`) and the list of answers discovery has to read by
/// triggers as rows are copied; discovery's names (`answer_reads`, `answer_names`,
/// `name_totals`, `names_rules`) by the next discovery; a set's readings, tallies and final
/// counts (`track_reading_lists`, `track_readings`, `track_reading_brands`, `track_tallies`,
/// `track_run_counts`) by the next look at the set (`track::stored`); the calls in flight
/// (`calls_out`): their processes are gone, and an entry left without an answer says so.
pub const KEPT_TABLES: [&str; 12] = [
    "requests",
    "responses",
    "jobs",
    "job_results",
    "job_events",
    "devices",
    "track_runs",
    "track_items",
    "track_imports",
    "track_runs_imported",
    "webhook_deliveries",
    "grid_columns",
];

/// What a recovered History entry without its answer (and without a job to bring it) says.
const LOST_ANSWER: &str = "No answer was kept: it was lost with the damaged part of the history database, or the call was cut short before it came.";

/// Problems reported at most, from either check.
const MAX_PROBLEMS: u32 = 100;

/// Time a recovery may read the damaged file: this much, plus a second per
/// [`BYTES_PER_SECOND`] of it; the whole copy may take half of it, the row-by-row one the
/// rest (and [`COUNT_BUDGET`] more).
const BASE_BUDGET: Duration = Duration::from_secs(6);
const BYTES_PER_SECOND: u64 = 4 << 20;
/// Time the counts of the tables' rows may take at least (a quarter of the budget for a
/// large file), before the row-by-row copy.
const COUNT_BUDGET: Duration = Duration::from_secs(2);

/// What `integrity_check` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    pub path: PathBuf,
    /// SQLite's own lines, one problem each; empty when the file is whole.
    pub problems: Vec<String>,
    /// Rows that cannot be read as their type (at most a hundred named)...
    pub poisoned: Vec<super::PoisonedRow>,
    /// ...and how many there are in all.
    pub poisoned_total: usize,
}

impl CheckReport {
    pub fn is_whole(&self) -> bool {
        self.problems.is_empty() && self.poisoned_total == 0
    }
}

/// What [`recover`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoverReport {
    /// The store's file, which now holds what was recovered.
    pub path: PathBuf,
    /// The damaged file, kept as it was under this name (its `-wal` beside it).
    pub aside: PathBuf,
    /// SQLite copied the whole file in one go: it was readable throughout.
    pub whole: bool,
    /// Why nothing at all could be read, when nothing could (the file is not a database).
    pub unreadable: Option<String>,
    /// The reading stopped at its time bound before every table was read to its end.
    pub stopped: bool,
    /// Per table of [`KEPT_TABLES`].
    pub tables: Vec<TableCopy>,
    /// Rows left out because they cannot be read as their type (see `store check`).
    pub left_out: Vec<super::PoisonedRow>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCopy {
    pub table: &'static str,
    /// Rows in the new store.
    pub kept: u64,
    /// Rows the damaged file held that are not in the new one (unreadable, or no longer
    /// fitting, e.g. a response whose request was lost); `None` when the file no longer
    /// says how many it held.
    pub lost: Option<u64>,
}

/// `PRAGMA quick_check`'s lines ("ok" alone when the file is whole).
pub(super) fn quick_check_lines(conn: &Connection) -> Result<Vec<String>, StoreError> {
    pragma_lines(conn, "quick_check")
}

fn pragma_lines(conn: &Connection, pragma: &str) -> Result<Vec<String>, StoreError> {
    let mut statement = conn.prepare(&format!("PRAGMA {pragma}({MAX_PROBLEMS})"))?;
    let lines = statement
        .query_map([], |row| row.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(lines)
}

/// The damage a check's lines describe, in a few words, or `None` for "ok".
pub(super) fn damage_in(lines: Vec<String>) -> Option<String> {
    if lines.len() == 1 && lines[0] == "ok" {
        return None;
    }
    let first = lines.first().cloned().unwrap_or_else(|| "no answer".into());
    Some(match lines.len() {
        0 | 1 => first,
        n => format!("{first}, and {} more problems", n - 1),
    })
}

/// `PRAGMA integrity_check` over the file opened read-only.
pub fn check(path: &Path) -> Result<CheckReport, StoreError> {
    let report = |problems| CheckReport {
        path: path.to_path_buf(),
        problems,
        poisoned: Vec::new(),
        poisoned_total: 0,
    };
    let conn = match schema::open_read_only(path) {
        Ok(conn) => conn,
        Err(StoreError::Damaged { detail, .. }) => return Ok(report(vec![detail])),
        Err(error) => return Err(error),
    };
    let budget = budget_for(path);
    let deadline = Deadline::after(budget);
    deadline.watch(&conn);
    match pragma_lines(&conn, "integrity_check") {
        Ok(lines) if lines.len() == 1 && lines[0] == "ok" => {
            // A whole file may still hold rows no reader can take.
            let mut whole = report(Vec::new());
            match super::poison::find(&conn, now_ms()) {
                Ok((named, total)) => {
                    whole.poisoned = named;
                    whole.poisoned_total = total;
                }
                Err(error) => whole
                    .problems
                    .push(format!("its rows could not all be read: {error}")),
            }
            Ok(whole)
        }
        Ok(lines) => Ok(report(lines)),
        Err(StoreError::Damaged { detail, .. }) => Ok(report(vec![detail])),
        // A file whose damage sends the check round in circles is damaged all the same.
        Err(_) if deadline.passed() => Ok(report(vec![format!(
            "the check did not end within {} s",
            budget.as_secs()
        )])),
        Err(error) => Err(error.at(path)),
    }
}

/// Copies what can be read from `path` into a new store, then moves the damaged file aside
/// (with its `-wal`) and gives the new store its name. First SQLite's `VACUUM INTO`, which
/// copies a readable file whole; when that fails, the tables of [`KEPT_TABLES`] row by row,
/// stepping over what cannot be read ([`salvage`]). Bounded in time by the file's size
/// whatever it holds; a file that is no database at all leaves an empty store in its place.
pub fn recover(path: &Path) -> Result<RecoverReport, StoreError> {
    let holders = super::sessions::holders(path);
    if !holders.is_empty() {
        return Err(StoreError::InUse {
            path: path.to_path_buf(),
            holders: holders.join(", "),
        });
    }
    let folder = path.parent().unwrap_or(Path::new("."));
    let budget = budget_for(path);
    let stamp = now_ms() / 1000;
    let to = free_name(folder, "vantage-recovering", stamp);
    let mut report = RecoverReport {
        path: path.to_path_buf(),
        aside: free_name(folder, "vantage-damaged", stamp),
        whole: false,
        unreadable: None,
        stopped: false,
        tables: Vec::new(),
        left_out: Vec::new(),
    };
    let old = match schema::open_damaged(path) {
        Ok(old) => Some(old),
        Err(StoreError::Damaged { detail, .. }) => {
            report.unreadable = Some(detail);
            None
        }
        Err(error) => return Err(error),
    };
    let deadline = Deadline::after(budget / 2);
    if let Some(old) = &old {
        deadline.watch(old);
        report.whole = copy_whole(old, &to);
    }
    if !report.whole {
        remove_with_journal(&to);
        let mut new = schema::open_writer(&to)?;
        if let Some(old) = &old {
            report.tables = copy_rows(path, old, &mut new, &deadline, budget, &mut report.stopped)
                .map_err(|e| StoreError::from(e).at(&to))?;
        }
        super::sessions::answer_unanswered(&new, LOST_ANSWER)
            .map_err(|e| StoreError::from(e).at(&to))?;
        // One file, no log beside it: it is about to take the old one's name.
        new.pragma_update_and_check(None, "journal_mode", "DELETE", |_| Ok(()))
            .map_err(|e| StoreError::from(e).at(&to))?;
    }
    // What no reader can take is not carried into the new store.
    {
        let new = schema::open_writer(&to)?;
        report.left_out =
            super::poison::remove(&new, now_ms()).map_err(|e| StoreError::from(e).at(&to))?;
        // One file, no log beside it: it is about to take the old one's name.
        new.pragma_update_and_check(None, "journal_mode", "DELETE", |_| Ok(()))
            .map_err(|e| StoreError::from(e).at(&to))?;
    }
    let new = schema::open_read_only(&to)?;
    let kept = |table: &str| -> u64 {
        new.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| {
            r.get::<_, i64>(0)
        })
        .map_or(0, |n| u64::try_from(n).unwrap_or(0))
    };
    // Copied whole or from nothing: the new store's own counts.
    if report.tables.is_empty() {
        report.tables = KEPT_TABLES
            .iter()
            .map(|table| TableCopy {
                table,
                kept: kept(table),
                lost: report.whole.then_some(0),
            })
            .collect();
    }
    drop(new);
    drop(old);
    swap(path, &to, &report.aside)?;
    Ok(report)
}

/// The time a recovery may read `path`, by its size and its log's.
fn budget_for(path: &Path) -> Duration {
    let size = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        std::fs::metadata(PathBuf::from(name)).map_or(0, |m| m.len())
    };
    let bytes = size("") + size("-wal");
    BASE_BUDGET + Duration::from_secs(bytes / BYTES_PER_SECOND)
}

/// SQLite's own copy of the whole file, checked: true when it is whole.
fn copy_whole(old: &Connection, to: &Path) -> bool {
    let to_text = to.to_string_lossy().into_owned();
    old.execute("VACUUM INTO ?1", [&to_text]).is_ok() && check(to).is_ok_and(|c| c.is_whole())
}

/// The tables of [`KEPT_TABLES`] copied row by row from `old` into `new`, in one
/// transaction, each counted against what the damaged file held: first through its tree
/// ([`salvage`]), then, when its indexes know of rows the tree did not give, from the file's
/// pages ([`pages`]). The copy may read until `budget` after the recovery began.
fn copy_rows(
    path: &Path,
    old: &Connection,
    new: &mut Connection,
    deadline: &Deadline,
    budget: Duration,
    stopped: &mut bool,
) -> rusqlite::Result<Vec<TableCopy>> {
    // The counts read only indexes: a little time of their own.
    let counting = COUNT_BUDGET.max(budget / 4);
    deadline.extend(counting);
    let held: Vec<Option<u64>> = KEPT_TABLES
        .iter()
        .map(|table| salvage::rows_held(old, table))
        .collect();
    deadline.since_start(budget + counting);
    let tx = new.transaction()?;
    let mut copied = Vec::new();
    for (table, held) in KEPT_TABLES.into_iter().zip(held) {
        let salvaged = salvage::copy_table(old, &tx, table, deadline)?;
        *stopped |= salvaged.stopped;
        let mut kept = salvaged.kept;
        if held.is_some_and(|held| held > kept) {
            kept += pages::copy_from_pages(path, old, &tx, table, deadline)?;
            *stopped |= deadline.passed();
        }
        copied.push(TableCopy {
            table,
            kept,
            lost: held.map(|held| held.saturating_sub(kept)),
        });
    }
    tx.commit()?;
    Ok(copied)
}

/// `<prefix>-<unix seconds>.db` in `folder`, never one that exists.
fn free_name(folder: &Path, prefix: &str, stamp: i64) -> PathBuf {
    (0..)
        .map(|n| match n {
            0 => folder.join(format!("{prefix}-{stamp}.db")),
            n => folder.join(format!("{prefix}-{stamp}-{n}.db")),
        })
        .find(|candidate| {
            !with_suffix(candidate, "").exists() && !with_suffix(candidate, "-wal").exists()
        })
        .unwrap_or_else(|| folder.join(format!("{prefix}.db")))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The companions SQLite keeps beside a database file.
const COMPANIONS: [&str; 3] = ["-wal", "-shm", "-journal"];

fn remove_with_journal(path: &Path) {
    for suffix in std::iter::once("").chain(COMPANIONS) {
        let _ = std::fs::remove_file(with_suffix(path, suffix));
    }
}

/// Moves the damaged file and its companions to `aside`, then the new store to `path`; a
/// step that fails puts back what was moved, so the store's name never points at nothing.
fn swap(path: &Path, new: &Path, aside: &Path) -> Result<(), StoreError> {
    let failed = |error: std::io::Error| StoreError::Open {
        path: path.to_path_buf(),
        reason: format!(
            "the recovered copy {} could not take its place: {error}",
            new.display()
        ),
    };
    let mut moved: Vec<(PathBuf, PathBuf)> = Vec::new();
    let put_back = |moved: &[(PathBuf, PathBuf)]| {
        for (from, to) in moved.iter().rev() {
            let _ = std::fs::rename(to, from);
        }
    };
    for suffix in COMPANIONS.iter().copied().chain(std::iter::once("")) {
        let from = with_suffix(path, suffix);
        if !from.exists() {
            continue;
        }
        let to = with_suffix(aside, suffix);
        if let Err(error) = std::fs::rename(&from, &to) {
            put_back(&moved);
            return Err(failed(error));
        }
        moved.push((from, to));
    }
    if let Err(error) = std::fs::rename(new, path) {
        put_back(&moved);
        return Err(failed(error));
    }
    Ok(())
}

/// `quick_check` on a connection of its own (see `Store::quick_check`), which never
/// checkpoints on closing: the file may be damaged, and the writer's connection tidies the
/// log. `checking` stops it when the store closes.
pub(super) fn check_beside(
    path: &Path,
    read_only: bool,
    checking: &super::closing::Interrupts,
) -> Result<(), StoreError> {
    let conn = match read_only {
        true => schema::open_read_only(path)?,
        false => schema::open_reader(path)?,
    };
    let _ = conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
        true,
    );
    let lines = {
        let Some(_running) = checking.enter(&conn) else {
            return Err(StoreError::Closed);
        };
        quick_check_lines(&conn)?
    };
    damage_in(lines).map_or(Ok(()), |detail| {
        Err(StoreError::Damaged {
            path: PathBuf::new(),
            detail,
        })
    })
}
