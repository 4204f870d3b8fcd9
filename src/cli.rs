//! The command line: its grammar, and the non-interactive subcommands for scripting.
//! Output goes to stdout; errors go to stderr as the sentence of `ApiError`.

use std::io::Write;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::api::Secret;
use crate::api::client::poll_delay;
use crate::api::proxy;
use crate::api::{
    AiAnswer, AiFormat, AiRequest, ApiError, Awaiting, Client, Completion, Fetched, IpType,
    JobAnswer, JobId, JobKind, JobPoll, Location, Model, SearchAnswer, SearchFormat, SearchRequest,
    SearchResults,
};
use crate::config::Config;
use crate::jobs::{MAX_IN_FLIGHT, PollOutcome, Scheduler, Transition};
use crate::render::{self, RenderOptions};
use crate::sim::{self, SimConfig, Simulator};
use crate::store::{
    Body, JobRecord, NewJob, RequestParams, Store, StoreError, StoreOptions, now_ms,
};

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
    Compare(crate::compare_cli::CompareArgs),
    /// Run one search from several locations and IP types; print how ranks move
    CompareSearch(crate::compare_cli::CompareSearchArgs),
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

#[derive(Debug, Args)]
pub struct AiArgs {
    /// What to ask (up to 2,047 characters)
    pub prompt: String,
    /// chatgpt (default), gemini, perplexity or copilot
    #[arg(long, value_name = "M")]
    pub model: Option<Model>,
    /// A device name from `vantage devices`
    #[arg(long, value_name = "D")]
    pub device: Option<String>,
    #[command(flatten)]
    pub location: LocationArgs,
    /// Language (planned by the service)
    #[arg(long, value_name = "L")]
    pub language: Option<String>,
    /// Display language (planned by the service)
    #[arg(long, value_name = "L")]
    pub display: Option<String>,
    /// json (default), rendered or raw
    #[arg(long, value_name = "F", default_value = "json")]
    pub format: AiFormat,
    /// 1 allows a cached answer (default), 0 asks for a fresh one
    #[arg(long, value_name = "0|1")]
    pub expiration: Option<u32>,
    /// Queue the call and print the job id
    #[arg(long = "async")]
    pub is_async: bool,
    /// Print the service's JSON as received
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// What to search for (up to 255 characters; quote an exact phrase)
    pub terms: String,
    /// Result pages to fetch, 1 to 10
    #[arg(long, value_name = "N")]
    pub serps: Option<u32>,
    /// Results per page, 0 to 100
    #[arg(long, value_name = "N")]
    pub size: Option<u32>,
    /// Initial results to skip, 0 to 100
    #[arg(long, value_name = "N")]
    pub offset: Option<u32>,
    /// residential or isp
    #[arg(long, value_name = "TYPE")]
    pub ip: Option<IpType>,
    #[command(flatten)]
    pub location: LocationArgs,
    /// Encoded location string
    #[arg(long, value_name = "U")]
    pub uule: Option<String>,
    /// Language: a common name, a two-letter code or the engine's own code
    #[arg(long, value_name = "L")]
    pub language: Option<String>,
    /// Display language of the results page (defaults to the language)
    #[arg(long, value_name = "L")]
    pub display: Option<String>,
    /// json (default here) or html
    #[arg(long, value_name = "F", default_value = "json")]
    pub format: SearchFormat,
    /// 1 allows a cached page (default), 0 asks for a fresh one
    #[arg(long, value_name = "0|1")]
    pub expiration: Option<u32>,
    /// Wait for: ai, answers, ads (repeatable)
    #[arg(long, value_name = "WHAT")]
    pub awaiting: Vec<Awaiting>,
    /// Queue the search and print the job id
    #[arg(long = "async")]
    pub is_async: bool,
    /// Print the service's JSON as received
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct JobArgs {
    /// ai, search or browser
    pub kind: JobKind,
    /// The job id (a UUID)
    pub id: String,
    /// Poll until the job ends
    #[arg(long)]
    pub wait: bool,
    /// Print the service's JSON as received
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct JobsArgs {
    #[command(subcommand)]
    pub command: Option<JobsCommand>,
    /// Print the jobs as JSON
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Subcommand)]
pub enum JobsCommand {
    /// Stored jobs, newest first: kind, id, state, age, attempts, summary (the default)
    List,
    /// Poll the pending jobs (at most 8 at once) until each has ended, storing results
    Watch,
}

#[derive(Debug, Args)]
pub struct SimArgs {
    /// Port to listen on (0 picks a free one)
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Token the simulator accepts
    #[arg(long, default_value = sim::DEMO_TOKEN)]
    pub token: String,
    /// Starting credit balance
    #[arg(long, default_value_t = 1_000)]
    pub credits: u64,
    /// Multiplies the models' observed latencies (0 answers at once)
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub latency_scale: f64,
    /// Every billed answer takes exactly this many milliseconds
    #[arg(long, value_name = "MS")]
    pub fixed_latency_ms: Option<u64>,
    /// How long a queued job stays pending, in milliseconds
    #[arg(long, value_name = "MS", default_value_t = 3_000)]
    pub job_pending_ms: u64,
    /// Share of queued jobs that fail, 0 to 1
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub job_fail_share: f64,
    /// Share of billed calls answered with a fault, 0 to 1
    #[arg(long, value_name = "F", default_value_t = 0.0)]
    pub fault_rate: f64,
    /// Faults to draw from: captcha,500,503,504,429,slow,malformed
    #[arg(
        long,
        value_name = "LIST",
        default_value = "captcha,500,503,504,slow,malformed"
    )]
    pub faults: String,
    /// Faults for the next billed calls, in order (ok for a normal answer): 503,ok,500
    #[arg(long, value_name = "LIST")]
    pub script: Option<String>,
    /// Answer /ai/devices with an empty list
    #[arg(long)]
    pub empty_devices: bool,
    /// Keep the job table in this file across restarts
    #[arg(long, value_name = "PATH")]
    pub state_file: Option<std::path::PathBuf>,
}

