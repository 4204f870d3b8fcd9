//! Proxy access: the service's residential and ISP proxy networks over HTTPS, HTTP and
//! SOCKS5, as typed requests checked before anything is sent, and failures as sentences that
//! say what went wrong and what to try.
//!
//! Targeting options ride in the username as `-key-value` pairs:
//! `USER-country-US-subdivision-NY-city-New%20York-session-abc`. Values are percent-encoded
//! (everything but ASCII letters, digits and `._~`), so a `-` inside a value is sent as `%2D`
//! and can never break the grammar.
//!
//! Settled here where the contract is silent: `asn` counts as a geo option (it picks a network
//! within a country), so it needs `country` and the ISP network refuses it like the others.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use url::Url;

use super::client::{Secret, install_crypto_provider};
use super::model::value_enum;

/// How long a proxied call may take unless told otherwise.
pub const DEFAULT_PROXY_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest session lifetime the service takes, in minutes.
pub const SESSION_TTL_MAX_MINUTES: u32 = 240;
const TEXT_MAX_CHARS: usize = 100;
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

value_enum!(
    /// The two proxy networks.
    Network { Residential => "residential", Isp => "isp" }
);

value_enum!(
    /// How the client speaks to the proxy. HTTPS is TLS (1.2 or later) to the proxy itself.
    Protocol { Https => "https", Http => "http", Socks5 => "socks5" }
);

value_enum!(
    /// The `type` option: the kind of connection the exit is on.
    ConnectionType { Mobile => "mobile", Common => "common", Tv => "tv" }
);

value_enum!(
    /// The `sessionmode` option.
    SessionMode { Strict => "strict", Flex => "flex", Norotate => "norotate" }
);

// ---------- endpoints ----------

/// The ports of one network, one per protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ports {
    pub https: u16,
    pub http: u16,
    pub socks5: u16,
    /// The HTTPS port for networks that block the usual one; `None` where there is none.
    pub https_fallback: Option<u16>,
}

impl Ports {
    /// The residential network's ports (contract): HTTPS 65535, HTTP 65534, SOCKS5 65533,
    /// HTTPS fallback 1080.
    pub const RESIDENTIAL: Ports = Ports {
        https: 65535,
        http: 65534,
        socks5: 65533,
        https_fallback: Some(1080),
    };
    /// The ISP network's ports (contract): HTTP 8000, HTTPS 4080, SOCKS5 8000.
    pub const ISP: Ports = Ports {
        https: 4080,
        http: 8000,
        socks5: 8000,
        https_fallback: None,
    };

    pub fn port(&self, protocol: Protocol, fallback: bool) -> Option<u16> {
        match (protocol, fallback) {
            (Protocol::Https, true) => self.https_fallback,
            (Protocol::Https, false) => Some(self.https),
            (Protocol::Http, false) => Some(self.http),
            (Protocol::Socks5, false) => Some(self.socks5),
            (_, true) => None,
        }
    }
}

/// One network's host and ports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkEndpoint {
    pub host: String,
    pub ports: Ports,
}

/// A root certificate to trust for the proxies and targets, instead of the system's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootCertificate {
    Pem(String),
    Der(Vec<u8>),
}

/// Where the proxy networks are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProxyEndpoints {
    pub residential: NetworkEndpoint,
    pub isp: NetworkEndpoint,
    /// When set, this certificate is the only root trusted (the simulator's CA in demo mode);
    /// when unset, the system's roots are.
    pub root: Option<RootCertificate>,
}

impl ProxyEndpoints {
    /// The live service's networks at these hosts, on the contract's ports.
    pub fn live(proxy_host: &str, isp_proxy_host: &str) -> ProxyEndpoints {
        ProxyEndpoints {
            residential: NetworkEndpoint {
                host: proxy_host.trim().to_string(),
                ports: Ports::RESIDENTIAL,
            },
            isp: NetworkEndpoint {
                host: isp_proxy_host.trim().to_string(),
                ports: Ports::ISP,
            },
            root: None,
        }
    }

