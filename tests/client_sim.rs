//! The typed client against the embedded simulator, over real HTTP on loopback: every
//! endpoint, every error status, transport failures, limits and cancellation.

mod common;

use std::time::{Duration, Instant};

use common::{Notices, client, quick, raw_client, settings, start};
use vantage::api::BodyAsked;
use vantage::api::{
    AiAnswer, AiFormat, AiRequest, ApiError, Client, ClientSettings, Field, JobAnswer, JobId,
    JobKind, JobPoll, Model, RetryPolicy, SearchAnswer, SearchFormat, SearchRequest, Secret,
    TransportKind,
};
use vantage::sim::{Fault, SimConfig};

const UNKNOWN_ID: &str = "00000000-0000-4000-8000-000000000000";

fn completion(answer: &AiAnswer) -> &vantage::api::Completion {
    match answer {
        AiAnswer::Completion(c) => c,
        AiAnswer::Html(html) => panic!("expected a completion, got HTML of {} bytes", html.len()),
    }
}

fn results(answer: &SearchAnswer) -> &vantage::api::SearchResults {
    match answer {
        SearchAnswer::Results(r) => r,
        SearchAnswer::Html(html) => panic!("expected results, got HTML of {} bytes", html.len()),
    }
}

fn json_search(terms: &str) -> SearchRequest {
    SearchRequest {
        format: SearchFormat::Json,
        ..SearchRequest::new(terms)
    }
}

/// Polls a job until it leaves `retrieving`, checking it was pending at first.
async fn wait_job<T: std::fmt::Debug>(
    mut poll: impl AsyncFnMut() -> Result<JobPoll<T>, ApiError>,
) -> JobPoll<T> {
    let first = poll().await.expect("first poll");
    assert_eq!(
        first.pending_status(),
        Some("retrieving"),
        "a fresh job is pending: {first:?}"
    );
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        tokio::time::sleep(Duration::from_millis(60)).await;
        let state = poll().await.expect("poll");
        if !matches!(state, JobPoll::Pending(_)) || Instant::now() > deadline {
            return state;
        }
    }
}

trait PendingStatus {
    fn pending_status(&self) -> Option<&str>;
}

impl<T> PendingStatus for JobPoll<T> {
    fn pending_status(&self) -> Option<&str> {
        match self {
            JobPoll::Pending(status) => Some(status),
            _ => None,
        }
    }
}

// ---------- endpoints ----------

#[tokio::test]
async fn ai_json_answers_a_completion_with_the_chosen_vantage_point() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let plain = api.ai(&AiRequest::new("best hiking boots")).await.unwrap();
    assert_eq!(plain.status, 200);
    assert!(
        plain.content_type.contains("json"),
        "{}",
        plain.content_type
    );
    let c = completion(&plain.value);
    assert_eq!(c.model, "chatgpt", "chatgpt is the default");
    assert_eq!(c.query, "best hiking boots");
    assert!(!c.completion.is_empty() && !c.html.is_empty() && !c.prompt.is_empty());
    assert!(!c.fanouts.is_empty(), "chatgpt exposes fanouts");
    // The body is kept exactly as it arrived.
    let reparsed: vantage::api::Completion = serde_json::from_str(&plain.body).unwrap();
    assert_eq!(&reparsed, c);

    let placed = AiRequest {
        model: Some(Model::Gemini),
        device: Some("iphone 15".into()),
        location: vantage::api::Location {
            country: Some("us".into()),
            subdivision: Some("NY".into()),
            city: Some("New York".into()),
        },
        ..AiRequest::new("best hiking boots")
    };
    let answer = api.ai(&placed).await.unwrap();
    let c = completion(&answer.value);
    assert_eq!(c.model, "gemini");
    assert_eq!(c.device.as_deref(), Some("iPhone 15"));
    assert_eq!(c.country.as_deref(), Some("US"));
    assert_eq!(c.subdivision.as_deref(), Some("NY"));
    assert_eq!(c.city.as_deref(), Some("New York"));
    assert!(c.fanouts.is_empty(), "only chatgpt exposes fanouts");
}

