//! A run: planned in the store before anything is sent, then each call submitted and its
//! job id stored the moment it arrives. Polling is the jobs scheduler's (`cli::drive_jobs`).
//!
//! The crash window: between a call going out and its id being committed, a crash (a
//! SIGKILL, a power cut) leaves a call the service may have queued but the store has no id
//! for. The service takes no idempotency key, so the run cannot ask. A restarted run sends
//! such a call again: at least once, never lost, because a data point missing from one run
//! skews its trend silently, while a second job costs one credit and is never stored twice
//! (a call keeps the first id it got). Calls go out at most [`SUBMISSIONS_IN_FLIGHT`] at a
//! time, so at most that many can be in the window; a call's `sends` count shows it.
//! Stopping with Ctrl+C or SIGTERM is not a crash: no new call starts, and the ones out
//! finish and are stored before the run ends.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;

use tokio::sync::watch;

use super::submit::{Refusal, Submitter};
use crate::api::{JobId, JobKind};
use crate::store::{
    Body, NewJob, NewRun, Origin, RequestParams, RunId, Store, StoreError, TrackWrite, now_ms,
};

/// Submissions out at once: enough to keep a remote service busy, few enough that a crash
/// leaves few calls in doubt.
pub const SUBMISSIONS_IN_FLIGHT: usize = 4;

/// The run a `track run` works on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Begun {
    pub run: RunId,
    /// An earlier run of the set had calls not sent yet: it goes on instead of a new one.
    pub resumed: bool,
    pub planned: usize,
    /// Calls of a resumed run that went out without their id being stored (sent again now).
    pub in_doubt: usize,
}

/// Goes on with the set's last run if some of its calls were never sent (and it was made
/// here, not imported); else records a new run with `calls`, committed before anything is
/// sent.
pub async fn begin(
    store: &Store,
    set_name: &str,
    calls: Vec<RequestParams>,
) -> Result<Begun, StoreError> {
    let runs = store.track_runs(Some(set_name))?;
    let last = runs.last().filter(|r| !r.is_submitted());
    // A run an import brought in was someone else's: its unsent calls are never sent here.
    let last = match last {
        Some(run) if store.run_was_imported(&run.id)? => None,
        other => other,
    };
    if let Some(last) = last {
        let in_doubt = store
            .track_items(&last.id)?
            .iter()
            .filter(|i| i.job_id.is_none() && i.refused.is_none() && i.sends > 0)
            .count();
        return Ok(Begun {
            run: last.id.clone(),
            resumed: true,
            planned: last.planned as usize,
            in_doubt,
        });
    }
    let run = NewRun {
        id: RunId::new(),
        set_name: set_name.to_string(),
        started_at: now_ms(),
        calls,
    };
    let begun = Begun {
        run: run.id.clone(),
        resumed: false,
        planned: run.calls.len(),
        in_doubt: 0,
    };
    store.track(TrackWrite::Plan(run)).await?;
    Ok(begun)
}

/// One submission's outcome, as reported while the run goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubmitEvent {
    Queued { seq: u32, id: JobId },
    Refused { seq: u32, reason: String },
    Later { seq: u32, reason: String },
}

/// Why a run stopped submitting, with the exit code that error has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Halt {
    pub reason: String,
    pub exit_code: i32,
}

/// How the submissions of a run went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubmitTally {
    /// Calls the service queued (each spent a credit), [`SubmitTally::unstored`] included.
    pub queued: usize,
    pub refused: usize,
    /// Not sent now; a later `track run` sends them.
    pub later: usize,
    /// Why submitting stopped early (the token, the credits, no answer at all, a store that
    /// could not keep an id).
    pub halted: Option<Halt>,
    /// Stopped by the caller before every call went out.
    pub stopped: bool,
    /// Jobs the service queued whose ids the store could not keep: only these ids reach
    /// their answers now, and the next run sends their calls again.
    pub unstored: Vec<Unstored>,
}

/// A queued job the store has no record of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unstored {
    pub seq: u32,
    pub kind: JobKind,
    pub id: JobId,
}

