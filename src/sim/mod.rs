//! The embedded simulator of the whole service, on loopback.
//!
//! It serves the contract (`/ai`, `/ai/devices`, `/search`, `/search/results`, `/browser`,
//! `/user`) with its own code, so `--demo` works with no account and no network and every
//! test exercises real HTTP. Content is deterministic: each choice is drawn from a hash of
//! the request, never from a random generator. [`demo::start`] starts it as `--demo` does.

mod browse;
mod chat;
pub mod demo;
mod devices;
mod html;
mod jobs;
mod place;
mod products;
pub mod proxy;
mod search;
mod seed;
mod server;
mod state;
mod topic;

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use jobs::JobKind;
use server::Shared;

pub(crate) use proxy::DEFAULT_PROXY_USERNAME;
pub use proxy::{PortSet, ProxyEndpoints};

pub const DEMO_TOKEN: &str = "demo-token";

/// The simulator's own list of models, in the interface's order; the first is the default.
pub const MODELS: [&str; 4] = ["chatgpt", "gemini", "perplexity", "copilot"];

#[derive(Clone, Debug)]
pub struct SimConfig {
    pub token: String,
    pub credits: u64,
    /// Multiplies the per-model latencies; 0.0 answers at once (tests).
    pub latency_scale: f64,
    /// If set, every billed answer takes exactly this, whatever the model.
    pub fixed_latency: Option<Duration>,
    /// How long an async job stays "retrieving".
    pub job_pending: Duration,
    /// Share of async jobs that end "failed", chosen per job id.
    pub job_fail_share: f64,
    /// Share of billed calls answered with a fault drawn from `fault_kinds`.
    pub fault_rate: f64,
    pub fault_kinds: Vec<Fault>,
    /// `/ai/devices` answers `[]`, as the live service has been seen to do.
    pub empty_devices: bool,
    /// Where the jobs, balance and usage are kept (SQLite), across restarts and shared by
    /// every simulator on the same file; `None` keeps them in memory.
    pub state_file: Option<std::path::PathBuf>,
    /// The proxy username the simulated proxies accept (options are appended to it).
    pub proxy_username: String,
    /// The proxy key they accept; `None` uses `token`, as the live service uses the API key.
    pub proxy_key: Option<String>,
    /// Which day's answers and ranks cacheable calls get (see [`Epoch`]).
    pub epoch: Epoch,
    /// What each successful call costs: the client's one table, as the live service bills.
    pub prices: crate::price::Prices,
}

/// The day the simulated world is at. Answers that may come from the cache are drawn from
/// the request and the epoch, so they stay the same within an epoch and drift, within the
/// bounds each builder keeps (the same topic, sources and candidates; other wording, brand
/// order and ranks), from one epoch to the next: tracking has trends to show offline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Epoch {
    /// Always this epoch; 0 is the world without drift, as before epochs existed.
    Fixed(u64),
    /// The day of the calendar (days since 1970, UTC): answers change at midnight.
    Today,
}

impl Epoch {
    /// The epoch number now.
    pub fn number(self) -> u64 {
        match self {
            Epoch::Fixed(n) => n,
            Epoch::Today => jobs::now_unix_ms() / 86_400_000,
        }
    }
}

impl std::str::FromStr for Epoch {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim() {
            "today" | "day" => Ok(Epoch::Today),
            number => number.parse().map(Epoch::Fixed).map_err(|_| {
                format!("the epoch {number:?} is neither a number of days nor \"today\"")
            }),
        }
    }
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            token: DEMO_TOKEN.to_string(),
            credits: 1_000,
            latency_scale: 1.0,
            fixed_latency: None,
            job_pending: Duration::from_secs(3),
            job_fail_share: 0.1,
            fault_rate: 0.0,
            fault_kinds: Vec::new(),
            empty_devices: false,
            state_file: None,
            proxy_username: DEFAULT_PROXY_USERNAME.to_string(),
            proxy_key: None,
            // Tests and the demo pin what they see; `vantage sim` follows the calendar.
            epoch: Epoch::Fixed(0),
            prices: crate::price::Prices::default(),
        }
    }
}

impl SimConfig {
    /// For `--demo`: the observed latencies (7 to 150 s) scaled by 0.06, so answers take
    /// about 0.5 to 4 s (Gemini and ChatGPT quick, Copilot usually 2 to 4 s, rarely up to 9),
    /// and cached repeats a tenth of that.
    pub fn demo() -> Self {
        SimConfig {
            latency_scale: 0.06,
            ..SimConfig::default()
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// 403 "Captcha was detected".
    Captcha,
    /// 500 "Unknown error occurred".
    ServerError,
    /// 503 "Service is autoscaling; please retry in N seconds" with `Retry-After`.
    Unavailable,
    /// 504 "Request(s) timed out", after the call's usual latency.
    Timeout,
    /// 429 "Too many requests; retry in N seconds" with `Retry-After`.
    RateLimited,
    /// A normal answer, five times slower.
    Slow,
    /// 200 with a truncated body.
    Malformed,
    /// 200 with a CDN's HTML "502 Bad Gateway" page where JSON was asked: what a proxy in
    /// front of the service sends when the service behind it is down.
    GatewayPage,
}

impl std::str::FromStr for Fault {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "captcha" | "403" => Ok(Fault::Captcha),
            "500" | "error" => Ok(Fault::ServerError),
            "503" | "unavailable" => Ok(Fault::Unavailable),
            "504" | "timeout" => Ok(Fault::Timeout),
            "429" | "ratelimited" | "rate-limited" => Ok(Fault::RateLimited),
            "slow" => Ok(Fault::Slow),
            "malformed" => Ok(Fault::Malformed),
            "gateway-page" => Ok(Fault::GatewayPage),
            _ => Err(format!(
                "unknown fault \"{}\" (expected captcha, 500, 503, 504, 429, slow, malformed or gateway-page)",
                text.trim()
            )),
        }
    }
}

