//! Copying what can still be read of a damaged file's tables into a new store, in a time
//! bounded whatever the file holds.
//!
//! A table is read in rowid order. Where a read fails, the next row that reads whole is found
//! by seeks (each goes straight down the tree to one row, never along the table): each rowid
//! in turn past the damage, then steps that double until one reads and halving back towards
//! the damage, so the rows just past it are not skipped. A stretch of damage costs at most
//! [`SEEKS_PER_GAP`] seeks, and every
//! statement on the damaged file stops at the [`Deadline`] (SQLite's progress handler), so a
//! b-tree whose damaged pages send a reader in circles cannot keep it reading.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, OptionalExtension, params_from_iter};

/// Rowids tried one by one past a read that failed, before longer steps.
const DENSE_SEEKS: i64 = 4_096;
/// Seeks tried past one stretch of damage at most: the rowids one by one, then 63 doubling
/// steps reach any rowid, and as many halvings find where the damage ends.
const SEEKS_PER_GAP: u32 = DENSE_SEEKS as u32 + 140;
/// Virtual-machine steps between two looks at the clock.
const STEPS_PER_LOOK: i32 = 1_000;

/// When the reading of a damaged file stops, shared with the progress handler of every
/// connection reading it.
#[derive(Clone)]
pub(super) struct Deadline {
    start: Instant,
    /// Milliseconds after `start`.
    until_ms: Arc<AtomicU64>,
}

impl Deadline {
    pub(super) fn after(budget: Duration) -> Deadline {
        let deadline = Deadline {
            start: Instant::now(),
            until_ms: Arc::default(),
        };
        deadline.extend(budget);
        deadline
    }

    /// Moves the deadline to `budget` from now.
    pub(super) fn extend(&self, budget: Duration) {
        self.since_start(self.start.elapsed().saturating_add(budget));
    }

    /// Moves the deadline to `total` after it was made.
    pub(super) fn since_start(&self, total: Duration) {
        let ms = u64::try_from(total.as_millis()).unwrap_or(u64::MAX);
        self.until_ms.store(ms, Ordering::SeqCst);
    }

    pub(super) fn passed(&self) -> bool {
        let now = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        now >= self.until_ms.load(Ordering::SeqCst)
    }

    /// Interrupts every statement `conn` runs once the deadline has passed.
    pub(super) fn watch(&self, conn: &Connection) {
        let deadline = self.clone();
        conn.progress_handler(STEPS_PER_LOOK, Some(move || deadline.passed()));
    }
}

/// What was read of one table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Salvaged {
    /// Rows written to the new store.
    pub kept: u64,
    /// Rows read whole that the new store refused (a response whose request was lost).
    pub refused: u64,
    /// Some rows could not be read.
    pub unreadable: bool,
    /// The deadline came before the table's end.
    pub stopped: bool,
}

/// A table's columns: `(name, declared type, primary-key position)`.
fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<(String, String, i64)>> {
    conn.prepare(&format!("PRAGMA table_info({table})"))?
        .query_map([], |row| Ok((row.get(1)?, row.get(2)?, row.get(5)?)))?
        .collect()
}

