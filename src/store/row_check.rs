//! What a row of a set's history must be to be kept: every column of its type, every id of
//! its shape, every time within range. One check for the rows an import reads and for the
//! rows `store check` finds: a row planted by a hostile export (a job id `../../etc/passwd`,
//! a run started "yesterday", a run dated 9999) is refused at the door and named if it is
//! already in.

use serde_json::{Map, Value};

use crate::api::{JobId, JobKind};
use crate::jobs::JobState;

use super::RequestKind;

/// How far past "now" a time may be: clocks of two machines differ by a little.
pub const CLOCK_SKEW_MS: i64 = 5 * 60 * 1000;
/// How far ahead a job's next poll may be planned (the longest back-off is 30 s).
const NEXT_POLL_AHEAD_MS: i64 = 24 * 60 * 60 * 1000;
/// The most calls one run plans (a set's grid times its samples, with room to spare).
pub const MOST_PLANNED: i64 = 1_000_000;
/// The longest set name kept.
const LONGEST_SET_NAME: usize = 200;

/// One column's rule.
#[derive(Clone, Copy)]
enum Rule {
    /// A UUID: a run's or a job's id.
    Uuid,
    /// Milliseconds since 1970, not after now plus the skew.
    Time,
    /// Milliseconds since 1970, at most a day ahead: a poll planned for later.
    PlannedTime,
    /// A whole number in a range.
    Number(i64, i64),
    /// Text, at most this many characters; with no control characters at all when
    /// `one_line` (a name shown in lines and alerts), else any (an answer's body).
    Text { longest: usize, one_line: bool },
    /// Text holding JSON.
    Json,
    /// One of a few words.
    Word(&'static [&'static str]),
}

use Rule::*;

const ANY_TEXT: Rule = Text {
    longest: usize::MAX,
    one_line: false,
};

/// Each column's rule and whether it may be null (or left out: a column with a default),
/// by table.
fn rules(table: &str) -> &'static [(&'static str, Rule, bool)] {
    match table {
        "track_runs" => &[
            ("id", Uuid, false),
            (
                "set_name",
                Text {
                    longest: LONGEST_SET_NAME,
                    one_line: true,
                },
                false,
            ),
            ("started_at", Time, false),
            ("planned", Number(0, MOST_PLANNED), false),
        ],
        "jobs" => &[
            ("id", Uuid, false),
            ("kind", Word(&["ai", "search", "browser"]), false),
            ("request", Json, true),
            ("summary", ANY_TEXT, false),
            (
                "state",
                Word(&["pending", "done", "failed", "expired", "error"]),
                false,
            ),
            ("known", Number(0, 1), true),
            ("created_at", Time, false),
            ("last_poll_at", Time, true),
            ("next_poll_at", PlannedTime, true),
            ("attempts", Number(0, i32::MAX as i64), true),
            ("result_size", Number(0, i64::MAX), true),
            ("last_error", ANY_TEXT, true),
        ],
        "job_results" => &[
            ("job_id", Uuid, false),
            ("status", Number(100, 599), false),
            ("body", ANY_TEXT, false),
            ("elapsed_ms", Number(0, i64::MAX), false),
            ("received_at", Time, false),
        ],
        "track_items" => &[
            ("run_id", Uuid, false),
            ("seq", Number(0, MOST_PLANNED - 1), false),
            ("kind", Word(&["ai", "search"]), false),
            ("request", Json, false),
            ("job_id", Uuid, true),
            ("sends", Number(0, i32::MAX as i64), true),
            ("refused", ANY_TEXT, true),
            ("last_error", ANY_TEXT, true),
        ],
        "track_readings" => &[
            ("run_id", Uuid, false),
            ("seq", Number(0, MOST_PLANNED - 1), false),
            ("list", Json, false),
            ("version", Number(0, i32::MAX as i64), false),
            ("kind", Word(&["answer", "results", "nothing"]), false),
            ("model", ANY_TEXT, false),
            ("place", ANY_TEXT, false),
            ("query", ANY_TEXT, false),
            ("device", ANY_TEXT, false),
            ("detail", ANY_TEXT, false),
            ("brands", Json, false),
        ],
        _ => &[],
    }
}

/// Why a row of `table` cannot be kept (its first wrong column), checked against `now` (ms).
/// A column missing from the row is checked as null.
pub fn check_row(table: &str, row: &Map<String, Value>, now: i64) -> Result<(), String> {
    let rules = rules(table);
    if rules.is_empty() {
        return Err(format!("{table:?} is not a table of a set's history"));
    }
    for (column, rule, nullable) in rules {
        let value = row.get(*column).unwrap_or(&Value::Null);
        if value.is_null() {
            if *nullable {
                continue;
            }
            return Err(format!("{table}.{column} is missing"));
        }
        check_value(*rule, value, now).map_err(|problem| format!("{table}.{column} {problem}"))?;
    }
    // A stored request must be one of the kind it says.
    if let (Some(kind), Some(request)) = (
        row.get("kind").and_then(Value::as_str),
        row.get("request").and_then(Value::as_str),
    ) && matches!(table, "jobs" | "track_items")
    {
        let kind: RequestKind = kind.parse().map_err(|e| format!("{table}.kind {e}"))?;
        super::RequestParams::from_json(kind, request)
            .map_err(|e| format!("{table}.request is not a {kind} request ({e})"))?;
    }
    if table == "jobs"
        && let Some(state) = row.get("state").and_then(Value::as_str)
    {
        state
            .parse::<JobState>()
            .map_err(|e| format!("jobs.state {e}"))?;
        let kind = row.get("kind").and_then(Value::as_str).unwrap_or_default();
        kind.parse::<JobKind>()
            .map_err(|e| format!("jobs.kind {e}"))?;
    }
    Ok(())
}

