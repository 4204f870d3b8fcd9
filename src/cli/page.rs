//! `vantage page URL`: a page as a device and location see it, as Markdown or as text with
//! its links numbered; every fetch goes to History, a queued one to the jobs.

use clap::Args;
use serde_json::json;

use super::ai::remember_submitted;
use super::text::html_text;
use super::{LocationArgs, exit_code_of, out, out_as_received, with_newline};
use crate::api::{BrowserFormat, BrowserRequest, Client, Difficulty};
use crate::config::Config;
use crate::store::RequestParams;

#[derive(Debug, Args)]
pub struct PageArgs {
    /// The page's full address (https://…)
    pub url: String,
    /// A device name from `vantage devices`
    #[arg(long, value_name = "D")]
    pub device: Option<String>,
    #[command(flatten)]
    pub location: LocationArgs,
    /// low (default), medium or high: the pool tried for hard-to-reach sites
    #[arg(long, value_name = "LEVEL")]
    pub difficulty: Option<Difficulty>,
    /// rendered (default: after scripts ran), raw (as served) or markdown
    #[arg(long, value_name = "F", default_value = "rendered")]
    pub format: BrowserFormat,
    /// Queue the request and print the job id
    #[arg(long = "async")]
    pub is_async: bool,
    /// Print the page as received, in a JSON object with where it was seen from
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

/// Returns the exit code: a queued job whose id could not be stored exits 6 after printing it.
pub(super) async fn run_page(config: &Config, client: &Client, args: PageArgs) -> i32 {
    let location = match args.location.to_location() {
        Ok(location) => location,
        Err(sentence) => return super::refuse(&sentence),
    };
    let request = BrowserRequest {
        url: args.url,
        device: args.device,
        location,
        difficulty: args.difficulty,
        format: args.format,
        expiration: None,
    };
    // A request of plain strings always serializes; the URL alone is the fallback.
    let params = RequestParams::Browser(
        serde_json::to_value(&request).unwrap_or_else(|_| json!({ "url": request.url })),
    );
    if args.is_async {
        let submitted = client.browser_submit(&request).await;
        return remember_submitted(config, submitted, params).await;
    }
    let kept = super::record::Kept::start(config, params);
    let result =
        super::waiting::while_waiting("Fetching the page", None, client.browser(&request)).await;
    let kept = kept.finish(&result).await;
    let fetched = match result {
        Ok(fetched) => fetched,
        Err(error) => return super::record::with_history(exit_code_of(Err(error)), kept),
    };
    if args.json {
        let wrapped = json!({
            "url": request.url,
            "device": request.device,
            "country": request.location.country,
            "subdivision": request.location.subdivision,
            "city": request.location.city,
            "format": request.format,
            "status": fetched.status,
            "contentType": fetched.content_type,
            "body": fetched.value,
        });
        let text = serde_json::to_string_pretty(&wrapped).unwrap_or_default();
        out_as_received(&with_newline(text));
    } else {
        out(&with_newline(page_text(&fetched.value, request.format)));
    }
    super::record::with_history(crate::exit::OK, kept)
}

/// Markdown as it came; HTML (rendered or raw) as text with its links numbered.
pub(super) fn page_text(body: &str, format: BrowserFormat) -> String {
    match format {
        BrowserFormat::Markdown => body.to_string(),
        BrowserFormat::Rendered | BrowserFormat::Raw => html_text(body, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_is_printed_as_is_and_html_with_numbered_links() {
        let markdown = "# Example Domain\n\n[More](https://iana.org/)\n";
        assert_eq!(page_text(markdown, BrowserFormat::Markdown), markdown);
        let html = "<h1>Example Domain</h1><p><a href=\"https://iana.org/\">More</a></p>";
        let text = page_text(html, BrowserFormat::Rendered);
        assert!(text.contains("Example Domain"), "{text}");
        assert!(text.contains("1. More — https://iana.org/"), "{text}");
        assert!(!text.contains("<h1>"), "{text}");
    }
}
