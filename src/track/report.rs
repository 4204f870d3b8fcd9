//! Runs written out for a spreadsheet or a warehouse: one row per answer × brand (with what
//! the answer says of the brand, its stance, and which item of its list it is), and per
//! search result × vantage point, as CSV or JSON Lines. A call with no result yet (pending,
//! failed, not sent) is one row with its state, so a run's export is always whole. For a
//! script, the runs' answers as vantage reads them (`answers`).

use std::time::Duration;

use serde::Serialize;

use crate::analysis::mentions::{Brand, Mention};
use crate::analysis::stance::Stance;
use crate::analysis::workspace::{DEFAULT_COMPLETE, TrackSet};
use crate::present::answer::prepare_stored;
use crate::present::compare::overview::{is_overview_request, stored_overview};
use crate::present::compare::summary::location_label;
use crate::present::reading::AnswerReading;
use crate::shareable::{csv, json};
use crate::store::readings::{RESULTS, StoredReading};
use crate::store::{RequestParams, RunItem, RunSummary, Store, StoreError};

use super::local_time::{local_stamp, reader_time};
use super::map::brand_maps;
use super::observe::{Observed, ObservedAnswer, observe};
use super::report_page::{BrandExamples, Example, ReportInput};
use super::stored::{self, SetReadings};
use super::{paired, trends};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    Csv,
    Jsonl,
    /// The answers of the runs as vantage reads them: a JSON array, one object per answer
    /// with its run and its reading (text, sources, fanouts, mentions with stance and rank).
    Json,
    /// One self-contained page: styles inline, charts as inline SVG.
    Html,
    /// Markdown, its charts as SVG files beside it (needs `-o`).
    Md,
}

/// One row of the export. Fields that do not apply to the row's kind are empty.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ReportRow {
    pub run: String,
    pub started_at: String,
    pub set: String,
    pub kind: &'static str,
    pub query: String,
    pub model: String,
    pub device: String,
    pub location: String,
    /// The job's state, `unsent` or `refused`.
    pub state: String,
    pub brand: String,
    pub named: Option<bool>,
    pub position: Option<u32>,
    pub count: Option<u32>,
    pub cited: Option<bool>,
    /// What the answer says of the brand: recommended, listed, cautioned, or not found (it
    /// names the brand only to say it knows nothing of it); none where it is not named.
    pub stance: Option<&'static str>,
    /// For an answer, the number of the first item of its list about the brand (none when
    /// it names the brand only in prose); for a search, the result's rank.
    pub rank: Option<u32>,
    pub domain: String,
    pub url: String,
    pub title: String,
}

/// RFC 3339 in UTC, as spreadsheets and warehouses read it.
pub fn timestamp(unix_ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(unix_ms) * 1_000_000)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| unix_ms.to_string())
}

