//! Finding damage in the database file, and copying what can still be read into a new one.
//! Neither ever writes to the file it examines.

use std::path::{Path, PathBuf};

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params_from_iter};

use super::schema;
use super::{StoreError, now_ms};

/// The tables copied by [`recover`], parents before children (so that references hold).
const TABLES: [&str; 8] = [
    "requests",
    "responses",
    "jobs",
    "job_results",
    "job_events",
    "devices",
    "track_runs",
    "track_items",
];

/// Problems reported at most, from either check.
const MAX_PROBLEMS: u32 = 100;

/// What `integrity_check` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    pub path: PathBuf,
    /// SQLite's own lines, one problem each; empty when the file is whole.
    pub problems: Vec<String>,
}

impl CheckReport {
    pub fn is_whole(&self) -> bool {
        self.problems.is_empty()
    }
}

/// What [`recover`] copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoverReport {
    /// The file read, left as it was.
    pub from: PathBuf,
    /// The new file.
    pub to: PathBuf,
    /// True when SQLite copied the whole file in one go (it was readable throughout).
    pub whole: bool,
    /// Row by row, per table, when it was not.
    pub tables: Vec<TableCopy>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCopy {
    pub table: &'static str,
    /// Rows written to the new file.
    pub copied: u64,
    /// True when some rows could not be read (or no longer fitted, e.g. a response whose
    /// request was lost).
    pub lost_some: bool,
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
    };
    let conn = match schema::open_read_only(path) {
        Ok(conn) => conn,
        Err(StoreError::Damaged { detail, .. }) => return Ok(report(vec![detail])),
        Err(error) => return Err(error),
    };
    match pragma_lines(&conn, "integrity_check") {
        Ok(lines) if lines.len() == 1 && lines[0] == "ok" => Ok(report(Vec::new())),
        Ok(lines) => Ok(report(lines)),
        Err(StoreError::Damaged { detail, .. }) => Ok(report(vec![detail])),
        Err(error) => Err(error.at(path)),
    }
}

/// Writes what can be read from `path` into a new file beside it. First SQLite's
/// `VACUUM INTO`, which copies a readable file whole; when that fails, table by table and
/// row by row, stepping over the rows that cannot be read.
pub fn recover(path: &Path) -> Result<RecoverReport, StoreError> {
    let old = schema::open_read_only(path)?;
    let to = free_name(path);
    let to_text = to.to_string_lossy().into_owned();
    let mut report = RecoverReport {
        from: path.to_path_buf(),
        to: to.clone(),
        whole: false,
        tables: Vec::new(),
    };
    if old.execute("VACUUM INTO ?1", [&to_text]).is_ok() && check(&to).is_ok_and(|c| c.is_whole()) {
        report.whole = true;
        return Ok(report);
    }
    remove_with_journal(&to);
    let mut new = schema::open_writer(&to)?;
    let tx = new.transaction()?;
    for table in TABLES {
        report.tables.push(copy_table(&old, &tx, table)?);
    }
    tx.commit()?;
    Ok(report)
}

/// `vantage-recovered-<unix seconds>.db` beside the file, never one that exists.
fn free_name(path: &Path) -> PathBuf {
    let folder = path.parent().unwrap_or(Path::new("."));
    let stamp = now_ms() / 1000;
    (0..)
        .map(|n| match n {
            0 => folder.join(format!("vantage-recovered-{stamp}.db")),
            n => folder.join(format!("vantage-recovered-{stamp}-{n}.db")),
        })
        .find(|candidate| !candidate.exists())
        .unwrap_or_else(|| folder.join("vantage-recovered.db"))
}

fn remove_with_journal(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(name));
    }
}

/// Copies one table in rowid order. When a read fails, the next readable row is found by
/// probing ever further ahead, so one damaged page costs its own rows and few others.
fn copy_table(
    old: &Connection,
    new: &Connection,
    table: &'static str,
) -> rusqlite::Result<TableCopy> {
    let columns: Vec<String> = new
        .prepare(&format!("PRAGMA table_info({table})"))?
        .query_map([], |row| row.get::<_, String>(1))?
        .collect::<Result<_, _>>()?;
    let list = columns.join(", ");
    let marks = vec!["?"; columns.len()].join(", ");
    let mut insert = new.prepare(&format!(
        "INSERT OR IGNORE INTO {table} ({list}) VALUES ({marks})"
    ))?;
    let scan = format!("SELECT rowid, {list} FROM {table} WHERE rowid > ?1 ORDER BY rowid");
    let mut copy = TableCopy {
        table,
        copied: 0,
        lost_some: false,
    };
    let mut after: i64 = 0;
    loop {
        let scanned = (|| -> rusqlite::Result<()> {
            let mut statement = old.prepare(&scan)?;
            let mut rows = statement.query([after])?;
            while let Some(row) = rows.next()? {
                let values = (1..=columns.len())
                    .map(|i| row.get::<_, Value>(i))
                    .collect::<Result<Vec<_>, _>>()?;
                after = row.get(0)?;
                match insert.execute(params_from_iter(values)) {
                    Ok(1) => copy.copied += 1,
                    _ => copy.lost_some = true,
                }
            }
            Ok(())
        })();
        if scanned.is_ok() {
            return Ok(copy);
        }
        copy.lost_some = true;
        match next_readable(old, table, &list, after) {
            Some(rowid) => after = rowid - 1,
            None => return Ok(copy),
        }
    }
}

/// The first row after `after` that reads whole, probing at `after` + 1, 2, 4, 8, …
fn next_readable(old: &Connection, table: &str, list: &str, after: i64) -> Option<i64> {
    let probe_sql =
        format!("SELECT rowid, {list} FROM {table} WHERE rowid >= ?1 ORDER BY rowid LIMIT 1");
    let mut step: i64 = 1;
    loop {
        let probe = after.checked_add(step)?;
        let found = old.query_row(&probe_sql, [probe], |row| {
            // Every column is read, so a row whose overflow pages are lost is skipped too.
            for i in 1..row.as_ref().column_count() {
                row.get::<_, Value>(i)?;
            }
            row.get::<_, i64>(0)
        });
        match found.optional() {
            Ok(Some(rowid)) => return Some(rowid),
            Ok(None) => return None,
            Err(_) => step = step.checked_mul(2)?,
        }
    }
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