#[tokio::test]
async fn ai_rendered_and_raw_answer_html_pages() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let mut request = AiRequest::new("how to brew coffee");
    request.format = AiFormat::Rendered;
    let rendered = api.ai(&request).await.unwrap();
    request.format = AiFormat::Raw;
    let raw = api.ai(&request).await.unwrap();
    assert!(rendered.content_type.starts_with("text/html"));
    let (AiAnswer::Html(rendered_html), AiAnswer::Html(raw_html)) = (&rendered.value, &raw.value)
    else {
        panic!("rendered and raw are HTML");
    };
    assert!(rendered_html.contains("<html"));
    assert!(raw_html.contains("<script") && raw_html.len() > rendered_html.len());
    assert_eq!(rendered_html, &rendered.body);
}

#[tokio::test]
async fn ai_async_job_goes_from_pending_to_the_sync_answer() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let request = AiRequest {
        model: Some(Model::Perplexity),
        ..AiRequest::new("best hiking boots")
    };
    let id = api.ai_submit(&request).await.unwrap();
    assert_eq!(
        sim.credits(),
        995,
        "a submission is billed, 5 credits an answer"
    );
    let state = wait_job(async || api.ai_job(&id, BodyAsked::Json).await.map(|f| f.value)).await;
    let JobPoll::Ready(answer) = state else {
        panic!("job did not finish: {state:?}");
    };
    let sync = api.ai(&request).await.unwrap();
    assert_eq!(answer, sync.value, "the job answers what a sync call does");
    // The generic retrieval answers the same.
    let JobPoll::Ready(JobAnswer::Ai(again)) = api
        .job(JobKind::Ai, &id, BodyAsked::Json)
        .await
        .unwrap()
        .value
    else {
        panic!("generic retrieval of a ready job");
    };
    assert_eq!(again, sync.value);
    assert_eq!(sim.credits(), 990, "retrievals are free");
}

#[tokio::test]
async fn ai_job_falls_back_to_the_older_completions_path() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let id = JobId::parse(UNKNOWN_ID).unwrap();
    let before = sim.requests_received();
    let error = api.ai_job(&id, BodyAsked::Json).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::NotFound {
            message: "Job not found".into()
        }
    );
    assert_eq!(error.exit_code(), 4);
    assert_eq!(
        sim.requests_received() - before,
        2,
        "/ai?id= then /ai/completions?id="
    );
    let before = sim.requests_received();
    assert!(matches!(
        api.browser_job(&id).await,
        Err(ApiError::NotFound { .. })
    ));
    assert_eq!(
        sim.requests_received() - before,
        2,
        "/browser?id= then /browser/content?id="
    );
    let before = sim.requests_received();
    assert!(matches!(
        api.search_job(&id, BodyAsked::Json).await,
        Err(ApiError::NotFound { .. })
    ));
    assert_eq!(sim.requests_received() - before, 1, "search has one path");
}

#[tokio::test]
async fn devices_list_names_and_may_be_empty() {
    let sim = start(quick()).await;
    let devices = client(&sim).devices().await.unwrap();
    assert!(devices.value.iter().any(|d| d == "iPhone 15"));
    assert!(devices.value.iter().all(|d| !d.trim().is_empty()));
    assert_eq!(sim.credits(), 1_000, "the device list is free");

    let empty = start(SimConfig {
        empty_devices: true,
        ..quick()
    })
    .await;
    let devices = client(&empty).devices().await.unwrap();
    assert!(devices.value.is_empty());
    assert_eq!(devices.body, "[]");
}

