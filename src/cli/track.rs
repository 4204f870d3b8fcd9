//! `vantage track`: run a set of the workspace file through the service's queue, list the
//! runs, export them, and read their trends (`track_trends`). Scheduler-friendly: a lock per
//! set, progress on stderr only when it is a terminal, exit codes as docs/exit-codes.md lists them.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use clap_complete::engine::ArgValueCandidates;

use super::sim::wait_for_shutdown_signal;
use super::{err, out, out_as_received, progress_shown, with_newline};
use crate::analysis::mentions::Brand;
use crate::analysis::workspace::{self, TrackSet, Workspace};
use crate::api::Client;
use crate::config::Config;
use crate::exit;
use crate::price::{Prices, covers};
use crate::store::{RunSummary, Store, StoreOptions};
use crate::track::lock::{self, LockError};
use crate::track::report::{self, ReportFormat};
use crate::track::run::{self, SubmitEvent};
use crate::track::submit::JobSubmitter;

#[derive(Debug, Args)]
pub struct TrackArgs {
    #[command(subcommand)]
    pub command: TrackCommand,
    /// The workspace file with the sets (default: the nearest vantage.toml in this folder
    /// or a parent)
    #[arg(long, global = true, value_name = "PATH", env = "VANTAGE_WORKSPACE")]
    pub workspace: Option<PathBuf>,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

#[derive(Debug, Subcommand)]
pub enum TrackCommand {
    /// Submit every call of a set as a queued job, storing each id as it arrives. A run cut
    /// short goes on where it stopped
    Run {
        /// The set's name in the workspace file
        #[arg(add = ArgValueCandidates::new(super::shell::set_candidates))]
        set: String,
        /// Stay until every job of the set has ended (else `vantage jobs watch` or the app
        /// finish them); exits 7 when some failed, expired or were refused
        #[arg(long)]
        wait: bool,
        /// Say what the run would cost (calls, samples included) against the balance, and
        /// send nothing
        #[arg(long, conflicts_with = "wait")]
        dry_run: bool,
        /// Send even when the balance cannot cover every call
        #[arg(long)]
        yes: bool,
        /// Ask again, into a past run (its id or the id's start; the set's last run when
        /// none is given), only the calls it lacks: those whose job failed or expired, and
        /// any not sent. No new run is made
        #[arg(long, value_name = "RUN", num_args = 0..=1, default_missing_value = "last")]
        retry_failed: Option<String>,
        #[command(flatten)]
        sampling: super::SamplingFlags,
    },
    /// The sets of the workspace file and their runs
    List {
        /// Print the runs as JSON
        #[arg(long)]
        json: bool,
    },
    /// A set's runs, one row per answer × brand and per search result × vantage point
    Report {
        #[arg(add = ArgValueCandidates::new(super::shell::set_candidates))]
        set: String,
        /// csv or jsonl: a row per answer × brand; json: each answer as vantage reads it;
        /// html: one self-contained page with charts; md: Markdown with its charts as SVG
        /// files beside it (needs -o)
        #[arg(long, value_name = "F", default_value = "csv")]
        format: ReportFormat,
        /// Only the last run
        #[arg(long)]
        last: bool,
        /// The last N runs (html and md)
        #[arg(long, value_name = "N")]
        runs: Option<usize>,
        /// Write to this file rather than to stdout
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Make, change or delete a set of the workspace file
    #[command(subcommand)]
    Set(super::track_set::SetCommand),
    /// Write every run, call, job and result of a set as JSON Lines (to move its history to
    /// another machine, or keep it)
    Export {
        #[arg(add = ArgValueCandidates::new(super::shell::set_candidates))]
        set: String,
        /// Only runs started at or after this time (2026-11-01, or RFC 3339)
        #[arg(long, value_name = "TIME")]
        since: Option<String>,
    },
    /// Merge an export into this store: runs and jobs already here are recognised by their
    /// ids and not stored twice
    Import { file: PathBuf },
    /// Evaluate the set's alerts on its newest finished run: each that fires is a line on
    /// stdout, and the exit code is 8 when any did; the workspace's webhook is told
    Check {
        #[arg(add = ArgValueCandidates::new(super::shell::set_candidates))]
        set: String,
        /// Print the alerts that fired as JSON
        #[arg(long)]
        json: bool,
    },
    /// One prompt × model × place of a set over its runs: each run's answer, newest first,
    /// and what changed between the last two (brands, order, stance, sources, words)
    Answers(super::track_answers::AnswersArgs),
    /// Visibility, positions, sources and ranks over a set's runs; what the last run changed
    Trends {
        #[arg(add = ArgValueCandidates::new(super::shell::set_candidates))]
        set: String,
        /// Print them as JSON
        #[arg(long)]
        json: bool,
        /// Where your brand is missing in the last run: the vantage points where a
        /// competitor is named or cited and it is not, and the sites cited there that never
        /// cite it (your brand is the one marked own = true, or --own)
        #[arg(long)]
        gaps: bool,
        /// Your brand, one of the tracked ones, for --gaps
        #[arg(long, value_name = "NAME", requires = "gaps")]
        own: Option<String>,
    },
}

/// A refusal before anything is sent: exit code 2.
pub(super) fn invalid(message: &str) -> i32 {
    err(message);
    exit::INVALID_INPUT
}

/// The workspace a command reads (`workspace::read_located`): none when no path is given and
/// there is no vantage.toml here. The error is the sentence saying what is wrong with which
/// file, for the invalid-input exit.
pub(super) fn located_workspace(
    explicit: Option<&std::path::Path>,
) -> Result<Option<Workspace>, String> {
    let folder = std::env::current_dir().unwrap_or_default();
    workspace::read_located(explicit, &folder).map_err(|e| e.to_string())
}

/// The workspace a command cannot do without (its sets).
pub(super) fn load_workspace(explicit: Option<&std::path::Path>) -> Result<Workspace, String> {
    located_workspace(explicit)?.ok_or_else(|| {
        format!(
            "There is no {} in this folder, so there are no sets to track. Make a set with `vantage track set new NAME --prompt …` (or `n` in the app's Track tab; docs/tracking.md says how), or give the file's path with --workspace.",
            workspace::WORKSPACE_FILE
        )
    })
}

pub(super) fn find_set<'a>(workspace: &'a Workspace, name: &str) -> Result<&'a TrackSet, String> {
    workspace.set(name).ok_or_else(|| {
        let names: Vec<&str> = workspace.sets().iter().map(|s| s.name.as_str()).collect();
        if names.is_empty() {
            format!(
                "{} has no sets; add a [[sets]] table named {name}.",
                workspace.path().display()
            )
        } else {
            format!(
                "{} has no set named {name}; its sets are: {}.",
                workspace.path().display(),
                names.join(", ")
            )
        }
    })
}

