//! One call through a proxy network: checked, sent, and its failure explained.

use std::time::{Duration, Instant};

use url::Url;

use super::super::client::{Secret, install_crypto_provider};
use super::super::error::ErrorChain;
use super::super::request::shorten;
use super::endpoints::{Ports, ProxyEndpoints, RootCertificate};
use super::error::{ProxyError, SocksReply, TlsSide};
use super::options::{
    ProxyField, ProxyFieldError, ProxyOptions, build_username, field_error, parse_username,
};
use super::probe::Probe;
use super::response::{ExitInfo, ProxyResponse};
use super::{DEFAULT_PROXY_TIMEOUT, Network, Protocol};

const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// One call through a proxy network.
#[derive(Clone, Debug, PartialEq)]
pub struct ProxyRequest {
    pub network: Network,
    pub protocol: Protocol,
    /// Use the HTTPS fallback port (residential network, HTTPS only).
    pub use_fallback_port: bool,
    /// The account's proxy username, without options.
    pub username: String,
    /// The API key.
    pub key: Secret,
    pub options: ProxyOptions,
    /// The page to fetch through the proxy (http or https).
    pub target_url: String,
}

impl ProxyRequest {
    pub fn new(username: &str, key: Secret, target_url: &str) -> ProxyRequest {
        ProxyRequest {
            network: Network::Residential,
            protocol: Protocol::Https,
            use_fallback_port: false,
            username: username.to_string(),
            key,
            options: ProxyOptions::default(),
            target_url: target_url.to_string(),
        }
    }

