//! Webhook receivers that misbehave (part 29): a 3 GB answer, a redirect to another host, a
//! secret in the URL's path. Each post is bounded and says what happened without the secret.

mod common;

use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::post;
use futures_util::StreamExt as _;
use vantage::api::webhook;

#[tokio::test]
async fn a_receiver_answering_500_with_an_endless_body_is_read_a_little_and_let_go() {
    let endless = || async {
        let chunk = bytes::Bytes::from(vec![b'x'; 64 * 1024]);
        let stream = futures_util::stream::repeat(chunk).map(Ok::<_, std::io::Error>);
        (
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            axum::body::Body::from_stream(stream),
        )
    };
    let url = common::serve_here(Router::new().route("/hook", post(endless))).await;
    let started = Instant::now();
    let said = webhook::post(&format!("{url}/hook"), "{}", Duration::from_millis(5))
        .await
        .unwrap_err();
    assert!(
        said.contains("500") && said.contains("after 3 tries"),
        "{said}"
    );
    assert!(
        said.len() < 400,
        "the answer's start only: {} bytes",
        said.len()
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_redirect_to_another_host_is_not_followed() {
    let elsewhere_hit = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let hit = elsewhere_hit.clone();
    let elsewhere = common::serve_here(Router::new().route(
        "/steal",
        post(move || {
            hit.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            async { "thanks" }
        }),
    ))
    .await;
    let target = format!("{elsewhere}/steal");
    let redirecting = common::serve_here(Router::new().route(
        "/hook",
        post(move || {
            let target = target.clone();
            async move { axum::response::Redirect::temporary(&target) }
        }),
    ))
    .await;
    let said = webhook::post(&format!("{redirecting}/hook"), "{}", Duration::ZERO)
        .await
        .unwrap_err();
    assert!(
        said.contains("307") && said.contains("not followed"),
        "{said}"
    );
    assert_eq!(elsewhere_hit.load(std::sync::atomic::Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_secret_in_the_url_s_path_is_in_no_sentence() {
    // Nothing listens on port 9 of loopback.
    let said = webhook::post(
        "http://127.0.0.1:9/services/T000/B000/XXXXSECRET",
        "{}",
        Duration::ZERO,
    )
    .await
    .unwrap_err();
    assert!(
        !said.contains("SECRET") && !said.contains("services"),
        "{said}"
    );
    assert!(said.contains("http://127.0.0.1:9/…"), "{said}");
}
