//! `vantage compare` and `vantage compare-search`: one prompt (or search) from several vantage
//! points, run concurrently, and the comparison printed as the Compare tab's summary shows it.

use clap::Args;
use clap_complete::engine::ArgValueCandidates;
use futures_util::StreamExt;

use super::brands::{BrandArgs, pick_own, tracked_brands, workspace_own};
use super::record::{Kept, with_history};
use super::{err, out, out_as_received, with_newline};
use crate::analysis::{mentions, samples};
use crate::config::Config;
use crate::exit;
use crate::store::RequestParams;

use crate::api::{
    AiFormat, AiRequest, ApiError, Client, Fetched, IpType, Location, SearchFormat, SearchRequest,
};
use crate::present::answer::{self, PreparedAnswer};
use crate::present::compare::mentions as brand_mentions;
use crate::present::compare::overview::overview_answer;
use crate::present::compare::summary::{self, RankSort};
use crate::present::compare::{
    self, AnswerSource, Axes, CompareMode, MAX_COLUMNS, MAX_IN_FLIGHT, Vantage,
};
use crate::present::search_page::{self, PreparedSearch};

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// What to ask every column (up to 2,047 characters)
    #[arg(required_unless_present = "resume")]
    pub prompt: Option<String>,
    /// Finish a comparison asked through the queue and cut short (its id, or the start of
    /// it, as it said and `vantage history` lists): its queued jobs are polled, only the
    /// columns with no job (or whose job failed) are asked
    #[arg(long, value_name = "ID", conflicts_with_all = ["prompt", "models", "devices", "locations", "samples", "queue"])]
    pub resume: Option<String>,
    /// Ask every column through the service's queue (async jobs, each id kept as it comes),
    /// as a grid of more than 16 columns always is
    #[arg(long, conflicts_with = "samples")]
    pub queue: bool,
    /// Send even when the comparison costs more than `confirm_above` credits (500 unless
    /// the config file says)
    #[arg(long)]
    pub yes: bool,
    /// Models, comma-separated: chatgpt,gemini,perplexity,copilot, and ai-overview (Google's
    /// AI Overview for the prompt as search terms, one column per location)
    #[arg(long, value_name = "M,…", value_delimiter = ',', add = ArgValueCandidates::new(super::shell::source_candidates))]
    pub models: Vec<AnswerSource>,
    /// Device names, comma-separated (see `vantage devices`); desktop is a column with no
    /// device emulation, beside phones and tablets
    #[arg(long, value_name = "D,…", value_delimiter = ',')]
    pub devices: Vec<String>,
    /// Locations, comma-separated, each cc:subdivision:city with + for spaces (de::Berlin)
    #[arg(long, value_name = "L,…", value_delimiter = ',')]
    pub locations: Vec<String>,
    /// json (default), rendered or raw, for every column
    #[arg(long, value_name = "F", default_value = "json")]
    pub format: AiFormat,
    /// 1 allows cached answers (default), 0 asks for fresh ones
    #[arg(long, value_name = "0|1")]
    pub expiration: Option<u32>,
    /// How often each column is asked afresh (the cache off): N times (1 to 20), or auto;
    /// each brand is then read as a count of the answers naming it with its 95 % interval,
    /// and the columns pooled by model, place and device
    #[command(flatten)]
    pub sampling: super::SamplingFlags,
    /// Print the comparison as JSON
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV: tidy (the default) one row per column, sample and brand; sources, one
    /// row per column, sample and cited source; matrix, the mention matrix (with --samples,
    /// each cell's count and interval)
    #[arg(long, value_name = "FORM", num_args = 0..=1, default_missing_value = "tidy")]
    pub csv: Option<super::compare_show::CsvForm>,
    /// Where your brand is missing: the columns where a competitor is named or cited and
    /// it is not, and the sites cited there that never cite it (your brand is the one
    /// marked own = true in the workspace file, or --own)
    #[arg(long)]
    pub gaps: bool,
    /// Your brand, one of the tracked ones, for --gaps
    #[arg(long, value_name = "NAME")]
    pub own: Option<String>,
    #[command(flatten)]
    pub brands: BrandArgs,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

