//! `vantage jobs resubmit`, as the Jobs tab's `R` from a script: a failed job asked again
//! prints its old and new ids and takes its place; a job that has not failed, or an id that
//! names none, is refused with exit 2 and nothing sent.

use std::path::Path;
use std::process::Output;

mod common;

use common::Service;
use vantage::sim::{SimConfig, Simulator};

fn vantage(dir: &Path, sim: &Simulator, args: &[&str]) -> Output {
    common::cli::on_sim(dir, sim, args)
}

#[test]
fn a_failed_job_is_asked_again_and_one_that_did_not_fail_is_refused() {
    // Every job fails, so the one asked again fails too: what is tested is the asking.
    let service = Service::with(SimConfig {
        job_fail_share: 1.0,
        ..common::quick()
    });
    let sim = &service.sim;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let queued = vantage(dir, sim, &["ai", "best hiking boots", "--async"]);
    assert_eq!(queued.status.code(), Some(0), "{queued:?}");
    let watched = vantage(dir, sim, &["jobs", "watch"]);
    assert_eq!(watched.status.code(), Some(4), "{watched:?}");
    let jobs: serde_json::Value =
        serde_json::from_slice(&vantage(dir, sim, &["jobs", "--json"]).stdout).unwrap();
    let old = jobs[0]["id"].as_str().unwrap().to_string();
    assert_eq!(jobs[0]["state"], "failed", "{jobs}");

    let again = vantage(dir, sim, &["jobs", "resubmit", &old[..8]]);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    let printed = String::from_utf8_lossy(&again.stdout).into_owned();
    let ids: Vec<&str> = printed.split_whitespace().collect();
    assert_eq!(ids.len(), 2, "{printed}");
    assert_eq!(ids[0], old);
    assert!(String::from_utf8_lossy(&again.stderr).contains("1 answer × 5"));
    let jobs: serde_json::Value =
        serde_json::from_slice(&vantage(dir, sim, &["jobs", "--json"]).stdout).unwrap();
    assert!(
        jobs.as_array()
            .unwrap()
            .iter()
            .any(|j| j["id"] == ids[1] && j["state"] == "pending"),
        "{jobs}"
    );

    let pending = vantage(dir, sim, &["jobs", "resubmit", ids[1]]);
    assert_eq!(pending.status.code(), Some(2), "{pending:?}");
    assert!(String::from_utf8_lossy(&pending.stderr).contains("only failed or expired"));
    let unknown = vantage(dir, sim, &["jobs", "resubmit", "ffffffff"]);
    assert_eq!(unknown.status.code(), Some(2), "{unknown:?}");
}
