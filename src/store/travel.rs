//! A set's whole history as JSON Lines, and that history merged into another store: every
//! run, call, job and result, row by row. Rows already here are recognised by their keys
//! (a run's id, a call's run and number, a job's id) and kept as they are, so importing the
//! same file twice, or a file that overlaps this store, stores nothing twice.
//!
//! Both ways run in constant memory whatever the set's size: an export hands each line to
//! its writer as the row is read, inside one read transaction (so the file is one moment of
//! the store); an import reads its file a line at a time into [`Batches`] bounded in rows
//! and bytes, each written in one transaction of the writer. An imported job gets its
//! History entry as a job of a run made here does, answered by its result (`entries.rs`).

use std::io::BufRead;

use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, OptionalExtension, params_from_iter};
use serde_json::{Map, Value};

use super::{Store, StoreError};

/// The first line of an export: what it is, for `import` to recognise.
pub const FORMAT: &str = "vantage-track-export";
/// 2: the readings of the answers travel with them (an export of version 1 has none, and
/// its answers are read again where it is imported).
pub const VERSION: u64 = 2;

/// Rows written per transaction of an import at most.
pub const ROWS_PER_WRITE: usize = 2_000;
/// Bytes of lines written per transaction at most (a batch closes once it holds this many;
/// answers of several hundred KB each keep a batch of them small).
pub const BYTES_PER_WRITE: usize = 8 << 20;
/// The longest line an import reads: far above any answer the service sends.
pub const MAX_LINE: usize = 64 << 20;

/// The runs an import brought in before all of their calls (its file was cut short, or the
/// import stopped): each is left out of every view and of exports, so none shows calls as
/// unsent that are only not here yet, until an import brings the rest (a run made here
/// always has all of its calls).
pub(super) const PARTS_MIGRATION: &str = "
    CREATE TABLE track_imports (
        run_id  TEXT PRIMARY KEY REFERENCES track_runs (id) ON DELETE CASCADE
    );
";

/// Every run an import brought in, whole or not: such a run is never resumed and none of
/// its calls is ever sent from here (its calls were someone else's to make).
pub(super) const IMPORTED_MIGRATION: &str = "
    CREATE TABLE track_runs_imported (
        run_id  TEXT PRIMARY KEY REFERENCES track_runs (id) ON DELETE CASCADE
    );
    INSERT INTO track_runs_imported (run_id) SELECT run_id FROM track_imports;
";

/// The tables a set's history lives in, their columns, and the key that recognises a row.
pub(super) const TABLES: [(&str, &[&str]); 5] = [
    ("track_runs", &["id", "set_name", "started_at", "planned"]),
    (
        "jobs",
        &[
            "id",
            "kind",
            "request",
            "summary",
            "state",
            "known",
            "created_at",
            "last_poll_at",
            "next_poll_at",
            "attempts",
            "result_size",
            "last_error",
        ],
    ),
    (
        "job_results",
        &["job_id", "status", "body", "elapsed_ms", "received_at"],
    ),
    (
        "track_items",
        &[
            "run_id",
            "seq",
            "kind",
            "request",
            "job_id",
            "sends",
            "refused",
            "last_error",
        ],
    ),
    // A call's reading: its list of brands as the brands themselves (a list's id is this
    // store's own), its brands' rows as one JSON array.
    (
        "track_readings",
        &[
            "run_id", "seq", "list", "version", "kind", "model", "place", "query", "device",
            "detail", "brands",
        ],
    ),
];

/// What an export selects for a column: itself, or for a reading what stands for its list
/// and its brands' rows.
fn selected(table: &str, column: &str) -> String {
    match (table, column) {
        ("track_readings", "list") => {
            "(SELECT brands FROM track_reading_lists WHERE id = list)".to_string()
        }
        ("track_readings", "brands") => "(SELECT json_group_array(json_array(
                b.brand, b.position, b.count, b.stance, b.cited, b.rank))
             FROM track_reading_brands b
             WHERE b.run_id = track_readings.run_id AND b.seq = track_readings.seq)"
            .to_string(),
        _ => column.to_string(),
    }
}