#[derive(Debug, Args)]
pub struct CompareSearchArgs {
    /// What to search for from every column (up to 255 characters)
    pub terms: String,
    /// Locations, comma-separated, each cc:subdivision:city with + for spaces
    #[arg(long, value_name = "L,…", value_delimiter = ',')]
    pub locations: Vec<String>,
    /// IP types, comma-separated: residential,isp
    #[arg(long, value_name = "T,…", value_delimiter = ',')]
    pub ip: Vec<IpType>,
    /// Devices the pages are fetched as, comma-separated, from `vantage devices --search`;
    /// desktop is no emulation (a desktop's results page beside a phone's)
    #[arg(
        long,
        visible_alias = "device",
        value_name = "D,…",
        value_delimiter = ','
    )]
    pub devices: Vec<String>,
    /// Result pages to fetch per column, 1 to 10
    #[arg(long, value_name = "N")]
    pub serps: Option<u32>,
    /// Sort rows by their largest spread of rank across the columns, instead of by their
    /// best rank
    #[arg(long)]
    pub by_spread: bool,
    /// Print the rank table (and the brand rows) as JSON
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the brand rows as CSV: the best rank of each brand's domains per column
    #[arg(long)]
    pub csv: bool,
    #[command(flatten)]
    pub brands: BrandArgs,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

/// A refusal before anything is sent: exit code 2.
fn invalid(message: String) -> i32 {
    err(&message);
    exit::INVALID_INPUT
}

fn locations(list: &[String]) -> Result<Vec<Location>, String> {
    list.iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| summary::parse_location(l))
        .collect()
}

fn check_count(n: usize) -> Result<(), String> {
    if n > MAX_COLUMNS {
        return Err(format!(
            "Not sent: {n} columns would be {n} billed calls; at most {MAX_COLUMNS} are allowed. Remove a model, device or location."
        ));
    }
    Ok(())
}

/// The exit code once every column has been tried: 0 when all answered, else the first
/// error's (after the comparison of those that did is printed).
fn finish(errors: &[&ApiError]) -> i32 {
    match errors.first() {
        None => exit::OK,
        Some(error) => {
            err(&format!(
                "{} of the columns failed; the first: {error}",
                errors.len()
            ));
            error.exit_code()
        }
    }
}

/// Prepares what a call fetched on the blocking pool (HTML and JSON are slow to read).
async fn prepared<T, P>(
    fetched: Result<Fetched<T>, ApiError>,
    prepare: impl FnOnce(Fetched<T>) -> P + Send + 'static,
    what: &'static str,
) -> Result<P, ApiError>
where
    T: Send + 'static,
    P: Send + 'static,
{
    let fetched = fetched?;
    tokio::task::spawn_blocking(move || prepare(fetched))
        .await
        .map_err(|e| ApiError::BadBody {
            what: format!("preparing the {what} failed: {e}"),
            excerpt: String::new(),
        })
}

/// Runs every column's call, at most `MAX_IN_FLIGHT` at once, results in column order.
pub(super) async fn run_columns<R, P, Call>(requests: Vec<R>, call: impl Fn(R) -> Call) -> Vec<P>
where
    Call: Future<Output = P>,
{
    futures_util::stream::iter(requests)
        .map(call)
        .buffered(MAX_IN_FLIGHT)
        .collect()
        .await
}

/// What one answer column asks: a model, or a search for its AI Overview.
#[derive(Clone)]
pub(super) enum ColumnRequest {
    Ai(AiRequest),
    Overview(SearchRequest),
}

impl ColumnRequest {
    fn validate(&self) -> Result<(), crate::api::InvalidRequest> {
        match self {
            ColumnRequest::Ai(request) => request.validate(),
            ColumnRequest::Overview(request) => request.validate(),
        }
    }

    /// What History keeps of the column.
    pub(super) fn params(&self) -> RequestParams {
        match self {
            ColumnRequest::Ai(request) => RequestParams::Ai(request.clone()),
            ColumnRequest::Overview(request) => RequestParams::Search(request.clone()),
        }
    }
}

