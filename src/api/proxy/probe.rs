//! A CONNECT of our own, to read what the proxy answered when the HTTP library keeps a
//! refused tunnel's status to itself.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use url::Url;

use super::Protocol;
use super::endpoints::{ProxyEndpoints, RootCertificate};
use super::request::ProxyRequest;

trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Stream for T {}

pub(super) struct Probe<'a> {
    host: String,
    port: u16,
    protocol: Protocol,
    root: Option<&'a RootCertificate>,
    timeout: Duration,
}

impl<'a> Probe<'a> {
    pub(super) fn new(
        request: &ProxyRequest,
        endpoints: &'a ProxyEndpoints,
        port: u16,
        timeout: Duration,
    ) -> Probe<'a> {
        Probe {
            host: endpoints.network(request.network).host.clone(),
            port,
            protocol: request.protocol,
            root: endpoints.root.as_ref(),
            timeout: timeout.min(Duration::from_secs(15)),
        }
    }

    fn tls_config(&self) -> Result<rustls::ClientConfig, String> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
            .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
            .map_err(|e| e.to_string())?;
        let config = match self.root {
            Some(root) => {
                use rustls::pki_types::CertificateDer;
                use rustls::pki_types::pem::PemObject;
                let der = match root {
                    RootCertificate::Pem(pem) => {
                        CertificateDer::from_pem_slice(pem.as_bytes()).map_err(|e| e.to_string())?
                    }
                    RootCertificate::Der(der) => CertificateDer::from(der.clone()),
                };
                let mut roots = rustls::RootCertStore::empty();
                roots.add(der).map_err(|e| e.to_string())?;
                builder.with_root_certificates(roots).with_no_client_auth()
            }
            None => {
                use rustls_platform_verifier::BuilderVerifierExt;
                builder
                    .with_platform_verifier()
                    .map_err(|e| e.to_string())?
                    .with_no_client_auth()
            }
        };
        Ok(config)
    }

    /// A connection to the proxy, inside TLS for the HTTPS ports.
    /// Whether a connection (and for HTTPS, the TLS handshake) with the proxy succeeds.
    pub(super) async fn reaches_proxy(&self) -> bool {
        self.open().await.is_ok()
    }

    async fn open(&self) -> Result<Box<dyn Stream>, String> {
        let connect = tokio::net::TcpStream::connect((self.host.as_str(), self.port));
        let tcp = tokio::time::timeout(self.timeout, connect)
            .await
            .map_err(|_| "timed out".to_string())?
            .map_err(|e| e.to_string())?;
        if self.protocol != Protocol::Https {
            return Ok(Box::new(tcp));
        }
        let config = self.tls_config()?;
        let name = rustls::pki_types::ServerName::try_from(self.host.clone())
            .map_err(|e| e.to_string())?;
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tls = tokio::time::timeout(self.timeout, connector.connect(name, tcp))
            .await
            .map_err(|_| "timed out".to_string())?
            .map_err(|e| e.to_string())?;
        Ok(Box::new(tls))
    }

    /// Sends `CONNECT host:port` with the credentials; answers the status and body.
    pub(super) async fn connect_answer(
        &self,
        target: &Url,
        username: &str,
        key: &str,
    ) -> Result<(u16, String), String> {
        use base64::Engine as _;
        let mut stream = self.open().await?;
        let host = target.host_str().ok_or("no host")?;
        let port = target.port_or_known_default().ok_or("no port")?;
        let credentials =
            base64::engine::general_purpose::STANDARD.encode(format!("{username}:{key}"));
        let request = format!(
            "CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\nProxy-Authorization: Basic {credentials}\r\n\r\n"
        );
        let exchange = async {
            stream
                .write_all(request.as_bytes())
                .await
                .map_err(|e| e.to_string())?;
            let mut answer = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                let n = stream.read(&mut buf).await.map_err(|e| e.to_string())?;
                if n == 0 || answer.len() > 64 * 1024 {
                    break;
                }
                answer.extend_from_slice(&buf[..n]);
                if let Some(parsed) = parse_answer(&answer) {
                    return Ok(parsed);
                }
            }
            parse_answer(&answer).ok_or_else(|| "no answer to CONNECT".to_string())
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| "timed out".to_string())?
    }
}

/// Status and body of an HTTP answer, once its head and `Content-Length` bytes are in.
fn parse_answer(bytes: &[u8]) -> Option<(u16, String)> {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse::<u16>().ok()?;
    let length = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    (status == 200 || body.len() >= length).then(|| (status, body.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_answers_are_read_when_complete() {
        assert_eq!(
            parse_answer(b"HTTP/1.1 521 <none>\r\ncontent-length: 6\r\n\r\nno ca"),
            None
        );
        assert_eq!(
            parse_answer(b"HTTP/1.1 521 <none>\r\ncontent-length: 6\r\n\r\nno cap"),
            Some((521, "no cap".to_string()))
        );
    }
}
