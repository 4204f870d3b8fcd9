//! Where the client's calls may go besides the service's URL: redirects only within the same
//! origin, a few at most, never with a `Referer`; a proxy of the environment never for this
//! machine, `NO_PROXY` honoured.

use std::collections::HashMap;
use std::io::Read;
use std::net::TcpListener;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;
use vantage::api::{AiRequest, ApiError, Client, ClientSettings, RetryPolicy, Secret};

mod common;

/// A request as a test server saw it: its path and its `Referer`, if any.
type Request = (String, Option<String>);

/// What a test server saw.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<Request>>>);

impl Seen {
    fn record(&self, path: &str, headers: &HeaderMap) {
        let referer = headers
            .get(header::REFERER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        self.0
            .lock()
            .expect("seen lock")
            .push((path.to_string(), referer));
    }

    fn all(&self) -> Vec<Request> {
        self.0.lock().expect("seen lock").clone()
    }
}

#[derive(Clone)]
struct Redirecting {
    seen: Seen,
    /// Where "elsewhere" points: another server on this machine, on another port.
    elsewhere: String,
    /// This server's port, for a redirect to the same port under another host name.
    port: u16,
}

fn redirect(to: &str) -> Response {
    (StatusCode::FOUND, [(header::LOCATION, to.to_string())]).into_response()
}

fn completion() -> Response {
    axum::Json(json!({"model": "chatgpt", "prompt": "p", "completion": "<p>moved here</p>"}))
        .into_response()
}

async fn ai(
    State(state): State<Redirecting>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    state.seen.record("/ai", &headers);
    let prompt = q.get("prompt").cloned().unwrap_or_default();
    match prompt.as_str() {
        "same origin" => redirect("/moved?prompt=same+origin"),
        "another port" => redirect(&format!("{}/ai?prompt=stolen", state.elsewhere)),
        "another host" => redirect(&format!("http://localhost:{}/moved", state.port)),
        "plain http" => redirect("http://render.example/ai"),
        "https here" => redirect(&format!("https://127.0.0.1:{}/moved", state.port)),
        _ => redirect("/ai?prompt=round+and+round"),
    }
}

async fn moved(State(state): State<Redirecting>, headers: HeaderMap) -> Response {
    state.seen.record("/moved", &headers);
    completion()
}

async fn elsewhere(State(seen): State<Seen>, headers: HeaderMap) -> Response {
    seen.record("/elsewhere", &headers);
    completion()
}

fn client_of(url: &str) -> Client {
    let mut settings = ClientSettings::new(url, url, Secret::new("redirect-test-token"));
    settings.retry = RetryPolicy::none();
    Client::new(settings).expect("client")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_stay_on_the_same_origin_a_few_hops_without_a_referer() {
    let elsewhere_seen = Seen::default();
    let other = common::serve_here(
        axum::Router::new()
            .route("/ai", get(elsewhere))
            .with_state(elsewhere_seen.clone()),
    )
    .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("address").port();
    let state = Redirecting {
        seen: Seen::default(),
        elsewhere: other,
        port,
    };
    let router = axum::Router::new()
        .route("/ai", get(ai))
        .route("/moved", get(moved))
        .with_state(state.clone());
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    let client = client_of(&format!("http://127.0.0.1:{port}"));

    // Within the same origin: followed, and the new place sees no Referer (which would
    // carry the prompt).
    let answer = client.ai(&AiRequest::new("same origin")).await;
    assert!(answer.is_ok(), "{answer:?}");
    assert_eq!(
        state.seen.all().last(),
        Some(&("/moved".to_string(), None)),
        "{:?}",
        state.seen.all()
    );

    // Anywhere else: not followed, and said with where it pointed.
    for prompt in ["another port", "another host", "plain http", "https here"] {
        let error = client.ai(&AiRequest::new(prompt)).await.unwrap_err();
        assert!(
            matches!(error, ApiError::Redirect { status: 302, .. }),
            "{prompt}: {error:?}"
        );
        let sentence = error.to_string();
        assert!(sentence.contains("does not follow"), "{sentence}");
        assert_eq!(error.exit_code(), vantage::exit::SERVICE);
    }
    assert!(
        elsewhere_seen.all().is_empty(),
        "another port was never reached"
    );
    let moved = state
        .seen
        .all()
        .iter()
        .filter(|(p, _)| p == "/moved")
        .count();
    assert_eq!(
        moved, 1,
        "only the same-origin redirect reached /moved (not localhost's)"
    );

    // Round and round: three redirects followed, then the fourth is refused.
    let before = state.seen.all().len();
    let error = client.ai(&AiRequest::new("loop")).await.unwrap_err();
    assert!(matches!(error, ApiError::Redirect { .. }), "{error:?}");
    assert_eq!(
        state.seen.all().len() - before,
        1 + vantage::api::network::MAX_REDIRECTS,
        "the first request and three redirects"
    );
    assert!(
        state
            .seen
            .all()
            .iter()
            .all(|(_, referer)| referer.is_none())
    );
}

/// A "proxy" on this machine that counts the connections it is sent and answers none.
fn recording_proxy() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    let count = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&count);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            counted.fetch_add(1, Ordering::SeqCst);
            if let Ok(mut stream) = stream {
                let mut first = [0u8; 256];
                let _ = stream.read(&mut first);
            }
        }
    });
    (url, count)
}

/// `vantage ai` with every proxy variable pointing at `proxy`, and `no_proxy` as given.
fn ai_through(proxy: &str, service: &str, token: &str, no_proxy: Option<&str>) -> Output {
    let home = tempfile::tempdir().expect("temp dir");
    let mut command = Command::new(env!("CARGO_BIN_EXE_vantage"));
    command
        .env("VANTAGE_DATA_DIR", home.path().join("data"))
        .env("VANTAGE_CONFIG", home.path().join("none.toml"))
        .env("VANTAGE_TOKEN", token)
        .env_remove("MASSIVE_TOKEN")
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .env_remove("REQUEST_METHOD");
    for name in [
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ] {
        command.env(name, proxy);
    }
    if let Some(list) = no_proxy {
        command.env("NO_PROXY", list);
    }
    command
        .args([
            "--render-url",
            service,
            "--search-url",
            service,
            "ai",
            "boots",
        ])
        .args(["--model", "chatgpt"])
        .output()
        .expect("vantage runs")
}

#[test]
fn a_service_on_this_machine_is_never_reached_through_a_proxy() {
    let (proxy, used) = recording_proxy();
    let service = common::Service::start();
    let url = service.sim.url();
    for loopback in [url.clone(), url.replace("127.0.0.1", "localhost")] {
        let output = ai_through(&proxy, &loopback, service.sim.token(), None);
        assert_eq!(output.status.code(), Some(0), "{loopback}: {output:?}");
    }
    assert_eq!(
        used.load(Ordering::SeqCst),
        0,
        "the proxy saw the local calls"
    );

    // The proxy is the environment's for any other host (the test can fail): a call to an
    // https service goes to it, unless NO_PROXY names the host.
    let remote = "https://vantage-proxy-test.example";
    let output = ai_through(&proxy, remote, "proxy-test-token", None);
    assert_ne!(output.status.code(), Some(0), "{output:?}");
    let asked = used.load(Ordering::SeqCst);
    assert!(asked >= 1, "the proxy was asked for the remote host");
    let output = ai_through(
        &proxy,
        remote,
        "proxy-test-token",
        Some("other.example, .example"),
    );
    assert_ne!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(
        used.load(Ordering::SeqCst),
        asked,
        "NO_PROXY kept the call off the proxy"
    );
}
