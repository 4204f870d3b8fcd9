//! Calls of the service and the proxies. Each runs in a task; its heavy preparation (JSON,
//! HTML) runs on the blocking pool, never on the UI task; its answer comes back as a message.

use std::future::Future;
use std::time::Instant;

use crate::api::proxy::ProxyError;
use crate::api::{ApiError, Client, Fetched};
use crate::app::{self, CallEffect, Msg, Tag};
use crate::jobs::PollOutcome;
use crate::present::{self, Stop};
use crate::store::{Body, JobRecord, NewJob, RequestParams, Store};

use super::store::{History, error_body};
use super::{CallTask, EffectRunner};

impl EffectRunner {
    /// Starts a call; only a cancel finishes at once.
    pub(super) fn run_call(&mut self, effect: CallEffect) -> Option<Msg> {
        match effect {
            CallEffect::Column(call) => {
                self.keep_history = false;
                let msg = self.run_call(*call);
                self.keep_history = true;
                msg
            }
            CallEffect::SendAi { tag, request } => {
                tracing::info!(tag = tag.0, model = %request.effective_model(), "sending an AI call");
                let prepared_request = request.clone();
                self.spawn_service_call(
                    tag,
                    RequestParams::Ai(request.clone()),
                    move |client| async move { client.ai(&request).await },
                    move |fetched, stop| {
                        present::answer::prepare_until(prepared_request, fetched, stop)
                    },
                    "answer",
                    |tag, result| Msg::AiDone { tag, result },
                );
                None
            }
            CallEffect::SendSearch { tag, request } => {
                tracing::info!(
                    tag = tag.0,
                    pages = request.serps.unwrap_or(1),
                    "sending a search"
                );
                let prepared_request = request.clone();
                self.spawn_service_call(
                    tag,
                    RequestParams::Search(request.clone()),
                    move |client| async move { client.search(&request).await },
                    move |fetched, _| present::search_page::prepare(prepared_request, fetched),
                    "results",
                    |tag, result| Msg::SearchDone { tag, result },
                );
                None
            }
            CallEffect::SendOverview { tag, request } => {
                tracing::info!(tag = tag.0, "sending a search for its AI Overview");
                let prepared_request = request.clone();
                self.spawn_service_call(
                    tag,
                    RequestParams::Search(request.clone()),
                    move |client| async move { client.search(&request).await },
                    move |fetched, _| {
                        present::compare::overview::overview_answer(prepared_request, fetched)
                    },
                    "AI Overview",
                    |tag, result| Msg::AiDone { tag, result },
                );
                None
            }
            CallEffect::SendProxy { tag, request } => {
                tracing::info!(
                    tag = tag.0,
                    network = %request.network,
                    protocol = %request.protocol,
                    "sending a proxied request"
                );
                let endpoints = self.proxy.clone();
                self.spawn_call(
                    tag,
                    async move {
                        match endpoints {
                            Some(endpoints) => request.send(&endpoints).await,
                            None => Err(ProxyError::Transport {
                                detail: "no proxy hosts are set".to_string(),
                            }),
                        }
                    },
                    |response, _| app::proxy::prepare(response),
                    |detail| ProxyError::Transport {
                        detail: format!("preparing the response failed: {detail}"),
                    },
                    |tag, result| Msg::ProxyDone { tag, result },
                );
                None
            }
            CallEffect::Cancel(tag) => {
                if let Some(task) = self.tasks.remove(&tag) {
                    // Its task is dropped in the background.
                    drop(task.cancel());
                }
                None
            }
            CallEffect::FetchDevices(list) => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                tokio::spawn(async move {
                    let result = client.device_list(list).await.map(|f| f.value);
                    let _ = tx.send(Msg::Devices(list, result));
                });
                None
            }
            CallEffect::FetchAccount => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                tokio::spawn(async move {
                    let _ = tx.send(Msg::Account(client.account().await));
                });
                None
            }
            CallEffect::RunSet { set, calls } => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                let store = self.store.clone();
                let data_dir = self.data_dir.clone();
                tokio::spawn(async move {
                    let Some(store) = store else {
                        let _ = tx.send(Msg::TrackRunSent(Err("the store could not be opened, so a run has nowhere to keep its jobs; History says why.".to_string())));
                        return;
                    };
                    let result =
                        super::track_runs::run_set(&client, &store, &data_dir, &set, calls).await;
                    let run = result.as_ref().ok().map(|(_, run)| run.clone());
                    let _ = tx.send(Msg::TrackRunSent(result.map(|(sent, _)| sent)));
                    // The run finishes what it asks: its failed calls asked again into it.
                    if let Some(run) = run {
                        super::track_runs::reask_when_ended(
                            &client, &store, &data_dir, &set, run, &tx,
                        )
                        .await;
                    }
                });
                None
            }
            CallEffect::FillRun { set, run } => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                let store = self.store.clone();
                let data_dir = self.data_dir.clone();
                tokio::spawn(async move {
                    let result = match store {
                        Some(store) => {
                            super::track_runs::fill_run(&client, &store, &data_dir, &set, run).await
                        }
                        None => Err("the store could not be opened, so the run cannot be read; History says why.".to_string()),
                    };
                    let _ = tx.send(Msg::TrackRunSent(result));
                });
                None
            }
            CallEffect::SubmitGridColumn {
                tag,
                entry,
                column,
                request,
            } => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                let store = self.store.clone();
                tokio::spawn(async move {
                    let result =
                        submit_grid_column(&client, store.as_ref(), &entry, column, request).await;
                    let _ = tx.send(Msg::GridQueued { tag, result });
                });
                None
            }
            CallEffect::PrepareGridColumn { tag, request, body } => {
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    let msg =
                        tokio::task::spawn_blocking(move || grid_column_answer(tag, request, body))
                            .await;
                    if let Ok(msg) = msg {
                        let _ = tx.send(msg);
                    }
                });
                None
            }
            CallEffect::SubmitJob { request, replaces } => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                let store = self.store.clone();
                tokio::spawn(async move {
                    let result = submit_job(&client, store.as_ref(), request, replaces).await;
                    let _ = tx.send(Msg::JobQueued(result));
                });
                None
            }
            CallEffect::FetchPage { tag, request } => {
                tracing::info!(tag = tag.0, format = %request.format, "fetching a page");
                let prepared_request = request.clone();
                self.spawn_service_call(
                    tag,
                    app::page::browser_params(&request),
                    move |client| async move { client.browser(&request).await },
                    move |fetched, _| present::page::prepare(prepared_request, fetched),
                    "page",
                    |tag, result| Msg::PageDone { tag, result },
                );
                None
            }
            CallEffect::DiffPages { tag, left, right } => {
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    let diffed =
                        tokio::task::spawn_blocking(move || present::page::diff(&left, &right))
                            .await;
                    // A diff that panicked is left out; the pages stay on screen.
                    if let Ok(diff) = diffed {
                        let _ = tx.send(Msg::PageDiffed {
                            tag,
                            diff: Box::new(diff),
                        });
                    }
                });
                None
            }
            CallEffect::FetchUsage(request) => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                tokio::spawn(async move {
                    let (from, to) = (request.from, request.to);
                    let result = client
                        .usage(&request)
                        .await
                        .map(|f| present::usage::summarize(&f.value, from, to));
                    let _ = tx.send(Msg::Usage(result));
                });
                None
            }
            CallEffect::PollJob { id, kind, asked } => {
                let (client, tx) = (self.client.clone(), self.tx.clone());
                tokio::spawn(async move {
                    let answer = client.job(kind, &id, asked).await;
                    let outcome = PollOutcome::of(&answer);
                    let ready = matches!(outcome, PollOutcome::Ready);
                    let result = answer.as_ref().ok().filter(|_| ready).map(Body::of);
                    let _ = tx.send(Msg::JobPolled {
                        id,
                        outcome,
                        result,
                    });
                });
                None
            }
        }
    }

    /// The client, reporting each wait before an automatic retry as a message for `tag`.
    fn client_reporting_retries(&self, tag: Tag) -> Client {
        let tx = self.tx.clone();
        self.client.observed(move |notice| {
            let _ = tx.send(Msg::Retrying { tag, notice });
        })
    }

    /// A call of the service: its retries reported, its request and answer kept in history.
    fn spawn_service_call<T, P, Call>(
        &mut self,
        tag: Tag,
        params: RequestParams,
        call: impl FnOnce(Client) -> Call + Send + 'static,
        prepare: impl FnOnce(Fetched<T>, &Stop) -> P + Send + 'static,
        what: &'static str,
        done: fn(Tag, Result<Box<P>, ApiError>) -> Msg,
    ) where
        Call: Future<Output = Result<Fetched<T>, ApiError>> + Send + 'static,
        T: Send + 'static,
        P: Send + 'static,
    {
        let client = self.client_reporting_retries(tag);
        let tx = self.tx.clone();
        let history = match self.keep_history {
            true => History::start(&self.store, params),
            false => History::start(&None, params),
        };
        self.spawn_call(
            tag,
            async move {
                let fetched = call(client).await;
                history.finish(&fetched);
                if let Ok(landed) = &fetched {
                    let bytes = landed.body.len();
                    let _ = tx.send(Msg::Landed { tag, bytes });
                }
                fetched
            },
            prepare,
            move |detail| ApiError::BadBody {
                what: format!("preparing the {what} failed: {detail}"),
                excerpt: String::new(),
            },
            done,
        );
    }

    /// One cancellable call in a task: the request, then its preparation on the blocking
    /// pool (told to stop when the call is cancelled), then the message that carries the
    /// result back.
    fn spawn_call<T, P, E>(
        &mut self,
        tag: Tag,
        call: impl Future<Output = Result<T, E>> + Send + 'static,
        prepare: impl FnOnce(T, &Stop) -> P + Send + 'static,
        preparation_failed: impl FnOnce(String) -> E + Send + 'static,
        done: fn(Tag, Result<Box<P>, E>) -> Msg,
    ) where
        T: Send + 'static,
        P: Send + 'static,
        E: Send + 'static,
    {
        let tx = self.tx.clone();
        let stop = Stop::default();
        let preparing = stop.clone();
        let task = tokio::spawn(async move {
            let result = match call.await {
                Ok(value) => {
                    tokio::task::spawn_blocking(move || Box::new(prepare(value, &preparing)))
                        .await
                        .map_err(|e| preparation_failed(e.to_string()))
                }
                Err(e) => Err(e),
            };
            let _ = tx.send(done(tag, result));
        });
        self.tasks.insert(tag, CallTask { task, stop });
    }
}