#[tokio::test]
async fn search_json_and_html() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let request = SearchRequest {
        serps: Some(2),
        size: Some(5),
        offset: Some(3),
        location: vantage::api::Location {
            country: Some("DE".into()),
            ..Default::default()
        },
        ..json_search("best hiking boots")
    };
    let answer = api.search(&request).await.unwrap();
    let page = results(&answer.value);
    assert_eq!(page.engine, "google");
    assert_eq!(page.terms, "best hiking boots");
    assert_eq!(page.page_count, Some(2));
    assert_eq!(page.page_size, Some(5));
    assert_eq!(page.results_offset, Some(3));
    assert_eq!(page.country.as_deref(), Some("DE"));
    assert_eq!(page.results_count, Some(page.results.len() as u64));
    let organic: Vec<_> = page
        .results
        .iter()
        .filter(|r| r.kind.is_organic())
        .collect();
    assert_eq!(organic.len(), 10, "two pages of five");
    assert!(organic.iter().all(|r| r.url.starts_with("https://")));
    assert!(page.results.iter().any(|r| r.page == 2));

    let html = api
        .search(&SearchRequest {
            format: SearchFormat::Html,
            ..SearchRequest::new("best hiking boots")
        })
        .await
        .unwrap();
    assert!(html.content_type.starts_with("text/html"));
    let SearchAnswer::Html(page) = &html.value else {
        panic!("html format answers HTML");
    };
    assert!(page.contains("<a "));
}

#[tokio::test]
async fn search_async_job_goes_from_pending_to_results() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let request = json_search("coffee grinder");
    let id = api.search_submit(&request).await.unwrap();
    let state =
        wait_job(async || api.search_job(&id, BodyAsked::Json).await.map(|f| f.value)).await;
    let JobPoll::Ready(answer) = state else {
        panic!("job did not finish: {state:?}");
    };
    assert_eq!(results(&answer).terms, "coffee grinder");
    assert_eq!(answer, api.search(&request).await.unwrap().value);
    let JobPoll::Ready(JobAnswer::Search(_)) = api
        .job(JobKind::Search, &id, BodyAsked::Json)
        .await
        .unwrap()
        .value
    else {
        panic!("generic retrieval of a ready search");
    };
}

#[tokio::test]
async fn browser_job_answers_its_content() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let content = "<html><body><p>seeded page</p></body></html>";
    let id = JobId::parse(&sim.seed_browser_job(content)).unwrap();
    let fetched = api.browser_job(&id).await.unwrap();
    assert_eq!(fetched.value, JobPoll::Ready(content.to_string()));
    assert_eq!(fetched.body, content);
    assert_eq!(
        api.job(JobKind::Browser, &id, BodyAsked::Json)
            .await
            .unwrap()
            .value,
        JobPoll::Ready(JobAnswer::Browser(content.to_string()))
    );
}

#[tokio::test]
async fn account_balance_falls_with_billed_calls_only() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let account = api.account().await.unwrap();
    assert_eq!(account.credits, Some(1_000));
    assert!(!account.email.is_empty());
    api.ai(&AiRequest::new("hi")).await.unwrap();
    api.search(&json_search("hi")).await.unwrap();
    api.ai_submit(&AiRequest::new("hello")).await.unwrap();
    api.devices().await.unwrap();
    // By the price table: two answers at 5, a search at 1; the device list is free.
    assert_eq!(api.account().await.unwrap().credits, Some(989));
    assert_eq!(sim.credits(), 989);
}

// ---------- statuses ----------

#[tokio::test]
async fn missing_token_sends_nothing() {
    let sim = start(quick()).await;
    let api = Client::new(ClientSettings::new(&sim.url(), &sim.url(), None)).unwrap();
    assert!(!api.has_token());
    assert_eq!(Secret::new("   "), None, "a blank token is no token");
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    assert!(matches!(error, ApiError::MissingToken { .. }), "{error:?}");
    assert_eq!(error.exit_code(), 3);
    assert!(matches!(
        api.devices().await,
        Err(ApiError::MissingToken { .. })
    ));
    assert!(matches!(
        api.search(&json_search("hi")).await,
        Err(ApiError::MissingToken { .. })
    ));
    assert_eq!(sim.requests_received(), 0);
}

#[tokio::test]
async fn wrong_token_is_refused_with_401_or_403() {
    let sim = start(quick()).await;
    let api = Client::new(ClientSettings::new(
        &sim.url(),
        &sim.url(),
        Secret::new("not-the-token"),
    ))
    .unwrap();
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::InvalidToken {
            status: 401,
            message: "Valid API token must be provided".into()
        }
    );
    assert_eq!((error.exit_code(), error.status()), (3, Some(401)));
    let error = api.devices().await.unwrap_err();
    assert_eq!(
        error,
        ApiError::InvalidToken {
            status: 403,
            message: "Valid API token must be provided".into()
        }
    );
    assert_eq!(error.exit_code(), 3);
    assert!(
        error
            .to_string()
            .contains("Valid API token must be provided")
    );
    assert_eq!(sim.credits(), 1_000);
}

