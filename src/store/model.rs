//! The records the store keeps and hands back, shaped for lists and detail panes.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::api::model::value_enum;
use crate::api::{AiRequest, Fetched, JobId, JobKind, SearchRequest};
use crate::jobs::{JobState, Transition, UnixMs};

/// The wall clock in Unix milliseconds, the unit of every time the store keeps.
pub fn now_ms() -> UnixMs {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| UnixMs::try_from(d.as_millis()).unwrap_or(UnixMs::MAX))
        .unwrap_or(0)
}

value_enum!(
    /// What kind of call a history entry is.
    RequestKind { Ai => "ai", Search => "search", Browser => "browser", Compare => "compare" }
);

value_enum!(
    /// Where a call came from: the app, a command of the CLI, or a tracking run.
    Origin { App => "app", Cli => "cli", Track => "track" }
);

/// The parameters of a call, as typed values. Stored as JSON in `requests.params` (the
/// variant's own value) next to `requests.kind`. The token is never part of these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RequestParams {
    Ai(AiRequest),
    Search(SearchRequest),
    /// A browser call; its parameters (at least `url`) as JSON.
    Browser(serde_json::Value),
    /// One question asked across several models or locations.
    Compare(Vec<RequestParams>),
}

impl RequestParams {
    pub fn kind(&self) -> RequestKind {
        match self {
            RequestParams::Ai(_) => RequestKind::Ai,
            RequestParams::Search(_) => RequestKind::Search,
            RequestParams::Browser(_) => RequestKind::Browser,
            RequestParams::Compare(_) => RequestKind::Compare,
        }
    }

    /// The queued-job kind, for the kinds that can be queued.
    pub fn job_kind(&self) -> Option<JobKind> {
        match self {
            RequestParams::Ai(_) => Some(JobKind::Ai),
            RequestParams::Search(_) => Some(JobKind::Search),
            RequestParams::Browser(_) => Some(JobKind::Browser),
            RequestParams::Compare(_) => None,
        }
    }

    /// One line for lists.
    pub fn summary(&self) -> String {
        match self {
            RequestParams::Ai(r) => r.summary(),
            RequestParams::Search(r) => r.summary(),
            // The URL, then where from and on which device, as the other kinds say it.
            RequestParams::Browser(v) => {
                let url = v.get("url").and_then(|u| u.as_str()).map_or_else(
                    || "browser".to_string(),
                    |u| crate::api::request::shorten(u, 60),
                );
                let location: crate::api::Location =
                    serde_json::from_value(v.clone()).unwrap_or_default();
                let device = v
                    .get("device")
                    .and_then(|d| d.as_str())
                    .map(|d| format!(" · {}", crate::api::request::shorten(d, 40)))
                    .unwrap_or_default();
                format!("{url} · {}{device}", location.describe())
            }
            // The prompt or terms, then how many vantage points: one column's model and
            // place would misdescribe the rest.
            RequestParams::Compare(parts) => {
                let asked = parts.first().map_or(String::new(), |first| match first {
                    RequestParams::Ai(r) => crate::api::request::shorten(&r.prompt, 200),
                    RequestParams::Search(r) => crate::api::request::shorten(&r.terms, 200),
                    other => other.summary(),
                });
                // A sampled comparison keeps each sample as a part: its columns are the
                // distinct requests, each asked as many times.
                let distinct = parts
                    .iter()
                    .map(RequestParams::to_json)
                    .collect::<std::collections::HashSet<_>>()
                    .len()
                    .max(1);
                let samples = parts.len() / distinct;
                let columns = match (distinct, samples) {
                    (1, 1) => "1 column".to_owned(),
                    (n, 1) => format!("{n} columns"),
                    (n, k) if n * k == parts.len() => format!(
                        "{} × {k} samples",
                        crate::plural::count(n as u64, "column", "columns")
                    ),
                    _ => format!("{} columns", parts.len()),
                };
                format!("{columns} · {asked}")
            }
        }
    }

    /// The JSON kept in the `params` column: the variant's value alone.
    pub fn to_json(&self) -> String {
        let value = match self {
            RequestParams::Ai(r) => serde_json::to_value(r),
            RequestParams::Search(r) => serde_json::to_value(r),
            RequestParams::Browser(v) => Ok(v.clone()),
            RequestParams::Compare(parts) => Ok(serde_json::Value::Array(
                parts
                    .iter()
                    .map(|p| serde_json::json!({"kind": p.kind(), "params": p.to_value()}))
                    .collect(),
            )),
        };
        value.map(|v| v.to_string()).unwrap_or_default()
    }

