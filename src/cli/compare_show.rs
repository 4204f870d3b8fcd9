//! A comparison shown: as `vantage compare` prints it when its columns are in, and as
//! `vantage history show ID` prints a stored one again, with no call — the summary and the
//! mentions as text, `--json`, `--md`, and `--csv` in three forms: tidy (one row per column,
//! sample and brand), `sources` (one row per column, sample and source) and `matrix` (one
//! row per brand, a column per vantage point).

use super::brands::{BrandArgs, matrix_text, source_classifier};
use super::compare::print_json;
use super::compare_rounds::Asked;
use super::{err, out, with_newline};
use crate::analysis::adaptive::Plan;
use crate::analysis::mentions::{self, Brand};
use crate::analysis::samples;
use crate::analysis::sources::KindCounts;
use crate::api::ApiError;
use crate::present::answer::PreparedAnswer;
use crate::present::compare::export::{ColumnExport, CompareExport};
use crate::present::compare::mentions as brand_mentions;
use crate::present::compare::summary::{self, AnswerFacts, AnswerSummary, RankSort};
use crate::present::compare::tidy::{self, TidyCell};
use crate::present::compare::{self, CompareMode, Vantage};
use crate::present::reading::AnswerReading;

/// How a comparison is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    Text,
    Json,
    Csv(CsvForm),
    Markdown,
}

/// The shapes of `--csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CsvForm {
    /// One row per column, sample and tracked brand: model, device, country, subdivision,
    /// city, sample, brand, named, position, rank, stance, count, cited
    Tidy,
    /// One row per column, sample and cited source
    Sources,
    /// One row per brand, a column per vantage point (the mention matrix)
    Matrix,
}

impl Form {
    pub(super) fn of(json: bool, csv: Option<CsvForm>) -> Form {
        match (json, csv) {
            (true, _) => Form::Json,
            (false, Some(form)) => Form::Csv(form),
            (false, None) => Form::Text,
        }
    }
}

/// What the printing reads besides the columns.
pub(super) struct Shown<'a> {
    pub form: Form,
    pub brand_args: &'a BrandArgs,
    /// The brand `--gaps` is about.
    pub own: Option<String>,
    pub plan: Option<Plan>,
    pub first_samples: usize,
    /// What every column asked (the Markdown's heading).
    pub prompt: &'a str,
}