/// A reading of an export kept here, unless this store has one for the call already.
fn import_reading(tx: &Connection, row: &Map<String, Value>) -> Result<usize, rusqlite::Error> {
    let text = |name: &str| row.get(name).and_then(Value::as_str).unwrap_or_default();
    let number = |name: &str| row.get(name).and_then(Value::as_i64).unwrap_or_default();
    let list = super::readings::list_id_or_new(tx, text("list"))?;
    let added = tx.execute(
        "INSERT INTO track_readings
             (run_id, seq, list, version, kind, model, place, query, device, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT DO NOTHING",
        rusqlite::params![
            text("run_id"),
            number("seq"),
            list,
            number("version"),
            text("kind"),
            text("model"),
            text("place"),
            text("query"),
            text("device"),
            text("detail")
        ],
    )?;
    if added == 0 {
        return Ok(0);
    }
    type BrandRow = (String, Option<i64>, i64, String, i64, Option<i64>);
    let brands: Vec<BrandRow> = serde_json::from_str(text("brands")).unwrap_or_default();
    let mut statement = tx.prepare_cached(
        "INSERT OR IGNORE INTO track_reading_brands
             (run_id, seq, brand, position, count, stance, cited, rank)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for (brand, position, count, stance, cited, rank) in brands {
        statement.execute(rusqlite::params![
            text("run_id"),
            number("seq"),
            brand,
            position,
            count,
            stance,
            cited,
            rank
        ])?;
    }
    Ok(added)
}

fn json_of(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::from(n),
        ValueRef::Real(f) => Value::from(f),
        ValueRef::Text(bytes) | ValueRef::Blob(bytes) => {
            Value::String(String::from_utf8_lossy(bytes).into_owned())
        }
    }
}

fn sql_of(value: &Value) -> SqlValue {
    match value {
        Value::Null => SqlValue::Null,
        Value::Bool(b) => SqlValue::Integer(i64::from(*b)),
        Value::Number(n) => n
            .as_i64()
            .map(SqlValue::Integer)
            .or_else(|| n.as_f64().map(SqlValue::Real))
            .unwrap_or(SqlValue::Null),
        Value::String(s) => SqlValue::Text(s.clone()),
        other => SqlValue::Text(other.to_string()),
    }
}

/// The first line of an export of `set`, made at `exported_at` (an RFC 3339 time).
pub fn header(set: &str, exported_at: &str) -> String {
    serde_json::json!({
        "format": FORMAT,
        "version": VERSION,
        "set": set,
        "exported_at": exported_at,
    })
    .to_string()
}

/// What an export wrote: its runs, and its lines but the header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportTally {
    pub runs: usize,
    pub rows: usize,
}

/// Why an export stopped: the store could not be read, or the output not written. Either
/// way, `written` says how many lines (header included) went out before.
#[derive(Debug)]
pub enum ExportError {
    Store {
        error: StoreError,
        written: usize,
    },
    Write {
        error: std::io::Error,
        written: usize,
    },
}

