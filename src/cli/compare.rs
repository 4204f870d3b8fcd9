//! `vantage compare` and `vantage compare-search`: one prompt (or search) from several vantage
//! points, run concurrently, and the comparison printed as the Compare tab's summary shows it.

use clap::Args;
use futures_util::StreamExt;

use super::brands::{BrandArgs, WithMentions, answer_mentions, matrix_text, tracked_brands};
use super::{err, out, out_as_received, with_newline};
use crate::analysis::mentions;
use crate::exit;

use crate::api::{
    AiFormat, ApiError, Client, IpType, Location, Model, SearchFormat, SearchRequest,
};
use crate::present::answer::{self, PreparedAnswer};
use crate::present::compare::summary::{self, AnswerSummary, RankSort};
use crate::present::compare::{self, Axes, CompareMode, MAX_COLUMNS, MAX_IN_FLIGHT, Vantage};
use crate::present::search_page::{self, PreparedSearch};

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// What to ask every column (up to 2,047 characters)
    pub prompt: String,
    /// Models, comma-separated: chatgpt,gemini,perplexity,copilot
    #[arg(long, value_name = "M,…", value_delimiter = ',')]
    pub models: Vec<Model>,
    /// Device names, comma-separated (see `vantage devices`)
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
    /// Print the comparison as JSON
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub brands: BrandArgs,
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
    /// Result pages to fetch per column, 1 to 10
    #[arg(long, value_name = "N")]
    pub serps: Option<u32>,
    /// Sort rows by their best rank (default) or their largest spread
    #[arg(long)]
    pub by_spread: bool,
    /// Print the rank table as JSON
    #[arg(long)]
    pub json: bool,
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

pub async fn run_compare(client: &Client, args: CompareArgs) -> i32 {
    let locations = match locations(&args.locations) {
        Ok(l) => l,
        Err(e) => return invalid(format!("Not sent: {e}.")),
    };
    let axes = Axes {
        models: args.models,
        devices: args.devices,
        locations,
        format: args.format,
        no_cache: args.expiration == Some(0),
        ..Axes::default()
    };
    let vantages = compare::vantages(&axes, CompareMode::Answers);
    if let Err(e) = check_count(vantages.len()) {
        return invalid(e);
    }
    let brands = match tracked_brands(&args.brands) {
        Ok(brands) => brands,
        Err(sentence) => return invalid(sentence),
    };
    let mut requests = Vec::new();
    for vantage in &vantages {
        let mut request = axes.ai_request(args.prompt.clone(), vantage);
        request.expiration = args.expiration;
        if let Err(e) = request.validate() {
            let error = ApiError::from(e);
            err(&error.to_string());
            return error.exit_code();
        }
        requests.push(request);
    }
    let results: Vec<Result<PreparedAnswer, ApiError>> = futures_util::stream::iter(requests)
        .map(|request| async move {
            let fetched = client.ai(&request).await?;
            tokio::task::spawn_blocking(move || answer::prepare(request, fetched))
                .await
                .map_err(|e| ApiError::BadBody {
                    what: format!("preparing the answer failed: {e}"),
                    excerpt: String::new(),
                })
        })
        .buffered(MAX_IN_FLIGHT)
        .collect()
        .await;
    let facts = vantages
        .iter()
        .zip(&results)
        .map(|(vantage, result)| {
            compare::answer_facts(
                vantage.label(CompareMode::Answers),
                result.as_ref().ok(),
                result.as_ref().err().map(|e| e.to_string()),
            )
        })
        .collect();
    let summary = AnswerSummary::of(facts);
    let rows = (!brands.is_empty()).then(|| {
        let columns: Vec<_> = results
            .iter()
            .map(|r| r.as_ref().ok().map(|a| answer_mentions(a, &brands)))
            .collect();
        mentions::summarize(&columns)
    });
    match (&rows, args.json) {
        (None, true) => print_json(&summary),
        (Some(rows), true) => print_json(&WithMentions {
            inner: &summary,
            mentions: rows,
        }),
        (None, false) => out(summary.text(false).trim_start()),
        (Some(rows), false) => out(&format!(
            "{}\n{}",
            with_newline(summary.text(false).trim_start().to_string()),
            matrix_text(rows)
        )),
    }
    let errors: Vec<&ApiError> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    finish(&errors)
}

pub async fn run_compare_search(client: &Client, args: CompareSearchArgs) -> i32 {
    let locations = match locations(&args.locations) {
        Ok(l) => l,
        Err(e) => return invalid(format!("Not sent: {e}.")),
    };
    let axes = Axes {
        locations,
        ips: args.ip,
        ..Axes::default()
    };
    let vantages: Vec<Vantage> = compare::vantages(&axes, CompareMode::Search);
    if let Err(e) = check_count(vantages.len()) {
        return invalid(e);
    }
    let mut requests = Vec::new();
    for vantage in &vantages {
        let request = SearchRequest {
            terms: args.terms.clone(),
            serps: args.serps,
            ip: vantage.ip,
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
    let results: Vec<Result<PreparedSearch, ApiError>> = futures_util::stream::iter(requests)
        .map(|request| async move {
            let fetched = client.search(&request).await?;
            tokio::task::spawn_blocking(move || search_page::prepare(request, fetched))
                .await
                .map_err(|e| ApiError::BadBody {
                    what: format!("preparing the results failed: {e}"),
                    excerpt: String::new(),
                })
        })
        .buffered(MAX_IN_FLIGHT)
        .collect()
        .await;
    let labels: Vec<String> = vantages
        .iter()
        .zip(&results)
        .map(|(v, r)| {
            let label = v.label(CompareMode::Search);
            match r {
                Ok(page) => format!(
                    "{label} · {:.1} s · {} results",
                    page.header.elapsed.as_secs_f64(),
                    compare::ranked_results(page).len()
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
    if args.json {
        let value = serde_json::json!({
            "terms": args.terms,
            "columns": labels,
            "sort": sort,
            "rows": rows,
        });
        print_json(&value);
    } else {
        out(&summary::rank_table_text(&labels, &rows, sort));
    }
    let errors: Vec<&ApiError> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    finish(&errors)
}

/// The comparison as JSON: what the service sent, so exact into a pipe.
fn print_json(value: &impl serde::Serialize) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => out_as_received(&with_newline(text)),
        Err(error) => err(&format!(
            "The comparison could not be written as JSON: {error}."
        )),
    }
}
