//! `vantage proxy`: one page fetched through the proxy networks.

use std::time::Duration;

use clap::Args;

use super::{err, out, out_as_received, pretty_body, with_newline};
use crate::api::Secret;
use crate::api::proxy;
use crate::config::Config;
use crate::render::{self, RenderOptions};
use crate::sim::Simulator;

#[derive(Debug, Args)]
pub struct ProxyArgs {
    /// The page to fetch through the proxy (http:// or https://); in --demo,
    /// http(s)://target.vantage.test/ip
    pub url: String,
    /// residential (default) or isp
    #[arg(long, value_name = "NET", default_value = "residential")]
    pub network: proxy::Network,
    /// https (default), http or socks5
    #[arg(long, value_name = "P", default_value = "https")]
    pub protocol: proxy::Protocol,
    /// Use the HTTPS fallback port (1080) for networks that block 65535
    #[arg(long)]
    pub fallback: bool,
    /// Two-letter ISO country code of the exit
    #[arg(long, value_name = "CC")]
    pub country: Option<String>,
    /// Second part of an ISO 3166-2 code (NY for US-NY); needs --country
    #[arg(long, value_name = "S")]
    pub subdivision: Option<String>,
    /// City name; needs --country
    #[arg(long, value_name = "C")]
    pub city: Option<String>,
    /// Postal code; needs --country
    #[arg(long, value_name = "Z")]
    pub zipcode: Option<String>,
    /// Autonomous system number; needs --country
    #[arg(long, value_name = "N")]
    pub asn: Option<u32>,
    /// mobile, common or tv
    #[arg(long = "type", value_name = "T")]
    pub kind: Option<proxy::ConnectionType>,
    /// Session name: the same session keeps the same exit
    #[arg(long, value_name = "S")]
    pub session: Option<String>,
    /// Session lifetime in minutes, 1 to 240
    #[arg(long, value_name = "MIN")]
    pub sessionttl: Option<u32>,
    /// strict, flex or norotate
    #[arg(long, value_name = "M")]
    pub sessionmode: Option<proxy::SessionMode>,
    #[arg(long, value_name = "E")]
    pub sessionerr: Option<String>,
    #[arg(long, value_name = "A")]
    pub subaccount: Option<String>,
    /// Proxy username (else VANTAGE_PROXY_USERNAME, else proxy_username in the config file)
    #[arg(long, value_name = "U")]
    pub user: Option<String>,
    /// Print the equivalent curl command (it reads the key from $VANTAGE_PROXY_KEY) and send nothing
    #[arg(long)]
    pub curl: bool,
    /// Print the answer as a JSON object
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub demo: super::DemoFlag,
}

impl ProxyArgs {
    /// The targeting options, the place checked as every place is (a country and
    /// subdivision the tables know, sent as their codes).
    fn options(&self) -> Result<proxy::ProxyOptions, String> {
        let (country, subdivision) =
            crate::geo::check_place(self.country.as_deref(), self.subdivision.as_deref())?;
        Ok(proxy::ProxyOptions {
            country: country.map(str::to_string),
            subdivision,
            city: self.city.clone(),
            zipcode: self.zipcode.clone(),
            asn: self.asn,
            kind: self.kind,
            session: self.session.clone(),
            sessionttl: self.sessionttl,
            sessionmode: self.sessionmode,
            sessionerr: self.sessionerr.clone(),
            subaccount: self.subaccount.clone(),
        })
    }
}

/// `vantage proxy`: fetches the URL through the chosen network and protocol; returns the
/// exit code (2 invalid input, 3 credentials, 4 the proxy answered an error, 5 no answer).
pub async fn run_proxy(args: ProxyArgs, config: &Config, simulator: Option<&Simulator>) -> i32 {
    let options = match args.options() {
        Ok(options) => options,
        Err(sentence) => return super::refuse(&sentence),
    };
    match proxy_call(args, options, config, simulator).await {
        Ok(()) => crate::exit::OK,
        Err(error) => {
            err(&error.to_string());
            proxy_exit_code(&error)
        }
    }
}

/// The exit codes' table: a SOCKS5 refusal gave no answer from the target (5), whatever kind
/// of refusal the proxy error calls it.
fn proxy_exit_code(error: &proxy::ProxyError) -> i32 {
    match error {
        proxy::ProxyError::SocksRefused { .. } => crate::exit::NO_ANSWER,
        other => other.exit_code(),
    }
}

async fn proxy_call(
    args: ProxyArgs,
    options: proxy::ProxyOptions,
    config: &Config,
    simulator: Option<&Simulator>,
) -> Result<(), proxy::ProxyError> {
    let (endpoints, username, key) = match simulator {
        Some(sim) => {
            let p = sim.proxies();
            (
                sim.client_proxy_endpoints(),
                Some(p.username.clone()),
                Secret::new(&p.key),
            )
        }
        None => (
            proxy::ProxyEndpoints::live(&config.proxy_host, &config.isp_proxy_host),
            config.proxy_username.clone(),
            config.proxy_key.clone(),
        ),
    };
    let username = args
        .user
        .clone()
        .or(username)
        .filter(|u| !u.trim().is_empty())
        .ok_or(proxy::ProxyError::MissingCredentials { what: "username" })?;
    let key = key.ok_or(proxy::ProxyError::MissingCredentials { what: "key" })?;
    let mut request = proxy::ProxyRequest::new(&username, key, &args.url);
    request.network = args.network;
    request.protocol = args.protocol;
    request.use_fallback_port = args.fallback;
    request.options = options;
    if args.curl {
        request.validate()?;
        out(&format!(
            "{}\n",
            proxy::curl_command(&request, &endpoints, false)
        ));
        // The demo's proxies listen only while this command runs: its ports are gone by the
        // time the command is pasted.
        if simulator.is_some() {
            err(
                "This is the demo's command: its proxy listened on that port only while vantage ran, so pasted as is it finds nothing. Without --demo, the command names the live network.",
            );
        }
        return Ok(());
    }
    let response = request
        .send_with_timeout(&endpoints, config.timeout.min(Duration::from_secs(120)))
        .await?;
    if args.json {
        let mut value = serde_json::to_value(&response).unwrap_or_default();
        if response.is_json()
            && let Ok(parsed) = serde_json::from_str::<serde_json::Value>(&response.body)
        {
            value["json"] = parsed;
        }
        out_as_received(&with_newline(
            serde_json::to_string_pretty(&value).unwrap_or_default(),
        ));
        return Ok(());
    }
    let body = if response.is_json() {
        pretty_body(&response.body)
    } else if response.is_html() {
        render::html_to_document(&response.body, &RenderOptions::default()).plain_text()
    } else {
        response.body.clone()
    };
    out(&format!(
        "{} · {} ms · via {} as {}\nExit: {}\n\n{}",
        response.status,
        response.elapsed.as_millis(),
        response.proxy_url,
        response.username,
        response.exit.describe(),
        with_newline(body)
    ));
    Ok(())
}
