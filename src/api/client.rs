//! The HTTP client: one per process, cheap to clone, shared by every part of the app.

use std::fmt;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use reqwest::header::{CONTENT_LENGTH, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use url::Url;

use super::decode::{
    RawResponse, decode_account, decode_ai_as, decode_devices, decode_job, decode_job_id,
    decode_off_thread, decode_search_as,
};
use super::error::{ApiError, ErrorChain, TransportKind, excerpt};
use super::model::JobKind;
use super::network::{ProxyEnv, is_loopback, redirect_policy, with_proxies};
use super::request::{AiRequest, BodyAsked, JobId, SearchRequest};
use super::response::{Account, AiAnswer, JobPoll, SearchAnswer};
pub use super::secret::Secret;
use super::secret::TokenMask;

/// How waits the service asks for (503, 429) and server errors (500) are retried.
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    /// Retries after a 503 or 429, at most.
    pub max_retries: u32,
    /// The longest single wait, whatever the service asks.
    pub max_wait: Duration,
    /// The wait when the service names none.
    pub default_wait: Duration,
    /// Retry a 500 once.
    pub retry_server_error: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            max_wait: Duration::from_secs(120),
            default_wait: Duration::from_secs(5),
            retry_server_error: true,
        }
    }
}

impl RetryPolicy {
    /// No retries at all (tests of the raw statuses, scripts that retry themselves).
    pub fn none() -> Self {
        RetryPolicy {
            max_retries: 0,
            retry_server_error: false,
            ..RetryPolicy::default()
        }
    }
}

pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(180);
/// Bodies larger than this are refused, not buffered.
pub const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

#[derive(Clone, Debug)]
pub struct ClientSettings {
    pub render_url: String,
    pub search_url: String,
    pub token: Option<Secret>,
    pub timeout: Duration,
    pub retry: RetryPolicy,
    pub max_body_bytes: usize,
    /// Where the user sets the token, for the sentence of `MissingToken`.
    pub config_hint: String,
}

impl ClientSettings {
    pub fn new(render_url: &str, search_url: &str, token: Option<Secret>) -> Self {
        ClientSettings {
            render_url: render_url.to_string(),
            search_url: search_url.to_string(),
            token,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
            max_body_bytes: MAX_BODY_BYTES,
            config_hint: "the config file".to_string(),
        }
    }
}

/// A wait before an automatic retry, reported so a countdown can be shown.
#[derive(Clone, Debug)]
pub struct RetryNotice {
    /// 1 for the first retry.
    pub attempt: u32,
    pub wait: Duration,
    /// What made the retry necessary.
    pub error: ApiError,
}

type RetryObserver = Arc<dyn Fn(RetryNotice) + Send + Sync>;

/// An answer as received, with its parsed value.
#[derive(Clone, Debug)]
pub struct Fetched<T> {
    pub value: T,
    /// The body exactly as it arrived (for the JSON view, `--json`, history).
    pub body: String,
    pub status: u16,
    pub content_type: String,
    /// From sending the first attempt to the last byte, retries included.
    pub elapsed: Duration,
}

impl<T> Fetched<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Fetched<U> {
        Fetched {
            value: f(self.value),
            body: self.body,
            status: self.status,
            content_type: self.content_type,
            elapsed: self.elapsed,
        }
    }
}

/// Which base URL an endpoint lives under.
#[derive(Clone, Copy)]
pub(super) enum Base {
    Render,
    Search,
}

struct Inner {
    http: reqwest::Client,
    render_url: Result<Url, ApiError>,
    search_url: Result<Url, ApiError>,
    token: Option<Secret>,
    /// Takes the token out of everything the service answers, as it is read.
    mask: TokenMask,
    retry: RetryPolicy,
    max_body_bytes: usize,
    config_hint: String,
    /// The most one call may take, its retries and waits included.
    timeout: Duration,
}

#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
    observer: Option<RetryObserver>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("render_url", &self.inner.render_url)
            .field("search_url", &self.inner.search_url)
            .field("token", &self.inner.token)
            .finish()
    }
}

