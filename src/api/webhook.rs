//! A JSON POST to a chat tool's incoming webhook, with bounded retries. Never carries the
//! service's token: the body is the caller's, the headers are the content type alone.
//!
//! Bounded in every way a receiver could abuse: its answer is read up to [`MOST_ANSWER`]
//! bytes (a 3 GB body is not held), each try gives up after seconds, redirects are not
//! followed (a 307 to another host is the receiver's to explain), a loopback receiver is
//! never reached through a proxy, and the URL, whose path is the secret of a Slack or Teams
//! webhook, is shown as its scheme and host alone.

use std::time::Duration;

/// Tries per post: a refused connection, a timeout, a 429 or a 5xx is tried again.
pub const ATTEMPTS: u32 = 3;
/// Bytes of the receiver's answer read at most: enough for its error message.
pub const MOST_ANSWER: usize = 16 * 1024;
/// How long one try may take, connecting included.
pub const TRY_TIMEOUT: Duration = Duration::from_secs(5);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The URL as it may be shown or stored: its scheme and host (and port), its path and query
/// (the webhook's secret) left out.
pub fn shown(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) => {
            let host = parsed.host_str().unwrap_or("?");
            let port = parsed.port().map(|p| format!(":{p}")).unwrap_or_default();
            let rest = match parsed.path() {
                "" | "/" if parsed.query().is_none() => "",
                _ => "/…",
            };
            format!("{}://{host}{port}{rest}", parsed.scheme())
        }
        Err(_) => "(a webhook URL that is not a URL)".to_string(),
    }
}

fn is_loopback(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|parsed| match parsed.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    })
}

/// The start of the receiver's answer, read a chunk at a time and never past [`MOST_ANSWER`].
async fn answer_start(mut response: reqwest::Response) -> String {
    let mut held = Vec::new();
    while held.len() < MOST_ANSWER {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let room = MOST_ANSWER - held.len();
                held.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            _ => break,
        }
    }
    // The rest is dropped with the connection, unread.
    let said = String::from_utf8_lossy(&held);
    crate::sanitize::one_line(&said).chars().take(200).collect()
}

/// Posts `body` (JSON) to `url`; the error is a sentence: the status and the start of the
/// receiver's answer, or why nothing answered. No sentence holds the URL's path.
pub async fn post(url: &str, body: &str, pause: Duration) -> Result<(), String> {
    super::client::install_crypto_provider();
    let mut builder = reqwest::Client::builder()
        .timeout(TRY_TIMEOUT)
        .connect_timeout(CONNECT_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("vantage/", env!("CARGO_PKG_VERSION")));
    if is_loopback(url) {
        builder = builder.no_proxy();
    }
    let http = builder
        .build()
        .map_err(|e| format!("the HTTP client could not start: {}", e.without_url()))?;
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
            Ok(response) if response.status().is_redirection() => {
                let status = response.status();
                return Err(format!(
                    "the webhook answered {status}, a redirect, which is not followed: check its URL"
                ));
            }
            Ok(response) => {
                let status = response.status();
                let said = answer_start(response).await;
                last = format!("the webhook answered {status}: {said}");
                let again = status.is_server_error() || status.as_u16() == 429;
                if !again {
                    return Err(last);
                }
            }
            Err(error) => {
                let why = if error.is_timeout() {
                    format!("no answer within {} s", TRY_TIMEOUT.as_secs())
                } else {
                    error.without_url().to_string()
                };
                last = format!("the webhook at {} could not be reached ({why})", shown(url));
            }
        }
    }
    Err(format!("{last}, after {ATTEMPTS} tries"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_webhook_s_secret_path_is_never_shown() {
        assert_eq!(
            shown("https://hooks.slack.com/services/T000/B000/XXXXSECRET"),
            "https://hooks.slack.com/…"
        );
        assert_eq!(shown("http://127.0.0.1:9/"), "http://127.0.0.1:9");
        assert_eq!(shown("https://x.example/?token=s"), "https://x.example/…");
        assert!(!shown("not a url SECRET").contains("SECRET"));
        assert!(is_loopback("http://localhost:8080/hook") && is_loopback("http://[::1]/"));
        assert!(!is_loopback("https://hooks.slack.com/services/x"));
    }
}