/// The rows of one run: its calls (their results are not needed), each read from its
/// stored reading in `readings` (by call number), else, with none given, from its result.
pub fn rows(
    run: &RunSummary,
    items: &[RunItem],
    readings: Option<&[StoredReading]>,
    brands: &[Brand],
) -> Vec<ReportRow> {
    let names: Vec<String> = brands.iter().map(|b| b.name.clone()).collect();
    let mut rows = Vec::new();
    for item in items {
        let state = match (&item.refused, item.state) {
            (Some(_), _) => "refused".to_string(),
            (None, Some(state)) => state.as_str().to_string(),
            (None, None) => "unsent".to_string(),
        };
        let base = match &item.request {
            RequestParams::Ai(r) => ReportRow {
                kind: "ai",
                query: r.prompt.clone(),
                model: r.effective_model().as_str().to_string(),
                device: r.device.clone().unwrap_or_default(),
                location: location_label(&r.location),
                ..ReportRow::default()
            },
            RequestParams::Search(r) => ReportRow {
                kind: "search",
                query: r.terms.clone(),
                location: location_label(&r.location),
                ..ReportRow::default()
            },
            RequestParams::Browser(_) | RequestParams::Compare(_) => continue,
        };
        let base = ReportRow {
            run: run.id.as_str().to_string(),
            started_at: timestamp(run.started_at),
            set: run.set_name.clone(),
            state,
            ..base
        };
        let observed = match readings {
            Some(readings) => match readings.binary_search_by_key(&item.seq, |r| r.seq) {
                Ok(at) => Some(read_back(&readings[at], &names)),
                Err(_) => None,
            },
            None => Some(observe(item, brands)),
        };
        match observed {
            Some(Observed::Answer(answer)) if !brands.is_empty() => {
                for (brand, seen) in brands.iter().zip(&answer.observation.brands) {
                    let mention = answer.mentions.iter().find(|m| m.brand == brand.name);
                    rows.push(ReportRow {
                        brand: brand.name.clone(),
                        named: Some(seen.position.is_some()),
                        position: seen.position,
                        count: Some(seen.count),
                        cited: Some(mention.is_some_and(|m| m.cited)),
                        stance: (seen.position.is_some() || seen.stance == Stance::NotFound)
                            .then(|| seen.stance.label()),
                        rank: mention
                            .and_then(|m| m.rank)
                            .and_then(|r| u32::try_from(r).ok()),
                        ..base.clone()
                    });
                }
            }
            Some(Observed::Results(results)) if !results.is_empty() => {
                for result in results {
                    rows.push(ReportRow {
                        rank: Some(result.rank),
                        domain: result.domain,
                        url: result.url,
                        title: result.title,
                        ..base.clone()
                    });
                }
            }
            _ => rows.push(base),
        }
    }
    rows
}

/// A stored reading as the rows read it: the observation, and per named brand a mention
/// with what the rows show of it (cited, rank).
fn read_back(reading: &StoredReading, names: &[String]) -> Observed {
    let run = stored::observations(String::new(), std::slice::from_ref(reading), names);
    if let Some(observation) = run.answers.into_iter().next() {
        let mentions = reading
            .brands
            .iter()
            .map(|b| Mention {
                brand: b.brand.clone(),
                position: b.position.map(|p| p as usize),
                rank: b.rank.map(|r| r as usize),
                count: b.count as usize,
                sentence: None,
                cited: b.cited,
                stance: Stance::default(),
            })
            .collect();
        return Observed::Answer(ObservedAnswer {
            observation,
            mentions,
        });
    }
    match reading.kind.as_str() {
        RESULTS => Observed::Results(run.results),
        _ => Observed::Nothing,
    }
}

/// One answer of a run as vantage reads it (`track report --format json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportAnswer {
    pub run: String,
    pub started_at: String,
    pub set: String,
    pub reading: AnswerReading,
}

/// The answers of one run (a chatbot's, or a results page's AI Overview) as vantage reads
/// them, with the mentions of `brands`; calls without an answer are left out.
pub fn answers(run: &RunSummary, items: &[RunItem], brands: &[Brand]) -> Vec<ReportAnswer> {
    items
        .iter()
        .filter_map(|item| {
            let body = item.body.as_ref()?;
            let prepared = match &item.request {
                RequestParams::Ai(request) => prepare_stored(request.clone(), body)?,
                RequestParams::Search(request) if is_overview_request(request) => {
                    stored_overview(request.clone(), body.clone(), Duration::ZERO)
                }
                _ => return None,
            };
            let mentions = prepared.mentions(brands);
            Some(ReportAnswer {
                run: run.id.as_str().to_string(),
                started_at: timestamp(run.started_at),
                set: run.set_name.clone(),
                reading: AnswerReading::of(&prepared, mentions),
            })
        })
        .collect()
}

/// How many answers per brand the report quotes.
const EXAMPLES_PER_BRAND: usize = 6;