/// Installs the TLS crypto provider once per process (reqwest is built without a default).
pub(crate) fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // An error means another part of the process installed one first: fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Checks a base URL: it must parse, and carry the token only over https or to this machine.
/// The URL is named in the error with the token masked, should it have been pasted into it.
fn check_base_url(text: &str, mask: &TokenMask) -> Result<Url, ApiError> {
    let named = || mask.text(text);
    let url = Url::parse(text.trim()).map_err(|e| ApiError::BadUrl {
        url: named(),
        reason: e.to_string(),
    })?;
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        "http" => Err(ApiError::InsecureUrl { url: named() }),
        other => Err(ApiError::BadUrl {
            url: named(),
            reason: format!("the scheme {:?} is not http(s)", mask.text(other)),
        }),
    }
}

impl Client {
    pub fn new(settings: ClientSettings) -> Result<Client, ApiError> {
        install_crypto_provider();
        let builder = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(Duration::from_secs(20))
            .user_agent(concat!("vantage/", env!("CARGO_PKG_VERSION")))
            .redirect(redirect_policy())
            // A Referer would carry the previous URL, and with it the prompt.
            .referer(false);
        let mut builder = with_proxies(builder, &ProxyEnv::from_env());
        // A client of this machine over plain http (the demo, a local simulator) never
        // verifies a certificate: skip loading the system's roots, which costs milliseconds
        // before the first frame.
        let local_only = [&settings.render_url, &settings.search_url]
            .iter()
            .all(|text| {
                Url::parse(text.trim()).is_ok_and(|u| u.scheme() == "http" && is_loopback(&u))
            });
        if local_only {
            builder = builder.tls_certs_only(std::iter::empty());
        }
        let http = builder.build().map_err(|e| ApiError::Transport {
            kind: TransportKind::Other,
            detail: format!("the HTTP client could not start: {e}"),
        })?;
        let mask = TokenMask::new(settings.token.as_ref());
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                render_url: check_base_url(&settings.render_url, &mask),
                search_url: check_base_url(&settings.search_url, &mask),
                mask,
                token: settings.token,
                retry: settings.retry,
                max_body_bytes: settings.max_body_bytes,
                config_hint: settings.config_hint,
                timeout: settings.timeout,
            }),
            observer: None,
        })
    }

    /// The same client, reporting each wait before an automatic retry to `observer`.
    pub fn observed(&self, observer: impl Fn(RetryNotice) + Send + Sync + 'static) -> Client {
        Client {
            inner: Arc::clone(&self.inner),
            observer: Some(Arc::new(observer)),
        }
    }

    pub fn has_token(&self) -> bool {
        self.inner.token.is_some()
    }

    /// The host answering AI calls, for the status bar.
    pub(crate) fn render_host(&self) -> String {
        match &self.inner.render_url {
            Ok(url) => url[url::Position::BeforeHost..url::Position::AfterPort].to_string(),
            Err(_) => "(invalid URL)".to_string(),
        }
    }

    // ---- endpoints ----

    /// `GET /ai`, sync: waits for the answer.
    pub async fn ai(&self, request: &AiRequest) -> Result<Fetched<AiAnswer>, ApiError> {
        request.validate()?;
        let raw = self
            .get(Base::Render, "/ai", &request.query_pairs())
            .await?;
        let asked = request.body_asked();
        decode_off_thread(raw, move |raw| decode_ai_as(raw, asked)).await
    }

    /// `GET /ai?mode=async`: queues the call and answers its job id.
    pub async fn ai_submit(&self, request: &AiRequest) -> Result<JobId, ApiError> {
        request.validate()?;
        let mut pairs = request.query_pairs();
        pairs.push(("mode", "async".to_string()));
        let raw = self.get(Base::Render, "/ai", &pairs).await?;
        decode_job_id(&raw)
    }

    /// `GET /ai/devices`.
    pub async fn devices(&self) -> Result<Fetched<Vec<String>>, ApiError> {
        self.device_list(crate::devices::DeviceList::Ai).await
    }

    /// `GET /ai/devices` or `GET /search/devices`: the names one kind of call emulates.
    pub async fn device_list(
        &self,
        list: crate::devices::DeviceList,
    ) -> Result<Fetched<Vec<String>>, ApiError> {
        let base = match list {
            crate::devices::DeviceList::Ai => Base::Render,
            crate::devices::DeviceList::Search => Base::Search,
        };
        let raw = self.get(base, list.path(), &[]).await?;
        let value = decode_devices(&raw.body)?;
        Ok(raw.into_fetched(value))
    }

    /// `GET /search`, sync.
    pub async fn search(&self, request: &SearchRequest) -> Result<Fetched<SearchAnswer>, ApiError> {
        request.validate()?;
        let raw = self
            .get(Base::Search, "/search", &request.query_pairs())
            .await?;
        let asked = request.body_asked();
        decode_off_thread(raw, move |raw| decode_search_as(raw, asked)).await
    }

    /// `GET /search?mode=async`.
    pub async fn search_submit(&self, request: &SearchRequest) -> Result<JobId, ApiError> {
        request.validate()?;
        let mut pairs = request.query_pairs();
        pairs.push(("mode", "async".to_string()));
        let raw = self.get(Base::Search, "/search", &pairs).await?;
        decode_job_id(&raw)
    }

    /// `GET /user`: the account and its credit balance.
    pub async fn account(&self) -> Result<Account, ApiError> {
        let raw = self.get(Base::Render, "/user", &[]).await?;
        decode_account(&raw.body)
    }

    /// Retrieves a queued AI call: `/ai?id=`, falling back to the older `/ai/completions?id=`.
    pub async fn ai_job(
        &self,
        id: &JobId,
        asked: BodyAsked,
    ) -> Result<Fetched<JobPoll<AiAnswer>>, ApiError> {
        let raw = self
            .get_with_fallback(Base::Render, "/ai", "/ai/completions", id)
            .await?;
        decode_off_thread(raw, move |raw| {
            decode_job(raw, |raw| decode_ai_as(raw, asked))
        })
        .await
    }

    /// Retrieves a queued search: `/search/results?id=`.
    pub async fn search_job(
        &self,
        id: &JobId,
        asked: BodyAsked,
    ) -> Result<Fetched<JobPoll<SearchAnswer>>, ApiError> {
        let pairs = [("id", id.to_string())];
        let raw = self.get(Base::Search, "/search/results", &pairs).await?;
        decode_off_thread(raw, move |raw| {
            decode_job(raw, |raw| decode_search_as(raw, asked))
        })
        .await
    }

    /// Retrieves a queued browser request: `/browser?id=`, falling back to the deprecated
    /// `/browser/content?id=`.
    pub async fn browser_job(&self, id: &JobId) -> Result<Fetched<JobPoll<String>>, ApiError> {
        let raw = self
            .get_with_fallback(Base::Render, "/browser", "/browser/content", id)
            .await?;
        decode_off_thread(raw, |raw| decode_job(raw, |raw| Ok(raw.body.clone()))).await
    }

    /// Retrieves any job by kind; the answer is the job's state and, when ready, the body,
    /// which must be what the job asked for (a browser job's is always a page).
    pub async fn job(
        &self,
        kind: JobKind,
        id: &JobId,
        asked: BodyAsked,
    ) -> Result<Fetched<JobPoll<JobAnswer>>, ApiError> {
        Ok(match kind {
            JobKind::Ai => self
                .ai_job(id, asked)
                .await?
                .map(|p| map_poll(p, JobAnswer::Ai)),
            JobKind::Search => self
                .search_job(id, asked)
                .await?
                .map(|p| map_poll(p, JobAnswer::Search)),
            JobKind::Browser => self
                .browser_job(id)
                .await?
                .map(|p| map_poll(p, JobAnswer::Browser)),
        })
    }

    // ---- transport ----

    async fn get_with_fallback(
        &self,
        base: Base,
        path: &str,
        older_path: &str,
        id: &JobId,
    ) -> Result<RawResponse, ApiError> {
        let pairs = [("id", id.to_string())];
        match self.get(base, path, &pairs).await {
            Err(ApiError::NotFound { .. }) | Err(ApiError::OtherStatus { status: 405, .. }) => {
                self.get(base, older_path, &pairs).await
            }
            other => other,
        }
    }

    /// One call, with the retries the policy allows, all within the client's timeout: each
    /// attempt gets only the time left, and a wait that would pass the limit is not taken.
    pub(super) async fn get(
        &self,
        base: Base,
        path: &str,
        pairs: &[(&str, String)],
    ) -> Result<RawResponse, ApiError> {
        let url = self.url(base, path, pairs)?;
        let token = self
            .inner
            .token
            .as_ref()
            .ok_or_else(|| ApiError::MissingToken {
                config_hint: self.inner.config_hint.clone(),
            })?;
        // A header carries visible ASCII only: anything else fails in the HTTP library with
        // words that say nothing of the token.
        if !token.expose().bytes().all(|b| b.is_ascii_graphic()) {
            return Err(ApiError::UnusableToken {
                config_hint: self.inner.config_hint.clone(),
            });
        }
        let started = Instant::now();
        let deadline = started + self.inner.timeout;
        let policy = &self.inner.retry;
        let mut waits = 0u32;
        let mut server_error_retried = false;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let result = self.get_once(&url, token, left).await;
            let wait = match &result {
                Err(e @ (ApiError::Unavailable { .. } | ApiError::RateLimited { .. }))
                    if waits < policy.max_retries =>
                {
                    Some(
                        e.retry_after()
                            .unwrap_or(policy.default_wait)
                            .min(policy.max_wait),
                    )
                }
                Err(ApiError::Server { .. })
                    if policy.retry_server_error && !server_error_retried =>
                {
                    server_error_retried = true;
                    Some(Duration::from_secs(1))
                }
                _ => None,
            };
            match (wait, result) {
                (Some(wait), Err(error)) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if wait >= left {
                        return Err(match error {
                            ApiError::Server { .. } => error,
                            _ => ApiError::WaitBeyondLimit {
                                cause: Box::new(error),
                                left,
                            },
                        });
                    }
                    waits += 1;
                    tracing::info!(
                        path,
                        attempt = waits,
                        wait_s = wait.as_secs(),
                        "retrying after {error:?}"
                    );
                    if let Some(observer) = &self.observer {
                        observer(RetryNotice {
                            attempt: waits,
                            wait,
                            error,
                        });
                    }
                    tokio::time::sleep(wait).await;
                }
                (_, Ok(mut raw)) => {
                    raw.elapsed = started.elapsed();
                    return Ok(raw);
                }
                (_, Err(error)) => return Err(error),
            }
        }
    }

    fn url(&self, base: Base, path: &str, pairs: &[(&str, String)]) -> Result<Url, ApiError> {
        let base_url = match base {
            Base::Render => &self.inner.render_url,
            Base::Search => &self.inner.search_url,
        };
        let base_url = base_url.as_ref().map_err(Clone::clone)?;
        let mut url = base_url.clone();
        let joined = format!("{}{}", base_url.path().trim_end_matches('/'), path);
        url.set_path(&joined);
        url.set_query(None);
        if !pairs.is_empty() {
            let mut query = url.query_pairs_mut();
            for (k, v) in pairs {
                query.append_pair(k, v);
            }
        }
        Ok(url)
    }

    async fn get_once(
        &self,
        url: &Url,
        token: &Secret,
        time_left: Duration,
    ) -> Result<RawResponse, ApiError> {
        let mask = &self.inner.mask;
        let mut response = self
            .inner
            .http
            .get(url.clone())
            .timeout(time_left)
            // Marked sensitive, so no log of the request's headers ever shows it.
            .bearer_auth(token.expose())
            .send()
            .await
            .map_err(|e| transport_error(e, mask))?;
        let status = response.status().as_u16();
        let header = |name| {
            response
                .headers()
                .get(name)
                .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
                .map(|value| mask.text(value))
        };
        let content_type = header(CONTENT_TYPE).unwrap_or_default();
        let retry_after = header(RETRY_AFTER);
        if (300..400).contains(&status) {
            return Err(ApiError::Redirect {
                status,
                location: header(LOCATION).unwrap_or_default(),
            });
        }
        let limit = self.inner.max_body_bytes;
        if let Some(length) = header(CONTENT_LENGTH).and_then(|l| l.parse::<usize>().ok())
            && length > limit
        {
            return Err(ApiError::TooLarge { limit });
        }
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| transport_error(e, mask))?
        {
            if body.len() + chunk.len() > limit {
                return Err(ApiError::TooLarge { limit });
            }
            body.extend_from_slice(&chunk);
        }
        // Before anything reads the body (an error's message, an excerpt, the decoders):
        // from here on, no text of this answer holds the token.
        let body = mask.bytes(body);
        if !(200..300).contains(&status) {
            let text = String::from_utf8_lossy(&body);
            return Err(ApiError::from_status(status, &text, retry_after.as_deref()));
        }
        let body = String::from_utf8(body).map_err(|e| ApiError::BadBody {
            what: "not UTF-8 text".to_string(),
            excerpt: excerpt(e.as_bytes()),
        })?;
        Ok(RawResponse {
            status,
            content_type,
            body,
            elapsed: Duration::ZERO,
        })
    }
}