/// Prints the comparison; the errors of the columns that gave no answer.
pub(super) fn show<'a>(
    shown: &Shown,
    vantages: &[Vantage],
    asked: &'a Asked,
    brands: Vec<Brand>,
) -> Vec<&'a ApiError> {
    // Per column, its samples' results; the summary reads each column's first answer.
    let columns: Vec<&[Result<PreparedAnswer, ApiError>]> =
        asked.columns.iter().map(Vec::as_slice).collect();
    // With --samples auto and no brand tracked, the names the answers put forward.
    let brands = match brands.is_empty() {
        true => asked.brands.clone(),
        false => brands,
    };
    let sampled_more = asked.columns.iter().any(|c| c.len() > 1);
    let roll_up = (!brands.is_empty() && sampled_more)
        .then(|| super::compare_rounds::roll_up(vantages, &asked.columns, &brands));
    let plan = shown.plan;
    let first_samples = shown.first_samples;
    let firsts: Vec<&Result<PreparedAnswer, ApiError>> = columns
        .iter()
        .filter_map(|column| column.iter().find(|r| r.is_ok()).or(column.first()))
        .collect();
    let facts = vantages
        .iter()
        .zip(firsts.iter().copied())
        .map(|(vantage, result)| {
            compare::answer_facts(
                vantage.label(CompareMode::Answers),
                &vantage.location,
                result.as_ref().ok(),
                result.as_ref().err().map(|e| e.to_string()),
            )
        })
        .collect();
    let summary =
        AnswerSummary::of(facts).with_source_kinds(&source_classifier(shown.brand_args, &brands));
    let sampled_found: Vec<Vec<Vec<mentions::Mention>>> = columns
        .iter()
        .map(|column| {
            column
                .iter()
                .filter_map(|r| r.as_ref().ok())
                .map(|a| brand_mentions::answer_mentions(a, &brands))
                .collect()
        })
        .collect();
    let found: Vec<Option<Vec<mentions::Mention>>> = sampled_found
        .iter()
        .map(|answers| samples::merged(answers))
        .collect();
    let labels: Vec<String> = summary.columns.iter().map(|c| c.label.clone()).collect();
    let rows = (!brands.is_empty() && !sampled_more).then(|| mentions::summarize(&found));
    let sampled = (!brands.is_empty() && sampled_more).then(|| samples::summarize(&sampled_found));
    let gaps = shown.own.as_ref().map(|own| {
        let domains: Vec<Vec<String>> = columns
            .iter()
            .map(|column| {
                compare::gaps::cited_domains(column.iter().filter_map(|r| r.as_ref().ok()))
            })
            .collect();
        compare::gaps::gaps(own, &labels, &sampled_found, &domains)
    });
    if shown.form == Form::Json {
        // Each column's reading is of the answer its summary reads, with that answer's
        // mentions.
        let readings: Vec<Option<AnswerReading>> = firsts
            .iter()
            .zip(&sampled_found)
            .map(|(result, found)| {
                let answer = result.as_ref().ok()?;
                Some(AnswerReading::of(
                    answer,
                    found.first().cloned().unwrap_or_default(),
                ))
            })
            .collect();
        let mut json = CompareJson::new(
            &summary,
            readings,
            first_samples,
            rows.as_deref(),
            sampled.as_deref(),
            gaps.as_ref(),
        );
        json.samples_per_column = asked.columns.iter().map(Vec::len).collect();
        json.roll_up = roll_up.as_deref();
        print_json(&json);
    } else if let Form::Csv(form) = shown.form {
        match form {
            CsvForm::Tidy => out(&tidy::brands_csv(
                &tidy_cells(vantages, &asked.columns),
                &brands,
            )),
            CsvForm::Sources => out(&tidy::sources_csv(
                &tidy_cells(vantages, &asked.columns),
                &brands,
            )),
            CsvForm::Matrix => match (&sampled, &rows) {
                (Some(sampled), _) => out(&samples::matrix_csv(&labels, sampled)),
                (None, Some(rows)) => out(&brand_mentions::matrix_csv(&labels, rows)),
                (None, None) => {}
            },
        }
    } else if shown.form == Form::Markdown {
        out(&with_newline(
            markdown_export(
                shown.prompt,
                vantages,
                &firsts,
                summary.clone(),
                rows.as_deref().unwrap_or_default(),
                sampled.clone(),
            )
            .markdown(),
        ));
    } else {
        let mut text = summary.text(false).trim_start().to_string();
        if let Some(rows) = &rows {
            text = format!("{}\n{}", with_newline(text), matrix_text(rows));
        }
        if let Some(sampled) = &sampled {
            let asked_how = match &plan {
                Some(plan) => format!(
                    "Each column was asked {} times afresh, then again where its answers split, until every brand's visibility by model and by place was within ±{} points (at most {} times)",
                    plan.first, plan.precision, plan.most
                ),
                None => format!("Each column was asked {first_samples} times afresh"),
            };
            text = format!(
                "{}\n{asked_how}; the summary above reads its first answer, the brands below every answer.\n{}",
                with_newline(text),
                samples::matrix_text(&labels, sampled)
            );
        }
        if let Some(roll_up) = &roll_up {
            text = format!(
                "{}\n{}",
                with_newline(text),
                super::compare_rounds::text(vantages, &asked.columns, roll_up, plan.as_ref())
            );
        }
        if let Some(gaps) = &gaps {
            text = format!("{}\n{}", with_newline(text), gaps.text());
        }
        out(&with_newline(text));
    }
    // An overview always has words: an overview column without any had none on its page.
    for (i, (vantage, result)) in vantages.iter().zip(firsts.iter().copied()).enumerate() {
        if vantage.overview && result.as_ref().is_ok_and(|a| a.plain_text.is_empty()) {
            err(&format!(
                "Column {} ({}): {}",
                i + 1,
                vantage.label(CompareMode::Answers),
                compare::overview::NO_OVERVIEW
            ));
        }
    }
    asked
        .columns
        .iter()
        .flatten()
        .filter_map(|r| r.as_ref().err())
        .collect()
}

