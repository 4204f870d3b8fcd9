//! `vantage search`: one results page (or several), as text or as received.

use clap::Args;

use super::jobs::remember_job;
use super::text::{html_text, search_text};
use super::{LocationArgs, exit_code_of, out, out_as_received, pretty_body, with_newline};
use crate::api::{Awaiting, Client, Fetched, IpType, SearchAnswer, SearchFormat, SearchRequest};
use crate::config::Config;
use crate::store::{NewJob, RequestParams};

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

/// Returns the exit code: a queued job whose id could not be stored exits 6 after printing it.
pub(super) async fn run_search(config: &Config, client: &Client, args: SearchArgs) -> i32 {
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
        return match client.search_submit(&request).await {
            Ok(id) => {
                remember_job(
                    config,
                    NewJob::submitted(id.clone(), RequestParams::Search(request)),
                )
                .await
            }
            Err(error) => exit_code_of(Err(error)),
        };
    }
    match client.search(&request).await {
        Ok(fetched) => {
            print_search(&fetched, args.json);
            crate::exit::OK
        }
        Err(error) => exit_code_of(Err(error)),
    }
}

fn print_search(fetched: &Fetched<SearchAnswer>, json: bool) {
    if json {
        out_as_received(&with_newline(pretty_body(&fetched.body)));
        return;
    }
    match &fetched.value {
        SearchAnswer::Results(results) => out(&search_text(results)),
        SearchAnswer::Html(html) => out(&with_newline(html_text(html, None))),
    }
}
