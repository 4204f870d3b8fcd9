//! The curl command that makes the same call, for trying it outside the app.

use super::Protocol;
use super::endpoints::ProxyEndpoints;
use super::request::{ProxyRequest, bracket};

/// Quotes for a POSIX shell.
fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@%=+,".contains(c))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The curl command that makes the same call: the key only when `reveal_key`, else `••••`.
/// With a custom root (demo mode), curl is told to trust `vantage-sim-ca.pem`, the CA
/// `vantage sim` prints.
pub fn curl_command(
    request: &ProxyRequest,
    endpoints: &ProxyEndpoints,
    reveal_key: bool,
) -> String {
    let key = if reveal_key {
        request.key.expose().to_string()
    } else {
        "••••".to_string()
    };
    let credentials = format!("{}:{key}", request.full_username());
    let (host, port) = match request.address(endpoints) {
        Ok(address) => address,
        Err(_) => (
            endpoints.network(request.network).host.clone(),
            endpoints.network(request.network).ports.https,
        ),
    };
    let host = bracket(&host);
    let mut parts = vec!["curl".to_string()];
    match request.protocol {
        Protocol::Https => {
            parts.push("-x".into());
            parts.push(format!("https://{host}:{port}"));
        }
        Protocol::Http => {
            parts.push("-x".into());
            parts.push(format!("http://{host}:{port}"));
        }
        Protocol::Socks5 => {
            parts.push("--socks5-hostname".into());
            parts.push(format!("{host}:{port}"));
        }
    }
    parts.push("--proxy-user".into());
    parts.push(format!("'{}'", credentials.replace('\'', "'\\''")));
    if endpoints.root.is_some() {
        if request.protocol == Protocol::Https {
            parts.push("--proxy-cacert".into());
            parts.push("vantage-sim-ca.pem".into());
        }
        parts.push("--cacert".into());
        parts.push("vantage-sim-ca.pem".into());
    }
    parts.push(shell_quote(request.target_url.trim()));
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Secret;
    use crate::api::proxy::{Network, ProxyOptions};

    fn options() -> ProxyOptions {
        ProxyOptions {
            country: Some("US".into()),
            subdivision: Some("NY".into()),
            city: Some("New York".into()),
            session: Some("abc".into()),
            ..ProxyOptions::default()
        }
    }

    #[test]
    fn the_curl_command_hides_the_key_unless_asked() {
        let key = Secret::new("sekret-key").unwrap();
        let mut request = ProxyRequest::new("USER", key, "https://example.com/a b");
        request.options = options();
        let endpoints = ProxyEndpoints::live("network.joinmassive.com", "isp.joinmassive.com");
        let masked = curl_command(&request, &endpoints, false);
        assert_eq!(
            masked,
            "curl -x https://network.joinmassive.com:65535 --proxy-user 'USER-country-US-subdivision-NY-city-New%20York-session-abc:••••' 'https://example.com/a b'"
        );
        assert!(curl_command(&request, &endpoints, true).contains(":sekret-key'"));
        request.protocol = Protocol::Socks5;
        request.network = Network::Isp;
        request.options = ProxyOptions::default();
        assert!(curl_command(&request, &endpoints, false).starts_with(
            "curl --socks5-hostname isp.joinmassive.com:8000 --proxy-user 'USER:••••'"
        ));
    }
}
