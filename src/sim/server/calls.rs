//! The path of every billed call: credits, faults, billing, latency, and async jobs stored
//! and retrieved.

use std::time::Duration;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;

use super::super::Fault;
use super::super::browse::cannot_resolve;
use super::super::jobs::{Job, JobKind, JobState, now_unix_ms};
use super::submission::{
    Query, ai_body, browser_body, search_body, validate_ai, validate_browser, validate_search,
};
use super::{Shared, fault_response, html_response, json_response, malformed, text, unprocessable};
use crate::price::Billed;

enum Gate {
    Go { slow: bool, malformed: bool },
    Refuse(Response),
    TimeOut,
}

/// Credits, then faults: a refused call costs nothing, and a call is billed (see [`bill`])
/// only once it has succeeded.
fn gate(shared: &Shared) -> Gate {
    if shared.balance.get() == 0 {
        return Gate::Refuse(text(
            StatusCode::PAYMENT_REQUIRED,
            &format!("Credit balance is 0; top up at {}/plans", shared.base_url),
        ));
    }
    match shared.next_fault() {
        None => Gate::Go {
            slow: false,
            malformed: false,
        },
        Some(Fault::Slow) => Gate::Go {
            slow: true,
            malformed: false,
        },
        Some(Fault::Malformed) => Gate::Go {
            slow: false,
            malformed: true,
        },
        Some(Fault::Timeout) => Gate::TimeOut,
        Some(other) => Gate::Refuse(fault_response(other)),
    }
}

/// Takes a successful call's price from the balance, and what it took: a balance short of
/// the price goes to 0 (the next call is refused), so usage always equals the balance's drop.
fn bill(shared: &Shared, price: u64) -> u64 {
    shared.balance.charge(price)
}

async fn body_bytes(response: Response) -> (Response, String) {
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (
        Response::from_parts(parts, axum::body::Body::from(bytes)),
        text,
    )
}

async fn finish(response: Response, malformed_body: bool) -> Response {
    if malformed_body {
        let (response, body) = body_bytes(response).await;
        malformed(response, &body)
    } else {
        response
    }
}

fn accepted(id: &str) -> Response {
    json_response(StatusCode::ACCEPTED, json!({ "id": id }).to_string())
}

fn model_latency(model: &str) -> (f64, f64) {
    match model {
        "gemini" => (7.0, 21.0),
        "perplexity" => (18.0, 51.0),
        "copilot" => (35.0, 150.0),
        _ => (14.0, 17.0),
    }
}

pub(super) async fn submit_ai(shared: &Shared, query: &Query) -> Response {
    let submission = match validate_ai(query) {
        Ok(s) => s,
        Err(message) => return unprocessable(message),
    };
    let key = format!(
        "{}\u{1f}{}",
        submission.request.content_key(),
        submission.format as u8
    );
    let call = Call {
        kind: JobKind::Ai,
        price: shared.config.prices.of(Billed::Ai),
        key: &key,
        latency_range: model_latency(submission.request.model),
        cache: submission.cache,
        asynchronous: submission.asynchronous,
    };
    submit(shared, call, query, |variation| {
        ai_body(&submission, variation)
    })
    .await
}

pub(super) async fn submit_search(shared: &Shared, query: &Query) -> Response {
    let submission = match validate_search(query) {
        Ok(s) => s,
        Err(message) => return unprocessable(message),
    };
    let key = format!(
        "{}\u{1f}{}",
        submission.request.content_key(),
        submission.html
    );
    let call = Call {
        kind: JobKind::Search,
        price: shared.config.prices.of(Billed::Search),
        key: &key,
        latency_range: (3.0, 9.0),
        cache: submission.cache,
        asynchronous: submission.asynchronous,
    };
    submit(shared, call, query, |variation| {
        search_body(&submission, variation)
    })
    .await
}

