//! Two demo processes on one data folder are one simulated service (part 24): the app, open
//! on a pseudo-terminal, and a demo tracking run in another "terminal" at the same time.
//! Every job of the run ends done or failed by the simulator's share, none expired (the app
//! polls the run's jobs through its own simulator, which knows them), and the app's Jobs tab
//! shows them.

use std::process::Command;
use std::time::Duration;

mod common;

use common::pty::OnTerminal;

const BIN: &str = env!("CARGO_BIN_EXE_vantage");

const WORKSPACE: &str = r#"[[brands]]
name = "Merrell"

[[sets]]
name = "boots"
prompts = ["best hiking boots", "waterproof boots"]
models = ["chatgpt", "gemini"]
locations = ["us", "de"]
"#;

fn vantage(home: &std::path::Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env("VANTAGE_DATA_DIR", home.join("data"))
        .env("VANTAGE_CONFIG", home.join("none.toml"))
        .env("TERM", "xterm-256color")
        .env_remove("VANTAGE_TOKEN")
        .env_remove("MASSIVE_TOKEN")
        .current_dir(home)
        .arg("--demo");
    cmd
}

#[test]
fn the_app_and_a_demo_run_at_once_see_one_service_and_no_job_expires() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    std::fs::write(home.join("vantage.toml"), WORKSPACE).unwrap();

    let mut app = OnTerminal::start(vantage(home));
    assert!(
        app.wait_for("DEMO", Duration::from_secs(30)),
        "the app draws"
    );
    // The Jobs tab, where the run's jobs will show as they are queued and polled.
    app.press(b"\x1b3");

    let run = vantage(home)
        .args(["track", "run", "boots", "--wait"])
        .output()
        .expect("the run");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        matches!(run.status.code(), Some(0 | 7)),
        "done, or some failed by the share: {said}"
    );
    assert!(!said.contains("expired"), "{said}");

    // The app polls the same jobs; give it a moment, then read what the demo store holds.
    assert!(
        app.wait_for("done", Duration::from_secs(30)),
        "the app's Jobs tab shows the run's jobs done"
    );
    std::thread::sleep(Duration::from_secs(2));
    app.quit();
    app.assert_restored();

    let listed = vantage(home).args(["jobs", "--json"]).output().unwrap();
    let jobs: Vec<serde_json::Value> = serde_json::from_slice(&listed.stdout).unwrap();
    // Eight calls, and a call that failed is asked again within the run, twice at most.
    assert!((8..=24).contains(&jobs.len()), "{jobs:?}");
    for job in &jobs {
        let state = job["state"].as_str().unwrap_or_default();
        assert!(matches!(state, "done" | "failed"), "{job}");
        if state == "failed" {
            let why = job["last_error"].as_str().unwrap_or_default();
            assert!(why.contains("on purpose"), "a failed job says why: {job}");
        }
    }
}
