//! The usage report made ready to show: credits by service, credits by hour, and a
//! sparkline of the hours. Pure, for the command line and the app's usage line alike.

use std::collections::BTreeMap;

use time::OffsetDateTime;

use crate::api::UsageRow;

const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const HOUR_SECS: i64 = 3600;
/// The widest sparkline; longer ranges put several hours under one mark.
pub const MAX_MARKS: usize = 72;

/// What the report covers, said wherever it is shown: the service's report has two
/// services, and an AI answer is served (and billed) by the rendering service that fetches
/// pages, so it counts under `browser`.
pub const COVERS: &str =
    "Every billed call: searches under search; AI answers and fetched pages under browser.";

/// One service's calls over the whole range.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServiceTotal {
    pub service: String,
    pub calls: u64,
    pub failed_calls: u64,
    pub credits: u64,
    /// Mean seconds per call, weighted by calls.
    pub mean_secs: f64,
}

/// What a usage report says, summed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UsageSummary {
    pub by_service: Vec<ServiceTotal>,
    pub credits: u64,
    /// Credits per hour from the range's first hour to its last, zero-filled.
    pub hourly: Vec<u64>,
    /// The start of the first hour of `hourly`.
    pub first_hour: Option<OffsetDateTime>,
}

/// Sums the rows: per service, and per hour between `from` and `to` (rows of a `total`
/// report span several hours and count at their first).
pub fn summarize(rows: &[UsageRow], from: OffsetDateTime, to: OffsetDateTime) -> UsageSummary {
    let mut services: BTreeMap<&str, (ServiceTotal, f64)> = BTreeMap::new();
    for row in rows {
        let (total, weighted_secs) = services.entry(&row.service).or_insert_with(|| {
            (
                ServiceTotal {
                    service: row.service.clone(),
                    ..ServiceTotal::default()
                },
                0.0,
            )
        });
        total.calls += row.calls;
        total.credits += row.credits;
        if !row.succeeded() {
            total.failed_calls += row.calls;
        }
        *weighted_secs += row.mean_secs * row.calls as f64;
    }
    let by_service: Vec<ServiceTotal> = services
        .into_values()
        .map(|(mut total, weighted_secs)| {
            total.mean_secs = weighted_secs / total.calls.max(1) as f64;
            total
        })
        .collect();
    let first = hour_start(from.unix_timestamp());
    let last = hour_start(to.unix_timestamp()).max(first);
    let hours = usize::try_from((last - first) / HOUR_SECS + 1).unwrap_or(1);
    let mut hourly = vec![0u64; hours];
    for row in rows {
        let Some(start) = row.starts_at() else {
            continue;
        };
        let index = (hour_start(start.unix_timestamp()) - first) / HOUR_SECS;
        if let Some(slot) = usize::try_from(index).ok().and_then(|i| hourly.get_mut(i)) {
            *slot += row.credits;
        }
    }
    UsageSummary {
        credits: by_service.iter().map(|s| s.credits).sum(),
        by_service,
        hourly,
        first_hour: OffsetDateTime::from_unix_timestamp(first).ok(),
    }
}

fn hour_start(unix: i64) -> i64 {
    unix - unix.rem_euclid(HOUR_SECS)
}

/// How many hours each mark of [`sparkline`] stands for.
pub fn hours_per_mark(hours: usize) -> usize {
    hours.div_ceil(MAX_MARKS).max(1)
}

/// One mark per hour (or per group of hours past [`MAX_MARKS`]), the highest the tallest;
/// an hour with no credits is the lowest mark, so the line keeps its length.
pub fn sparkline(hourly: &[u64]) -> String {
    let per_mark = hours_per_mark(hourly.len());
    let marks: Vec<u64> = hourly.chunks(per_mark).map(|c| c.iter().sum()).collect();
    let top = marks.iter().copied().max().unwrap_or(0);
    marks
        .iter()
        .map(|&value| {
            if top == 0 {
                return BARS[0];
            }
            let level = (value * (BARS.len() as u64 - 1)).div_ceil(top);
            BARS[usize::try_from(level).unwrap_or(0).min(BARS.len() - 1)]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::format_description::well_known::Rfc3339;

    fn at(text: &str) -> OffsetDateTime {
        OffsetDateTime::parse(text, &Rfc3339).unwrap()
    }

    fn row(service: &str, from: &str, result: &str, calls: u64, credits: u64) -> UsageRow {
        UsageRow {
            email: "a@example.com".into(),
            from: from.into(),
            to: from.into(),
            service: service.into(),
            result: result.into(),
            calls,
            credits,
            mean_secs: 2.0,
        }
    }

    #[test]
    fn rows_sum_by_service_and_by_hour() {
        let rows = [
            row("search", "2025-12-25T10:00:00Z", "success", 3, 3),
            row("search", "2025-12-25T12:00:00Z", "failure", 1, 0),
            row("browser", "2025-12-25T12:00:00Z", "success", 2, 4),
        ];
        let summary = summarize(
            &rows,
            at("2025-12-25T10:30:00Z"),
            at("2025-12-25T13:10:00Z"),
        );
        assert_eq!(summary.credits, 7);
        assert_eq!(summary.hourly, vec![3, 0, 4, 0]);
        let search = &summary.by_service[1];
        assert_eq!(
            (search.calls, search.failed_calls, search.credits),
            (4, 1, 3)
        );
        assert_eq!(summary.by_service[0].service, "browser");
    }

    #[test]
    fn the_sparkline_scales_to_the_busiest_hour() {
        assert_eq!(sparkline(&[0, 1, 7, 0]), "▁▂█▁");
        assert_eq!(sparkline(&[0, 0]), "▁▁");
        let week = vec![1u64; 24 * 7];
        assert_eq!(sparkline(&week).chars().count(), 168usize.div_ceil(3));
        assert_eq!(hours_per_mark(24), 1);
    }
}
