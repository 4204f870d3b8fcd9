//! `vantage history show ID`: one stored entry as the app's History shows it — the request,
//! where and whom it asked, how it went, and the answer's text; `--json` the reading `ai
//! --json` prints, `--raw` the body as received. An id is taken whole or by its start, as
//! `vantage history` prints it.

use clap::Args;

use super::brands::{BrandArgs, tracked_brands};
use super::jobs::age;
use super::text::{ai_text, job_text};
use super::{err, out, out_as_received, with_newline};
use crate::api::decode::{RawResponse, decode_ai, decode_search};
use crate::api::{JobAnswer, Location};
use crate::exit;
use crate::measure;
use crate::plural;
use crate::present::answer::prepare_stored;
use crate::present::compare::mentions::answer_mentions;
use crate::present::reading::AnswerReading;
use crate::sanitize::one_line;
use crate::store::{Body, EntryId, HistoryEntry, RequestParams, Store};

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The entry's id, or its start (the ID column of `vantage history`)
    pub id: String,
    /// Print vantage's reading of the stored answer as JSON, as `vantage ai --json` does
    #[arg(long, conflicts_with = "raw")]
    pub json: bool,
    /// Print the stored response body exactly as received
    #[arg(long)]
    pub raw: bool,
    /// A stored comparison as CSV, with no call: tidy (the default) one row per column,
    /// sample and brand; sources, one row per column, sample and cited source; matrix, the
    /// mention matrix
    #[arg(long, value_name = "FORM", num_args = 0..=1, default_missing_value = "tidy", conflicts_with_all = ["json", "raw"])]
    pub csv: Option<super::compare_show::CsvForm>,
    /// A stored comparison as Markdown (each answer, then what differs and the mentions)
    #[arg(long, conflicts_with_all = ["json", "raw", "csv"])]
    pub md: bool,
    #[command(flatten)]
    pub brands: BrandArgs,
}

/// How many characters of an id `vantage history` prints: eight hex digits tell apart any
/// entries a person keeps, and a longer start is still taken.
pub const SHOWN_ID: usize = 8;

/// Runs `history show`; returns the exit code.
pub(super) fn run_show(store: &Store, args: &ShowArgs) -> i32 {
    let id = match resolve(store, &args.id) {
        Ok(id) => id,
        Err((sentence, code)) => {
            err(&sentence);
            return code;
        }
    };
    let entry = match store.history_entry(&id) {
        Ok(Some(entry)) => entry,
        // Deleted between the look-up and the read (the app or another process).
        Ok(None) => {
            err(&not_found(&args.id));
            return exit::INVALID_INPUT;
        }
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    if args.raw {
        return print_raw(&entry);
    }
    if let RequestParams::Compare(columns) = &entry.request
        && (args.json || args.csv.is_some() || args.md)
    {
        return match answered(&entry) {
            Ok(body) => super::compare_show::stored(columns, body, args),
            Err(sentence) => {
                err(&sentence);
                exit::SERVICE
            }
        };
    }
    if args.csv.is_some() || args.md {
        err(&format!(
            "--csv and --md print a stored comparison; this entry is a {} (--json prints its reading, --raw its body).",
            entry.item.kind
        ));
        return exit::INVALID_INPUT;
    }
    if args.json {
        return print_reading(&entry, &args.brands);
    }
    out(&with_newline(entry_text(&entry, crate::store::now_ms())));
    exit::OK
}

/// The entry a typed id names: exactly one stored id starting with it (case ignored).
pub(super) fn resolve(store: &Store, typed: &str) -> Result<EntryId, (String, i32)> {
    let prefix = typed.trim().to_ascii_lowercase();
    if prefix.is_empty() || !prefix.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
        return Err((
            format!(
                "{:?} is not an entry's id: an id is hex digits and dashes, as the ID column of `vantage history` shows.",
                one_line(typed)
            ),
            exit::INVALID_INPUT,
        ));
    }
    let found = store
        .history_ids_starting(&prefix, 5)
        .map_err(|error| (error.to_string(), error.exit_code()))?;
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err((not_found(typed), exit::INVALID_INPUT)),
        several => {
            let shown: Vec<&str> = several
                .iter()
                .take(4)
                .map(|id| id.as_str().get(..13).unwrap_or(id.as_str()))
                .collect();
            let more = if several.len() > 4 { ", …" } else { "" };
            Err((
                format!(
                    "Several entries' ids start with {:?} ({}{more}); type more of the id.",
                    one_line(typed),
                    shown.join(", ")
                ),
                exit::INVALID_INPUT,
            ))
        }
    }
}

fn not_found(typed: &str) -> String {
    format!(
        "No stored entry's id starts with {:?}; `vantage history` lists them with their ids.",
        one_line(typed)
    )
}