#[tokio::test]
async fn zero_credits_answer_402_with_the_top_up_url() {
    let sim = start(quick()).await;
    sim.set_credits(0);
    let api = client(&sim);
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    let plans = format!("{}/plans", sim.url());
    assert_eq!(
        error,
        ApiError::NoCredits {
            message: format!("Credit balance is 0; top up at {plans}"),
            topup_url: Some(plans.clone()),
        }
    );
    assert_eq!((error.exit_code(), error.status()), (3, Some(402)));
    assert!(error.to_string().contains(&plans));
    assert_eq!(
        error.server_message(),
        Some(format!("Credit balance is 0; top up at {plans}").as_str())
    );
    assert_eq!(sim.requests_received(), 1, "402 is not retried");
    assert!(matches!(
        api.search(&json_search("hi")).await,
        Err(ApiError::NoCredits { .. })
    ));
}

#[tokio::test]
async fn captcha_answers_403() {
    let sim = start(quick()).await;
    sim.script(vec![Some(Fault::Captcha)]);
    let error = client(&sim).ai(&AiRequest::new("hi")).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::Captcha {
            message: "Captcha was detected".into()
        }
    );
    assert_eq!((error.exit_code(), error.status()), (4, Some(403)));
    assert_eq!(sim.requests_received(), 1, "a captcha is not retried");
}

#[tokio::test]
async fn what_only_the_server_rejects_answers_422_naming_the_field() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let request = AiRequest {
        device: Some("Nokia 3310".into()),
        ..AiRequest::new("hi")
    };
    assert!(
        request.validate().is_ok(),
        "the client cannot know the list"
    );
    let error = api.ai(&request).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::Unprocessable {
            message: "Device must be one of the names listed by /ai/devices".into(),
            field: Some(Field::Device),
        }
    );
    assert_eq!((error.exit_code(), error.status()), (4, Some(422)));

    let request = SearchRequest {
        language: Some("fr2".into()),
        ..json_search("hi")
    };
    let error = api.search(&request).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::Unprocessable {
            message: "Language must be a language name or a two-letter ISO code".into(),
            field: Some(Field::Language),
        }
    );
    assert_eq!(sim.credits(), 1_000, "refused calls cost nothing");
}

#[tokio::test]
async fn raw_statuses_without_retries() {
    let sim = start(quick()).await;
    let api = raw_client(&sim);
    sim.script(vec![
        Some(Fault::Unavailable),
        Some(Fault::RateLimited),
        Some(Fault::ServerError),
        Some(Fault::Timeout),
    ]);
    let request = AiRequest::new("hi");
    let error = api.ai(&request).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::Unavailable {
            message: "Service is autoscaling; please retry in 2 seconds".into(),
            retry_after: Some(Duration::from_secs(2)),
        }
    );
    assert_eq!((error.exit_code(), error.status()), (4, Some(503)));
    let error = api.ai(&request).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::RateLimited {
            message: "Too many requests; retry in 2 seconds".into(),
            retry_after: Some(Duration::from_secs(2)),
        }
    );
    assert_eq!((error.exit_code(), error.status()), (4, Some(429)));
    let error = api.ai(&request).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::Server {
            message: "Unknown error occurred".into()
        }
    );
    assert_eq!((error.exit_code(), error.status()), (4, Some(500)));
    let error = api.ai(&request).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::GatewayTimeout {
            message: "Request(s) timed out".into()
        }
    );
    assert_eq!((error.exit_code(), error.status()), (4, Some(504)));
    assert_eq!(sim.requests_received(), 4, "one request each, no retries");
    assert_eq!(sim.credits(), 1_000, "faults cost nothing");
}

