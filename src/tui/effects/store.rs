//! The local store: reads on the blocking pool, writes through the store's writer thread.
//! Without a store (it could not open) jobs and their results live in memory this session.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::analysis::workspace::{self, Workspace};
use crate::app::{self, Msg, StoreEffect};
use crate::store::{Body, EntryId, NewJob, RequestParams, Store};
use crate::track::stored::Progress;

use super::EffectRunner;

impl EffectRunner {
    /// Carries out a read or a write of the store.
    pub(super) fn run_store(&mut self, effect: StoreEffect) -> Option<Msg> {
        let tx = self.tx.clone();
        let store = self.store.clone();
        match effect {
            StoreEffect::ImportJob { id, kind } => {
                let job = NewJob::imported(id, kind);
                let record = app::jobs_tab::record_of(&job);
                match store {
                    Some(store) => {
                        tokio::spawn(async move {
                            let result = store
                                .record_job(job)
                                .await
                                .map(|()| record)
                                .map_err(|e| e.to_string());
                            let _ = tx.send(Msg::JobQueued(result));
                        });
                        None
                    }
                    None => Some(Msg::JobQueued(Ok(record))),
                }
            }
            StoreEffect::SaveJob { transition, result } => {
                let id = transition.id.clone();
                match &store {
                    // The store answers the job's History entry with its result.
                    Some(store) => store.update_job(transition, result).detach(),
                    None => {
                        if let Some(body) = result {
                            self.memory.insert(id, body);
                        }
                    }
                }
                None
            }
            StoreEffect::DeleteJob(id) => {
                self.memory.remove(&id);
                if let Some(store) = store {
                    store.delete_job(&id).detach();
                }
                None
            }
            StoreEffect::ReadDataVersion => {
                let store = store?;
                tokio::task::spawn_blocking(move || {
                    let version = store.data_version().map_err(|e| e.to_string());
                    let _ = tx.send(Msg::StoreVersion(version));
                });
                None
            }
            StoreEffect::LoadJobs => {
                let store = store?;
                tokio::task::spawn_blocking(move || {
                    // Every open job and the newest others, then the count of all.
                    let result = store
                        .recent_jobs(app::jobs_tab::KEPT)
                        .map_err(|e| e.to_string());
                    let _ = tx.send(Msg::JobsLoaded(result));
                    let counted = store.job_counts().map_err(|e| e.to_string());
                    let _ = tx.send(Msg::JobsCounted(counted));
                });
                None
            }
            StoreEffect::LoadHistoryPage(request) => {
                let Some(store) = store else {
                    return Some(Msg::HistoryPage(app::history::Page::all(
                        request.generation,
                        Vec::new(),
                    )));
                };
                tokio::spawn(async move {
                    // What was just sent is listed too.
                    let _ = store.flush().await;
                    let asked = request.clone();
                    let reader = tx.clone();
                    // The page first, shown as soon as read; then its count, if asked.
                    let read = tokio::task::spawn_blocking(move || {
                        let result = read_history_page(&store, &asked).map_err(|e| e.to_string());
                        let _ = reader.send(Msg::HistoryPage(app::history::Page {
                            request: asked.clone(),
                            result,
                        }));
                        if asked.count {
                            let result = count_history(&store, asked.query.as_deref())
                                .map_err(|e| e.to_string());
                            let _ = reader.send(Msg::HistoryCounted(app::history::Count {
                                generation: asked.generation,
                                result,
                            }));
                        }
                    })
                    .await;
                    if let Err(stopped) = read {
                        let result = Err(format!("the work stopped: {stopped}"));
                        let _ = tx.send(Msg::HistoryPage(app::history::Page { request, result }));
                    }
                });
                None
            }
            StoreEffect::LoadTrack { set } => {
                let Some(store) = store else {
                    return Some(Msg::TrackLoaded(Ok(Box::default())));
                };
                let workspace = self.workspace.clone();
                let stop = Arc::new(AtomicBool::new(false));
                if let Some(previous) = self.track_stop.replace(stop.clone()) {
                    previous.store(true, Ordering::Relaxed);
                }
                tokio::task::spawn_blocking(move || {
                    let folder = std::env::current_dir().unwrap_or_default();
                    // At once: the runs and the tallies as kept.
                    let looked = crate::track::view::first_look(
                        &store,
                        set.as_deref(),
                        &folder,
                        workspace.as_deref(),
                    );
                    let (mut view, loading) = match looked {
                        Ok(looked) => looked,
                        Err(error) => {
                            let _ = tx.send(Msg::TrackLoaded(Err(error)));
                            return;
                        }
                    };
                    // Shown at once when some of it is still to read; else completed.
                    let first = if view.stale > 0 {
                        view.reading = Some(Progress::default());
                        let _ = tx.send(Msg::TrackLoaded(Ok(Box::new(view))));
                        None
                    } else {
                        Some(view)
                    };
                    // Then every answer read by the current rules, saying how far it got.
                    let mut told = |progress: Progress| {
                        let _ = tx.send(Msg::TrackReading(progress));
                    };
                    match crate::track::view::finish(&store, loading, first, &mut told, &stop) {
                        Ok(Some(view)) => {
                            let _ = tx.send(Msg::TrackLoaded(Ok(Box::new(view))));
                        }
                        // Replaced by a newer read, or the app is ending.
                        Ok(None) => {}
                        Err(error) => {
                            let _ = tx.send(Msg::TrackLoaded(Err(error)));
                        }
                    }
                });
                None
            }
            StoreEffect::LoadCellAnswers {
                set,
                cell,
                brands,
                texts,
            } => {
                let Some(store) = store else {
                    return Some(Msg::CellAnswersLoaded(Err(
                        "the store could not be opened this session, so there are no runs to read"
                            .to_string(),
                    )));
                };
                tokio::task::spawn_blocking(move || {
                    let result = crate::track::answers_read::read_set_cell(
                        &store,
                        &set,
                        &brands,
                        &cell,
                        &crate::track::answers::TextsOf::These(texts),
                    )
                    .map(Box::new);
                    let _ = tx.send(Msg::CellAnswersLoaded(result));
                });
                None
            }
            StoreEffect::WriteReport {
                set,
                definition,
                brands,
                path,
                overwrite,
            } => {
                let Some(store) = store else {
                    return Some(Msg::FileWritten {
                        path,
                        result: Err(crate::app::WriteFailure::Write(
                            "the store could not be opened this session, so there are no runs to report"
                                .to_string(),
                        )),
                    });
                };
                tokio::task::spawn_blocking(move || {
                    let never = AtomicBool::new(false);
                    let result = store
                        .track_runs(Some(&set))
                        .and_then(|runs| {
                            crate::track::stored::bring_up_to_date(
                                &store,
                                &set,
                                runs,
                                &brands,
                                crate::track::stored::READING_RULES,
                                &mut |_| {},
                                &never,
                            )
                        })
                        .and_then(|read| {
                            let read = read.unwrap_or_default();
                            crate::track::report::gather(
                                &store,
                                &set,
                                definition.as_deref(),
                                &brands,
                                &read,
                                None,
                                crate::store::now_ms(),
                            )
                        })
                        .map_err(|e| crate::app::WriteFailure::Write(e.to_string()))
                        .and_then(|input| {
                            let page = crate::track::report_page::html(&input);
                            super::os::write_export(&path, &page, overwrite)
                        });
                    let path = std::path::absolute(&path).unwrap_or(path);
                    let _ = tx.send(Msg::FileWritten { path, result });
                });
                None
            }
            StoreEffect::DiscoverNames { tracked } => {
                let Some(store) = store else {
                    return Some(Msg::Discovered(Err(
                        "the store could not be opened this session".to_string(),
                    )));
                };
                tokio::spawn(async move {
                    // What was just asked is read too.
                    let _ = store.flush().await;
                    let result = blocking(move || {
                        use crate::present::discover::{MAX_STORED_ANSWERS, untracked_in_stored};
                        // Every stored answer, its names read once and kept.
                        let never = AtomicBool::new(false);
                        let kept = crate::discovery::bring_up_to_date(
                            &store,
                            i64::MIN,
                            crate::analysis::READING_RULES,
                            &mut |_| {},
                            &never,
                        )
                        .and_then(|_| crate::discovery::untracked(&store, None, &tracked));
                        let (names, read) = match kept {
                            Ok(found) => found,
                            // A store that cannot keep them: the newest answers, in memory.
                            Err(_) if store.health() != crate::store::Health::Writable => {
                                let stored = store
                                    .stored_ai_answers(None, MAX_STORED_ANSWERS)
                                    .map_err(|e| e.to_string())?;
                                untracked_in_stored(stored, &tracked)
                            }
                            Err(error) => return Err(error.to_string()),
                        };
                        Ok(app::brands::Discovered { names, read })
                    })
                    .await;
                    let _ = tx.send(Msg::Discovered(result));
                });
                None
            }
            StoreEffect::DeleteHistory(id) => {
                if let Some(store) = store {
                    store.delete_history(&id).detach();
                }
                None
            }
            StoreEffect::OpenJob { id, kind, request } => {
                let title = format!("{kind} job {}", id.short());
                let memory = self.memory.get(&id).cloned();
                tokio::spawn(async move {
                    let body = match (memory, store) {
                        (Some(body), _) => Ok(Some(body)),
                        (None, Some(store)) => {
                            let _ = store.flush().await;
                            blocking(move || store.job_result(&id).map_err(|e| e.to_string())).await
                        }
                        (None, None) => Ok(None),
                    };
                    let result = match body {
                        Ok(Some(body)) => {
                            blocking(move || app::stored::prepare(kind, request, &body, &title))
                                .await
                        }
                        Ok(None) => Err("the result is not stored; r polls the job again".into()),
                        Err(e) => Err(e),
                    };
                    let _ = tx.send(Msg::StoredOpened(result));
                });
                None
            }
            StoreEffect::OpenHistory(entry) => {
                let store = store?;
                tokio::spawn(async move {
                    let _ = store.flush().await;
                    let result = blocking(move || {
                        let entry = store
                            .history_entry(&entry)
                            .map_err(|e| e.to_string())?
                            .ok_or("the entry is no longer stored")?;
                        let body = entry
                            .response
                            .ok_or("no response was stored for this request")?;
                        if let RequestParams::Compare(columns) = &entry.request {
                            return app::stored::prepare_comparison(columns, &body);
                        }
                        let kind = app::stored::kind_of(&entry.request)
                            .ok_or("this kind of request has no viewer here")?;
                        let title = entry.item.summary.clone();
                        app::stored::prepare(kind, Some(entry.request), &body, &title)
                    })
                    .await;
                    let _ = tx.send(Msg::StoredOpened(result));
                });
                None
            }
            StoreEffect::StartComparison { entry, params } => {
                if let Some(store) = store {
                    store.add_request_as(entry, *params).detach();
                }
                None
            }
            StoreEffect::RecordComparison {
                entry,
                params,
                columns,
                elapsed_ms,
            } => {
                if let Some(store) = store {
                    let entry = entry.unwrap_or_else(|| {
                        let (entry, ack) = store.add_request(*params);
                        ack.detach();
                        entry
                    });
                    let body = crate::store::Body {
                        status: 200,
                        text: columns,
                        elapsed_ms,
                        received_at: crate::store::now_ms(),
                    };
                    store.add_response(&entry, body).detach();
                }
                None
            }
            StoreEffect::LoadRerun(entry) => {
                let store = store?;
                tokio::task::spawn_blocking(move || {
                    let result = match store.history_entry(&entry) {
                        Ok(Some(entry)) => Ok(entry.request),
                        Ok(None) => Err("the entry is no longer stored".to_string()),
                        Err(e) => Err(e.to_string()),
                    };
                    let _ = tx.send(Msg::Rerun(result));
                });
                None
            }
            StoreEffect::LoadDevices => {
                let store = store?;
                tokio::task::spawn_blocking(move || {
                    for list in crate::devices::DeviceList::ALL {
                        if let Ok(Some(devices)) = store.load_devices(list) {
                            let _ = tx.send(Msg::DevicesCached(list, devices.names));
                        }
                    }
                });
                None
            }
            StoreEffect::SaveDevices(list, names) => {
                if let Some(store) = store {
                    store.save_devices(list, names).detach();
                }
                None
            }
            StoreEffect::LoadWorkspace {
                explicit,
                unless_read,
            } => {
                tokio::spawn(async move {
                    let result = blocking(move || {
                        Ok(load_workspace(
                            explicit,
                            unless_read.as_ref().map(Option::as_deref),
                        ))
                    })
                    .await;
                    match result {
                        Ok(None) => {}
                        Ok(Some(loaded)) => {
                            let _ = tx.send(Msg::WorkspaceLoaded(loaded));
                        }
                        Err(problem) => {
                            let _ = tx.send(Msg::WorkspaceLoaded(Err(problem)));
                        }
                    }
                });
                None
            }
            StoreEffect::SaveWorkspace {
                path,
                text,
                read,
                created,
            } => {
                tokio::spawn(async move {
                    let written = path.clone();
                    let result = blocking(move || {
                        Workspace::parse(&written, &text)
                            .and_then(|workspace| workspace.save_over(read.as_deref()))
                            .map_err(|e| e.to_string())
                    })
                    .await;
                    let _ = tx.send(Msg::WorkspaceSaved {
                        path,
                        created,
                        result,
                    });
                });
                None
            }
        }
    }
}