impl SimArgs {
    pub fn to_config(&self) -> Result<(SimConfig, Vec<Option<sim::Fault>>), String> {
        let in_unit = |name: &str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(v)
            } else {
                Err(format!("--{name} must be from 0 to 1, not {v}"))
            }
        };
        let mut config = SimConfig {
            token: self.token.clone(),
            credits: self.credits,
            latency_scale: self.latency_scale.max(0.0),
            fixed_latency: self.fixed_latency_ms.map(Duration::from_millis),
            job_pending: Duration::from_millis(self.job_pending_ms),
            job_fail_share: in_unit("job-fail-share", self.job_fail_share)?,
            fault_rate: in_unit("fault-rate", self.fault_rate)?,
            empty_devices: self.empty_devices,
            state_file: self.state_file.clone(),
            ..SimConfig::default()
        };
        config.fault_kinds = sim::parse_faults(&self.faults)?;
        let script = match &self.script {
            None => Vec::new(),
            Some(list) => list
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|item| {
                    if item.eq_ignore_ascii_case("ok") {
                        Ok(None)
                    } else {
                        item.parse::<sim::Fault>()
                            .map(Some)
                            .map_err(|e| e.to_string())
                    }
                })
                .collect::<Result<_, _>>()?,
        };
        Ok((config, script))
    }
}

/// Writes to stdout, ignoring a closed pipe (`vantage search … | head` must not panic).
fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

/// The body as received, pretty when it is JSON.
fn pretty_body(body: &str) -> String {
    render::pretty_json(body).unwrap_or_else(|| body.to_string())
}

fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Runs one subcommand (not `sim`) and returns the process exit code.
pub async fn run(config: &Config, client: &Client, command: Command) -> i32 {
    let result = match command {
        Command::Ai(args) => run_ai(config, client, args).await,
        Command::Devices { json } => run_devices(client, json).await,
        Command::Search(args) => run_search(config, client, args).await,
        Command::Job(args) => run_job(client, args).await,
        Command::Jobs(args) => return run_jobs(config, client, args).await,
        Command::Compare(args) => return crate::compare_cli::run_compare(client, args).await,
        Command::CompareSearch(args) => {
            return crate::compare_cli::run_compare_search(client, args).await;
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

async fn run_ai(config: &Config, client: &Client, args: AiArgs) -> Result<(), ApiError> {
    let request = AiRequest {
        prompt: args.prompt,
        model: args.model,
        device: args.device,
        location: args.location.to_location(),
        language: args.language,
        display: args.display,
        format: args.format,
        expiration: args.expiration,
    };
    if args.is_async {
        let id = client.ai_submit(&request).await?;
        remember_job(
            config,
            NewJob::submitted(id.clone(), RequestParams::Ai(request)),
        )
        .await;
        out(&format!("{id}\n"));
        return Ok(());
    }
    let fetched = client.ai(&request).await?;
    if args.json {
        out(&with_newline(pretty_body(&fetched.body)));
    } else {
        out(&with_newline(ai_text(
            &fetched.value,
            request.effective_model(),
        )));
    }
    Ok(())
}

async fn run_devices(client: &Client, json: bool) -> Result<(), ApiError> {
    let fetched = client.devices().await?;
    if json {
        out(&with_newline(pretty_body(&fetched.body)));
    } else if fetched.value.is_empty() {
        eprintln!(
            "The service lists no devices right now; a device name can still be typed with --device."
        );
    } else {
        out(&with_newline(fetched.value.join("\n")));
    }
    Ok(())
}

async fn run_search(config: &Config, client: &Client, args: SearchArgs) -> Result<(), ApiError> {
    let request = SearchRequest {
        terms: args.terms,
        serps: args.serps,
        size: args.size,
        offset: args.offset,
        ip: args.ip,
        location: args.location.to_location(),
        uule: args.uule,
        language: args.language,
        display: args.display,
        format: args.format,
        expiration: args.expiration,
        awaiting: args.awaiting,
    };
    if args.is_async {
        let id = client.search_submit(&request).await?;
        remember_job(
            config,
            NewJob::submitted(id.clone(), RequestParams::Search(request)),
        )
        .await;
        out(&format!("{id}\n"));
        return Ok(());
    }
    let fetched = client.search(&request).await?;
    print_search(&fetched, args.json);
    Ok(())
}

fn print_search(fetched: &Fetched<SearchAnswer>, json: bool) {
    if json {
        out(&with_newline(pretty_body(&fetched.body)));
        return;
    }
    match &fetched.value {
        SearchAnswer::Results(results) => out(&search_text(results)),
        SearchAnswer::Html(html) => out(&with_newline(html_text(html, None))),
    }
}

async fn run_job(client: &Client, args: JobArgs) -> Result<(), ApiError> {
    let id = JobId::parse(&args.id)?;
    let mut polls = 0u32;
    loop {
        let fetched = client.job(args.kind, &id).await?;
        polls += 1;
        match &fetched.value {
            JobPoll::Ready(answer) => {
                if args.json {
                    out(&with_newline(pretty_body(&fetched.body)));
                } else {
                    out(&with_newline(job_text(answer)));
                }
                return Ok(());
            }
            JobPoll::Failed => return Err(ApiError::JobFailed),
            JobPoll::Pending(status) => {
                if !args.wait {
                    if args.json {
                        out(&with_newline(pretty_body(&fetched.body)));
                    } else {
                        out(&format!("pending ({status}); use --wait to wait for it\n"));
                    }
                    return Ok(());
                }
                let delay = poll_delay(polls);
                eprintln!("pending ({status}); next poll in {} s", delay.as_secs());
                tokio::select! {
                    _ = tokio::time::sleep(delay) => {}
                    _ = tokio::signal::ctrl_c() => return Err(ApiError::Cancelled),
                }
            }
        }
    }
}

// ---- stored jobs ----

fn open_store(config: &Config) -> Result<Store, StoreError> {
    Store::open_in(&config.data_dir, StoreOptions::from_config(config))
}

/// Stores a job the moment its id arrives, before the id is printed. If the store fails,
/// the id is still printed, with a warning, so that it is not lost.
async fn remember_job(config: &Config, job: NewJob) {
    let id = job.id.clone();
    let kind = job.kind;
    let stored = match open_store(config) {
        Ok(store) => store.record_job(job).await,
        Err(error) => Err(error),
    };
    if let Err(error) = stored {
        eprintln!(
            "{error} The job was queued but not stored; fetch it with `vantage job {kind} {id}`."
        );
    }
}

async fn run_jobs(config: &Config, client: &Client, args: JobsArgs) -> i32 {
    let store = match open_store(config) {
        Ok(store) => store,
        Err(error) => {
            eprintln!("{error}");
            return 1;
        }
    };
    match args.command.unwrap_or(JobsCommand::List) {
        JobsCommand::List => list_jobs(&store, args.json),
        JobsCommand::Watch => watch_jobs(&store, client).await,
    }
}

fn list_jobs(store: &Store, json: bool) -> i32 {
    let jobs = match store.list_jobs() {
        Ok(jobs) => jobs,
        Err(error) => {
            eprintln!("{error}");
            return 1;
        }
    };
    if json {
        match serde_json::to_string_pretty(&jobs) {
            Ok(text) => out(&with_newline(text)),
            Err(error) => {
                eprintln!("The jobs could not be written as JSON: {error}.");
                return 1;
            }
        }
    } else if jobs.is_empty() {
        eprintln!(
            "No jobs stored. Queue one with `vantage ai \"…\" --async` or `vantage search \"…\" --async`."
        );
    } else {
        out(&jobs_table(&jobs, now_ms()));
    }
    0
}

/// The jobs as aligned columns: kind, short id, state, age, attempts, summary.
pub fn jobs_table(jobs: &[JobRecord], now: i64) -> String {
    let mut text = format!(
        "{:<7} {:<8} {:<7} {:>5} {:>5}  {}\n",
        "KIND", "ID", "STATE", "AGE", "TRIES", "SUMMARY"
    );
    for job in jobs {
        let summary = if job.summary.is_empty() {
            "(imported)"
        } else {
            &job.summary
        };
        text.push_str(&format!(
            "{:<7} {:<8} {:<7} {:>5} {:>5}  {}\n",
            job.kind.as_str(),
            job.id.short(),
            job.state.as_str(),
            age(now - job.created_at),
            job.attempts,
            summary
        ));
    }
    text
}

/// "42s", "5m", "3h", "2d".
pub fn age(millis: i64) -> String {
    let secs = millis.max(0) / 1000;
    match secs {
        0..60 => format!("{secs}s"),
        60..3_600 => format!("{}m", secs / 60),
        3_600..86_400 => format!("{}h", secs / 3_600),
        _ => format!("{}d", secs / 86_400),
    }
}

/// "830 B", "12.3 KB", "1.4 MB".
pub fn human_size(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} KB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// One line per state change: `<id> ai pending → done (12.3 KB)`.
pub fn transition_line(t: &Transition, size: Option<u64>) -> String {
    let mut line = format!("{} {} {} → {}", t.id, t.kind, t.from, t.to);
    if let Some(size) = size {
        line.push_str(&format!(" ({})", human_size(size)));
    }
    if let Some(error) = &t.error {
        line.push_str(&format!(": {error}"));
    }
    if t.parked {
        line.push_str(" (giving up for now; `vantage jobs watch` tries again)");
    }
    line
}

/// Errors in a row after which `jobs watch` leaves a job in `error` for a later run.
const WATCH_ERROR_LIMIT: u32 = 6;

/// How a watch session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchEnd {
    /// Every job ended (or was given up on for this session).
    Settled,
    /// Stopped by the caller (Ctrl+C, SIGTERM); jobs left pending stay stored.
    Stopped,
    /// The very first answers were transport failures: the service cannot be reached.
    Unreachable(String),
}

/// Polls the jobs in `scheduler` until none waits, at most 8 at once, storing each poll's
/// outcome (and, durably before reporting it, every state change and result). `poll` makes
/// one retrieval; `report` hears every state change with the result's size.
pub async fn drive_jobs<P, F, T>(
    store: &Store,
    scheduler: &mut Scheduler,
    mut poll: P,
    stop: impl std::future::Future<Output = ()>,
    mut report: impl FnMut(&Transition, Option<u64>),
) -> Result<WatchEnd, StoreError>
where
    P: FnMut(JobKind, JobId) -> F,
    F: std::future::Future<Output = Result<Fetched<JobPoll<T>>, ApiError>> + Send + 'static,
    T: Send + 'static,
{
    let mut polls = tokio::task::JoinSet::new();
    let mut tasks = std::collections::HashMap::new();
    let mut reached = false;
    tokio::pin!(stop);
    loop {
        for ticket in scheduler.due(now_ms()) {
            let call = poll(ticket.kind, ticket.id.clone());
            let handle = polls.spawn(call);
            tasks.insert(handle.id(), ticket.id);
        }
        if scheduler.is_settled() {
            store.flush().await?;
            return Ok(WatchEnd::Settled);
        }
        let wait = scheduler
            .next_wake()
            .map_or(60_000, |at| (at - now_ms()).clamp(0, 60_000));
        tokio::select! {
            biased;
            () = &mut stop => {
                polls.abort_all();
                store.flush().await?;
                return Ok(WatchEnd::Stopped);
            }
            Some(joined) = polls.join_next_with_id() => {
                let (task, result) = match joined {
                    Ok((task, result)) => (task, result),
                    Err(error) => (
                        error.id(),
                        Err(ApiError::BadBody {
                            what: format!("the poll stopped: {error}"),
                            excerpt: String::new(),
                        }),
                    ),
                };
                let Some(id) = tasks.remove(&task) else { continue };
                let transport = matches!(result, Err(ApiError::Transport { .. }));
                let unreachable = transport && !reached;
                reached |= !transport;
                let outcome = PollOutcome::of(&result);
                let Some(transition) = scheduler.complete(&id, &outcome, now_ms()) else {
                    continue;
                };
                let body = match (&outcome, &result) {
                    (PollOutcome::Ready, Ok(fetched)) => Some(Body::of(fetched)),
                    _ => None,
                };
                let size = body.as_ref().map(Body::size);
                let ack = store.update_job(transition.clone(), body);
                if transition.changed() || size.is_some() || transition.parked {
                    ack.await?;
                    report(&transition, size);
                } else {
                    ack.detach();
                }
                if unreachable {
                    polls.abort_all();
                    store.flush().await?;
                    let message = match result {
                        Err(error) => error.to_string(),
                        Ok(_) => String::new(),
                    };
                    return Ok(WatchEnd::Unreachable(message));
                }
            }
            () = tokio::time::sleep(Duration::from_millis(wait.unsigned_abs())) => {}
        }
    }
}

async fn watch_jobs(store: &Store, client: &Client) -> i32 {
    let open = match store.open_jobs() {
        Ok(jobs) => jobs,
        Err(error) => {
            eprintln!("{error}");
            return 1;
        }
    };
    if open.is_empty() {
        eprintln!("No pending jobs to watch.");
        return 0;
    }
    let now = now_ms();
    let mut scheduler = Scheduler::new().with_error_limit(WATCH_ERROR_LIMIT);
    for job in &open {
        scheduler.insert(job.tracked(now));
    }
    eprintln!(
        "Watching {} job(s), at most {MAX_IN_FLIGHT} polls at once. Ctrl+C stops; pending jobs stay stored.",
        open.len()
    );
    let client = client.clone();
    let poll = move |kind: JobKind, id: JobId| {
        let client = client.clone();
        async move { client.job(kind, &id).await }
    };
    let ended = drive_jobs(
        store,
        &mut scheduler,
        poll,
        wait_for_shutdown_signal(),
        |t, size| out(&format!("{}\n", transition_line(t, size))),
    )
    .await;
    let counts = scheduler.counts();
    match ended {
        Ok(WatchEnd::Settled) => {
            eprintln!("{} job(s): {counts}.", counts.total());
            0
        }
        Ok(WatchEnd::Stopped) => {
            eprintln!("Stopped. {counts}; run `vantage jobs watch` again to go on.");
            130
        }
        Ok(WatchEnd::Unreachable(message)) => {
            eprintln!("{message}");
            eprintln!(
                "The service could not be reached; the jobs stay stored for a later `vantage jobs watch`."
            );
            5
        }
        Err(error) => {
            eprintln!("{error}");
            1
        }
    }
}

fn job_text(answer: &JobAnswer) -> String {
    match answer {
        JobAnswer::Ai(ai) => ai_text(ai, Model::Chatgpt),
        JobAnswer::Search(SearchAnswer::Results(results)) => search_text(results),
        JobAnswer::Search(SearchAnswer::Html(html)) | JobAnswer::Browser(html) => {
            html_text(html, None)
        }
    }
}

/// An HTML page as plain text followed by its numbered links.
fn html_text(html: &str, drop_first: Option<&'static str>) -> String {
    let doc = render::html_to_document(
        html,
        &RenderOptions {
            drop_first,
            ..RenderOptions::default()
        },
    );
    let mut text = doc.plain_text();
    append_links(
        &mut text,
        "Links",
        doc.links().iter().map(|l| (&l.text, &l.url)),
    );
    text
}

fn append_links<'a>(
    text: &mut String,
    heading: &str,
    links: impl Iterator<Item = (&'a String, &'a String)>,
) {
    let lines: Vec<String> = links
        .enumerate()
        .map(|(i, (title, url))| {
            if title.is_empty() || title == url {
                format!("  {}. {url}", i + 1)
            } else {
                format!("  {}. {title} — {url}", i + 1)
            }
        })
        .collect();
    if !lines.is_empty() {
        text.push_str(&format!("\n\n{heading}:\n{}", lines.join("\n")));
    }
}

/// The completion as plain text, its sources (from `sources` and citations inside the
/// answer, deduplicated) and its fanout queries.
pub fn ai_text(answer: &AiAnswer, requested_model: Model) -> String {
    match answer {
        AiAnswer::Html(html) => html_text(html, requested_model.hidden_label_tag()),
        AiAnswer::Completion(completion) => completion_text(completion, requested_model),
    }
}

fn completion_text(completion: &Completion, requested_model: Model) -> String {
    let model = completion.model.parse().unwrap_or(requested_model);
    let doc = render::html_to_document(
        &completion.completion,
        &RenderOptions {
            drop_first: model.hidden_label_tag(),
            ..RenderOptions::default()
        },
    );
    let mut text = doc.plain_text().trim().to_string();
    let mut sources = render::extract_links(&completion.sources);
    for link in doc.links() {
        if !sources.iter().any(|s| s.url == link.url) {
            sources.push(link.clone());
        }
    }
    append_links(
        &mut text,
        "Sources",
        sources.iter().map(|l| (&l.text, &l.url)),
    );
    if !completion.fanouts.is_empty() {
        text.push_str("\n\nFanout queries:\n");
        text.push_str(
            &completion
                .fanouts
                .iter()
                .map(|q| format!("  - {q}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    text.push('\n');
    text
}

/// Results as a ranked list, grouped by page, with sitelinks under each result.
pub fn search_text(results: &SearchResults) -> String {
    let mut text = String::new();
    let location = [&results.city, &results.subdivision, &results.country]
        .into_iter()
        .filter_map(|p| p.as_deref())
        .collect::<Vec<_>>()
        .join(", ");
    text.push_str(&format!(
        "{} · {:?} · {} results",
        if results.engine.is_empty() {
            "search"
        } else {
            &results.engine
        },
        results.terms,
        results
            .results_count
            .unwrap_or(results.results.len() as u64),
    ));
    if let Some(approx) = results.approx_results_count {
        text.push_str(&format!(" (about {approx})"));
    }
    if let Some(pages) = results.page_count {
        text.push_str(&format!(" · {pages} page(s)"));
    }
    if !location.is_empty() {
        text.push_str(&format!(" · from {location}"));
    }
    text.push('\n');
    let mut page = None;
    let mut rank = 0;
    for result in &results.results {
        if page != Some(result.page) {
            page = Some(result.page);
            text.push_str(&format!("\nPage {}\n", result.page));
        }
        let heading = result.heading();
        if result.kind.is_organic() {
            rank += 1;
            text.push_str(&format!("{rank:>3}. {heading}"));
            if !result.site.is_empty() {
                text.push_str(&format!(" — {}", result.site));
            }
            text.push('\n');
            text.push_str(&format!("     {}\n", result.target_url()));
            if !result.snippet.is_empty() {
                text.push_str(&format!("     {}\n", result.snippet));
            }
            for link in &result.sitelinks {
                text.push_str(&format!("       ↳ {} {}\n", link.title, link.url));
            }
        } else {
            text.push_str(&format!("   · [{}] {heading}", result.kind.type_name()));
            if let Some(answer) = &result.answer {
                text.push_str(&format!(" — {}", answer.description));
            }
            if !result.publisher.is_empty() {
                text.push_str(&format!(" — {}", result.publisher));
            }
            text.push('\n');
            let url = result.target_url();
            if !url.is_empty() {
                text.push_str(&format!("     {url}\n"));
            }
        }
    }
    text
}

/// Runs the simulator until Ctrl+C or SIGTERM, printing where it listens.
pub async fn run_sim(args: SimArgs) -> i32 {
    let (config, script) = match args.to_config() {
        Ok(parts) => parts,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let simulator = match Simulator::start_on(config, args.port).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "The simulator could not listen on port {}: {e}. Choose another --port, or 0 for any free one.",
                args.port
            );
            return 5;
        }
    };
    if !script.is_empty() {
        simulator.script(script);
    }
    out(&format!(
        "Simulator listening on {}\nToken: {}\nTry: VANTAGE_TOKEN={} vantage --render-url {} --search-url {} ai \"best hiking boots\"\nCtrl+C stops it.\n",
        simulator.url(),
        simulator.token(),
        simulator.token(),
        simulator.url(),
        simulator.url()
    ));
    out(&proxy_banner(simulator.proxies()));
    wait_for_shutdown_signal().await;
    simulator.shutdown().await;
    0
}

/// Resolves on Ctrl+C or, on Unix, SIGTERM.
pub async fn wait_for_shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The simulated proxies, for `vantage sim`'s banner.
fn proxy_banner(p: &sim::ProxyEndpoints) -> String {
    let fallback = p
        .residential
        .https_fallback
        .map(|port| format!(", HTTPS fallback {port}"))
        .unwrap_or_default();
    format!(
        "Proxies on {host} — residential: HTTPS {}, HTTP {}, SOCKS5 {}{fallback}; ISP: HTTP {}, HTTPS {}, SOCKS5 {}\nProxy credentials: {}:{} · they forward only to {} (directly: {})\nProxy CA (trust it for the HTTPS ports):\n{}",
        p.residential.https,
        p.residential.http,
        p.residential.socks5,
        p.isp.http,
        p.isp.https,
        p.isp.socks5,
        p.username,
        p.key,
        p.target_host,
        p.target_direct_url,
        p.ca_pem,
        host = p.host,
    )
}

#[derive(Debug, Args)]
pub struct ProxyArgs {
    /// The page to fetch through the proxy (http:// or https://); in --demo,
    /// http(s)://target.vantage.test/ip
    pub url: String,
    /// residential (default) or isp
    #[arg(long, value_name = "NET", default_value = "residential")]
    pub network: proxy::Network,
    /// https (default), http or socks5
    #[arg(long, value_name = "P", default_value = "https")]
    pub protocol: proxy::Protocol,
    /// Use the HTTPS fallback port (1080) for networks that block 65535
    #[arg(long)]
    pub fallback: bool,
    /// Two-letter ISO country code of the exit
    #[arg(long, value_name = "CC")]
    pub country: Option<String>,
    /// Second part of an ISO 3166-2 code (NY for US-NY); needs --country
    #[arg(long, value_name = "S")]
    pub subdivision: Option<String>,
    /// City name; needs --country
    #[arg(long, value_name = "C")]
    pub city: Option<String>,
    /// Postal code; needs --country
    #[arg(long, value_name = "Z")]
    pub zipcode: Option<String>,
    /// Autonomous system number; needs --country
    #[arg(long, value_name = "N")]
    pub asn: Option<u32>,
    /// mobile, common or tv
    #[arg(long = "type", value_name = "T")]
    pub kind: Option<proxy::ConnectionType>,
    /// Session name: the same session keeps the same exit
    #[arg(long, value_name = "S")]
    pub session: Option<String>,
    /// Session lifetime in minutes, 1 to 240
    #[arg(long, value_name = "MIN")]
    pub sessionttl: Option<u32>,
    /// strict, flex or norotate
    #[arg(long, value_name = "M")]
    pub sessionmode: Option<proxy::SessionMode>,
    #[arg(long, value_name = "E")]
    pub sessionerr: Option<String>,
    #[arg(long, value_name = "A")]
    pub subaccount: Option<String>,
    /// Proxy username (else VANTAGE_PROXY_USERNAME, else proxy_username in the config file)
    #[arg(long, value_name = "U")]
    pub user: Option<String>,
    /// Print the equivalent curl command (it reads the key from $VANTAGE_PROXY_KEY) and send nothing
    #[arg(long)]
    pub curl: bool,
    /// Print the answer as a JSON object
    #[arg(long)]
    pub json: bool,
}

impl ProxyArgs {
    fn options(&self) -> proxy::ProxyOptions {
        proxy::ProxyOptions {
            country: self.country.clone(),
            subdivision: self.subdivision.clone(),
            city: self.city.clone(),
            zipcode: self.zipcode.clone(),
            asn: self.asn,
            kind: self.kind,
            session: self.session.clone(),
            sessionttl: self.sessionttl,
            sessionmode: self.sessionmode,
            sessionerr: self.sessionerr.clone(),
            subaccount: self.subaccount.clone(),
        }
    }
}

/// `vantage proxy`: fetches the URL through the chosen network and protocol; returns the
/// exit code (2 invalid input, 3 credentials, 4 the proxy answered an error, 5 no answer).
pub async fn run_proxy(args: ProxyArgs, config: &Config, simulator: Option<&Simulator>) -> i32 {
    match proxy_call(args, config, simulator).await {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("{error}");
            error.exit_code()
        }
    }
}

async fn proxy_call(
    args: ProxyArgs,
    config: &Config,
    simulator: Option<&Simulator>,
) -> Result<(), proxy::ProxyError> {
    let (endpoints, username, key) = match simulator {
        Some(sim) => {
            let p = sim.proxies();
            (
                sim.client_proxy_endpoints(),
                Some(p.username.clone()),
                Secret::new(&p.key),
            )
        }
        None => (
            proxy::ProxyEndpoints::live(&config.proxy_host, &config.isp_proxy_host),
            config.proxy_username.clone(),
            config.proxy_key.clone(),
        ),
    };
    let username = args
        .user
        .clone()
        .or(username)
        .filter(|u| !u.trim().is_empty())
        .ok_or(proxy::ProxyError::MissingCredentials { what: "username" })?;
    let key = key.ok_or(proxy::ProxyError::MissingCredentials { what: "key" })?;
    let mut request = proxy::ProxyRequest::new(&username, key, &args.url);
    request.network = args.network;
    request.protocol = args.protocol;
    request.use_fallback_port = args.fallback;
    request.options = args.options();
    if args.curl {
        request.validate()?;
        out(&format!(
            "{}\n",
            proxy::curl_command(&request, &endpoints, false)
        ));
        return Ok(());
    }
    let response = request
        .send_with_timeout(&endpoints, config.timeout.min(Duration::from_secs(120)))
        .await?;
    if args.json {
        let mut value = serde_json::to_value(&response).unwrap_or_default();
        if response.is_json()
            && let Ok(parsed) = serde_json::from_str::<serde_json::Value>(&response.body)
        {
            value["json"] = parsed;
        }
        out(&with_newline(
            serde_json::to_string_pretty(&value).unwrap_or_default(),
        ));
        return Ok(());
    }
    let body = if response.is_json() {
        pretty_body(&response.body)
    } else if response.is_html() {
        render::html_to_document(&response.body, &RenderOptions::default()).plain_text()
    } else {
        response.body.clone()
    };
    out(&format!(
        "{} · {} ms · via {} as {}\nExit: {}\n\n{}",
        response.status,
        response.elapsed.as_millis(),
        response.proxy_url,
        response.username,
        response.exit.describe(),
        with_newline(body)
    ));
    Ok(())
}