pub(super) async fn answer_column(
    client: &Client,
    request: ColumnRequest,
) -> Result<PreparedAnswer, ApiError> {
    match request {
        ColumnRequest::Ai(request) => {
            let fetched = client.ai(&request).await;
            prepared(fetched, move |f| answer::prepare(request, f), "answer").await
        }
        ColumnRequest::Overview(request) => {
            let fetched = client.search(&request).await;
            prepared(fetched, move |f| overview_answer(request, f), "AI Overview").await
        }
    }
}

/// What every column asks.
fn prompt_of(requests: &[ColumnRequest]) -> String {
    requests
        .iter()
        .map(|r| match r {
            ColumnRequest::Ai(r) => r.prompt.clone(),
            ColumnRequest::Overview(r) => r.terms.clone(),
        })
        .next()
        .unwrap_or_default()
}

/// What a comparison asks: its columns' vantage points and requests, how often each is
/// asked, and, when it resumes one asked through the queue, its store and entry.
struct Grid {
    vantages: Vec<Vantage>,
    requests: Vec<ColumnRequest>,
    sampling: super::Sampling,
    resume: Option<(crate::store::Store, crate::store::EntryId)>,
}

/// The grid the flags ask for, every input checked before anything is sent (exit 2).
async fn asked_anew(config: &Config, client: &Client, args: &CompareArgs) -> Result<Grid, i32> {
    let prompt = args.prompt.clone().unwrap_or_default();
    let locations = locations(&args.locations).map_err(|e| super::refuse(&e))?;
    let list = crate::devices::DeviceList::Ai;
    let devices = super::devices::checked(config, client, list, &args.devices)
        .await
        .map_err(|problem| invalid(format!("Not sent: {problem}.")))?;
    let mut axes = Axes {
        devices,
        locations,
        format: args.format,
        no_cache: args.expiration == Some(0),
        ..Axes::default()
    };
    axes.set_sources(&args.models);
    let vantages = compare::vantages(&axes, CompareMode::Answers);
    let sampling = args
        .sampling
        .read()
        .map_err(invalid)?
        .unwrap_or(super::Sampling::Fixed(1));
    let (samples, most) = match sampling {
        super::Sampling::Fixed(n) => (n, n),
        super::Sampling::Auto(plan) => (plan.first, plan.most),
    };
    samples::check_sampled_comparison(most, vantages.len())
        .map_err(|sentence| invalid(format!("Not sent: {sentence}")))?;
    if samples > 1 && args.expiration == Some(1) {
        return Err(invalid(
            "Not sent: --samples asks every column afresh, with the cache off; drop --expiration 1."
                .to_string(),
        ));
    }
    let expiration = if samples > 1 {
        Some(0)
    } else {
        args.expiration
    };
    let mut requests = Vec::new();
    for vantage in &vantages {
        let request = if vantage.overview {
            let mut request = axes.overview_request(prompt.clone(), vantage);
            request.expiration = expiration;
            ColumnRequest::Overview(request)
        } else {
            let mut request = axes.ai_request(prompt.clone(), vantage);
            request.expiration = expiration;
            ColumnRequest::Ai(request)
        };
        if let Err(e) = request.validate() {
            let error = ApiError::from(e);
            err(&format!(
                "{error} (column {})",
                vantage.label(CompareMode::Answers)
            ));
            return Err(error.exit_code());
        }
        requests.push(request);
    }
    Ok(Grid {
        vantages,
        requests,
        sampling,
        resume: None,
    })
}

