//! `vantage usage`: credits spent, by service and by hour, from `GET /usage`.

use clap::Args;
use time::OffsetDateTime;

use super::{out, out_as_received, pretty_body, with_newline};
use crate::api::browse::{iso, parse_time};
use crate::api::{ApiError, Client, Field, Service, UsageGrouping, UsageRequest};
use crate::present::usage::{UsageSummary, hours_per_mark, sparkline, summarize};

#[derive(Debug, Args)]
pub struct UsageArgs {
    /// Start of the range, inclusive (2025-12-24T18:00:00Z); default 24 hours ago
    #[arg(long, value_name = "TIME")]
    pub from: Option<String>,
    /// End of the range, inclusive; default now
    #[arg(long, value_name = "TIME")]
    pub to: Option<String>,
    /// search or browser (repeatable); default every service
    #[arg(long, value_name = "S")]
    pub service: Vec<Service>,
    /// hour (default here: totals and an hourly sparkline) or total (one row per service)
    #[arg(long, value_name = "UNIT", default_value = "hour")]
    pub by: UsageGrouping,
    /// Print the service's JSON as received
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub flags: super::ServiceFlags,
}

pub(super) async fn run_usage(client: &Client, args: UsageArgs) -> Result<(), ApiError> {
    let now = OffsetDateTime::now_utc();
    let mut request = UsageRequest::last_day(now);
    if let Some(text) = &args.to {
        request.to = parse_time(Field::To, text)?;
        if args.from.is_none() {
            request.from = request.to - time::Duration::hours(24);
        }
    }
    if let Some(text) = &args.from {
        request.from = parse_time(Field::From, text)?;
    }
    request.services = args.service;
    request.by = args.by;
    let fetched = client.usage(&request).await?;
    if args.json {
        out_as_received(&with_newline(pretty_body(&fetched.body)));
        return Ok(());
    }
    let summary = summarize(&fetched.value, request.from, request.to);
    out(&usage_text(&summary, &request));
    Ok(())
}

/// The report as a table of services, then (grouped by hour) the hours with credits and a
/// sparkline of the whole range.
pub(super) fn usage_text(summary: &UsageSummary, request: &UsageRequest) -> String {
    let mut text = format!(
        "Usage from {} to {}\n\n",
        iso(request.from),
        iso(request.to)
    );
    if summary.by_service.is_empty() {
        text.push_str("No calls in this range.\n");
        return text;
    }
    text.push_str(&format!(
        "{:<10} {:>8} {:>8} {:>9} {:>10}\n",
        "service", "calls", "failed", "credits", "mean secs"
    ));
    for total in &summary.by_service {
        text.push_str(&format!(
            "{:<10} {:>8} {:>8} {:>9} {:>10.2}\n",
            total.service, total.calls, total.failed_calls, total.credits, total.mean_secs
        ));
    }
    text.push_str(&format!(
        "{:<10} {:>8} {:>8} {:>9}\n",
        "all", "", "", summary.credits
    ));
    text.push_str(crate::present::usage::COVERS);
    text.push('\n');
    if request.by == UsageGrouping::Hour {
        text.push_str(&hourly_text(summary));
    }
    text
}

fn hourly_text(summary: &UsageSummary) -> String {
    let per_mark = hours_per_mark(summary.hourly.len());
    let unit = if per_mark == 1 {
        "one mark an hour".to_string()
    } else {
        format!("one mark per {per_mark} hours")
    };
    let mut text = format!(
        "\nCredits by hour ({unit}):\n{}\n",
        sparkline(&summary.hourly)
    );
    let Some(first) = summary.first_hour else {
        return text;
    };
    for (offset, credits) in summary.hourly.iter().enumerate() {
        if *credits == 0 {
            continue;
        }
        let hour = first + time::Duration::hours(i64::try_from(offset).unwrap_or(0));
        text.push_str(&format!("  {}  {credits:>6}\n", iso(hour)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::UsageRow;

    #[test]
    fn the_table_lists_services_then_the_hours_with_credits() {
        let to = OffsetDateTime::parse(
            "2025-12-25T12:30:00Z",
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap();
        let mut request = UsageRequest::last_day(to);
        request.by = UsageGrouping::Hour;
        let rows = [UsageRow {
            email: "a@example.com".into(),
            from: "2025-12-25T11:00:00Z".into(),
            to: "2025-12-25T11:00:00Z".into(),
            service: "search".into(),
            result: "success".into(),
            calls: 5,
            credits: 5,
            mean_secs: 1.5,
        }];
        let text = usage_text(&summarize(&rows, request.from, request.to), &request);
        assert!(
            text.contains("search            5        0         5       1.50"),
            "{text}"
        );
        assert!(text.contains("2025-12-25T11:00:00Z       5"), "{text}");
        assert!(text.contains('█'), "{text}");
        let empty = usage_text(&summarize(&[], request.from, request.to), &request);
        assert!(empty.contains("No calls in this range."), "{empty}");
    }
}
