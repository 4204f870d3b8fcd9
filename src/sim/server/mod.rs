//! The HTTP side: one handler that counts every request, checks the token, validates the
//! parameters as the contract says, applies faults, bills, waits and answers.

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

mod calls;
mod submission;
mod usage;

use super::devices::devices;
use super::jobs::{Job, JobKind, JobTable, millis, now_unix_ms};
use super::seed::{FRESH_ASK, Mix, fnv1a};
use super::{Fault, SimConfig, lock};

use calls::{retrieve, submit_ai, submit_browser, submit_search};
use submission::Query;
use usage::UsageTable;

use super::state::{Balance, SharedState};

/// Seconds announced by 503 and 429 answers; kept short so retries in the app stay quick.
const RETRY_SECONDS: u64 = 2;

pub(crate) struct Shared {
    pub config: SimConfig,
    pub base_url: String,
    /// The balance: this simulator's, or the one every demo process shares.
    pub balance: Balance,
    pub requests: AtomicU64,
    /// How many expiration=0 answers each content key has had: the next one's variation, so
    /// the samples of one prompt and place differ from each other and repeat run to run.
    variations: Mutex<HashMap<u64, u64>>,
    fault_draws: AtomicU64,
    pub script: Mutex<VecDeque<Option<Fault>>>,
    /// Content keys answered before: repeats are cache hits and answer faster.
    cache: Mutex<HashSet<u64>>,
    pub jobs: JobTable,
    usage: UsageTable,
    pub hold: Hold,
}

/// Async submissions held back by a test (see `Simulator::hold_submissions_after`).
pub(crate) struct Hold {
    /// Submissions accepted before holding starts; `u64::MAX` holds none.
    pub limit: AtomicU64,
    accepted: AtomicU64,
    pub released: tokio::sync::Notify,
}

impl Hold {
    /// Whether this submission may be queued now; a held one waits for the release.
    async fn admit(&self) -> bool {
        loop {
            let limit = self.limit.load(Ordering::SeqCst);
            if limit == u64::MAX {
                self.accepted.fetch_add(1, Ordering::SeqCst);
                return true;
            }
            let taken = self
                .accepted
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    (n < limit).then_some(n + 1)
                });
            if taken.is_ok() {
                return true;
            }
            let released = self.released.notified();
            if self.limit.load(Ordering::SeqCst) == u64::MAX {
                continue;
            }
            released.await;
            return false;
        }
    }
}

impl Shared {
    pub(crate) fn new(config: SimConfig, addr: SocketAddr) -> Shared {
        // Every demo process on the machine shares it: one simulated service.
        let state = config
            .state_file
            .as_deref()
            .map(|path| SharedState::at(path, config.credits))
            .map(Arc::new);
        Shared {
            balance: Balance::new(config.credits, state.clone()),
            base_url: format!("http://{addr}"),
            requests: AtomicU64::new(0),
            variations: Mutex::new(HashMap::new()),
            fault_draws: AtomicU64::new(0),
            script: Mutex::new(VecDeque::new()),
            cache: Mutex::new(HashSet::new()),
            jobs: JobTable::open(state.clone()),
            usage: UsageTable::new(state),
            hold: Hold {
                limit: AtomicU64::new(u64::MAX),
                accepted: AtomicU64::new(0),
                released: tokio::sync::Notify::new(),
            },
            config,
        }
    }

    fn next_fault(&self) -> Option<Fault> {
        let scripted = lock(&self.script).pop_front();
        if let Some(outcome) = scripted {
            return outcome;
        }
        let kinds = &self.config.fault_kinds;
        if self.config.fault_rate <= 0.0 || kinds.is_empty() {
            return None;
        }
        let draw = self.fault_draws.fetch_add(1, Ordering::Relaxed);
        let mut mix = Mix::of(&["fault", &draw.to_string()]);
        if mix.chance(self.config.fault_rate) {
            Some(*mix.pick(kinds))
        } else {
            None
        }
    }

    /// Returns whether the key was answered before, and remembers it.
    fn cache_hit(&self, key: &str) -> bool {
        !lock(&self.cache).insert(fnv1a(key.as_bytes()))
    }