/// `track check SET`.
async fn check_set(
    config: &Config,
    workspace: Option<&std::path::Path>,
    name: &str,
    json: bool,
) -> i32 {
    let (workspace, set, store) = match set_and_store(config, workspace, name) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    super::track_alerts::check(&store, &workspace, &set, json).await
}

/// The lock of set `name` (two runs of one set never overlap), or the exit code of why not
/// (said): 1 while another run holds it, 6 when it cannot be made.
pub(super) fn set_lock(config: &Config, name: &str) -> Result<lock::RunLock, i32> {
    lock::acquire(&config.data_dir, name).map_err(|error| {
        err(&error.to_string());
        match error {
            LockError::Busy { .. } => exit::FAILURE,
            _ => exit::STORAGE,
        }
    })
}

/// The workspace, its set `name` and the store, or the exit code of what stopped it (said).
pub(super) fn set_and_store(
    config: &Config,
    workspace: Option<&std::path::Path>,
    name: &str,
) -> Result<(Workspace, TrackSet, Store), i32> {
    let workspace = load_workspace(workspace).map_err(|sentence| invalid(&sentence))?;
    let set = find_set(&workspace, name)
        .map_err(|sentence| invalid(&sentence))?
        .clone();
    let store = open_store(config)?;
    Ok((workspace, set, store))
}

pub(super) fn open_store(config: &Config) -> Result<Store, i32> {
    Store::open_in(&config.data_dir, StoreOptions::from_config(config)).map_err(|error| {
        err(&error.to_string());
        error.exit_code()
    })
}