/// One page of the History list (of every entry, or of a search's results).
fn read_history_page(
    store: &Store,
    request: &app::history::PageRequest,
) -> Result<app::history::PageRead, crate::store::StoreError> {
    let items = match &request.query {
        Some(query) => store.search_history(query, None, request.limit, request.offset)?,
        None => store.history(request.limit, request.offset)?,
    };
    Ok(app::history::PageRead {
        items,
        total: None,
        entries: None,
    })
}

/// The rows of a History listing in all, and every entry stored.
fn count_history(
    store: &Store,
    query: Option<&str>,
) -> Result<(usize, usize), crate::store::StoreError> {
    let entries = store.history_len()?;
    let total = match query {
        Some(query) => store.search_history_len(query, None)?,
        None => entries,
    };
    Ok((total, entries))
}

/// The workspace file named with `--workspace`, else the nearest `vantage.toml` in the
/// current folder or a parent; an empty one (to be created in the current folder on the
/// first brand added) when there is none.
/// The workspace file read, or `None` when its text is still `unless_read`.
fn load_workspace(
    explicit: Option<PathBuf>,
    unless_read: Option<Option<&str>>,
) -> Option<Result<app::brands::LoadedWorkspace, String>> {
    let folder = match std::env::current_dir() {
        Ok(folder) => folder,
        Err(e) => {
            return Some(Err(format!(
                "The current folder could not be read ({e}); brands cannot be tracked here."
            )));
        }
    };
    if let Some(seen) = unless_read {
        let now = workspace::locate(explicit.as_deref(), &folder)
            .ok()
            .flatten()
            .and_then(|path| std::fs::read_to_string(path).ok());
        if now.as_deref() == seen {
            return None;
        }
    }
    Some(load_workspace_from(explicit, &folder))
}

