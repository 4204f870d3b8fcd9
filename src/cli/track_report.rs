//! `vantage track report`: a set's runs as one page (HTML, or Markdown with its charts as
//! SVG files), or as rows (CSV, JSON Lines) read from the kept readings, or the answers as
//! vantage reads them (`--format json`).

use super::track::{brands_for, invalid, located_workspace, open_store, runs_of};
use super::{err, out_as_received};
use crate::config::Config;
use crate::exit;
use crate::track::report::{self, ReportFormat};

/// `track report --format html|md`: the set's report as one page (and its charts).
pub(super) fn report_page(
    config: &Config,
    workspace: Option<&std::path::Path>,
    set: &str,
    format: ReportFormat,
    runs: Option<usize>,
    output: Option<&std::path::Path>,
) -> i32 {
    if format == ReportFormat::Md && output.is_none() {
        return invalid(
            "Markdown writes its charts as SVG files beside it: give the file with -o report.md.",
        );
    }
    let loaded = match located_workspace(workspace) {
        Ok(loaded) => loaded,
        Err(sentence) => return invalid(&sentence),
    };
    let brands = brands_for(loaded.as_ref(), set);
    let definition = loaded.as_ref().and_then(|w| w.set(set)).cloned();
    let (store, read) = match super::track_read::open_set_readings(config, set, &brands) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let input = match report::gather(
        &store,
        set,
        definition.as_ref(),
        &brands,
        &read,
        runs,
        crate::store::now_ms(),
    ) {
        Ok(input) => input,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let (page, charts) = match format {
        ReportFormat::Md => {
            let stem = output
                .and_then(|p| p.file_stem())
                .map_or("report".to_string(), |s| s.to_string_lossy().to_string());
            crate::track::report_page::markdown(&input, &stem)
        }
        _ => (crate::track::report_page::html(&input), Vec::new()),
    };
    let Some(path) = output else {
        out_as_received(&page);
        return exit::OK;
    };
    let folder = path.parent().unwrap_or(std::path::Path::new(""));
    let written = crate::safe_file::write(path, &page).and_then(|()| {
        charts
            .iter()
            .try_for_each(|chart| crate::safe_file::write(&folder.join(&chart.name), &chart.svg))
    });
    match written {
        Ok(()) => {
            let extra = match charts.len() {
                0 => String::new(),
                n => format!(
                    " and {} beside it",
                    crate::plural::count(n as u64, "chart", "charts")
                ),
            };
            err(&format!(
                "Wrote the report of {set} ({}) to {}{extra}.",
                crate::plural::count(input.trends.runs.len() as u64, "run", "runs"),
                path.display()
            ));
            exit::OK
        }
        Err(error) => {
            err(&format!(
                "The report could not be written to {} ({error}). Check that its folder exists and can be written.",
                path.display()
            ));
            exit::FAILURE
        }
    }
}

pub(super) fn report_set(
    config: &Config,
    workspace: Option<&std::path::Path>,
    set: &str,
    format: ReportFormat,
    last: bool,
    output: Option<&std::path::Path>,
) -> i32 {
    let brands = match located_workspace(workspace) {
        Ok(loaded) => brands_for(loaded.as_ref(), set),
        Err(sentence) => return invalid(&sentence),
    };
    let store = match open_store(config) {
        Ok(store) => store,
        Err(code) => return code,
    };
    let runs = match runs_of(&store, set) {
        Ok(runs) => runs,
        Err(code) => return code,
    };
    // The rows read the stored readings; only `--format json` reads the answers again.
    let read = if format == ReportFormat::Json {
        None
    } else {
        match super::track_read::set_readings(&store, set, runs.clone(), &brands) {
            Ok(read) => Some(read),
            Err(code) => return code,
        }
    };
    let first = if last { runs.len() - 1 } else { 0 };
    // Nothing is at the path until the last run is written: the old report stays whole.
    let mut file = match output.map(crate::safe_file::SafeFile::create).transpose() {
        Ok(file) => file,
        Err(error) => {
            err(&format!(
                "The report could not be written to {} ({error}). Check that its folder exists and can be written.",
                output.map(|p| p.display().to_string()).unwrap_or_default()
            ));
            return exit::FAILURE;
        }
    };
    // One run at a time: a year of daily runs never sits in memory at once.
    let mut answers_written = 0;
    let runs_count = runs.len();
    for (i, run) in runs.iter().enumerate().skip(first) {
        let items = match &read {
            Some(read) => read.stored(&store, i).and_then(|stored| match stored {
                Some(readings) => store
                    .track_items_between(&run.id, 0, u32::MAX, false)
                    .map(|items| (items, Some(readings))),
                None => store.track_items(&run.id).map(|items| (items, None)),
            }),
            None => store.track_items(&run.id).map(|items| (items, None)),
        };
        let (items, readings) = match items {
            Ok(items) => items,
            Err(error) => {
                err(&error.to_string());
                return error.exit_code();
            }
        };
        let written = match format {
            // A JSON array whose elements come a run at a time.
            ReportFormat::Json => {
                let mut text = String::from(if i == first { "[" } else { "" });
                for answer in report::answers(run, &items, &brands) {
                    match report::answer_json(&answer) {
                        Ok(element) => {
                            text.push_str(if answers_written == 0 { "\n" } else { ",\n" });
                            text.push_str(&element);
                            answers_written += 1;
                        }
                        Err(problem) => {
                            err(&format!("The report could not be written: {problem}."));
                            return exit::FAILURE;
                        }
                    }
                }
                if i + 1 == runs_count {
                    text.push_str("\n]\n");
                }
                Ok(text)
            }
            _ => report::render(
                &report::rows(run, &items, readings.as_deref(), &brands),
                format,
                i == first,
            ),
        };
        let text = match written {
            Ok(text) => text,
            Err(problem) => {
                err(&format!("The report could not be written: {problem}."));
                return exit::FAILURE;
            }
        };
        match file.as_mut() {
            Some(file) => {
                if let Err(error) = std::io::Write::write_all(file, text.as_bytes()) {
                    err(&format!("The report could not be written ({error})."));
                    return exit::FAILURE;
                }
            }
            None => out_as_received(&text),
        }
    }
    if let Some(file) = file
        && let Err(error) = file.commit()
    {
        err(&format!("The report could not be written ({error})."));
        return exit::FAILURE;
    }
    exit::OK
}
