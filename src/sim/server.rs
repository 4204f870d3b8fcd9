//! The HTTP side: one handler that counts every request, checks the token, validates the
//! parameters as the contract says, applies faults, bills, waits and answers.

use std::collections::{HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::chat::{self, AiRequest, DEVICES, device_named};
use super::jobs::{Job, JobKind, JobState, JobTable, millis, now_unix_ms};
use super::search::{self, SearchRequest};
use super::seed::{Mix, fnv1a};
use super::{Fault, MODELS, SimConfig};

/// Seconds announced by 503 and 429 answers; kept short so retries in the app stay quick.
const RETRY_SECONDS: u64 = 2;

pub(crate) struct Shared {
    pub config: SimConfig,
    pub base_url: String,
    pub credits: AtomicU64,
    pub requests: AtomicU64,
    /// Fresh numbers for expiration=0 answers.
    variations: AtomicU64,
    fault_draws: AtomicU64,
    pub script: Mutex<VecDeque<Option<Fault>>>,
    /// Content keys answered before: repeats are cache hits and answer faster.
    cache: Mutex<HashSet<u64>>,
    pub jobs: JobTable,
}

impl Shared {
    pub(crate) fn new(config: SimConfig, addr: SocketAddr) -> Shared {
        Shared {
            credits: AtomicU64::new(config.credits),
            base_url: format!("http://{addr}"),
            requests: AtomicU64::new(0),
            variations: AtomicU64::new(0),
            fault_draws: AtomicU64::new(0),
            script: Mutex::new(VecDeque::new()),
            cache: Mutex::new(HashSet::new()),
            jobs: JobTable::open(config.state_file.clone()),
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

    fn variation(&self, cache: bool) -> u64 {
        if cache {
            0
        } else {
            self.variations.fetch_add(1, Ordering::Relaxed) + 1
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

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
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

// ---------- query ----------

pub(crate) struct Query(pub Vec<(String, String)>);

impl Query {
    fn parse(raw: Option<&str>) -> Query {
        Query(
            url::form_urlencoded::parse(raw.unwrap_or("").as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        )
    }

    fn first(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// An optional parameter; an empty value counts as unset.
    fn optional(&self, name: &str) -> Option<&str> {
        self.first(name).map(str::trim).filter(|v| !v.is_empty())
    }

    fn all(&self, name: &str) -> impl Iterator<Item = &str> {
        self.0
            .iter()
            .filter(move |(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The pairs to keep with a job: everything but the mode, so a rebuild is a sync build.
    fn for_job(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .filter(|(k, _)| k != "mode")
            .cloned()
            .collect()
    }
}

fn choice(
    query: &Query,
    name: &str,
    label: &str,
    allowed: &[&'static str],
) -> Result<Option<&'static str>, String> {
    match query.optional(name) {
        None => Ok(None),
        Some(value) => allowed
            .iter()
            .find(|a| a.eq_ignore_ascii_case(value))
            .map(|a| Some(*a))
            .ok_or_else(|| format!("{label} must be one of {}", allowed.join(", "))),
    }
}

fn integer(
    query: &Query,
    name: &str,
    label: &str,
    lo: u32,
    hi: u32,
) -> Result<Option<u32>, String> {
    match query.optional(name) {
        None => Ok(None),
        Some(value) => value
            .parse::<u32>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .map(Some)
            .ok_or_else(|| format!("{label} must be an integer from {lo} to {hi}")),
    }
}

struct Location {
    country: Option<String>,
    subdivision: Option<String>,
    city: Option<String>,
    language: Option<String>,
    display: Option<String>,
}

fn location(query: &Query) -> Result<Location, String> {
    let country = match query.optional("country") {
        None => None,
        Some(c) if c.len() == 2 && c.chars().all(|ch| ch.is_ascii_alphabetic()) => {
            Some(c.to_ascii_uppercase())
        }
        Some(_) => return Err("Country must be a two-letter ISO code".into()),
    };
    let subdivision = match query.optional("subdivision") {
        None => None,
        Some(_) if country.is_none() => return Err("Subdivision requires country".into()),
        Some(s) if (1..=3).contains(&s.len()) && s.chars().all(|ch| ch.is_ascii_alphanumeric()) => {
            Some(s.to_ascii_uppercase())
        }
        Some(_) => {
            return Err(
                "Subdivision must be the alphanumeric part of a subdivision code, like CA in US-CA"
                    .into(),
            );
        }
    };
    let city = match query.optional("city") {
        None => None,
        Some(_) if country.is_none() => return Err("City requires country".into()),
        Some(c) if c.chars().count() <= 100 => Some(c.to_string()),
        Some(_) => return Err("City must be a city name of at most 100 characters".into()),
    };
    let language_like = |name: &str, label: &str| -> Result<Option<String>, String> {
        match query.optional(name) {
            None => Ok(None),
            Some(v)
                if v.chars().count() <= 40
                    && v.chars()
                        .all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '_') =>
            {
                Ok(Some(v.to_string()))
            }
            Some(_) => Err(format!(
                "{label} must be a language name or a two-letter ISO code"
            )),
        }
    };
    Ok(Location {
        country,
        subdivision,
        city,
        language: language_like("language", "Language")?,
        display: language_like("display", "Display")?,
    })
}

fn expiration(query: &Query) -> Result<bool, String> {
    match query.optional("expiration") {
        None | Some("1") => Ok(true),
        Some("0") => Ok(false),
        Some(_) => Err("Expiration must be 0 or 1".into()),
    }
}

fn is_async(query: &Query) -> Result<bool, String> {
    Ok(choice(query, "mode", "Mode", &["sync", "async"])? == Some("async"))
}

fn required_text(query: &Query, name: &str, label: &str, max: usize) -> Result<String, String> {
    let value = query.first(name).unwrap_or("");
    if value.trim().is_empty() {
        return Err(format!("{label} must be provided"));
    }
    if value.chars().count() > max {
        return Err(format!("Character counts must be no more than {max}"));
    }
    Ok(value.to_string())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum AiFormat {
    Json,
    Rendered,
    Raw,
}

struct AiSubmission {
    request: AiRequest,
    format: AiFormat,
    cache: bool,
    asynchronous: bool,
}

fn validate_ai(query: &Query) -> Result<AiSubmission, String> {
    let prompt = required_text(query, "prompt", "Prompt", 2047)?;
    let model = choice(query, "model", "Model", &MODELS)?.unwrap_or(MODELS[0]);
    let device =
        match query.optional("device") {
            None => None,
            Some(name) => Some(device_named(name).ok_or_else(|| {
                "Device must be one of the names listed by /ai/devices".to_string()
            })?),
        };
    let place = location(query)?;
    let format = match choice(query, "format", "Format", &["json", "rendered", "raw"])? {
        Some("rendered") => AiFormat::Rendered,
        Some("raw") => AiFormat::Raw,
        _ => AiFormat::Json,
    };
    Ok(AiSubmission {
        request: AiRequest {
            prompt,
            model,
            device,
            country: place.country,
            subdivision: place.subdivision,
            city: place.city,
            language: place.language,
            display: place.display,
        },
        format,
        cache: expiration(query)?,
        asynchronous: is_async(query)?,
    })
}

struct SearchSubmission {
    request: SearchRequest,
    html: bool,
    cache: bool,
    asynchronous: bool,
}

fn validate_search(query: &Query) -> Result<SearchSubmission, String> {
    let terms = required_text(query, "terms", "Terms", 255)?;
    let serps = integer(query, "serps", "Serps", 1, 10)?.unwrap_or(1);
    let size = integer(query, "size", "Size", 0, 100)?;
    let offset = integer(query, "offset", "Offset", 0, 100)?;
    let ip = choice(query, "ip", "Ip", &["residential", "isp"])?;
    let place = location(query)?;
    let uule = query.optional("uule").map(str::to_string);
    let html = choice(query, "format", "Format", &["html", "json"])? != Some("json");
    let mut awaiting = Vec::new();
    for value in query.all("awaiting") {
        let known = ["ai", "answers", "ads"]
            .into_iter()
            .find(|a| a.eq_ignore_ascii_case(value.trim()))
            .ok_or_else(|| "Awaiting must be one of ai, answers, ads".to_string())?;
        if !awaiting.contains(&known) {
            awaiting.push(known);
        }
    }
    Ok(SearchSubmission {
        request: SearchRequest {
            terms,
            serps,
            size,
            offset,
            ip,
            country: place.country,
            subdivision: place.subdivision,
            city: place.city,
            uule,
            language: place.language,
            display: place.display,
            awaiting,
        },
        html,
        cache: expiration(query)?,
        asynchronous: is_async(query)?,
    })
}

struct BrowserSubmission {
    url: url::Url,
    asynchronous: bool,
}

fn validate_browser(query: &Query) -> Result<BrowserSubmission, String> {
    let raw = required_text(query, "url", "Url", 2048)?;
    let url = url::Url::parse(raw.trim())
        .ok()
        .filter(|u| (u.scheme() == "https" || u.scheme() == "http") && u.host_str().is_some())
        .ok_or_else(|| "Url must be an absolute http or https address".to_string())?;
    Ok(BrowserSubmission {
        url,
        asynchronous: is_async(query)?,
    })
}

// ---------- bodies ----------

fn ai_body(submission: &AiSubmission, variation: u64) -> Response {
    let page = chat::build(&submission.request, variation);
    match submission.format {
        AiFormat::Json => json_response(
            StatusCode::OK,
            chat::completion_json(&submission.request, &page).to_string(),
        ),
        AiFormat::Rendered => html_response(page.page_html),
        AiFormat::Raw => html_response(chat::raw_page(&page)),
    }
}

fn search_body(submission: &SearchSubmission, variation: u64) -> Response {
    let body = search::results_json(&submission.request, variation);
    if submission.html {
        html_response(search::results_html(&submission.request, &body))
    } else {
        json_response(StatusCode::OK, body.to_string())
    }
}

fn browser_page(url: &url::Url) -> String {
    let host = url.host_str().unwrap_or("site");
    let mut mix = Mix::of(&["browser", url.as_str()]);
    let paragraphs = 2 + mix.below(3);
    let mut body = String::new();
    for i in 0..paragraphs {
        body.push_str(&format!(
            "<p>Section {} of {host}: content as a browser in the simulator fetched it.</p>",
            i + 1
        ));
    }
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{host}</title></head><body><h1>{host}</h1>{body}<ul><li><a href=\"{base}about\">About</a></li><li><a href=\"{base}contact\">Contact</a></li></ul></body></html>",
        base = url.join("/").map(|u| u.to_string()).unwrap_or_default()
    )
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

// ---------- billing and faults ----------

enum Gate {
    Go { slow: bool, malformed: bool },
    Refuse(Response),
    TimeOut,
}

/// Credits, then faults, then billing: a refused or failed call costs nothing.
fn gate(shared: &Shared) -> Gate {
    let no_credits = || {
        text(
            StatusCode::PAYMENT_REQUIRED,
            &format!("Credit balance is 0; top up at {}/plans", shared.base_url),
        )
    };
    if shared.credits.load(Ordering::SeqCst) == 0 {
        return Gate::Refuse(no_credits());
    }
    let (slow, malformed) = match shared.next_fault() {
        None => (false, false),
        Some(Fault::Slow) => (true, false),
        Some(Fault::Malformed) => (false, true),
        Some(Fault::Timeout) => return Gate::TimeOut,
        Some(other) => return Gate::Refuse(fault_response(other)),
    };
    let spent = shared
        .credits
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |c| c.checked_sub(1));
    if spent.is_err() {
        return Gate::Refuse(no_credits());
    }
    Gate::Go { slow, malformed }
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

async fn submit_ai(shared: &Shared, query: &Query) -> Response {
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

async fn submit_search(shared: &Shared, query: &Query) -> Response {
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

async fn submit_browser(shared: &Shared, query: &Query) -> Response {
    let submission = match validate_browser(query) {
        Ok(s) => s,
        Err(message) => return unprocessable(message),
    };
    let key = submission.url.to_string();
    let call = Call {
        kind: JobKind::Browser,
        key: &key,
        latency_range: (1.0, 4.0),
        cache: true,
        asynchronous: submission.asynchronous,
    };
    submit(shared, call, query, |_| {
        html_response(browser_page(&submission.url))
    })
    .await
}

struct Call<'a> {
    kind: JobKind,
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
        Gate::Refuse(response) => return response,
        Gate::TimeOut => {
            tokio::time::sleep(shared.latency(call.latency_range, call.key, false, false)).await;
            return fault_response(Fault::Timeout);
        }
    };
    let hit = call.cache && shared.cache_hit(call.key);
    let variation = shared.variation(call.cache);
    if call.asynchronous {
        let id = shared.create_job(call.kind, query.for_job(), variation, slow, None);
        return finish(accepted(&id), malformed_body).await;
    }
    tokio::time::sleep(shared.latency(call.latency_range, call.key, hit, slow)).await;
    finish(body(variation), malformed_body).await
}

// ---------- retrieval ----------

fn retrieve(shared: &Shared, kind: JobKind, query: &Query, pending: StatusCode) -> Response {
    let not_found = || text(StatusCode::NOT_FOUND, "Job not found");
    let Some(id) = query.optional("id") else {
        return not_found();
    };
    let Some(job) = shared.jobs.get(id).filter(|job| job.kind == kind) else {
        return not_found();
    };
    match job.state(now_unix_ms()) {
        JobState::Pending => json_response(pending, json!({"status": "retrieving"}).to_string()),
        JobState::Failed => json_response(StatusCode::OK, json!({"status": "failed"}).to_string()),
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
        JobKind::Browser => validate_browser(&query).map(|s| html_response(browser_page(&s.url))),
    };
    rebuilt.unwrap_or_else(|_| text(StatusCode::INTERNAL_SERVER_ERROR, "Unknown error occurred"))
}

// ---------- dispatch ----------

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

const API_PATHS: [&str; 8] = [
    "/user",
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
            let status = if path == "/ai/devices" || path.starts_with("/browser") {
                StatusCode::FORBIDDEN
            } else {
                StatusCode::UNAUTHORIZED
            };
            return text(status, "Valid API token must be provided");
        }
    }
    let query = Query::parse(uri.query());
    match path {
        "/user" => json_response(
            StatusCode::OK,
            json!([{
                "email": "demo@vantage.local",
                "credits": shared.credits.load(Ordering::SeqCst),
            }])
            .to_string(),
        ),
        "/ai/devices" => {
            let names: Vec<&str> = if shared.config.empty_devices {
                Vec::new()
            } else {
                DEVICES.iter().map(|(name, _)| *name).collect()
            };
            json_response(StatusCode::OK, json!(names).to_string())
        }
        "/ai" if query.first("id").is_some() => {
            retrieve(&shared, JobKind::Ai, &query, StatusCode::ACCEPTED)
        }
        "/ai" => submit_ai(&shared, &query).await,
        "/ai/completions" => retrieve(&shared, JobKind::Ai, &query, StatusCode::OK),
        "/search" => submit_search(&shared, &query).await,
        "/search/results" => retrieve(&shared, JobKind::Search, &query, StatusCode::ACCEPTED),
        "/browser" if query.first("id").is_some() => {
            retrieve(&shared, JobKind::Browser, &query, StatusCode::ACCEPTED)
        }
        "/browser" => submit_browser(&shared, &query).await,
        _ => retrieve(&shared, JobKind::Browser, &query, StatusCode::OK),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Query {
        Query(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn ai_validation_names_the_parameter() {
        let long = "x".repeat(2048);
        let cases: [(&[(&str, &str)], &str); 6] = [
            (
                &[("prompt", long.as_str())],
                "Character counts must be no more than 2047",
            ),
            (
                &[("prompt", "hi"), ("model", "bard")],
                "Model must be one of chatgpt, gemini, perplexity, copilot",
            ),
            (
                &[("prompt", "hi"), ("subdivision", "CA")],
                "Subdivision requires country",
            ),
            (
                &[("prompt", "hi"), ("country", "USA")],
                "Country must be a two-letter ISO code",
            ),
            (
                &[("prompt", "hi"), ("format", "xml")],
                "Format must be one of json, rendered, raw",
            ),
            (
                &[("prompt", "hi"), ("expiration", "2")],
                "Expiration must be 0 or 1",
            ),
        ];
        for (pairs, message) in cases {
            assert_eq!(validate_ai(&query(pairs)).err().as_deref(), Some(message));
        }
        // Characters, not bytes: 2047 multi-byte characters pass.
        let wide = "é".repeat(2047);
        assert!(validate_ai(&query(&[("prompt", wide.as_str())])).is_ok());
        let ok = validate_ai(&query(&[
            ("prompt", "hi"),
            ("model", "GEMINI"),
            ("device", "pixel 8 (pro)"),
        ]))
        .ok()
        .map(|s| (s.request.model, s.request.device));
        assert_eq!(ok, Some(("gemini", Some("Pixel 8 (Pro)"))));
    }
}
