//! `vantage brands discover`: the names the stored answers recommend that no tracked brand
//! covers, by how many answers, models and places name them.

use clap::{Args, Subcommand};

use super::brands::{BrandArgs, tracked_brands};
use super::{err, out, out_as_received, with_newline};
use crate::config::Config;
use crate::exit;
use crate::present::discover::{AnswersRead, MAX_STORED_ANSWERS, Untracked, untracked_in_stored};
use crate::sanitize::one_line;
use crate::store::{DB_FILE, Store, StoreOptions, now_ms};

#[derive(Debug, Args)]
pub struct BrandsArgs {
    #[command(subcommand)]
    pub command: BrandsCommand,
    #[command(flatten)]
    pub demo: super::DemoFlag,
}

#[derive(Debug, Subcommand)]
pub enum BrandsCommand {
    /// List the names the stored answers put forward that no tracked brand covers, most
    /// named first, with the models and places that named them
    Discover {
        /// Only answers stored since: a date and time (2026-11-01T00:00:00Z) or an age
        /// (7d, 24h)
        #[arg(long, value_name = "TIME")]
        since: Option<String>,
        /// Names to print at most
        #[arg(long, value_name = "N", default_value_t = 30)]
        limit: usize,
        /// Print the names as JSON
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        brands: BrandArgs,
    },
}

pub(super) fn run_brands(config: &Config, args: BrandsArgs) -> i32 {
    let BrandsCommand::Discover {
        since,
        limit,
        json,
        brands,
    } = args.command;
    let since_ms = match since.as_deref().map(since_to_ms).transpose() {
        Ok(since) => since,
        Err(sentence) => {
            err(&format!("Nothing read: {sentence}"));
            return exit::INVALID_INPUT;
        }
    };
    let tracked = match tracked_brands(&brands) {
        Ok(tracked) => tracked,
        Err(sentence) => {
            err(&sentence);
            return exit::INVALID_INPUT;
        }
    };
    if !config.data_dir.join(DB_FILE).is_file() {
        err("No answers are stored yet: ask something (vantage ai, or the app), then look again.");
        return exit::OK;
    }
    let store = match Store::open_in(&config.data_dir, StoreOptions::from_config(config)) {
        Ok(store) => store,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    // The names of answers not read yet are read once and kept; then the kept totals count.
    let mut show = super::track_read::shown_progress();
    let never = std::sync::atomic::AtomicBool::new(false);
    let kept = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                crate::discovery::bring_up_to_date(
                    &store,
                    since_ms.unwrap_or(i64::MIN),
                    crate::analysis::READING_RULES,
                    &mut show,
                    &never,
                )
                .and_then(|_| crate::discovery::untracked(&store, since_ms, &tracked))
            })
            .join()
    });
    let (mut found, read) = match kept {
        Ok(Ok(found)) => found,
        // A store that cannot keep them: the newest answers, read in memory.
        Ok(Err(error)) if store.health() != crate::store::Health::Writable => {
            err(&format!(
                "The names could not be kept ({error}); the newest {MAX_STORED_ANSWERS} answers are read instead."
            ));
            match store.stored_ai_answers(since_ms, MAX_STORED_ANSWERS) {
                Ok(stored) => untracked_in_stored(stored, &tracked),
                Err(error) => {
                    err(&error.to_string());
                    return error.exit_code();
                }
            }
        }
        Ok(Err(error)) => {
            err(&error.to_string());
            return error.exit_code();
        }
        Err(_) => {
            err("Reading the stored answers failed unexpectedly; nothing was changed.");
            return exit::FAILURE;
        }
    };
    found.truncate(limit);
    if json {
        return match serde_json::to_string_pretty(&found) {
            Ok(text) => {
                out_as_received(&with_newline(text));
                exit::OK
            }
            Err(error) => {
                err(&format!("The names could not be written as JSON: {error}."));
                exit::FAILURE
            }
        };
    }
    if found.is_empty() {
        err(&format!(
            "The {} stored answers name nothing that the {} tracked brands do not cover.",
            read.answers,
            tracked.len()
        ));
        if let Some(note) = read.as_text_note() {
            err(&note);
        }
        return exit::OK;
    }
    out(&discovered_text(&found, read));
    exit::OK
}

/// `7d`, `24h`, `30m`, or a date and time, as Unix milliseconds.
fn since_to_ms(text: &str) -> Result<i64, String> {
    let text = text.trim();
    let unit = |suffix: char, ms: i64| {
        text.strip_suffix(suffix)
            .and_then(|n| n.trim().parse::<i64>().ok())
            .filter(|n| *n >= 0)
            .map(|n| now_ms() - n * ms)
    };
    if let Some(ms) = unit('d', 86_400_000)
        .or_else(|| unit('h', 3_600_000))
        .or_else(|| unit('m', 60_000))
    {
        return Ok(ms);
    }
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .map(|at| (at.unix_timestamp_nanos() / 1_000_000) as i64)
        .map_err(|_| {
            format!(
                "--since {:?} is neither an age (7d, 24h, 30m) nor a date and time (2026-11-01T00:00:00Z).",
                one_line(text)
            )
        })
}

/// The names as aligned columns: answers (recommended), models, places, the sentence.
fn discovered_text(found: &[Untracked], read: AnswersRead) -> String {
    let width = found
        .iter()
        .map(|f| f.name.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 32);
    let mut text = format!(
        "Names the {} stored answers put forward that no tracked brand covers:\n{:<width$}  {:>7} {:>5}  {:<24} {}\n",
        read.answers, "NAME", "ANSWERS", "RECO", "MODELS", "PLACES"
    );
    for row in found {
        let name: String = one_line(&row.name).chars().take(width).collect();
        text.push_str(&format!(
            "{name:<width$}  {:>7} {:>5}  {:<24} {}\n",
            row.answers,
            row.recommended,
            row.models.join(","),
            one_line(&row.places.join("; "))
        ));
        if !row.products.is_empty() {
            text.push_str(&format!(
                "{:width$}  as {}\n",
                "",
                one_line(&row.products.join(", "))
            ));
        }
        text.push_str(&format!("{:width$}  “{}”\n", "", one_line(&row.sentence)));
    }
    if let Some(note) = read.as_text_note() {
        text.push_str(&format!("\n{note}\n"));
    }
    text.push_str(
        "\nRECO: answers that recommend it. \"as\": the products the answers name under a brand, which tracking the brand covers. Track one with the app's Brands pane (b in Chat), or add it to vantage.toml.\n",
    );
    text
}
