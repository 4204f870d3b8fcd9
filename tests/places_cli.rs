//! Places are checked against the location tables on the command line exactly as in the
//! app's pickers: an unknown country, or a subdivision not of that country, is refused with
//! the nearest names before any call is sent (exit 2); common names find their country.

use std::time::Duration;

mod common;

use common::Service;
use tempfile::TempDir;

fn run(service: &Service, dir: &TempDir, args: &[&str]) -> std::process::Output {
    common::run_vantage(&service.sim, dir.path(), args, Duration::from_secs(30))
}

#[test]
fn places_not_in_the_tables_are_refused_before_anything_is_sent() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let cases: [&[&str]; 6] = [
        &["ai", "x", "--country", "XX"],
        &["ai", "x", "--country", "US", "--subdivision", "QQ"],
        &["search", "x", "--country", "ZZ"],
        &["page", "https://example.com/", "--country", "XX"],
        &["compare", "x", "--locations", "us,xx"],
        &["compare-search", "x", "--locations", "us:qq"],
    ];
    for args in cases {
        let before = service.sim.requests_received();
        let output = run(&service, &dir, args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("Nearest:"), "{args:?}: {stderr}");
        assert_eq!(
            service.sim.requests_received(),
            before,
            "{args:?} sent a call"
        );
    }
}

#[test]
fn common_names_of_countries_are_sent_as_their_codes() {
    let service = Service::start();
    let dir = TempDir::new().unwrap();
    let output = run(
        &service,
        &dir,
        &[
            "ai",
            "x",
            "--country",
            "usa",
            "--subdivision",
            "new york",
            "--async",
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let sent = service.sim.submitted_queries();
    let last = sent.last().expect("one call");
    assert!(last.contains(&("country".into(), "US".into())), "{last:?}");
    assert!(
        last.contains(&("subdivision".into(), "NY".into())),
        "{last:?}"
    );
}
