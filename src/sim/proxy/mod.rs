//! The service's proxy networks, simulated on loopback: HTTPS, HTTP and SOCKS5 for the
//! residential network (with the HTTPS fallback port), and the ISP network (whose HTTP and
//! SOCKS5 share one port, as 8000 does on the live service). Credentials are checked and the
//! username's options parsed as the live service does.
//!
//! The proxies forward to one place only: the simulator's target site, reached by the name
//! [`TARGET_HOST`] on port 80 (plain) or 443 (TLS with the simulator's CA). Any other host is
//! refused, so nothing leaves the machine.

mod auth;
mod http;
mod socks;
mod target;
mod tls;

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use auth::Credentials;
pub use auth::Network;

/// The name the proxies route to the target site.
pub(crate) const TARGET_HOST: &str = "target.vantage.test";
/// The proxy username the simulator accepts unless told otherwise.
pub(crate) const DEFAULT_PROXY_USERNAME: &str = "demo-user";

const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The loopback ports of one proxy network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortSet {
    pub https: u16,
    pub http: u16,
    pub socks5: u16,
    /// The firewalled-network HTTPS port (1080 on the live residential network); the ISP
    /// network has none.
    pub https_fallback: Option<u16>,
}

/// Where the simulator's proxies listen, and what a client needs to use them.
#[derive(Clone, Debug)]
pub struct ProxyEndpoints {
    /// The host every proxy listens on (`127.0.0.1`).
    pub host: String,
    pub residential: PortSet,
    pub isp: PortSet,
    /// The one host the proxies forward to.
    pub target_host: &'static str,
    /// The target site reached directly, without a proxy (`http://127.0.0.1:PORT`).
    pub target_direct_url: String,
    /// The simulator's CA certificate (PEM): trust it, and only it, to use the HTTPS proxy
    /// ports and `https://target.vantage.test`.
    pub ca_pem: String,
    /// The proxy username the simulator accepts (options are appended to it).
    pub username: String,
    /// The proxy key (the API key) the simulator accepts.
    pub key: String,
}

/// Shared by every proxy listener.
pub(crate) struct ProxyState {
    credentials: Credentials,
    tls: tls::SimTls,
    /// Connections accepted on any proxy port.
    connections: AtomicU64,
    /// Varies the exit of requests without a session.
    draws: AtomicU64,
}

impl ProxyState {
    fn next_draw(&self) -> u64 {
        self.draws.fetch_add(1, Ordering::Relaxed)
    }
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Http,
    Https,
    Socks5,
    /// HTTP or SOCKS5, told apart by the first byte.
    HttpOrSocks5,
    /// The target site itself, direct.
    Target,
}

/// The running proxy listeners.
pub(crate) struct ProxyServers {
    pub endpoints: ProxyEndpoints,
    state: Arc<ProxyState>,
    tasks: Vec<JoinHandle<()>>,
}

impl ProxyServers {
    pub(crate) async fn start(username: &str, key: &str) -> std::io::Result<ProxyServers> {
        let state = Arc::new(ProxyState {
            credentials: Credentials {
                username: username.to_string(),
                key: key.to_string(),
            },
            tls: tls::make(&["localhost", TARGET_HOST])?,
            connections: AtomicU64::new(0),
            draws: AtomicU64::new(0),
        });
        let mut tasks = Vec::new();
        let mut listen = async |kind: Kind, network: Network| -> std::io::Result<u16> {
            let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
            let port = listener.local_addr()?.port();
            tasks.push(tokio::spawn(accept_loop(
                listener,
                Arc::clone(&state),
                kind,
                network,
            )));
            Ok(port)
        };
        let residential = PortSet {
            https: listen(Kind::Https, Network::Residential).await?,
            http: listen(Kind::Http, Network::Residential).await?,
            socks5: listen(Kind::Socks5, Network::Residential).await?,
            https_fallback: Some(listen(Kind::Https, Network::Residential).await?),
        };
        let isp_shared = listen(Kind::HttpOrSocks5, Network::Isp).await?;
        let isp = PortSet {
            https: listen(Kind::Https, Network::Isp).await?,
            http: isp_shared,
            socks5: isp_shared,
            https_fallback: None,
        };
        let target_port = listen(Kind::Target, Network::Residential).await?;
        let endpoints = ProxyEndpoints {
            host: Ipv4Addr::LOCALHOST.to_string(),
            residential,
            isp,
            target_host: TARGET_HOST,
            target_direct_url: format!(
                "http://{}",
                SocketAddr::from((Ipv4Addr::LOCALHOST, target_port))
            ),
            ca_pem: state.tls.ca_pem.clone(),
            username: username.to_string(),
            key: key.to_string(),
        };
        tracing::info!(?residential, ?isp, "simulated proxies listening");
        Ok(ProxyServers {
            endpoints,
            state,
            tasks,
        })
    }

    pub(crate) fn connections(&self) -> u64 {
        self.state.connections.load(Ordering::SeqCst)
    }

    pub(crate) fn stop(&mut self) {
        for task in self.tasks.drain(..) {
            task.abort();
        }
    }
}

impl Drop for ProxyServers {
    fn drop(&mut self) {
        self.stop();
    }
}

async fn accept_loop(listener: TcpListener, state: Arc<ProxyState>, kind: Kind, network: Network) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) => {
                tracing::debug!(%error, "proxy accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if !matches!(kind, Kind::Target) {
            state.connections.fetch_add(1, Ordering::SeqCst);
        }
        tokio::spawn(serve(stream, Arc::clone(&state), kind, network));
    }
}

async fn serve(stream: TcpStream, state: Arc<ProxyState>, kind: Kind, network: Network) {
    let _ = stream.set_nodelay(true);
    match kind {
        Kind::Http => http::serve(stream, state, network).await,
        Kind::Socks5 => socks::serve(stream, state, network).await,
        Kind::HttpOrSocks5 => {
            let mut first = [0u8; 1];
            let peeked = tokio::time::timeout(HANDSHAKE_TIMEOUT, stream.peek(&mut first)).await;
            match peeked {
                Ok(Ok(1)) if first[0] == 5 => socks::serve(stream, state, network).await,
                Ok(Ok(1)) => http::serve(stream, state, network).await,
                _ => {}
            }
        }
        Kind::Https => {
            let accepted =
                tokio::time::timeout(HANDSHAKE_TIMEOUT, state.tls.acceptor.accept(stream)).await;
            match accepted {
                Ok(Ok(tls)) => http::serve(tls, state, network).await,
                Ok(Err(error)) => tracing::debug!(%error, "proxy TLS handshake failed"),
                Err(_) => tracing::debug!("proxy TLS handshake timed out"),
            }
        }
        Kind::Target => http::serve_target(stream, state, None, false).await,
    }
}