/// `vantage history show ID --json|--csv|--md` of a stored comparison: its columns read
/// again from the store, printed as `compare` printed them, with no call. The exit code.
pub(super) fn stored(
    requests: &[crate::store::RequestParams],
    body: &crate::store::Body,
    args: &super::history_show::ShowArgs,
) -> i32 {
    use crate::store::RequestParams;
    let unreadable = |problem: String| {
        err(&format!(
            "The stored comparison could not be read: {problem}."
        ));
        crate::exit::STORAGE
    };
    let stored: Vec<serde_json::Value> = match serde_json::from_str(&body.text) {
        Ok(stored) => stored,
        Err(error) => return unreadable(error.to_string()),
    };
    if requests.iter().any(
        |r| matches!(r, RequestParams::Search(s) if !compare::overview::is_overview_request(s)),
    ) {
        err(
            "This is a comparison of searches: --json, --csv and --md print comparisons of answers; --raw prints its columns as received.",
        );
        return crate::exit::INVALID_INPUT;
    }
    let asked_from = match compare::vantages_of(requests) {
        Ok(vantages) => vantages,
        Err(problem) => return unreadable(problem),
    };
    // A sampled comparison repeats each column's request: one column, several samples.
    let mut vantages: Vec<Vantage> = Vec::new();
    let mut columns: Vec<Vec<Result<PreparedAnswer, ApiError>>> = Vec::new();
    for ((request, vantage), column) in requests.iter().zip(asked_from).zip(&stored) {
        let text = column["body"].as_str().unwrap_or_default();
        let status = column["status"].as_u64().unwrap_or(0);
        let elapsed = std::time::Duration::from_millis(column["elapsed_ms"].as_u64().unwrap_or(0));
        let answer = match (status, request) {
            (200, RequestParams::Ai(r)) => crate::present::answer::prepare_stored(r.clone(), text)
                .map(|mut answer| {
                    answer.header.elapsed = elapsed;
                    answer
                })
                .ok_or_else(|| {
                    ApiError::Unanswered("The stored answer is not one vantage reads.".to_string())
                }),
            (200, RequestParams::Search(r)) => Ok(compare::overview::stored_overview(
                r.clone(),
                text.to_string(),
                elapsed,
            )),
            _ => Err(ApiError::Unanswered(
                crate::sanitize::one_line(text).into_owned(),
            )),
        };
        match vantages.iter().position(|v| *v == vantage) {
            Some(i) => columns[i].push(answer),
            None => {
                vantages.push(vantage);
                columns.push(vec![answer]);
            }
        }
    }
    let brands = match super::brands::tracked_brands(&args.brands) {
        Ok(brands) => brands,
        Err(sentence) => {
            err(&sentence);
            return crate::exit::INVALID_INPUT;
        }
    };
    let form = match (args.md, Form::of(args.json, args.csv)) {
        (true, _) => Form::Markdown,
        (false, form) => form,
    };
    if matches!(form, Form::Csv(CsvForm::Tidy | CsvForm::Matrix)) && brands.is_empty() {
        err(
            "--csv prints a row per tracked brand, and no brands are tracked: give --brands name=domain,… or a workspace file with brands (--csv sources needs none).",
        );
        return crate::exit::INVALID_INPUT;
    }
    let first_samples = columns.iter().map(Vec::len).max().unwrap_or(1);
    let prompt = requests
        .iter()
        .find_map(|r| match r {
            RequestParams::Ai(r) => Some(r.prompt.clone()),
            RequestParams::Search(r) => Some(r.terms.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let asked = Asked {
        columns,
        kept: Vec::new(),
        rounds: 1,
        brands: brands.clone(),
    };
    let shown = Shown {
        form,
        brand_args: &args.brands,
        own: None,
        plan: None,
        first_samples,
        prompt: &prompt,
    };
    show(&shown, &vantages, &asked, brands);
    crate::exit::OK
}

/// Each column's answers as the tidy tables read them.
fn tidy_cells<'a>(
    vantages: &'a [Vantage],
    columns: &'a [Vec<Result<PreparedAnswer, ApiError>>],
) -> Vec<TidyCell<'a>> {
    vantages
        .iter()
        .zip(columns)
        .map(|(vantage, answers)| TidyCell {
            vantage,
            answers: answers.iter().map(|a| a.as_ref().ok()).collect(),
        })
        .collect()
}

/// The comparison as the app's Markdown export writes it.
fn markdown_export(
    prompt: &str,
    vantages: &[Vantage],
    firsts: &[&Result<PreparedAnswer, ApiError>],
    summary: AnswerSummary,
    rows: &[mentions::BrandSummary],
    sampled: Option<Vec<samples::SampledBrand>>,
) -> CompareExport {
    let labels: Vec<String> = vantages
        .iter()
        .map(|v| v.label(CompareMode::Answers))
        .collect();
    let columns = vantages
        .iter()
        .zip(firsts)
        .zip(&labels)
        .map(|((vantage, result), label)| ColumnExport {
            label: label.clone(),
            answer: result.as_ref().ok().map(|answer| {
                let header = match vantage.overview {
                    true => format!(
                        "{label} · {}",
                        crate::measure::duration(answer.header.elapsed)
                    ),
                    false => answer.header.describe(),
                };
                (header, answer.markdown.clone())
            }),
            error: result.as_ref().err().map(|e| e.to_string()),
        })
        .collect();
    CompareExport {
        mode: CompareMode::Answers,
        prompt: prompt.to_string(),
        columns,
        labels,
        summary: Some(summary),
        mention_rows: rows.to_vec(),
        sampled,
        samples: 1,
        samples_per_column: 1,
        sort: RankSort::Best,
        table: Vec::new(),
        ranks: Vec::new(),
    }
}

/// `compare --json`: the summary's fields, each column with its answer's reading (as `ai
/// --json` prints one), then the mention matrix and the gaps when asked.
#[derive(serde::Serialize)]
struct CompareJson<'a> {
    columns: Vec<ColumnJson<'a>>,
    shared: &'a [summary::SharedDomain],
    similarity: &'a [Vec<Option<f64>>],
    sources_by_kind: &'a [KindCounts],
    /// How many times each column was asked first.
    samples: usize,
    /// How many times each column was asked in all (with --samples auto, as its answers
    /// split).
    samples_per_column: Vec<usize>,
    /// With samples: each brand pooled by model, place and device.
    #[serde(skip_serializing_if = "Option::is_none")]
    roll_up: Option<&'a [crate::analysis::roll_up::RollRow]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mentions: Option<&'a [mentions::BrandSummary]>,
    /// With several samples: each brand's count and interval per column and overall.
    #[serde(skip_serializing_if = "Option::is_none")]
    sampled: Option<&'a [samples::SampledBrand]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gaps: Option<&'a compare::gaps::Gaps>,
}

/// A column of the summary and the reading of its answer (`null` without one).
#[derive(serde::Serialize)]
struct ColumnJson<'a> {
    #[serde(flatten)]
    facts: &'a AnswerFacts,
    reading: Option<AnswerReading>,
}

impl<'a> CompareJson<'a> {
    fn new(
        summary: &'a AnswerSummary,
        readings: Vec<Option<AnswerReading>>,
        samples: usize,
        mentions: Option<&'a [mentions::BrandSummary]>,
        sampled: Option<&'a [samples::SampledBrand]>,
        gaps: Option<&'a compare::gaps::Gaps>,
    ) -> CompareJson<'a> {
        // Every field of the summary, named: one added there does not compile until it is
        // printed here too.
        let AnswerSummary {
            columns,
            shared,
            similarity,
            sources_by_kind,
        } = summary;
        CompareJson {
            columns: columns
                .iter()
                .zip(readings.into_iter().chain(std::iter::repeat(None)))
                .map(|(facts, reading)| ColumnJson { facts, reading })
                .collect(),
            shared,
            similarity,
            sources_by_kind,
            samples,
            samples_per_column: Vec::new(),
            roll_up: None,
            mentions,
            sampled,
            gaps,
        }
    }
}