    /// Networks on other ports (the simulator's), trusting only `root`.
    pub fn custom(
        host: &str,
        residential: Ports,
        isp: Ports,
        root: Option<RootCertificate>,
    ) -> ProxyEndpoints {
        ProxyEndpoints {
            residential: NetworkEndpoint {
                host: host.to_string(),
                ports: residential,
            },
            isp: NetworkEndpoint {
                host: host.to_string(),
                ports: isp,
            },
            root,
        }
    }

    pub fn network(&self, network: Network) -> &NetworkEndpoint {
        match network {
            Network::Residential => &self.residential,
            Network::Isp => &self.isp,
        }
    }
}

// ---------- fields, options and the username ----------

/// A part of a proxy request a message can point at. Option fields are named as the service
/// names them in the username.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProxyField {
    Username,
    Key,
    Country,
    Subdivision,
    City,
    Zipcode,
    Asn,
    Type,
    Session,
    SessionTtl,
    SessionMode,
    SessionErr,
    Subaccount,
    Network,
    Protocol,
    Fallback,
    TargetUrl,
}

impl ProxyField {
    pub fn as_str(self) -> &'static str {
        match self {
            ProxyField::Username => "username",
            ProxyField::Key => "key",
            ProxyField::Country => "country",
            ProxyField::Subdivision => "subdivision",
            ProxyField::City => "city",
            ProxyField::Zipcode => "zipcode",
            ProxyField::Asn => "asn",
            ProxyField::Type => "type",
            ProxyField::Session => "session",
            ProxyField::SessionTtl => "sessionttl",
            ProxyField::SessionMode => "sessionmode",
            ProxyField::SessionErr => "sessionerr",
            ProxyField::Subaccount => "subaccount",
            ProxyField::Network => "network",
            ProxyField::Protocol => "protocol",
            ProxyField::Fallback => "fallback",
            ProxyField::TargetUrl => "url",
        }
    }

    /// The username options, in the order they are written.
    pub const OPTIONS: [ProxyField; 11] = [
        ProxyField::Country,
        ProxyField::Subdivision,
        ProxyField::City,
        ProxyField::Zipcode,
        ProxyField::Asn,
        ProxyField::Type,
        ProxyField::Session,
        ProxyField::SessionTtl,
        ProxyField::SessionMode,
        ProxyField::SessionErr,
        ProxyField::Subaccount,
    ];

    /// Options that place the exit: each needs `country`; the ISP network takes none.
    pub fn is_geo(self) -> bool {
        matches!(
            self,
            ProxyField::Country
                | ProxyField::Subdivision
                | ProxyField::City
                | ProxyField::Zipcode
                | ProxyField::Asn
        )
    }

    fn option_named(key: &str) -> Option<ProxyField> {
        ProxyField::OPTIONS.into_iter().find(|f| f.as_str() == key)
    }
}

impl fmt::Display for ProxyField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One rule broken, at one field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProxyFieldError {
    pub field: ProxyField,
    pub message: String,
}

impl fmt::Display for ProxyFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

fn field_error(field: ProxyField, message: impl Into<String>) -> ProxyFieldError {
    ProxyFieldError {
        field,
        message: message.into(),
    }
}

/// Targeting options. All optional; `None` leaves the choice to the service.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ProxyOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subdivision: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zipcode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asn: Option<u32>,
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<ConnectionType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// Minutes, 1 to 240.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessionttl: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessionmode: Option<SessionMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessionerr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subaccount: Option<String>,
}

