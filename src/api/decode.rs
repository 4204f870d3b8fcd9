//! Answers as received, decoded into the contract's types; large bodies off the async workers.

use std::time::Duration;

use super::client::Fetched;
use super::error::{ApiError, excerpt};
use super::request::{BodyAsked, JobId};
use super::response::{
    Account, AiAnswer, Completion, JobPoll, SearchAnswer, SearchResults, job_state,
};

/// Bodies above this are parsed on a blocking thread, away from the async workers.
const BLOCKING_PARSE_BYTES: usize = 256 * 1024;

/// A successful answer before decoding.
#[derive(Clone, Debug)]
pub struct RawResponse {
    pub status: u16,
    pub content_type: String,
    pub body: String,
    pub elapsed: Duration,
}

impl RawResponse {
    pub(super) fn into_fetched<T>(self, value: T) -> Fetched<T> {
        Fetched {
            value,
            body: self.body,
            status: self.status,
            content_type: self.content_type,
            elapsed: self.elapsed,
        }
    }

    fn is_json(&self) -> bool {
        self.content_type.contains("json")
            || matches!(self.body.trim_start().chars().next(), Some('{' | '['))
    }
}

/// Decodes on a blocking thread when the body is large, so async workers stay responsive.
pub(super) async fn decode_off_thread<T: Send + 'static>(
    raw: RawResponse,
    decode: impl FnOnce(&RawResponse) -> Result<T, ApiError> + Send + 'static,
) -> Result<Fetched<T>, ApiError> {
    if raw.body.len() < BLOCKING_PARSE_BYTES {
        let value = decode(&raw)?;
        return Ok(raw.into_fetched(value));
    }
    tokio::task::spawn_blocking(move || {
        let value = decode(&raw)?;
        Ok(raw.into_fetched(value))
    })
    .await
    .map_err(|e| ApiError::BadBody {
        what: format!("decoding stopped: {e}"),
        excerpt: String::new(),
    })?
}

/// A JSON answer nested past what any real answer reaches is refused before it is parsed,
/// shown or kept.
fn refuse_deep(raw: &RawResponse) -> Result<(), ApiError> {
    let max = crate::bounds::MAX_JSON_DEPTH;
    if crate::bounds::json_nests_deeper_than(&raw.body, max) {
        return Err(ApiError::BadBody {
            what: format!(
                "it nests arrays or objects more than {max} levels deep, which no real answer does, so it was not read"
            ),
            excerpt: excerpt(raw.body.as_bytes()),
        });
    }
    Ok(())
}

fn bad_json(what: &str, error: &serde_json::Error, body: &str) -> ApiError {
    ApiError::BadBody {
        what: format!("{what}: {error}"),
        excerpt: excerpt(body.as_bytes()),
    }
}

/// A body that is not the JSON asked for is refused: a gateway's or a CDN's page sent with
/// status 200 is no answer, and must not be read, shown or counted as one.
fn refuse_unasked(raw: &RawResponse, asked: BodyAsked) -> Result<(), ApiError> {
    if asked == BodyAsked::Json && !raw.is_json() {
        let sent = match raw.content_type.split(';').next().map(str::trim) {
            Some(kind) if !kind.is_empty() => kind.to_string(),
            _ => "a body that is not JSON".to_string(),
        };
        return Err(ApiError::BadBody {
            what: format!(
                "the JSON asked for did not come: the answer was {sent} (a proxy's or gateway's error page, perhaps), so it is no answer and was not read"
            ),
            excerpt: excerpt(raw.body.as_bytes()),
        });
    }
    Ok(())
}

/// The body of a call that asked for `asked`: refused when it is not that, else decoded.
pub(crate) fn decode_ai_as(raw: &RawResponse, asked: BodyAsked) -> Result<AiAnswer, ApiError> {
    refuse_unasked(raw, asked)?;
    decode_ai(raw)
}

/// The body of a search that asked for `asked`, as [`decode_ai_as`].
pub(crate) fn decode_search_as(
    raw: &RawResponse,
    asked: BodyAsked,
) -> Result<SearchAnswer, ApiError> {
    refuse_unasked(raw, asked)?;
    decode_search(raw)
}

/// The body of a sync `/ai` call (or a ready AI job), as stored: JSON or a page.
pub(crate) fn decode_ai(raw: &RawResponse) -> Result<AiAnswer, ApiError> {
    if raw.is_json() {
        if job_state(&raw.body).is_some() {
            return Err(ApiError::BadBody {
                what: "a job state where an answer was expected".to_string(),
                excerpt: excerpt(raw.body.as_bytes()),
            });
        }
        refuse_deep(raw)?;
        let completion: Completion = serde_json::from_str(&raw.body)
            .map_err(|e| bad_json("not a completion", &e, &raw.body))?;
        Ok(AiAnswer::Completion(Box::new(completion)))
    } else {
        Ok(AiAnswer::Html(raw.body.clone()))
    }
}

