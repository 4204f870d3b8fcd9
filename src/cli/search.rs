//! `vantage search`: one results page (or several), as text or as received.

use clap::Args;

use super::ai::{print_body_as_received, remember_submitted};
use super::text::{append_links, html_text, quoted_once, search_text};
use super::{LocationArgs, exit_code_of, out, out_as_received, with_newline};
use crate::analysis::overview::{self, PageExtract};
use crate::api::{Awaiting, Client, Fetched, IpType, SearchAnswer, SearchFormat, SearchRequest};
use crate::config::Config;
use crate::present::search_page::paged_html;
use crate::sanitize::one_line;
use crate::store::RequestParams;

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
    /// A device name from `vantage devices --search` (a phone's results page), or desktop
    /// for none
    #[arg(long, value_name = "NAME")]
    pub device: Option<String>,
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
    /// Print Google's AI overview and its numbered sources (asks for the HTML page with
    /// awaiting=ai); with --json, an object with ai_overview and related_questions
    #[arg(long)]
    pub ai_overview: bool,
    /// Print the service's JSON as received
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

/// Returns the exit code: a queued job whose id could not be stored exits 6 after printing it.
pub(super) async fn run_search(config: &Config, client: &Client, mut args: SearchArgs) -> i32 {
    if args.ai_overview {
        // The overview is only in the results page's HTML, and only when it was waited for.
        args.format = SearchFormat::Html;
        if !args.awaiting.contains(&Awaiting::Ai) {
            args.awaiting.push(Awaiting::Ai);
        }
    }
    let location = match args.location.to_location() {
        Ok(location) => location,
        Err(sentence) => return super::refuse(&sentence),
    };
    let list = crate::devices::DeviceList::Search;
    let device = match super::devices::checked_one(config, client, list, args.device).await {
        Ok(device) => device,
        Err(problem) => return super::refuse(&format!("{problem}.")),
    };
    let request = SearchRequest {
        terms: args.terms,
        serps: args.serps,
        size: args.size,
        offset: args.offset,
        ip: args.ip,
        device,
        location,
        uule: args.uule,
        language: args.language,
        display: args.display,
        format: args.format,
        expiration: args.expiration,
        awaiting: args.awaiting,
    };
    if args.is_async {
        let submitted = client.search_submit(&request).await;
        return remember_submitted(config, submitted, RequestParams::Search(request)).await;
    }
    let kept = super::record::Kept::start(config, RequestParams::Search(request.clone()));
    let result = super::waiting::while_waiting("Searching", None, client.search(&request)).await;
    let kept = kept.finish(&result).await;
    let code = match result {
        Ok(fetched) if args.ai_overview => {
            print_overview(&request.terms, &fetched.value, args.json);
            crate::exit::OK
        }
        Ok(fetched) => {
            print_search(&fetched, request.device.as_deref(), args.json);
            crate::exit::OK
        }
        Err(error) => exit_code_of(Err(error)),
    };
    super::record::with_history(code, kept)
}

/// The page as text; its first line says the device it was fetched as (the body does not).
fn print_search(fetched: &Fetched<SearchAnswer>, device: Option<&str>, json: bool) {
    if json {
        print_body_as_received(&fetched.body);
        return;
    }
    match &fetched.value {
        SearchAnswer::Results(results) => {
            let text = search_text(results);
            match (device, text.split_once('\n')) {
                (Some(device), Some((header, rest))) => {
                    out(&format!("{header} · as {}\n{rest}", one_line(device)))
                }
                _ => out(&text),
            }
        }
        SearchAnswer::Html(html) => out(&with_newline(html_text(&paged_html(html), None))),
    }
}

/// The AI overview (text, then its numbered sources) and the related questions; as JSON,
/// `ai_overview` is null when the page has none.
fn print_overview(terms: &str, answer: &SearchAnswer, json: bool) {
    let extract = match answer {
        SearchAnswer::Html(html) => overview::extract(html),
        // Asked as HTML; a service answering JSON anyway has no overview to read.
        SearchAnswer::Results(_) => PageExtract::default(),
    };
    if json {
        let value = serde_json::json!({
            "terms": terms,
            "ai_overview": extract.ai_overview,
            "related_questions": extract.related_questions,
        });
        out_as_received(&with_newline(
            serde_json::to_string_pretty(&value).unwrap_or_default(),
        ));
        return;
    }
    out(&with_newline(overview_text(terms, &extract)));
}

/// The overview as plain text, not Markdown: headings as their words on a line of their
/// own, list items marked `•` or numbered.
fn overview_plain(found: &crate::analysis::overview::AiOverview) -> String {
    use crate::analysis::overview::BlockKind;
    let mut lines: Vec<String> = Vec::new();
    let mut number = 0;
    for block in &found.blocks {
        number = match block.kind {
            BlockKind::NumberedItem => number + 1,
            _ => 0,
        };
        let line = match block.kind {
            BlockKind::Heading => {
                if !lines.is_empty() {
                    lines.push(String::new());
                }
                block.text.clone()
            }
            BlockKind::Paragraph => block.text.clone(),
            BlockKind::BulletItem => format!("  • {}", block.text),
            BlockKind::NumberedItem => format!("  {number}. {}", block.text),
        };
        lines.push(line);
    }
    lines.join("\n")
}

fn overview_text(terms: &str, extract: &PageExtract) -> String {
    let mut text = match &extract.ai_overview {
        Some(found) => {
            let mut text = format!(
                "AI overview · {}\n\n{}",
                quoted_once(terms),
                overview_plain(found)
            );
            append_links(
                &mut text,
                "Sources",
                found.sources.iter().map(|s| (&s.title, &s.url)),
            );
            text
        }
        None => format!(
            "The results page for {} has no AI overview: it was awaited, and Google showed none for these terms from here.",
            quoted_once(terms)
        ),
    };
    if !extract.related_questions.is_empty() {
        text.push_str("\n\nRelated questions:");
        for question in &extract.related_questions {
            text.push_str(&format!("\n  - {}", one_line(&question.question)));
            if let Some(answer) = &question.answer {
                text.push_str(&format!("\n    {}", one_line(answer)));
            }
        }
    }
    text
}