impl ProxyOptions {
    /// The options that are set, as (field, value as text), in the order they are written.
    pub fn pairs(&self) -> Vec<(ProxyField, String)> {
        let text = |v: &Option<String>| v.clone();
        let values: [Option<String>; 11] = [
            text(&self.country),
            text(&self.subdivision),
            text(&self.city),
            text(&self.zipcode),
            self.asn.map(|n| n.to_string()),
            self.kind.map(|k| k.as_str().to_string()),
            text(&self.session),
            self.sessionttl.map(|n| n.to_string()),
            self.sessionmode.map(|m| m.as_str().to_string()),
            text(&self.sessionerr),
            text(&self.subaccount),
        ];
        ProxyField::OPTIONS
            .into_iter()
            .zip(values)
            .filter_map(|(field, value)| value.map(|v| (field, v)))
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs().is_empty()
    }

    /// Sets one option from its text, as parsed from a username.
    fn set(&mut self, field: ProxyField, value: String) -> Result<(), String> {
        let number = |v: &str| {
            v.parse::<u32>()
                .map_err(|_| format!("{field} must be a whole number, not {v:?}"))
        };
        match field {
            ProxyField::Country => self.country = Some(value),
            ProxyField::Subdivision => self.subdivision = Some(value),
            ProxyField::City => self.city = Some(value),
            ProxyField::Zipcode => self.zipcode = Some(value),
            ProxyField::Asn => self.asn = Some(number(&value)?),
            ProxyField::Type => self.kind = Some(value.parse()?),
            ProxyField::Session => self.session = Some(value),
            ProxyField::SessionTtl => self.sessionttl = Some(number(&value)?),
            ProxyField::SessionMode => self.sessionmode = Some(value.parse()?),
            ProxyField::SessionErr => self.sessionerr = Some(value),
            ProxyField::Subaccount => self.subaccount = Some(value),
            other => return Err(format!("{other} is not a username option")),
        }
        Ok(())
    }

    /// Every rule these options break on `network`; empty when they may be sent.
    pub fn check(&self, network: Network) -> Vec<ProxyFieldError> {
        let mut errors = Vec::new();
        let geo_set: Vec<ProxyField> = self
            .pairs()
            .into_iter()
            .map(|(f, _)| f)
            .filter(|f| f.is_geo())
            .collect();
        if network == Network::Isp {
            for field in &geo_set {
                errors.push(field_error(
                    *field,
                    "the ISP network takes no geo options (country, subdivision, city, zipcode, asn); use the residential network to target a location",
                ));
            }
        }
        if let Some(country) = &self.country
            && !(country.chars().count() == 2 && country.chars().all(|c| c.is_ascii_alphabetic()))
        {
            errors.push(field_error(
                ProxyField::Country,
                format!("must be a two-letter ISO 3166-1 code such as US or DE, not {country:?}"),
            ));
        }
        if self.country.is_none() && network == Network::Residential {
            for field in geo_set.iter().filter(|f| **f != ProxyField::Country) {
                errors.push(field_error(
                    *field,
                    "requires a country; set country as well",
                ));
            }
        }
        if let Some(subdivision) = &self.subdivision {
            let n = subdivision.chars().count();
            if !(1..=3).contains(&n) || !subdivision.chars().all(|c| c.is_ascii_alphanumeric()) {
                errors.push(field_error(
                    ProxyField::Subdivision,
                    format!(
                        "must be the part after the separator of an ISO 3166-2 code (NY for US-NY), not {subdivision:?}"
                    ),
                ));
            }
        }
        if let Some(zipcode) = &self.zipcode {
            let n = zipcode.chars().count();
            if !(2..=10).contains(&n)
                || !zipcode
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
            {
                errors.push(field_error(
                    ProxyField::Zipcode,
                    format!(
                        "must be a postal code of 2 to 10 letters, digits, spaces or dashes, not {zipcode:?}"
                    ),
                ));
            }
        }
        if self.asn == Some(0) {
            errors.push(field_error(
                ProxyField::Asn,
                "must be an autonomous system number from 1 up (3320, not AS0)",
            ));
        }
        if let Some(ttl) = self.sessionttl
            && !(1..=SESSION_TTL_MAX_MINUTES).contains(&ttl)
        {
            errors.push(field_error(
                ProxyField::SessionTtl,
                format!("is {ttl}; it must be from 1 to {SESSION_TTL_MAX_MINUTES} minutes"),
            ));
        }
        for (field, value) in [
            (ProxyField::City, &self.city),
            (ProxyField::Session, &self.session),
            (ProxyField::SessionErr, &self.sessionerr),
            (ProxyField::Subaccount, &self.subaccount),
        ] {
            if let Some(value) = value {
                check_text(field, value, &mut errors);
            }
        }
        errors
    }
}

