//! Where the proxy networks are: a host and one port per protocol for each network.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Network, Protocol};

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
    pub(crate) const RESIDENTIAL: Ports = Ports {
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
    /// Where `root` is saved, for commands run outside the app to trust it (the demo writes
    /// the simulator's CA into the data dir).
    pub root_file: Option<PathBuf>,
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
            root_file: None,
        }
    }

    /// Networks on other ports (the simulator's), trusting only `root`.
    pub(crate) fn custom(
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
            root_file: None,
        }
    }

    pub(crate) fn network(&self, network: Network) -> &NetworkEndpoint {
        match network {
            Network::Residential => &self.residential,
            Network::Isp => &self.isp,
        }
    }
}
