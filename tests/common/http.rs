//! Plain HTTP calls of the simulator, for tests that check what it answers on the wire.

use std::time::{Duration, Instant};

use serde_json::Value;
use vantage::sim::{DEMO_TOKEN, Simulator};

/// A bare HTTP client (no retries, no checks of ours), to see exactly what the simulator says.
pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

/// What one call answered.
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub retry_after: Option<String>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| {
            panic!("not JSON ({e}): {}", &self.body[..self.body.len().min(200)])
        })
    }
}

pub async fn get(sim: &Simulator, path: &str, query: &[(&str, &str)]) -> Answer {
    get_as(sim, path, query, Some(DEMO_TOKEN)).await
}

pub async fn get_as(
    sim: &Simulator,
    path: &str,
    query: &[(&str, &str)],
    token: Option<&str>,
) -> Answer {
    let url = url::Url::parse_with_params(&format!("{}{path}", sim.url()), query).expect("url");
    let mut request = client().get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("request reaches the simulator");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let content_type = header("content-type").unwrap_or_default();
    let retry_after = header("retry-after");
    let status = response.status().as_u16();
    let body = response.text().await.expect("body");
    Answer {
        status,
        content_type,
        retry_after,
        body,
    }
}

/// A queued call's answer once it is no longer "retrieving" (or after 3 s, as it is then).
pub async fn wait_ready(sim: &Simulator, path: &str, id: &str) -> Answer {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let answer = get(sim, path, &[("id", id)]).await;
        if !answer.body.contains("\"retrieving\"") || Instant::now() > deadline {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