pub(super) async fn submit_browser(shared: &Shared, query: &Query) -> Response {
    let submission = match validate_browser(query) {
        Ok(s) => s,
        Err(message) => return unprocessable(message),
    };
    if cannot_resolve(&submission.url) {
        // Nothing was fetched, so nothing is billed; the body is the OpenAPI's.
        shared
            .usage
            .record(JobKind::Browser, false, 0, Duration::ZERO);
        return text(StatusCode::NOT_FOUND, "Domain is nonexistant");
    }
    let key = submission.content_key();
    let ridiculous_speed = query
        .optional("speed")
        .is_some_and(|speed| speed.trim().eq_ignore_ascii_case("ridiculous"));
    let call = Call {
        kind: JobKind::Browser,
        price: shared
            .config
            .prices
            .of(Billed::Browser { ridiculous_speed }),
        key: &key,
        latency_range: (1.0, 4.0),
        cache: true,
        asynchronous: submission.asynchronous,
    };
    submit(shared, call, query, |_| browser_body(&submission)).await
}

struct Call<'a> {
    kind: JobKind,
    /// Credits the call costs if it succeeds.
    price: u64,
    /// What makes two calls the same answer, for latency draws and cache hits.
    key: &'a str,
    latency_range: (f64, f64),
    cache: bool,
    asynchronous: bool,
}

/// The shared path of every billed call. An async call stores its query and answers with
/// an id; `body` is only run for sync calls, async bodies being rebuilt at retrieval.
async fn submit(
    shared: &Shared,
    call: Call<'_>,
    query: &Query,
    body: impl FnOnce(u64) -> Response,
) -> Response {
    let (slow, malformed_body) = match gate(shared) {
        Gate::Go { slow, malformed } => (slow, malformed),
        Gate::Refuse(response) => {
            shared.usage.record(call.kind, false, 0, Duration::ZERO);
            return response;
        }
        Gate::TimeOut => {
            let waited = shared.latency(call.latency_range, call.key, false, false);
            tokio::time::sleep(waited).await;
            shared.usage.record(call.kind, false, 0, waited);
            return fault_response(Fault::Timeout);
        }
    };
    let hit = call.cache && shared.cache_hit(call.key);
    let variation = shared.variation(call.cache, call.key);
    if call.asynchronous {
        if !shared.hold.admit().await {
            return fault_response(Fault::Unavailable);
        }
        let id = shared.create_job(call.kind, query.for_job(), variation, slow, None);
        // A job that will end "failed" is not billed: the service bills successful calls.
        let succeeds = shared.jobs.get(&id).is_some_and(|job| !job.failed);
        let credits = if succeeds {
            bill(shared, call.price)
        } else {
            0
        };
        shared
            .usage
            .record(call.kind, succeeds, credits, Duration::ZERO);
        return finish(accepted(&id), malformed_body).await;
    }
    let waited = shared.latency(call.latency_range, call.key, hit, slow);
    tokio::time::sleep(waited).await;
    let credits = bill(shared, call.price);
    shared.usage.record(call.kind, true, credits, waited);
    finish(body(variation), malformed_body).await
}

pub(super) fn retrieve(
    shared: &Shared,
    kind: JobKind,
    query: &Query,
    pending: StatusCode,
) -> Response {
    let not_found = || text(StatusCode::NOT_FOUND, "Job not found");
    let Some(id) = query.optional("id") else {
        return not_found();
    };
    let Some(job) = shared.jobs.get(id).filter(|job| job.kind == kind) else {
        return not_found();
    };
    match job.state(now_unix_ms()) {
        JobState::Pending => json_response(pending, json!({"status": "retrieving"}).to_string()),
        JobState::Failed => {
            // Failed on purpose, and said so: a user of the demo learns why and what to do.
            let share = (shared.config.job_fail_share * 100.0).round();
            let message = format!(
                "the simulator fails {share}% of queued jobs on purpose (--job-fail-share), as a real service sometimes does"
            );
            json_response(
                StatusCode::OK,
                json!({"status": "failed", "message": message}).to_string(),
            )
        }
        JobState::Ready(job) => rebuild(job),
    }
}

fn rebuild(job: &Job) -> Response {
    if let Some(content) = &job.content {
        return html_response(content.clone());
    }
    let query = Query(job.params.clone());
    let rebuilt = match job.kind {
        JobKind::Ai => validate_ai(&query).map(|s| ai_body(&s, job.variation)),
        JobKind::Search => validate_search(&query).map(|s| search_body(&s, job.variation)),
        JobKind::Browser => validate_browser(&query).map(|s| browser_body(&s)),
    };
    rebuilt.unwrap_or_else(|_| text(StatusCode::INTERNAL_SERVER_ERROR, "Unknown error occurred"))
}
