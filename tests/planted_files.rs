//! Files planted by someone else and disks that fill up (part 29): every file vantage writes
//! goes through one safe writer, and output that cannot be written whole is a failure.

use std::path::Path;

#[path = "common/cli.rs"]
mod cli;
use cli::vantage;

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The set `boots` (one Gemini prompt) made in `dir`'s workspace file.
fn make_boots(dir: &Path) {
    let made = vantage(
        dir,
        &[
            "track",
            "set",
            "new",
            "boots",
            "--prompt",
            "best hiking boots",
            "--models",
            "gemini",
        ],
    );
    assert!(made.status.success(), "{}", stderr(&made));
}

/// `program` run in `dir` as [`vantage`] runs the binary there: its data in `dir/data`, no
/// config file, token or workspace from the environment.
fn in_folder(program: &str, dir: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(program);
    command
        .current_dir(dir)
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("none.toml"))
        .env_remove("VANTAGE_TOKEN")
        .env_remove("VANTAGE_WORKSPACE");
    command
}

#[cfg(unix)]
#[test]
fn a_symlink_planted_at_the_workspace_s_temporary_name_never_has_its_target_overwritten() {
    use std::os::unix::fs::{PermissionsExt as _, symlink};
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("root-owned-secret");
    std::fs::write(&victim, "secret = 1\n").unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o600)).unwrap();
    // The names a save has used or might use, each a link to the victim.
    for planted in [
        "vantage.toml.saving",
        "vantage.toml.partial",
        ".vantage.toml.partial",
    ] {
        symlink(&victim, dir.path().join(planted)).unwrap();
    }
    make_boots(dir.path());
    let added = vantage(
        dir.path(),
        &[
            "track",
            "set",
            "add",
            "boots",
            "--prompt",
            "best trail shoes",
        ],
    );
    assert!(added.status.success(), "{}", stderr(&added));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "secret = 1\n");
    let workspace = std::fs::read_to_string(dir.path().join("vantage.toml")).unwrap();
    assert!(workspace.contains("best trail shoes"), "{workspace}");
    // Nothing of the save is left beside it.
    let stray: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".vantage.toml.") && name != ".vantage.toml.partial")
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

#[cfg(unix)]
#[test]
fn a_workspace_keeps_its_mode_and_its_symlink_when_saved() {
    use std::os::unix::fs::{PermissionsExt as _, symlink};
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("shared")).unwrap();
    let real = dir.path().join("shared/vantage.toml");
    std::fs::write(&real, "").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    symlink("shared/vantage.toml", dir.path().join("vantage.toml")).unwrap();
    make_boots(dir.path());
    let link = std::fs::symlink_metadata(dir.path().join("vantage.toml")).unwrap();
    assert!(link.file_type().is_symlink(), "the link is kept");
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("best hiking boots")
    );
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "a 0600 workspace stays 0600");
}

/// `vantage ARGS > /dev/full`: every write fails with "No space left on device".
fn onto_a_full_disk(dir: &Path, args: &[&str]) -> std::process::Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    in_folder(env!("CARGO_BIN_EXE_vantage"), dir)
        .args(args)
        .stdout(full)
        .output()
        .unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn output_onto_a_full_disk_is_a_failure_with_a_sentence_never_exit_zero() {
    let dir = tempfile::tempdir().unwrap();
    let asked = vantage(dir.path(), &["--demo", "ai", "best hiking boots"]);
    assert!(asked.status.success(), "{}", stderr(&asked));
    for args in [
        &["--demo", "ai", "best hiking boots", "--json"][..],
        &["--demo", "history", "--json"],
        &["--demo", "history"],
        &["devices", "--demo"],
        &["man"],
        &["completions", "bash"],
    ] {
        let output = onto_a_full_disk(dir.path(), args);
        let said = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {said}");
        assert!(
            said.contains("could not be written whole") && said.contains("No space left"),
            "{args:?}: {said}"
        );
        assert!(!said.contains("panicked"), "{said}");
    }
}

#[cfg(unix)]
#[test]
fn a_report_cut_short_by_a_full_disk_leaves_the_old_report_whole() {
    let dir = tempfile::tempdir().unwrap();
    make_boots(dir.path());
    let ran = vantage(
        dir.path(),
        &["--demo", "track", "run", "boots", "--wait", "--yes"],
    );
    assert!(
        ran.status.code().is_some_and(|c| c != 101),
        "{}",
        stderr(&ran)
    );
    let report = dir.path().join("report.html");
    std::fs::write(&report, "the old report, whole\n").unwrap();
    // A file size limit of 1 KB: the write past it fails as a full disk's would (the shell's
    // `ulimit -f` counts 512-byte blocks), and the process is stopped by SIGXFSZ there.
    let cut = in_folder("sh", dir.path())
        .arg("-c")
        .arg(format!(
            "ulimit -f 2; exec {} --demo track report boots --format html -o report.html",
            env!("CARGO_BIN_EXE_vantage")
        ))
        .output()
        .unwrap();
    assert!(!cut.status.success(), "{}", stderr(&cut));
    assert_eq!(
        std::fs::read_to_string(&report).unwrap(),
        "the old report, whole\n"
    );
    let whole = vantage(
        dir.path(),
        &[
            "--demo",
            "track",
            "report",
            "boots",
            "--format",
            "html",
            "-o",
            "report.html",
        ],
    );
    assert!(whole.status.success(), "{}", stderr(&whole));
    assert!(std::fs::read_to_string(&report).unwrap().contains("<html"));
}

