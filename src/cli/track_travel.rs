//! `vantage track export` and `track import`: a set's whole history moved between stores as
//! JSON Lines, so runs made on a server or by a teammate join the ones made here.

use std::path::Path;

use super::{OutLines, err, progress};
use crate::config::Config;
use crate::exit;
use crate::store::travel::{self, ExportError};
use crate::store::{Ack, Store, StoreOptions, TrackWrite, now_ms};
use crate::track::report::timestamp;

/// Lines exported between two progress lines (shown on a terminal only).
const PROGRESS_EVERY: usize = 10_000;

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
    // Each line goes out as its row is read: a year of runs is never held at once.
    let mut lines = OutLines::start();
    let exported_at = timestamp(now_ms());
    let mut handed = 0usize;
    let exported = store
        .export_set(set, since, &exported_at, |line| {
            handed += 1;
            if handed.is_multiple_of(PROGRESS_EVERY) && !lines.to_terminal() {
                progress(&format!("Exporting {set}: {handed} lines…"));
            }
            // The line is JSON: its control characters go out as escapes of the same value.
            lines.line(&crate::shareable::json::escape_controls(line))
        })
        .and_then(|tally| {
            let written = tally.rows + usize::from(tally.rows > 0);
            lines
                .finish()
                .map(|()| tally)
                .map_err(|error| ExportError::Write { error, written })
        });
    match exported {
        Ok(tally) if tally.runs == 0 => {
            err(&format!(
                "No runs of {set} are stored{}: nothing to export.",
                if since > i64::MIN { " since then" } else { "" }
            ));
            exit::INVALID_INPUT
        }
        Ok(tally) => {
            err(&format!(
                "Exported {} of {set}, {}.",
                crate::plural::count(tally.runs as u64, "run", "runs"),
                crate::plural::count(tally.rows as u64, "row", "rows")
            ));
            exit::OK
        }
        Err(ExportError::Write { error, written }) => {
            err(&format!(
                "The export is incomplete: its output could not be written ({error}) once {} read. Write it where there is room, to a file or a program that reads it all.",
                line_count(written)
            ));
            exit::FAILURE
        }
        Err(ExportError::Store { error, written }) => {
            err(&format!(
                "The export is incomplete: it stopped once {} read. {error}",
                line_count(written)
            ));
            error.exit_code()
        }
    }
}

pub(super) async fn import(config: &Config, workspace: Option<&Path>, file: &Path) -> i32 {
    let workspace = match super::track::located_workspace(workspace) {
        Ok(workspace) => workspace,
        Err(sentence) => return super::track::invalid(&sentence),
    };
    // Read twice (checked, then written): it must be a file, not a pipe or a device.
    let open_file = || -> Result<std::fs::File, String> {
        let opened = std::fs::File::open(file).map_err(|error| {
            format!(
                "{} could not be read ({error}). Check the path.",
                file.display()
            )
        })?;
        match opened.metadata() {
            Ok(meta) if meta.is_file() => Ok(opened),
            Ok(_) => Err(format!(
                "{} is not a regular file (a pipe, a device or a folder): an export is imported from a file.",
                file.display()
            )),
            Err(error) => Err(format!("{} could not be read ({error}).", file.display())),
        }
    };
    let opened = match open_file() {
        Ok(opened) => opened,
        Err(sentence) => {
            err(&sentence);
            return exit::INVALID_INPUT;
        }
    };
    let store = match open(config) {
        Ok(store) => store,
        Err(code) => return code,
    };
    // Every line is checked before any is written: a bad one anywhere writes nothing.
    let plan = match store.check_import(std::io::BufReader::new(opened)) {
        Ok(Ok(plan)) => plan,
        Ok(Err(bad)) => {
            err(&format!(
                "{}, line {}: {}. Nothing of the file was imported.",
                file.display(),
                bad.line,
                bad.problem
            ));
            return exit::INVALID_INPUT;
        }
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let parts_before = match store.runs_in_part() {
        Ok(parts) => parts,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let opened = match open_file() {
        Ok(opened) => opened,
        Err(sentence) => {
            err(&sentence);
            return exit::INVALID_INPUT;
        }
    };
    let mut rows = 0usize;
    // One batch is written while the next is read: two at most are held.
    let mut writing: Option<(Ack, (usize, usize))> = None;
    for batch in travel::Batches::new(std::io::BufReader::new(opened)) {
        let batch = match batch {
            Ok(batch) => batch,
            Err(bad) => {
                // Changed since it was checked a moment ago.
                if let Err(code) = written(file, writing.take()).await {
                    return code;
                }
                err(&format!(
                    "{}, line {}: {}. The file changed while it was imported: the {} before it {} kept.",
                    file.display(),
                    bad.line,
                    bad.problem,
                    crate::plural::count(rows as u64, "row", "rows"),
                    crate::plural::noun(rows as u64, "is", "are"),
                ));
                return exit::INVALID_INPUT;
            }
        };
        if let Err(code) = written(file, writing.take()).await {
            return code;
        }
        if rows > 0 {
            progress(&format!(
                "Importing {}: {} of {}…",
                file.display(),
                crate::plural::count(rows as u64, "row", "rows"),
                plan.rows
            ));
        }
        rows += batch.rows.len();
        writing = Some((store.track(TrackWrite::Import(batch.rows)), batch.lines));
    }
    if let Err(code) = written(file, writing).await {
        return code;
    }
    let parts_after = match store.runs_in_part() {
        Ok(parts) => parts,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    // Only this file's runs move in or out of being in part.
    let still_parts = (parts_after + plan.parts).saturating_sub(parts_before);
    let completed = plan.parts.saturating_sub(still_parts);
    err(&format!(
        "Read {} of {}: {} new here, {} completed (an earlier import had brought only part of them), {} already here and kept as they were.{}",
        crate::plural::count(rows as u64, "row", "rows"),
        file.display(),
        crate::plural::count(plan.new as u64, "run", "runs"),
        completed,
        plan.already,
        parts_sentence(still_parts)
    ));
    // Answers that came without their readings, or read by older rules or for other
    // brands, are read now, once: every view of the set then reads the kept ones.
    if let Some(workspace) = workspace {
        for set in &plan.sets {
            let Ok(runs) = store.track_runs(Some(set)) else {
                continue;
            };
            let brands = workspace.read_for(set);
            if let Err(code) = super::track_read::set_readings(&store, set, runs, &brands) {
                return code;
            }
        }
    }
    exit::OK
}

fn parts_sentence(parts: usize) -> String {
    match parts {
        0 => String::new(),
        n => format!(
            " {} only partly here (their calls are not all in what was read): {} left out of every view until an import of the whole file brings the rest.",
            crate::plural::count(n as u64, "run is", "runs are"),
            crate::plural::noun(n as u64, "it is", "they are")
        ),
    }
}

/// Waits for a batch's write; a failure is said with the lines it held.
async fn written(file: &Path, writing: Option<(Ack, (usize, usize))>) -> Result<(), i32> {
    let Some((ack, (first, last))) = writing else {
        return Ok(());
    };
    ack.await.map_err(|error| {
        err(&format!(
            "{}, lines {first}-{last}: not imported ({error}). What came before them is kept; importing the file again adds only what is missing.",
            file.display()
        ));
        error.exit_code()
    })
}

/// "1 line was", "12 lines were".
fn line_count(n: usize) -> String {
    let n = n as u64;
    format!(
        "{} {}",
        crate::plural::count(n, "line", "lines"),
        crate::plural::noun(n, "was", "were")
    )
}