/// What to say of jobs queued whose ids could not be stored, and the commands that fetch
/// their answers (one each), for the CLI to list and the app to join.
pub fn unstored_sentence(unstored: &[Unstored]) -> (String, Vec<String>) {
    let sentence = format!(
        "{} queued (and billed) but their ids could not be stored, so the run does not know them and its next `track run` sends their calls again. Their answers can be fetched now with:",
        crate::plural::count(unstored.len() as u64, "job was", "jobs were")
    );
    let commands = unstored
        .iter()
        .map(|job| format!("vantage job {} {} --wait", job.kind, job.id))
        .collect();
    (sentence, commands)
}

enum Outcome {
    /// Queued, and its id committed with its job.
    Queued(JobId),
    /// Queued, but its id could not be committed.
    Unstored(JobId, StoreError),
    Refused(crate::api::ApiError),
    /// Not sent: the run halted before its turn.
    Skipped,
}

/// The halt of a run whose store cannot keep what it must.
fn storage_halt(error: &StoreError) -> Halt {
    Halt {
        reason: error.to_string(),
        exit_code: error.exit_code(),
    }
}

/// Sends the run's unsent calls, at most [`SUBMISSIONS_IN_FLIGHT`] at once, storing each
/// id (durably, with its job) as it arrives: no call is sent while an id that arrived is not
/// yet committed, so a store that fails (a full disk) stops the run with only the calls
/// already out left to report, their ids in [`SubmitTally::unstored`]. `stop` ends it
/// early: no new call starts and the ones out are stored.
pub async fn submit_unsent<S: Submitter>(
    store: &Store,
    submitter: &S,
    run: &RunId,
    stop: impl Future<Output = ()>,
    mut report: impl FnMut(&SubmitEvent),
) -> Result<SubmitTally, StoreError> {
    let unsent = store.track_unsent(run)?;
    let total = unsent.len();
    let unsent_kinds: std::collections::HashMap<u32, JobKind> = unsent
        .iter()
        .filter_map(|(seq, call)| Some((*seq, call.job_kind()?)))
        .collect();
    let halt = Arc::new(AtomicBool::new(false));
    // Ids that arrived and are not committed yet: a call goes out only when there are none.
    let (uncommitted, _) = watch::channel(0usize);
    let uncommitted = Arc::new(uncommitted);
    let mut tally = SubmitTally::default();
    let mut answered = false;
    let mut seen = 0usize;
    let results = futures_util::stream::iter(unsent)
        .take_until(stop)
        .map(|(seq, call)| {
            let halt = Arc::clone(&halt);
            let uncommitted = Arc::clone(&uncommitted);
            let store = store.clone();
            let run = run.clone();
            async move {
                while let Some(wait) = submitter.pause() {
                    tokio::time::sleep(wait.max(Duration::from_millis(10))).await;
                }
                let _ = uncommitted.subscribe().wait_for(|n| *n == 0).await;
                if halt.load(Ordering::SeqCst) {
                    return (seq, Outcome::Skipped);
                }
                store
                    .track(TrackWrite::Sending {
                        run: run.clone(),
                        seq,
                    })
                    .detach();
                let sent = Instant::now();
                // Every call is in History, marked as a tracking run's; its job answers it.
                let (entry, ack) = store.add_request_from(call.clone(), Origin::Track);
                ack.detach();
                let outcome = match submitter.submit(&call).await {
                    // Committed here, in the call's own future, so the writer commits the
                    // ids of the calls out together; no new call goes out meanwhile.
                    Ok(id) => {
                        uncommitted.send_modify(|n| *n += 1);
                        let job = Box::new(NewJob::submitted(id.clone(), call).answering(entry));
                        let stored = store.track(TrackWrite::Submitted { run, seq, job }).await;
                        if stored.is_err() {
                            halt.store(true, Ordering::SeqCst);
                        }
                        uncommitted.send_modify(|n| *n -= 1);
                        match stored {
                            Ok(()) => Outcome::Queued(id),
                            Err(error) => Outcome::Unstored(id, error),
                        }
                    }
                    Err(error) => {
                        if error.nothing_sent() {
                            store
                                .track(TrackWrite::NotSent {
                                    run: run.clone(),
                                    seq,
                                })
                                .detach();
                        }
                        let elapsed = u64::try_from(sent.elapsed().as_millis()).unwrap_or(u64::MAX);
                        store
                            .add_response(&entry, Body::of_error(&error, elapsed))
                            .detach();
                        Outcome::Refused(error)
                    }
                };
                (seq, outcome)
            }
        })
        .buffer_unordered(SUBMISSIONS_IN_FLIGHT);
    tokio::pin!(results);
    while let Some((seq, outcome)) = results.next().await {
        seen += 1;
        match outcome {
            Outcome::Skipped => {}
            Outcome::Queued(id) => {
                answered = true;
                tally.queued += 1;
                report(&SubmitEvent::Queued { seq, id });
            }
            Outcome::Unstored(id, error) => {
                answered = true;
                tally.queued += 1;
                tally.halted.get_or_insert_with(|| storage_halt(&error));
                let kind = unsent_kinds.get(&seq).copied().unwrap_or(JobKind::Ai);
                tally.unstored.push(Unstored { seq, kind, id });
            }
            Outcome::Refused(error) => match Refusal::of(&error) {
                Refusal::Call(reason) => {
                    answered = true;
                    let kept = store
                        .track(TrackWrite::Refused {
                            run: run.clone(),
                            seq,
                            reason: reason.clone(),
                        })
                        .await;
                    if let Err(error) = kept {
                        halt.store(true, Ordering::SeqCst);
                        tally.halted.get_or_insert_with(|| storage_halt(&error));
                    }
                    tally.refused += 1;
                    report(&SubmitEvent::Refused { seq, reason });
                }
                Refusal::Account(reason) => {
                    halt.store(true, Ordering::SeqCst);
                    let exit_code = error.exit_code();
                    store
                        .track(TrackWrite::Unsent {
                            run: run.clone(),
                            seq,
                            reason: reason.clone(),
                        })
                        .detach();
                    tally.later += 1;
                    tally.halted.get_or_insert(Halt { reason, exit_code });
                }
                Refusal::Later(reason) => {
                    store
                        .track(TrackWrite::Unsent {
                            run: run.clone(),
                            seq,
                            reason: reason.clone(),
                        })
                        .detach();
                    tally.later += 1;
                    // The first answers all failing to arrive: the service is not there.
                    if !answered && tally.later >= SUBMISSIONS_IN_FLIGHT {
                        halt.store(true, Ordering::SeqCst);
                        tally.halted.get_or_insert(Halt {
                            reason: reason.clone(),
                            exit_code: error.exit_code(),
                        });
                    }
                    report(&SubmitEvent::Later { seq, reason });
                }
            },
        }
    }
    tally.later += total - seen;
    tally.stopped = seen < total && tally.halted.is_none();
    if tally.halted.is_some() {
        tally.later = total - tally.queued - tally.refused;
    }
    if let Err(error) = store.flush().await {
        tally.halted.get_or_insert_with(|| storage_halt(&error));
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use super::*;
    use crate::api::{AiRequest, ApiError, TransportKind};
    use crate::store::StoreOptions;

    /// A submitter that answers from a script by prompt, counting what it was sent: the
    /// run depends on the interface only.
    #[derive(Default)]
    struct Scripted {
        refuse: HashMap<String, fn() -> ApiError>,
        sent: Mutex<Vec<String>>,
    }

    impl Submitter for Scripted {
        fn submit(
            &self,
            call: &RequestParams,
        ) -> impl Future<Output = Result<JobId, ApiError>> + Send {
            let RequestParams::Ai(request) = call else {
                panic!("AI calls only")
            };
            let prompt = request.prompt.clone();
            if let Ok(mut sent) = self.sent.lock() {
                sent.push(prompt.clone());
            }
            let result = match self.refuse.get(&prompt) {
                Some(error) => Err(error()),
                None => Ok(JobId::parse(&uuid::Uuid::new_v4().to_string()).unwrap()),
            };
            async move { result }
        }

        fn pause(&self) -> Option<Duration> {
            None
        }
    }

    fn calls(prompts: &[&str]) -> Vec<RequestParams> {
        prompts
            .iter()
            .map(|p| RequestParams::Ai(AiRequest::new(*p)))
            .collect()
    }

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
        (dir, store)
    }

    #[tokio::test]
    async fn a_refused_call_is_not_sent_again_and_one_not_sent_is_sent_by_the_next_run() {
        let (_dir, store) = store();
        let mut first = Scripted::default();
        first
            .refuse
            .insert("bad".to_string(), || ApiError::Unprocessable {
                message: "Prompt must be provided".to_string(),
                field: None,
            });
        first
            .refuse
            .insert("busy".to_string(), || ApiError::Transport {
                kind: TransportKind::Reset,
                detail: "reset".to_string(),
            });
        let begun = begin(&store, "s", calls(&["a", "bad", "busy", "b"]))
            .await
            .unwrap();
        assert!(!begun.resumed);
        let tally = submit_unsent(&store, &first, &begun.run, std::future::pending(), |_| {})
            .await
            .unwrap();
        assert_eq!((tally.queued, tally.refused, tally.later), (2, 1, 1));
        assert_eq!(tally.halted, None);
        // The next run of the set goes on with this one: only "busy" goes out again.
        let again = begin(&store, "S", calls(&["changed"])).await.unwrap();
        assert_eq!(
            (again.run.clone(), again.resumed),
            (begun.run.clone(), true)
        );
        assert_eq!(again.in_doubt, 1, "busy went out once without an id");
        let second = Scripted::default();
        let tally = submit_unsent(&store, &second, &again.run, std::future::pending(), |_| {})
            .await
            .unwrap();
        assert_eq!(tally.queued, 1);
        assert_eq!(*second.sent.lock().unwrap(), ["busy"]);
        let summary = store.track_run(&begun.run).unwrap().unwrap();
        assert_eq!((summary.queued, summary.refused, summary.unsent), (3, 1, 0));
        // Now that every call went out, the next run is a new one.
        let third = begin(&store, "s", calls(&["c"])).await.unwrap();
        assert!(!third.resumed);
        assert_ne!(third.run, begun.run);
    }

    #[tokio::test]
    async fn no_credits_stop_the_run_and_leave_the_rest_unsent() {
        let (_dir, store) = store();
        let mut broke = Scripted::default();
        broke
            .refuse
            .insert("a".to_string(), || ApiError::NoCredits {
                message: "Credit balance is 0".to_string(),
                topup_url: None,
            });
        let prompts: Vec<String> = (0..20).map(|n| format!("p{n}")).collect();
        let mut all: Vec<&str> = vec!["a"];
        all.extend(prompts.iter().map(String::as_str));
        let begun = begin(&store, "s", calls(&all)).await.unwrap();
        let tally = submit_unsent(&store, &broke, &begun.run, std::future::pending(), |_| {})
            .await
            .unwrap();
        let halt = tally.halted.clone().unwrap();
        assert_eq!(halt.exit_code, crate::exit::CREDENTIALS);
        // The calls already out finish; none starts after the refusal.
        let sent = broke.sent.lock().unwrap().len();
        assert!(sent <= SUBMISSIONS_IN_FLIGHT, "{sent} sent");
        assert_eq!(tally.queued + tally.later, 21, "{tally:?}");
        let summary = store.track_run(&begun.run).unwrap().unwrap();
        assert_eq!(summary.unsent as usize, tally.later);
    }

    /// A submitter that checks, as each call goes out, that every id it gave back before is
    /// stored, and caps the store's file after `cap_after` calls so that writes then fail
    /// as on a full disk.
    struct Watchful {
        store: Store,
        cap_after: usize,
        calls: Mutex<usize>,
        given: Arc<Mutex<Vec<JobId>>>,
        not_stored_at_a_send: Mutex<Vec<JobId>>,
    }

    impl Submitter for Watchful {
        fn submit(
            &self,
            _call: &RequestParams,
        ) -> impl Future<Output = Result<JobId, ApiError>> + Send {
            let stored: Vec<JobId> = self
                .store
                .list_jobs()
                .unwrap()
                .into_iter()
                .map(|job| job.id)
                .collect();
            for id in self.given.lock().unwrap().iter() {
                if !stored.contains(id) {
                    self.not_stored_at_a_send.lock().unwrap().push(id.clone());
                }
            }
            let mut calls = self.calls.lock().unwrap();
            *calls += 1;
            if *calls == self.cap_after {
                self.store.cap_pages(true).detach();
            }
            let id = JobId::parse(&uuid::Uuid::new_v4().to_string()).unwrap();
            let given = Arc::clone(&self.given);
            // The id arrives a moment later, as over the network.
            async move {
                tokio::task::yield_now().await;
                given.lock().unwrap().push(id.clone());
                Ok(id)
            }
        }

        fn pause(&self) -> Option<Duration> {
            None
        }
    }

    #[tokio::test]
    async fn no_call_goes_out_before_the_ids_back_are_stored_and_those_not_stored_are_named() {
        let (_dir, store) = store();
        let prompts: Vec<String> = (0..80)
            .map(|n| format!("{n} {}", "which boots last longest ".repeat(80)))
            .collect();
        let all: Vec<&str> = prompts.iter().map(String::as_str).collect();
        let begun = begin(&store, "s", calls(&all)).await.unwrap();
        let submitter = Watchful {
            store: store.clone(),
            cap_after: 6,
            calls: Mutex::new(0),
            given: Arc::default(),
            not_stored_at_a_send: Mutex::new(Vec::new()),
        };
        let tally = submit_unsent(
            &store,
            &submitter,
            &begun.run,
            std::future::pending(),
            |_| {},
        )
        .await
        .unwrap();
        assert_eq!(
            *submitter.not_stored_at_a_send.lock().unwrap(),
            Vec::<JobId>::new(),
            "a call went out while an id already back was not stored"
        );
        let halt = tally.halted.clone().expect("the run stops");
        assert_eq!(halt.exit_code, crate::exit::STORAGE);
        assert!(halt.reason.contains("is full"), "{}", halt.reason);
        let sent = *submitter.calls.lock().unwrap();
        assert!(sent < 80, "submitting went on: {sent} sent");
        // Every id the service gave is stored or named, never both, never neither.
        let stored: Vec<JobId> = store
            .list_jobs()
            .unwrap()
            .into_iter()
            .map(|j| j.id)
            .collect();
        let given = submitter.given.lock().unwrap().clone();
        assert!(!tally.unstored.is_empty(), "{tally:?}");
        for id in &given {
            let named = tally.unstored.iter().any(|u| &u.id == id);
            assert!(stored.contains(id) != named, "{id}: stored or named");
        }
        assert_eq!(tally.queued, given.len());
        assert_eq!(tally.queued + tally.later, 80, "{tally:?}");
        let (sentence, commands) = unstored_sentence(&tally.unstored);
        assert!(sentence.contains("could not be stored"), "{sentence}");
        assert_eq!(commands.len(), tally.unstored.len());
        let first = &tally.unstored[0];
        assert_eq!(commands[0], format!("vantage job ai {} --wait", first.id));
    }

    #[tokio::test]
    async fn a_stop_lets_the_calls_out_finish_and_starts_no_more() {
        let (_dir, store) = store();
        let begun = begin(&store, "s", calls(&["a", "b", "c", "d", "e", "f"]))
            .await
            .unwrap();
        let submitter = Scripted::default();
        let tally = submit_unsent(&store, &submitter, &begun.run, async {}, |_| {})
            .await
            .unwrap();
        assert!(tally.stopped);
        assert_eq!(tally.queued + tally.later, 6);
        assert_eq!(submitter.sent.lock().unwrap().len(), tally.queued);
    }
}
