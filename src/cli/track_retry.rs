//! `vantage track run SET --retry-failed [RUN]`: a past run's missing cells asked again into
//! that run, so its figures read the whole run rather than a part of it. Only the calls it
//! lacks go out (a job that failed or expired, a call never sent); the cost is said first,
//! against the balance, as for a run.

use super::track::{Spend, invalid, set_and_store, set_lock};
use super::track_settle::settle;
use super::{err, out, with_newline};
use crate::api::Client;
use crate::config::Config;
use crate::exit;
use crate::price::{Calls, covers};
use crate::store::{RequestKind, RunSummary};
use crate::track::reask;
use crate::track::run::{self, SubmitEvent};
use crate::track::submit::JobSubmitter;
use crate::track::trends::Held;

/// The run `which` names among `runs` (oldest first): "last", its id or the id's start.
fn pick<'a>(runs: &'a [RunSummary], which: &str, set: &str) -> Result<&'a RunSummary, String> {
    if which == "last" {
        return runs
            .last()
            .ok_or_else(|| format!("No runs of {set} are stored, so none can be filled."));
    }
    let matching: Vec<&RunSummary> = runs
        .iter()
        .filter(|r| r.id.as_str().starts_with(&which.to_ascii_lowercase()))
        .collect();
    match matching.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "{set} has no run {}; `vantage track list` lists its runs.",
            crate::sanitize::one_line(which)
        )),
        many => Err(format!(
            "{} runs of {set} start with {}; give more of the id.",
            many.len(),
            crate::sanitize::one_line(which)
        )),
    }
}

/// `track run SET --retry-failed RUN`.
pub(super) async fn retry_run(
    config: &Config,
    client: &Client,
    workspace: Option<&std::path::Path>,
    name: &str,
    which: &str,
    wait: bool,
    spend: Spend,
) -> i32 {
    let (workspace, set, store) = match set_and_store(config, workspace, name) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let runs = match store.track_runs(Some(&set.name)) {
        Ok(runs) => runs,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let run = match pick(&runs, which, &set.name) {
        Ok(run) => run.clone(),
        Err(sentence) => return invalid(&sentence),
    };
    let _lock = match set_lock(config, &set.name) {
        Ok(held) => held,
        Err(code) => return code,
    };
    let (missing, unsent) = match (reask::missing(&store, &run.id), store.track_unsent(&run.id)) {
        (Ok(missing), Ok(unsent)) => (missing, unsent),
        (Err(error), _) | (_, Err(error)) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let held = Held::of(&run, set.complete);
    if missing.is_empty() && unsent.is_empty() {
        let pending = match run.pending {
            0 => String::new(),
            n => format!(
                " {} still pending; `vantage track run {} --wait` or `vantage jobs watch` collect them.",
                crate::plural::count(u64::from(n), "job is", "jobs are"),
                set.name
            ),
        };
        err(&format!(
            "Run {} of {} lacks no cell that can be asked again: it holds {}.{pending}",
            run.id.short(),
            set.name,
            held.text()
        ));
        return exit::OK;
    }
    let mut calls = Calls::default();
    for request in missing
        .iter()
        .map(|item| &item.request)
        .chain(unsent.iter().map(|(_, call)| call))
    {
        match request.kind() {
            RequestKind::Ai => calls.answers += 1,
            _ => calls.searches += 1,
        }
    }
    let credits = calls.credits(&config.prices);
    let balance = client.account().await.ok().and_then(|a| a.credits);
    let sentence = format!(
        "Run {} of {} holds {}: asking its missing calls again makes {}.",
        run.id.short(),
        set.name,
        held.text(),
        calls.in_words(&config.prices)
    );
    if spend.dry_run {
        out(&with_newline(sentence));
        return exit::OK;
    }
    if !covers(balance, credits) && !spend.yes {
        err(&format!(
            "{sentence} Not sent: the balance cannot cover its {}. Top up, or add --yes to send what it allows.",
            crate::plural::count(credits, "credit", "credits")
        ));
        return exit::CREDENTIALS;
    }
    err(&sentence);
    let submitter = JobSubmitter::new(client);
    let mut code = exit::OK;
    if !missing.is_empty() {
        match reask::reask(&store, &submitter, &run.id, missing).await {
            Ok(reasked) => {
                if let Some(sentence) = reasked.not_sent_sentence() {
                    err(&sentence);
                    code = exit::SERVICE;
                }
            }
            Err(error) => {
                err(&error.to_string());
                return error.exit_code();
            }
        }
    }
    if !unsent.is_empty() {
        let tally = run::submit_unsent(
            &store,
            &submitter,
            &run.id,
            super::sim::wait_for_shutdown_signal(),
            |event| {
                if let SubmitEvent::Refused { reason, .. } = event {
                    err(reason);
                }
            },
        )
        .await;
        match tally {
            Ok(tally) if tally.halted.is_some() || tally.later > 0 => {
                if let Some(halt) = &tally.halted {
                    err(&halt.reason);
                    return halt.exit_code;
                }
                code = exit::SERVICE;
            }
            Ok(_) => {}
            Err(error) => {
                err(&error.to_string());
                return error.exit_code();
            }
        }
    }
    out(&format!("{}\n", run.id.as_str()));
    if !wait {
        err(&format!(
            "Asked again into run {}. `vantage jobs watch` or the app collect the answers, or add --wait.",
            run.id.short()
        ));
        return code;
    }
    settle(
        &store,
        client,
        &workspace,
        &set,
        &run.id,
        &config.prices,
        code,
    )
    .await
}
