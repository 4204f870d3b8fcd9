//! `vantage sim`: the simulator of the service, standalone, until Ctrl+C.

use std::time::Duration;

use clap::Args;

use super::{err, out};
use crate::sim::{self, SimConfig, Simulator};

#[derive(Debug, Args)]
pub struct SimArgs {
    /// Port to listen on (0 picks a free one)
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Token the simulator accepts
    #[arg(long, default_value = sim::DEMO_TOKEN)]
    pub token: String,
    /// Starting credit balance
    #[arg(long, default_value_t = 1_000)]
    pub credits: u64,
    /// Multiplies the models' observed latencies (0 answers at once)
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub latency_scale: f64,
    /// Every billed answer takes exactly this many milliseconds
    #[arg(long, value_name = "MS")]
    pub fixed_latency_ms: Option<u64>,
    /// How long a queued job stays pending, in milliseconds
    #[arg(long, value_name = "MS", default_value_t = 3_000)]
    pub job_pending_ms: u64,
    /// Share of queued jobs that fail, 0 to 1
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub job_fail_share: f64,
    /// Share of billed calls answered with a fault, 0 to 1
    #[arg(long, value_name = "F", default_value_t = 0.0)]
    pub fault_rate: f64,
    /// Faults to draw from: captcha,500,503,504,429,slow,malformed
    #[arg(
        long,
        value_name = "LIST",
        default_value = "captcha,500,503,504,slow,malformed"
    )]
    pub faults: String,
    /// Faults for the next billed calls, in order (ok for a normal answer): 503,ok,500
    #[arg(long, value_name = "LIST")]
    pub script: Option<String>,
    /// Answer /ai/devices with an empty list
    #[arg(long)]
    pub empty_devices: bool,
    /// Keep the jobs, balance and usage in this file (SQLite), across restarts and shared by every simulator given the same file
    #[arg(long, value_name = "PATH")]
    pub state_file: Option<std::path::PathBuf>,
    /// The day answers and ranks are drawn for: today (they drift daily) or a number (0 is
    /// the world without drift)
    #[arg(long, value_name = "N|today", default_value = "today")]
    pub epoch: sim::Epoch,
}

impl SimArgs {
    pub fn to_config(&self) -> Result<(SimConfig, Vec<Option<sim::Fault>>), String> {
        let in_unit = |name: &str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(v)
            } else {
                Err(format!("--{name} must be from 0 to 1, not {v}"))
            }
        };
        let mut config = SimConfig {
            token: self.token.clone(),
            credits: self.credits,
            latency_scale: self.latency_scale.max(0.0),
            fixed_latency: self.fixed_latency_ms.map(Duration::from_millis),
            job_pending: Duration::from_millis(self.job_pending_ms),
            job_fail_share: in_unit("job-fail-share", self.job_fail_share)?,
            fault_rate: in_unit("fault-rate", self.fault_rate)?,
            empty_devices: self.empty_devices,
            state_file: self.state_file.clone(),
            epoch: self.epoch,
            ..SimConfig::default()
        };
        config.fault_kinds = sim::parse_faults(&self.faults)?;
        let script = match &self.script {
            None => Vec::new(),
            Some(list) => list
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|item| {
                    if item.eq_ignore_ascii_case("ok") {
                        Ok(None)
                    } else {
                        item.parse::<sim::Fault>()
                            .map(Some)
                            .map_err(|e| e.to_string())
                    }
                })
                .collect::<Result<_, _>>()?,
        };
        Ok((config, script))
    }
}

/// Runs the simulator until Ctrl+C or SIGTERM, printing where it listens.
pub async fn run_sim(args: SimArgs) -> i32 {
    let (config, script) = match args.to_config() {
        Ok(parts) => parts,
        Err(message) => {
            err(&message);
            return crate::exit::INVALID_INPUT;
        }
    };
    let simulator = match Simulator::start_on(config, args.port).await {
        Ok(s) => s,
        Err(e) => {
            err(&format!(
                "The simulator could not listen on port {}: {e}. Choose another --port, or 0 for any free one.",
                args.port
            ));
            return crate::exit::NO_ANSWER;
        }
    };
    if !script.is_empty() {
        simulator.script(script);
    }
    out(&format!(
        "Simulator listening on {}\nToken: {}\nTry: VANTAGE_TOKEN={} vantage --render-url {} --search-url {} ai \"best hiking boots\"\nCtrl+C stops it.\n",
        simulator.url(),
        simulator.token(),
        simulator.token(),
        simulator.url(),
        simulator.url()
    ));
    out(&proxy_banner(simulator.proxies()));
    wait_for_shutdown_signal().await;
    simulator.shutdown().await;
    0
}

/// Resolves on Ctrl+C or, on Unix, SIGTERM.
pub async fn wait_for_shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The simulated proxies, for `vantage sim`'s banner.
fn proxy_banner(p: &sim::ProxyEndpoints) -> String {
    let fallback = p
        .residential
        .https_fallback
        .map(|port| format!(", HTTPS fallback {port}"))
        .unwrap_or_default();
    format!(
        "Proxies on {host} — residential: HTTPS {}, HTTP {}, SOCKS5 {}{fallback}; ISP: HTTP {}, HTTPS {}, SOCKS5 {}\nProxy credentials: {}:{} · they forward only to {} (directly: {})\nProxy CA (trust it for the HTTPS ports):\n{}",
        p.residential.https,
        p.residential.http,
        p.residential.socks5,
        p.isp.http,
        p.isp.https,
        p.isp.socks5,
        p.username,
        p.key,
        p.target_host,
        p.target_direct_url,
        p.ca_pem,
        host = p.host,
    )
}