fn load_workspace_from(
    explicit: Option<PathBuf>,
    folder: &std::path::Path,
) -> Result<app::brands::LoadedWorkspace, String> {
    match workspace::locate(explicit.as_deref(), folder).map_err(|e| e.to_string())? {
        Some(path) => {
            let existed = path.is_file();
            Workspace::load(&path)
                .map(|workspace| app::brands::LoadedWorkspace { workspace, existed })
                .map_err(|e| e.to_string())
        }
        None => Ok(app::brands::LoadedWorkspace {
            workspace: Workspace::empty(&folder.join(workspace::WORKSPACE_FILE)),
            existed: false,
        }),
    }
}

/// Runs heavy work (SQLite reads, JSON and HTML) on the blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| format!("the work stopped: {e}"))
        .and_then(|r| r)
}

pub(super) fn error_body(error: &crate::api::ApiError, started: Instant) -> Body {
    let elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Body::of_error(error, elapsed_ms)
}

/// The history entry of one sync call: the request is written when it leaves, the response
/// (or the error) when it lands; both through the store's writer thread.
pub(super) struct History {
    store: Option<Store>,
    entry: Option<EntryId>,
    started: Instant,
    /// Set once the answer or error is written; a History dropped without it was cancelled.
    finished: std::sync::atomic::AtomicBool,
}

