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