fn check_text(field: ProxyField, value: &str, errors: &mut Vec<ProxyFieldError>) {
    let n = value.chars().count();
    if value.trim().is_empty() {
        errors.push(field_error(field, "is empty; leave it unset instead"));
    } else if n > TEXT_MAX_CHARS {
        errors.push(field_error(
            field,
            format!("is {n} characters; at most {TEXT_MAX_CHARS} are allowed"),
        ));
    } else if value.chars().any(char::is_control) {
        errors.push(field_error(field, "contains a control character"));
    }
}

/// Percent-encodes everything but ASCII letters, digits and `._~`: `-` becomes `%2D`,
/// a space `%20`, `:` `%3A`.
pub fn encode_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Reverses [`encode_value`]; `None` for a malformed escape or bytes that are not UTF-8.
pub fn decode_value(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The username as sent: the account's username followed by `-key-value` for each option set,
/// values percent-encoded. `USER-country-US-subdivision-NY-city-New%20York-session-abc`.
pub fn build_username(user: &str, options: &ProxyOptions) -> String {
    let mut out = user.to_string();
    for (field, value) in options.pairs() {
        out.push('-');
        out.push_str(field.as_str());
        out.push('-');
        out.push_str(&encode_value(&value));
    }
    out
}

/// Splits a username as sent into the account's username and its options: `-key-value`
/// pairs are read from the end while the key is an option name, leaving at least one part.
pub fn parse_username(text: &str) -> Result<(String, ProxyOptions), String> {
    let parts: Vec<&str> = text.split('-').collect();
    let mut end = parts.len();
    let mut found = Vec::new();
    while end >= 3 {
        let Some(field) = ProxyField::option_named(parts[end - 2]) else {
            break;
        };
        found.push((field, parts[end - 1]));
        end -= 2;
    }
    let user = parts[..end].join("-");
    let mut options = ProxyOptions::default();
    for (field, raw) in found.into_iter().rev() {
        if options.pairs().iter().any(|(f, _)| *f == field) {
            return Err(format!("{field} is given twice"));
        }
        let value =
            decode_value(raw).ok_or_else(|| format!("{field} is badly encoded: {raw:?}"))?;
        options.set(field, value)?;
    }
    Ok((user, options))
}

// ---------- the request ----------

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
    pub fn check(&self) -> Vec<ProxyFieldError> {
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
    pub fn address(&self, endpoints: &ProxyEndpoints) -> Result<(String, u16), ProxyError> {
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
                match probe.open().await {
                    Ok(_) => ProxyError::Tls {
                        side: TlsSide::Target,
                        port,
                        detail: detail.clone(),
                    },
                    Err(_) => classified,
                }
            }
            _ => classified,
        }
    }

    /// Maps a reqwest error onto what happened.
    fn classify(&self, error: reqwest::Error, port: u16, timeout: Duration) -> ProxyError {
        let mut chain = Vec::new();
        let mut io_kind = None;
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&error);
        while let Some(e) = source {
            chain.push(e.to_string());
            if let Some(io) = e.downcast_ref::<std::io::Error>() {
                io_kind = Some(io.kind());
            }
            source = e.source();
        }
        let text = chain.join(": ");
        let lower = text.to_ascii_lowercase();
        let detail = chain.last().cloned().unwrap_or_default();
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

fn bracket(host: &str) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_string()
    }
}