impl Drop for History {
    /// A cancel aborts the call's task, dropping this before `finish`: the entry says so.
    fn drop(&mut self) {
        if self.finished.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        if let (Some(store), Some(entry)) = (&self.store, &self.entry) {
            let elapsed = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
            store.add_response(entry, Body::cancelled(elapsed)).detach();
        }
    }
}

impl History {
    pub(super) fn start(store: &Option<Store>, request: RequestParams) -> History {
        let entry = store.as_ref().map(|store| {
            let (entry, ack) = store.add_request(request);
            ack.detach();
            entry
        });
        History {
            store: store.clone(),
            entry,
            started: Instant::now(),
            finished: std::sync::atomic::AtomicBool::new(false),
        }
    }

    pub(super) fn finish<T>(&self, result: &Result<crate::api::Fetched<T>, crate::api::ApiError>) {
        self.finished
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let (Some(store), Some(entry)) = (&self.store, &self.entry) else {
            return;
        };
        let body = match result {
            Ok(fetched) => Body::of(fetched),
            Err(error) => error_body(error, self.started),
        };
        store.add_response(entry, body).detach();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::AiRequest;
    use crate::store::StoreOptions;

    #[test]
    fn a_call_dropped_before_its_answer_is_kept_as_cancelled() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
        let shared = Some(store.clone());
        let cancelled = History::start(&shared, RequestParams::Ai(AiRequest::new("one")));
        drop(cancelled);
        let answered = History::start(&shared, RequestParams::Ai(AiRequest::new("two")));
        answered.finish::<()>(&Err(crate::api::ApiError::from_status(500, "boom", None)));
        drop(answered);
        store.flush().wait().unwrap();
        let mut statuses: Vec<(String, Option<u16>)> = store
            .history(10, 0)
            .unwrap()
            .into_iter()
            .map(|i| (i.summary, i.status))
            .collect();
        statuses.sort();
        assert_eq!(
            statuses,
            vec![
                (
                    "chatgpt · one · random location".to_string(),
                    Some(Body::CANCELLED)
                ),
                ("chatgpt · two · random location".to_string(), Some(500)),
            ]
        );
    }
}

