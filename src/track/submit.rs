//! Submission behind one interface. A run hands each call to a [`Submitter`] and stores
//! what comes back; it does not know how the call reaches the service.
//!
//! [`JobSubmitter`] queues each call as its own async job (`GET /ai?mode=async`,
//! `GET /search?mode=async`), as `vantage ai --async` and the app do. The service's batch
//! endpoints (`POST /ai/batches`, `/search/batches`: up to 1,000 prompts or terms for one
//! model and location) would be a second implementation once their archive format is
//! known; ARCHITECTURE.md says how it slots in.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::api::{ApiError, Client, JobId};
use crate::store::RequestParams;

/// How a call's submission ended, as the run must treat it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The service (or the contract) refused this call: sending it again would not help.
    Call(String),
    /// Nothing can be sent now (token, credits): the run stops, the calls stay unsent.
    Account(String),
    /// This call did not go through now (no answer, busy); a later run sends it again.
    Later(String),
}

impl Refusal {
    /// Sorts a submission error.
    pub fn of(error: &ApiError) -> Refusal {
        let sentence = error.to_string();
        match error {
            ApiError::Invalid(_)
            | ApiError::Unprocessable { .. }
            | ApiError::Forbidden { .. }
            | ApiError::Captcha { .. } => Refusal::Call(sentence),
            ApiError::MissingToken { .. }
            | ApiError::Unauthorized { .. }
            | ApiError::InvalidToken { .. }
            | ApiError::NoCredits { .. }
            | ApiError::InsecureUrl { .. }
            | ApiError::BadUrl { .. } => Refusal::Account(sentence),
            _ => Refusal::Later(sentence),
        }
    }
}

/// What a run submits through.
pub trait Submitter: Send + Sync {
    /// Queues one call; its job id, or why not.
    fn submit(&self, call: &RequestParams) -> impl Future<Output = Result<JobId, ApiError>> + Send;

    /// How long every submission should hold off now, when the service asked for a pause
    /// (a 429 or 503 with Retry-After): one call's hint holds back the others too.
    fn pause(&self) -> Option<Duration>;
}

/// Queues `call` as an async job: an answer, a search or a page (a comparison is not one
/// call, and is refused).
pub async fn queue(client: &Client, call: &RequestParams) -> Result<JobId, ApiError> {
    match call {
        RequestParams::Ai(request) => client.ai_submit(request).await,
        RequestParams::Search(request) => client.search_submit(request).await,
        RequestParams::Browser(value) => match serde_json::from_value(value.clone()) {
            Ok(browse) => client.browser_submit(&browse).await,
            Err(error) => Err(ApiError::BadBody {
                what: format!("the stored page request could not be read ({error})"),
                excerpt: String::new(),
            }),
        },
        RequestParams::Compare(_) => Err(ApiError::BadBody {
            what: "a comparison is several calls and is not queued as one job".to_string(),
            excerpt: String::new(),
        }),
    }
}

/// Each call as its own async job, through the shared client (which retries 429 and 503
/// after the wait they announce).
#[derive(Clone)]
pub struct JobSubmitter {
    client: Client,
    paused_until: Arc<Mutex<Option<Instant>>>,
}

impl JobSubmitter {
    pub fn new(client: &Client) -> JobSubmitter {
        let paused_until: Arc<Mutex<Option<Instant>>> = Arc::default();
        let noted = Arc::clone(&paused_until);
        let client = client.observed(move |notice| {
            if let Ok(mut until) = noted.lock() {
                let end = Instant::now() + notice.wait;
                *until = Some(until.map_or(end, |u| u.max(end)));
            }
        });
        JobSubmitter {
            client,
            paused_until,
        }
    }
}

impl Submitter for JobSubmitter {
    fn submit(&self, call: &RequestParams) -> impl Future<Output = Result<JobId, ApiError>> + Send {
        let client = self.client.clone();
        let call = call.clone();
        async move { queue(&client, &call).await }
    }

    fn pause(&self) -> Option<Duration> {
        let until = (*self.paused_until.lock().ok()?)?;
        until.checked_duration_since(Instant::now())
    }
}
