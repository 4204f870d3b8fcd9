//! The command line: its grammar, and the non-interactive subcommands for scripting.
//! Output goes to stdout; errors go to stderr as the sentence of `ApiError`.

use std::io::Write;

use clap::{Args, Parser, Subcommand};

mod ai;
mod compare;
mod jobs;
mod proxy;
mod search;
mod sim;
mod text;

pub use ai::AiArgs;
pub use compare::{CompareArgs, CompareSearchArgs};
pub use jobs::{JobArgs, JobsArgs, JobsCommand, WatchEnd, drive_jobs};
pub use proxy::{ProxyArgs, run_proxy};
pub use search::SearchArgs;
pub use sim::{SimArgs, run_sim, wait_for_shutdown_signal};
pub use text::{ai_text, search_text};

use crate::api::{ApiError, Client, Location};
use crate::config::Config;
use crate::render::{self};

#[derive(Debug, Parser)]
#[command(
    name = "vantage",
    version,
    about = "Explore what AI chatbots answer and what search engines rank, from any model, device and location",
    after_help = "With no command, opens the app. Token: VANTAGE_TOKEN (else MASSIVE_TOKEN), else `token` in the config file."
)]
pub struct Cli {
    /// Base URL of the rendering service (/ai, /ai/devices, /browser)
    #[arg(long, global = true, value_name = "URL")]
    pub render_url: Option<String>,
    /// Base URL of the search service (/search, /search/results)
    #[arg(long, global = true, value_name = "URL")]
    pub search_url: Option<String>,
    /// Use the embedded simulator: no token, no network
    #[arg(long, global = true)]
    pub demo: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Ask a chatbot, as seen from a model, device and location
    Ai(AiArgs),
    /// List the devices the service can emulate
    Devices {
        /// Print the service's JSON as received
        #[arg(long)]
        json: bool,
    },
    /// Search, as seen from a location and IP type
    Search(SearchArgs),
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
}

#[derive(Debug, Args)]
pub struct LocationArgs {
    /// Two-letter ISO country code (US, DE…)
    #[arg(long, value_name = "CC")]
    pub country: Option<String>,
    /// Second part of a first-level ISO 3166-2 code (NY for US-NY); needs --country
    #[arg(long, value_name = "S")]
    pub subdivision: Option<String>,
    /// City name as commonly spelled; needs --country
    #[arg(long, value_name = "C")]
    pub city: Option<String>,
}

impl LocationArgs {
    fn to_location(&self) -> Location {
        Location {
            country: self.country.clone(),
            subdivision: self.subdivision.clone(),
            city: self.city.clone(),
        }
    }
}

/// Writes to stdout, ignoring a closed pipe (`vantage search … | head` must not panic).
pub(super) fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
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

/// Runs one subcommand (not `sim`) and returns the process exit code.
pub async fn run(config: &Config, client: &Client, command: Command) -> i32 {
    let result = match command {
        Command::Ai(args) => ai::run_ai(config, client, args).await,
        Command::Devices { json } => ai::run_devices(client, json).await,
        Command::Search(args) => search::run_search(config, client, args).await,
        Command::Job(args) => jobs::run_job(client, args).await,
        Command::Jobs(args) => return jobs::run_jobs(config, client, args).await,
        Command::Compare(args) => return compare::run_compare(client, args).await,
        Command::CompareSearch(args) => {
            return compare::run_compare_search(client, args).await;
        }
        Command::Sim(_) | Command::Proxy(_) => unreachable_sim(),
    };
    match result {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("{error}");
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
