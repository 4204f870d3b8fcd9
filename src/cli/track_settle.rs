//! A run's end, however it was started (`track run --wait`, `--retry-failed --wait`): every
//! job waited for, a call that gave no answer asked again within the run (`track::reask`),
//! the next rounds of `samples = "auto"` (`track_auto`), the answers read and kept, what the
//! run holds said, and the set's alerts checked.

use super::err;
use super::jobs::{WatchEnd, drive_jobs, transition_line};
use super::sim::wait_for_shutdown_signal;
use super::track::Progress;
use crate::analysis::workspace::{TrackSet, Workspace};
use crate::api::{BodyAsked, Client, JobId, JobKind};
use crate::exit;
use crate::jobs::{MAX_IN_FLIGHT, Scheduler};
use crate::price::Prices;
use crate::store::{Store, now_ms};
use crate::track::reask::{self, REASK_ROUNDS};
use crate::track::run;
use crate::track::submit::JobSubmitter;

/// Waits for every job of the run, asks again those that failed or expired (up to
/// [`REASK_ROUNDS`] rounds, pausing longer before each), reads the answers, says what the
/// run holds and checks the set's alerts: the exit code, from `code` (the submission's).
pub(super) async fn settle(
    store: &Store,
    client: &Client,
    workspace: &Workspace,
    set: &TrackSet,
    run: &crate::store::RunId,
    prices: &Prices,
    mut code: i32,
) -> i32 {
    let progress = &Progress::new();
    let submitter = JobSubmitter::new(client);
    let brands = workspace.read_for(&set.name);
    let mut round = 0;
    let mut sampled = 0;
    loop {
        match wait_for_jobs(store, client, &set.name, progress).await {
            exit::OK => {}
            other => return other,
        }
        let missing = match reask::missing(store, run) {
            Ok(missing) => missing,
            Err(error) => {
                err(&error.to_string());
                return error.exit_code();
            }
        };
        if missing.is_empty() || round == REASK_ROUNDS {
            // With samples = "auto", the next round of asks where the answers split.
            let Some(plan) = set.auto else { break };
            match auto_round(store, &submitter, set, run, &plan, &brands, &mut sampled).await {
                Ok(true) => {
                    round = 0;
                    continue;
                }
                Ok(false) => break,
                Err(code) => return code,
            }
        }
        round += 1;
        let pause = reask::reask_pause(round);
        err(&format!(
            "{} of run {} gave no answer: asking again in {}, round {round} of {REASK_ROUNDS}; each is priced as any call.",
            crate::plural::count(missing.len() as u64, "call", "calls"),
            run.short(),
            crate::measure::duration(pause)
        ));
        tokio::time::sleep(pause).await;
        match reask::reask(store, &submitter, run, missing).await {
            Ok(reasked) => {
                if let Some(sentence) = reasked.not_sent_sentence() {
                    err(&sentence);
                }
            }
            Err(error) => {
                err(&error.to_string());
                return error.exit_code();
            }
        }
    }
    if let Some(plan) = &set.auto {
        super::track_auto::spent(store, set, run, plan, sampled, &brands, prices);
    }
    // The answers just landed are read once and kept, for every view of the set.
    if let Ok(runs) = store.track_runs(Some(&set.name)) {
        let brands = workspace.read_for(&set.name);
        if let Err(stopped) = super::track_read::set_readings(store, &set.name, runs, &brands) {
            return stopped;
        }
    }
    if let Ok(Some(summary)) = store.track_run(run) {
        err(&format!(
            "Run {}: {} done, {} failed, {} refused, {} pending, {} not sent.",
            summary.id.short(),
            summary.done,
            summary.failed,
            summary.refused,
            summary.pending,
            summary.unsent
        ));
        // Why, in the service's words (or that it gave none), each reason once.
        for (why, jobs) in store.track_failures(run).unwrap_or_default() {
            let why = match why.is_empty() {
                true => crate::jobs::failure_sentence(None),
                false => why,
            };
            err(&format!(
                "{jobs} failed: {}",
                crate::sanitize::one_line(&why)
            ));
        }
        let incomplete = summary.failed + summary.refused;
        if incomplete > 0 {
            err(&format!(
                "{incomplete} of {} gave no answer: the run holds {} of its cells. \
                 `vantage track run {} --retry-failed --wait` asks them again into this run.",
                crate::plural::count(summary.planned as u64, "call", "calls"),
                summary.done,
                set.name
            ));
            if code == exit::OK {
                code = exit::RUN_INCOMPLETE;
            }
        }
    }
    // The alerts, on the run just ended (or the newest one that did).
    if !set.alerts.is_empty() {
        let checked = super::track_alerts::check(store, workspace, set, false).await;
        if checked == exit::ALERTS && matches!(code, exit::OK | exit::RUN_INCOMPLETE) {
            code = exit::ALERTS;
        }
    }
    code
}

