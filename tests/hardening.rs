//! The binary on an unlucky machine: no place for its log or data, a broken config file
//! holding the token. Each case: a clear sentence, no panic, no secret, the user's files
//! unchanged.
//!
//! Tests run as root, where `chmod -w` stops nothing; the unwritable places here are ones
//! root cannot write either: a data folder under a regular file (creating it fails with
//! "Not a directory") and a log path that is a folder.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

mod common;

use assert_cmd::Command;
use common::Service;
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_vantage");
const SECRET: &str = "sk-live-0a1b2c3d4e5f6a7b";

impl Service {
    /// `vantage ARGS…` against the simulator, with the given data folder and config file.
    fn run(&self, data_dir: &Path, config: &Path, args: &[&str]) -> Output {
        let url = self.sim.url();
        vantage(data_dir, config)
            .env("VANTAGE_TOKEN", self.sim.token())
            .args(["--render-url", &url, "--search-url", &url])
            .args(args)
            .output()
            .expect("vantage runs")
    }
}

fn vantage(data_dir: &Path, config: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env("VANTAGE_DATA_DIR", data_dir)
        .env("VANTAGE_CONFIG", config)
        .env_remove("VANTAGE_TOKEN")
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_RENDER_URL")
        .env_remove("VANTAGE_SEARCH_URL")
        .env_remove("VANTAGE_LOG")
        .timeout(Duration::from_secs(20));
    cmd
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn assert_no_panic(output: &Output) {
    let err = stderr(output);
    assert_ne!(output.status.code(), Some(101), "panicked: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_data_folder_that_cannot_be_made_leaves_the_commands_working_without_a_log() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let blocker = dir.path().join("file.txt");
    std::fs::write(&blocker, "a regular file").unwrap();
    let data_dir = blocker.join("data");
    let config = dir.path().join("config.toml");

    let output = service.run(&data_dir, &config, &["devices"]);
    assert_no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!output.stdout.is_empty(), "the devices are listed");
    let err = stderr(&output);
    assert_eq!(err.matches("Running without a log").count(), 1, "{err}");
    assert!(err.contains("could not be made"), "{err}");
    assert!(err.contains(&data_dir.display().to_string()), "{err}");
    assert!(err.contains("VANTAGE_DATA_DIR"), "{err}");
    assert_eq!(std::fs::read(&blocker).unwrap(), b"a regular file");
}

#[test]
fn a_log_that_cannot_be_opened_is_said_once_and_the_command_runs() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let data_dir = dir.path().join("data");
    std::fs::create_dir_all(data_dir.join("vantage.log")).unwrap();
    let config = dir.path().join("config.toml");

    let output = service.run(&data_dir, &config, &["ai", "best hiking boots"]);
    assert_no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!output.stdout.is_empty(), "the answer is printed");
    let err = stderr(&output);
    assert_eq!(err.matches("Running without a log").count(), 1, "{err}");
    assert!(
        err.contains(&data_dir.join("vantage.log").display().to_string()),
        "{err}"
    );
    assert!(data_dir.join("vantage.log").is_dir(), "left as it was");
}

#[test]
fn a_writable_data_folder_gets_a_log_and_no_warning() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let data_dir = dir.path().join("data");
    let output = service.run(&data_dir, &dir.path().join("none.toml"), &["devices"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stderr(&output).contains("without a log"));
    assert!(data_dir.join("vantage.log").is_file());
}

#[test]
fn a_malformed_config_names_line_and_key_but_never_the_token() {
    let variants = [
        format!("token = \"{SECRET}"),
        format!("token = {SECRET}"),
        format!("timeout_secs = 30\ntoken = \"{SECRET}\"\ntoken = \"{SECRET}\""),
        format!("timeout_secs = \"{SECRET}\""),
        format!("tokne = \"{SECRET}\""),
        format!("token = \"{SECRET}\" # ok\n[render"),
    ];
    for text in variants {
        let dir = TempDir::new().unwrap();
        let config = dir.path().join("config.toml");
        std::fs::write(&config, &text).unwrap();
        let output = vantage(&dir.path().join("data"), &config)
            .args(["devices"])
            .output()
            .expect("vantage runs");
        assert_no_panic(&output);
        let err = stderr(&output);
        let out = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(2), "{text:?}: {err}");
        assert!(
            !err.contains(SECRET) && !out.contains(SECRET),
            "{text:?}: {err}"
        );
        assert!(!err.contains("0a1b2c"), "no part of it: {err}");
        assert!(err.contains(&config.display().to_string()), "{err}");
        assert!(err.contains("line "), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one sentence: {err}");
        assert_eq!(std::fs::read_to_string(&config).unwrap(), text, "unchanged");
    }
}

/// A database that can only be read (its journal's place is taken by a folder, which stops
/// root too) still lists the jobs.
#[test]
fn jobs_are_listed_from_a_database_that_can_only_be_read() {
    use vantage::api::{AiRequest, JobId};
    use vantage::store::{DB_FILE, NewJob, RequestParams, Store, StoreOptions};

    let dir = TempDir::new().unwrap();
    let data_dir = dir.path().join("data");
    let id = JobId::parse("00000000-0000-4000-8000-000000000042").unwrap();
    let store = Store::open_in(&data_dir, StoreOptions::default()).unwrap();
    store
        .record_job(NewJob::submitted(
            id.clone(),
            RequestParams::Ai(AiRequest::new("kept")),
        ))
        .wait()
        .unwrap();
    drop(store);
    std::fs::create_dir(data_dir.join(format!("{DB_FILE}-wal"))).unwrap();
    let before = std::fs::read(data_dir.join(DB_FILE)).unwrap();

    let output = vantage(&data_dir, &dir.path().join("none.toml"))
        .args(["jobs", "--json"])
        .output()
        .expect("vantage runs");
    assert_no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains(id.as_str()));
    assert_eq!(std::fs::read(data_dir.join(DB_FILE)).unwrap(), before);
}