    fn to_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.to_json()).unwrap_or(serde_json::Value::Null)
    }

    /// Reads back what [`RequestParams::to_json`] wrote.
    pub fn from_json(kind: RequestKind, json: &str) -> Result<Self, serde_json::Error> {
        let value: serde_json::Value = serde_json::from_str(json)?;
        RequestParams::from_value(kind, value)
    }

    fn from_value(kind: RequestKind, value: serde_json::Value) -> Result<Self, serde_json::Error> {
        Ok(match kind {
            RequestKind::Ai => RequestParams::Ai(serde_json::from_value(value)?),
            RequestKind::Search => RequestParams::Search(serde_json::from_value(value)?),
            RequestKind::Browser => RequestParams::Browser(value),
            RequestKind::Compare => {
                #[derive(Deserialize)]
                struct Part {
                    kind: RequestKind,
                    params: serde_json::Value,
                }
                let parts: Vec<Part> = serde_json::from_value(value)?;
                RequestParams::Compare(
                    parts
                        .into_iter()
                        .map(|p| RequestParams::from_value(p.kind, p.params))
                        .collect::<Result<_, _>>()?,
                )
            }
        })
    }
}

/// A history entry's id (a UUID made when the request is recorded).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntryId(pub String);

impl EntryId {
    pub fn new() -> Self {
        EntryId(uuid::Uuid::new_v4().hyphenated().to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for EntryId {
    fn default() -> Self {
        EntryId::new()
    }
}

impl fmt::Display for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An answer as received: for history responses and job results alike.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Body {
    /// HTTP status; 0 when no answer came and `text` is the error sentence.
    pub status: u16,
    pub text: String,
    pub elapsed_ms: u64,
    pub received_at: UnixMs,
}

impl Body {
    /// The body of a fetched answer, received now.
    pub fn of<T>(fetched: &Fetched<T>) -> Self {
        Body {
            status: fetched.status,
            text: fetched.body.clone(),
            elapsed_ms: u64::try_from(fetched.elapsed.as_millis()).unwrap_or(u64::MAX),
            received_at: now_ms(),
        }
    }

    /// What history keeps of a call the user cancelled before its answer came.
    /// What History keeps of a call that failed: the error's status (0 without one) and its
    /// sentence.
    pub fn of_error(error: &crate::api::ApiError, elapsed_ms: u64) -> Self {
        Body {
            status: error.status().unwrap_or(0),
            text: error.to_string(),
            elapsed_ms,
            received_at: now_ms(),
        }
    }

    pub fn cancelled(elapsed_ms: u64) -> Self {
        Body {
            status: Body::CANCELLED,
            text: "Cancelled before the answer came.".to_string(),
            elapsed_ms,
            received_at: now_ms(),
        }
    }

    /// The status of a cancelled call: 499, "client closed request" in nginx's convention,
    /// which no answer of the service uses.
    pub const CANCELLED: u16 = 499;

    pub fn size(&self) -> u64 {
        self.text.len() as u64
    }

    pub fn elapsed(&self) -> Duration {
        Duration::from_millis(self.elapsed_ms)
    }
}

/// One line of the History list (no body).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryItem {
    pub id: EntryId,
    pub kind: RequestKind,
    pub summary: String,
    pub created_at: UnixMs,
    /// Where the call came from.
    pub origin: Origin,
    /// `None` while no response is stored.
    pub status: Option<u16>,
    pub elapsed_ms: Option<u64>,
    pub size: Option<u64>,
}

impl HistoryItem {
    /// How the entry's answer reads, the same in the app's History and `vantage history`:
    /// "cancelled", "error" for a call that got no answer, else the status; none while no
    /// answer is stored.
    pub fn status_word(&self) -> Option<String> {
        self.status.map(|status| match status {
            Body::CANCELLED => "cancelled".to_string(),
            0 => "error".to_string(),
            status => status.to_string(),
        })
    }
}

/// A history entry with its request and response, for the detail pane.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryEntry {
    pub item: HistoryItem,
    pub request: RequestParams,
    pub response: Option<Body>,
}

/// A job to record the moment its id arrives.
#[derive(Clone, Debug, PartialEq)]
pub struct NewJob {
    pub id: JobId,
    pub kind: JobKind,
    /// `None` for ids received elsewhere.
    pub request: Option<RequestParams>,
    pub summary: String,
    pub created_at: UnixMs,
    /// The service gave this id to us (see `jobs` on known jobs).
    pub known: bool,
    /// When the first poll is due.
    pub next_poll_at: UnixMs,
    /// The History entry of its submission, which its result answers when it lands.
    pub entry: Option<EntryId>,
    /// The failed or expired job this one re-submits: a tracking run's call that counted
    /// the old job counts this one instead.
    pub replaces: Option<JobId>,
}

impl NewJob {
    /// A job we submitted: the request is kept so it can be shown and re-submitted.
    pub fn submitted(id: JobId, request: RequestParams) -> Self {
        let now = now_ms();
        let first_wait = crate::api::client::poll_delay(0).as_millis();
        NewJob {
            kind: request.job_kind().unwrap_or(JobKind::Ai),
            summary: request.summary(),
            request: Some(request),
            id,
            created_at: now,
            known: true,
            next_poll_at: now + UnixMs::try_from(first_wait).unwrap_or(2_000),
            entry: None,
            replaces: None,
        }
    }