#[cfg(test)]
mod workspace_tests {
    use super::*;

    /// From a subfolder, the app reads the nearest vantage.toml above it, as git finds a
    /// repository; `--workspace` names another file.
    #[test]
    fn the_app_finds_the_workspace_file_in_a_parent_folder() {
        let dir = tempfile::tempdir().unwrap();
        let deeper = dir.path().join("reports").join("2026");
        std::fs::create_dir_all(&deeper).unwrap();
        std::fs::write(
            dir.path().join(workspace::WORKSPACE_FILE),
            "[[brands]]\nname = \"Salomon\"\n",
        )
        .unwrap();
        let found = load_workspace_from(None, &deeper).unwrap();
        assert!(found.existed);
        assert_eq!(
            found.workspace.path(),
            dir.path().join(workspace::WORKSPACE_FILE)
        );
        assert_eq!(found.workspace.brands()[0].name, "Salomon");
        let elsewhere = dir.path().join("other.toml");
        std::fs::write(&elsewhere, "[[brands]]\nname = \"Lowa\"\n").unwrap();
        let named = load_workspace_from(Some(elsewhere.clone()), &deeper).unwrap();
        assert_eq!(named.workspace.brands()[0].name, "Lowa");
    }

    /// Focus regained looks again: an unchanged file is not read into a message, a changed
    /// one is, broken or not.
    #[test]
    fn the_workspace_is_read_again_only_when_its_text_changed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("vantage.toml");
        let text = "[[brands]]\nname = \"Salomon\"\n";
        std::fs::write(&file, text).unwrap();
        assert!(load_workspace(Some(file.clone()), Some(Some(text))).is_none());
        std::fs::write(&file, "[[brands]]\nname = \"Lowa\"\n").unwrap();
        let changed = load_workspace(Some(file.clone()), Some(Some(text)));
        assert_eq!(changed.unwrap().unwrap().workspace.brands()[0].name, "Lowa");
        std::fs::write(&file, "[[brands]]\nnam = \"Lowa\"\n").unwrap();
        let broken = load_workspace(Some(file.clone()), Some(Some(text)));
        match broken {
            Some(Err(problem)) => assert!(problem.contains("line 1"), "{problem}"),
            _ => panic!("the broken file was not said"),
        }
        // No file before, none now: nothing to read.
        let absent = dir.path().join("nowhere.toml");
        assert!(load_workspace(Some(absent), Some(None)).is_none());
    }
}
