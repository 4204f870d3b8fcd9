//! Proxy access end to end: the client in `api::proxy` through the simulator's proxies.

use std::time::Duration;

use vantage::api::Secret;
use vantage::api::proxy::{
    ConnectionType, Network, Protocol, ProxyEndpoints, ProxyError, ProxyField, ProxyOptions,
    ProxyRequest, SocksReply,
};
use vantage::sim::{SimConfig, Simulator};

async fn sim() -> Simulator {
    Simulator::start(SimConfig {
        latency_scale: 0.0,
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

fn request(sim: &Simulator, network: Network, protocol: Protocol, url: &str) -> ProxyRequest {
    let p = sim.proxies();
    let mut request = ProxyRequest::new(&p.username, Secret::new(&p.key).unwrap(), url);
    request.network = network;
    request.protocol = protocol;
    request
}

async fn send(
    request: &ProxyRequest,
    endpoints: &ProxyEndpoints,
) -> Result<vantage::api::proxy::ProxyResponse, ProxyError> {
    request
        .send_with_timeout(endpoints, Duration::from_secs(10))
        .await
}

const PROTOCOLS: [Protocol; 3] = [Protocol::Https, Protocol::Http, Protocol::Socks5];

#[tokio::test]
async fn every_protocol_on_both_networks_reaches_the_target_with_its_exit() {
    let sim = sim().await;
    let endpoints = sim.client_proxy_endpoints();
    for network in [Network::Residential, Network::Isp] {
        for protocol in PROTOCOLS {
            for url in [
                "http://target.vantage.test/ip",
                "https://target.vantage.test/ip",
            ] {
                let mut request = request(&sim, network, protocol, url);
                request.options.session = Some(format!("s-{network}-{protocol}"));
                request.options.kind = Some(ConnectionType::Mobile);
                if network == Network::Residential {
                    request.options.country = Some("DE".into());
                    request.options.city = Some("Bad Homburg".into());
                }
                let what = format!("{network} {protocol} {url}");
                let first = send(&request, &endpoints)
                    .await
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(first.status, 200, "{what}");
                assert!(first.is_json(), "{what}");
                let page: serde_json::Value = serde_json::from_str(&first.body).unwrap();
                assert_eq!(page["network"], network.as_str(), "{what}");
                assert_eq!(page["scheme"], url.split(':').next().unwrap(), "{what}");
                assert_eq!(page["options"]["type"], "mobile", "{what}");
                let ip = first.exit.ip.clone().expect("exit ip");
                assert_eq!(page["ip"], ip.as_str(), "{what}");
                if network == Network::Residential {
                    assert_eq!(first.exit.country.as_deref(), Some("DE"), "{what}");
                    assert_eq!(first.exit.timezone.as_deref(), Some("Europe/Berlin"));
                    assert_eq!(page["options"]["city"], "Bad Homburg", "{what}");
                    assert!(ip.starts_with("203.0.113."), "{what}");
                } else {
                    assert!(ip.starts_with("198.51.100."), "{what}");
                }
                assert!(first.exit.asn.as_deref().unwrap().starts_with("AS"));
                // A session keeps its exit.
                let second = send(&request, &endpoints).await.unwrap();
                assert_eq!(second.exit.ip, first.exit.ip, "{what}");
            }
        }
    }
}

#[tokio::test]
async fn the_fallback_port_and_html_pages_work() {
    let sim = sim().await;
    let endpoints = sim.client_proxy_endpoints();
    let mut request = request(
        &sim,
        Network::Residential,
        Protocol::Https,
        "https://target.vantage.test/",
    );
    request.use_fallback_port = true;
    let answer = send(&request, &endpoints).await.unwrap();
    assert!(answer.is_html());
    assert!(answer.body.contains("Your exit"));
    assert!(
        answer.proxy_url.ends_with(
            &sim.proxies()
                .residential
                .https_fallback
                .unwrap()
                .to_string()
        )
    );
}

#[tokio::test]
async fn a_wrong_key_gives_the_credentials_sentence_on_every_protocol() {
    let sim = sim().await;
    let endpoints = sim.client_proxy_endpoints();
    for protocol in PROTOCOLS {
        for url in [
            "http://target.vantage.test/ip",
            "https://target.vantage.test/ip",
        ] {
            let mut request = request(&sim, Network::Residential, protocol, url);
            request.key = Secret::new("not-the-key").unwrap();
            let error = send(&request, &endpoints).await.unwrap_err();
            assert!(
                matches!(error, ProxyError::AuthRequired { .. }),
                "{protocol} {url}: {error:?}"
            );
            assert_eq!(error.exit_code(), 3);
            assert!(
                error.to_string().contains("refused the credentials"),
                "{error}"
            );
        }
    }
}

#[tokio::test]
async fn geo_options_without_country_are_refused_before_anything_is_sent() {
    let sim = sim().await;
    let endpoints = sim.client_proxy_endpoints();
    let before = sim.proxy_connections();
    for (network, options) in [
        (
            Network::Residential,
            ProxyOptions {
                city: Some("Paris".into()),
                ..ProxyOptions::default()
            },
        ),
        (
            Network::Isp,
            ProxyOptions {
                country: Some("DE".into()),
                ..ProxyOptions::default()
            },
        ),
    ] {
        for protocol in PROTOCOLS {
            let mut request = request(&sim, network, protocol, "http://target.vantage.test/ip");
            request.options = options.clone();
            let error = send(&request, &endpoints).await.unwrap_err();
            assert_eq!(error.exit_code(), 2, "{error}");
            assert!(!error.fields().is_empty());
            assert!(error.fields().iter().all(|f| f.is_geo()));
        }
    }
    assert_eq!(
        sim.proxy_connections(),
        before,
        "nothing reached the proxies"
    );
}

/// The simulator's own refusals, with the client's checks bypassed by writing the options
/// into the username itself.
#[tokio::test]
async fn the_simulator_refuses_bad_options_itself() {
    let sim = sim().await;
    let endpoints = sim.client_proxy_endpoints();
    let user = &sim.proxies().username;
    let raw = |network, protocol, suffix: &str, url: &str| {
        let mut r = request(&sim, network, protocol, url);
        r.username = format!("{user}{suffix}");
        r
    };
    for protocol in [Protocol::Https, Protocol::Http] {
        for url in [
            "http://target.vantage.test/ip",
            "https://target.vantage.test/ip",
        ] {
            // The client would refuse these usernames, so the check is skipped by sending
            // options it does not know.
            let bad = raw(Network::Residential, protocol, "-colour-red", url);
            let error = send(&bad, &endpoints).await.unwrap_err();
            assert!(matches!(error, ProxyError::BadOptions { .. }), "{error:?}");
            assert!(error.to_string().contains("Unknown option"), "{error}");
        }
    }
    let socks = raw(
        Network::Residential,
        Protocol::Socks5,
        "-colour-red",
        "http://target.vantage.test/ip",
    );
    let error = send(&socks, &endpoints).await.unwrap_err();
    assert!(
        matches!(
            error,
            ProxyError::SocksRefused {
                reply: SocksReply::GeneralFailure,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn raw_geo_without_country_and_isp_geo_answer_400() {
    let sim = sim().await;
    let p = sim.proxies();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let get = |port: u16, user: String| {
        let proxy = reqwest::Proxy::all(format!("http://127.0.0.1:{port}"))
            .unwrap()
            .basic_auth(&user, &p.key);
        let client = reqwest::Client::builder().proxy(proxy).build().unwrap();
        async move {
            let r = client
                .get("http://target.vantage.test/ip")
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    let (status, body) = get(p.residential.http, format!("{}-city-Paris", p.username)).await;
    assert_eq!(status, 400);
    assert!(body.contains("requires country"), "{body}");
    let (status, body) = get(p.isp.http, format!("{}-country-DE", p.username)).await;
    assert_eq!(status, 400);
    assert!(body.contains("ISP network"), "{body}");
    let (status, _) = get(p.residential.http, format!("{}-country-AQ", p.username)).await;
    assert_eq!(status, 521);
}

#[tokio::test]
async fn capacity_and_disallowed_content_have_their_sentences() {
    let sim = sim().await;
    let endpoints = sim.client_proxy_endpoints();
    for protocol in PROTOCOLS {
        for url in [
            "http://target.vantage.test/ip",
            "https://target.vantage.test/ip",
        ] {
            let mut r = request(&sim, Network::Residential, protocol, url);
            r.options.country = Some("AQ".into());
            let error = send(&r, &endpoints).await.unwrap_err();
            assert!(
                error.to_string().contains("broader location"),
                "{protocol} {url}: {error}"
            );
            assert_eq!(error.exit_code(), 4);

            let blocked = url.replace("/ip", "/blocked/page");
            let r = request(&sim, Network::Residential, protocol, &blocked);
            let error = send(&r, &endpoints).await.unwrap_err();
            assert!(
                matches!(error, ProxyError::Disallowed { .. }),
                "{protocol} {blocked}: {error:?}"
            );
        }
    }
}

#[tokio::test]
async fn the_proxies_forward_to_the_target_site_only() {
    let sim = sim().await;
    let endpoints = sim.client_proxy_endpoints();
    // HTTP absolute-form: the proxy answers 403 itself.
    let r = request(
        &sim,
        Network::Residential,
        Protocol::Http,
        "http://example.com/",
    );
    let answer = send(&r, &endpoints).await.unwrap();
    assert_eq!(answer.status, 403);
    assert!(answer.body.contains("reach only target.vantage.test"));
    // CONNECT: the tunnel is refused.
    for protocol in [Protocol::Http, Protocol::Https] {
        let r = request(&sim, Network::Isp, protocol, "https://example.com/");
        let error = send(&r, &endpoints).await.unwrap_err();
        assert_eq!(error.status(), Some(403), "{error:?}");
        assert!(error.to_string().contains("reach only"), "{error}");
    }
    // CONNECT to another port of the target's name.
    let r = request(
        &sim,
        Network::Residential,
        Protocol::Http,
        "https://target.vantage.test:8443/",
    );
    assert_eq!(send(&r, &endpoints).await.unwrap_err().status(), Some(403));
    // SOCKS5: "connection not allowed by ruleset".
    for url in ["http://example.com/", "https://127.0.0.1/"] {
        let r = request(&sim, Network::Residential, Protocol::Socks5, url);
        let error = send(&r, &endpoints).await.unwrap_err();
        assert!(
            matches!(
                error,
                ProxyError::SocksRefused {
                    reply: SocksReply::NotAllowed,
                    ..
                }
            ),
            "{url}: {error:?}"
        );
    }
}

#[tokio::test]
async fn transport_failures_are_diagnosed() {
    let sim = sim().await;
    let good = sim.client_proxy_endpoints();
    // Plain HTTP spoken to the HTTPS port's peer: a TLS port answered in the clear.
    let mut wrong_port = good.clone();
    wrong_port.residential.ports.https = good.residential.ports.http;
    let r = request(
        &sim,
        Network::Residential,
        Protocol::Https,
        "http://target.vantage.test/ip",
    );
    let error = send(&r, &wrong_port).await.unwrap_err();
    assert!(matches!(error, ProxyError::Tls { .. }), "{error:?}");
    assert!(error.to_string().contains("TLS 1.2"), "{error}");
    assert_eq!(error.exit_code(), 5);

    // Without the simulator's CA, its certificate is not trusted.
    let mut untrusted = good.clone();
    untrusted.root = None;
    let error = send(&r, &untrusted).await.unwrap_err();
    assert!(matches!(error, ProxyError::Tls { .. }), "{error:?}");

    // A closed port: on the residential HTTPS port, the fallback is suggested.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut refused = good.clone();
    refused.residential.ports.https = closed;
    let error = send(&r, &refused).await.unwrap_err();
    assert_eq!(
        error,
        ProxyError::Refused {
            port: closed,
            fallback: Some(1080)
        }
    );
    assert!(error.to_string().contains("--fallback"));
}

#[tokio::test]
async fn hostile_option_values_arrive_intact() {
    let sim = sim().await;
    let endpoints = sim.client_proxy_endpoints();
    let mut r = request(
        &sim,
        Network::Residential,
        Protocol::Socks5,
        "http://target.vantage.test/ip",
    );
    r.options.country = Some("US".into());
    r.options.city = Some("Winston-Salem".into());
    r.options.session = Some("a-b:c%20d ü".into());
    let answer = send(&r, &endpoints).await.unwrap();
    let page: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(page["options"]["city"], "Winston-Salem");
    assert_eq!(page["options"]["session"], "a-b:c%20d ü");
    assert_eq!(
        answer.username,
        "demo-user-country-US-city-Winston%2DSalem-session-a%2Db%3Ac%2520d%20%C3%BC"
    );
    assert!(ProxyField::OPTIONS.len() == 11);
}