/// Copies the rows of `table` that read whole from `old` into `new`, keeping their rowids,
/// in the columns both have (a file of an older schema has fewer).
pub(super) fn copy_table(
    old: &Connection,
    new: &Connection,
    table: &str,
    deadline: &Deadline,
) -> rusqlite::Result<Salvaged> {
    let wanted = columns(new, table)?;
    let mut salvaged = Salvaged::default();
    let present: Vec<String> = match columns(old, table) {
        Ok(found) => found.into_iter().map(|(name, _, _)| name).collect(),
        Err(_) => {
            salvaged.unreadable = true;
            return Ok(salvaged);
        }
    };
    let names: Vec<&str> = wanted
        .iter()
        .map(|(name, _, _)| name.as_str())
        .filter(|name| present.iter().any(|p| p == name))
        .collect();
    if names.is_empty() {
        // The table is not in the file (an older schema): nothing to copy, nothing lost.
        return Ok(salvaged);
    }
    // A column that is the rowid under another name carries it already.
    let keys: Vec<_> = wanted.iter().filter(|(_, _, pk)| *pk > 0).collect();
    let aliased = matches!(keys.as_slice(), [(_, kind, _)] if kind.eq_ignore_ascii_case("INTEGER"));
    let list = names.join(", ");
    let (into, marks) = match aliased {
        true => (list.clone(), vec!["?"; names.len()].join(", ")),
        false => (
            format!("rowid, {list}"),
            vec!["?"; names.len() + 1].join(", "),
        ),
    };
    let mut insert = new.prepare(&format!(
        "INSERT OR IGNORE INTO {table} ({into}) VALUES ({marks})"
    ))?;
    let (mut kept, mut refused) = (0u64, 0u64);
    let mut copy = |row: Vec<Value>| {
        let values = if aliased { &row[1..] } else { &row[..] };
        match insert.execute(params_from_iter(values)) {
            Ok(1) => kept += 1,
            _ => refused += 1,
        }
    };
    let reader = Reader {
        old,
        // `>=` the next rowid rather than `>` the last: past a row whose pages are damaged
        // SQLite's `>` can fail where `>=` reads.
        scan: format!("SELECT rowid, {list} FROM {table} WHERE rowid >= ?1 ORDER BY rowid"),
        seek: format!("SELECT rowid, {list} FROM {table} WHERE rowid >= ?1 ORDER BY rowid LIMIT 1"),
        width: names.len() + 1,
    };
    // Rows up to `after` are read (or lost); the next scan starts past it. SQLite numbers
    // rows from 1, so the search for a first row that reads starts there, not 2^63 below.
    let first = reader.seek(i64::MIN).ok().flatten().unwrap_or(1);
    let mut after = first.saturating_sub(1).min(0);
    let mut stopped = false;
    loop {
        if deadline.passed() {
            stopped = true;
            break;
        }
        let (read_to, whole) = reader.scan_after(after, &mut copy);
        let progressed = read_to.is_some();
        after = read_to.unwrap_or(after);
        if whole {
            break;
        }
        salvaged.unreadable = true;
        match reader.next_readable(after, deadline) {
            // A row that reads alone but not in a scan from just before it is stepped over,
            // so each turn moves on.
            Some(row) if !progressed && row - 1 == after => after = row,
            Some(row) => after = row - 1,
            None => {
                stopped = deadline.passed();
                break;
            }
        }
    }
    salvaged.kept = kept;
    salvaged.refused = refused;
    salvaged.stopped = stopped;
    Ok(salvaged)
}

/// The statements that read one table of the damaged file.
struct Reader<'a> {
    old: &'a Connection,
    /// Every row after a rowid, in order.
    scan: String,
    /// The first row at or after a rowid.
    seek: String,
    /// Columns read per row, the rowid first.
    width: usize,
}

