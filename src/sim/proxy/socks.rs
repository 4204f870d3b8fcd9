//! SOCKS5 (RFC 1928) with username/password authentication (RFC 1929). The username carries
//! the options as on the HTTP ports. Refusals map onto the reply codes SOCKS has: bad
//! credentials fail the authentication; options the service refuses answer "general
//! failure"; a location without capacity answers "network unreachable"; any host other than
//! the target site answers "connection not allowed by ruleset".

use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::auth::{Network, Refusal};
use super::{ProxyState, TARGET_HOST, http};

const VERSION: u8 = 5;
const METHOD_USER_PASS: u8 = 2;
const NO_ACCEPTABLE_METHOD: u8 = 0xff;

const REPLY_SUCCEEDED: u8 = 0;
const REPLY_GENERAL_FAILURE: u8 = 1;
const REPLY_NOT_ALLOWED: u8 = 2;
const REPLY_NETWORK_UNREACHABLE: u8 = 3;
const REPLY_COMMAND_NOT_SUPPORTED: u8 = 7;
const REPLY_ADDRESS_NOT_SUPPORTED: u8 = 8;

pub(super) async fn serve<I>(mut io: I, state: Arc<ProxyState>, network: Network)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let negotiated = tokio::time::timeout(
        super::HANDSHAKE_TIMEOUT,
        negotiate(&mut io, &state, network),
    )
    .await;
    match negotiated {
        Ok(Ok(Some((exit, tls)))) => http::serve_target(io, state, exit, tls).await,
        Ok(Ok(None)) => {
            let _ = io.shutdown().await;
        }
        Ok(Err(error)) => tracing::debug!(%error, "SOCKS5 handshake failed"),
        Err(_) => tracing::debug!("SOCKS5 handshake timed out"),
    }
}

/// Runs the handshake; `Some` when the stream now belongs to the target site.
async fn negotiate<I>(
    io: &mut I,
    state: &ProxyState,
    network: Network,
) -> std::io::Result<Option<(Option<super::auth::Exit>, bool)>>
where
    I: AsyncRead + AsyncWrite + Unpin,
{
    let mut head = [0u8; 2];
    io.read_exact(&mut head).await?;
    if head[0] != VERSION {
        return Ok(None);
    }
    let mut methods = vec![0u8; usize::from(head[1])];
    io.read_exact(&mut methods).await?;
    if !methods.contains(&METHOD_USER_PASS) {
        io.write_all(&[VERSION, NO_ACCEPTABLE_METHOD]).await?;
        return Ok(None);
    }
    io.write_all(&[VERSION, METHOD_USER_PASS]).await?;

    // RFC 1929: VER=1, ULEN, UNAME, PLEN, PASSWD.
    let mut version = [0u8; 1];
    io.read_exact(&mut version).await?;
    let user = read_short_string(io).await?;
    let key = read_short_string(io).await?;
    let checked = state
        .credentials
        .check(&user, &key, network, state.next_draw());
    let refusal_reply = match &checked {
        Err(Refusal::Credentials(_)) => {
            io.write_all(&[1, 1]).await?;
            return Ok(None);
        }
        Err(Refusal::Options(_)) => Some(REPLY_GENERAL_FAILURE),
        Err(Refusal::NoCapacity(_)) => Some(REPLY_NETWORK_UNREACHABLE),
        Ok(_) => None,
    };
    io.write_all(&[1, 0]).await?;

    // The request: VER, CMD, RSV, ATYP, DST.ADDR, DST.PORT.
    let mut request = [0u8; 4];
    io.read_exact(&mut request).await?;
    let host = match request[3] {
        1 => {
            let mut addr = [0u8; 4];
            io.read_exact(&mut addr).await?;
            std::net::Ipv4Addr::from(addr).to_string()
        }
        3 => read_short_string(io).await?,
        4 => {
            let mut addr = [0u8; 16];
            io.read_exact(&mut addr).await?;
            std::net::Ipv6Addr::from(addr).to_string()
        }
        _ => {
            reply(io, REPLY_ADDRESS_NOT_SUPPORTED).await?;
            return Ok(None);
        }
    };
    let mut port = [0u8; 2];
    io.read_exact(&mut port).await?;
    let port = u16::from_be_bytes(port);
    if request[1] != 1 {
        reply(io, REPLY_COMMAND_NOT_SUPPORTED).await?;
        return Ok(None);
    }
    if let Some(code) = refusal_reply {
        reply(io, code).await?;
        return Ok(None);
    }
    if !host.eq_ignore_ascii_case(TARGET_HOST) || !(port == 80 || port == 443) {
        reply(io, REPLY_NOT_ALLOWED).await?;
        return Ok(None);
    }
    reply(io, REPLY_SUCCEEDED).await?;
    Ok(Some((checked.ok(), port == 443)))
}

async fn read_short_string<I: AsyncRead + Unpin>(io: &mut I) -> std::io::Result<String> {
    let mut len = [0u8; 1];
    io.read_exact(&mut len).await?;
    let mut bytes = vec![0u8; usize::from(len[0])];
    io.read_exact(&mut bytes).await?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

async fn reply<I: AsyncWrite + Unpin>(io: &mut I, code: u8) -> std::io::Result<()> {
    io.write_all(&[VERSION, code, 0, 1, 0, 0, 0, 0, 0, 0]).await
}
