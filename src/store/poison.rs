//! Rows that cannot be read as their type (a job id that is a path, a run started
//! "yesterday"): what an import of an older vantage, or a hand-edited file, may have left.
//! `store check` names each, read with the import's own rules ([`super::row_check`]);
//! `store recover` leaves them out of the new store and lists them.

use rusqlite::Connection;
use rusqlite::types::ValueRef;
use serde_json::{Map, Value};

use super::row_check::check_row;
use super::travel::TABLES;

/// Rows named at most: past these, a count.
const MOST_NAMED: usize = 100;

/// The tables whose rows are checked (a set's readings are read again from these).
const CHECKED: [&str; 4] = ["track_runs", "jobs", "job_results", "track_items"];

/// One row that cannot be read as its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoisonedRow {
    pub table: &'static str,
    pub rowid: i64,
    /// What the row is, by its key ("run 5a7e…", "job ../../etc/passwd").
    pub key: String,
    pub problem: String,
}

impl std::fmt::Display for PoisonedRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} row {} ({}): {}",
            self.table, self.rowid, self.key, self.problem
        )
    }
}

fn json_of(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::from(n),
        ValueRef::Real(f) => Value::from(f),
        ValueRef::Text(bytes) => Value::String(String::from_utf8_lossy(bytes).into_owned()),
        // Never text: a blob where text belongs is not of its type.
        ValueRef::Blob(bytes) => Value::Array(vec![Value::from(bytes.len())]),
    }
}

/// A column as the check reads it: an answer's body only by its type, not its megabytes.
fn selected(column: &str) -> String {
    match column {
        "body" => "CASE typeof(body) WHEN 'text' THEN '' ELSE body END".to_string(),
        other => other.to_string(),
    }
}

fn key_of(table: &str, row: &Map<String, Value>) -> String {
    let text = |name: &str| match row.get(name) {
        Some(Value::String(s)) => crate::sanitize::one_line(s).chars().take(60).collect(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    match table {
        "track_runs" => format!("run {}", text("id")),
        "jobs" => format!("job {}", text("id")),
        "job_results" => format!("result of job {}", text("job_id")),
        _ => format!("call {} of run {}", text("seq"), text("run_id")),
    }
}

/// Every row of the checked tables that cannot be read as its type, checked against `now`
/// (ms); at most [`MOST_NAMED`] named, with how many there are in all.
pub(super) fn find(conn: &Connection, now: i64) -> rusqlite::Result<(Vec<PoisonedRow>, usize)> {
    let mut named = Vec::new();
    let mut total = 0;
    for table in CHECKED {
        let Some((_, columns)) = TABLES.iter().find(|(t, _)| *t == table) else {
            continue;
        };
        let select: Vec<String> = columns.iter().map(|c| selected(c)).collect();
        let sql = format!(
            "SELECT rowid, {} FROM {table} ORDER BY rowid",
            select.join(", ")
        );
        let mut statement = match conn.prepare(&sql) {
            Ok(statement) => statement,
            // A table of a newer or older schema: not this check's to read.
            Err(_) => continue,
        };
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            let rowid: i64 = row.get(0)?;
            let mut object = Map::new();
            for (i, column) in columns.iter().enumerate() {
                object.insert((*column).to_string(), json_of(row.get_ref(i + 1)?));
            }
            if let Err(problem) = check_row(table, &object, now) {
                total += 1;
                if named.len() < MOST_NAMED {
                    named.push(PoisonedRow {
                        table,
                        rowid,
                        key: key_of(table, &object),
                        problem,
                    });
                }
            }
        }
    }
    Ok((named, total))
}

/// Deletes the rows [`find`] finds (all of them, named or not), children with their parents;
/// returns those named.
pub(super) fn remove(conn: &Connection, now: i64) -> rusqlite::Result<Vec<PoisonedRow>> {
    let mut removed = Vec::new();
    loop {
        let (found, _) = find(conn, now)?;
        if found.is_empty() {
            return Ok(removed);
        }
        for row in &found {
            conn.execute(
                &format!("DELETE FROM {} WHERE rowid = ?1", row.table),
                [row.rowid],
            )?;
        }
        removed.extend(found);
    }
}