fn transport(detail: impl Into<String>) -> ProxyError {
    ProxyError::Transport {
        detail: super::request::shorten(&detail.into(), 200),
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
    super::request::shorten(&line, 300)
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

// ---------- a CONNECT of our own, to read what the proxy answered ----------

trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Stream for T {}

struct Probe<'a> {
    host: String,
    port: u16,
    protocol: Protocol,
    root: Option<&'a RootCertificate>,
    timeout: Duration,
}

impl<'a> Probe<'a> {
    fn new(
        request: &ProxyRequest,
        endpoints: &'a ProxyEndpoints,
        port: u16,
        timeout: Duration,
    ) -> Probe<'a> {
        Probe {
            host: endpoints.network(request.network).host.clone(),
            port,
            protocol: request.protocol,
            root: endpoints.root.as_ref(),
            timeout: timeout.min(Duration::from_secs(15)),
        }
    }

    fn tls_config(&self) -> Result<rustls::ClientConfig, String> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
            .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
            .map_err(|e| e.to_string())?;
        let config = match self.root {
            Some(root) => {
                use rustls::pki_types::CertificateDer;
                use rustls::pki_types::pem::PemObject;
                let der = match root {
                    RootCertificate::Pem(pem) => {
                        CertificateDer::from_pem_slice(pem.as_bytes()).map_err(|e| e.to_string())?
                    }
                    RootCertificate::Der(der) => CertificateDer::from(der.clone()),
                };
                let mut roots = rustls::RootCertStore::empty();
                roots.add(der).map_err(|e| e.to_string())?;
                builder.with_root_certificates(roots).with_no_client_auth()
            }
            None => {
                use rustls_platform_verifier::BuilderVerifierExt;
                builder
                    .with_platform_verifier()
                    .map_err(|e| e.to_string())?
                    .with_no_client_auth()
            }
        };
        Ok(config)
    }

    /// A connection to the proxy, inside TLS for the HTTPS ports.
    async fn open(&self) -> Result<Box<dyn Stream>, String> {
        let connect = tokio::net::TcpStream::connect((self.host.as_str(), self.port));
        let tcp = tokio::time::timeout(self.timeout, connect)
            .await
            .map_err(|_| "timed out".to_string())?
            .map_err(|e| e.to_string())?;
        if self.protocol != Protocol::Https {
            return Ok(Box::new(tcp));
        }
        let config = self.tls_config()?;
        let name = rustls::pki_types::ServerName::try_from(self.host.clone())
            .map_err(|e| e.to_string())?;
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tls = tokio::time::timeout(self.timeout, connector.connect(name, tcp))
            .await
            .map_err(|_| "timed out".to_string())?
            .map_err(|e| e.to_string())?;
        Ok(Box::new(tls))
    }

    /// Sends `CONNECT host:port` with the credentials; answers the status and body.
    async fn connect_answer(
        &self,
        target: &Url,
        username: &str,
        key: &str,
    ) -> Result<(u16, String), String> {
        use base64::Engine as _;
        let mut stream = self.open().await?;
        let host = target.host_str().ok_or("no host")?;
        let port = target.port_or_known_default().ok_or("no port")?;
        let credentials =
            base64::engine::general_purpose::STANDARD.encode(format!("{username}:{key}"));
        let request = format!(
            "CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\nProxy-Authorization: Basic {credentials}\r\n\r\n"
        );
        let exchange = async {
            stream
                .write_all(request.as_bytes())
                .await
                .map_err(|e| e.to_string())?;
            let mut answer = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                let n = stream.read(&mut buf).await.map_err(|e| e.to_string())?;
                if n == 0 || answer.len() > 64 * 1024 {
                    break;
                }
                answer.extend_from_slice(&buf[..n]);
                if let Some(parsed) = parse_answer(&answer) {
                    return Ok(parsed);
                }
            }
            parse_answer(&answer).ok_or_else(|| "no answer to CONNECT".to_string())
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| "timed out".to_string())?
    }
}

/// Status and body of an HTTP answer, once its head and `Content-Length` bytes are in.
fn parse_answer(bytes: &[u8]) -> Option<(u16, String)> {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse::<u16>().ok()?;
    let length = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    (status == 200 || body.len() >= length).then(|| (status, body.to_string()))
}

