//! `vantage track export` and `track import`: a set's whole history moved between stores as
//! JSON Lines, so runs made on a server or by a teammate join the ones made here.

use std::io::BufRead;
use std::path::Path;

use super::{err, out_as_received};
use crate::config::Config;
use crate::exit;
use crate::store::travel::{self, ImportRow};
use crate::store::{Store, StoreOptions, TrackWrite, now_ms};
use crate::track::report::timestamp;

/// Rows written per transaction: a year of runs never sits in memory at once.
const ROWS_PER_WRITE: usize = 500;

fn open(config: &Config) -> Result<Store, i32> {
    Store::open_in(&config.data_dir, StoreOptions::from_config(config)).map_err(|error| {
        err(&error.to_string());
        error.exit_code()
    })
}

/// "2026-11-01" or an RFC 3339 time, as ms since the epoch.
fn parse_since(text: &str) -> Result<i64, String> {
    use time::format_description::well_known::Rfc3339;
    let text = text.trim();
    let wrong = || format!("--since {text:?} is not a date (2026-11-01) or an RFC 3339 time");
    let moment = match time::OffsetDateTime::parse(text, &Rfc3339) {
        Ok(moment) => moment,
        Err(_) => {
            let format = time::format_description::parse_borrowed::<2>("[year]-[month]-[day]")
                .map_err(|_| wrong())?;
            time::Date::parse(text, &format)
                .map_err(|_| wrong())?
                .midnight()
                .assume_utc()
        }
    };
    Ok((moment.unix_timestamp_nanos() / 1_000_000) as i64)
}

pub(super) fn export(config: &Config, set: &str, since: Option<&str>) -> i32 {
    let since = match since.map(parse_since).transpose() {
        Ok(since) => since.unwrap_or(i64::MIN),
        Err(sentence) => {
            err(&sentence);
            return exit::INVALID_INPUT;
        }
    };
    let store = match open(config) {
        Ok(store) => store,
        Err(code) => return code,
    };
    let lines = match store.export_set(set, since) {
        Ok(lines) => lines,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let runs = lines.iter().filter(|l| l["table"] == "track_runs").count();
    if runs == 0 {
        err(&format!(
            "No runs of {set} are stored{}: nothing to export.",
            if since > i64::MIN { " since then" } else { "" }
        ));
        return exit::INVALID_INPUT;
    }
    let mut text = serde_json::json!({
        "format": travel::FORMAT,
        "version": travel::VERSION,
        "set": set,
        "exported_at": timestamp(now_ms()),
    })
    .to_string();
    text.push('\n');
    for line in &lines {
        text.push_str(&line.to_string());
        text.push('\n');
    }
    // JSON escapes every control character: the lines are written as they are.
    out_as_received(&text);
    err(&format!(
        "Exported {runs} run(s) of {set}, {} rows.",
        lines.len()
    ));
    exit::OK
}

pub(super) async fn import(config: &Config, file: &Path) -> i32 {
    let opened = match std::fs::File::open(file) {
        Ok(opened) => opened,
        Err(error) => {
            err(&format!(
                "{} could not be read ({error}). Check the path.",
                file.display()
            ));
            return exit::INVALID_INPUT;
        }
    };
    let store = match open(config) {
        Ok(store) => store,
        Err(code) => return code,
    };
    let before = store.track_runs(None).map(|r| r.len()).unwrap_or(0);
    let mut batch: Vec<ImportRow> = Vec::with_capacity(ROWS_PER_WRITE);
    let mut rows = 0usize;
    for (n, line) in std::io::BufReader::new(opened).lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                err(&format!("{} could not be read ({error}).", file.display()));
                return exit::INVALID_INPUT;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match travel::parse_line(&line) {
            Ok(Some(row)) => batch.push(row),
            Ok(None) => continue,
            Err(problem) => {
                err(&format!(
                    "{}, line {}: {problem}. Nothing after it was imported; what came before is kept.",
                    file.display(),
                    n + 1
                ));
                return exit::INVALID_INPUT;
            }
        }
        if batch.len() == ROWS_PER_WRITE {
            rows += batch.len();
            if let Err(code) = write(&store, std::mem::take(&mut batch)).await {
                return code;
            }
        }
    }
    rows += batch.len();
    if let Err(code) = write(&store, batch).await {
        return code;
    }
    let after = store.track_runs(None).map(|r| r.len()).unwrap_or(before);
    err(&format!(
        "Read {rows} rows of {}: {} run(s) new here; rows already here were kept as they are.",
        file.display(),
        after.saturating_sub(before)
    ));
    exit::OK
}

async fn write(store: &Store, rows: Vec<ImportRow>) -> Result<(), i32> {
    if rows.is_empty() {
        return Ok(());
    }
    store
        .track(TrackWrite::Import(rows))
        .await
        .map_err(|error| {
            err(&error.to_string());
            error.exit_code()
        })
}
