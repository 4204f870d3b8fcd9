//! `vantage proxy` against the demo simulator.

use assert_cmd::Command;

fn vantage(dir: &tempfile::TempDir) -> Command {
    let mut cmd = Command::cargo_bin("vantage").expect("binary");
    cmd.env("VANTAGE_CONFIG", dir.path().join("none.toml"))
        .env("VANTAGE_DATA_DIR", dir.path())
        .env_remove("VANTAGE_PROXY_USERNAME")
        .env_remove("VANTAGE_PROXY_KEY");
    cmd
}

#[test]
fn socks5_with_country_and_session_prints_the_answer_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let output = vantage(&dir)
        .args([
            "--demo",
            "proxy",
            "http://target.vantage.test/ip",
            "--protocol",
            "socks5",
            "--country",
            "DE",
            "--session",
            "s1",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["status"], 200);
    assert_eq!(answer["exit"]["country"], "DE");
    assert_eq!(answer["username"], "demo-user-country-DE-session-s1");
    assert!(
        answer["proxy_url"]
            .as_str()
            .unwrap()
            .starts_with("socks5h://127.0.0.1:")
    );
    assert_eq!(answer["json"]["options"]["session"], "s1");
    assert_eq!(answer["json"]["ip"], answer["exit"]["ip"]);
}

#[test]
fn failures_exit_with_their_codes_and_sentences() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let output = vantage(&dir)
            .arg("--demo")
            .arg("proxy")
            .args(args)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (code, stderr) = run(&["https://target.vantage.test/", "--city", "Paris"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("Nothing was sent: city"), "{stderr}");
    let (code, stderr) = run(&["http://target.vantage.test/", "--user", "someone-else"]);
    assert_eq!(code, Some(3));
    assert!(stderr.contains("refused the credentials"), "{stderr}");
    let (code, stderr) = run(&["https://target.vantage.test/", "--country", "AQ"]);
    assert_eq!(code, Some(4));
    assert!(stderr.contains("broader location"), "{stderr}");
}

#[test]
fn the_curl_command_masks_the_key_and_sends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let output = vantage(&dir)
        .args([
            "--demo",
            "proxy",
            "https://target.vantage.test/ip",
            "--protocol",
            "http",
            "--curl",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let (note, command) = stdout.split_once('\n').unwrap();
    assert!(note.contains("export VANTAGE_PROXY_KEY="), "{note}");
    assert!(command.starts_with("curl -x http://127.0.0.1:"), "{stdout}");
    assert!(
        command.contains("--proxy-user 'demo-user:'\"$VANTAGE_PROXY_KEY\""),
        "{stdout}"
    );
    assert!(!stdout.contains("demo-token"));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("listened on that port only while vantage ran"),
        "the demo's port is said to be gone: {said}"
    );
    // The CA the command trusts is where it says, in the demo's folder, and is the demo's.
    let ca = dir.path().join("demo").join("demo-proxy-ca.pem");
    assert!(
        command.contains(&format!("--cacert {} ", ca.display())),
        "{stdout}"
    );
    assert!(
        std::fs::read_to_string(&ca)
            .unwrap()
            .contains("BEGIN CERTIFICATE")
    );
}