/// `--raw`: the body as received; an entry that holds none says why, exit 4.
fn print_raw(entry: &HistoryEntry) -> i32 {
    match answered(entry) {
        Ok(body) => {
            out_as_received(&body.text);
            exit::OK
        }
        Err(sentence) => {
            err(&sentence);
            exit::SERVICE
        }
    }
}

/// `--json`: the reading of a stored AI answer, with the tracked brands' mentions.
fn print_reading(entry: &HistoryEntry, brands: &BrandArgs) -> i32 {
    let RequestParams::Ai(request) = &entry.request else {
        err(&format!(
            "--json prints the reading of an AI answer; this entry is a {} (--raw prints its body).",
            entry.item.kind
        ));
        return exit::INVALID_INPUT;
    };
    let body = match answered(entry) {
        Ok(body) => body,
        Err(sentence) => {
            err(&sentence);
            return exit::SERVICE;
        }
    };
    let brands = match tracked_brands(brands) {
        Ok(brands) => brands,
        Err(sentence) => {
            err(&sentence);
            return exit::INVALID_INPUT;
        }
    };
    let Some(prepared) = prepare_stored(request.clone(), &body.text) else {
        err("The stored body is not an answer vantage can read; --raw prints it as received.");
        return exit::SERVICE;
    };
    let reading = AnswerReading::of(&prepared, answer_mentions(&prepared, &brands));
    match serde_json::to_string_pretty(&reading) {
        Ok(json) => {
            out_as_received(&with_newline(json));
            exit::OK
        }
        Err(error) => {
            err(&format!(
                "The reading could not be written as JSON: {error}."
            ));
            exit::FAILURE
        }
    }
}

/// The stored body of an answered call, or the sentence saying why there is none.
fn answered(entry: &HistoryEntry) -> Result<&Body, String> {
    match &entry.response {
        None => Err("No response is stored for this entry yet: its call is still out, or its job has not landed.".to_string()),
        Some(body) if body.status == Body::CANCELLED => {
            Err("The call was cancelled before its answer came: no body was received.".to_string())
        }
        Some(body) if body.status == 0 => Err(format!(
            "No body was received, only an error: {}",
            body.text
        )),
        Some(body) => Ok(body),
    }
}

/// The entry as the app's History shows it — kind, origin, request, model and place,
/// status, when, how long it took, its size — then the answer's text.
pub fn entry_text(entry: &HistoryEntry, now: i64) -> String {
    let item = &entry.item;
    let mut rows: Vec<(&str, String)> = vec![
        ("Entry", item.id.as_str().to_string()),
        (
            "Kind",
            format!("{} (from {})", item.kind, item.origin.as_str()),
        ),
        ("Request", one_line(&item.summary).into_owned()),
    ];
    rows.extend(asked_rows(&entry.request));
    rows.push((
        "Status",
        item.status_word()
            .unwrap_or_else(|| "waiting for its answer".to_string()),
    ));
    rows.push((
        "When",
        format!(
            "{} ({} ago)",
            utc(item.created_at),
            age(now - item.created_at)
        ),
    ));
    if let Some(ms) = item.elapsed_ms {
        rows.push(("Took", format!("{:.1} s", ms as f64 / 1000.0)));
    }
    if let Some(size) = item.size {
        rows.push(("Size", measure::size(size)));
    }
    let mut text: String = rows
        .iter()
        .map(|(name, value)| format!("{name:<8} {value}\n"))
        .collect();
    text.push('\n');
    text.push_str(&answer_text(&entry.request, entry.response.as_ref()));
    text
}

/// Model, device and place of an AI call; the place of a search; the columns of a comparison.
fn asked_rows(request: &RequestParams) -> Vec<(&'static str, String)> {
    match request {
        RequestParams::Ai(r) => {
            let mut rows = vec![("Model", r.effective_model().display_name().to_string())];
            if let Some(device) = &r.device {
                rows.push(("Device", one_line(device).into_owned()));
            }
            rows.push(("Place", place(&r.location)));
            rows
        }
        RequestParams::Search(r) => vec![("Place", place(&r.location))],
        RequestParams::Browser(_) => Vec::new(),
        RequestParams::Compare(columns) => vec![(
            "Columns",
            plural::count(columns.len() as u64, "column", "columns"),
        )],
    }
}

fn place(location: &Location) -> String {
    let parts: Vec<&str> = [&location.country, &location.subdivision, &location.city]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    if parts.is_empty() {
        "the service's default".to_string()
    } else {
        one_line(&parts.join(", ")).into_owned()
    }
}