/// The wait before the next poll of a pending job: 2 s after the first poll, doubling to 30 s.
pub(crate) fn poll_delay(polls_done: u32) -> Duration {
    let doublings = polls_done.saturating_sub(1).min(4);
    Duration::from_secs((2u64 << doublings).min(30))
}

/// What a job of any kind answered when ready.
#[derive(Clone, Debug, PartialEq)]
pub enum JobAnswer {
    Ai(AiAnswer),
    Search(SearchAnswer),
    Browser(String),
}

fn map_poll<T, U>(poll: JobPoll<T>, f: impl FnOnce(T) -> U) -> JobPoll<U> {
    match poll {
        JobPoll::Pending(s) => JobPoll::Pending(s),
        JobPoll::Failed(said) => JobPoll::Failed(said),
        JobPoll::Ready(v) => JobPoll::Ready(f(v)),
    }
}

/// Names what part of reaching the service failed, from reqwest's error and its causes.
fn transport_error(error: reqwest::Error, mask: &TokenMask) -> ApiError {
    let chain = ErrorChain::of(&error);
    let text = chain.joined().to_ascii_lowercase();
    let io_kind = chain.io_kind;
    use std::io::ErrorKind as K;
    let kind = if error.is_timeout() || matches!(io_kind, Some(K::TimedOut)) {
        TransportKind::Timeout
    } else if text.contains("dns error")
        || text.contains("failed to lookup")
        || text.contains("name or service not known")
        || text.contains("no such host")
    {
        TransportKind::Dns
    } else if text.contains("certificate")
        || text.contains("tls")
        || text.contains("handshake")
        || text.contains("invalidcontenttype")
    {
        TransportKind::Tls
    } else if matches!(io_kind, Some(K::ConnectionRefused)) || error.is_connect() {
        TransportKind::Connect
    } else if matches!(
        io_kind,
        Some(K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof)
    ) || text.contains("connection closed")
        || text.contains("connection reset")
        || text.contains("incomplete message")
    {
        TransportKind::Reset
    } else {
        TransportKind::Other
    };
    // The innermost cause says most; the URL is left out because it may be long.
    let detail = chain.innermost().unwrap_or("unknown error");
    ApiError::Transport {
        kind,
        detail: super::request::shorten(&mask.text(detail), 160),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_never_shows_in_debug() {
        let secret = Secret::new("sk-live-1234567890abcd").unwrap();
        assert!(!format!("{secret:?}").contains("1234"));
        assert_eq!(secret.masked(), "••••abcd");
        let client = Client::new(ClientSettings::new(
            "https://render.example",
            "https://render.example",
            Some(secret),
        ))
        .unwrap();
        assert!(!format!("{client:?}").contains("sk-live"));
    }

    fn check(text: &str) -> Result<Url, ApiError> {
        check_base_url(text, &TokenMask::none())
    }

    #[test]
    fn base_urls_must_be_https_or_loopback() {
        assert!(check("https://render.joinmassive.com").is_ok());
        assert!(check("http://127.0.0.1:8080").is_ok());
        assert!(check("http://localhost:1").is_ok());
        assert!(check("http://[::1]:1").is_ok());
        assert!(matches!(
            check("http://render.joinmassive.com"),
            Err(ApiError::InsecureUrl { .. })
        ));
        assert!(matches!(
            check("http://127.0.0.1.evil.example"),
            Err(ApiError::InsecureUrl { .. })
        ));
        assert!(matches!(check("ftp://x"), Err(ApiError::BadUrl { .. })));
        assert!(matches!(check("not a url"), Err(ApiError::BadUrl { .. })));
    }

    #[test]
    fn a_token_pasted_into_a_service_url_is_masked_in_the_sentence() {
        let secret = Secret::new("sk-live-1234567890abcd").unwrap();
        let mask = TokenMask::new(Some(&secret));
        for text in [
            "http://render.example/?token=sk-live-1234567890abcd",
            "ftp://render.example/sk-live-1234567890abcd",
            "sk-live-1234567890abcd",
        ] {
            let error = check_base_url(text, &mask).unwrap_err();
            let sentence = error.to_string();
            assert!(!sentence.contains("1234567890"), "{sentence}");
            assert!(sentence.contains("••••abcd"), "{sentence}");
        }
    }

    #[test]
    fn polls_back_off_from_two_to_thirty_seconds() {
        let secs: Vec<u64> = (0..8).map(|n| poll_delay(n).as_secs()).collect();
        assert_eq!(secs, vec![2, 2, 4, 8, 16, 30, 30, 30]);
    }
}
