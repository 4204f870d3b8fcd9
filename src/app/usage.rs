//! The usage overlay: credits spent today by service, with an hourly sparkline, from
//! `GET /usage`. Asked at start and again after calls land, at most once per
//! [`REFRESH_EVERY`].

use std::time::{Duration, Instant};

use time::OffsetDateTime;

use crate::api::{ApiError, UsageGrouping, UsageRequest};
use crate::jobs::UnixMs;
use crate::present::usage::UsageSummary;

use super::{App, CallEffect, Effect};

/// Calls land often; the report moves slowly.
pub const REFRESH_EVERY: Duration = Duration::from_secs(30);

#[derive(Debug, Default)]
pub struct UsageState {
    pub summary: Option<UsageSummary>,
    /// Why the last report could not be had.
    pub error: Option<String>,
    /// The overlay is open.
    pub shown: bool,
    /// When the report was last asked for.
    asked_at: Option<Instant>,
    /// A call landed since then, but the ask was held back: opening the overlay asks at once.
    stale: bool,
    /// The start of the day the report covers (UTC).
    pub since: Option<OffsetDateTime>,
}

/// Today so far (UTC), one row per service and hour.
pub fn today(wall: UnixMs) -> UsageRequest {
    let now =
        OffsetDateTime::from_unix_timestamp(wall / 1000).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    UsageRequest {
        from: now.replace_time(time::Time::MIDNIGHT),
        to: now,
        services: Vec::new(),
        by: UsageGrouping::Hour,
    }
}

/// Asks for the report unless it was asked for within [`REFRESH_EVERY`] (or no token is set).
pub fn refresh(app: &mut App) -> Option<Effect> {
    // Nothing is asked without a token.
    app.connection.token.as_ref()?;
    let usage = &mut app.usage;
    if usage
        .asked_at
        .is_some_and(|at| app.now.saturating_duration_since(at) < REFRESH_EVERY)
    {
        usage.stale = true;
        return None;
    }
    ask(app)
}

fn ask(app: &mut App) -> Option<Effect> {
    let usage = &mut app.usage;
    usage.asked_at = Some(app.now);
    usage.stale = false;
    let request = today(app.wall);
    usage.since = Some(request.from);
    Some(Effect::Call(CallEffect::FetchUsage(request)))
}

pub fn on_usage(app: &mut App, result: Result<UsageSummary, ApiError>) {
    match result {
        Ok(summary) => {
            app.usage.summary = Some(summary);
            app.usage.error = None;
        }
        Err(error) => app.usage.error = Some(error.to_string()),
    }
}

/// Opens or closes the overlay; opening asks for a fresh report when the last is old or a
/// call landed since it was asked for.
pub fn toggle(app: &mut App) -> Vec<Effect> {
    app.usage.shown = !app.usage.shown;
    if app.usage.shown {
        if app.connection.token.is_none() {
            app.usage.error = Some(app.no_token_sentence());
            return Vec::new();
        }
        if app.usage.stale {
            return ask(app).into_iter().collect();
        }
        return refresh(app).into_iter().collect();
    }
    Vec::new()
}
