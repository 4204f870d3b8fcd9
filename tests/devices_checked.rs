//! Devices checked before anything is sent, by one rule everywhere: desktop is no device
//! emulation and stands as a column beside a phone; a name the service does not list, or a
//! generic word, is refused with the nearest listed names, exit 2, no call billed.

mod common;

use common::Service;

#[test]
fn an_unlisted_device_is_refused_before_any_call_and_desktop_stands_beside_a_phone() {
    let service = Service::with(common::quick());
    let sim = &service.sim;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let credits = sim.credits();

    let nokia = common::cli::on_sim(dir, sim, &["ai", "x", "--device", "Nokia 3310"]);
    assert_eq!(nokia.status.code(), Some(2), "{nokia:?}");
    let said = String::from_utf8_lossy(&nokia.stderr).into_owned();
    assert!(
        said.contains("Nokia 3310") && said.contains("Nokia N9") && said.contains("desktop"),
        "{said}"
    );
    // Only the device list was asked for, and nothing was billed.
    assert_eq!(sim.requests_received(), 1);
    assert_eq!(sim.credits(), credits);

    let mobile = common::cli::on_sim(dir, sim, &["ai", "x", "--device", "mobile"]);
    assert_eq!(mobile.status.code(), Some(2), "{mobile:?}");
    assert!(String::from_utf8_lossy(&mobile.stderr).contains("iPhone 15"));
    // The list is kept: asking again fetches it no more.
    assert_eq!(sim.requests_received(), 1);

    let compared = common::cli::on_sim(
        dir,
        sim,
        &[
            "compare",
            "best hiking boots",
            "--models",
            "chatgpt",
            "--locations",
            "us",
            "--devices",
            "Desktop,iphone 15",
        ],
    );
    assert_eq!(compared.status.code(), Some(0), "{compared:?}");
    let text = common::cli::stdout(&compared);
    assert!(text.contains("ChatGPT · desktop · US"), "{text}");
    assert!(text.contains("ChatGPT · iPhone 15 · US"), "{text}");

    let empty = common::cli::on_sim(dir, sim, &["compare", "x", "--devices", ",iPhone 15"]);
    assert_eq!(empty.status.code(), Some(2), "{empty:?}");
    assert!(String::from_utf8_lossy(&empty.stderr).contains("desktop for no emulation"));
}

#[test]
fn a_search_is_made_from_a_phone_and_its_device_is_checked_against_the_search_list() {
    let service = Service::with(common::quick());
    let sim = &service.sim;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let args = |device: &str| {
        let mut args = vec!["search", "hiking boots", "--country", "US", "--json"];
        if !device.is_empty() {
            args.extend(["--device", device]);
        }
        args.into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    let run = |device: &str| {
        let args = args(device);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        common::cli::on_sim(dir, sim, &args)
    };
    let organic = |output: &std::process::Output| -> usize {
        let body: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        body["results"]
            .as_array()
            .map(|results| {
                results
                    .iter()
                    .filter(|r| r["type"].as_str() == Some("organic"))
                    .count()
            })
            .unwrap_or(0)
    };

    let desktop = run("");
    assert_eq!(desktop.status.code(), Some(0), "{desktop:?}");
    let phone = run("iphone 15");
    assert_eq!(phone.status.code(), Some(0), "{phone:?}");
    // A phone's page holds fewer results than a desktop's.
    assert!(
        organic(&phone) < organic(&desktop) && organic(&phone) > 0,
        "phone {} desktop {}",
        organic(&phone),
        organic(&desktop)
    );
    // As text, the page says the device it was fetched as (its body does not).
    let text = common::cli::on_sim(
        dir,
        sim,
        &[
            "search",
            "hiking boots",
            "--country",
            "US",
            "--device",
            "iPhone 15",
        ],
    );
    assert_eq!(text.status.code(), Some(0), "{text:?}");
    let first = common::cli::stdout(&text)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(first.ends_with("· as iPhone 15"), "{first}");

    let before = sim.requests_received();
    let nokia = run("Nokia 3310");
    assert_eq!(nokia.status.code(), Some(2), "{nokia:?}");
    let said = String::from_utf8_lossy(&nokia.stderr).into_owned();
    assert!(
        said.contains("vantage devices --search") && said.contains("Nokia N9"),
        "{said}"
    );
    // The search list was kept from the phone's search: nothing was asked.
    assert_eq!(sim.requests_received(), before);
}
