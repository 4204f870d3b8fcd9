//! A set's whole history as JSON Lines, and that history merged into another store: every
//! run, call, job and result, row by row. Rows already here are recognised by their keys
//! (a run's id, a call's run and number, a job's id) and kept as they are, so importing the
//! same file twice, or a file that overlaps this store, stores nothing twice.

use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, params_from_iter};
use serde_json::{Map, Value};

use super::StoreError;

/// The first line of an export: what it is, for `import` to recognise.
pub const FORMAT: &str = "vantage-track-export";
pub const VERSION: u64 = 1;

/// The tables a set's history lives in, their columns, and the key that recognises a row.
pub(super) const TABLES: [(&str, &[&str]); 4] = [
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
];

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

/// The rows of a set's runs started at or after `since` (ms), as `{"table", "row"}`
/// objects, in the order an import writes them: runs, jobs, results, calls.
pub(super) fn export(conn: &Connection, set: &str, since: i64) -> Result<Vec<Value>, StoreError> {
    let runs = "SELECT id FROM track_runs WHERE set_name = ?1 COLLATE NOCASE AND started_at >= ?2";
    let jobs =
        format!("SELECT job_id FROM track_items WHERE run_id IN ({runs}) AND job_id IS NOT NULL");
    let wheres = [
        format!("id IN ({runs})"),
        format!("id IN ({jobs})"),
        format!("job_id IN ({jobs})"),
        format!("run_id IN ({runs})"),
    ];
    let mut lines = Vec::new();
    for ((table, columns), filter) in TABLES.iter().zip(wheres) {
        let sql = format!(
            "SELECT {} FROM {table} WHERE {filter} ORDER BY rowid",
            columns.join(", ")
        );
        let mut statement = conn.prepare(&sql)?;
        let mut rows = statement.query(rusqlite::params![set, since])?;
        while let Some(row) = rows.next()? {
            let mut object = Map::new();
            for (i, column) in columns.iter().enumerate() {
                object.insert((*column).to_string(), json_of(row.get_ref(i)?));
            }
            lines.push(serde_json::json!({"table": table, "row": object}));
        }
    }
    Ok(lines)
}

/// One row of an export to merge: its table and its columns.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportRow {
    pub table: String,
    pub row: Map<String, Value>,
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
    }))
}

/// Writes the rows not here yet, in one transaction; returns how many were new per table.
pub(super) fn import(tx: &Connection, rows: &[ImportRow]) -> Result<[usize; 4], rusqlite::Error> {
    let mut added = [0usize; 4];
    for row in rows {
        let Some(at) = TABLES.iter().position(|(t, _)| *t == row.table) else {
            continue;
        };
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
        added[at] += tx.execute(&sql, params_from_iter(values))?;
    }
    Ok(added)
}
