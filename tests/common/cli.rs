//! The installed binary as a user runs it from a folder of their own: its data and config in
//! that folder, no token, no workspace but the folder's.

use std::path::Path;
use std::process::Output;

/// `vantage ARGS` run in `dir`, with its data in `dir/data` and no config file, token or
/// workspace from the environment; at most two minutes.
pub fn vantage(dir: &Path, args: &[&str]) -> Output {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_vantage"))
        .current_dir(dir)
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("none.toml"))
        .env_remove("VANTAGE_TOKEN")
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_WORKSPACE")
        .args(args)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap()
}

/// What a command printed on stdout, as text.
#[allow(dead_code)]
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `vantage ARGS` run in `dir` against the simulator `sim` (its token and URLs), with its data
/// in `dir/data`, no config file, and the pauses before re-asking a failed call cut to
/// milliseconds; at most two minutes.
#[allow(dead_code)]
pub fn on_sim(dir: &Path, sim: &vantage::sim::Simulator, args: &[&str]) -> Output {
    assert_cmd::Command::from_std(command_on_sim(dir, sim, args))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap()
}

/// The command [`on_sim`] runs, for a test that starts it and stops it midway.
#[allow(dead_code)]
pub fn command_on_sim(
    dir: &Path,
    sim: &vantage::sim::Simulator,
    args: &[&str],
) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_vantage"));
    command
        .current_dir(dir)
        .env("VANTAGE_TOKEN", sim.token())
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_WORKSPACE")
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("no-config.toml"))
        .env("VANTAGE_REASK_PAUSE_MS", "20")
        .args(["--render-url", &sim.url(), "--search-url", &sim.url()])
        .args(args);
    command
}
