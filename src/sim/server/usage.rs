//! `/usage`: the calls the simulator served, counted per service, hour and outcome, and
//! reported in the live service's shape: `search` and `browser`, the services the OpenAPI
//! document's `Service` lists. Every billed call is counted, so that the report agrees with
//! the balance: an AI answer is rendered by the same host as a fetched page (`/ai` beside
//! `/browser`), and counts under `browser`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::super::jobs::JobKind;
use super::super::lock;
use super::super::state::SharedState;
use super::submission::Query;

const HOUR_SECS: i64 = 3600;
const SERVICES: [&str; 2] = ["search", "browser"];

#[derive(Clone, Copy, Default)]
struct Tally {
    calls: u64,
    credits: u64,
    secs: f64,
}

/// (hour start in Unix seconds, service, succeeded) to what was served: this simulator's,
/// or every demo process's when they share their state.
pub(crate) struct UsageTable {
    own: Mutex<BTreeMap<(i64, &'static str, bool), Tally>>,
    shared: Option<Arc<SharedState>>,
}

pub(crate) fn service_of(kind: JobKind) -> &'static str {
    match kind {
        JobKind::Search => "search",
        JobKind::Browser | JobKind::Ai => "browser",
    }
}

impl UsageTable {
    pub(crate) fn new(shared: Option<Arc<SharedState>>) -> UsageTable {
        UsageTable {
            own: Mutex::default(),
            shared,
        }
    }

    /// What was served, from the shared state when there is one.
    fn served(&self) -> BTreeMap<(i64, &'static str, bool), Tally> {
        let Some(shared) = &self.shared else {
            return lock(&self.own).clone();
        };
        let mut served = BTreeMap::new();
        for (hour, service, succeeded, calls, credits, secs) in shared.usage() {
            let Some(service) = SERVICES.into_iter().find(|s| *s == service) else {
                continue;
            };
            served.insert(
                (hour, service, succeeded),
                Tally {
                    calls,
                    credits,
                    secs,
                },
            );
        }
        served
    }

    pub(crate) fn record(&self, kind: JobKind, succeeded: bool, credits: u64, took: Duration) {
        let service = service_of(kind);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let hour = now - now.rem_euclid(HOUR_SECS);
        if let Some(shared) = &self.shared {
            shared.record_usage(hour, service, succeeded, credits, took.as_secs_f64());
            return;
        }
        let mut table = lock(&self.own);
        let tally = table.entry((hour, service, succeeded)).or_default();
        tally.calls += 1;
        tally.credits += credits;
        tally.secs += took.as_secs_f64();
    }

    /// The report, or the message of a 422.
    pub(crate) fn report(&self, query: &Query, email: &str) -> Result<Value, String> {
        let from = instant(query, "from", "From")?;
        let to = instant(query, "to", "To")?;
        let mut services = Vec::new();
        for value in query.all("service") {
            let known = SERVICES
                .into_iter()
                .find(|s| s.eq_ignore_ascii_case(value.trim()))
                .ok_or_else(|| format!("Service must be one of {}", SERVICES.join(", ")))?;
            services.push(known);
        }
        let hourly = match query.optional("by") {
            None | Some("total") => false,
            Some("hour") => true,
            Some(_) => return Err("By must be one of hour, total".into()),
        };
        let first_hour = from - from.rem_euclid(HOUR_SECS);
        let table = self.served();
        let selected = table.iter().filter(|((hour, service, _), _)| {
            (first_hour..=to).contains(hour) && (services.is_empty() || services.contains(service))
        });
        // Grouped by hour or over the whole range: key, first hour, last hour, tally.
        let mut groups: BTreeMap<(i64, &str, bool), (i64, i64, Tally)> = BTreeMap::new();
        for (&(hour, service, succeeded), tally) in selected {
            let key = (if hourly { hour } else { 0 }, service, succeeded);
            let group = groups.entry(key).or_insert((hour, hour, Tally::default()));
            group.0 = group.0.min(hour);
            group.1 = group.1.max(hour);
            group.2.calls += tally.calls;
            group.2.credits += tally.credits;
            group.2.secs += tally.secs;
        }
        let rows = groups
            .into_iter()
            .map(|((_, service, succeeded), (first, last, tally))| {
                json!({
                    "email": email,
                    "from": iso(first),
                    "to": iso(last),
                    "service": service,
                    "result": if succeeded { "success" } else { "failure" },
                    "calls": tally.calls,
                    "credits": tally.credits,
                    "meanSecs": tally.secs / tally.calls.max(1) as f64,
                })
            })
            .collect();
        Ok(Value::Array(rows))
    }
}

fn instant(query: &Query, name: &str, label: &str) -> Result<i64, String> {
    let value = query
        .optional(name)
        .ok_or_else(|| format!("{label} must be provided"))?;
    OffsetDateTime::parse(value, &Rfc3339)
        .map(OffsetDateTime::unix_timestamp)
        .map_err(|_| format!("{label} must be an ISO datetime like 2025-12-24T18:00:00-06:00"))
}

fn iso(unix: i64) -> String {
    OffsetDateTime::from_unix_timestamp(unix)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}
