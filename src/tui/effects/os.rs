//! The terminal and the machine: the clipboard (OSC 52, which works over SSH and in tmux),
//! the browser, files, and the switch to the demo simulator.

use std::io;
use std::path::Path;

use crate::api::{Client, ClientSettings};
use crate::app::export::WriteFailure;
use crate::app::settings_memory::{self, Remembered};
use crate::app::{App, Connection, ExportText, Msg, OsEffect};

use super::EffectRunner;
use crate::tui::demo_proxy_defaults;

/// Puts the settings of the last session back before the first frame. No file yet is the
/// first start; a damaged or unknown one is left unused with a notice, and replaced when a
/// setting next changes.
pub fn restore_settings(app: &mut App, data_dir: &Path) {
    let path = data_dir.join(settings_memory::FILE_NAME);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return,
        Err(error) => {
            app.flash_error(format!(
                "The remembered settings could not be read from {}: {error}.",
                path.display()
            ));
            return;
        }
    };
    match Remembered::from_json(&text) {
        Ok(remembered) => remembered.apply(app),
        Err(sentence) => app.flash_error(sentence),
    }
}

/// Replaces the settings file whole: a crash mid-write leaves the old one, never half of it.
fn write_settings(path: &Path, text: &str) -> Result<(), String> {
    let fail = |error: io::Error| {
        format!(
            "The settings could not be remembered in {}: {error}. They apply to this session only.",
            path.display()
        )
    };
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(fail)?;
    }
    crate::safe_file::write(path, text).map_err(fail)
}

impl EffectRunner {
    /// Carries out what touches the terminal or the machine.
    pub(super) async fn run_os(&mut self, effect: OsEffect) -> Option<Msg> {
        match effect {
            OsEffect::Copy(text) => {
                let ExportText::Ready(text) = text else {
                    // Made off the UI task (a comparison's text costs what its answers do),
                    // then copied as made.
                    let tx = self.tx.clone();
                    tokio::task::spawn_blocking(move || {
                        let _ = tx.send(Msg::CopyMade(text.make()));
                    });
                    return None;
                };
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
            OsEffect::WriteFile {
                path,
                contents,
                overwrite,
            } => {
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = write_export(&path, &contents.make(), overwrite);
                    // The full path says where to look, whatever the working directory was.
                    let path = std::path::absolute(&path).unwrap_or(path);
                    let _ = tx.send(Msg::FileWritten { path, result });
                });
                None
            }
            OsEffect::SaveSettings(remembered) => {
                let previous = self.settings_save.take();
                let path = self.data_dir.join(settings_memory::FILE_NAME);
                let text = remembered.to_json();
                let tx = self.tx.clone();
                self.settings_save = Some(tokio::spawn(async move {
                    // One write at a time, in order: the newest settings are the ones kept.
                    if let Some(previous) = previous {
                        let _ = previous.await;
                    }
                    let written =
                        tokio::task::spawn_blocking(move || write_settings(&path, &text)).await;
                    if let Ok(Err(sentence)) = written {
                        let _ = tx.send(Msg::SettingsNotSaved(sentence));
                    }
                }));
                None
            }
            OsEffect::SwitchToDemo(prices) => {
                Some(Msg::DemoStarted(self.switch_to_demo(prices).await))
            }
            OsEffect::ReadUserFiles => {
                if let Some(files) = self.user_files.clone() {
                    let tx = self.tx.clone();
                    tokio::task::spawn_blocking(move || {
                        for msg in files.read_changes() {
                            let _ = tx.send(msg);
                        }
                    });
                }
                None
            }
            OsEffect::Quit => {
                // A setting changed just before quitting is still kept.
                if let Some(save) = self.settings_save.take() {
                    let _ = save.await;
                }
                None
            }
        }
    }

    /// Starts the embedded simulator (billing by `prices`), points every later call at it,
    /// and keeps what follows in the demo's own store (the live one is closed): nothing
    /// simulated joins live data.
    async fn switch_to_demo(&mut self, prices: crate::price::Prices) -> Result<Connection, String> {
        let demo_dir = crate::config::demo_data_dir(&self.data_dir);
        let simulator = crate::sim::demo::start(&demo_dir, prices)
            .await
            .map_err(|e| e.to_string())?;
        let options = self.store_options.clone();
        let opening = {
            let demo_dir = demo_dir.clone();
            tokio::task::spawn_blocking(move || crate::store::Store::open_in(&demo_dir, options))
        };
        let demo_store = match opening.await {
            Ok(Ok(store)) => store,
            Ok(Err(error)) => return Err(format!("its store did not open: {error}")),
            Err(stopped) => return Err(format!("opening its store stopped ({stopped})")),
        };
        self.close_store().await;
        super::super::watch_store(&demo_store, self.tx.clone());
        self.store = Some(demo_store);
        self.data_dir = demo_dir;
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
    open::that_detached(url).map_err(|e| opener_failure(&e))
}