    /// The variation of a call: the epoch for a cacheable one (so it drifts by the day),
    /// else the count of fresh asks of the same content (1, 2, …).
    fn variation(&self, cache: bool, key: &str) -> u64 {
        if cache {
            self.config.epoch.number()
        } else {
            let mut counts = lock(&self.variations);
            let count = counts.entry(fnv1a(key.as_bytes())).or_insert(0);
            *count += 1;
            FRESH_ASK | *count
        }
    }

    fn latency(&self, range_secs: (f64, f64), key: &str, cache_hit: bool, slow: bool) -> Duration {
        let slow_factor = if slow { 5.0 } else { 1.0 };
        if let Some(fixed) = self.config.fixed_latency {
            return fixed.mul_f64(slow_factor);
        }
        let scale = self.config.latency_scale;
        if !scale.is_finite() || scale <= 0.0 {
            return Duration::ZERO;
        }
        // Skewed toward the low end: long waits are the tail, as observed.
        let u = Mix::of(&["latency", key]).unit();
        let mut secs = range_secs.0 + (range_secs.1 - range_secs.0) * u * u;
        if cache_hit {
            secs /= 10.0;
        }
        Duration::try_from_secs_f64(secs * scale * slow_factor).unwrap_or(Duration::ZERO)
    }

    pub(crate) fn create_job(
        &self,
        kind: JobKind,
        params: Vec<(String, String)>,
        variation: u64,
        slow: bool,
        content: Option<String>,
    ) -> String {
        let id = uuid::Uuid::new_v4().to_string();
        let failed =
            content.is_none() && Mix::of(&["fail", &id]).unit() < self.config.job_fail_share;
        let pending = if content.is_some() {
            0
        } else {
            millis(self.config.job_pending).saturating_mul(if slow { 5 } else { 1 })
        };
        self.jobs.insert(Job {
            id: id.clone(),
            kind,
            params,
            variation,
            created_unix_ms: now_unix_ms(),
            pending_ms: pending,
            failed,
            content,
        });
        id
    }
}

// ---------- responses ----------

fn with_type(status: StatusCode, content_type: &'static str, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, content_type)], body).into_response()
}

fn text(status: StatusCode, message: &str) -> Response {
    with_type(status, "text/plain; charset=utf-8", message.to_string())
}

fn json_response(status: StatusCode, body: String) -> Response {
    with_type(status, "application/json", body)
}

fn html_response(body: String) -> Response {
    with_type(StatusCode::OK, "text/html; charset=utf-8", body)
}

fn unprocessable(message: String) -> Response {
    text(StatusCode::UNPROCESSABLE_ENTITY, &message)
}

fn fault_response(fault: Fault) -> Response {
    let retry = || HeaderValue::from(RETRY_SECONDS);
    match fault {
        Fault::Captcha => text(StatusCode::FORBIDDEN, "Captcha was detected"),
        Fault::ServerError => text(StatusCode::INTERNAL_SERVER_ERROR, "Unknown error occurred"),
        Fault::Unavailable => {
            let mut response = text(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!("Service is autoscaling; please retry in {RETRY_SECONDS} seconds"),
            );
            response.headers_mut().insert(header::RETRY_AFTER, retry());
            response
        }
        Fault::RateLimited => {
            let mut response = text(
                StatusCode::TOO_MANY_REQUESTS,
                &format!("Too many requests; retry in {RETRY_SECONDS} seconds"),
            );
            response.headers_mut().insert(header::RETRY_AFTER, retry());
            response
        }
        Fault::GatewayPage => html_response(
            "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>cloudfront</center></body></html>".to_string(),
        ),
        Fault::Timeout | Fault::Slow | Fault::Malformed => {
            text(StatusCode::GATEWAY_TIMEOUT, "Request(s) timed out")
        }
    }
}

/// Cuts a body in half: what a dropped connection or a broken upstream leaves behind.
fn malformed(mut response: Response, body: &str) -> Response {
    let cut = body
        .char_indices()
        .map(|(i, _)| i)
        .nth(body.chars().count() / 2)
        .unwrap_or(0);
    *response.body_mut() = axum::body::Body::from(body[..cut].to_string());
    response.headers_mut().remove(header::CONTENT_LENGTH);
    response
}

// ---------- dispatch ----------

fn account(shared: &Shared) -> serde_json::Value {
    json!({
        "email": ACCOUNT_EMAIL,
        "credits": shared.balance.get(),
    })
}