/// The grid of a comparison asked through the queue, read back from its History entry.
fn resumed(config: &Config, typed: &str) -> Result<Grid, i32> {
    let store = super::record::open_store(config).map_err(|error| {
        err(&error.to_string());
        error.exit_code()
    })?;
    let entry = super::history_show::resolve(&store, typed).map_err(|(sentence, code)| {
        err(&sentence);
        code
    })?;
    let stored = match store.history_entry(&entry) {
        Ok(Some(stored)) => stored,
        Ok(None) => return Err(invalid(format!("The entry {typed} is no longer stored."))),
        Err(error) => {
            err(&error.to_string());
            return Err(error.exit_code());
        }
    };
    let RequestParams::Compare(params) = &stored.request else {
        return Err(invalid(format!(
            "The entry {typed} is a {}, not a comparison: --resume finishes a comparison asked through the queue.",
            stored.item.kind
        )));
    };
    let queued = store.grid_columns(&entry).map_err(|error| {
        err(&error.to_string());
        error.exit_code()
    })?;
    if queued.is_empty() && stored.response.is_some() {
        return Err(invalid(format!(
            "The comparison {typed} was asked at once and is whole: `vantage history show {typed}` prints it, with no call."
        )));
    }
    let mut requests = Vec::with_capacity(params.len());
    for param in params {
        requests.push(match param {
            RequestParams::Ai(request) => ColumnRequest::Ai(request.clone()),
            RequestParams::Search(request) if compare::overview::is_overview_request(request) => {
                ColumnRequest::Overview(request.clone())
            }
            other => {
                return Err(invalid(format!(
                    "The comparison {typed} holds a {} column, which --resume does not ask.",
                    other.kind()
                )));
            }
        });
    }
    let vantages = compare::vantages_of(params).map_err(|problem| {
        invalid(format!(
            "The comparison {typed} cannot be resumed: {problem}."
        ))
    })?;
    Ok(Grid {
        vantages,
        requests,
        sampling: super::Sampling::Fixed(1),
        resume: Some((store, entry)),
    })
}

/// Says what the comparison costs before anything is sent; refuses one that costs more than
/// `confirm_above` credits without `--yes`.
fn cost_first(
    config: &Config,
    requests: &[ColumnRequest],
    to_ask: &[usize],
    most: usize,
    queued: bool,
    yes: bool,
) -> Result<(), String> {
    let mut calls = crate::price::Calls::default();
    for &column in to_ask {
        let billed = match requests.get(column) {
            Some(ColumnRequest::Ai(_)) => crate::price::Billed::Ai,
            Some(ColumnRequest::Overview(_)) => crate::price::Billed::Search,
            None => continue,
        };
        for _ in 0..most {
            calls.add(billed);
        }
    }
    let credits = calls.credits(&config.prices);
    let columns = crate::plural::count(requests.len() as u64, "column", "columns");
    let how = match (queued, to_ask.len() < requests.len()) {
        (true, true) => format!(
            ", through the queue; {} still to ask",
            crate::plural::count(to_ask.len() as u64, "column", "columns")
        ),
        (true, false) => ", through the queue".to_string(),
        (false, _) => String::new(),
    };
    let most_said = if most > 1 { " at most" } else { "" };
    let sentence = format!(
        "{columns}{how}:{most_said} {}.",
        calls.credits_in_words(&config.prices)
    );
    if credits > config.confirm_above && !yes {
        return Err(format!(
            "Not sent: {sentence} That is over the {} a comparison may cost unasked (confirm_above in the config file); add --yes to send it.",
            crate::plural::count(config.confirm_above, "credit", "credits")
        ));
    }
    if !to_ask.is_empty() {
        err(&sentence);
    }
    Ok(())
}

/// A new comparison's History entry, written before any column is queued.
async fn new_grid_entry(
    config: &Config,
    requests: &[ColumnRequest],
) -> Result<(crate::store::Store, crate::store::EntryId), i32> {
    let store = super::record::open_store(config).map_err(|error| {
        err(&format!(
            "{error} A comparison through the queue keeps its jobs in the store: nothing was sent."
        ));
        error.exit_code()
    })?;
    let (entry, ack) = store.add_request(RequestParams::Compare(
        requests.iter().map(ColumnRequest::params).collect(),
    ));
    ack.await.map_err(|error| {
        err(&format!("{error} Nothing was sent."));
        error.exit_code()
    })?;
    Ok((store, entry))
}