/// What went wrong with the platform's opener, as a sentence: its own message names a
/// launcher and an exit status, which tell a user nothing.
fn opener_failure(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => {
            "no program that opens links is installed (on Linux: xdg-open)".to_string()
        }
        _ => "the system's link opener found no browser to open it with".to_string(),
    }
}

/// Writes an export: a missing folder is made first; an existing file is left alone unless
/// `overwrite` (checked again by the rename, so nothing slips in between).
pub(super) fn write_export(
    path: &std::path::Path,
    contents: &str,
    overwrite: bool,
) -> Result<(), WriteFailure> {
    use std::io::Write as _;
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty())
        && !folder.is_dir()
    {
        std::fs::create_dir_all(folder).map_err(|e| WriteFailure::Folder {
            folder: folder.to_path_buf(),
            reason: e.to_string(),
        })?;
    }
    let failed = |e: io::Error| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            WriteFailure::Exists
        } else {
            WriteFailure::Write(e.to_string())
        }
    };
    let mut file = match overwrite {
        true => crate::safe_file::SafeFile::create(path),
        false => crate::safe_file::SafeFile::create_new(path),
    }
    .map_err(failed)?;
    file.write_all(contents.as_bytes()).map_err(failed)?;
    file.commit().map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_makes_its_folder_and_keeps_an_existing_file_unless_told() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new/folder/answer.md");
        assert_eq!(write_export(&path, "one", false), Ok(()));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one");
        assert_eq!(write_export(&path, "two", false), Err(WriteFailure::Exists));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one");
        assert_eq!(write_export(&path, "three", true), Ok(()));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "three");
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, "x").unwrap();
        let path = blocker.join("sub/answer.md");
        match write_export(&path, "one", false) {
            Err(WriteFailure::Folder { folder, .. }) => assert_eq!(folder, blocker.join("sub")),
            other => panic!("expected a folder failure, got {other:?}"),
        }
    }

    /// A comparison's export and copy are made off the UI task: the runner writes the made
    /// text, and a copy comes back as a message that copies what was made.
    #[tokio::test]
    async fn exports_and_copies_are_made_by_the_runner() {
        use crate::app::compare::{ColumnExport, CompareExport};
        use crate::app::{CompareForm, Effect};
        let dir = tempfile::tempdir().unwrap();
        let client = Client::new(ClientSettings::new(
            "http://127.0.0.1:9",
            "http://127.0.0.1:9",
            crate::api::Secret::new("t".to_string()),
        ))
        .unwrap();
        let (mut runner, mut rx) = super::super::test_runner(client, dir.path().to_path_buf());
        let mut app = crate::app::test_support::demo_app();
        let compare = CompareExport {
            mode: crate::present::compare::CompareMode::Answers,
            prompt: "best <b>boots</b>".to_string(),
            columns: vec![ColumnExport {
                label: "ChatGPT".to_string(),
                answer: Some(("chatgpt · US".to_string(), "Lowa **leads**.".to_string())),
                error: None,
            }],
            labels: vec!["ChatGPT".to_string()],
            summary: None,
            mention_rows: Vec::new(),
            sampled: None,
            samples: 1,
            samples_per_column: 1,
            sort: Default::default(),
            table: Vec::new(),
            ranks: Vec::new(),
        };
        let path = dir.path().join("cmp.md");
        let text = |form| ExportText::Comparison(Box::new(compare.clone()), form);
        let effects = vec![
            Effect::Os(OsEffect::WriteFile {
                path: path.clone(),
                contents: text(CompareForm::Markdown),
                overwrite: false,
            }),
            Effect::Os(OsEffect::Copy(text(CompareForm::Html))),
        ];
        runner.run_all(effects, &mut app).await;
        assert!(runner.copied.is_empty(), "copied once made, not before");
        for _ in 0..2 {
            let msg = tokio::time::timeout(std::time::Duration::from_secs(10), rx.recv())
                .await
                .unwrap()
                .unwrap();
            let more = crate::app::update(&mut app, msg);
            runner.run_all(more, &mut app).await;
        }
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(written.starts_with("# Comparison"), "{written}");
        assert!(written.contains("best \\<b\\>boots"), "{written}");
        assert_eq!(runner.copied.len(), 1);
        assert!(runner.copied[0].starts_with("<!doctype html>"));
        assert!(runner.copied[0].contains("<strong>leads</strong>"));
    }

    #[test]
    fn an_opener_that_fails_is_said_in_words_not_its_exit_status() {
        let failed = io::Error::other(
            "Launcher \"xdg-open\" \"https://x\" failed with ExitStatus(unix_wait_status(512))",
        );
        let said = opener_failure(&failed);
        assert!(!said.contains("ExitStatus"), "{said}");
        assert!(said.contains("no browser"), "{said}");
        let missing = io::Error::from(io::ErrorKind::NotFound);
        assert!(opener_failure(&missing).contains("xdg-open"));
    }
}
