//! What a new user of `--demo` meets where the simulator follows the live service: the
//! devices grouped by kind under Puppeteer's names, a device named in any case, and a page
//! on a domain that does not exist refused with the service's own sentence.

use std::process::Output;

use assert_cmd::Command;
use tempfile::TempDir;

fn demo(dir: &TempDir, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vantage"))
        .env("VANTAGE_DATA_DIR", dir.path().join("data"))
        .env("VANTAGE_CONFIG", dir.path().join("config.toml"))
        .env_remove("VANTAGE_TOKEN")
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_RENDER_URL")
        .env_remove("VANTAGE_SEARCH_URL")
        .arg("--demo")
        .args(args)
        .output()
        .expect("vantage runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn demo_devices_lists_phones_then_tablets_alphabetized() {
    let dir = TempDir::new().unwrap();
    let output = demo(&dir, &["devices"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let shown = text(&output.stdout);
    let groups: Vec<&str> = shown.split("\n\n").collect();
    assert_eq!(groups.len(), 2, "{shown}");
    assert!(groups[0].starts_with("Phones ("), "{shown}");
    assert!(groups[1].starts_with("Tablets ("), "{shown}");
    let members = |group: &str| -> Vec<String> {
        group
            .lines()
            .skip(1)
            .map(|l| l.trim().to_string())
            .collect()
    };
    let (phones, tablets) = (members(groups[0]), members(groups[1]));
    for list in [&phones, &tablets] {
        let lowered: Vec<String> = list.iter().map(|n| n.to_lowercase()).collect();
        assert!(lowered.windows(2).all(|w| w[0] < w[1]), "{list:?}");
    }
    assert!(phones.contains(&"iPhone 14".to_string()), "{shown}");
    assert!(phones.contains(&"BlackBerry Z30".to_string()), "{shown}");
    assert!(
        tablets.contains(&"Blackberry PlayBook".to_string()),
        "{shown}"
    );
    assert!(
        tablets.contains(&"iPad Mini landscape".to_string()),
        "{shown}"
    );
    assert!(!phones.iter().any(|n| n.starts_with("iPad")), "{shown}");
    assert!(groups[0].starts_with(&format!("Phones ({})", phones.len())));
}

#[test]
fn demo_answers_a_device_named_in_any_case() {
    let dir = TempDir::new().unwrap();
    let output = demo(&dir, &["ai", "x", "--device", "iphone 14", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let reading: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(reading["device"], "iPhone 14", "{reading}");
}

#[test]
fn a_page_on_a_domain_that_does_not_exist_says_so_and_fails() {
    let dir = TempDir::new().unwrap();
    let output = demo(&dir, &["page", "https://shop.invalid/boots"]);
    assert_eq!(output.status.code(), Some(4), "{}", text(&output.stdout));
    assert_eq!(text(&output.stdout), "");
    let said = text(&output.stderr);
    assert!(said.contains("\"Domain is nonexistant\" (404)"), "{said}");
    let history = demo(&dir, &["history"]);
    let listed = text(&history.stdout);
    assert!(listed.contains("shop.invalid"), "{listed}");
}
