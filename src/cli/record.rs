//! Every call a command makes is kept in History, marked as the command line's, exactly as
//! the app keeps its own: the request before it leaves, the answer (or the error) when it
//! lands. A comparison is one entry. A store that cannot be written is said, and the exit
//! code says local storage failed (6), while what the service answered is still printed.

use std::time::Instant;

use crate::api::{ApiError, Fetched};
use crate::config::Config;
use crate::store::{Ack, Body, EntryId, RequestParams, Store, StoreError, StoreOptions, now_ms};

use super::err;
use crate::present::compare::stored_column;

/// The store of a command: its History entries are marked as the CLI's.
pub(super) fn open_store(config: &Config) -> Result<Store, StoreError> {
    Store::open_in(&config.data_dir, StoreOptions::for_cli(config))
}

/// A call's History entry, written as the call leaves.
pub(super) struct Kept {
    /// The store, the entry, and the write of its request (awaited with the answer's, so a
    /// request the store could not keep is said rather than its answer dropped unseen).
    stored: Result<(Store, EntryId, Ack), String>,
    started: Instant,
}

impl Kept {
    pub(super) fn start(config: &Config, params: RequestParams) -> Kept {
        let stored = open_store(config)
            .map(|store| {
                let (entry, ack) = store.add_request(params);
                (store, entry, ack)
            })
            .map_err(|error| error.to_string());
        Kept {
            stored,
            started: Instant::now(),
        }
    }

    /// Stores what the call gave, as received, or its error.
    pub(super) async fn finish<T>(
        self,
        result: &Result<Fetched<T>, ApiError>,
    ) -> Result<(), String> {
        let body = match result {
            Ok(fetched) => Body::of(fetched),
            Err(error) => Body::of_error(error, self.elapsed_ms()),
        };
        self.finish_with(body).await
    }

    /// Stores `body` as the entry's answer (a comparison's columns, one JSON array).
    pub(super) async fn finish_with(self, body: Body) -> Result<(), String> {
        let (store, entry, request) = self.stored?;
        let answer = store.add_response(&entry, body);
        request.await.map_err(|error| error.to_string())?;
        answer.await.map_err(|error| error.to_string())
    }

    /// Stores a comparison's columns as its one answer: each column's body as received and
    /// time taken (`answered`), or its error's status and sentence.
    pub(super) async fn finish_columns<T>(
        self,
        results: &[Result<T, ApiError>],
        answered: impl Fn(&T) -> (&str, std::time::Duration),
    ) -> Result<(), String> {
        let columns: Vec<serde_json::Value> = results
            .iter()
            .map(|result| match result {
                Ok(column) => {
                    let (body, elapsed) = answered(column);
                    stored_column(200, body, elapsed)
                }
                Err(e) => stored_column(
                    e.status().unwrap_or(0),
                    &e.to_string(),
                    std::time::Duration::ZERO,
                ),
            })
            .collect();
        let body = Body {
            status: 200,
            text: serde_json::Value::Array(columns).to_string(),
            elapsed_ms: self.elapsed_ms(),
            received_at: now_ms(),
        };
        self.finish_with(body).await
    }

    /// The entry the call answers, once its write is committed, for a queued job to answer
    /// it when its result lands; with its store, to hold until the job is stored (its session
    /// keeps the entry its own meanwhile). Waited for: the job's write, through another
    /// connection, must come after the entry's, or the entry would stay listed as a call
    /// still out.
    pub(super) async fn written_entry(self) -> Option<(Store, EntryId)> {
        let (store, entry, request) = self.stored.ok()?;
        request.await.ok()?;
        Some((store, entry))
    }

    pub(super) fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// The exit code once the call is printed: `code`, or 6 with the sentence when History
/// could not keep it (a failed call keeps its own code, the graver news).
pub(super) fn with_history(code: i32, kept: Result<(), String>) -> i32 {
    match kept {
        Ok(()) => code,
        Err(sentence) => {
            err(&format!(
                "{sentence} The call was made, but History could not keep it."
            ));
            if code == crate::exit::OK {
                crate::exit::STORAGE
            } else {
                code
            }
        }
    }
}