/// The rows of a set's runs started at or after `since` (ms), each handed to `line` as a
/// `{"table", "row"}` object as soon as it is read, in the order an import writes them:
/// runs, jobs, results, calls. A row is read, written and let go before the next: the
/// memory does not grow with the set.
fn export(
    conn: &Connection,
    set: &str,
    since: i64,
    mut line: impl FnMut(&'static str, &Value) -> std::io::Result<()>,
) -> Result<Result<(), std::io::Error>, StoreError> {
    let runs = "SELECT id FROM track_runs WHERE set_name = ?1 COLLATE NOCASE AND started_at >= ?2
        AND id NOT IN (SELECT run_id FROM track_imports)";
    let jobs =
        format!("SELECT job_id FROM track_items WHERE run_id IN ({runs}) AND job_id IS NOT NULL");
    let wheres = [
        format!("id IN ({runs})"),
        format!("id IN ({jobs})"),
        format!("job_id IN ({jobs})"),
        format!("run_id IN ({runs})"),
        format!("run_id IN ({runs})"),
    ];
    // One snapshot for the four tables: a run that lands meanwhile is wholly in or out.
    let snapshot = conn.unchecked_transaction()?;
    for ((table, columns), filter) in TABLES.iter().zip(wheres) {
        // The rows' rowids are found first (a list SQLite walks in order), so the rows come
        // in the order they were stored without a sort that would hold them (and their
        // answers) all before the first comes out.
        let select: Vec<String> = columns.iter().map(|c| selected(table, c)).collect();
        // A table without rowid (the readings) is walked in the order of its key.
        let sql = if *table == "track_readings" {
            format!(
                "SELECT {} FROM {table} WHERE {filter} ORDER BY run_id, seq",
                select.join(", ")
            )
        } else {
            format!(
                "SELECT {} FROM {table} WHERE rowid IN (SELECT rowid FROM {table} WHERE {filter})
                 ORDER BY rowid",
                select.join(", ")
            )
        };
        let mut statement = snapshot.prepare(&sql)?;
        let mut rows = statement.query(rusqlite::params![set, since])?;
        while let Some(row) = rows.next()? {
            let mut object = Map::new();
            for (i, column) in columns.iter().enumerate() {
                object.insert((*column).to_string(), json_of(row.get_ref(i)?));
            }
            let value = serde_json::json!({"table": table, "row": object});
            if let Err(error) = line(table, &value) {
                return Ok(Err(error));
            }
        }
    }
    Ok(Ok(()))
}

impl Store {
    /// A set's history (runs started at or after `since`, ms) as the lines of an export,
    /// each handed to `line` (a JSON text, without its newline) as its row is read, on a
    /// reader connection: first the header ([`header`], with `exported_at`), then the rows.
    /// Nothing at all is handed out when the set has no runs then (`runs` is 0).
    pub fn export_set(
        &self,
        set: &str,
        since: i64,
        exported_at: &str,
        mut line: impl FnMut(&str) -> std::io::Result<()>,
    ) -> Result<ExportTally, ExportError> {
        let mut tally = ExportTally::default();
        let mut written = 0usize;
        let read = self.with_reader(|conn| {
            export(conn, set, since, |table, value| {
                if written == 0 {
                    line(&header(set, exported_at))?;
                    written += 1;
                }
                line(&value.to_string())?;
                written += 1;
                tally.rows += 1;
                tally.runs += usize::from(table == "track_runs");
                Ok(())
            })
        });
        match read {
            Ok(Ok(())) => Ok(tally),
            Ok(Err(error)) => Err(ExportError::Write { error, written }),
            Err(error) => Err(ExportError::Store { error, written }),
        }
    }

    /// Whether an import brought this run in (then it is never resumed from here).
    pub fn run_was_imported(&self, run: &super::RunId) -> Result<bool, StoreError> {
        self.with_reader(|conn| {
            Ok(conn
                .prepare_cached("SELECT 1 FROM track_runs_imported WHERE run_id = ?1")?
                .query_row([run.as_str()], |_| Ok(()))
                .optional()?
                .is_some())
        })
    }

    /// Where each of these runs stands here, in their order.
    pub fn run_presence(&self, runs: &[String]) -> Result<Vec<Presence>, StoreError> {
        self.with_reader(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM track_imports WHERE run_id = r.id)
                 FROM track_runs r WHERE r.id = ?1",
            )?;
            runs.iter()
                .map(|run| {
                    let part: Option<bool> = statement.query_row([run], |r| r.get(0)).optional()?;
                    Ok(match part {
                        None => Presence::Absent,
                        Some(true) => Presence::Part,
                        Some(false) => Presence::Whole,
                    })
                })
                .collect()
        })
    }
}

/// Where a run of an export stands in a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    Absent,
    /// Brought in by an import that did not bring all of its calls.
    Part,
    Whole,
}

/// One row of an export to merge: its table and its columns.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportRow {
    pub table: String,
    pub row: Map<String, Value>,
    /// The line of the file it was read from, counted from 1 (0 when not from a file).
    pub line: usize,
}

/// Reads an export line, its row checked as [`super::row_check`] says against `now` (the
/// import's own time); a line of another kind, or a row that cannot be kept, is a sentence
/// saying so.
pub fn parse_checked_line(line: &str, now: i64) -> Result<Option<ImportRow>, String> {
    let row = parse_line(line)?;
    if let Some(row) = &row {
        super::row_check::check_row(&row.table, &row.row, now)?;
    }
    Ok(row)
}

