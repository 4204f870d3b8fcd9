//! A `--workspace` path that cannot be read as a workspace file (not there, a folder, bytes
//! that are not text) is refused by every command that takes one, with a sentence naming the
//! path and what is wrong with it, and the invalid-input exit code.

use std::path::Path;
use std::process::Command;

/// The address of a port nothing listens on: nothing may be sent anyway.
fn nothing_listens() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("address")
        .port();
    format!("http://127.0.0.1:{port}")
}

fn vantage(home: &Path, args: &[&str]) -> std::process::Output {
    let url = nothing_listens();
    Command::new(env!("CARGO_BIN_EXE_vantage"))
        .current_dir(home)
        .env("VANTAGE_DATA_DIR", home.join("data"))
        .env("VANTAGE_CONFIG", home.join("none.toml"))
        .env("VANTAGE_TOKEN", "workspace-test-token")
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_WORKSPACE")
        .args(["--render-url", &url, "--search-url", &url])
        .args(args)
        .output()
        .expect("vantage runs")
}

#[test]
fn a_workspace_path_that_cannot_be_read_is_refused_with_what_is_wrong() {
    let home = tempfile::tempdir().expect("temp dir");
    let missing = home.path().join("nowhere.toml");
    let folder = home.path().join("a-folder");
    std::fs::create_dir(&folder).expect("folder");
    let binary = home.path().join("picture.toml");
    std::fs::write(&binary, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe").expect("binary");
    let with_nul = home.path().join("nul.toml");
    std::fs::write(&with_nul, b"[[brands]]\x00name = \"x\"\n").expect("nul");
    // A good workspace here, which a bad path given must not silently fall back to.
    std::fs::write(
        home.path().join("vantage.toml"),
        "[[sets]]\nname = \"boots\"\nprompts = [\"best boots\"]\n",
    )
    .expect("workspace");
    let export = home.path().join("export.jsonl");
    std::fs::write(&export, "").expect("export file");
    let export = export.to_string_lossy().into_owned();

    let cases = [
        (&missing, "There is no workspace file at"),
        (&folder, "is a folder, not a workspace file"),
        (&binary, "is not text"),
        (&with_nul, "is not text"),
    ];
    for (path, what_is_wrong) in cases {
        let path = path.to_string_lossy().into_owned();
        let ws = ["--workspace", path.as_str()];
        let commands: Vec<Vec<&str>> = vec![
            vec!["track", "list"],
            vec!["track", "list", "--json"],
            vec!["track", "trends", "boots"],
            vec!["track", "report", "boots"],
            vec!["track", "report", "boots", "--format", "html"],
            vec!["track", "check", "boots"],
            vec!["track", "run", "boots", "--dry-run"],
            vec!["track", "export", "boots"],
            vec!["track", "import", &export],
            vec!["ai", "boots"],
            vec!["ai", "boots", "--brands", "Merrell"],
            vec!["compare", "boots", "--models", "chatgpt,gemini"],
        ];
        for mut args in commands {
            args.extend(ws);
            let output = vantage(home.path(), &args);
            let what = args.join(" ");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(vantage::exit::INVALID_INPUT),
                "{what}: {stderr}"
            );
            assert!(
                stderr.contains(what_is_wrong) && stderr.contains(&path),
                "{what}: {stderr}"
            );
            assert!(output.stdout.is_empty(), "{what}: nothing listed");
        }
    }
    // `track set` may create the file it is given, but not over a folder or a binary file.
    for (path, what_is_wrong) in [(&folder, "is a folder"), (&binary, "is not text")] {
        let path = path.to_string_lossy().into_owned();
        let output = vantage(
            home.path(),
            &[
                "track",
                "set",
                "add",
                "new",
                "--prompt",
                "x",
                "--workspace",
                &path,
            ],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(what_is_wrong), "{stderr}");
    }
}

#[test]
fn the_workspace_found_here_still_reads_and_none_is_no_error() {
    let home = tempfile::tempdir().expect("temp dir");
    let output = vantage(home.path(), &["track", "list"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    std::fs::write(
        home.path().join("vantage.toml"),
        "[[sets]]\nname = \"boots\"\nprompts = [\"best boots\"]\n",
    )
    .expect("workspace");
    let output = vantage(home.path(), &["track", "list"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("set boots"));
}