    /// Every rule the request breaks; empty when it may be sent.
    pub(crate) fn check(&self) -> Vec<ProxyFieldError> {
        let mut errors = Vec::new();
        let user = self.username.trim();
        if user.is_empty() {
            errors.push(field_error(
                ProxyField::Username,
                "is empty; set your proxy username (VANTAGE_PROXY_USERNAME or proxy_username in the config file)",
            ));
        } else if user.contains(':') || user.chars().any(|c| c.is_whitespace() || c.is_control()) {
            errors.push(field_error(
                ProxyField::Username,
                "must not contain ':', spaces or control characters",
            ));
        } else if parse_username(user).is_ok_and(|(_, o)| !o.is_empty()) {
            errors.push(field_error(
                ProxyField::Username,
                "already ends in -key-value options; give the bare username and set the options separately",
            ));
        }
        if self.key.expose().chars().any(char::is_control) {
            errors.push(field_error(ProxyField::Key, "contains a control character"));
        }
        if self.use_fallback_port {
            if self.network == Network::Isp {
                errors.push(field_error(
                    ProxyField::Fallback,
                    "the ISP network has no fallback port; use its HTTPS port 4080",
                ));
            } else if self.protocol != Protocol::Https {
                errors.push(field_error(
                    ProxyField::Fallback,
                    "the fallback port 1080 is for HTTPS only; choose --protocol https",
                ));
            }
        }
        match Url::parse(self.target_url.trim()) {
            Ok(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {}
            Ok(url) => errors.push(field_error(
                ProxyField::TargetUrl,
                format!(
                    "must be an http:// or https:// address with a host, not {:?}",
                    url.as_str()
                ),
            )),
            Err(e) => errors.push(field_error(
                ProxyField::TargetUrl,
                format!("is not a URL ({e}); write it like https://example.com/"),
            )),
        }
        errors.extend(self.options.check(self.network));
        errors
    }

    pub fn validate(&self) -> Result<(), ProxyError> {
        let errors = self.check();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ProxyError::Invalid(errors))
        }
    }

    /// The username exactly as it will be sent.
    pub fn full_username(&self) -> String {
        build_username(self.username.trim(), &self.options)
    }

    /// The proxy's host and port for this request.
    pub(crate) fn address(&self, endpoints: &ProxyEndpoints) -> Result<(String, u16), ProxyError> {
        let endpoint = endpoints.network(self.network);
        let port = endpoint
            .ports
            .port(self.protocol, self.use_fallback_port)
            .ok_or_else(|| {
                ProxyError::Invalid(vec![field_error(
                    ProxyField::Fallback,
                    "this network has no fallback port for this protocol",
                )])
            })?;
        if endpoint.host.is_empty() {
            return Err(ProxyError::Invalid(vec![field_error(
                ProxyField::Network,
                format!(
                    "no host is set for the {} network; set proxy_host / isp_proxy_host in the config file",
                    self.network
                ),
            )]));
        }
        Ok((endpoint.host.clone(), port))
    }

    /// The proxy URL: `https://host:port`, `http://host:port` or `socks5h://host:port`
    /// (names resolve at the proxy).
    pub fn proxy_url(&self, endpoints: &ProxyEndpoints) -> Result<String, ProxyError> {
        let (host, port) = self.address(endpoints)?;
        let scheme = match self.protocol {
            Protocol::Https => "https",
            Protocol::Http => "http",
            Protocol::Socks5 => "socks5h",
        };
        Ok(format!("{scheme}://{}:{port}", bracket(&host)))
    }

    /// Sends the request with the default time limit.
    pub async fn send(&self, endpoints: &ProxyEndpoints) -> Result<ProxyResponse, ProxyError> {
        self.send_with_timeout(endpoints, DEFAULT_PROXY_TIMEOUT)
            .await
    }

    /// Checks the request, sends it through the proxy, and reads the answer.
    pub async fn send_with_timeout(
        &self,
        endpoints: &ProxyEndpoints,
        timeout: Duration,
    ) -> Result<ProxyResponse, ProxyError> {
        self.validate()?;
        let proxy_url = self.proxy_url(endpoints)?;
        let (_, port) = self.address(endpoints)?;
        let username = self.full_username();
        install_crypto_provider();
        // The URL form of the credentials is percent-decoded by the client library, so a
        // literal '%' (from the encoded values) must itself be escaped to arrive intact.
        let proxy = reqwest::Proxy::all(&proxy_url)
            .map_err(|e| transport(format!("the proxy address {proxy_url} is unusable: {e}")))?
            .basic_auth(
                &username.replace('%', "%25"),
                &self.key.expose().replace('%', "%25"),
            );
        let mut builder = reqwest::Client::builder()
            .proxy(proxy)
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(15)))
            .tls_version_min(reqwest::tls::Version::TLS_1_2)
            .user_agent(concat!("vantage/", env!("CARGO_PKG_VERSION")))
            .pool_max_idle_per_host(0);
        if let Some(root) = &endpoints.root {
            builder = builder.tls_certs_only([reqwest_certificate(root)?]);
        }
        let http = builder
            .build()
            .map_err(|e| transport(format!("the HTTP client could not start: {e}")))?;
        let started = Instant::now();
        let sent = http.get(self.target_url.trim()).send().await;
        let response = match sent {
            Ok(response) => response,
            Err(error) => {
                return Err(self
                    .diagnose(endpoints, &username, port, timeout, error)
                    .await);
            }
        };
        let status = response.status().as_u16();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let body = read_body(response)
            .await
            .map_err(|e| self.classify(e, port, timeout))?;
        let elapsed = started.elapsed();
        let header = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        if let Some(error) = status_error(status, &body, self.protocol, port) {
            return Err(error);
        }
        Ok(ProxyResponse {
            status,
            elapsed,
            exit: ExitInfo::from_headers(|name| header(name)),
            content_type: header("content-type").unwrap_or_default(),
            headers,
            body,
            username,
            proxy_url,
        })
    }

    /// Explains a failed send: what reqwest said, and for a refused tunnel what the proxy
    /// answered to a CONNECT of our own (reqwest keeps the status of a refused tunnel to
    /// itself), and for a TLS failure whether it was the proxy's or the target's.
    async fn diagnose(
        &self,
        endpoints: &ProxyEndpoints,
        username: &str,
        port: u16,
        timeout: Duration,
        error: reqwest::Error,
    ) -> ProxyError {
        let classified = self.classify(error, port, timeout);
        let target = Url::parse(self.target_url.trim()).ok();
        let target_is_https = target.as_ref().is_some_and(|u| u.scheme() == "https");
        match &classified {
            ProxyError::Transport { detail } if detail.contains("unsuccessful") => {
                let Some(target) = target else {
                    return classified;
                };
                let probe = Probe::new(self, endpoints, port, timeout);
                match probe
                    .connect_answer(&target, username, self.key.expose())
                    .await
                {
                    Ok((status, body)) => status_error(status, &body, self.protocol, port)
                        .unwrap_or(ProxyError::ProxyStatus {
                            status,
                            message: clean(&body),
                        }),
                    Err(_) => classified,
                }
            }
            ProxyError::Tls { detail, .. }
                if self.protocol == Protocol::Https && target_is_https =>
            {
                // Was it the proxy's handshake or the target's, inside the tunnel?
                let probe = Probe::new(self, endpoints, port, timeout);
                if probe.reaches_proxy().await {
                    ProxyError::Tls {
                        side: TlsSide::Target,
                        port,
                        detail: detail.clone(),
                    }
                } else {
                    classified
                }
            }
            _ => classified,
        }
    }

    /// Maps a reqwest error onto what happened.
    fn classify(&self, error: reqwest::Error, port: u16, timeout: Duration) -> ProxyError {
        let chain = ErrorChain::of(&error);
        let text = chain.joined();
        let lower = text.to_ascii_lowercase();
        let detail = chain.innermost().unwrap_or_default().to_string();
        let io_kind = chain.io_kind;
        use std::io::ErrorKind as K;
        if error.is_timeout() || matches!(io_kind, Some(K::TimedOut)) {
            return ProxyError::Timeout { after: timeout };
        }
        if lower.contains("proxy authorization required")
            || lower.contains("credentials not accepted")
        {
            return ProxyError::AuthRequired {
                message: String::new(),
                protocol: self.protocol,
                port,
            };
        }
        if lower.contains("socks error") {
            let reply = SocksReply::from_text(&lower);
            return ProxyError::SocksRefused { reply, detail };
        }
        if matches!(io_kind, Some(K::ConnectionRefused)) {
            let fallback = (self.network == Network::Residential
                && self.protocol == Protocol::Https
                && !self.use_fallback_port)
                .then_some(Ports::RESIDENTIAL.https_fallback)
                .flatten();
            return ProxyError::Refused { port, fallback };
        }
        if lower.contains("certificate")
            || lower.contains("tls")
            || lower.contains("handshake")
            || lower.contains("invalidcontenttype")
            || lower.contains("corrupt message")
            || lower.contains("peer")
        {
            let side = if self.protocol == Protocol::Https {
                TlsSide::Proxy
            } else {
                TlsSide::Target
            };
            return ProxyError::Tls { side, port, detail };
        }
        if lower.contains("unsuccessful") {
            return ProxyError::Transport {
                detail: "the proxy refused the tunnel (unsuccessful)".to_string(),
            };
        }
        transport(text)
    }
}