// ---------- the answer ----------

/// Where the request left the proxy network, from the `X-Exit-*` headers when present.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitInfo {
    pub ip: Option<String>,
    pub country: Option<String>,
    pub timezone: Option<String>,
    pub asn: Option<String>,
}

impl ExitInfo {
    fn from_headers(header: impl Fn(&str) -> Option<String>) -> ExitInfo {
        ExitInfo {
            ip: header("x-exit-ip"),
            country: header("x-exit-country"),
            timezone: header("x-exit-timezone"),
            asn: header("x-exit-asn"),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.ip.is_none() && self.country.is_none() && self.timezone.is_none() && self.asn.is_none()
    }

    /// "203.0.113.7 · DE · Europe/Berlin · AS64500", or "unknown exit".
    pub fn describe(&self) -> String {
        let parts: Vec<&str> = [&self.ip, &self.country, &self.timezone, &self.asn]
            .into_iter()
            .filter_map(|p| p.as_deref())
            .collect();
        if parts.is_empty() {
            "exit not reported".to_string()
        } else {
            parts.join(" · ")
        }
    }
}

/// What came back through the proxy.
///
/// The exit headers may come on the proxy's CONNECT answer for https targets, which the HTTP
/// library does not expose; the simulator's target page sends them on its own answer too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProxyResponse {
    pub status: u16,
    #[serde(rename = "elapsed_ms", serialize_with = "millis")]
    pub elapsed: Duration,
    pub exit: ExitInfo,
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub content_type: String,
    /// The username as sent (options included; never the key).
    pub username: String,
    pub proxy_url: String,
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl ProxyResponse {
    pub fn is_json(&self) -> bool {
        self.content_type.contains("json")
    }

    pub fn is_html(&self) -> bool {
        self.content_type.contains("html")
    }
}

// ---------- errors ----------

/// Which TLS handshake failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlsSide {
    /// With the proxy itself (the HTTPS ports).
    Proxy,
    /// With the target site, through the proxy.
    Target,
}

/// What a SOCKS5 proxy answered when it refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SocksReply {
    GeneralFailure,
    NotAllowed,
    NetworkUnreachable,
    HostUnreachable,
    ConnectionRefused,
    Other,
}

