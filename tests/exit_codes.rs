//! The exit-code table of docs/exit-codes.md, one case per code: 0 done, 2 invalid input, 3 credentials,
//! 4 the service's error, 5 no answer (a SOCKS5 refusal included), 6 local storage (a job
//! that cannot be stored still prints its id), and `vantage store check`/`recover`.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

mod common;

use common::damage_middle_pages;

use assert_cmd::Command;
use common::Service;
use tempfile::TempDir;
use vantage::api::{AiRequest, SearchRequest};
use vantage::store::{Body, DB_FILE, RequestParams, Store, StoreOptions, now_ms};

const BIN: &str = env!("CARGO_BIN_EXE_vantage");

impl Service {
    fn run(&self, data_dir: &Path, args: &[&str]) -> Output {
        let url = self.sim.url();
        vantage(data_dir)
            .env("VANTAGE_TOKEN", self.sim.token())
            .args(["--render-url", &url, "--search-url", &url])
            .args(args)
            .output()
            .expect("vantage runs")
    }
}

fn vantage(data_dir: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env("VANTAGE_DATA_DIR", data_dir)
        // A config file that does not exist: the defaults.
        .env("VANTAGE_CONFIG", "/nonexistent-vantage-test/none.toml")
        .env_remove("VANTAGE_TOKEN")
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_PROXY_USERNAME")
        .env_remove("VANTAGE_PROXY_KEY")
        .env_remove("VANTAGE_LOG")
        .timeout(Duration::from_secs(30));
    cmd
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A data folder that cannot be made, even by root: its parent is a regular file.
fn data_dir_under_a_file(dir: &TempDir) -> PathBuf {
    let blocker = dir.path().join("file.txt");
    std::fs::write(&blocker, "a regular file").expect("write");
    blocker.join("data")
}

#[test]
fn each_outcome_has_its_code() {
    let service = Service::start();
    let dir = TempDir::new().expect("temp dir");
    let data = dir.path().join("data");

    let ok = service.run(&data, &["devices"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));

    let invalid = service.run(&data, &["search", "boots", "--serps", "99"]);
    assert_eq!(invalid.status.code(), Some(2), "{}", stderr(&invalid));

    let no_token = vantage(&data)
        .args(["--render-url", &service.sim.url(), "devices"])
        .output()
        .expect("vantage runs");
    assert_eq!(no_token.status.code(), Some(3), "{}", stderr(&no_token));

    let unknown_job = service.run(
        &data,
        &["job", "ai", "00000000-0000-4000-8000-00000000dead"],
    );
    assert_eq!(
        unknown_job.status.code(),
        Some(4),
        "{}",
        stderr(&unknown_job)
    );

    // A port that was free a moment ago: nothing listens there.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", closed.local_addr().expect("address"));
    drop(closed);
    let unreachable = vantage(&data)
        .env("VANTAGE_TOKEN", "any")
        .args(["--render-url", &url, "devices"])
        .output()
        .expect("vantage runs");
    assert_eq!(
        unreachable.status.code(),
        Some(5),
        "{}",
        stderr(&unreachable)
    );
}

#[test]
fn a_socks5_refusal_means_no_answer() {
    let dir = TempDir::new().expect("temp dir");
    let output = vantage(&dir.path().join("data"))
        .args(["--demo", "proxy", "http://target.vantage.test/ip"])
        .args(["--protocol", "socks5", "--country", "AQ"])
        .output()
        .expect("vantage runs");
    assert_eq!(output.status.code(), Some(5), "{}", stderr(&output));
    assert!(stderr(&output).contains("SOCKS5"), "{}", stderr(&output));
}

#[test]
fn a_queued_job_that_cannot_be_stored_still_prints_its_id_and_exits_6() {
    let service = Service::start();
    let dir = TempDir::new().expect("temp dir");
    let data = data_dir_under_a_file(&dir);
    for args in [
        &["ai", "boots", "--async"][..],
        &["search", "boots", "--async"],
    ] {
        let output = service.run(&data, args);
        let id = stdout(&output).trim().to_string();
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(6), "{args:?}: {err}");
        assert_eq!(id.len(), 36, "{args:?}: the id is printed: {id:?}");
        assert!(
            err.contains(&format!("vantage job {} {id}", args[0])),
            "{err}"
        );
        assert!(err.contains("VANTAGE_DATA_DIR"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let listed = service.run(&data, &["jobs"]);
    assert_eq!(listed.status.code(), Some(6), "{}", stderr(&listed));
    assert_eq!(
        std::fs::read(dir.path().join("file.txt")).expect("read"),
        b"a regular file"
    );
}

/// A closed database big enough to damage in its middle, built on a thread of its own as it
/// blocks on the writes.
fn filled_database(folder: &Path) -> PathBuf {
    let folder = folder.to_path_buf();
    std::thread::spawn(move || {
        let store = Store::open_in(&folder, StoreOptions::default()).expect("store");
        for n in 0..300 {
            let (id, _) =
                store.add_request(RequestParams::Search(SearchRequest::new(format!("q{n}"))));
            let body = Body {
                status: 200,
                text: "answer text ".repeat(150),
                elapsed_ms: 10,
                received_at: now_ms(),
            };
            store.add_response(&id, body).detach();
        }
        store
            .add_request(RequestParams::Ai(AiRequest::new("last")))
            .1
            .wait()
            .expect("written");
        folder.join(DB_FILE)
    })
    .join()
    .expect("filled")
}

#[test]
fn store_check_says_whole_or_damaged_and_recover_puts_a_whole_store_in_place() {
    let dir = TempDir::new().expect("temp dir");
    let data = dir.path().join("data");
    let path = filled_database(&data);

    let whole = vantage(&data)
        .args(["store", "check"])
        .output()
        .expect("runs");
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    assert!(stdout(&whole).contains("is whole"), "{}", stdout(&whole));

    damage_middle_pages(&path);
    let before = std::fs::read(&path).expect("read");
    let damaged = vantage(&data)
        .args(["store", "check"])
        .output()
        .expect("runs");
    assert_eq!(damaged.status.code(), Some(6), "{}", stderr(&damaged));
    assert!(
        stdout(&damaged).contains("is damaged"),
        "{}",
        stdout(&damaged)
    );
    assert!(stderr(&damaged).contains("vantage store recover"));

    let recovered = vantage(&data)
        .args(["store", "recover"])
        .output()
        .expect("runs");
    assert_eq!(recovered.status.code(), Some(0), "{}", stderr(&recovered));
    let text = stdout(&recovered);
    assert!(text.contains("requests") && text.contains("kept"), "{text}");
    let said = stderr(&recovered);
    assert!(!said.contains("store recover"), "no circle: {said}");
    let aside = std::fs::read_dir(&data)
        .expect("listed")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|p| {
            let name = p.to_string_lossy();
            name.contains("vantage-damaged-") && name.ends_with(".db")
        })
        .expect("the damaged file kept aside");
    assert!(said.contains(&aside.display().to_string()), "{said}");
    assert_eq!(
        std::fs::read(&aside).expect("read"),
        before,
        "kept as it was"
    );
    assert!(Store::check(&path).expect("check").is_whole());
    let listed = vantage(&data).args(["history"]).output().expect("runs");
    assert_eq!(listed.status.code(), Some(0), "{}", stderr(&listed));
}

#[test]
fn a_store_cut_short_or_no_database_at_all_is_recovered_not_sent_round_in_a_circle() {
    for cut in [Some(2), None] {
        let dir = TempDir::new().expect("temp dir");
        let data = dir.path().join("data");
        let path = filled_database(&data);
        match cut {
            Some(part) => {
                let bytes = std::fs::read(&path).expect("read");
                std::fs::write(&path, &bytes[..bytes.len() / part]).expect("cut");
            }
            None => std::fs::write(&path, b"not a database at all ".repeat(500)).expect("written"),
        }
        let refused = vantage(&data).args(["history"]).output().expect("runs");
        assert_eq!(refused.status.code(), Some(6), "{}", stderr(&refused));
        assert!(stderr(&refused).contains("vantage store recover"));

        let recovered = vantage(&data)
            .args(["store", "recover"])
            .output()
            .expect("runs");
        assert_eq!(recovered.status.code(), Some(0), "{}", stderr(&recovered));
        assert!(
            !stderr(&recovered).contains("store recover"),
            "{}",
            stderr(&recovered)
        );
        let listed = vantage(&data).args(["history"]).output().expect("runs");
        assert_eq!(
            listed.status.code(),
            Some(0),
            "{cut:?}: {}",
            stderr(&listed)
        );
        if cut.is_some() {
            assert!(!stdout(&listed).is_empty(), "rows before the cut are kept");
        } else {
            assert!(
                stdout(&recovered).contains("Nothing in"),
                "{}",
                stdout(&recovered)
            );
        }
    }
}

#[test]
fn store_commands_without_a_database_say_so() {
    let dir = TempDir::new().expect("temp dir");
    let output = vantage(&dir.path().join("data"))
        .args(["store", "check"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr(&output).contains("no history database"),
        "{}",
        stderr(&output)
    );
}
