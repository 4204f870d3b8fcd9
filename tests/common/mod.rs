//! Helpers shared by the integration tests: a quick simulator and a client pointed at it.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use vantage::api::{Client, ClientSettings, RetryNotice, RetryPolicy, Secret};
use vantage::sim::{SimConfig, Simulator};

/// A simulator that answers at once, with short jobs that never fail unless told.
pub fn quick() -> SimConfig {
    SimConfig {
        latency_scale: 0.0,
        job_pending: Duration::from_millis(150),
        job_fail_share: 0.0,
        ..SimConfig::default()
    }
}

pub async fn start(config: SimConfig) -> Simulator {
    Simulator::start(config).await.expect("simulator starts")
}

/// Settings for a client of `sim` with its token.
pub fn settings(sim: &Simulator) -> ClientSettings {
    ClientSettings::new(&sim.url(), &sim.url(), Secret::new(sim.token()))
}

/// A client of `sim` with the default retry policy.
pub fn client(sim: &Simulator) -> Client {
    Client::new(settings(sim)).expect("client builds")
}

/// A client of `sim` that never retries, to see raw statuses.
pub fn raw_client(sim: &Simulator) -> Client {
    let mut settings = settings(sim);
    settings.retry = RetryPolicy::none();
    Client::new(settings).expect("client builds")
}

/// Collects the waits a client reports before retrying.
#[derive(Clone, Default)]
pub struct Notices(Arc<Mutex<Vec<RetryNotice>>>);

impl Notices {
    pub fn watch(&self, client: &Client) -> Client {
        let seen = Arc::clone(&self.0);
        client.observed(move |notice| seen.lock().expect("notices lock").push(notice))
    }

    pub fn all(&self) -> Vec<RetryNotice> {
        self.0.lock().expect("notices lock").clone()
    }
}
