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

mod curl;
mod endpoints;
mod error;
mod options;
mod probe;
mod request;
mod response;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::model::value_enum;

pub(crate) use curl::curl_command;
pub use endpoints::{NetworkEndpoint, Ports, ProxyEndpoints, RootCertificate};
pub use error::{ProxyError, SocksReply, TlsSide};
pub(crate) use options::ProxyFieldError;
pub use options::{
    ProxyField, ProxyOptions, build_username, decode_value, encode_value, parse_username,
};
pub use request::ProxyRequest;
pub use response::{ExitInfo, ProxyResponse};

/// How long a proxied call may take unless told otherwise.
pub(crate) const DEFAULT_PROXY_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest session lifetime the service takes, in minutes.
pub(crate) const SESSION_TTL_MAX_MINUTES: u32 = 240;

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