/// Parses a comma-separated list such as "503,500,slow"; empty items are skipped.
pub(crate) fn parse_faults(list: &str) -> Result<Vec<Fault>, String> {
    list.split(',')
        .filter(|item| !item.trim().is_empty())
        .map(str::parse)
        .collect()
}

/// Locks a mutex even if a thread panicked while holding it: the tables it guards stay
/// usable, and a simulator that serves on is worth more than one that stops.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A running simulator. Dropping it stops the server too; `shutdown` also waits for it.
pub struct Simulator {
    shared: Arc<Shared>,
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    proxies: proxy::ProxyServers,
    /// Where the demo saved the proxies' CA, if it did.
    proxy_ca_file: Option<std::path::PathBuf>,
}

impl Simulator {
    /// Starts on 127.0.0.1 with a port chosen by the system.
    pub async fn start(config: SimConfig) -> std::io::Result<Simulator> {
        Simulator::start_on(config, 0).await
    }

    /// Starts on 127.0.0.1:`port` (0 lets the system choose).
    pub(crate) async fn start_on(config: SimConfig, port: u16) -> std::io::Result<Simulator> {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
        let addr = listener.local_addr()?;
        let proxy_key = config.proxy_key.as_ref().unwrap_or(&config.token);
        let proxies = proxy::ProxyServers::start(&config.proxy_username, proxy_key).await?;
        let shared = Arc::new(Shared::new(config, addr));
        let app = axum::Router::new()
            .fallback(server::handle)
            .with_state(Arc::clone(&shared));
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let serving = axum::serve(listener, app).with_graceful_shutdown(async move {
                let _ = stopped.await;
            });
            if let Err(error) = serving.await {
                tracing::warn!(%error, "simulator stopped with an error");
            }
        });
        tracing::info!(%addr, "simulator listening");
        Ok(Simulator {
            shared,
            addr,
            stop: Some(stop),
            task: Some(task),
            proxies,
            proxy_ca_file: None,
        })
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn token(&self) -> &str {
        &self.shared.config.token
    }

    /// The next billed calls answer these outcomes in order (`None` = a normal answer);
    /// after them, faults are drawn by `fault_rate` again.
    pub fn script(&self, outcomes: Vec<Option<Fault>>) {
        let mut script = lock(&self.shared.script);
        script.extend(outcomes);
    }

    pub fn set_credits(&self, credits: u64) {
        self.shared.balance.set(credits);
    }

    pub fn credits(&self) -> u64 {
        self.shared.balance.get()
    }

    /// Async submissions after the first `accepted` are held, unanswered and not queued,
    /// until [`Simulator::release_submissions`]: a test can stop a client at a known point.
    pub fn hold_submissions_after(&self, accepted: u64) {
        self.shared.hold.limit.store(accepted, Ordering::SeqCst);
    }

    /// Answers the held submissions with a 503 (they queue nothing) and holds no more.
    pub fn release_submissions(&self) {
        self.shared.hold.limit.store(u64::MAX, Ordering::SeqCst);
        self.shared.hold.released.notify_waiters();
    }

    /// The query of every queued job (async submissions the simulator accepted), in no
    /// particular order: what a test counts to prove nothing was submitted twice.
    pub fn submitted_queries(&self) -> Vec<Vec<(String, String)>> {
        self.shared.jobs.queries()
    }

    /// Every HTTP request that reached the server, on any path.
    pub fn requests_received(&self) -> u64 {
        self.shared.requests.load(Ordering::SeqCst)
    }

    /// Where the simulated proxy networks listen, with their credentials and CA.
    pub fn proxies(&self) -> &ProxyEndpoints {
        &self.proxies.endpoints
    }

    /// Connections accepted on any simulated proxy port (to prove nothing was sent).
    pub fn proxy_connections(&self) -> u64 {
        self.proxies.connections()
    }

    /// Creates a finished browser job with this content and returns its id.
    pub fn seed_browser_job(&self, content: &str) -> String {
        self.shared.create_job(
            JobKind::Browser,
            Vec::new(),
            0,
            false,
            Some(content.to_string()),
        )
    }

    /// Stops accepting connections, lets answers in flight finish (up to 2 s), and waits.
    pub async fn shutdown(mut self) {
        self.proxies.stop();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(Duration::from_secs(2), &mut task)
                .await
                .is_err()
        {
            task.abort();
        }
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_parse_and_name_the_bad_item() {
        assert_eq!(
            parse_faults("503, 500,slow"),
            Ok(vec![Fault::Unavailable, Fault::ServerError, Fault::Slow])
        );
        assert_eq!(
            parse_faults("captcha,504,429,malformed"),
            Ok(vec![
                Fault::Captcha,
                Fault::Timeout,
                Fault::RateLimited,
                Fault::Malformed
            ])
        );
        let error = parse_faults("503,teapot").err().unwrap_or_default();
        assert!(error.contains("teapot"), "{error}");
        assert_eq!(parse_faults(""), Ok(Vec::new()));
    }
}