/// The host as it stands before `:port`: an IPv6 address in brackets.
pub(super) fn bracket(host: &str) -> String {
    match host.parse::<std::net::Ipv6Addr>() {
        Ok(ip) => url::Host::<&str>::Ipv6(ip).to_string(),
        Err(_) => host.to_string(),
    }
}

fn transport(detail: impl Into<String>) -> ProxyError {
    ProxyError::Transport {
        detail: shorten(&detail.into(), 200),
    }
}

fn reqwest_certificate(root: &RootCertificate) -> Result<reqwest::Certificate, ProxyError> {
    match root {
        RootCertificate::Pem(pem) => reqwest::Certificate::from_pem(pem.as_bytes()),
        RootCertificate::Der(der) => reqwest::Certificate::from_der(der),
    }
    .map_err(|e| transport(format!("the root certificate given is unusable: {e}")))
}

async fn read_body(mut response: reqwest::Response) -> Result<String, reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            break;
        }
        body.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// The server's message as one readable line, bounded in length.
fn clean(body: &str) -> String {
    let line = body.split_whitespace().collect::<Vec<_>>().join(" ");
    shorten(&line, 300)
}

/// The statuses the proxy networks answer for their own failures.
fn status_error(status: u16, body: &str, protocol: Protocol, port: u16) -> Option<ProxyError> {
    let message = clean(body);
    Some(match status {
        400 => ProxyError::BadOptions { message },
        407 => ProxyError::AuthRequired {
            message,
            protocol,
            port,
        },
        452 => ProxyError::Disallowed { message },
        502 => ProxyError::BadGateway { message },
        503 => ProxyError::Unavailable { message },
        521 => ProxyError::NoCapacity { message },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_checked_before_sending() {
        let key = Secret::new("k").unwrap();
        let mut request = ProxyRequest::new("demo-user", key, "ftp://x");
        request.use_fallback_port = true;
        request.protocol = Protocol::Socks5;
        let fields: Vec<ProxyField> = request.check().into_iter().map(|e| e.field).collect();
        assert_eq!(fields, vec![ProxyField::Fallback, ProxyField::TargetUrl]);
        request.username = "demo-user-country-US".into();
        assert!(
            request
                .check()
                .iter()
                .any(|e| e.field == ProxyField::Username)
        );
        let error = ProxyError::Invalid(request.check());
        assert_eq!(error.exit_code(), 2);
        assert!(error.to_string().starts_with("Nothing was sent"));
    }
}
