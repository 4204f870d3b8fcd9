//! Where the client's connections may go besides the service's URL: the redirects it follows
//! and the proxies it goes through. The token and the request must reach the host the user
//! named and nothing else.

use url::Url;

/// Redirects followed for one call, at most: a service moving a path answers in one or two.
pub const MAX_REDIRECTS: usize = 3;

/// True when the URL's host is this machine.
pub(crate) fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Whether a redirect from `first` (the URL the call was sent to) to `next` is followed: only
/// within the same origin (scheme, host and port), so an https service is never sent to
/// plain http or another host, and a service on this machine (the simulator, tests) never
/// leaves it.
pub(crate) fn redirect_allowed(first: &Url, next: &Url) -> bool {
    let secure = next.scheme() == "https" || (next.scheme() == "http" && is_loopback(next));
    secure
        && next.scheme() == first.scheme()
        && next.host() == first.host()
        && next.port_or_known_default() == first.port_or_known_default()
}

/// The client's redirect policy: [`redirect_allowed`] and at most [`MAX_REDIRECTS`] hops.
/// A redirect not followed comes back as the 3xx it is, which the client turns into a
/// sentence naming where it pointed.
pub(crate) fn redirect_policy() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let hops = attempt.previous().len();
        let allowed = hops <= MAX_REDIRECTS
            && attempt
                .previous()
                .first()
                .is_some_and(|first| redirect_allowed(first, attempt.url()));
        if allowed {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}

/// Hosts never reached through a proxy, whatever the environment says: the demo, a local
/// simulator and tests run on this machine, and a proxy would see their token in clear.
const LOOPBACK: &str = "localhost,127.0.0.0/8,::1";

/// The proxy settings of the environment, as curl reads them: `HTTPS_PROXY`, `HTTP_PROXY`
/// (unless run as CGI, where a request can set it), `ALL_PROXY`, in either case, and
/// `NO_PROXY`; this machine is added to `NO_PROXY`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ProxyEnv {
    pub http: Option<String>,
    pub https: Option<String>,
    pub all: Option<String>,
    pub no_proxy: Option<String>,
}

impl ProxyEnv {
    pub(crate) fn from_env() -> ProxyEnv {
        let first = |names: &[&str]| {
            names
                .iter()
                .find_map(|name| std::env::var(name).ok())
                .filter(|value| !value.trim().is_empty())
        };
        // A CGI request's `Proxy:` header arrives as HTTP_PROXY (httpoxy): not the user's.
        let cgi = std::env::var_os("REQUEST_METHOD").is_some();
        ProxyEnv {
            http: if cgi {
                None
            } else {
                first(&["HTTP_PROXY", "http_proxy"])
            },
            https: first(&["HTTPS_PROXY", "https_proxy"]),
            all: first(&["ALL_PROXY", "all_proxy"]),
            no_proxy: first(&["NO_PROXY", "no_proxy"]),
        }
    }

    /// The proxies to give the client, each bypassing `NO_PROXY` and this machine. A value
    /// the HTTP library cannot use is left out, as curl leaves it.
    pub(crate) fn proxies(&self) -> Vec<reqwest::Proxy> {
        let bypass = match &self.no_proxy {
            Some(list) => format!("{list},{LOOPBACK}"),
            None => LOOPBACK.to_string(),
        };
        let built = [
            self.http.as_deref().map(reqwest::Proxy::http),
            self.https.as_deref().map(reqwest::Proxy::https),
            self.all.as_deref().map(reqwest::Proxy::all),
        ];
        built
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|proxy| proxy.no_proxy(reqwest::NoProxy::from_string(&bypass)))
            .collect()
    }
}

/// The builder with the environment's proxies, or none: never the library's own reading of
/// the environment, which would send this machine's calls through a proxy too.
pub(crate) fn with_proxies(
    mut builder: reqwest::ClientBuilder,
    env: &ProxyEnv,
) -> reqwest::ClientBuilder {
    let proxies = env.proxies();
    if proxies.is_empty() {
        return builder.no_proxy();
    }
    for proxy in proxies {
        builder = builder.proxy(proxy);
    }
    builder
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn redirects_stay_on_the_same_origin_and_never_downgrade() {
        let service = url("https://render.example/ai?prompt=x");
        assert!(redirect_allowed(
            &service,
            &url("https://render.example/v2/ai")
        ));
        assert!(redirect_allowed(
            &service,
            &url("https://RENDER.example:443/ai")
        ));
        for refused in [
            "http://render.example/ai",
            "https://evil.example/ai",
            "https://render.example.evil.example/ai",
            "https://render.example:8443/ai",
            "http://127.0.0.1/ai",
        ] {
            assert!(!redirect_allowed(&service, &url(refused)), "{refused}");
        }
        let local = url("http://127.0.0.1:4000/ai");
        assert!(redirect_allowed(&local, &url("http://127.0.0.1:4000/v2")));
        for refused in [
            "http://127.0.0.1:4001/ai",
            "http://localhost:4000/ai",
            "http://render.example:4000/ai",
            "https://127.0.0.1:4000/ai",
        ] {
            assert!(!redirect_allowed(&local, &url(refused)), "{refused}");
        }
    }

    #[test]
    fn loopback_is_this_machine_only() {
        assert!(is_loopback(&url("http://localhost:1")));
        assert!(is_loopback(&url("http://127.4.5.6:1")));
        assert!(is_loopback(&url("http://[::1]:1")));
        assert!(!is_loopback(&url("http://127.0.0.1.evil.example")));
        assert!(!is_loopback(&url("http://10.0.0.1")));
    }

    #[test]
    fn no_proxy_setting_gives_no_proxy() {
        assert!(ProxyEnv::default().proxies().is_empty());
        let env = ProxyEnv {
            http: Some("http://127.0.0.1:3128".into()),
            all: Some("socks5://proxy.example".into()),
            ..ProxyEnv::default()
        };
        assert_eq!(env.proxies().len(), 2);
    }
}
