//! What came back through a proxy, and where the request left the network.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Where the request left the proxy network, from the `X-Exit-*` headers when present.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitInfo {
    pub ip: Option<String>,
    pub country: Option<String>,
    pub timezone: Option<String>,
    pub asn: Option<String>,
}

impl ExitInfo {
    pub(super) fn from_headers(header: impl Fn(&str) -> Option<String>) -> ExitInfo {
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
    pub(crate) fn describe(&self) -> String {
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