/// The body of a sync `/search` call (or a ready search job).
pub fn decode_search(raw: &RawResponse) -> Result<SearchAnswer, ApiError> {
    if raw.is_json() {
        refuse_deep(raw)?;
        let results: SearchResults = serde_json::from_str(&raw.body)
            .map_err(|e| bad_json("not search results", &e, &raw.body))?;
        Ok(SearchAnswer::Results(Box::new(results)))
    } else {
        Ok(SearchAnswer::Html(raw.body.clone()))
    }
}

pub(super) fn decode_job<T>(
    raw: &RawResponse,
    ready: impl FnOnce(&RawResponse) -> Result<T, ApiError>,
) -> Result<JobPoll<T>, ApiError> {
    match job_state(&raw.body) {
        Some(JobPoll::Pending(status)) => Ok(JobPoll::Pending(status)),
        Some(JobPoll::Failed(said)) => Ok(JobPoll::Failed(said)),
        _ if raw.status == 202 => Ok(JobPoll::Pending("retrieving".to_string())),
        _ => ready(raw).map(JobPoll::Ready),
    }
}

pub(super) fn decode_job_id(raw: &RawResponse) -> Result<JobId, ApiError> {
    #[derive(serde::Deserialize)]
    struct Queued {
        id: String,
    }
    let queued: Queued = serde_json::from_str(&raw.body)
        .map_err(|e| bad_json("no job id in the answer", &e, &raw.body))?;
    JobId::parse(&queued.id).map_err(|_| ApiError::BadBody {
        what: "the job id is not a UUID".to_string(),
        excerpt: excerpt(raw.body.as_bytes()),
    })
}

/// A JSON array of names; entries that are not strings are skipped.
pub(crate) fn decode_devices(body: &str) -> Result<Vec<String>, ApiError> {
    let values: Vec<serde_json::Value> =
        serde_json::from_str(body).map_err(|e| bad_json("not a list of devices", &e, body))?;
    Ok(values
        .into_iter()
        .filter_map(|v| match v {
            serde_json::Value::String(s) if !s.trim().is_empty() => Some(s),
            _ => None,
        })
        .collect())
}

/// `[{"email": …, "credits": N}]`, or the object alone.
pub(crate) fn decode_account(body: &str) -> Result<Account, ApiError> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Accounts {
        List(Vec<Account>),
        One(Account),
    }
    match serde_json::from_str::<Accounts>(body) {
        Ok(Accounts::One(a)) => Ok(a),
        Ok(Accounts::List(list)) => list.into_iter().next().ok_or_else(|| ApiError::BadBody {
            what: "an empty account list".to_string(),
            excerpt: excerpt(body.as_bytes()),
        }),
        Err(e) => Err(bad_json("not an account", &e, body)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ready_job_that_is_a_gateway_page_is_an_error_where_json_was_asked() {
        let page = RawResponse {
            status: 200,
            content_type: "text/html".into(),
            body: "<html><title>502 Bad Gateway</title></html>".into(),
            elapsed: Duration::ZERO,
        };
        let polled = decode_job(&page, |raw| decode_ai_as(raw, BodyAsked::Json));
        assert!(
            matches!(polled, Err(ApiError::BadBody { .. })),
            "{polled:?}"
        );
        let polled = decode_job(&page, |raw| decode_search_as(raw, BodyAsked::Json));
        assert!(
            matches!(polled, Err(ApiError::BadBody { .. })),
            "{polled:?}"
        );
        let polled = decode_job(&page, |raw| decode_ai_as(raw, BodyAsked::Page));
        assert!(matches!(polled, Ok(JobPoll::Ready(AiAnswer::Html(_)))));
    }

    #[test]
    fn devices_skip_odd_entries() {
        assert_eq!(
            decode_devices(r#"["iPhone 15", 3, null, "", "Pixel 8 (Pro)"]"#).unwrap(),
            vec!["iPhone 15", "Pixel 8 (Pro)"]
        );
        assert!(decode_devices("<html>").is_err());
    }

    #[test]
    fn account_reads_list_or_object() {
        assert_eq!(
            decode_account(r#"[{"email":"a@b","credits":12}]"#)
                .unwrap()
                .credits,
            Some(12)
        );
        assert_eq!(
            decode_account(r#"{"credits":"7"}"#).unwrap().credits,
            Some(7)
        );
    }
}
