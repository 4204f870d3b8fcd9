//! The terminal and the machine: the clipboard (OSC 52, which works over SSH and in tmux),
//! the browser, files, and the switch to the demo simulator.

use std::io;

use crate::api::{Client, ClientSettings};
use crate::app::{Connection, Msg, OsEffect};

use super::EffectRunner;
use crate::tui::demo_proxy_defaults;

impl EffectRunner {
    /// Carries out what touches the terminal or the machine.
    pub(super) async fn run_os(&mut self, effect: OsEffect) -> Option<Msg> {
        match effect {
            OsEffect::Copy(text) => {
                if self.real_terminal {
                    copy_with_osc52(&text);
                }
                self.copied.push(text);
                None
            }
            OsEffect::OpenUrl(url) => {
                self.opened.push(url.clone());
                if !self.real_terminal {
                    return Some(Msg::Opened {
                        url,
                        result: Ok(()),
                    });
                }
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = open_in_browser(&url);
                    let _ = tx.send(Msg::Opened { url, result });
                });
                None
            }
            OsEffect::WriteFile { path, contents } => {
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = std::fs::write(&path, contents).map_err(|e| e.to_string());
                    // The full path says where to look, whatever the working directory was.
                    let path = std::path::absolute(&path).unwrap_or(path);
                    let _ = tx.send(Msg::FileWritten { path, result });
                });
                None
            }
            OsEffect::SwitchToDemo => Some(Msg::DemoStarted(self.switch_to_demo().await)),
            OsEffect::Quit => None,
        }
    }

    /// Starts the embedded simulator and points every later call at it.
    async fn switch_to_demo(&mut self) -> Result<Connection, String> {
        let simulator = crate::sim::demo::start(&self.data_dir)
            .await
            .map_err(|e| e.to_string())?;
        let settings = ClientSettings::new(
            &simulator.url(),
            &simulator.url(),
            crate::api::Secret::new(simulator.token()),
        );
        self.client = Client::new(settings).map_err(|e| e.to_string())?;
        let proxy = demo_proxy_defaults(&simulator);
        self.proxy = proxy.endpoints.clone();
        let _ = self.tx.send(Msg::ProxyDefaults(proxy));
        let connection = Connection {
            demo: true,
            host: self.client.render_host(),
            token: Some("demo".to_string()),
            token_hint: "the demo simulator".to_string(),
        };
        self.demo = Some(simulator);
        Ok(connection)
    }
}

/// Copies through the terminal (OSC 52), which works over SSH and inside tmux. The text is
/// cleaned first: a control sequence in it would be pasted into whatever reads the clipboard.
fn copy_with_osc52(text: &str) {
    let text = crate::sanitize::for_terminal(text);
    let _ = crossterm::execute!(
        io::stdout(),
        crossterm::clipboard::CopyToClipboard::to_clipboard_from(text.as_ref())
    );
}

/// Opens an http(s) link with the platform's opener, detached. The `open` crate passes the
/// URL as one argument, never through a shell, so a service-supplied `&` runs nothing.
fn open_in_browser(url: &str) -> Result<(), String> {
    if !(url.starts_with("https://") || url.starts_with("http://")) {
        return Err("only http(s) links are opened".to_string());
    }
    open::that_detached(url).map_err(|e| format!("no opener ({e})"))
}