/// What a set's report shows: its last `runs` runs (all when none), the brands' trends and
/// maps from the runs' tallies, the last run's changes, and the answers that named each
/// brand (those few read again, to quote them). `read` is the set's readings brought up to
/// date (`stored::bring_up_to_date`).
pub fn gather(
    store: &Store,
    set_name: &str,
    set: Option<&TrackSet>,
    brands: &[Brand],
    read: &SetReadings,
    runs: Option<usize>,
    written_at: i64,
) -> Result<ReportInput, StoreError> {
    let skip = runs.map_or(0, |keep| read.runs.len().saturating_sub(keep.max(1)));
    let names = read.names.clone();
    // Every time the report writes is the machine's local time, to the second.
    let labels: Vec<String> = read
        .runs
        .iter()
        .skip(skip)
        .map(|r| local_stamp(r.started_at))
        .collect();
    let complete = set.map_or(DEFAULT_COMPLETE, |s| s.complete);
    let mut trends = trends::trends_of(labels, &read.tallies[skip..], &names)
        .with_held(trends::held_of(&read.runs[skip..], complete));
    let count = read.runs.len() - skip;
    let observed = |i: usize| read.observations(store, i, brands);
    let n = read.runs.len();
    let last = match count {
        0 => None,
        _ => Some(observed(n - 1)?),
    };
    // The last run against the one before, over the cells both answered.
    let diff = match &last {
        Some(last) if count >= 2 => {
            let compared = paired::compare(&observed(n - 2)?, last, &names);
            trends = trends.with_compared(&compared);
            Some(compared.diff)
        }
        _ => None,
    };
    let roll_up = last
        .as_ref()
        .map(|last| super::report_roll_up::of_run(last, &names))
        .unwrap_or_default();
    let cell_changes = if count >= 2 {
        super::answers_read::last_two_changed(store, read)?
    } else {
        Vec::new()
    };
    let examples = match read.runs.len().checked_sub(1) {
        Some(last) if count > 0 => examples(store, read, last, brands)?,
        _ => Vec::new(),
    };
    Ok(ReportInput {
        set: set.map_or_else(|| set_name.to_string(), |s| s.name.clone()),
        written_at: reader_time(&local_stamp(written_at)),
        prompts: set.map(|s| s.prompts.clone()).unwrap_or_default(),
        terms: set.map(|s| s.terms.clone()).unwrap_or_default(),
        models: set
            .map(|s| {
                let mut models: Vec<String> = s
                    .models
                    .iter()
                    .map(|m| m.display_name().to_string())
                    .collect();
                if s.overview {
                    models.push("AI Overview".to_string());
                }
                models
            })
            .unwrap_or_default(),
        places: set
            .map(|s| s.locations.iter().map(location_label).collect())
            .unwrap_or_default(),
        maps: brand_maps(&trends),
        trends,
        diff,
        examples,
        cell_changes,
        roll_up,
    })
}

/// The answers of run `last` that name each brand, quoted where they name it: at most
/// [`EXAMPLES_PER_BRAND`] a brand, found in the run's readings, and only those read again.
fn examples(
    store: &Store,
    read: &SetReadings,
    last: usize,
    brands: &[Brand],
) -> Result<Vec<BrandExamples>, StoreError> {
    let mut examples: Vec<BrandExamples> = brands
        .iter()
        .map(|b| BrandExamples {
            brand: b.name.clone(),
            names: std::iter::once(b.name.clone())
                .chain(b.aliases.iter().cloned())
                .collect(),
            answers: Vec::new(),
        })
        .collect();
    let run = &read.runs[last];
    // The calls to quote: per brand, the first answers naming it.
    let wanted: Vec<u32> = match read.stored(store, last)? {
        Some(readings) => {
            let mut taken = std::collections::BTreeSet::new();
            for brand in brands {
                taken.extend(
                    readings
                        .iter()
                        .filter(|r| {
                            r.brands
                                .iter()
                                .any(|b| b.brand == brand.name && b.position.is_some())
                        })
                        .take(EXAMPLES_PER_BRAND)
                        .map(|r| r.seq),
                );
            }
            taken.into_iter().collect()
        }
        None => (0..run.planned).collect(),
    };
    for seq in wanted {
        for item in store.track_items_between(&run.id, seq, seq, true)? {
            let Observed::Answer(answer) = observe(&item, brands) else {
                continue;
            };
            for mention in &answer.mentions {
                let (Some(sentence), Some(_)) = (&mention.sentence, mention.position) else {
                    continue;
                };
                if let Some(entry) = examples.iter_mut().find(|e| e.brand == mention.brand)
                    && entry.answers.len() < EXAMPLES_PER_BRAND
                {
                    entry.answers.push(Example {
                        model: answer.observation.model.clone(),
                        location: answer.observation.location.clone(),
                        query: answer.observation.query.clone(),
                        sentence: sentence.clone(),
                        stance: mention.stance,
                    });
                }
            }
        }
    }
    Ok(examples)
}