impl SocksReply {
    fn from_text(lower: &str) -> SocksReply {
        if lower.contains("general server failure") {
            SocksReply::GeneralFailure
        } else if lower.contains("connection not allowed") {
            SocksReply::NotAllowed
        } else if lower.contains("network unreachable") {
            SocksReply::NetworkUnreachable
        } else if lower.contains("host unreachable") {
            SocksReply::HostUnreachable
        } else if lower.contains("connection refused") {
            SocksReply::ConnectionRefused
        } else {
            SocksReply::Other
        }
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProxyError {
    /// Rules broken; nothing was sent.
    #[error("Nothing was sent: {}. Fix the option and try again.", join_errors(.0))]
    Invalid(Vec<ProxyFieldError>),

    /// No key or username; nothing was sent.
    #[error(
        "No proxy {what} is set, so nothing was sent. Set VANTAGE_PROXY_USERNAME and VANTAGE_PROXY_KEY (or proxy_username and proxy_key in the config file), or run with --demo."
    )]
    MissingCredentials { what: &'static str },

    /// 407.
    #[error(
        "The proxy refused the credentials (407{}). Check the username and API key; and that the port matches the protocol ({protocol} uses port {port} here): credentials set up for another protocol's port fail the same way.",
        message_suffix(.message)
    )]
    AuthRequired {
        message: String,
        protocol: Protocol,
        port: u16,
    },

    /// 400.
    #[error(
        "The proxy refused the options in the username: \"{message}\" (400). Every geo option (subdivision, city, zipcode, asn) needs country, and the ISP network takes none."
    )]
    BadOptions { message: String },

    /// 452.
    #[error(
        "The proxy network does not serve this content: \"{message}\" (452). The target is on its disallowed list; nothing can be done from this side."
    )]
    Disallowed { message: String },

    /// 502.
    #[error(
        "The proxy could not get an answer from the target: \"{message}\" (502). Check the target URL, or try again: another exit may reach it."
    )]
    BadGateway { message: String },

    /// 503.
    #[error("The proxy network is unavailable: \"{message}\" (503). Wait a little and try again.")]
    Unavailable { message: String },

    /// 521.
    #[error(
        "The proxy network has no capacity for that location: \"{message}\" (521). Try a broader location: drop the city, zipcode or asn, or choose another country."
    )]
    NoCapacity { message: String },

    /// Any other refusal of a tunnel (403 for a host not allowed, for instance).
    #[error("The proxy refused to open the tunnel: \"{message}\" ({status}).")]
    ProxyStatus { status: u16, message: String },

    /// A SOCKS5 refusal.
    #[error("{}", socks_sentence(*.reply, .detail))]
    SocksRefused { reply: SocksReply, detail: String },

    /// A TLS handshake failed.
    #[error("{}", tls_sentence(*.side, *.port, .detail))]
    Tls {
        side: TlsSide,
        port: u16,
        detail: String,
    },

    /// Nothing listens on the port.
    #[error("{}", refused_sentence(*.port, *.fallback))]
    Refused { port: u16, fallback: Option<u16> },

    /// No answer in time.
    #[error(
        "No answer from the proxy within {} s. The network may be blocking the port, or the target is slow; try again, another protocol, or the fallback port.",
        .after.as_secs()
    )]
    Timeout { after: Duration },

    /// Any other failure to reach the proxy.
    #[error(
        "The proxy could not be reached ({detail}). Check the host, the port and your network."
    )]
    Transport { detail: String },
}

