//! `vantage discover TOPIC`: prompts worth tracking around a topic — the fanouts the chosen
//! models search and the questions and searches Google relates to it, from the chosen
//! places; at depth 2 the strongest are asked again. Ranked by how many vantage points
//! raised each, near-duplicates merged.

use clap::Args;
use clap_complete::engine::ArgValueCandidates;
use futures_util::StreamExt;

use super::record::{Kept, with_history};
use super::{err, out, out_as_received, with_newline};
use crate::api::{ApiError, Client, Location, Model, SearchAnswer};
use crate::config::Config;
use crate::exit;
use crate::present::answer;
use crate::present::compare::MAX_IN_FLIGHT;
use crate::present::compare::summary::parse_location;
use crate::present::prompts::{PromptPool, TopicAsk, prompts_text, topic_asks, topic_calls};
use crate::price::covers;
use crate::store::RequestParams;

/// How many of the strongest prompts depth 2 asks again.
const EXPANDED: usize = 5;

#[derive(Debug, Args)]
pub struct DiscoverArgs {
    /// The topic to start from ("hiking boots")
    pub topic: String,
    /// Models to ask, comma-separated (default chatgpt, whose answers list their fanouts)
    #[arg(long, value_name = "M,…", value_delimiter = ',', add = ArgValueCandidates::new(super::shell::model_candidates))]
    pub models: Vec<Model>,
    /// Places, comma-separated, each cc:subdivision:city with + for spaces (de::Berlin)
    #[arg(long, value_name = "L,…", value_delimiter = ',')]
    pub locations: Vec<String>,
    /// 1: the topic's prompts; 2: the strongest of those asked once more
    #[arg(long, value_name = "1|2", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub depth: u8,
    /// Prompts to print at most
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub limit: usize,
    /// Print the prompts as JSON
    #[arg(long)]
    pub json: bool,
    /// Say the calls it would make against the balance, and make none
    #[arg(long)]
    pub dry_run: bool,
    /// Ask even when the balance cannot cover every call
    #[arg(long)]
    pub yes: bool,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

/// What one call gave the pool.
enum Found {
    Answer(Box<answer::PreparedAnswer>),
    Results(Box<crate::api::SearchResults>),
    Nothing,
}

async fn make(config: &Config, client: &Client, ask: TopicAsk) -> Result<Found, ApiError> {
    match ask {
        TopicAsk::Model(request) => {
            let kept = Kept::start(config, RequestParams::Ai(request.clone()));
            let result = client.ai(&request).await;
            let _ = kept.finish(&result).await;
            let fetched = result?;
            let prepared = tokio::task::spawn_blocking(move || answer::prepare(request, fetched))
                .await
                .map_err(|e| ApiError::BadBody {
                    what: format!("reading the answer failed: {e}"),
                    excerpt: String::new(),
                })?;
            Ok(Found::Answer(Box::new(prepared)))
        }
        TopicAsk::Google(request) => {
            let kept = Kept::start(config, RequestParams::Search(request.clone()));
            let result = client.search(&request).await;
            let _ = kept.finish(&result).await;
            Ok(match result?.value {
                SearchAnswer::Results(results) => Found::Results(results),
                SearchAnswer::Html(_) => Found::Nothing,
            })
        }
    }
}

/// Makes a round's calls, at most `MAX_IN_FLIGHT` at once, into the pool; the errors.
async fn run_round(
    config: &Config,
    client: &Client,
    asks: Vec<(TopicAsk, String)>,
    pool: &mut PromptPool,
    depth: u8,
) -> Vec<ApiError> {
    let doing = format!(
        "Asking around the topic: {}",
        crate::plural::count(asks.len() as u64, "call", "calls")
    );
    let made = futures_util::stream::iter(asks)
        .map(|(ask, place)| async move { (make(config, client, ask).await, place) })
        .buffered(MAX_IN_FLIGHT)
        .collect();
    let results: Vec<(Result<Found, ApiError>, String)> =
        super::waiting::while_waiting(&doing, None, made).await;
    let mut errors = Vec::new();
    for (result, place) in results {
        match result {
            Ok(Found::Answer(answer)) => pool.add_answer(&answer, &place, depth),
            Ok(Found::Results(results)) => pool.add_results(&results, &place, depth),
            Ok(Found::Nothing) => {}
            Err(error) => errors.push(error),
        }
    }
    errors
}

pub(super) async fn run_discover(config: &Config, client: &Client, args: DiscoverArgs) -> i32 {
    let topic = args.topic.trim().to_string();
    let mut places: Vec<Location> = Vec::new();
    for spec in args.locations.iter().filter(|l| !l.trim().is_empty()) {
        match parse_location(spec) {
            Ok(place) => places.push(place),
            Err(sentence) => return super::refuse(&sentence),
        }
    }
    if places.is_empty() {
        places.push(Location::default());
    }
    let models = if args.models.is_empty() {
        vec![Model::Chatgpt]
    } else {
        args.models.clone()
    };
    let first = topic_asks(std::slice::from_ref(&topic), &models, &places);
    for (ask, _) in &first {
        if let Err(invalid) = ask.validate() {
            return super::refuse(&invalid.to_string());
        }
    }
    // The cost before the spend.
    let prices = &config.prices;
    let first_calls = topic_calls(1, models.len(), places.len());
    let more_calls = topic_calls(
        if args.depth > 1 { EXPANDED } else { 0 },
        models.len(),
        places.len(),
    );
    let most = first_calls.credits(prices) + more_calls.credits(prices);
    let credits = client.account().await.ok().and_then(|a| a.credits);
    let balance = credits.map_or(String::new(), |c| {
        format!("; {} left", crate::plural::count(c, "credit", "credits"))
    });
    let cost = if args.depth > 1 {
        format!(
            "Discovering around {topic:?}: {}, then up to {} more for the {EXPANDED} strongest prompts{balance}.",
            first_calls.in_words(prices),
            more_calls.in_words(prices)
        )
    } else {
        format!(
            "Discovering around {topic:?}: {}{balance}.",
            first_calls.in_words(prices)
        )
    };
    if args.dry_run {
        out(&with_newline(cost));
        return exit::OK;
    }
    if !covers(credits, most) && !args.yes {
        err(&format!(
            "{cost} Not sent: the balance cannot cover up to {}. Top up, or run with --yes.",
            crate::plural::count(most, "credit", "credits")
        ));
        return exit::CREDENTIALS;
    }
    err(&cost);
    let mut pool = PromptPool::default();
    let mut errors = run_round(config, client, first, &mut pool, 1).await;
    if args.depth > 1 {
        let strongest: Vec<String> = pool
            .ranked(&topic)
            .into_iter()
            .take(EXPANDED)
            .map(|p| p.prompt)
            .collect();
        let asks = topic_asks(&strongest, &models, &places);
        errors.extend(run_round(config, client, asks, &mut pool, 2).await);
    }
    let mut found = pool.ranked(&topic);
    found.truncate(args.limit);
    if args.json {
        match serde_json::to_string_pretty(&found) {
            Ok(text) => out_as_received(&with_newline(text)),
            Err(error) => err(&format!(
                "The prompts could not be written as JSON: {error}."
            )),
        }
    } else if found.is_empty() {
        err("Nothing was found around the topic: no fanouts, related questions or searches.");
    } else {
        out(&prompts_text(&found));
    }
    let code = match errors.first() {
        None => exit::OK,
        Some(first) => {
            err(&format!(
                "{} failed; the first: {first}",
                crate::plural::count(errors.len() as u64, "call", "calls")
            ));
            first.exit_code()
        }
    };
    with_history(code, Ok(()))
}