#[tokio::test]
async fn unavailable_is_retried_after_the_wait_it_names() {
    let sim = start(quick()).await;
    sim.script(vec![Some(Fault::Unavailable), None]);
    let notices = Notices::default();
    let api = notices.watch(&client(&sim));
    let started = Instant::now();
    let answer = api.ai(&AiRequest::new("hi")).await.unwrap();
    let elapsed = started.elapsed();
    let seen = notices.all();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].attempt, 1);
    assert_eq!(seen[0].wait, Duration::from_secs(2), "Retry-After: 2");
    assert!(matches!(seen[0].error, ApiError::Unavailable { .. }));
    assert!(elapsed >= Duration::from_secs(2), "{elapsed:?}");
    assert!(answer.elapsed >= Duration::from_secs(2), "retries count");
    assert_eq!(sim.requests_received(), 2);
}

#[tokio::test]
async fn rate_limit_is_retried_after_the_wait_it_names() {
    let sim = start(quick()).await;
    sim.script(vec![Some(Fault::RateLimited), None]);
    let notices = Notices::default();
    let api = notices.watch(&client(&sim));
    let started = Instant::now();
    let answer = api.search(&json_search("hi")).await.unwrap();
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(results(&answer.value).terms, "hi");
    let seen = notices.all();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].wait, Duration::from_secs(2));
    assert!(matches!(seen[0].error, ApiError::RateLimited { .. }));
    assert_eq!(sim.requests_received(), 2);
}

#[tokio::test]
async fn unavailable_gives_up_after_the_retries_allowed() {
    let sim = start(quick()).await;
    sim.script(vec![Some(Fault::Unavailable); 4]);
    let mut settings = settings(&sim);
    settings.retry = RetryPolicy {
        max_wait: Duration::from_millis(20),
        ..RetryPolicy::default()
    };
    let notices = Notices::default();
    let api = notices.watch(&Client::new(settings).unwrap());
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    assert!(matches!(error, ApiError::Unavailable { .. }), "{error:?}");
    assert_eq!(error.exit_code(), 4);
    assert_eq!(error.retry_after(), Some(Duration::from_secs(2)));
    let seen = notices.all();
    assert_eq!(
        seen.iter().map(|n| n.attempt).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert!(seen.iter().all(|n| n.wait == Duration::from_millis(20)));
    assert_eq!(sim.requests_received(), 4, "the first call and 3 retries");
}

#[tokio::test]
async fn server_error_is_retried_once() {
    let sim = start(quick()).await;
    sim.script(vec![Some(Fault::ServerError), None]);
    let notices = Notices::default();
    let api = notices.watch(&client(&sim));
    let answer = api.ai(&AiRequest::new("hi")).await.unwrap();
    assert_eq!(completion(&answer.value).query, "hi");
    let seen = notices.all();
    assert_eq!(seen.len(), 1);
    assert!(matches!(seen[0].error, ApiError::Server { .. }));
    assert_eq!(sim.requests_received(), 2);

    sim.script(vec![Some(Fault::ServerError), Some(Fault::ServerError)]);
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::Server {
            message: "Unknown error occurred".into()
        }
    );
    assert_eq!(sim.requests_received(), 4, "only one retry");
}

#[tokio::test]
async fn malformed_bodies_are_bad_bodies() {
    let sim = start(quick()).await;
    let api = client(&sim);
    sim.script(vec![Some(Fault::Malformed), Some(Fault::Malformed)]);
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    let ApiError::BadBody { what, excerpt } = &error else {
        panic!("expected BadBody, got {error:?}");
    };
    assert!(what.contains("not a completion"), "{what}");
    assert!(excerpt.starts_with('{'), "{excerpt}");
    assert_eq!(error.exit_code(), 4);
    assert!(matches!(
        api.search(&json_search("hi")).await,
        Err(ApiError::BadBody { .. })
    ));
}