#[cfg(unix)]
#[test]
fn a_workspace_planted_in_a_parent_folder_writable_by_others_is_used_by_no_command() {
    use std::os::unix::fs::PermissionsExt as _;
    let shared = tempfile::tempdir().unwrap();
    let planted = shared.path().join("vantage.toml");
    let text = "webhook = \"http://attacker.example/hook\"\n\n[[sets]]\nname = \"boots\"\nprompts = [\"planted prompt\"]\nmodels = [\"copilot\"]\n";
    std::fs::write(&planted, text).unwrap();
    std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o666)).unwrap();
    let mine = shared.path().join("me");
    std::fs::create_dir(&mine).unwrap();
    for args in [
        &["--demo", "track", "run", "boots", "--yes"][..],
        &["--demo", "ai", "best hiking boots"],
        &["track", "set", "new", "crm", "--prompt", "my secret prompt"],
        &["--demo", "track", "list"],
    ] {
        let output = vantage(&mine, args);
        let said = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains(&planted.display().to_string()) && said.contains("others may write it"),
            "{args:?}: {said}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&planted).unwrap(),
        text,
        "nothing written into it"
    );
    let history = vantage(&mine, &["--demo", "history", "--json"]);
    let listed = String::from_utf8_lossy(&history.stdout);
    assert!(
        !listed.contains("best hiking boots"),
        "nothing was asked: {listed}"
    );

    // Owned by another user, even with a safe mode: refused the same way (tests run as root,
    // who may give a file away).
    std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o644)).unwrap();
    if std::os::unix::fs::chown(&planted, Some(65534), None).is_ok() {
        let output = vantage(&mine, &["--demo", "track", "list"]);
        let said = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{said}");
        assert!(said.contains("owned by another user"), "{said}");
        // Listed in the config file, it is trusted.
        let config = mine.join("none.toml");
        std::fs::write(
            &config,
            format!("safe_workspaces = [{:?}]\n", planted.display().to_string()),
        )
        .unwrap();
        let output = vantage(&mine, &["--demo", "track", "list"]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_as_config_workspace_or_keys_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let run = |config: &Path, workspace: Option<&Path>, args: &[&str]| {
        let mut command = assert_cmd::Command::new(env!("CARGO_BIN_EXE_vantage"));
        command
            .current_dir(dir.path())
            .env("VANTAGE_DATA_DIR", dir.path().join("data"))
            .env("VANTAGE_CONFIG", config)
            .env_remove("VANTAGE_TOKEN")
            .env_remove("VANTAGE_WORKSPACE")
            .timeout(std::time::Duration::from_secs(20));
        if let Some(workspace) = workspace {
            command.env("VANTAGE_WORKSPACE", workspace);
        }
        command.args(args).output().unwrap()
    };
    let none = dir.path().join("none.toml");
    for (config, workspace, args) in [
        (fifo.as_path(), None, &["--demo", "history"][..]),
        (Path::new("/dev/zero"), None, &["--demo", "history"]),
        (
            none.as_path(),
            Some(fifo.as_path()),
            &["--demo", "track", "list"],
        ),
        (
            none.as_path(),
            Some(Path::new("/dev/zero")),
            &["--demo", "ai", "x"],
        ),
    ] {
        let output = run(config, workspace, args);
        let said = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains("not a regular file"), "{args:?}: {said}");
    }
}

/// A disk that fills at the first open: where the machine lets the test mount a tiny
/// tmpfs (root on Linux), else nothing to check.
#[cfg(target_os = "linux")]
#[test]
fn a_disk_full_at_the_first_open_says_so_and_not_no_such_table() {
    let dir = tempfile::tempdir().unwrap();
    let tiny = dir.path().join("tiny");
    std::fs::create_dir(&tiny).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=48k", "tmpfs"])
        .arg(&tiny)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        return;
    }
    let filled = std::process::Command::new("dd")
        .args(["if=/dev/zero", "bs=1k", "count=40"])
        .arg(format!("of={}", tiny.join("fill").display()))
        .stderr(std::process::Stdio::null())
        .status();
    let run = |args: &[&str]| {
        in_folder(env!("CARGO_BIN_EXE_vantage"), dir.path())
            .env("VANTAGE_DATA_DIR", tiny.join("data"))
            .args(args)
            .output()
            .unwrap()
    };
    let asked = run(&["--demo", "ai", "best hiking boots"]);
    let listed = run(&["--demo", "history"]);
    let _ = std::process::Command::new("umount").arg(&tiny).status();
    assert!(filled.is_ok_and(|s| s.success()));
    assert_eq!(asked.status.code(), Some(6), "{}", stderr(&asked));
    let said = stderr(&listed);
    assert_eq!(listed.status.code(), Some(6), "{said}");
    assert!(
        said.contains("is full") && !said.contains("no such table"),
        "{said}"
    );
}
