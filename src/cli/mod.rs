//! The command line: its grammar, and the non-interactive subcommands for scripting.
//! Output goes to stdout; errors go to stderr as the sentence of `ApiError`.
//!
//! Everything the subcommands print passes through [`out`], [`out_as_received`] or [`err`],
//! which clean it with [`crate::sanitize`]: nothing the service sends can drive the terminal.
//! No other printing happens in this folder (a test greps for it).

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};

use clap::{Args, Parser, Subcommand};

mod ai;
mod brands;
mod compare;
mod compare_queue;
mod compare_rounds;
mod compare_show;
mod devices;
mod discover;
mod discover_prompts;
mod fanouts;
mod history;
mod history_show;
mod jobs;
mod jobs_resubmit;
mod man;
mod page;
mod proxy;
mod record;
mod sampling;
mod search;
mod service_flags;
pub use sampling::{Sampling, SamplingFlags};
pub mod shell;
mod sim;
mod store;
mod text;
mod track;
mod track_alerts;
mod track_answers;
mod track_auto;
mod track_read;
mod track_report;
mod track_retry;
mod track_set;
mod track_settle;
mod track_travel;
mod track_trends;
mod usage;
mod waiting;

pub use ai::AiArgs;
pub use brands::BrandArgs;
pub use compare::{CompareArgs, CompareSearchArgs};
pub use discover::{BrandsArgs, BrandsCommand};
pub use history::{HistoryArgs, HistoryCommand, KindArg, PagingArgs};
pub use jobs::{JobArgs, JobsArgs, JobsCommand, WatchEnd, drive_jobs};
pub use page::PageArgs;
pub use proxy::{ProxyArgs, run_proxy};
pub use search::SearchArgs;
pub use service_flags::{DemoFlag, ServiceFlags};
pub use sim::{SimArgs, run_sim, wait_for_shutdown_signal};
pub use store::StoreCommand;
pub use text::{ai_text, search_text};
pub use track::{TrackArgs, TrackCommand};
pub use usage::UsageArgs;

use crate::api::{ApiError, Client, Location, RetryNotice};
use crate::config::Config;
use crate::render::{self};
use crate::sanitize;

