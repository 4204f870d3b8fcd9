//! Stored responses (job results, history entries) made ready for the viewers, with the same
//! preparation a live answer gets. Pure but heavy: the runner calls it off the UI task; `show`
//! puts what it made in its viewer, and its request in its form.

use std::time::Duration;

use crate::api::decode::{RawResponse, decode_ai, decode_search};
use crate::api::{AiRequest, Fetched, JobKind, SearchRequest};
use crate::render::{RenderOptions, html_to_document};
use crate::store::{Body, RequestParams};

use super::keymap::{Action, Context};
use super::{App, Effect, StoredView, Tab};
use crate::present::text::TextBody;
use crate::present::{answer, search_page};

fn raw(body: &Body) -> RawResponse {
    RawResponse {
        status: body.status,
        content_type: String::new(),
        body: body.text.clone(),
        elapsed: body.elapsed(),
    }
}

fn fetched<T>(body: &Body, value: T) -> Fetched<T> {
    Fetched {
        value,
        body: body.text.clone(),
        status: body.status,
        content_type: String::new(),
        elapsed: Duration::from_millis(body.elapsed_ms),
    }
}

/// Prepares a stored body for the viewer of its kind. `request` is the request it answered,
/// when known (an imported job has none; a bare one stands in).
pub fn prepare(
    kind: JobKind,
    request: Option<RequestParams>,
    body: &Body,
    title: &str,
) -> Result<StoredView, String> {
    if body.status == Body::CANCELLED {
        return Err("the call was cancelled before its answer came".to_string());
    }
    if body.status == 0 {
        return Err(format!(
            "no answer was stored, only the error: {}",
            body.text
        ));
    }
    match kind {
        JobKind::Ai => {
            let request = match request {
                Some(RequestParams::Ai(r)) => r,
                _ => AiRequest::new(""),
            };
            match decode_ai(&raw(body)) {
                Ok(value) => Ok(StoredView::Answer(Box::new(answer::prepare(
                    request,
                    fetched(body, value),
                )))),
                Err(error) => Ok(as_plain_text(title, body, &error.to_string())),
            }
        }
        JobKind::Search => {
            let request = match request {
                Some(RequestParams::Search(r)) => r,
                _ => SearchRequest::new(""),
            };
            match decode_search(&raw(body)) {
                Ok(value) => Ok(StoredView::Search(Box::new(search_page::prepare(
                    request,
                    fetched(body, value),
                )))),
                Err(error) => Ok(as_plain_text(title, body, &error.to_string())),
            }
        }
        JobKind::Browser => {
            let text = body.text.trim_start();
            let body = if text.starts_with('<') {
                TextBody::document(html_to_document(text, &RenderOptions::default()))
            } else {
                TextBody::raw(&body.text)
            };
            let request = match request {
                Some(RequestParams::Browser(params)) => serde_json::from_value(params).ok(),
                _ => None,
            };
            Ok(StoredView::Text {
                title: title.to_string(),
                body,
                request,
            })
        }
    }
}

/// A stored body that cannot be read as its kind (kept before answers were bounded as they
/// arrive, or damaged): shown as the text it is, with the reason in the title.
fn as_plain_text(title: &str, body: &Body, error: &str) -> StoredView {
    StoredView::Text {
        title: format!("{title} · shown as plain text: {error}"),
        body: TextBody::raw(&body.text),
        request: None,
    }
}

/// Shows a stored response in the viewer of its kind: an answer in Chat, results in Search,
/// text over the Jobs table.
pub(super) fn show(app: &mut App, result: Result<StoredView, String>) -> Vec<Effect> {
    // History's F opened it to search its fanouts.
    let coverage = std::mem::take(&mut app.history.coverage_on_open);
    match result {
        Ok(StoredView::Comparison {
            mode,
            prompt,
            axes,
            columns,
        }) => {
            let columns = columns.into_iter().map(|(v, o)| (v, Some(o))).collect();
            app.compare.restore(mode, &prompt, axes, columns);
            app.tab = Tab::Compare;
            app.flash_info("The stored comparison, as received (no new calls).");
        }
        Ok(StoredView::Answer(prepared)) => {
            super::chat::show_answer(app, prepared);
            reopened(app, "The stored answer");
            if coverage {
                return super::coverage::ask(app);
            }
        }
        Ok(StoredView::Search(prepared)) => {
            // What is on screen is what the next send sends: the form holds its request.
            if !prepared.request.terms.trim().is_empty() {
                app.search.load_request(&prepared.request);
            }
            app.search.page = Some(super::search::PageState::new(prepared));
            app.search.focus = super::search::SearchFocus::Results;
            app.tab = Tab::Search;
            reopened(app, "The stored results");
        }
        Ok(StoredView::Text {
            title,
            body,
            request,
        }) => {
            if let Some(request) = request {
                app.page.load_request(&request);
            }
            app.jobs.reader = Some(super::jobs_tab::Reader {
                title,
                body,
                scroll: 0,
                find: None,
            });
            app.tab = Tab::Jobs;
        }
        Err(e) => app.flash_error(format!("The stored response could not be opened: {e}")),
    }
    if coverage {
        app.flash_info("Only an answer has fanouts to search: this entry is not one.");
    }
    Vec::new()
}

