//! Retries stay inside the call's time limit: a wait that would pass it is not taken, and
//! an attempt after a wait gets only the time left.

mod common;

use std::time::{Duration, Instant};

use common::{Notices, settings, start};
use vantage::api::{AiRequest, ApiError, Client, TransportKind};
use vantage::sim::{Fault, SimConfig};

/// Tests leave this much for the machine to be slow.
const SLACK: Duration = Duration::from_millis(700);

#[tokio::test]
async fn a_wait_longer_than_the_time_left_is_not_taken() {
    let sim = start(common::quick()).await;
    // The simulator asks for 2 s; the call may take 1 s in all.
    sim.script(vec![Some(Fault::Unavailable), None]);
    let mut settings = settings(&sim);
    settings.timeout = Duration::from_secs(1);
    let notices = Notices::default();
    let api = notices.watch(&Client::new(settings).unwrap());
    let started = Instant::now();
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "no wait was taken"
    );
    assert!(notices.all().is_empty(), "no retry was announced");
    assert_eq!(sim.requests_received(), 1);
    let ApiError::WaitBeyondLimit { cause, .. } = &error else {
        panic!("expected a wait beyond the limit, got {error:?}");
    };
    assert!(matches!(**cause, ApiError::Unavailable { .. }));
    let sentence = error.to_string();
    assert!(sentence.contains("Wait 2 s"), "{sentence}");
    assert!(
        sentence.contains("s left of this call's time limit"),
        "{sentence}"
    );
    assert!(sentence.contains("timeout_secs"), "{sentence}");
    assert_eq!(error.exit_code(), 4, "still the service's answer");
    assert_eq!(error.status(), Some(503));
    assert_eq!(
        error.server_message(),
        Some("Service is autoscaling; please retry in 2 seconds")
    );
}

#[tokio::test]
async fn waits_stop_when_the_next_would_pass_the_limit() {
    let sim = start(common::quick()).await;
    sim.script(vec![Some(Fault::RateLimited); 4]);
    let mut settings = settings(&sim);
    settings.timeout = Duration::from_secs(3);
    let notices = Notices::default();
    let api = notices.watch(&Client::new(settings).unwrap());
    let started = Instant::now();
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    let elapsed = started.elapsed();
    // One 2 s wait fits in 3 s; a second would end at 4 s.
    assert_eq!(notices.all().len(), 1);
    assert_eq!(sim.requests_received(), 2);
    assert!(
        matches!(error, ApiError::WaitBeyondLimit { .. }),
        "{error:?}"
    );
    assert!(elapsed >= Duration::from_secs(2), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
}

#[tokio::test]
async fn the_attempt_after_a_wait_gets_only_the_time_left() {
    let sim = start(SimConfig {
        fixed_latency: Some(Duration::from_secs(3)),
        ..common::quick()
    })
    .await;
    sim.script(vec![Some(Fault::Unavailable), None]);
    let mut settings = settings(&sim);
    settings.timeout = Duration::from_millis(2_600);
    let api = Client::new(settings).unwrap();
    let started = Instant::now();
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    let elapsed = started.elapsed();
    assert!(
        matches!(
            error,
            ApiError::Transport {
                kind: TransportKind::Timeout,
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(error.exit_code(), 5);
    assert!(elapsed >= Duration::from_millis(2_600), "{elapsed:?}");
    assert!(
        elapsed < Duration::from_millis(2_600) + SLACK,
        "the call and its wait stay within the limit: {elapsed:?}"
    );
}
