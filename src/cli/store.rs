//! `vantage store check` and `vantage store recover`: what to do when the history database
//! is damaged, without opening it for writing.

use clap::Subcommand;

use super::{err, out};
use crate::config::Config;
use crate::exit;
use crate::store::{CheckReport, DB_FILE, RecoverReport, Store};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Subcommand)]
pub enum StoreCommand {
    /// Read the whole history database and list any damage (exit 0 whole, 6 damaged)
    Check,
    /// Copy what can be read into a new history database in its place, keeping the damaged
    /// file aside
    Recover,
}

/// Runs `store check` or `store recover` on the data dir's database; returns the exit code.
pub(super) fn run_store(config: &Config, command: StoreCommand) -> i32 {
    let path = config.data_dir.join(DB_FILE);
    if !path.is_file() {
        err(&format!(
            "There is no history database at {} yet, so there is nothing to {}. It is made on the first call that is saved.",
            path.display(),
            match command {
                StoreCommand::Check => "check",
                StoreCommand::Recover => "recover",
            }
        ));
        return exit::OK;
    }
    let result = match command {
        StoreCommand::Check => Store::check(&path).map(|report| print_check(&report)),
        StoreCommand::Recover => Store::recover(&path).map(|report| print_recover(&report)),
    };
    result.unwrap_or_else(|error| {
        err(&error.to_string());
        error.exit_code()
    })
}

fn print_check(report: &CheckReport) -> i32 {
    if report.is_whole() {
        out(&format!(
            "The history database {} is whole.\n",
            report.path.display()
        ));
        return exit::OK;
    }
    let mut text = String::new();
    if !report.problems.is_empty() {
        text.push_str(&format!(
            "The history database {} is damaged: {}.\n",
            report.path.display(),
            crate::plural::count(report.problems.len() as u64, "problem", "problems")
        ));
        for problem in &report.problems {
            text.push_str(&format!("  {}\n", crate::sanitize::one_line(problem)));
        }
    }
    if report.poisoned_total > 0 {
        text.push_str(&format!(
            "The history database {} holds {} that cannot be read as {} type (an import of a hostile or hand-edited file?):\n",
            report.path.display(),
            crate::plural::count(report.poisoned_total as u64, "row", "rows"),
            crate::plural::noun(report.poisoned_total as u64, "its", "their"),
        ));
        for row in &report.poisoned {
            text.push_str(&format!(
                "  {}\n",
                crate::sanitize::one_line(&row.to_string())
            ));
        }
        if report.poisoned_total > report.poisoned.len() {
            text.push_str(&format!(
                "  and {} more\n",
                report.poisoned_total - report.poisoned.len()
            ));
        }
    }
    out(&text);
    err(
        "Run `vantage store recover`: it copies every row it can read into a new history database in its place, and keeps the damaged file aside.",
    );
    exit::STORAGE
}

fn print_recover(report: &RecoverReport) -> i32 {
    let path = report.path.display();
    let mut text = match (&report.unreadable, report.whole) {
        (Some(why), _) => format!(
            "Nothing in {path} could be read as a history database ({}).\n",
            crate::sanitize::one_line(why)
        ),
        (None, true) => format!("{path} read whole: every row was copied.\n"),
        (None, false) => format!("What could be read of {path} was copied, table by table:\n"),
    };
    if report.unreadable.is_none() {
        let widest = report
            .tables
            .iter()
            .map(|t| t.table.len())
            .max()
            .unwrap_or(0);
        for table in &report.tables {
            let lost = match table.lost {
                Some(lost) => format!("{lost} lost"),
                None => "lost: not known (the file no longer says how many it held)".to_string(),
            };
            text.push_str(&format!(
                "  {:<widest$}  {} kept, {lost}\n",
                table.table, table.kept
            ));
        }
    }
    if report.stopped {
        text.push_str(
            "Reading stopped at the time allowed for a file of this size: rows not reached are counted as lost.\n",
        );
    }
    if !report.left_out.is_empty() {
        text.push_str(&format!(
            "Left out, as they cannot be read as their type: {}\n",
            crate::plural::count(report.left_out.len() as u64, "row", "rows")
        ));
        for row in report.left_out.iter().take(100) {
            text.push_str(&format!(
                "  {}\n",
                crate::sanitize::one_line(&row.to_string())
            ));
        }
    }
    out(&text);
    err(&format!(
        "{path} is now {}; the damaged file is kept as it was in {}. If vantage was running, quit it and start it again: until then it still reads the damaged file.",
        match report.unreadable {
            Some(_) => "a new, empty history database",
            None => "the recovered history database",
        },
        report.aside.display()
    ));
    exit::OK
}
