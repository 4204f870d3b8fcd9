//! `vantage history` (a page of the stored requests, newest first), `vantage history
//! search` (the entries whose request or answer holds every word of a query) and `vantage
//! history show` (one entry, `history_show.rs`).

use clap::{Args, Subcommand, ValueEnum};

use super::history_show::SHOWN_ID;
use super::jobs::age;
use super::{err, out, out_as_received, with_newline};
use crate::config::Config;
use crate::exit;
use crate::measure;
use crate::sanitize::one_line;
use crate::store::{DB_FILE, HistoryItem, RequestKind, Store, StoreOptions, now_ms};

#[derive(Debug, Args)]
pub struct HistoryArgs {
    #[command(subcommand)]
    pub command: Option<HistoryCommand>,
    #[command(flatten)]
    pub page: PagingArgs,
    #[command(flatten)]
    pub demo: super::DemoFlag,
}

#[derive(Debug, Args)]
pub struct PagingArgs {
    /// Entries to print at most
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub limit: usize,
    /// Entries to skip first, newest first (page with --limit)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: usize,
    /// Print the entries as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum HistoryCommand {
    /// Find the entries whose request or answer holds every word (case and accents
    /// ignored; end a word with * to match its beginning)
    Search {
        /// The words to look for
        query: String,
        /// Only AI answers, or only searches
        #[arg(long, value_name = "K")]
        kind: Option<KindArg>,
        #[command(flatten)]
        page: PagingArgs,
    },
    /// Print one stored entry: its request, model, place, status, time and answer
    Show(super::history_show::ShowArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    Ai,
    Search,
}

impl From<KindArg> for RequestKind {
    fn from(kind: KindArg) -> Self {
        match kind {
            KindArg::Ai => RequestKind::Ai,
            KindArg::Search => RequestKind::Search,
        }
    }
}

/// Runs `history` or `history search`; returns the exit code.
pub(super) fn run_history(config: &Config, args: HistoryArgs) -> i32 {
    let showing = matches!(args.command, Some(HistoryCommand::Show(_)));
    if !config.data_dir.join(DB_FILE).is_file() {
        if showing {
            err("No history is stored yet, so no entry has that id.");
            return exit::INVALID_INPUT;
        }
        // A script asked for JSON: an empty list is JSON too.
        let json = match &args.command {
            Some(HistoryCommand::Search { page, .. }) => page.json,
            _ => args.page.json,
        };
        if json {
            out_as_received("[]\n");
            return exit::OK;
        }
        err(
            "No history is stored yet: the app (vantage with no command) saves every call it makes, and they are listed here.",
        );
        return exit::OK;
    }
    let store = match Store::open_in(&config.data_dir, StoreOptions::from_config(config)) {
        Ok(store) => store,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let (found, page, query) = match &args.command {
        Some(HistoryCommand::Show(show)) => return super::history_show::run_show(&store, show),
        None => (
            store.history(args.page.limit, args.page.offset),
            &args.page,
            None,
        ),
        Some(HistoryCommand::Search { query, kind, page }) => {
            if crate::store::match_expression(query).is_none() {
                err(
                    "Not searched: the query has no word to look for. Give at least one word of letters or digits.",
                );
                return exit::INVALID_INPUT;
            }
            (
                store.search_history(query, kind.map(RequestKind::from), page.limit, page.offset),
                page,
                Some(query.as_str()),
            )
        }
    };
    let items = match found {
        Ok(items) => items,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    if page.json {
        match serde_json::to_string_pretty(&items) {
            Ok(text) => out_as_received(&with_newline(text)),
            Err(error) => {
                err(&format!(
                    "The entries could not be written as JSON: {error}."
                ));
                return exit::FAILURE;
            }
        }
    } else if items.is_empty() {
        err(&match (query, page.offset) {
            (Some(query), 0) => format!(
                "No stored request or answer holds every word of \"{}\".",
                one_line(query)
            ),
            (_, 0) => "The history is empty.".to_string(),
            (_, offset) => {
                format!(
                    "Nothing after the first {}; try a smaller --offset.",
                    crate::plural::count(offset as u64, "entry", "entries")
                )
            }
        });
    } else {
        out(&history_table(&items, now_ms()));
    }
    exit::OK
}

/// The entries as aligned columns, as `vantage jobs` lists jobs: kind, the start of the id
/// (for `history show`), where from, age, status, size, summary.
pub fn history_table(items: &[HistoryItem], now: i64) -> String {
    let mut text = format!(
        "{:<7} {:<8} {:<5} {:>5} {:>9} {:>9}  {}\n",
        "KIND", "ID", "FROM", "AGE", "STATUS", "SIZE", "SUMMARY"
    );
    for item in items {
        let id = item.id.as_str();
        text.push_str(&format!(
            "{:<7} {:<8} {:<5} {:>5} {:>9} {:>9}  {}\n",
            item.kind.as_str(),
            id.get(..SHOWN_ID).unwrap_or(id),
            item.origin.as_str(),
            age(now - item.created_at),
            item.status_word().unwrap_or_else(|| "-".to_string()),
            item.size.map_or("-".to_string(), measure::size),
            one_line(&item.summary)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Body, EntryId, Origin};

    #[test]
    fn a_cancelled_call_reads_as_the_app_s_history_reads_it() {
        let item = |status: Option<u16>| HistoryItem {
            id: EntryId("e1".into()),
            kind: RequestKind::Ai,
            summary: "chatgpt · best boots".into(),
            created_at: 0,
            origin: Origin::App,
            status,
            elapsed_ms: None,
            size: None,
        };
        let items = [
            item(Some(Body::CANCELLED)),
            item(Some(0)),
            item(Some(200)),
            item(None),
        ];
        let table = history_table(&items, 60_000);
        let statuses: Vec<&str> = table
            .lines()
            .skip(1)
            .map(|line| line.split_whitespace().nth(4).unwrap())
            .collect();
        assert_eq!(statuses, ["cancelled", "error", "200", "-"]);
        assert!(!table.contains("499"), "{table}");
    }
}