#[derive(Debug, Parser)]
#[command(
    name = "vantage",
    version,
    about = "Explore what AI chatbots answer and what search engines rank, from any model, device and location",
    after_help = "With no command, opens the app. Token: VANTAGE_TOKEN (else MASSIVE_TOKEN), else `token` in the config file."
)]
pub struct Cli {
    // Not global: a subcommand that takes these lists them itself (`ServiceFlags`).
    /// Base URL of the rendering service (/ai, /ai/devices, /browser)
    #[arg(long, value_name = "URL")]
    pub render_url: Option<String>,
    /// Base URL of the search service (/search, /search/results)
    #[arg(long, value_name = "URL")]
    pub search_url: Option<String>,
    /// Use the embedded simulator: no token, no network
    #[arg(long)]
    pub demo: bool,
    /// The app's workspace file: tracked brands and sets (default: the nearest vantage.toml
    /// in this folder or a parent)
    #[arg(long, value_name = "PATH", env = "VANTAGE_WORKSPACE")]
    pub workspace: Option<std::path::PathBuf>,
    /// The app's theme: dark, light, high-contrast, or a theme file (a relative path from the
    /// current folder; default: `theme` in the config file, else dark)
    #[arg(long, value_name = "THEME", add = clap_complete::engine::ArgValueCompleter::new(shell::theme_candidates))]
    pub theme: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Ask a chatbot, as seen from a model, device and location
    Ai(AiArgs),
    /// List the devices the service can emulate for an AI answer (or, with --search, for a
    /// results page)
    Devices {
        /// The devices a results page can be fetched as (/search/devices)
        #[arg(long)]
        search: bool,
        /// Print the service's JSON as received
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        flags: ServiceFlags,
    },
    /// Search, as seen from a location and IP type
    Search(SearchArgs),
    /// Fetch a page as a device and location see it (Markdown, or text with its links)
    Page(PageArgs),
    /// Credits spent by service and by hour (default: the last 24 hours)
    Usage(UsageArgs),
    /// Retrieve a queued job by kind and id
    Job(JobArgs),
    /// List the stored jobs, or watch the pending ones until they end
    Jobs(JobsArgs),
    /// Run the simulator of the service on this machine
    Sim(SimArgs),
    /// Fetch a page through the proxy networks (HTTPS, HTTP or SOCKS5)
    Proxy(ProxyArgs),
    /// Ask one prompt from several models, devices and locations; print what differs
    Compare(compare::CompareArgs),
    /// Run one search from several locations and IP types; print how ranks move
    CompareSearch(compare::CompareSearchArgs),
    /// Ask a prompt, then search each query the model searched before answering from the
    /// same place: who ranks there, and each brand's coverage of those searches
    Fanouts(fanouts::FanoutsArgs),
    /// Check the history database for damage, or copy what can be read into a new file
    Store {
        #[command(subcommand)]
        command: StoreCommand,
        #[command(flatten)]
        demo: DemoFlag,
    },
    /// List the stored requests, newest first, or search every request and answer
    History(HistoryArgs),
    /// Run a set of the workspace file through the service's queue; list, export and
    /// compare its runs over time
    Track(TrackArgs),
    /// The names the stored answers put forward that no tracked brand covers
    Brands(BrandsArgs),
    /// Prompts worth tracking around a topic: the fanouts models search and the questions
    /// and searches Google relates to it, from several places, ranked by who raised them
    Discover(discover_prompts::DiscoverArgs),
    /// Print a completion script for a shell: bash's goes in
    /// ~/.local/share/bash-completion/completions/vantage, zsh's in a folder of $fpath as
    /// _vantage (e.g. ~/.zfunc with fpath+=~/.zfunc before compinit), fish's in
    /// ~/.config/fish/completions/vantage.fish; elvish's and powershell's in the shell's
    /// startup file
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual's top page (roff): `vantage man > vantage.1`; with --dir, write it
    /// and a page for every subcommand
    Man {
        /// Write every page into this folder (made if missing): vantage.1, vantage-ai.1,
        /// vantage-track-report.1…
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
    /// Print the JSON Schema of a file, for editors that check TOML
    Schema {
        #[arg(value_enum)]
        file: shell::SchemaFile,
    },
    /// Print the keys in effect (the defaults, moved by keys.toml beside the config file)
    Keys {
        /// Print a keys.toml of every default, commented, to start from
        #[arg(long)]
        template: bool,
    },
}

#[derive(Debug, Args)]
pub struct LocationArgs {
    /// Country: two-letter ISO code (US, DE…) or name (usa, Britain); checked against the
    /// location tables before anything is sent
    #[arg(long, value_name = "CC")]
    pub country: Option<String>,
    /// Second part of a first-level ISO 3166-2 code (NY for US-NY) or its name; needs
    /// --country and must be one of that country's
    #[arg(long, value_name = "S")]
    pub subdivision: Option<String>,
    /// City name as commonly spelled; needs --country
    #[arg(long, value_name = "C")]
    pub city: Option<String>,
}

impl LocationArgs {
    /// The place to send, checked against the location tables as the app's pickers are;
    /// the sentence to print (exit 2) when it is not a place.
    fn to_location(&self) -> Result<Location, String> {
        let (country, subdivision) =
            crate::geo::check_place(self.country.as_deref(), self.subdivision.as_deref())?;
        Ok(Location {
            country: country.map(str::to_string),
            subdivision,
            city: self.city.clone(),
        })
    }
}

/// A refusal before anything is sent: the sentence on stderr and exit code 2.
pub(super) fn refuse(sentence: &str) -> i32 {
    err(&format!("Nothing was sent: {sentence}"));
    crate::exit::INVALID_INPUT
}

/// Text for the reader on stdout, cleaned of anything a terminal would obey, even into a
/// pipe. A failed write (a full disk, a closed pipe) never panics: it is kept, later output
/// is dropped, and [`run`] ends the command with a sentence and a non-zero exit.
pub(super) fn out(text: &str) {
    write_stdout(&sanitize::for_terminal(text));
}

/// Output as received (`--json`, a raw body): exact into a pipe or a file, where a program
/// reads it; cleaned when stdout is a terminal, which would obey it.
pub(super) fn out_as_received(text: &str) {
    let to_terminal = std::io::stdout().is_terminal();
    write_stdout(&sanitize::as_received(text, to_terminal));
}

/// Lines as received (see [`out_as_received`]) written to stdout one at a time through a
/// buffer, for output too large to hold (`track export`). Unlike [`out`], a failed write is
/// returned: output cut short must end the command with a sentence.
pub(super) struct OutLines {
    to_terminal: bool,
    buffer: std::io::BufWriter<std::io::StdoutLock<'static>>,
}

impl OutLines {
    pub(super) fn start() -> Self {
        let stdout = std::io::stdout();
        if COUNTDOWN_SHOWN.swap(false, std::sync::atomic::Ordering::Relaxed) {
            write_stderr(&blank_line());
        }
        OutLines {
            to_terminal: stdout.is_terminal(),
            buffer: std::io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        }
    }