/// Submits a request in async mode, then records its job (awaited) before anything else:
/// the id is never lost. The submission is a history entry; the job's result becomes its
/// response when it lands.
/// Queues a comparison's column and stores its job with its column before saying so.
async fn submit_grid_column(
    client: &Client,
    store: Option<&Store>,
    entry: &crate::store::EntryId,
    column: usize,
    request: RequestParams,
) -> Result<JobRecord, String> {
    let store =
        store.ok_or("a comparison through the queue needs the store, which could not be opened")?;
    let id = crate::track::submit::queue(client, &request)
        .await
        .map_err(|e| e.to_string())?;
    let job = NewJob::submitted(id.clone(), request);
    store
        .record_grid_job(entry, column, job)
        .await
        .map_err(|e| e.to_string())?;
    store
        .job(&id)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "the job was stored but cannot be read back".to_string())
}

/// A queued column's result, read as the sync call's answer would be.
fn grid_column_answer(tag: Tag, request: RequestParams, body: crate::store::Body) -> Msg {
    let unread =
        || ApiError::Unanswered("The job's result is not an answer vantage reads.".to_string());
    let elapsed = std::time::Duration::from_millis(body.elapsed_ms);
    let result = match request {
        RequestParams::Ai(request) => present::answer::prepare_stored(request, &body.text)
            .map(Box::new)
            .ok_or_else(unread),
        RequestParams::Search(request) => Ok(Box::new(
            present::compare::overview::stored_overview(request, body.text, elapsed),
        )),
        _ => Err(unread()),
    };
    Msg::AiDone { tag, result }
}