pub(super) async fn run_track(config: &Config, client: &Client, args: TrackArgs) -> i32 {
    let workspace = args.workspace.as_deref();
    match args.command {
        TrackCommand::Run {
            set,
            wait,
            dry_run,
            yes,
            retry_failed,
            sampling,
        } => {
            let spend = Spend { dry_run, yes };
            let sampling = match sampling.read() {
                Ok(sampling) => sampling,
                Err(sentence) => return invalid(&sentence),
            };
            match retry_failed {
                Some(run) => {
                    super::track_retry::retry_run(
                        config, client, workspace, &set, &run, wait, spend,
                    )
                    .await
                }
                None => run_set(config, client, workspace, &set, wait, spend, sampling).await,
            }
        }
        TrackCommand::List { json } => list(config, workspace, json),
        TrackCommand::Set(command) => super::track_set::run_set_command(workspace, command),
        TrackCommand::Report {
            set,
            format: format @ (ReportFormat::Html | ReportFormat::Md),
            last,
            runs,
            output,
        } => {
            let runs = if last { Some(1) } else { runs };
            super::track_report::report_page(
                config,
                workspace,
                &set,
                format,
                runs,
                output.as_deref(),
            )
        }
        TrackCommand::Report {
            set,
            format,
            last,
            output,
            ..
        } => super::track_report::report_set(
            config,
            workspace,
            &set,
            format,
            last,
            output.as_deref(),
        ),
        TrackCommand::Check { set, json } => check_set(config, workspace, &set, json).await,
        TrackCommand::Answers(args) => super::track_answers::answers(config, workspace, &args),
        TrackCommand::Export { set, since } => {
            // The export reads the store alone; a path given that is not a workspace file
            // is still a mistake to say.
            if let Some(Err(sentence)) = workspace.map(|path| located_workspace(Some(path))) {
                return invalid(&sentence);
            }
            super::track_travel::export(config, &set, since.as_deref())
        }
        TrackCommand::Import { file } => {
            super::track_travel::import(config, workspace, &file).await
        }
        TrackCommand::Trends {
            set,
            json,
            gaps,
            own,
        } => {
            let gaps = gaps.then(|| own.unwrap_or_default());
            super::track_trends::trends_of(config, workspace, &set, json, gaps)
        }
    }
}

/// One line of progress on stderr, only when it is a terminal (`cli::progress`).
pub(super) struct Progress {
    pub(super) shown: bool,
}

impl Progress {
    pub(super) fn new() -> Progress {
        Progress {
            shown: progress_shown(),
        }
    }

    pub(super) fn show(&self, text: &str) {
        if self.shown {
            super::progress(text);
        }
    }
}

/// What to do about the cost before anything is sent.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Spend {
    /// Say the cost and send nothing.
    pub(super) dry_run: bool,
    /// Send even when the balance falls short.
    pub(super) yes: bool,
}

/// What the cost line says of re-asks: a waiting run asks a failed call again by itself.
pub(super) const REASKS_PRICED: &str = "With --wait, a call that fails or expires is asked again within the run, up to 2 more times, each priced as any call.";

/// The cost of one run of `set` against the balance, as a sentence; an error (exit 3) when
/// the balance cannot cover its credits (by the price table) and `--yes` was not given.
async fn cost_before_spend(
    client: &Client,
    prices: &Prices,
    set: &crate::analysis::workspace::TrackSet,
    spend: Spend,
) -> Result<String, String> {
    let credits = set.most_credits(prices);
    let balance = client.account().await.ok().and_then(|a| a.credits);
    let left = balance.map_or(" (the balance could not be read)".to_string(), |c| {
        format!("; {} left", crate::plural::count(c, "credit", "credits"))
    });
    let sentence = format!(
        "A run of {} makes {}{left}. {}",
        set.name,
        set.cost_in_words(prices),
        REASKS_PRICED
    );
    if covers(balance, credits) || spend.yes || spend.dry_run {
        Ok(sentence)
    } else {
        Err(format!(
            "{sentence} Not sent: the balance cannot cover its {}. Top up, or run with --yes to send what it allows.",
            crate::plural::count(credits, "credit", "credits")
        ))
    }
}

