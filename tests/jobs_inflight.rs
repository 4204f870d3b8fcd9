//! Two hundred pending jobs polled through the shared driver against the in-process
//! simulator: never more than eight polls out at once, and every job ends done and stored.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use vantage::api::BodyAsked;
use vantage::api::{AiRequest, Client, ClientSettings, JobId, JobKind, SearchRequest, Secret};
use vantage::cli::{WatchEnd, drive_jobs};
use vantage::jobs::{JobState, MAX_IN_FLIGHT, Scheduler};
use vantage::sim::{SimConfig, Simulator};
use vantage::store::{NewJob, RequestParams, Store, StoreOptions, now_ms};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_pending_jobs_never_have_more_than_eight_polls_in_flight() {
    let started = Instant::now();
    let sim = Simulator::start(SimConfig {
        latency_scale: 0.0,
        job_pending: Duration::from_millis(2_500),
        job_fail_share: 0.0,
        credits: 10_000,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let client = Client::new(ClientSettings::new(
        &sim.url(),
        &sim.url(),
        Secret::new(sim.token()),
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();

    for n in 0..200 {
        let params = if n % 3 == 0 {
            let request = SearchRequest::new(format!("terms {n}"));
            let id = client.search_submit(&request).await.unwrap();
            (id, RequestParams::Search(request))
        } else {
            let request = AiRequest::new(format!("prompt {n}"));
            let id = client.ai_submit(&request).await.unwrap();
            (id, RequestParams::Ai(request))
        };
        store
            .record_job(NewJob::submitted(params.0, params.1))
            .detach();
    }
    store.flush().await.unwrap();
    let now = now_ms();
    let mut scheduler = Scheduler::new();
    for job in store.open_jobs().unwrap() {
        scheduler.insert(job.tracked(now));
    }
    assert_eq!(scheduler.len(), 200);

    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let polls = Arc::new(AtomicUsize::new(0));
    let poll = {
        let (in_flight, most, polls) = (in_flight.clone(), most.clone(), polls.clone());
        move |kind: JobKind, id: JobId, asked: BodyAsked| {
            let client = client.clone();
            let (in_flight, most, polls) = (in_flight.clone(), most.clone(), polls.clone());
            async move {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                polls.fetch_add(1, Ordering::SeqCst);
                // Long enough for polls to overlap, so the cap is what limits them.
                tokio::time::sleep(Duration::from_millis(15)).await;
                let answer = client.job(kind, &id, asked).await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
                answer
            }
        }
    };
    let mut changes = 0;
    let ended = drive_jobs(
        &store,
        &mut scheduler,
        poll,
        tokio::time::sleep(Duration::from_secs(60)),
        |t, _| {
            assert!(t.changed());
            changes += 1;
        },
    )
    .await
    .unwrap();
    assert_eq!(ended, WatchEnd::Settled);
    assert_eq!(changes, 200);
    let most = most.load(Ordering::SeqCst);
    assert!(most <= MAX_IN_FLIGHT, "{most} polls were out at once");
    assert_eq!(
        most, MAX_IN_FLIGHT,
        "the cap was reached, so it is what held"
    );
    assert!(
        polls.load(Ordering::SeqCst) >= 400,
        "each job was polled while pending, then when ready"
    );
    let jobs = store.list_jobs().unwrap();
    assert_eq!(jobs.len(), 200);
    assert!(jobs.iter().all(|j| j.state == JobState::Done));
    assert!(jobs.iter().all(|j| j.result_size.unwrap_or(0) > 100));
    sim.shutdown().await;
    eprintln!("200 jobs took {:?}", started.elapsed());
}