/// Reads an export line; a line of another kind is a sentence saying so.
pub fn parse_line(line: &str) -> Result<Option<ImportRow>, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not a JSON line ({e})"))?;
    if value.get("format").and_then(Value::as_str) == Some(FORMAT) {
        let version = value.get("version").and_then(Value::as_u64).unwrap_or(0);
        if version > VERSION {
            return Err(format!(
                "written by a newer vantage (export version {version}); update this one"
            ));
        }
        return Ok(None);
    }
    let table = value
        .get("table")
        .and_then(Value::as_str)
        .ok_or("a line without its table")?;
    let Some((_, columns)) = TABLES.iter().find(|(t, _)| *t == table) else {
        return Err(format!("{table:?} is not a table of a set's history"));
    };
    let Some(row) = value.get("row").and_then(Value::as_object) else {
        return Err("a line without its row".to_string());
    };
    if let Some(unknown) = row.keys().find(|k| !columns.contains(&k.as_str())) {
        return Err(format!("{table} has no column {unknown:?}"));
    }
    Ok(Some(ImportRow {
        table: table.to_string(),
        row: row.clone(),
        line: 0,
    }))
}

/// Rows of an export to write in one transaction, and the lines they were read from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Batch {
    pub rows: Vec<ImportRow>,
    /// The first and last line read into it, counted from 1.
    pub lines: (usize, usize),
    /// The bytes of those lines.
    pub bytes: usize,
}

/// A line that stopped the reading: its number (from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    pub line: usize,
    pub problem: String,
}

/// An export read a line at a time into batches of at most [`ROWS_PER_WRITE`] rows and
/// about [`BYTES_PER_WRITE`] bytes: the file is never held whole. A line that is not of an
/// export ends the batches: the rows before it come out first, then the [`BadLine`], then
/// nothing.
pub struct Batches<R> {
    reader: R,
    /// The import's own time: no row may be dated after it (and a little skew).
    now: i64,
    max_line: usize,
    line: Vec<u8>,
    number: usize,
    stopped: Option<BadLine>,
    done: bool,
}

impl<R: BufRead> Batches<R> {
    pub fn new(reader: R) -> Self {
        Batches::with_max_line(reader, MAX_LINE)
    }

    fn with_max_line(reader: R, max_line: usize) -> Self {
        Batches {
            reader,
            now: super::now_ms(),
            max_line,
            line: Vec::new(),
            number: 0,
            stopped: None,
            done: false,
        }
    }

    /// The next line's row (None for the header or a blank line), or why it is none; at
    /// the end of the file, None.
    fn next_row(&mut self) -> Option<Result<(Option<ImportRow>, usize), BadLine>> {
        use std::io::Read;
        self.line.clear();
        // A line of a few KB keeps its buffer; one of many MB gives it back.
        if self.line.capacity() > BYTES_PER_WRITE {
            self.line.shrink_to(1 << 16);
        }
        let limit = u64::try_from(self.max_line).map_or(u64::MAX, |max| max + 1);
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.line);
        let bytes = match read {
            Ok(0) => return None,
            Ok(bytes) => bytes,
            Err(error) => {
                return Some(Err(BadLine {
                    line: self.number + 1,
                    problem: format!("it could not be read ({error})"),
                }));
            }
        };
        self.number += 1;
        let bad = |problem: String| BadLine {
            line: self.number,
            problem,
        };
        if self.line.len() > self.max_line {
            return Some(Err(bad(format!(
                "longer than {} MB, which no export holds",
                self.max_line >> 20
            ))));
        }
        let Ok(text) = std::str::from_utf8(&self.line) else {
            return Some(Err(bad("not UTF-8 text".to_string())));
        };
        if text.trim().is_empty() {
            return Some(Ok((None, bytes)));
        }
        let number = self.number;
        Some(
            parse_checked_line(text, self.now)
                .map(|row| {
                    (
                        row.map(|row| ImportRow {
                            line: number,
                            ..row
                        }),
                        bytes,
                    )
                })
                .map_err(bad),
        )
    }
}