pub async fn run_compare(config: &Config, client: &Client, args: CompareArgs) -> i32 {
    let asked = match args.resume.as_deref() {
        Some(typed) => resumed(config, typed),
        None => asked_anew(config, client, &args).await,
    };
    let Grid {
        vantages,
        requests,
        sampling,
        resume,
    } = match asked {
        Ok(grid) => grid,
        Err(code) => return code,
    };
    let brands = match tracked_brands(&args.brands) {
        Ok(brands) => brands,
        Err(sentence) => return invalid(sentence),
    };
    let own = match own_brand(args.gaps, args.own.as_deref(), &args.brands, &brands) {
        Ok(own) => own,
        Err(sentence) => return invalid(sentence),
    };
    if args
        .csv
        .is_some_and(|f| f != super::compare_show::CsvForm::Sources)
        && brands.is_empty()
    {
        return invalid(
            "Not sent: --csv prints a row per tracked brand, and no brands are tracked; give --brands \
             name=domain,… or a workspace file with brands."
                .to_string(),
        );
    }
    let (first_samples, most) = match sampling {
        super::Sampling::Fixed(n) => (n, n),
        super::Sampling::Auto(plan) => (plan.first, plan.most),
    };
    let queued = resume.is_some()
        || args.queue
        || (sampling == super::Sampling::Fixed(1) && requests.len() > MAX_COLUMNS);
    let to_ask = match &resume {
        Some((store, entry)) => {
            match super::compare_queue::still_to_ask(store, entry, requests.len()) {
                Ok(columns) => columns,
                Err(code) => return code,
            }
        }
        None => (0..requests.len()).collect(),
    };
    if let Err(sentence) = cost_first(config, &requests, &to_ask, most, queued, args.yes) {
        return invalid(sentence);
    }
    let overviews = vantages.iter().filter(|v| v.overview).count();
    if overviews > 0 {
        // The service may hold an overview search for up to a minute: say why it is quiet.
        err(&format!(
            "Waiting for the AI Overview of {overviews} location{}: the service can take up to a minute for one.",
            if overviews == 1 { "" } else { "s" }
        ));
    }
    let asked = if queued {
        let (store, entry) = match resume {
            Some(held) => held,
            None => match new_grid_entry(config, &requests).await {
                Ok(held) => held,
                Err(code) => return code,
            },
        };
        let labels: Vec<String> = vantages
            .iter()
            .map(|v| v.label(CompareMode::Answers))
            .collect();
        match super::compare_queue::ask(&store, client, &entry, &requests, &labels).await {
            Ok(columns) => super::compare_rounds::Asked {
                columns: columns.into_iter().map(|c| vec![c]).collect(),
                kept: vec![Ok(())],
                rounds: 1,
                brands: brands.clone(),
            },
            Err(code) => return code,
        }
    } else {
        let asking = format!(
            "Asking {}",
            crate::plural::count((requests.len() * most) as u64, "column", "columns")
        );
        let slowest =
            super::waiting::slowest(requests.iter().filter_map(|request| match request {
                ColumnRequest::Ai(ai) => Some(ai.effective_model()),
                ColumnRequest::Overview(_) => None,
            }));
        // Each round is one History entry: every ask's request, then its answer.
        super::waiting::while_waiting(
            &asking,
            slowest,
            super::compare_rounds::ask(config, client, &vantages, &requests, sampling, &brands),
        )
        .await
    };
    let kept = asked
        .kept
        .iter()
        .find(|k| k.is_err())
        .cloned()
        .unwrap_or(Ok(()));
    let plan = match sampling {
        super::Sampling::Auto(plan) => Some(plan),
        super::Sampling::Fixed(_) => None,
    };
    let shown = super::compare_show::Shown {
        form: super::compare_show::Form::of(args.json, args.csv),
        brand_args: &args.brands,
        own,
        plan,
        first_samples,
        prompt: &prompt_of(&requests),
    };
    let errors = super::compare_show::show(&shown, &vantages, &asked, brands);
    with_history(finish(&errors), kept)
}

/// The brand `--gaps` is about: `--own`, else the workspace's `own = true`; none without
/// `--gaps`.
fn own_brand(
    gaps: bool,
    own: Option<&str>,
    brand_args: &BrandArgs,
    brands: &[mentions::Brand],
) -> Result<Option<String>, String> {
    if !gaps {
        return Ok(None);
    }
    let marked = || workspace_own(brand_args);
    pick_own(own, marked, brands).map(Some)
}