async fn run_set(
    config: &Config,
    client: &Client,
    workspace: Option<&std::path::Path>,
    name: &str,
    wait: bool,
    spend: Spend,
    sampling: Option<super::Sampling>,
) -> i32 {
    let workspace = match load_workspace(workspace) {
        Ok(w) => w,
        Err(sentence) => return invalid(&sentence),
    };
    let mut set = match find_set(&workspace, name) {
        Ok(set) => set.clone(),
        Err(sentence) => return invalid(&sentence),
    };
    if let Some(sampling) = sampling {
        sampling.apply(&mut set);
    }
    let set = &set;
    if set.auto.is_some() && !wait && !spend.dry_run {
        return invalid(&format!(
            "The set {} spends its samples round by round (samples = \"auto\"), reading each round's answers before the next: run it with --wait.",
            set.name
        ));
    }
    if let Err(problem) =
        super::devices::checked(config, client, crate::devices::DeviceList::Ai, &set.devices).await
    {
        return invalid(&format!(
            "Nothing was sent: in the set {}, {problem}.",
            set.name
        ));
    }
    let calls = match crate::track::plan::expand(set) {
        Ok(calls) => calls,
        Err(problem) => return invalid(&format!("Nothing was sent: {problem}.")),
    };
    match cost_before_spend(client, &config.prices, set, spend).await {
        Ok(sentence) if spend.dry_run => {
            out(&with_newline(sentence));
            return exit::OK;
        }
        // Every cost is said before a spend, on stderr where a script's output is not.
        Ok(sentence) => err(&sentence),
        Err(sentence) => {
            err(&sentence);
            return exit::CREDENTIALS;
        }
    }
    let store = match open_store(config) {
        Ok(store) => store,
        Err(code) => return code,
    };
    let _lock = match set_lock(config, &set.name) {
        Ok(held) => held,
        Err(code) => return code,
    };
    let begun = match run::begin(&store, &set.name, calls).await {
        Ok(begun) => begun,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    if begun.resumed {
        let doubt = if begun.in_doubt > 0 {
            format!(
                " {} went out without their id being stored and are sent again (the service may bill them twice).",
                crate::plural::count(begun.in_doubt as u64, "call", "calls")
            )
        } else {
            String::new()
        };
        // What is left to send, priced: the run's own calls, not the set's plan of today.
        let left = store.track_items(&begun.run).map(|items| {
            let unsent = items
                .iter()
                .filter(|i| i.job_id.is_none() && i.refused.is_none());
            let mut calls = crate::price::Calls::default();
            for item in unsent {
                match item.request {
                    crate::store::RequestParams::Search(_) => calls.searches += 1,
                    _ => calls.answers += 1,
                }
            }
            calls
        });
        let cost = match left {
            Ok(calls) => format!(
                " What is left costs at most {}.",
                crate::plural::count(calls.credits(&config.prices), "credit", "credits")
            ),
            Err(_) => String::new(),
        };
        err(&format!(
            "Going on with run {} of {}, cut short before all {} were sent.{doubt}{cost}",
            begun.run.short(),
            set.name,
            crate::plural::count(begun.planned as u64, "call", "calls")
        ));
    } else {
        err(&format!(
            "Run {} of {}: {}.",
            begun.run.short(),
            set.name,
            crate::plural::count(begun.planned as u64, "call", "calls")
        ));
    }
    let progress = Progress::new();
    let submitter = JobSubmitter::new(client);
    let mut queued = 0usize;
    let tally = run::submit_unsent(
        &store,
        &submitter,
        &begun.run,
        wait_for_shutdown_signal(),
        |event| {
            if let SubmitEvent::Queued { .. } = event {
                queued += 1;
            }
            if let SubmitEvent::Refused { reason, .. } = event {
                err(reason);
            }
            progress.show(&format!("Submitting: {queued} queued of {}", begun.planned));
        },
    )
    .await;
    let tally = match tally {
        Ok(tally) => tally,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    out(&format!("{}\n", begun.run.as_str()));
    if let Some(halt) = &tally.halted {
        err(&halt.reason);
        if !tally.unstored.is_empty() {
            let (sentence, commands) = run::unstored_sentence(&tally.unstored);
            err(&format!("{sentence}\n  {}", commands.join("\n  ")));
        }
        err(&format!(
            "Submitting stopped: {} not sent; run `vantage track run {}` again to send them.",
            crate::plural::count(tally.later as u64, "call", "calls"),
            set.name
        ));
        return halt.exit_code;
    }
    if tally.stopped {
        err(&format!(
            "Stopped: {} queued, {} not sent yet; run `vantage track run {}` again to go on.",
            crate::plural::count(tally.queued as u64, "call", "calls"),
            tally.later,
            set.name
        ));
        return exit::CANCELLED;
    }
    let mut code = exit::OK;
    if tally.later > 0 {
        err(&format!(
            "{} could not be sent now; run `vantage track run {}` again to send them.",
            crate::plural::count(tally.later as u64, "call", "calls"),
            set.name
        ));
        code = exit::SERVICE;
    }
    if tally.refused > 0 {
        err(&format!(
            "The service refused {} of the set; fix them in the workspace file.",
            crate::plural::count(tally.refused as u64, "call", "calls")
        ));
        code = exit::SERVICE;
    }
    if !wait {
        err(&format!(
            "{} queued this time. `vantage jobs watch` or the app collect the results; `vantage track list` shows the run.",
            crate::plural::count(tally.queued as u64, "job", "jobs")
        ));
        return code;
    }
    super::track_settle::settle(
        &store,
        client,
        &workspace,
        set,
        &begun.run,
        &config.prices,
        code,
    )
    .await
}

/// "2026-11-23 13:40Z".
pub(super) fn started(unix_ms: i64) -> String {
    let stamp = report::timestamp(unix_ms);
    match (stamp.get(..10), stamp.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time}Z"),
        _ => stamp,
    }
}

/// The runs as aligned columns. Credits: the answered calls by the price table.
pub fn runs_table(runs: &[RunSummary], prices: &Prices) -> String {
    let mut text = format!(
        "{:<16} {:<8} {:<17} {:>6} {:>6} {:>6} {:>7} {:>6} {:>7}\n",
        "SET", "RUN", "STARTED", "CALLS", "DONE", "FAILED", "PENDING", "UNSENT", "CREDITS"
    );
    for run in runs {
        text.push_str(&format!(
            "{:<16} {:<8} {:<17} {:>6} {:>6} {:>6} {:>7} {:>6} {:>7}\n",
            crate::sanitize::one_line(&run.set_name),
            run.id.short(),
            started(run.started_at),
            run.planned,
            run.done,
            run.failed + run.refused,
            run.pending,
            run.unsent,
            run.credits(prices)
        ));
    }
    text
}

fn list(config: &Config, workspace: Option<&std::path::Path>, json: bool) -> i32 {
    let workspace = match located_workspace(workspace) {
        Ok(workspace) => workspace,
        Err(sentence) => return invalid(&sentence),
    };
    let store = match open_store(config) {
        Ok(store) => store,
        Err(code) => return code,
    };
    let runs = match store.track_runs(None) {
        Ok(runs) => runs,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    if json {
        return match serde_json::to_string_pretty(&runs) {
            Ok(text) => {
                out_as_received(&with_newline(text));
                exit::OK
            }
            Err(error) => {
                err(&format!("The runs could not be written as JSON: {error}."));
                exit::FAILURE
            }
        };
    }
    // The sets of the file, with how many calls a run makes, even before their first run.
    if let Some(workspace) = workspace {
        out(&format!("workspace {}\n", workspace.path().display()));
        for set in workspace.sets() {
            let count = runs
                .iter()
                .filter(|r| r.set_name.eq_ignore_ascii_case(&set.name))
                .count();
            out(&format!(
                "set {}: a run makes {}; {}\n",
                set.name,
                set.cost_in_words(&config.prices),
                crate::plural::count(count as u64, "run", "runs")
            ));
        }
    }
    if runs.is_empty() {
        err("No runs stored yet. Start one with `vantage track run SET`.");
    } else {
        out(&runs_table(&runs, &config.prices));
    }
    exit::OK
}

/// The brands a set's answers are read for (`Workspace::read_for`): none without a
/// workspace file.
pub(super) fn brands_for(workspace: Option<&Workspace>, set: &str) -> Vec<Brand> {
    workspace.map(|w| w.read_for(set)).unwrap_or_default()
}

pub(super) fn runs_of(store: &Store, set: &str) -> Result<Vec<RunSummary>, i32> {
    match store.track_runs(Some(set)) {
        Ok(runs) if runs.is_empty() => Err(invalid(&format!(
            "No runs of {set} are stored. Start one with `vantage track run {set}`."
        ))),
        Ok(runs) => Ok(runs),
        Err(error) => {
            err(&error.to_string());
            Err(error.exit_code())
        }
    }
}