async fn submit_job(
    client: &Client,
    store: Option<&Store>,
    request: RequestParams,
    replaces: Option<crate::api::JobId>,
) -> Result<JobRecord, String> {
    let started = Instant::now();
    let entry = store.map(|store| {
        let (entry, ack) = store.add_request(request.clone());
        ack.detach();
        entry
    });
    let submitted = match &request {
        RequestParams::Ai(r) => client.ai_submit(r).await,
        RequestParams::Search(r) => client.search_submit(r).await,
        RequestParams::Browser(value) => match serde_json::from_value(value.clone()) {
            Ok(browse) => client.browser_submit(&browse).await,
            Err(error) => return Err(format!("the page request could not be read: {error}")),
        },
        other => {
            return Err(format!(
                "a {} request is not queued from here",
                other.kind()
            ));
        }
    };
    let id = match submitted {
        Ok(id) => id,
        Err(error) => {
            if let (Some(store), Some(entry)) = (store, &entry) {
                store
                    .add_response(entry, error_body(&error, started))
                    .detach();
            }
            return Err(error.to_string());
        }
    };
    // The job knows its History entry: its result answers it whichever process polls it.
    let mut job = NewJob::submitted(id, request);
    job.entry = entry;
    job.replaces = replaces;
    let record = app::jobs_tab::record_of(&job);
    if let Some(store) = store
        && let Err(error) = store.record_job(job).await
    {
        tracing::warn!(%error, "a job could not be stored");
    }
    Ok(record)
}
