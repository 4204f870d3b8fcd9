//! The curl command that makes the same call, for trying it outside the app.

use super::Protocol;
use super::endpoints::ProxyEndpoints;
use super::request::{ProxyRequest, bracket};

/// The environment variable the curl command reads the key from.
const KEY_VARIABLE: &str = "VANTAGE_PROXY_KEY";

/// Where curl is told to find the CA when the endpoints trust a custom root that is not saved
/// anywhere: `vantage sim` prints it, to be saved under this name.
const UNSAVED_ROOT_FILE: &str = "vantage-sim-ca.pem";

/// Quotes for a POSIX shell, only where needed.
fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@%=+,".contains(c))
    {
        text.to_string()
    } else {
        single_quote(text)
    }
}

/// Single quotes for a POSIX shell: nothing inside is expanded.
fn single_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The curl command that makes the same call, after a line about the key. The command reads
/// the key from `$VANTAGE_PROXY_KEY`, so the key never lands in shell history with it. The
/// line before says to export it; with `reveal_key` (a copy the user asked to carry the key)
/// it exports the key itself, behind a leading space that keeps it out of the history of
/// shells set to ignore such lines. With a custom root (demo mode), curl is told to trust
/// the file it is saved in.
pub(crate) fn curl_command(
    request: &ProxyRequest,
    endpoints: &ProxyEndpoints,
    reveal_key: bool,
) -> String {
    let key_line = if reveal_key {
        format!(
            " export {KEY_VARIABLE}={}  # the leading space keeps it out of history where the shell ignores such lines",
            shell_quote(request.key.expose())
        )
    } else {
        format!(
            "# The key is read from ${KEY_VARIABLE}: export {KEY_VARIABLE}=<your proxy key> first."
        )
    };
    let (host, port) = match request.address(endpoints) {
        Ok(address) => address,
        Err(_) => (
            endpoints.network(request.network).host.clone(),
            endpoints.network(request.network).ports.https,
        ),
    };
    let host = bracket(&host);
    let mut parts = vec!["curl".to_string()];
    match request.protocol {
        Protocol::Https => {
            parts.push("-x".into());
            parts.push(format!("https://{host}:{port}"));
        }
        Protocol::Http => {
            parts.push("-x".into());
            parts.push(format!("http://{host}:{port}"));
        }
        Protocol::Socks5 => {
            parts.push("--socks5-hostname".into());
            parts.push(format!("{host}:{port}"));
        }
    }
    parts.push("--proxy-user".into());
    // The username quoted as it is, then the variable in double quotes so the shell expands it.
    let username = format!("{}:", request.full_username());
    parts.push(format!("{}\"${KEY_VARIABLE}\"", single_quote(&username)));
    if endpoints.root.is_some() {
        let root_file = match &endpoints.root_file {
            Some(path) => shell_quote(&path.to_string_lossy()),
            None => UNSAVED_ROOT_FILE.to_string(),
        };
        if request.protocol == Protocol::Https {
            parts.push("--proxy-cacert".into());
            parts.push(root_file.clone());
        }
        parts.push("--cacert".into());
        parts.push(root_file);
    }
    parts.push(shell_quote(request.target_url.trim()));
    format!("{key_line}\n{}", parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Secret;
    use crate::api::proxy::{Network, ProxyOptions};

    #[test]
    fn the_curl_command_reads_the_key_from_the_environment() {
        let key = Secret::new("sekret-key").unwrap();
        let mut request = ProxyRequest::new("USER", key, "https://example.com/a b");
        request.options = ProxyOptions {
            country: Some("US".into()),
            city: Some("New York".into()),
            ..ProxyOptions::default()
        };
        let endpoints = ProxyEndpoints::live("network.joinmassive.com", "isp.joinmassive.com");
        let masked = curl_command(&request, &endpoints, false);
        assert_eq!(
            masked,
            "# The key is read from $VANTAGE_PROXY_KEY: export VANTAGE_PROXY_KEY=<your proxy key> first.\n\
             curl -x https://network.joinmassive.com:65535 --proxy-user 'USER-country-US-city-New%20York:'\"$VANTAGE_PROXY_KEY\" 'https://example.com/a b'"
        );
        assert!(!masked.contains("sekret"));
        let revealed = curl_command(&request, &endpoints, true);
        let (export, command) = revealed.split_once('\n').unwrap();
        assert!(
            export.starts_with(" export VANTAGE_PROXY_KEY=sekret-key  #"),
            "{export}"
        );
        assert!(!command.contains("sekret"), "{command}");
        request.protocol = Protocol::Socks5;
        request.network = Network::Isp;
        request.options = ProxyOptions::default();
        assert!(curl_command(&request, &endpoints, false).contains(
            "\ncurl --socks5-hostname isp.joinmassive.com:8000 --proxy-user 'USER:'\"$VANTAGE_PROXY_KEY\" "
        ));
    }

    #[test]
    fn a_custom_root_is_named_by_the_file_it_is_saved_in() {
        let key = Secret::new("k").unwrap();
        let request = ProxyRequest::new("USER", key, "https://target.example/");
        let ports = crate::api::proxy::Ports::ISP;
        let root = Some(crate::api::proxy::RootCertificate::Pem("PEM".into()));
        let mut endpoints = ProxyEndpoints::custom("127.0.0.1", ports, ports, root);
        assert!(
            curl_command(&request, &endpoints, false)
                .contains("--proxy-cacert vantage-sim-ca.pem --cacert vantage-sim-ca.pem ")
        );
        endpoints.root_file = Some("/data dir/demo-proxy-ca.pem".into());
        assert!(curl_command(&request, &endpoints, false).contains(
            "--proxy-cacert '/data dir/demo-proxy-ca.pem' --cacert '/data dir/demo-proxy-ca.pem' "
        ));
    }
}
