//! Tracking runs started in the app, as `vantage track run` makes them: planned and sent
//! under the set's lock, their jobs then polled by the app's scheduler; a run that has ended
//! with calls that gave no answer asks them again into itself (`track::reask`), up to
//! [`REASK_ROUNDS`] rounds; and a past run's missing calls asked again (`R` on the run).

use std::time::Duration;

use crate::api::Client;
use crate::app::{self, Msg};
use crate::store::{RequestParams, RunId, Store};
use crate::track::reask::{self, REASK_ROUNDS};

/// A tracking run from the app, as `vantage track run` makes it: under the set's lock, planned
/// in the store before anything is sent (or an earlier run cut short goes on), then each call
/// submitted and its job id stored as it arrives. Polling is the app's jobs scheduler's.
pub(super) async fn run_set(
    client: &Client,
    store: &Store,
    data_dir: &std::path::Path,
    set: &str,
    calls: Vec<RequestParams>,
) -> Result<(app::TrackRunSent, RunId), String> {
    let _lock = crate::track::lock::acquire(data_dir, set).map_err(|e| e.to_string())?;
    let begun = crate::track::run::begin(store, set, calls)
        .await
        .map_err(|e| e.to_string())?;
    let submitter = crate::track::submit::JobSubmitter::new(client);
    let tally = crate::track::run::submit_unsent(
        store,
        &submitter,
        &begun.run,
        std::future::pending::<()>(),
        |_| {},
    )
    .await
    .map_err(|e| e.to_string())?;
    // Jobs queued whose ids the store could not keep are named with how to fetch them.
    let halted = tally.halted.map(|halt| match tally.unstored.is_empty() {
        true => halt.reason,
        false => {
            let (sentence, commands) = crate::track::run::unstored_sentence(&tally.unstored);
            format!("{} {sentence} {}", halt.reason, commands.join("; "))
        }
    });
    let sent = app::TrackRunSent {
        set: set.to_string(),
        run: begun.run.short().to_string(),
        resumed: begun.resumed,
        filled: false,
        planned: begun.planned,
        queued: tally.queued,
        refused: tally.refused,
        later: tally.later,
        halted,
    };
    Ok((sent, begun.run))
}

/// A past run's missing calls asked again into it, as `vantage track run SET --retry-failed
/// RUN` does: under the set's lock, the failed and expired jobs re-asked (each new job taking
/// the old one's place), then any call never sent. Polling is the app's jobs scheduler's.
pub(super) async fn fill_run(
    client: &Client,
    store: &Store,
    data_dir: &std::path::Path,
    set: &str,
    run: RunId,
) -> Result<app::TrackRunSent, String> {
    let _lock = crate::track::lock::acquire(data_dir, set).map_err(|e| e.to_string())?;
    let missing = crate::track::reask::missing(store, &run).map_err(|e| e.to_string())?;
    let unsent = store.track_unsent(&run).map_err(|e| e.to_string())?.len();
    let submitter = crate::track::submit::JobSubmitter::new(client);
    let asked = missing.len();
    let reasked = crate::track::reask::reask(store, &submitter, &run, missing)
        .await
        .map_err(|e| e.to_string())?;
    let tally = crate::track::run::submit_unsent(
        store,
        &submitter,
        &run,
        std::future::pending::<()>(),
        |_| {},
    )
    .await
    .map_err(|e| e.to_string())?;
    Ok(app::TrackRunSent {
        set: set.to_string(),
        run: run.short().to_string(),
        resumed: false,
        filled: true,
        planned: asked + unsent,
        queued: reasked.queued + tally.queued,
        refused: tally.refused,
        later: reasked.not_sent + tally.later,
        halted: tally.halted.map(|h| h.reason).or(reasked.reason),
    })
}

/// How often the run's state is read while its jobs are out: the app's scheduler polls them.
const LOOK_EVERY: Duration = Duration::from_secs(2);

/// Once every job of `run` has ended, asks those that gave no answer again into it, after
/// the growing pause of a waiting `track run`, up to [`REASK_ROUNDS`] rounds; each round is
/// said as a fill of the run. Ends when the run holds every cell it can or the rounds are
/// spent; reads the store off the async threads.
pub(super) async fn reask_when_ended(
    client: &Client,
    store: &Store,
    data_dir: &std::path::Path,
    set: &str,
    run: RunId,
    tx: &tokio::sync::mpsc::UnboundedSender<Msg>,
) {
    for round in 1..=REASK_ROUNDS {
        loop {
            tokio::time::sleep(LOOK_EVERY).await;
            let (reading, id) = (store.clone(), run.clone());
            let summary = tokio::task::spawn_blocking(move || reading.track_run(&id)).await;
            match summary {
                Ok(Ok(Some(summary))) if summary.pending == 0 => break,
                Ok(Ok(Some(_))) => continue,
                // The run is gone, or the store cannot be read: nothing to finish.
                _ => return,
            }
        }
        let (reading, id) = (store.clone(), run.clone());
        let missing = match tokio::task::spawn_blocking(move || reask::missing(&reading, &id)).await
        {
            Ok(Ok(missing)) if !missing.is_empty() => missing,
            _ => return,
        };
        tokio::time::sleep(reask::reask_pause(round)).await;
        let Ok(_lock) = crate::track::lock::acquire(data_dir, set) else {
            // Another process runs the set: it finishes the run.
            return;
        };
        let submitter = crate::track::submit::JobSubmitter::new(client);
        let asked = missing.len();
        let sent = match reask::reask(store, &submitter, &run, missing).await {
            Ok(reasked) => Ok(app::TrackRunSent {
                set: set.to_string(),
                run: run.short().to_string(),
                resumed: false,
                filled: true,
                planned: asked,
                queued: reasked.queued,
                refused: 0,
                later: reasked.not_sent,
                halted: reasked.reason,
            }),
            Err(error) => Err(error.to_string()),
        };
        let failed = sent.is_err();
        if tx.send(Msg::TrackRunSent(sent)).is_err() || failed {
            return;
        }
    }
}
