//! Every way a proxied call can fail, as a sentence that says what to try next.

use std::time::Duration;

use super::super::field::join_field_errors;
use super::Protocol;
use super::options::{ProxyField, ProxyFieldError};

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
    pub(super) fn from_text(lower: &str) -> SocksReply {
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
    #[error("Nothing was sent: {}. Fix the option and try again.", join_field_errors(.0))]
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