/// What a re-opened response says: nothing was sent, and which key sends its request again.
fn reopened(app: &mut App, what: &str) {
    let again = app.key_of(Context::Form, Action::Send);
    app.flash_info(format!(
        "{what}, as received (no new call); the request is in the form, {again} sends it again."
    ));
}

/// The job kind a history entry's response is shown as.
pub fn kind_of(request: &RequestParams) -> Option<JobKind> {
    request.job_kind()
}

/// What a stored comparison asked: its mode and prompt, each column's vantage point in
/// order, and the axes that cover them (so the setup box says what was asked).
pub struct Asked {
    pub mode: super::compare::CompareMode,
    pub prompt: String,
    pub axes: super::compare::Axes,
    pub vantages: Vec<super::compare::Vantage>,
}

/// Reads what a comparison asked from its columns' requests.
pub fn asked(requests: &[RequestParams]) -> Result<Asked, String> {
    use super::compare::CompareMode;
    let mut mode = CompareMode::Answers;
    let mut prompt = String::new();
    let (mut format, mut no_cache) = (crate::api::AiFormat::default(), false);
    for request in requests {
        match request {
            RequestParams::Ai(r) => {
                prompt = r.prompt.clone();
                format = r.format;
                no_cache = r.expiration == Some(0);
            }
            RequestParams::Search(r)
                if crate::present::compare::overview::is_overview_request(r) => {}
            RequestParams::Search(r) => {
                mode = CompareMode::Search;
                prompt = r.terms.clone();
                no_cache = r.expiration == Some(0);
            }
            _ => {}
        }
    }
    let vantages = crate::present::compare::vantages_of(requests)?;
    Ok(Asked {
        mode,
        prompt,
        axes: super::compare::Axes::covering(&vantages, format, no_cache),
        vantages,
    })
}

/// A stored comparison made ready for the Compare tab: each column's request gives its
/// vantage, each stored body its answer (or the error it ended with). No call is made.
pub fn prepare_comparison(requests: &[RequestParams], body: &Body) -> Result<StoredView, String> {
    use super::compare::Outcome;
    let stored: Vec<serde_json::Value> = serde_json::from_str(&body.text)
        .map_err(|e| format!("the stored comparison could not be read: {e}"))?;
    let asked = asked(requests)?;
    let mut columns = Vec::with_capacity(requests.len());
    for ((request, column), vantage) in requests.iter().zip(&stored).zip(asked.vantages) {
        let body = Body {
            status: column["status"].as_u64().unwrap_or(0) as u16,
            text: column["body"].as_str().unwrap_or_default().to_string(),
            elapsed_ms: column["elapsed_ms"].as_u64().unwrap_or(0),
            received_at: body.received_at,
        };
        let kind = match request {
            RequestParams::Ai(_) => JobKind::Ai,
            RequestParams::Search(r)
                if crate::present::compare::overview::is_overview_request(r) =>
            {
                let outcome = if body.status == 200 {
                    let elapsed = std::time::Duration::from_millis(body.elapsed_ms);
                    let page = crate::present::compare::overview::stored_overview(
                        r.clone(),
                        body.text,
                        elapsed,
                    );
                    Ok(Outcome::Answer(Box::new(page)))
                } else {
                    Err(body.text)
                };
                columns.push((vantage, outcome));
                continue;
            }
            _ => JobKind::Search,
        };
        let outcome = match prepare(kind, Some(request.clone()), &body, "") {
            Ok(StoredView::Answer(a)) => Ok(Outcome::Answer(a)),
            Ok(StoredView::Search(s)) => Ok(Outcome::Results(s)),
            Ok(_) => Err("an answer of another kind was stored".to_string()),
            Err(e) => Err(e),
        };
        columns.push((vantage, outcome));
    }
    Ok(StoredView::Comparison {
        mode: asked.mode,
        prompt: asked.prompt,
        axes: asked.axes,
        columns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_answer_that_cannot_be_read_opens_as_plain_text_with_the_reason() {
        let deep = format!(
            r#"{{"completion":"hi","extra":{}{}}}"#,
            "[".repeat(5_000),
            "]".repeat(5_000)
        );
        for kind in [JobKind::Ai, JobKind::Search] {
            let body = Body {
                status: 200,
                text: deep.clone(),
                elapsed_ms: 1,
                received_at: 0,
            };
            match prepare(kind, None, &body, "best boots") {
                Ok(StoredView::Text { title, body, .. }) => {
                    assert!(
                        title.starts_with("best boots · shown as plain text: "),
                        "{title}"
                    );
                    assert!(title.contains("128 levels"), "{title}");
                    assert!(!body.lines(80).is_empty());
                }
                other => panic!("{kind:?}: {:?}", other.map(|_| ())),
            }
        }
    }
}