enum Auth {
    Ok,
    Missing,
    Wrong,
}

fn authenticate(headers: &HeaderMap, token: &str) -> Auth {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Auth::Missing;
    };
    let Ok(value) = value.to_str() else {
        return Auth::Wrong;
    };
    let value = value.trim();
    let presented = match value.split_once(' ') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => rest.trim(),
        _ => return Auth::Wrong,
    };
    if presented == token {
        Auth::Ok
    } else {
        Auth::Wrong
    }
}

/// The account the simulator's token belongs to.
const ACCOUNT_EMAIL: &str = "demo@vantage.local";

const API_PATHS: [&str; 12] = [
    "/user",
    "/users",
    "/usage",
    "/search/devices",
    "/browser/devices",
    "/ai",
    "/ai/devices",
    "/ai/completions",
    "/search",
    "/search/results",
    "/browser",
    "/browser/content",
];

pub(crate) async fn handle(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    shared.requests.fetch_add(1, Ordering::SeqCst);
    let path = uri.path().trim_end_matches('/');
    let path = if path.is_empty() { "/" } else { path };
    tracing::debug!(%method, path, "simulator request");
    if method != Method::GET {
        return text(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed");
    }
    if path == "/plans" {
        return html_response(
            "<!doctype html><html><head><title>Plans</title></head><body><h1>Plans</h1><p>This is the simulator: credits are set with --credits or in its config.</p></body></html>".to_string(),
        );
    }
    if !API_PATHS.contains(&path) {
        return text(StatusCode::NOT_FOUND, "Not found");
    }
    match authenticate(&headers, &shared.config.token) {
        Auth::Ok => {}
        Auth::Missing => {
            return text(
                StatusCode::UNAUTHORIZED,
                "Authorization header must be provided",
            );
        }
        Auth::Wrong => {
            // The live service answers 403 here on the devices and browser endpoints only.
            let status = if path.ends_with("/devices") || path.starts_with("/browser") {
                StatusCode::FORBIDDEN
            } else {
                StatusCode::UNAUTHORIZED
            };
            return text(status, "Valid API token must be provided");
        }
    }
    let query = Query::parse(uri.query());
    match path {
        "/user" => json_response(StatusCode::OK, json!([account(&shared)]).to_string()),
        "/users" => {
            // Profiles of the addresses asked for; all the token sees (one) by default.
            let mut asked = query.all("email").peekable();
            let wanted =
                asked.peek().is_none() || asked.any(|e| e.eq_ignore_ascii_case(ACCOUNT_EMAIL));
            let accounts: Vec<_> = wanted.then(|| account(&shared)).into_iter().collect();
            json_response(StatusCode::OK, json!(accounts).to_string())
        }
        "/usage" => match shared.usage.report(&query, ACCOUNT_EMAIL) {
            Ok(report) => json_response(StatusCode::OK, report.to_string()),
            Err(message) => unprocessable(message),
        },
        "/ai/devices" | "/search/devices" | "/browser/devices" => {
            let names: Vec<&str> = if shared.config.empty_devices && path == "/ai/devices" {
                Vec::new()
            } else {
                devices().iter().map(|(name, _)| name.as_str()).collect()
            };
            json_response(StatusCode::OK, json!(names).to_string())
        }
        "/ai" if query.first("id").is_some() => {
            retrieve(&shared, JobKind::Ai, &query, StatusCode::ACCEPTED)
        }
        "/ai" => submit_ai(&shared, &query).await,
        "/ai/completions" => retrieve(&shared, JobKind::Ai, &query, StatusCode::OK),
        "/search" if query.first("id").is_some() => {
            retrieve(&shared, JobKind::Search, &query, StatusCode::ACCEPTED)
        }
        "/search" => submit_search(&shared, &query).await,
        // Deprecated, and documented to answer a pending job with 200 and its status.
        "/search/results" => retrieve(&shared, JobKind::Search, &query, StatusCode::OK),
        "/browser" if query.first("id").is_some() => {
            retrieve(&shared, JobKind::Browser, &query, StatusCode::ACCEPTED)
        }
        "/browser" => submit_browser(&shared, &query).await,
        _ => retrieve(&shared, JobKind::Browser, &query, StatusCode::OK),
    }
}
