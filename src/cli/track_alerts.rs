//! The alerts of a set, checked on its newest finished run (`track check`, and `track run
//! --wait` once its jobs have ended): each alert that fires is one line on stdout, the exit
//! code says that some fired, and the workspace's webhook gets one post per run with them.
//! A post that fails is kept in the store and tried again by the next check, and said.

use std::time::Duration;

use super::{err, out};
use crate::analysis::workspace::{TrackSet, Workspace};
use crate::exit;
use crate::store::{RunSummary, Store, TrackWrite, now_ms};
use crate::track::alerts::{Fired, evaluate};
use crate::track::paired::compare;
use crate::track::report::timestamp;
use crate::track::trends::Held;

/// Between the retries of one post; tests shorten it.
fn retry_pause() -> Duration {
    std::env::var("VANTAGE_WEBHOOK_RETRY_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(Duration::from_secs(2), Duration::from_millis)
}

/// The newest run whose every call has ended, and the run before it.
fn finished(runs: &[RunSummary]) -> Option<(&RunSummary, Option<&RunSummary>)> {
    let at = runs.iter().rposition(|r| r.pending == 0 && r.unsent == 0)?;
    Some((&runs[at], at.checked_sub(1).map(|i| &runs[i])))
}

/// Evaluates the set's alerts on its newest finished run, prints those that fire, posts
/// them to the webhook (and any post kept from before): `exit::ALERTS` when some fired.
pub(super) async fn check(store: &Store, workspace: &Workspace, set: &TrackSet, json: bool) -> i32 {
    let mut code = exit::OK;
    if let Some(url) = workspace.webhook() {
        retry_kept(store, url, &set.name).await;
    }
    if set.alerts.is_empty() {
        err(&format!(
            "The set {} has no alerts: add them in the set's form (`e` in the app's Track tab), or as [[sets.alerts]] in {} (docs/tracking.md, Alerts).",
            set.name,
            workspace.path().display()
        ));
        return code;
    }
    let runs = match store.track_runs(Some(&set.name)) {
        Ok(runs) => runs,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let Some((run, before)) = finished(&runs) else {
        err(&format!(
            "No run of {} has ended yet, so no alert was checked; `vantage track run {} --wait` runs one to the end.",
            set.name, set.name
        ));
        return code;
    };
    if run.done == 0 {
        // Nothing answered: no alert can fire, and saying none did would read as all clear.
        err(&format!(
            "The newest run of {} ({}) has no answers ({} of {} failed or expired, {} refused), so its alerts were not checked. `vantage track run {} --wait` runs the set again.",
            set.name,
            run.id.short(),
            run.failed,
            crate::plural::count(run.planned as u64, "call", "calls"),
            run.refused,
            set.name
        ));
        return exit::RUN_INCOMPLETE;
    }
    let brands = workspace.read_for(&set.name);
    let at = runs.iter().position(|r| r.id == run.id).unwrap_or(0);
    let (run, before) = (run.clone(), before.cloned());
    // The run and the one before it, read as trends read them.
    let scope = runs[at.saturating_sub(1)..=at].to_vec();
    let readings = match super::track_read::set_readings(store, &set.name, scope, &brands) {
        Ok(readings) => readings,
        Err(code) => return code,
    };
    let held = Held::of(&run, set.complete);
    if !held.complete {
        // A run that lacks its cells says little alone: its alerts wait for the cells.
        err(&format!(
            "The newest run of {} ({}) holds {}, fewer than the {} % a run must hold to be complete, so its alerts were not checked. `vantage track run {} --retry-failed --wait` asks the missing cells again into that run.",
            set.name,
            run.id.short(),
            held.text(),
            set.complete,
            set.name
        ));
        return exit::RUN_INCOMPLETE;
    }
    let Some(now) = readings.tallies.last() else {
        return code;
    };
    // A drop is read over the cells this run and the one before both answered.
    let compared = match readings.last_two(store, &brands) {
        Ok((Some(earlier), Some(last))) if before.is_some() => {
            Some(compare(&earlier, &last, &readings.names))
        }
        Ok(_) => None,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let fired = evaluate(
        &set.name,
        &set.alerts,
        run.id.as_str(),
        now,
        compared.as_ref().map(|c| (&c.before, &c.after)),
        workspace.brands(),
    );
    if json {
        out(&format!(
            "{}\n",
            serde_json::json!({"set": set.name, "run": run.id.as_str(), "fired": fired})
        ));
    } else {
        for alert in &fired {
            out(&format!("{}\n", alert.text));
        }
    }
    if fired.is_empty() {
        err(&format!(
            "No alert of {} fired on run {} ({} checked).",
            set.name,
            run.id.short(),
            set.alerts.len()
        ));
        return code;
    }
    code = exit::ALERTS;
    if let Some(url) = workspace.webhook() {
        deliver(store, url, &set.name, &run, &fired).await;
    }
    code
}

/// Tries of one run's post at most, over runs and checks: a receiver that fails (or kills
/// the process) every time is given up on, not posted to for ever.
pub(super) const MOST_DELIVERY_TRIES: u32 = 5;

/// A line of an alert as a chat tool must get it: one line, and no markup of its own.
/// Slack reads `<!channel>`, `<@U123>` and links between angle brackets, and `&` starts an
/// entity; these three are escaped as Slack documents. Mentions in Discord (`@everyone`)
/// are turned off by `allowed_mentions` in the body.
fn for_chat(text: &str) -> String {
    crate::sanitize::one_line(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The body a chat tool shows as is (`text`), and the alerts for a script.
fn payload(set: &str, run: &RunSummary, fired: &[Fired]) -> String {
    let lines: Vec<String> = fired.iter().map(|f| for_chat(&f.text)).collect();
    serde_json::json!({
        "text": format!(
            "vantage: {} fired on {}\n{}",
            crate::plural::count(fired.len() as u64, "alert", "alerts"),
            for_chat(set),
            lines.join("\n")
        ),
        "allowed_mentions": {"parse": []},
        "set": set,
        "run": run.id.as_str(),
        "run_started_at": timestamp(run.started_at),
        "alerts": fired,
    })
    .to_string()
}

/// Posts the run's alerts once: a run already delivered is not posted again.
async fn deliver(store: &Store, url: &str, set: &str, run: &RunSummary, fired: &[Fired]) {
    let kept = store
        .webhook_deliveries(Some(set))
        .unwrap_or_default()
        .into_iter()
        .find(|d| d.run == run.id);
    match kept {
        Some(kept) if kept.delivered => {
            err(&format!(
                "The webhook was already told of run {}'s alerts.",
                run.id.short()
            ));
            return;
        }
        // Kept from an earlier post that failed: tried again before this check, once.
        Some(_) => return,
        None => {}
    }
    let body = payload(set, run, fired);
    started(store, run.id.clone(), set, body.clone()).await;
    let result = crate::api::webhook::post(url, &body, retry_pause()).await;
    match &result {
        Ok(()) => err(&format!(
            "Posted {} to the webhook.",
            crate::plural::count(fired.len() as u64, "alert", "alerts")
        )),
        Err(problem) => err(&format!(
            "The alerts could not be posted: {problem}. They are kept and posted again by the next run or `vantage track check {set}`."
        )),
    }
    record(store, run.id.clone(), set, body, result.err()).await;
}

/// Posts again what an earlier check could not deliver.
async fn retry_kept(store: &Store, url: &str, set: &str) {
    let kept: Vec<_> = store
        .webhook_deliveries(Some(set))
        .unwrap_or_default()
        .into_iter()
        .filter(|d| !d.delivered)
        .collect();
    for delivery in kept {
        if delivery.attempts >= MOST_DELIVERY_TRIES {
            err(&format!(
                "The alerts of run {} are not posted again: {} failed (the last: {}).",
                delivery.run.short(),
                crate::plural::count(u64::from(delivery.attempts), "try", "tries"),
                delivery.last_error.as_deref().unwrap_or("no reason kept")
            ));
            continue;
        }
        started(store, delivery.run.clone(), set, delivery.payload.clone()).await;
        let result = crate::api::webhook::post(url, &delivery.payload, retry_pause()).await;
        match &result {
            Ok(()) => err(&format!(
                "Posted the alerts of run {} kept since an earlier post failed.",
                delivery.run.short()
            )),
            Err(problem) => err(&format!(
                "The alerts of run {} are still not posted ({} so far): {problem}.",
                delivery.run.short(),
                crate::plural::count(u64::from(delivery.attempts) + 1, "try", "tries")
            )),
        }
        record(store, delivery.run, set, delivery.payload, result.err()).await;
    }
}

/// Counts a try before its post goes out (see [`TrackWrite::DeliveryStarted`]).
async fn started(store: &Store, run: crate::store::RunId, set: &str, payload: String) {
    let write = TrackWrite::DeliveryStarted {
        run,
        set_name: set.to_string(),
        payload,
        at: now_ms(),
    };
    if let Err(problem) = store.track(write).await {
        err(&format!(
            "The webhook's delivery could not be stored: {problem}"
        ));
    }
}

async fn record(
    store: &Store,
    run: crate::store::RunId,
    set: &str,
    payload: String,
    error: Option<String>,
) {
    let write = TrackWrite::Delivery {
        run,
        set_name: set.to_string(),
        payload,
        at: now_ms(),
        error,
    };
    if let Err(problem) = store.track(write).await {
        err(&format!(
            "The webhook's delivery could not be stored: {problem}"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alert_text_cannot_mention_a_channel_or_split_its_lines() {
        let said = for_chat("REI <!channel> & <@U123>\nALERT: all clear");
        assert!(!said.contains('\n') && !said.contains('<'), "{said}");
        assert!(
            said.contains("&lt;!channel&gt; &amp; &lt;@U123&gt;"),
            "{said}"
        );
    }
}