    /// Whether the lines go to a terminal (where a progress line on stderr would cut them).
    pub(super) fn to_terminal(&self) -> bool {
        self.to_terminal
    }

    /// Writes `text` and a newline.
    pub(super) fn line(&mut self, text: &str) -> std::io::Result<()> {
        self.buffer
            .write_all(sanitize::as_received(text, self.to_terminal).as_bytes())?;
        self.buffer.write_all(b"\n")
    }

    /// Writes out what the buffer still holds.
    pub(super) fn finish(mut self) -> std::io::Result<()> {
        self.buffer.flush()
    }
}

fn write_stdout(text: &str) {
    // On a shared terminal, a countdown line would otherwise run into this text.
    if COUNTDOWN_SHOWN.swap(false, std::sync::atomic::Ordering::Relaxed) {
        write_stderr(&blank_line());
    }
    if STDOUT_FAILED.get().is_some() {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        let _ = STDOUT_FAILED.set(error.to_string());
    }
}

/// The first write to stdout that failed, if one did: output after it is cut short.
static STDOUT_FAILED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// A command whose output could not be written whole has failed, whatever it did: the
/// sentence on stderr, and exit 1 where it would have been 0.
pub fn with_output_checked(code: i32) -> i32 {
    let Some(problem) = STDOUT_FAILED.get() else {
        return code;
    };
    err(&format!(
        "The output could not be written whole ({problem}): what was printed is cut short. Check the disk or the program reading it."
    ));
    if code == crate::exit::OK {
        crate::exit::FAILURE
    } else {
        code
    }
}

/// A sentence on stderr (an error, a warning, a note), cleaned, ending in a newline. A retry
/// countdown on screen is cleared first, so the sentence does not land in its middle.
pub fn err(text: &str) {
    let mut line = with_newline(sanitize::for_terminal(text).into_owned());
    if COUNTDOWN_SHOWN.swap(false, std::sync::atomic::Ordering::Relaxed) {
        line.insert_str(0, &blank_line());
    }
    write_stderr(&line);
}

/// A progress line on stderr, rewritten in place, when stderr is a terminal; nothing
/// otherwise (cron, a pipe), where a line per step would flood the log.
pub(super) fn progress(text: &str) {
    if std::io::stderr().is_terminal() {
        write_stderr(&rewrite_line(&sanitize::one_line(text)));
        COUNTDOWN_SHOWN.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Whether [`progress`] shows anything.
pub(super) fn progress_shown() -> bool {
    std::io::stderr().is_terminal()
}

/// Clears the progress line, when one is on stderr.
pub(super) fn clear_progress() {
    if COUNTDOWN_SHOWN.swap(false, std::sync::atomic::Ordering::Relaxed) {
        write_stderr(&blank_line());
    }
}

/// Whether a retry's countdown holds the progress line now.
pub(super) fn retry_on_screen() -> bool {
    RETRY_COUNTING.load(std::sync::atomic::Ordering::Relaxed)
}

fn write_stderr(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
}

/// The countdown's width: one short of the terminal's, so that it never wraps.
fn line_width() -> usize {
    crossterm::terminal::size().map_or(80, |(columns, _)| usize::from(columns.max(2)) - 1)
}

/// Rewrites the line in place with a carriage return and padding, with no escape sequence,
/// so stderr carries no ESC byte at all.
fn rewrite_line(text: &str) -> String {
    let width = line_width();
    format!("\r{:<width$}", shorten(text, width.saturating_sub(1)))
}

fn blank_line() -> String {
    format!("{}\r", rewrite_line(""))
}

/// Whether a countdown line is on stderr now, to be cleared before anything else goes there.
static COUNTDOWN_SHOWN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a retry's countdown is running (a waiting spinner then leaves the line to it).
static RETRY_COUNTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The wait before an automatic retry, counted down on one line of stderr (a terminal's
/// only) and rewritten each second; [`Countdown::clear`] erases it when the call ends.
#[derive(Clone, Default)]
struct Countdown {
    ticker: Arc<Mutex<Option<tokio::task::JoinHandle<()>>>>,
}

impl Countdown {
    fn show(&self, notice: RetryNotice) {
        let reason = sanitize::one_line(&notice.error.to_string()).into_owned();
        let attempt = notice.attempt;
        let seconds = notice.wait.as_secs().max(1);
        RETRY_COUNTING.store(true, std::sync::atomic::Ordering::Relaxed);
        let ticker = tokio::spawn(async move {
            for left in (1..=seconds).rev() {
                write_stderr(&rewrite_line(&format!(
                    "Retry {attempt} in {left} s: {reason}"
                )));
                COUNTDOWN_SHOWN.store(true, std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
            RETRY_COUNTING.store(false, std::sync::atomic::Ordering::Relaxed);
        });
        if let Ok(mut slot) = self.ticker.lock()
            && let Some(previous) = slot.replace(ticker)
        {
            previous.abort();
        }
    }

    fn clear(&self) {
        if let Ok(mut slot) = self.ticker.lock()
            && let Some(ticker) = slot.take()
        {
            ticker.abort();
        }
        RETRY_COUNTING.store(false, std::sync::atomic::Ordering::Relaxed);
        clear_progress();
    }
}

/// At most `max` characters (the last an ellipsis when cut).
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max.saturating_sub(1)) {
        Some((at, _)) if text.chars().count() > max => format!("{}…", &text[..at]),
        _ => text.to_string(),
    }
}

/// The body as received, pretty when it is JSON.
pub(super) fn pretty_body(body: &str) -> String {
    render::pretty_json(body).unwrap_or_else(|| body.to_string())
}

pub(super) fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Runs one subcommand (not `sim`) and returns the process exit code. When stderr is a
/// terminal, waits before automatic retries are counted down there.
pub async fn run(config: &Config, client: &Client, command: Command) -> i32 {
    let countdown = Countdown::default();
    let client = if std::io::stderr().is_terminal() {
        let shown = countdown.clone();
        client.observed(move |notice| shown.show(notice))
    } else {
        client.clone()
    };
    let code = run_command(config, &client, command).await;
    countdown.clear();
    code
}

async fn run_command(config: &Config, client: &Client, command: Command) -> i32 {
    let result = match command {
        Command::Ai(args) => return ai::run_ai(config, client, args).await,
        Command::Devices { json, search, .. } => {
            let list = match search {
                true => crate::devices::DeviceList::Search,
                false => crate::devices::DeviceList::Ai,
            };
            ai::run_devices(client, list, json).await
        }
        Command::Search(args) => return search::run_search(config, client, args).await,
        Command::Page(args) => return page::run_page(config, client, args).await,
        Command::Usage(args) => usage::run_usage(client, args).await,
        Command::Job(args) => jobs::run_job(config, client, args).await,
        Command::Jobs(args) => return jobs::run_jobs(config, client, args).await,
        Command::Compare(args) => return compare::run_compare(config, client, args).await,
        Command::CompareSearch(args) => {
            return compare::run_compare_search(config, client, args).await;
        }
        Command::Fanouts(args) => return fanouts::run_fanouts(config, client, args).await,
        Command::Store { command, .. } => return store::run_store(config, command),
        Command::History(args) => return history::run_history(config, args),
        Command::Brands(args) => return discover::run_brands(config, args),
        Command::Discover(args) => {
            return discover_prompts::run_discover(config, client, args).await;
        }
        Command::Track(args) => return track::run_track(config, client, args).await,
        Command::Sim(_) | Command::Proxy(_) => unreachable_sim(),
        Command::Completions { shell } => return shell::completions(shell),
        Command::Man { dir } => return shell::man(dir.as_deref()),
        Command::Schema { file } => return shell::schema(file),
        Command::Keys { template } => return shell::keys(config, template),
    };
    exit_code_of(result)
}

/// 0, or the error's sentence on stderr and its exit code.
fn exit_code_of(result: Result<(), ApiError>) -> i32 {
    match result {
        Ok(()) => crate::exit::OK,
        Err(error) => {
            err(&error.to_string());
            error.exit_code()
        }
    }
}

fn unreachable_sim() -> Result<(), ApiError> {
    // main dispatches `sim` and `proxy` itself; reaching here is a wiring mistake.
    Err(ApiError::BadBody {
        what: "the sim and proxy commands are run by main".to_string(),
        excerpt: String::new(),
    })
}
