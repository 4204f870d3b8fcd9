//! `--demo`: the simulator as the app starts it, with its jobs kept across restarts and its
//! proxy CA saved where a copied curl command can name it, and its proxies as the client's
//! endpoints.

use std::path::Path;

use super::{PortSet, SimConfig, Simulator};
use crate::api::proxy::{Ports, ProxyEndpoints, RootCertificate};

/// The simulated service's state (jobs, balance, usage), shared by every demo process on
/// the machine: one simulated service, as the live one is one service (see `sim::state`).
const STATE_FILE: &str = "simulator.db";
/// The simulator's CA, for commands run outside the app (it is made afresh at each start).
const PROXY_CA_FILE: &str = "demo-proxy-ca.pem";

/// Starts the demo simulator, keeping its jobs and its proxy CA in `data_dir`, billing by
/// `prices` (the config file's), so the costs said before a spend are what it takes.
pub async fn start(data_dir: &Path, prices: crate::price::Prices) -> std::io::Result<Simulator> {
    let mut config = SimConfig::demo();
    config.prices = prices;
    config.state_file = Some(data_dir.join(STATE_FILE));
    let mut simulator = Simulator::start(config).await?;
    let ca_file = data_dir.join(PROXY_CA_FILE);
    let written = std::fs::create_dir_all(data_dir)
        .and_then(|()| std::fs::write(&ca_file, &simulator.proxies().ca_pem));
    match written {
        Ok(()) => simulator.proxy_ca_file = Some(ca_file),
        // The app works without it; only a copied curl command misses the file.
        Err(error) => {
            tracing::warn!(%error, path = %ca_file.display(), "the demo proxy CA was not saved")
        }
    }
    Ok(simulator)
}

impl Simulator {
    /// The simulated proxies as the client's endpoints, trusting only the simulator's CA.
    pub fn client_proxy_endpoints(&self) -> ProxyEndpoints {
        let proxies = self.proxies();
        let ports = |set: &PortSet| Ports {
            https: set.https,
            http: set.http,
            socks5: set.socks5,
            https_fallback: set.https_fallback,
        };
        let mut endpoints = ProxyEndpoints::custom(
            &proxies.host,
            ports(&proxies.residential),
            ports(&proxies.isp),
            Some(RootCertificate::Pem(proxies.ca_pem.clone())),
        );
        endpoints.root_file = self.proxy_ca_file.clone();
        endpoints
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_demo_saves_its_ca_where_the_endpoints_name_it() {
        let dir = tempfile::tempdir().unwrap();
        let simulator = start(dir.path(), crate::price::Prices::default())
            .await
            .unwrap();
        let endpoints = simulator.client_proxy_endpoints();
        let saved = endpoints.root_file.clone().unwrap();
        assert_eq!(saved, dir.path().join(PROXY_CA_FILE));
        assert_eq!(
            std::fs::read_to_string(&saved).unwrap(),
            simulator.proxies().ca_pem
        );
        assert_eq!(
            endpoints.root,
            Some(RootCertificate::Pem(simulator.proxies().ca_pem.clone()))
        );
        assert_eq!(endpoints.isp.ports.http, simulator.proxies().isp.http);
        simulator.shutdown().await;
    }
}