#[tokio::test]
async fn failed_jobs_poll_as_failed() {
    let sim = start(SimConfig {
        job_fail_share: 1.0,
        ..quick()
    })
    .await;
    let api = client(&sim);
    let id = api.ai_submit(&AiRequest::new("hi")).await.unwrap();
    let state = wait_job(async || api.ai_job(&id, BodyAsked::Json).await.map(|f| f.value)).await;
    assert!(matches!(state, JobPoll::Failed(_)), "{state:?}");
    let id = api.search_submit(&json_search("hi")).await.unwrap();
    let state =
        wait_job(async || api.search_job(&id, BodyAsked::Json).await.map(|f| f.value)).await;
    assert!(matches!(state, JobPoll::Failed(_)), "{state:?}");
}

// ---------- transport and limits ----------

#[tokio::test]
async fn a_closed_port_is_a_connect_failure() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let api = Client::new(ClientSettings::new(&url, &url, Secret::new("t"))).unwrap();
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    assert!(
        matches!(
            error,
            ApiError::Transport {
                kind: TransportKind::Connect,
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(error.exit_code(), 5);
    assert_eq!(error.status(), None);
}

#[tokio::test]
async fn a_slow_answer_past_the_timeout_is_a_timeout() {
    let sim = start(SimConfig {
        fixed_latency: Some(Duration::from_secs(3)),
        ..quick()
    })
    .await;
    let mut settings = settings(&sim);
    settings.timeout = Duration::from_millis(200);
    let api = Client::new(settings).unwrap();
    let started = Instant::now();
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
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
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn bodies_over_the_cap_are_refused() {
    let sim = start(quick()).await;
    let mut settings = settings(&sim);
    settings.max_body_bytes = 1024;
    let api = Client::new(settings).unwrap();
    let error = api
        .ai(&AiRequest::new("best hiking boots"))
        .await
        .unwrap_err();
    assert_eq!(error, ApiError::TooLarge { limit: 1024 });
    assert_eq!(error.exit_code(), 4);
    // Small answers still pass under the cap.
    assert!(api.account().await.is_ok());
    assert_eq!(vantage::api::client::MAX_BODY_BYTES, 32 * 1024 * 1024);
}

#[tokio::test]
async fn the_token_never_goes_to_a_plain_http_host_elsewhere() {
    let sim = start(quick()).await;
    let api = Client::new(ClientSettings::new(
        "http://render.example.test",
        &sim.url(),
        Secret::new(sim.token()),
    ))
    .unwrap();
    let error = api.ai(&AiRequest::new("hi")).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::InsecureUrl {
            url: "http://render.example.test".into()
        }
    );
    assert_eq!(error.exit_code(), 2);
    assert!(matches!(
        api.devices().await,
        Err(ApiError::InsecureUrl { .. })
    ));
    assert_eq!(sim.requests_received(), 0, "nothing was sent");
    // The search base is loopback, so search still works.
    assert!(api.search(&json_search("hi")).await.is_ok());
    assert_eq!(sim.requests_received(), 1);
}

#[tokio::test]
async fn dropping_a_call_during_a_retry_wait_stops_it() {
    let sim = start(quick()).await;
    sim.script(vec![Some(Fault::Unavailable), Some(Fault::Unavailable)]);
    let mut settings = settings(&sim);
    settings.retry = RetryPolicy {
        max_wait: Duration::from_millis(400),
        ..RetryPolicy::default()
    };
    let notices = Notices::default();
    let api = notices.watch(&Client::new(settings).unwrap());
    let outcome =
        tokio::time::timeout(Duration::from_millis(150), api.ai(&AiRequest::new("hi"))).await;
    assert!(outcome.is_err(), "the call was still waiting");
    assert_eq!(notices.all().len(), 1, "it was in its retry wait");
    // Well past the wait: the retry never went out.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(sim.requests_received(), 1);
    assert_eq!(sim.credits(), 1_000);

    // The same with a spawned call that is aborted.
    let task = {
        let api = api.clone();
        tokio::spawn(async move { api.ai(&AiRequest::new("hi")).await })
    };
    let deadline = Instant::now() + Duration::from_secs(2);
    while notices.all().len() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(notices.all().len(), 2);
    task.abort();
    assert!(task.await.unwrap_err().is_cancelled());
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(sim.requests_received(), 2);
    assert_eq!(sim.credits(), 1_000);
}
