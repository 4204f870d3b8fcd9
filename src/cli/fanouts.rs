//! `vantage fanouts`: ask a prompt, then make each search the model made before answering
//! (its fanouts) again from the same place, and print who ranks there — the tracked brands'
//! best ranks, the answer's cited sites, and each brand's coverage of the fanouts.

use clap::Args;
use clap_complete::engine::ArgValueCandidates;
use futures_util::StreamExt;

use super::brands::{BrandArgs, tracked_brands};
use super::record::{Kept, with_history};
use super::{LocationArgs, err, exit_code_of, out, out_as_received, with_newline};
use crate::api::{AiFormat, AiRequest, ApiError, Client, Model};
use crate::config::Config;
use crate::exit;
use crate::present::answer;
use crate::present::compare::MAX_IN_FLIGHT;
use crate::present::compare::mentions::answer_mentions;
use crate::present::fanouts::{coverage, fanout_request};
use crate::present::search_page::{self, PreparedSearch};
use crate::price::{Calls, covers};
use crate::store::RequestParams;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FanoutFormat {
    Text,
    Csv,
}

#[derive(Debug, Args)]
pub struct FanoutsArgs {
    /// What to ask (up to 2,047 characters)
    pub prompt: String,
    /// The model to ask: chatgpt (default; its answers carry their fanouts), gemini,
    /// perplexity or copilot
    #[arg(long, value_name = "M", add = ArgValueCandidates::new(super::shell::model_candidates))]
    pub model: Option<Model>,
    /// A device name from `vantage devices` (for the answer; a search takes none)
    #[arg(long, value_name = "D")]
    pub device: Option<String>,
    #[command(flatten)]
    pub location: LocationArgs,
    /// Language of the answer and of the searches
    #[arg(long, value_name = "L")]
    pub language: Option<String>,
    /// text (default) or csv: one row per fanout and brand
    #[arg(long, value_name = "F", default_value = "text")]
    pub format: FanoutFormat,
    /// Print the coverage as JSON
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Results shown per fanout in the text
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub results: usize,
    /// Ask the prompt (one call), then say the searches its fanouts would take against the
    /// balance, and make none
    #[arg(long)]
    pub dry_run: bool,
    /// Search even when the balance cannot cover every fanout
    #[arg(long)]
    pub yes: bool,
    #[command(flatten)]
    pub brands: BrandArgs,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

pub(super) async fn run_fanouts(config: &Config, client: &Client, args: FanoutsArgs) -> i32 {
    let location = match args.location.to_location() {
        Ok(location) => location,
        Err(sentence) => return super::refuse(&sentence),
    };
    let brands = match tracked_brands(&args.brands) {
        Ok(brands) => brands,
        Err(sentence) => {
            err(&sentence);
            return exit::INVALID_INPUT;
        }
    };
    let request = AiRequest {
        prompt: args.prompt,
        model: Some(args.model.unwrap_or(Model::Chatgpt)),
        device: args.device,
        location: location.clone(),
        language: args.language.clone(),
        format: AiFormat::Json,
        ..AiRequest::default()
    };
    if let Err(invalid) = request.validate() {
        return super::refuse(&invalid.to_string());
    }
    let kept = Kept::start(config, RequestParams::Ai(request.clone()));
    let model = request.effective_model();
    let asking = format!("Asking {}", model.display_name());
    let result = super::waiting::while_waiting(&asking, Some(model), client.ai(&request)).await;
    let kept = kept.finish(&result).await;
    let fetched = match result {
        Ok(fetched) => fetched,
        Err(error) => return with_history(exit_code_of(Err(error)), kept),
    };
    let prepared = tokio::task::spawn_blocking(move || answer::prepare(request, fetched)).await;
    let Ok(prepared) = prepared else {
        err("The answer could not be read.");
        return with_history(exit::FAILURE, kept);
    };
    if prepared.fanouts.is_empty() {
        err(&format!(
            "The answer of {} lists no fanout queries, so there is nothing to search. ChatGPT's answers carry them: --model chatgpt.",
            prepared.header.model.display_name()
        ));
        return with_history(exit::NO_ANSWER, kept);
    }
    // The cost before the spend: one search a fanout, against the balance.
    let calls = prepared.fanouts.len();
    let searches = Calls::searches(calls);
    let cost = searches.in_words(&config.prices);
    let credits = client.account().await.ok().and_then(|a| a.credits);
    let balance = credits.map_or(String::new(), |c| {
        format!("; {} left", crate::plural::count(c, "credit", "credits"))
    });
    let place = crate::present::compare::summary::location_label(&location);
    if args.dry_run {
        out(&format!(
            "The answer lists {calls} fanouts; searching them from {place} makes {cost}{balance}:\n{}\n",
            prepared
                .fanouts
                .iter()
                .map(|q| format!("  {q}"))
                .collect::<Vec<_>>()
                .join("\n")
        ));
        return with_history(exit::OK, kept);
    }
    if !covers(credits, searches.credits(&config.prices)) && !args.yes {
        err(&format!(
            "Not searched: the answer's {} take {cost}{balance}. Top up, or run with --yes to search what the balance allows.",
            crate::plural::count(calls as u64, "fanout", "fanouts")
        ));
        return with_history(exit::CREDENTIALS, kept);
    }
    err(&format!(
        "Searching the answer's {} from {place}: {cost}{balance}.",
        crate::plural::count(calls as u64, "fanout", "fanouts")
    ));
    let requests: Vec<_> = prepared
        .fanouts
        .iter()
        .map(|query| fanout_request(query, &location, args.language.as_deref()))
        .collect();
    let searching = format!(
        "Searching {}",
        crate::plural::count(requests.len() as u64, "fanout", "fanouts")
    );
    let searched = futures_util::stream::iter(requests)
        .map(|request| search(config, client, request))
        .buffered(MAX_IN_FLIGHT)
        .collect();
    let searches: Vec<Result<PreparedSearch, ApiError>> =
        super::waiting::while_waiting(&searching, None, searched).await;
    let pages: Vec<Result<&PreparedSearch, String>> = searches
        .iter()
        .map(|r| r.as_ref().map_err(ToString::to_string))
        .collect();
    let found = answer_mentions(&prepared, &brands);
    let in_answer: Vec<bool> = found
        .iter()
        .map(|m| m.position.is_some() || m.cited)
        .collect();
    let report = coverage(&prepared, &pages, &brands, &in_answer);
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => out_as_received(&with_newline(text)),
            Err(error) => err(&format!(
                "The coverage could not be written as JSON: {error}."
            )),
        }
    } else {
        match args.format {
            FanoutFormat::Csv => out(&report.csv()),
            FanoutFormat::Text => out(&report.text(args.results)),
        }
    }
    // A failed search is a failed call: said, and in the exit code.
    let failed: Vec<&ApiError> = searches.iter().filter_map(|r| r.as_ref().err()).collect();
    let code = match failed.first() {
        None => exit::OK,
        Some(first) => {
            err(&format!(
                "{} of the {} failed; the first: {first}",
                failed.len(),
                crate::plural::count(calls as u64, "search", "searches")
            ));
            first.exit_code()
        }
    };
    with_history(code, kept)
}

/// One fanout's search, kept in History like any other, read on the blocking pool.
async fn search(
    config: &Config,
    client: &Client,
    request: crate::api::SearchRequest,
) -> Result<PreparedSearch, ApiError> {
    let kept = Kept::start(config, RequestParams::Search(request.clone()));
    let result = client.search(&request).await;
    if let Err(error) = kept.finish(&result).await {
        err(&format!(
            "A fanout's search was not kept in History: {error}"
        ));
    }
    let fetched = result?;
    tokio::task::spawn_blocking(move || search_page::prepare(request, fetched))
        .await
        .map_err(|e| ApiError::BadBody {
            what: format!("reading the results failed: {e}"),
            excerpt: String::new(),
        })
}