fn check_value(rule: Rule, value: &Value, now: i64) -> Result<(), String> {
    let text = || value.as_str().ok_or("is not text");
    let number = || value.as_i64().ok_or("is not a whole number");
    match rule {
        Uuid => {
            let id = text()?;
            JobId::parse(id)
                .ok()
                .filter(|parsed| parsed.as_str() == id)
                .map(|_| ())
                .ok_or_else(|| format!("{:?} is not an id (ids are UUIDs)", shorten(id)))
        }
        Time | PlannedTime => {
            let at = number().map_err(|_| {
                format!(
                    "{} is not a time (times are milliseconds since 1970)",
                    shorten(&value.to_string())
                )
            })?;
            let latest = match rule {
                Time => now + CLOCK_SKEW_MS,
                _ => now + NEXT_POLL_AHEAD_MS,
            };
            if at < 0 {
                return Err(format!("{at} is before 1970"));
            }
            if at > latest {
                let when = jiff::Timestamp::from_millisecond(at).map_or_else(
                    |_| format!("{at} ms"),
                    |t| t.strftime("%Y-%m-%d %H:%M UTC").to_string(),
                );
                return Err(format!(
                    "is {when}, after now: a time that has not come yet"
                ));
            }
            Ok(())
        }
        Number(least, most) => {
            let n = number()?;
            if n < least || n > most {
                return Err(format!("is {n}, outside {least}..={most}"));
            }
            Ok(())
        }
        Text { longest, one_line } => {
            let text = text()?;
            if one_line && text.chars().count() > longest {
                return Err(format!("is longer than {longest} characters"));
            }
            if one_line && text.chars().any(char::is_control) {
                return Err("holds control characters (a newline splits its lines)".to_string());
            }
            Ok(())
        }
        Json => {
            let text = text()?;
            serde_json::from_str::<serde::de::IgnoredAny>(text)
                .map(|_| ())
                .map_err(|e| format!("is not JSON ({e})"))
        }
        Word(words) => {
            let word = text()?;
            if words.contains(&word) {
                Ok(())
            } else {
                Err(format!(
                    "is {:?}, not one of {}",
                    shorten(word),
                    words.join(", ")
                ))
            }
        }
    }
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NOW: i64 = 1_780_000_000_000;

    fn row(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    fn run(started_at: Value) -> Map<String, Value> {
        row(json!({
            "id": "0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20",
            "set_name": "boots", "started_at": started_at, "planned": 4,
        }))
    }

    #[test]
    fn a_run_started_yesterday_or_in_9999_is_refused_and_today_is_kept() {
        assert_eq!(
            check_row("track_runs", &run(json!(NOW - 1000)), NOW),
            Ok(())
        );
        let said = check_row("track_runs", &run(json!("yesterday")), NOW).unwrap_err();
        assert!(
            said.contains("started_at") && said.contains("not a time"),
            "{said}"
        );
        let said = check_row("track_runs", &run(json!(253_370_764_800_000i64)), NOW).unwrap_err();
        assert!(
            said.contains("9999") && said.contains("not come yet"),
            "{said}"
        );
        // A few minutes of another machine's clock are no attack.
        assert_eq!(
            check_row("track_runs", &run(json!(NOW + 60_000)), NOW),
            Ok(())
        );
    }

    #[test]
    fn a_job_id_that_is_a_path_and_a_state_that_is_none_are_refused() {
        let job = |id: &str, state: &str| {
            row(json!({
                "id": id, "kind": "ai", "summary": "x", "state": state, "known": 1,
                "created_at": NOW, "attempts": 0,
                "request": r#"{"prompt":"best hiking boots"}"#,
            }))
        };
        let good = "0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20";
        assert_eq!(check_row("jobs", &job(good, "done"), NOW), Ok(()));
        let said = check_row("jobs", &job("../../etc/passwd", "done"), NOW).unwrap_err();
        assert!(
            said.contains("jobs.id") && said.contains("not an id"),
            "{said}"
        );
        // An id in capitals or with braces reads as a UUID but is not one as stored.
        let shouted = good.to_uppercase();
        assert!(check_row("jobs", &job(&shouted, "done"), NOW).is_err());
        let said = check_row("jobs", &job(good, "lost"), NOW).unwrap_err();
        assert!(said.contains("jobs.state"), "{said}");
    }

    #[test]
    fn a_call_whose_request_is_not_of_its_kind_or_whose_columns_are_missing_is_refused() {
        let call = |request: &str| {
            row(json!({
                "run_id": "0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20", "seq": 0, "kind": "ai",
                "request": request, "sends": 0,
            }))
        };
        assert_eq!(
            check_row("track_items", &call(r#"{"prompt":"x"}"#), NOW),
            Ok(())
        );
        assert!(check_row("track_items", &call("not json"), NOW).is_err());
        assert!(check_row("track_items", &call(r#"{"prompt": 3}"#), NOW).is_err());
        let said = check_row("track_items", &row(json!({"seq": 0})), NOW).unwrap_err();
        assert!(said.contains("track_items.run_id is missing"), "{said}");
        assert!(check_row("requests", &row(json!({})), NOW).is_err());
    }

    #[test]
    fn a_set_name_with_a_newline_is_refused() {
        let mut planted = run(json!(NOW));
        planted.insert("set_name".into(), json!("boots\nALERT: all clear"));
        let said = check_row("track_runs", &planted, NOW).unwrap_err();
        assert!(said.contains("control characters"), "{said}");
    }
}