impl Reader<'_> {
    /// Every column of the row, so a row whose overflow pages are lost counts as unreadable,
    /// and so does one whose text is not UTF-8 (damage too).
    fn values(&self, row: &rusqlite::Row<'_>) -> rusqlite::Result<Vec<Value>> {
        (0..self.width)
            .map(|i| match row.get_ref(i)? {
                ValueRef::Text(bytes) => match std::str::from_utf8(bytes) {
                    Ok(text) => Ok(Value::Text(text.to_string())),
                    Err(error) => Err(rusqlite::Error::Utf8Error(error)),
                },
                other => Ok(Value::from(other)),
            })
            .collect()
    }

    /// Reads and hands on the rows after `after` until the table ends or a read fails:
    /// the last rowid read, and whether the table's end was reached.
    fn scan_after(&self, after: i64, copy: &mut impl FnMut(Vec<Value>)) -> (Option<i64>, bool) {
        let mut last = None;
        let scanned = (|| -> rusqlite::Result<()> {
            let Some(from) = after.checked_add(1) else {
                return Ok(());
            };
            let mut statement = self.old.prepare_cached(&self.scan)?;
            let mut rows = statement.query([from])?;
            while let Some(row) = rows.next()? {
                let values = self.values(row)?;
                // Rowids only ever go up: one that does not was read from a damaged page
                // (and would send the reading round in circles).
                let rowid = match values.first() {
                    Some(Value::Integer(rowid)) if *rowid > last.unwrap_or(after) => *rowid,
                    _ => return Err(rusqlite::Error::InvalidQuery),
                };
                last = Some(rowid);
                copy(values);
            }
            Ok(())
        })();
        (last, scanned.is_ok())
    }

    /// The rowid of the first row at or after `at` when the seek reads it whole: `Ok(None)`
    /// when no row is there, `Err` when the seek or the row meets damage.
    fn seek(&self, at: i64) -> rusqlite::Result<Option<i64>> {
        let mut statement = self.old.prepare_cached(&self.seek)?;
        statement
            .query_row([at], |row| {
                self.values(row)?;
                match row.get::<_, i64>(0)? {
                    rowid if rowid >= at => Ok(rowid),
                    _ => Err(rusqlite::Error::InvalidQuery),
                }
            })
            .optional()
    }

    /// The first row after `after` that reads whole, found within [`SEEKS_PER_GAP`] seeks;
    /// `None` when the table ends (or nothing more can be found in time).
    fn next_readable(&self, after: i64, deadline: &Deadline) -> Option<i64> {
        let mut seeks = 0u32;
        let mut seek = |at: i64| {
            seeks += 1;
            match seeks > SEEKS_PER_GAP || deadline.passed() {
                true => None,
                false => Some(self.seek(at)),
            }
        };
        // Rowids are dense (numbered as rows are added): past a damaged page, every one is
        // tried, so a row that reads on its own is never stepped over. A seek that reads
        // finds the first row at or after it, so nothing between is skipped either.
        let mut failed = after;
        while failed - after < DENSE_SEEKS && failed < i64::MAX {
            match seek(failed + 1)? {
                Ok(found) => return found,
                Err(_) => failed += 1,
            }
        }
        // Past a long stretch of damage (a lost interior page): steps that double until a
        // seek reads, then halving back so the rows just past the damage are kept.
        let dense_end = failed;
        let mut step: i64 = 1;
        let (mut reached, mut found) = loop {
            let at = dense_end.saturating_add(step);
            match seek(at)? {
                Ok(found) => break (at, found),
                Err(_) if at == i64::MAX => return None,
                Err(_) => {
                    failed = at;
                    step = step.saturating_mul(2);
                }
            }
        };
        while reached - failed > 1 {
            let middle = failed + (reached - failed) / 2;
            match seek(middle) {
                Some(Ok(row)) => (reached, found) = (middle, row),
                Some(Err(_)) => failed = middle,
                None => break,
            }
        }
        found
    }
}

/// How many rows `table` held, as its indexes count them (each has an entry per row): the
/// largest count any of them (or the table itself) gives whole, or `None` when none does.
pub(super) fn rows_held(old: &Connection, table: &str) -> Option<u64> {
    let indexes: Vec<String> = old
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1")
        .and_then(|mut statement| {
            statement
                .query_map([table], |row| row.get(0))?
                .collect::<rusqlite::Result<Vec<String>>>()
        })
        .unwrap_or_default();
    let whole = std::iter::once(format!("SELECT count(*) FROM {table}"));
    let through = indexes
        .iter()
        .map(|index| format!("SELECT count(*) FROM {table} INDEXED BY \"{index}\""));
    whole
        .chain(through)
        .filter_map(|sql| old.query_row(&sql, [], |row| row.get::<_, i64>(0)).ok())
        .filter_map(|n| u64::try_from(n).ok())
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_interrupts_a_statement_that_would_never_end() {
        let conn = Connection::open_in_memory().unwrap();
        let deadline = Deadline::after(Duration::from_millis(200));
        deadline.watch(&conn);
        let started = Instant::now();
        let endless = conn.query_row(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
             SELECT count(*) FROM c",
            [],
            |row| row.get::<_, i64>(0),
        );
        assert!(endless.is_err());
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(deadline.passed());
        deadline.extend(Duration::from_secs(60));
        assert!(!deadline.passed());
    }
}