/// "2026-11-27 21:30:05 UTC".
fn utc(ms: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)) {
        Ok(at) => format!(
            "{}-{:02}-{:02} {:02}:{:02}:{:02} UTC",
            at.year(),
            u8::from(at.month()),
            at.day(),
            at.hour(),
            at.minute(),
            at.second()
        ),
        Err(_) => "an unknown time".to_string(),
    }
}

/// The answer's text as `vantage ai`, `search` or `page` print it; a comparison's columns
/// one after the other; or why there is none.
fn answer_text(request: &RequestParams, response: Option<&Body>) -> String {
    let Some(body) = response else {
        return "No response is stored yet.".to_string();
    };
    if body.status == Body::CANCELLED {
        return "Cancelled before its answer came.".to_string();
    }
    if body.status == 0 {
        return format!("No answer, only an error: {}", body.text);
    }
    if !(200..300).contains(&body.status) {
        return format!("The service answered {}:\n{}", body.status, body.text);
    }
    let raw = RawResponse {
        status: body.status,
        content_type: String::new(),
        body: body.text.clone(),
        elapsed: body.elapsed(),
    };
    let unreadable = |error: crate::api::ApiError| {
        format!("The stored body could not be read ({error}); --raw prints it as received.")
    };
    match request {
        RequestParams::Ai(r) => {
            decode_ai(&raw).map_or_else(unreadable, |answer| ai_text(&answer, r.effective_model()))
        }
        RequestParams::Search(_) => decode_search(&raw)
            .map_or_else(unreadable, |answer| job_text(&JobAnswer::Search(answer))),
        RequestParams::Browser(_) => job_text(&JobAnswer::Browser(body.text.clone())),
        RequestParams::Compare(columns) => compare_text(columns, body),
    }
}

/// Each column of a stored comparison: its request's summary over its answer's text.
fn compare_text(columns: &[RequestParams], body: &Body) -> String {
    let Ok(stored) = serde_json::from_str::<Vec<serde_json::Value>>(&body.text) else {
        return "The stored comparison could not be read; --raw prints it as received.".to_string();
    };
    let mut text = String::new();
    for (request, column) in columns.iter().zip(&stored) {
        let column_body = Body {
            status: column["status"].as_u64().map_or(0, |s| s as u16),
            text: column["body"].as_str().unwrap_or_default().to_string(),
            elapsed_ms: column["elapsed_ms"].as_u64().unwrap_or(0),
            received_at: body.received_at,
        };
        text.push_str(&format!("── {} ──\n", one_line(&request.summary())));
        text.push_str(answer_text(request, Some(&column_body)).trim_end());
        text.push_str("\n\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{AiRequest, Model};
    use crate::store::{HistoryItem, Origin, RequestKind};

    fn entry(status: Option<u16>, text: &str) -> HistoryEntry {
        let mut request = AiRequest::new("best boots");
        request.model = Some(Model::Gemini);
        request.location.country = Some("DE".into());
        HistoryEntry {
            item: HistoryItem {
                id: EntryId("0a1b2c3d-0000-4000-8000-000000000000".into()),
                kind: RequestKind::Ai,
                summary: "gemini · best boots".into(),
                created_at: 0,
                origin: Origin::Cli,
                status,
                elapsed_ms: status.map(|_| 2_345),
                size: status.map(|_| 7_600),
            },
            request: RequestParams::Ai(request),
            response: status.map(|status| Body {
                status,
                text: text.to_string(),
                elapsed_ms: 2_345,
                received_at: 0,
            }),
        }
    }

    #[test]
    fn the_entry_says_what_history_shows_then_why_it_has_no_answer() {
        let text = entry_text(&entry(Some(0), "The service could not be reached."), 90_000);
        for shown in [
            "Entry    0a1b2c3d-",
            "Kind     ai (from cli)",
            "Request  gemini · best boots",
            "Model    Gemini",
            "Place    DE",
            "Status   error",
            "When     1970-01-01 00:00:00 UTC (1m ago)",
            "Took     2.3 s",
            "Size     7.6 kB",
            "No answer, only an error: The service could not be reached.",
        ] {
            assert!(text.contains(shown), "{shown:?} in:\n{text}");
        }
        let waiting = entry_text(&entry(None, ""), 0);
        assert!(
            waiting.contains("Status   waiting for its answer"),
            "{waiting}"
        );
        assert!(!waiting.contains("Took"), "{waiting}");
    }

    #[test]
    fn an_entry_without_a_body_has_nothing_raw_to_print() {
        assert!(answered(&entry(None, "")).is_err());
        assert!(answered(&entry(Some(Body::CANCELLED), "")).is_err());
        assert!(
            answered(&entry(Some(0), "refused"))
                .unwrap_err()
                .contains("refused")
        );
        assert_eq!(answered(&entry(Some(200), "{}")).unwrap().text, "{}");
    }
}