    /// The job answers this History entry when its result lands.
    pub fn answering(mut self, entry: EntryId) -> Self {
        self.entry = Some(entry);
        self
    }

    /// An id received elsewhere (pasted, or from another tool).
    pub fn imported(id: JobId, kind: JobKind) -> Self {
        let now = now_ms();
        NewJob {
            id,
            kind,
            request: None,
            summary: String::new(),
            created_at: now,
            known: false,
            next_poll_at: now,
            entry: None,
            replaces: None,
        }
    }
}

/// One stored job, as the Jobs list shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobRecord {
    pub id: JobId,
    pub kind: JobKind,
    pub request: Option<RequestParams>,
    pub summary: String,
    pub state: JobState,
    pub known: bool,
    pub created_at: UnixMs,
    pub last_poll_at: Option<UnixMs>,
    pub next_poll_at: Option<UnixMs>,
    pub attempts: u32,
    pub result_size: Option<u64>,
    pub last_error: Option<String>,
}

impl JobRecord {
    /// Still to be polled: pending or in error.
    pub fn is_open(&self) -> bool {
        !self.state.is_terminal()
    }

    /// Milliseconds since the job was queued.
    pub fn age_ms(&self, now: UnixMs) -> i64 {
        (now - self.created_at).max(0)
    }

    /// The scheduler's view of this job, due no later than `now` + 30 s.
    pub fn tracked(&self, now: UnixMs) -> crate::jobs::TrackedJob {
        crate::jobs::TrackedJob {
            id: self.id.clone(),
            kind: self.kind,
            state: self.state,
            attempts: self.attempts,
            last_poll_at: self.last_poll_at,
            next_poll_at: self.next_poll_at.unwrap_or(now).min(now + 30_000),
            known: self.known,
            error_streak: 0,
            last_error: self.last_error.clone(),
            asked: self.body_asked(),
            created_at: Some(self.created_at),
        }
    }

    /// What the job's result must be, by the request it was submitted with (JSON when the
    /// request is not known).
    pub fn body_asked(&self) -> crate::api::BodyAsked {
        match &self.request {
            Some(RequestParams::Ai(request)) => request.body_asked(),
            Some(RequestParams::Search(request)) => request.body_asked(),
            Some(RequestParams::Browser(_)) => crate::api::BodyAsked::Page,
            _ => crate::api::BodyAsked::Json,
        }
    }
}

/// A state change of a job, from the `job_events` log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobEvent {
    pub from: Option<JobState>,
    pub to: JobState,
    pub at: UnixMs,
    pub note: Option<String>,
}

/// What a poll changed, to store: the scheduler's transition and, when done, the result.
#[derive(Clone, Debug, PartialEq)]
pub struct JobUpdate {
    pub transition: Transition,
    /// The result body, when the job is done. Stored once: a second one is ignored.
    pub result: Option<Body>,
}

/// The device list and when it was fetched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Devices {
    pub names: Vec<String>,
    pub fetched_at: UnixMs,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sampled_comparison_is_called_by_its_columns_and_samples() {
        let part = |model: &str| {
            RequestParams::Ai(crate::api::AiRequest {
                model: model.parse().ok(),
                ..crate::api::AiRequest::new("best hiking boots")
            })
        };
        let sampled: Vec<RequestParams> = ["chatgpt", "gemini"]
            .iter()
            .flat_map(|m| std::iter::repeat_n(part(m), 3))
            .collect();
        let summary = RequestParams::Compare(sampled).summary();
        assert!(summary.starts_with("2 columns × 3 samples"), "{summary}");
        let once = RequestParams::Compare(vec![part("chatgpt"), part("gemini")]).summary();
        assert!(once.starts_with("2 columns ·"), "{once}");
    }

    #[test]
    fn a_page_request_says_where_from_and_on_which_device() {
        let page = RequestParams::Browser(serde_json::json!({
            "url": "https://shop.example/boots",
            "country": "DE",
            "city": "Berlin",
            "device": "iphone",
            "format": "markdown",
        }));
        assert_eq!(
            page.summary(),
            "https://shop.example/boots · Berlin, DE · iphone"
        );
        let anywhere = RequestParams::Browser(serde_json::json!({"url": "https://example.com"}));
        assert_eq!(anywhere.summary(), "https://example.com · random location");
    }

    #[test]
    fn params_round_trip_through_their_column() {
        let mut ai = AiRequest::new("best boots");
        ai.location.country = Some("US".into());
        let all = vec![
            RequestParams::Ai(ai.clone()),
            RequestParams::Search(SearchRequest::new("boots")),
            RequestParams::Browser(serde_json::json!({"url": "https://example.com"})),
            RequestParams::Compare(vec![
                RequestParams::Ai(ai),
                RequestParams::Search(SearchRequest::new("x")),
            ]),
        ];
        for params in all {
            let back = RequestParams::from_json(params.kind(), &params.to_json()).unwrap();
            assert_eq!(back, params);
        }
    }
}
