//! A JSON POST to a chat tool's incoming webhook, with bounded retries. Never carries the
//! service's token: the body is the caller's, the headers are the content type alone.

use std::time::Duration;

/// Tries per post: a refused connection, a timeout, a 429 or a 5xx is tried again.
pub const ATTEMPTS: u32 = 3;

/// Posts `body` (JSON) to `url`; the error is a sentence: the status and the start of the
/// receiver's answer, or why nothing answered.
pub async fn post(url: &str, body: &str, pause: Duration) -> Result<(), String> {
    super::client::install_crypto_provider();
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .connect_timeout(Duration::from_secs(10))
        .user_agent(concat!("vantage/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("the HTTP client could not start: {e}"))?;
    let mut last = String::new();
    for attempt in 1..=ATTEMPTS {
        if attempt > 1 {
            tokio::time::sleep(pause * 2u32.pow(attempt - 2)).await;
        }
        let sent = http
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string())
            .send()
            .await;
        match sent {
            Ok(response) if response.status().is_success() => return Ok(()),
            Ok(response) => {
                let status = response.status();
                let said = response.text().await.unwrap_or_default();
                let said: String = crate::sanitize::one_line(&said).chars().take(200).collect();
                last = format!("the webhook answered {status}: {said}");
                let again = status.is_server_error() || status.as_u16() == 429;
                if !again {
                    return Err(last);
                }
            }
            Err(error) => {
                last = format!("the webhook could not be reached ({error})");
            }
        }
    }
    Err(format!("{last}, after {ATTEMPTS} tries"))
}
