//! The HTTP proxy protocol (plain, or inside TLS for the HTTPS ports): absolute-form requests
//! are answered by the target site in-process; CONNECT opens a tunnel to it, with the exit
//! headers on the 200 answer.

use std::convert::Infallible;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, Response, header};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};

use super::auth::{Exit, Network};
use super::{ProxyState, TARGET_HOST, target};

/// Serves the proxy protocol on one accepted connection until it closes.
pub(super) async fn serve<I>(io: I, state: Arc<ProxyState>, network: Network)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = service_fn(move |request: Request<Incoming>| {
        let state = Arc::clone(&state);
        async move { Ok::<_, Infallible>(handle(request, state, network)) }
    });
    let served = hyper::server::conn::http1::Builder::new()
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades()
        .await;
    if let Err(error) = served {
        tracing::debug!(%error, "proxy connection ended with an error");
    }
}

fn handle(request: Request<Incoming>, state: Arc<ProxyState>, network: Network) -> Response<Body> {
    let auth = request
        .headers()
        .get(header::PROXY_AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let exit = match state
        .credentials
        .check_header(auth, network, state.next_draw())
    {
        Ok(exit) => exit,
        Err(refusal) => {
            let mut response = target::text(refusal.status(), refusal.message(), None);
            if refusal.status() == 407 {
                response.headers_mut().insert(
                    header::PROXY_AUTHENTICATE,
                    HeaderValue::from_static("Basic realm=\"vantage simulator\""),
                );
            }
            return response;
        }
    };
    let host = request
        .uri()
        .host()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if request.method() == Method::CONNECT {
        let port = request.uri().port_u16().unwrap_or(0);
        if host != TARGET_HOST || !(port == 80 || port == 443) {
            return not_allowed(&format!("{host}:{port}"));
        }
        let mut response = Response::new(Body::empty());
        target::add_exit_headers(&mut response, Some(&exit));
        tokio::spawn(tunnel(request, state, exit, port == 443));
        return response;
    }
    if request.uri().authority().is_none() {
        return target::text(
            400,
            "This is a proxy: ask for an absolute URL (GET http://target.vantage.test/ip) or CONNECT",
            None,
        );
    }
    if host != TARGET_HOST || request.uri().scheme_str() != Some("http") {
        return not_allowed(&request.uri().to_string());
    }
    target::answer(&request, Some(&exit), "http")
}

fn not_allowed(what: &str) -> Response<Body> {
    target::text(
        403,
        &format!(
            "Forwarding refused: the simulator's proxies reach only {TARGET_HOST} (ports 80 and 443), not {what}"
        ),
        None,
    )
}

/// After the 200, the connection belongs to the target site: TLS first when port 443.
async fn tunnel(request: Request<Incoming>, state: Arc<ProxyState>, exit: Exit, tls: bool) {
    let upgraded = match hyper::upgrade::on(request).await {
        Ok(upgraded) => TokioIo::new(upgraded),
        Err(error) => {
            tracing::debug!(%error, "CONNECT tunnel was not opened");
            return;
        }
    };
    serve_target(upgraded, state, Some(exit), tls).await;
}

/// Serves the target site on a connection (a tunnel, a SOCKS stream or a direct one).
pub(super) async fn serve_target<I>(io: I, state: Arc<ProxyState>, exit: Option<Exit>, tls: bool)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    if tls {
        let accepted =
            tokio::time::timeout(super::HANDSHAKE_TIMEOUT, state.tls.acceptor.accept(io)).await;
        match accepted {
            Ok(Ok(stream)) => serve_plain_target(stream, exit, "https").await,
            Ok(Err(error)) => tracing::debug!(%error, "target TLS handshake failed"),
            Err(_) => tracing::debug!("target TLS handshake timed out"),
        }
    } else {
        serve_plain_target(io, exit, "http").await;
    }
}

async fn serve_plain_target<I>(io: I, exit: Option<Exit>, scheme: &'static str)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let exit = Arc::new(exit);
    let service = service_fn(move |request: Request<Incoming>| {
        let exit = Arc::clone(&exit);
        async move { Ok::<_, Infallible>(target::answer(&request, exit.as_ref().as_ref(), scheme)) }
    });
    let served = hyper::server::conn::http1::Builder::new()
        .serve_connection(TokioIo::new(io), service)
        .await;
    if let Err(error) = served {
        tracing::debug!(%error, "target connection ended with an error");
    }
}