pub async fn run_compare_search(config: &Config, client: &Client, args: CompareSearchArgs) -> i32 {
    let locations = match locations(&args.locations) {
        Ok(l) => l,
        Err(e) => return super::refuse(&e),
    };
    let list = crate::devices::DeviceList::Search;
    let devices = match super::devices::checked(config, client, list, &args.devices).await {
        Ok(devices) => devices,
        Err(problem) => return invalid(format!("Not sent: {problem}.")),
    };
    let axes = Axes {
        locations,
        devices,
        ips: args.ip,
        ..Axes::default()
    };
    let vantages: Vec<Vantage> = compare::vantages(&axes, CompareMode::Search);
    if let Err(e) = check_count(vantages.len()) {
        return invalid(e);
    }
    let brands = match tracked_brands(&args.brands) {
        Ok(brands) => brands,
        Err(sentence) => return invalid(sentence),
    };
    if args.csv && brands.is_empty() {
        return invalid(
            "Not sent: --csv prints the brand rows, and no brands are tracked; give --brands \
             name=domain,… or a workspace file with brands."
                .to_string(),
        );
    }
    let mut requests = Vec::new();
    for vantage in &vantages {
        let request = SearchRequest {
            terms: args.terms.clone(),
            serps: args.serps,
            ip: vantage.ip,
            device: vantage.device.as_deref().and_then(crate::devices::emulated),
            location: vantage.location.clone(),
            format: SearchFormat::Json,
            ..SearchRequest::default()
        };
        if let Err(e) = request.validate() {
            let error = ApiError::from(e);
            err(&error.to_string());
            return error.exit_code();
        }
        requests.push(request);
    }
    let kept = Kept::start(
        config,
        RequestParams::Compare(
            requests
                .iter()
                .cloned()
                .map(RequestParams::Search)
                .collect(),
        ),
    );
    let searching = format!(
        "Searching from {}",
        crate::plural::count(requests.len() as u64, "place", "places")
    );
    let columns = run_columns(requests, |request| async move {
        let fetched = client.search(&request).await;
        prepared(
            fetched,
            move |f| search_page::prepare(request, f),
            "results",
        )
        .await
    });
    let results: Vec<Result<PreparedSearch, ApiError>> =
        super::waiting::while_waiting(&searching, None, columns).await;
    let kept = kept
        .finish_columns(&results, |page| (page.body.as_str(), page.header.elapsed))
        .await;
    let labels: Vec<String> = vantages
        .iter()
        .zip(&results)
        .map(|(v, r)| {
            let label = v.label(CompareMode::Search);
            match r {
                Ok(page) => format!(
                    "{label} · {:.1} s · {}",
                    page.header.elapsed.as_secs_f64(),
                    super::text::results_count(compare::ranked_results(page).len() as u64)
                ),
                Err(e) => format!("{label} · failed: {e}"),
            }
        })
        .collect();
    let ranked: Vec<Vec<summary::Ranked>> = results
        .iter()
        .map(|r| r.as_ref().map(compare::ranked_results).unwrap_or_default())
        .collect();
    let sort = if args.by_spread {
        RankSort::Spread
    } else {
        RankSort::Best
    };
    let rows = summary::rank_table(&ranked, sort);
    let brand_rows = brand_mentions::brand_ranks(&ranked, &brands);
    if args.json {
        let value = serde_json::json!({
            "terms": args.terms,
            "columns": labels,
            "sort": sort,
            "rows": rows,
            "brand_rows": brand_rows,
        });
        print_json(&value);
    } else if args.csv {
        out(&brand_mentions::brand_ranks_csv(&labels, &brand_rows));
    } else {
        out(&summary::rank_table_text(&labels, &rows, sort));
        if !brands.is_empty() {
            out(&brand_mentions::brand_ranks_text(&brand_rows, &brands));
        }
    }
    let errors: Vec<&ApiError> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    with_history(finish(&errors), kept)
}

/// The comparison as JSON: what the service sent, so exact into a pipe.
pub(super) fn print_json(value: &impl serde::Serialize) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => out_as_received(&with_newline(text)),
        Err(error) => err(&format!(
            "The comparison could not be written as JSON: {error}."
        )),
    }
}