impl<R: BufRead> Iterator for Batches<R> {
    type Item = Result<Batch, BadLine>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(stopped) = self.stopped.take() {
            self.done = true;
            return Some(Err(stopped));
        }
        if self.done {
            return None;
        }
        let mut batch = Batch::default();
        while batch.rows.len() < ROWS_PER_WRITE && batch.bytes < BYTES_PER_WRITE {
            match self.next_row() {
                None => {
                    self.done = true;
                    break;
                }
                Some(Ok((row, bytes))) => {
                    if batch.lines.0 == 0 {
                        batch.lines.0 = self.number;
                    }
                    batch.lines.1 = self.number;
                    batch.bytes += bytes;
                    batch.rows.extend(row);
                }
                Some(Err(bad)) => {
                    self.stopped = Some(bad);
                    break;
                }
            }
        }
        if batch.rows.is_empty() {
            // Nothing before the end or the bad line: say that at once.
            self.done = true;
            return self.stopped.take().map(Err);
        }
        Some(Ok(batch))
    }
}

/// Writes the rows not here yet; returns how many were new per table. Then gives each
/// job of the rows its History entry, and each result its entry's answer (`entries.rs`).
pub(super) fn import(tx: &Connection, rows: &[ImportRow]) -> Result<[usize; 5], rusqlite::Error> {
    let mut added = [0usize; 5];
    for row in rows {
        let Some(at) = TABLES.iter().position(|(t, _)| *t == row.table) else {
            continue;
        };
        if row.table == "track_readings" {
            added[at] += import_reading(tx, &row.row)?;
            continue;
        }
        let (table, _) = TABLES[at];
        let columns: Vec<&String> = row.row.keys().collect();
        let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
        // The column names were checked against the table's list when the line was read.
        let sql = format!(
            "INSERT INTO {table} ({}) VALUES ({}) ON CONFLICT DO NOTHING",
            columns
                .iter()
                .map(|c| c.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            marks.join(", ")
        );
        let values: Vec<SqlValue> = row.row.values().map(sql_of).collect();
        let new = tx.prepare_cached(&sql)?.execute(params_from_iter(values))?;
        added[at] += new;
        // A run is a part until its calls are all here.
        if let ("track_runs", 1, Some(run)) =
            (table, new, row.row.get("id").and_then(Value::as_str))
        {
            tx.prepare_cached("INSERT OR IGNORE INTO track_imports (run_id) VALUES (?1)")?
                .execute([run])?;
            tx.prepare_cached("INSERT OR IGNORE INTO track_runs_imported (run_id) VALUES (?1)")?
                .execute([run])?;
        }
    }
    let mut parts = std::collections::BTreeSet::new();
    for row in rows {
        let key = match row.table.as_str() {
            "track_runs" => "id",
            "track_items" => "run_id",
            _ => continue,
        };
        parts.extend(row.row.get(key).and_then(Value::as_str));
    }
    let mut whole = tx.prepare_cached(
        "DELETE FROM track_imports WHERE run_id = ?1
         AND (SELECT count(*) FROM track_items WHERE run_id = ?1)
             >= (SELECT planned FROM track_runs WHERE id = ?1)",
    )?;
    for run in parts {
        whole.execute([run])?;
    }
    for row in rows {
        let key = if row.table == "jobs" { "id" } else { "job_id" };
        let Some(job) = row.row.get(key).and_then(Value::as_str) else {
            continue;
        };
        match row.table.as_str() {
            "jobs" => super::entries::enter(tx, job)?,
            "job_results" => super::entries::answer(tx, job)?,
            _ => {}
        }
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Read};

    use super::*;

    /// An export of `rows` calls made up as it is read, each line `pad` bytes longer than
    /// it would be: the test holds no more of it than the reader asks for.
    struct Made {
        rows: usize,
        pad: usize,
        next: usize,
        line: Vec<u8>,
        at: usize,
    }

    impl Made {
        fn new(rows: usize, pad: usize) -> Self {
            let header = header("boots", "2026-11-01T00:00:00Z") + "\n";
            Made {
                rows,
                pad,
                next: 0,
                line: header.into_bytes(),
                at: 0,
            }
        }
    }

    impl Read for Made {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            if self.at == self.line.len() {
                if self.next == self.rows {
                    return Ok(0);
                }
                let prompt = "x".repeat(self.pad);
                let row = serde_json::json!({"table": "track_items", "row": {
                    "run_id": "0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20", "seq": self.next,
                    "kind": "ai", "request": format!("{{\"prompt\":\"{prompt}\"}}"),
                }});
                self.line = format!("{row}\n").into_bytes();
                self.at = 0;
                self.next += 1;
            }
            let n = out.len().min(self.line.len() - self.at);
            out[..n].copy_from_slice(&self.line[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    fn check(batches: impl Iterator<Item = Result<Batch, BadLine>>, widest: usize) -> usize {
        let mut rows = 0;
        let mut next_line = 1;
        for batch in batches {
            let batch = batch.unwrap();
            assert!(!batch.rows.is_empty());
            assert!(batch.rows.len() <= ROWS_PER_WRITE, "{}", batch.rows.len());
            assert!(batch.bytes < BYTES_PER_WRITE + widest, "{}", batch.bytes);
            assert_eq!(batch.lines.0, next_line, "every line read once, in order");
            next_line = batch.lines.1 + 1;
            rows += batch.rows.len();
        }
        rows
    }

    #[test]
    fn batches_are_bounded_in_rows_and_in_bytes() {
        let many = Batches::new(BufReader::new(Made::new(50_000, 0)));
        assert_eq!(check(many, 200), 50_000);
        // Answers of 100 KB: a batch closes on its bytes long before its rows.
        let large = Batches::new(BufReader::new(Made::new(300, 100_000)));
        let sizes: Vec<usize> = Batches::new(BufReader::new(Made::new(300, 100_000)))
            .map(|b| b.unwrap().rows.len())
            .collect();
        assert!(
            sizes.len() >= 3 && sizes.iter().all(|n| *n < 100),
            "{sizes:?}"
        );
        assert_eq!(check(large, 100_200), 300);
    }

    #[test]
    fn a_bad_line_comes_after_the_rows_before_it_and_ends_the_batches() {
        let mut text = Vec::new();
        Made::new(2_500, 0).read_to_end(&mut text).unwrap();
        text.extend_from_slice(b"{\"table\":\"requests\",\"row\":{}}\n");
        text.extend_from_slice(&text.clone()[..1_000]);
        let mut batches = Batches::new(text.as_slice());
        assert_eq!(batches.next().unwrap().unwrap().rows.len(), ROWS_PER_WRITE);
        assert_eq!(batches.next().unwrap().unwrap().rows.len(), 500);
        let bad = batches.next().unwrap().unwrap_err();
        assert_eq!(bad.line, 2_502, "the header is line 1");
        assert!(bad.problem.contains("not a table"), "{}", bad.problem);
        assert!(batches.next().is_none());

        // Straight after the header: the line at once.
        let mut batches = Batches::new(&b"{\"format\":\"vantage-track-export\"}\nnope\n"[..]);
        assert_eq!(batches.next().unwrap().unwrap_err().line, 2);
        assert!(batches.next().is_none());
    }

    #[test]
    fn a_line_too_long_or_not_text_is_refused_without_reading_it_whole() {
        let mut text = Vec::new();
        Made::new(3, 5_000).read_to_end(&mut text).unwrap();
        let mut batches = Batches::with_max_line(text.as_slice(), 4_096);
        let bad = batches.next().unwrap().unwrap_err();
        assert_eq!(bad.line, 2);
        assert!(bad.problem.contains("longer than"), "{}", bad.problem);
        assert!(batches.next().is_none());

        let mut batches = Batches::new(&b"{\"table\": \"\xff\"}\n"[..]);
        assert!(
            batches
                .next()
                .unwrap()
                .unwrap_err()
                .problem
                .contains("UTF-8")
        );
    }

    #[test]
    fn a_header_and_blank_lines_alone_are_no_batch() {
        let text = format!("{}\n\n  \n", header("boots", "now"));
        assert!(Batches::new(text.as_bytes()).next().is_none());
    }
}
