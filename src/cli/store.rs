//! `vantage store check` and `vantage store recover`: what to do when the history database
//! is damaged, without opening it for writing.

use std::path::Path;

use clap::Subcommand;

use super::{err, out};
use crate::config::Config;
use crate::exit;
use crate::store::{CheckReport, DB_FILE, RecoverReport, Store};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Subcommand)]
pub enum StoreCommand {
    /// Read the whole history database and list any damage (exit 0 whole, 6 damaged)
    Check,
    /// Copy what can be read into a new file beside the old one, which is left as it is
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
    let mut text = format!(
        "The history database {} is damaged: {} problem(s).\n",
        report.path.display(),
        report.problems.len()
    );
    for problem in &report.problems {
        text.push_str(&format!("  {}\n", crate::sanitize::one_line(problem)));
    }
    out(&text);
    err("Run `vantage store recover` to copy what can be read into a new file.");
    exit::STORAGE
}

fn print_recover(report: &RecoverReport) -> i32 {
    let mut text = format!("{}\n", report.to.display());
    if report.whole {
        text.push_str("Every record was copied: the old file was readable throughout.\n");
    } else {
        for table in &report.tables {
            text.push_str(&format!(
                "  {}: {} row(s) copied{}\n",
                table.table,
                table.copied,
                if table.lost_some {
                    ", some could not be read"
                } else {
                    ""
                }
            ));
        }
    }
    out(&text);
    err(&how_to_use(&report.from, &report.to));
    exit::OK
}

/// The new file is not used until it takes the old one's name.
fn how_to_use(from: &Path, to: &Path) -> String {
    format!(
        "{from} was left as it was. To use the copy, quit vantage, delete {from}-wal and {from}-shm if they exist, and move {to} over {from} (keep a copy of the old file until you are happy with the new one).",
        from = from.display(),
        to = to.display()
    )
}