/// One answer of `track report --format json`, pretty, its control characters as escapes.
pub fn answer_json(answer: &ReportAnswer) -> Result<String, String> {
    let text = serde_json::to_string_pretty(answer).map_err(|e| e.to_string())?;
    Ok(json::escape_controls(&text).into_owned())
}

/// The rows as CSV (with a header when `header`) or JSON Lines.
pub fn render(rows: &[ReportRow], format: ReportFormat, header: bool) -> Result<String, String> {
    match format {
        // Every cell through the one CSV writer, which neutralises formulas.
        ReportFormat::Csv if rows.is_empty() && header => {
            let text = csv::serialized(&[ReportRow::default()], true)?;
            // The header line alone.
            Ok(text
                .lines()
                .next()
                .map(|l| format!("{l}\n"))
                .unwrap_or_default())
        }
        ReportFormat::Csv => csv::serialized(rows, header),
        ReportFormat::Jsonl => {
            let mut text = String::new();
            for row in rows {
                let line = serde_json::to_string(row).map_err(|e| e.to_string())?;
                text.push_str(&json::escape_controls(&line));
                text.push('\n');
            }
            Ok(text)
        }
        ReportFormat::Html | ReportFormat::Md | ReportFormat::Json => {
            Err("this format is written from the runs' readings, not row by row".to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{AiRequest, JobId, Location};
    use crate::jobs::JobState;
    use crate::store::RunId;

    fn run() -> RunSummary {
        RunSummary {
            id: RunId("11111111-2222-4333-8444-555555555555".to_string()),
            set_name: "boots".to_string(),
            started_at: 1_763_900_000_000,
            planned: 2,
            queued: 1,
            unsent: 1,
            refused: 0,
            done: 1,
            failed: 0,
            pending: 0,
            done_answers: 1,
        }
    }

    fn ai_item(body: Option<&str>) -> RunItem {
        let mut request = AiRequest::new("best boots");
        request.location = Location {
            country: Some("US".to_string()),
            subdivision: None,
            city: Some("Denver".to_string()),
        };
        RunItem {
            seq: 0,
            request: RequestParams::Ai(request),
            job_id: body.map(|_| JobId::parse("0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20").unwrap()),
            state: body.map(|_| JobState::Done),
            sends: 1,
            refused: None,
            body: body.map(str::to_string),
        }
    }

    #[test]
    fn one_row_per_answer_and_brand_and_one_for_a_call_without_result() {
        let body = serde_json::json!({
            "model": "chatgpt",
            "completion": "<p>I recommend Merrell above all. Salomon is next. Merrell again. Avoid Keen: its soles peel. I could not find anything on Hoka.</p>",
            "sources": "<a href=\"https://www.merrell.com/boots\">Merrell</a>",
        })
        .to_string();
        let brands = vec![
            Brand {
                name: "Merrell".to_string(),
                aliases: Vec::new(),
                domains: vec!["merrell.com".to_string()],
            },
            Brand::named("Hoka"),
            Brand::named("Keen"),
            Brand::named("Lowa"),
        ];
        let mut unsent = ai_item(None);
        unsent.seq = 1;
        let rows = rows(&run(), &[ai_item(Some(&body)), unsent], None, &brands);
        assert_eq!(rows.len(), 5, "{rows:#?}");
        assert_eq!(rows[0].brand, "Merrell");
        assert_eq!(rows[0].named, Some(true));
        assert_eq!(rows[0].position, Some(1));
        assert_eq!(rows[0].count, Some(2));
        assert_eq!(rows[0].cited, Some(true));
        assert_eq!(rows[0].location, "US/–/Denver");
        assert_eq!(rows[0].stance, Some("recommended"));
        assert_eq!(rows[1].brand, "Hoka");
        assert_eq!(rows[1].named, Some(false));
        assert_eq!(rows[1].stance, Some("not found"));
        assert_eq!(rows[2].stance, Some("cautioned"));
        // Not named at all: no stance.
        assert_eq!((rows[3].named, rows[3].stance), (Some(false), None));
        assert_eq!(rows[4].state, "unsent");
        assert_eq!(rows[4].brand, "");
        let csv = render(&rows, ReportFormat::Csv, true).unwrap();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some(
                "run,started_at,set,kind,query,model,device,location,state,brand,named,position,count,cited,stance,rank,domain,url,title"
            )
        );
        assert!(lines.next().unwrap().contains(",2025-11-23T"), "{csv}");
        let jsonl = render(&rows, ReportFormat::Jsonl, true).unwrap();
        assert_eq!(jsonl.lines().count(), 5);
        let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
        assert_eq!(first["brand"], "Merrell");
        assert_eq!(first["stance"], "recommended");
        let lowa: serde_json::Value = serde_json::from_str(jsonl.lines().nth(3).unwrap()).unwrap();
        assert_eq!(lowa["stance"], serde_json::Value::Null);
        assert_eq!(first["state"], "done");
    }

    #[test]
    fn an_answer_of_the_json_report_carries_controls_only_as_escapes() {
        let hostile = "Merrell \u{1b}]0;owned\u{7} \u{9b}2J \u{202e}txt.exe";
        let body = serde_json::json!({
            "model": "chatgpt",
            "completion": format!("<p>I recommend {hostile}.</p>"),
        })
        .to_string();
        let brands = vec![Brand::named("Merrell")];
        let answers = answers(&run(), &[ai_item(Some(&body))], &brands);
        assert_eq!(answers.len(), 1);
        let written = answer_json(&answers[0]).unwrap();
        assert!(
            !written.chars().any(crate::sanitize::is_unsafe),
            "{written}"
        );
        let read: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert!(read.to_string().contains("Merrell"), "{read}");
    }

    #[test]
    fn report_rows_with_formulas_are_text_in_every_cell() {
        let row = ReportRow {
            set: "=cmd|' /C calc'!A0".to_string(),
            query: "+1+1".to_string(),
            brand: "@SUM(A1)".to_string(),
            title: "\tx".to_string(),
            url: "-2+3".to_string(),
            domain: "\u{1b}]0;t\u{7}x".to_string(),
            position: Some(3),
            ..ReportRow::default()
        };
        let csv = render(std::slice::from_ref(&row), ReportFormat::Csv, true).unwrap();
        let record = csv.lines().nth(1).unwrap();
        for cell in [
            "'=cmd|' /C calc'!A0",
            "'+1+1",
            "'@SUM(A1)",
            "'\tx",
            "'-2+3",
            "␛x",
            ",3,",
        ] {
            assert!(record.contains(cell), "{cell} not in {record}");
        }
        let jsonl = render(&[row], ReportFormat::Jsonl, false).unwrap();
        assert!(jsonl.contains(r#""domain":"\u001b]0;t\u0007x""#), "{jsonl}");
    }
}