fn join_errors(errors: &[ProxyFieldError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

fn message_suffix(message: &str) -> String {
    if message.is_empty() {
        String::new()
    } else {
        format!(": \"{message}\"")
    }
}

fn socks_sentence(reply: SocksReply, detail: &str) -> String {
    match reply {
        SocksReply::NotAllowed => format!(
            "The SOCKS5 proxy refused to connect to that host: connection not allowed by its ruleset ({detail}). Choose another target."
        ),
        SocksReply::GeneralFailure => format!(
            "The SOCKS5 proxy refused the request ({detail}). The usual cause is an option in the username it does not accept: a geo option without country, or any geo option on the ISP network."
        ),
        SocksReply::NetworkUnreachable | SocksReply::HostUnreachable => format!(
            "The SOCKS5 proxy could not reach the target from any exit ({detail}). There may be no capacity for that location: try a broader location."
        ),
        SocksReply::ConnectionRefused => format!(
            "The target refused the connection through the SOCKS5 proxy ({detail}). Check the target's address and port."
        ),
        SocksReply::Other => format!("The SOCKS5 proxy failed ({detail}). Try again."),
    }
}

fn tls_sentence(side: TlsSide, port: u16, detail: &str) -> String {
    match side {
        TlsSide::Proxy => format!(
            "The TLS handshake with the proxy on port {port} failed ({detail}). The HTTPS port needs TLS 1.2 or later; or the port is not the one for this protocol (HTTPS 65535 or 1080, ISP 4080); or the proxy's certificate is not trusted."
        ),
        TlsSide::Target => format!(
            "The TLS handshake with the target site failed through the proxy ({detail}). The target's certificate may not be trusted here; check the URL."
        ),
    }
}

fn refused_sentence(port: u16, fallback: Option<u16>) -> String {
    match fallback {
        Some(fallback) => format!(
            "Connection refused on port {port}. If your network blocks it, try the HTTPS fallback port {fallback} (--fallback)."
        ),
        None => format!(
            "Connection refused on port {port}. Check the host and that the port matches the protocol."
        ),
    }
}

impl ProxyError {
    /// The process exit code: 2 invalid input (nothing sent), 3 credentials, 4 the proxy
    /// answered with an error, 5 no answer.
    pub fn exit_code(&self) -> i32 {
        match self {
            ProxyError::Invalid(_) => 2,
            ProxyError::MissingCredentials { .. } | ProxyError::AuthRequired { .. } => 3,
            ProxyError::BadOptions { .. }
            | ProxyError::Disallowed { .. }
            | ProxyError::BadGateway { .. }
            | ProxyError::Unavailable { .. }
            | ProxyError::NoCapacity { .. }
            | ProxyError::ProxyStatus { .. }
            | ProxyError::SocksRefused { .. } => 4,
            ProxyError::Tls { .. }
            | ProxyError::Refused { .. }
            | ProxyError::Timeout { .. }
            | ProxyError::Transport { .. } => 5,
        }
    }

    /// The sentence to show: what happened and what to do next.
    pub fn diagnosis(&self) -> String {
        self.to_string()
    }

    /// The status the proxy answered, when it answered one.
    pub fn status(&self) -> Option<u16> {
        Some(match self {
            ProxyError::AuthRequired { .. } => 407,
            ProxyError::BadOptions { .. } => 400,
            ProxyError::Disallowed { .. } => 452,
            ProxyError::BadGateway { .. } => 502,
            ProxyError::Unavailable { .. } => 503,
            ProxyError::NoCapacity { .. } => 521,
            ProxyError::ProxyStatus { status, .. } => *status,
            _ => return None,
        })
    }

    /// The fields a validation error points at (for the form to mark them).
    pub fn fields(&self) -> Vec<ProxyField> {
        match self {
            ProxyError::Invalid(errors) => errors.iter().map(|e| e.field).collect(),
            _ => Vec::new(),
        }
    }
}

// ---------- the equivalent curl command ----------

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
    fn the_username_reads_as_the_documentation_writes_it() {
        assert_eq!(
            build_username("USER", &options()),
            "USER-country-US-subdivision-NY-city-New%20York-session-abc"
        );
        assert_eq!(build_username("USER", &ProxyOptions::default()), "USER");
        let hostile = ProxyOptions {
            session: Some("a-b:c%d".into()),
            ..ProxyOptions::default()
        };
        assert_eq!(
            build_username("demo-user", &hostile),
            "demo-user-session-a%2Db%3Ac%25d"
        );
        assert_eq!(
            parse_username("demo-user-session-a%2Db%3Ac%25d"),
            Ok(("demo-user".to_string(), hostile))
        );
    }

    #[test]
    fn geo_options_need_country_and_isp_takes_none() {
        let city_only = ProxyOptions {
            city: Some("Paris".into()),
            asn: Some(3215),
            ..ProxyOptions::default()
        };
        let fields: Vec<ProxyField> = city_only
            .check(Network::Residential)
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(fields, vec![ProxyField::City, ProxyField::Asn]);
        let errors = options().check(Network::Isp);
        assert_eq!(errors.len(), 3);
        assert!(errors[0].message.contains("ISP network"));
        assert!(
            ProxyOptions {
                session: Some("x".into()),
                kind: Some(ConnectionType::Mobile),
                ..ProxyOptions::default()
            }
            .check(Network::Isp)
            .is_empty()
        );
        let ttl = ProxyOptions {
            sessionttl: Some(241),
            ..ProxyOptions::default()
        };
        assert_eq!(
            ttl.check(Network::Residential)[0].field,
            ProxyField::SessionTtl
        );
    }

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

    #[test]
    fn connect_answers_are_read_when_complete() {
        assert_eq!(
            parse_answer(b"HTTP/1.1 521 <none>\r\ncontent-length: 6\r\n\r\nno ca"),
            None
        );
        assert_eq!(
            parse_answer(b"HTTP/1.1 521 <none>\r\ncontent-length: 6\r\n\r\nno cap"),
            Some((521, "no cap".to_string()))
        );
    }
}
