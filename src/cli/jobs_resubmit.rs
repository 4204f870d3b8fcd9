//! `vantage jobs resubmit ID…`: what the app's Jobs tab does with `R`. Each failed or expired
//! job is asked again with its stored request; the new job takes the old one's place (in a
//! tracking run too, so the run's cell is filled), and its id is printed. The cost is said
//! first, against the balance.

use super::{err, out};
use crate::api::Client;
use crate::config::Config;
use crate::exit;
use crate::jobs::JobState;
use crate::price::{Calls, covers};
use crate::store::{Body, JobRecord, NewJob, Store};
use crate::track::submit::queue;

/// The stored job `typed` names: its whole id, or the start of one (at least 4 characters).
fn find(jobs: &[JobRecord], typed: &str) -> Result<JobRecord, String> {
    let prefix = typed.trim().to_ascii_lowercase();
    if prefix.len() < super::jobs::MIN_ID_PREFIX {
        return Err(format!(
            "{} is too short to name a job: give at least {} characters of its id (`vantage jobs` lists them).",
            crate::sanitize::one_line(typed),
            super::jobs::MIN_ID_PREFIX
        ));
    }
    let matching: Vec<&JobRecord> = jobs
        .iter()
        .filter(|job| job.id.as_str().starts_with(&prefix))
        .collect();
    match matching.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(format!(
            "No stored job's id starts with {}; `vantage jobs` lists them.",
            crate::sanitize::one_line(typed)
        )),
        several => Err(format!(
            "{} stored jobs start with {}; give more of the id.",
            several.len(),
            crate::sanitize::one_line(typed)
        )),
    }
}

/// Why `job` cannot be asked again, if it cannot.
fn refusal(job: &JobRecord) -> Option<String> {
    if !matches!(job.state, JobState::Failed | JobState::Expired) {
        return Some(format!(
            "Job {} is {}; only failed or expired jobs are re-submitted.",
            job.id.short(),
            job.state
        ));
    }
    match &job.request {
        Some(request) if request.job_kind().is_some() => None,
        _ => Some(format!(
            "Job {} was imported by its id, without its request: it cannot be re-submitted.",
            job.id.short()
        )),
    }
}

/// `jobs resubmit IDS`: exit 2 when an id names no job that can be asked again (nothing is
/// sent then), 3 when the balance falls short, 5 when the service refused one.
pub(super) async fn resubmit(
    store: &Store,
    client: &Client,
    config: &Config,
    ids: &[String],
    json: bool,
) -> i32 {
    let stored = match store.list_jobs() {
        Ok(jobs) => jobs,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let mut jobs = Vec::new();
    for typed in ids {
        let job = match find(&stored, typed) {
            Ok(job) => job,
            Err(sentence) => {
                err(&format!("Nothing was sent: {sentence}"));
                return exit::INVALID_INPUT;
            }
        };
        if let Some(sentence) = refusal(&job) {
            err(&format!("Nothing was sent: {sentence}"));
            return exit::INVALID_INPUT;
        }
        if !jobs.iter().any(|j: &JobRecord| j.id == job.id) {
            jobs.push(job);
        }
    }
    let mut calls = Calls::default();
    for job in &jobs {
        calls.add(job.kind.into());
    }
    let credits = calls.credits(&config.prices);
    let balance = client.account().await.ok().and_then(|a| a.credits);
    if !covers(balance, credits) {
        err(&format!(
            "Re-submitting makes {} and the balance cannot cover it: not sent. Top up first.",
            calls.in_words(&config.prices)
        ));
        return exit::CREDENTIALS;
    }
    err(&format!(
        "Re-submitting {}: {}.",
        crate::plural::count(jobs.len() as u64, "job", "jobs"),
        calls.in_words(&config.prices)
    ));
    let mut code = exit::OK;
    let mut pairs: Vec<serde_json::Value> = Vec::new();
    for job in jobs {
        let Some(request) = job.request.clone() else {
            continue;
        };
        let (entry, ack) = store.add_request(request.clone());
        ack.detach();
        match queue(client, &request).await {
            Ok(id) => {
                let mut new = NewJob::submitted(id.clone(), request).answering(entry);
                new.replaces = Some(job.id.clone());
                if let Err(error) = store.record_job(new).await {
                    err(&format!(
                        "Job {} was queued again as {id}, but the store could not keep it: {error}",
                        job.id.short()
                    ));
                    return error.exit_code();
                }
                if json {
                    pairs.push(serde_json::json!({"old": job.id.as_str(), "new": id.as_str()}));
                } else {
                    out(&format!("{} {id}\n", job.id.as_str()));
                }
            }
            Err(error) => {
                store
                    .add_response(&entry, Body::of_error(&error, 0))
                    .detach();
                err(&format!(
                    "Job {} was not re-submitted: {}",
                    job.id.short(),
                    crate::sanitize::one_line(&error.to_string())
                ));
                code = error.exit_code();
            }
        }
    }
    if json {
        out(&format!("{}\n", serde_json::Value::Array(pairs)));
    }
    if let Err(error) = store.flush().await {
        err(&error.to_string());
        return error.exit_code();
    }
    if code == exit::OK {
        err("`vantage jobs watch` (or the app) collects their answers.");
    }
    code
}