/// One more round of a `samples = "auto"` run: its answers read, and the cells whose
/// readings are least certain asked again (`Ok(true)`), or none left to ask (`Ok(false)`).
/// `rounds` counts the rounds sent.
async fn auto_round(
    store: &Store,
    submitter: &JobSubmitter,
    set: &TrackSet,
    run: &crate::store::RunId,
    plan: &crate::analysis::adaptive::Plan,
    brands: &[crate::analysis::mentions::Brand],
    rounds: &mut u32,
) -> Result<bool, i32> {
    let calls = super::track_auto::next_round(store, set, run, plan, brands)?;
    if calls.is_empty() {
        return Ok(false);
    }
    *rounds += 1;
    err(&format!(
        "Samples, round {}: {} asked again where their answers split.",
        *rounds + 1,
        crate::plural::count(calls.len() as u64, "cell is", "cells are")
    ));
    if let Err(error) = store
        .track(crate::store::TrackWrite::Extend {
            run: run.clone(),
            calls,
        })
        .await
    {
        err(&error.to_string());
        return Err(error.exit_code());
    }
    match run::submit_unsent(store, submitter, run, wait_for_shutdown_signal(), |_| {}).await {
        Ok(tally) => match tally.halted {
            Some(halt) => {
                err(&halt.reason);
                Err(halt.exit_code)
            }
            None if tally.stopped => Err(exit::CANCELLED),
            None => Ok(true),
        },
        Err(error) => {
            err(&error.to_string());
            Err(error.exit_code())
        }
    }
}

/// Polls every open job of the set's runs until each has ended, at most 8 at once.
async fn wait_for_jobs(store: &Store, client: &Client, set: &str, progress: &Progress) -> i32 {
    let open = match store.track_open_jobs(set) {
        Ok(jobs) => jobs,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    if open.is_empty() {
        return exit::OK;
    }
    let now = now_ms();
    let mut scheduler = Scheduler::new().with_error_limit(6);
    for job in &open {
        scheduler.insert(job.tracked(now));
    }
    let total = open.len();
    let mut ended = 0usize;
    let jobs = crate::plural::noun(total as u64, "job", "jobs");
    progress.show(&format!("Waiting: 0 of {total} {jobs} ended"));
    let client = client.clone();
    let poll = move |kind: JobKind, id: JobId, asked: BodyAsked| {
        let client = client.clone();
        async move { client.job(kind, &id, asked).await }
    };
    let result = drive_jobs(
        store,
        &mut scheduler,
        poll,
        wait_for_shutdown_signal(),
        |transition, size| {
            if transition.changed() && transition.to.is_terminal() {
                ended += 1;
            }
            if progress.shown {
                progress.show(&format!(
                    "Waiting: {ended} of {total} {jobs} ended, at most {MAX_IN_FLIGHT} polls at once"
                ));
            } else if transition.parked {
                err(&transition_line(transition, size));
            }
        },
    )
    .await;
    match result {
        Ok(WatchEnd::Settled) => exit::OK,
        Ok(WatchEnd::Stopped) => {
            err(&format!(
                "Stopped waiting; the jobs stay stored. `vantage track run {set} --wait` or `vantage jobs watch` go on."
            ));
            exit::CANCELLED
        }
        Ok(WatchEnd::Unreachable(message)) => super::jobs::unreachable(&message),
        Err(error) => super::jobs::store_failed(&error),
    }
}
