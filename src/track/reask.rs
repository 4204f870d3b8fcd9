//! A run finishes what it asks: a call whose job failed or expired is asked again into the
//! same run, its new job taking the old one's place (`NewJob::replaces`), so the run's cell
//! is filled rather than left out of every figure. `track run --wait` does so by itself a
//! bounded number of rounds ([`REASK_ROUNDS`]), pausing longer before each
//! ([`reask_pause`]); `track run --retry-failed` asks a past run's missing cells again, and
//! the app's Track tab offers the same. A re-ask is priced as any call (the service bills
//! the ones that answer).

use std::time::Duration;

use futures_util::StreamExt;

use super::run::SUBMISSIONS_IN_FLIGHT;
use super::submit::{Refusal, Submitter};
use crate::jobs::JobState;
use crate::store::{NewJob, Origin, RunId, RunItem, Store, StoreError, TrackWrite};

/// The rounds of re-asks a waiting run makes by itself before it reports what is missing.
pub const REASK_ROUNDS: u32 = 2;

/// The pause before round `round` (1, 2, …): 2 s, then 8 s; the service's failed jobs say
/// only that the call should be submitted again, so the pause grows rather than hammering.
/// `VANTAGE_REASK_PAUSE_MS` sets the first (tests shorten it).
pub fn reask_pause(round: u32) -> Duration {
    let first = std::env::var("VANTAGE_REASK_PAUSE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(Duration::from_secs(2), Duration::from_millis);
    first.saturating_mul(4u32.saturating_pow(round.saturating_sub(1)))
}

/// A call of a run whose job ended without an answer.
pub fn lacks_answer(item: &RunItem) -> bool {
    matches!(item.state, Some(JobState::Failed | JobState::Expired))
}

/// The calls of `run` whose job failed or expired.
pub fn missing(store: &Store, run: &RunId) -> Result<Vec<RunItem>, StoreError> {
    Ok(store
        .track_items(run)?
        .into_iter()
        .filter(lacks_answer)
        .collect())
}

/// How a round of re-asks went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reasked {
    /// Calls the service queued again.
    pub queued: usize,
    /// Calls it would not take now, with the first reason.
    pub not_sent: usize,
    pub reason: Option<String>,
}

impl Reasked {
    /// "2 calls could not be asked again now: …", when some could not.
    pub fn not_sent_sentence(&self) -> Option<String> {
        self.reason.as_ref().map(|reason| {
            format!(
                "{} could not be asked again now: {}",
                crate::plural::count(self.not_sent as u64, "call", "calls"),
                crate::sanitize::one_line(reason)
            )
        })
    }
}

/// Asks `items` again into `run`, at most [`SUBMISSIONS_IN_FLIGHT`] at once: each is a
/// History entry of the run's, and its job replaces the failed one in the run.
pub async fn reask<S: Submitter>(
    store: &Store,
    submitter: &S,
    run: &RunId,
    items: Vec<RunItem>,
) -> Result<Reasked, StoreError> {
    let results = futures_util::stream::iter(items)
        .map(|item| async move {
            while let Some(wait) = submitter.pause() {
                tokio::time::sleep(wait.max(Duration::from_millis(10))).await;
            }
            let call = item.request.clone();
            let (entry, ack) = store.add_request_from(call.clone(), Origin::Track);
            ack.detach();
            store
                .track(TrackWrite::Sending {
                    run: run.clone(),
                    seq: item.seq,
                })
                .detach();
            match submitter.submit(&call).await {
                Ok(id) => {
                    let mut job = NewJob::submitted(id, call).answering(entry);
                    job.replaces = item.job_id.clone();
                    store.record_job(job).await.map(|()| None)
                }
                Err(error) => {
                    store
                        .add_response(&entry, crate::store::Body::of_error(&error, 0))
                        .detach();
                    let reason = match Refusal::of(&error) {
                        Refusal::Call(r) | Refusal::Account(r) | Refusal::Later(r) => r,
                    };
                    Ok(Some(reason))
                }
            }
        })
        .buffer_unordered(SUBMISSIONS_IN_FLIGHT);
    tokio::pin!(results);
    let mut reasked = Reasked::default();
    while let Some(result) = results.next().await {
        match result? {
            None => reasked.queued += 1,
            Some(reason) => {
                reasked.not_sent += 1;
                reasked.reason.get_or_insert(reason);
            }
        }
    }
    store.flush().await?;
    Ok(reasked)
}
