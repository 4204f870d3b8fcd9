//! `compare --samples N|auto`: a comparison's asks, round by round, and its roll-up. With N,
//! every column is asked N times at once. With `auto`, every column is asked 3 times first,
//! then again, round by round, where its answers split (`analysis::adaptive`), until every
//! tracked brand's visibility pooled by model, by place and by device is within the
//! precision, or every column had the most. Each round is one comparison in History. The
//! roll-up pools the columns: per brand, by model, by place and by device, its visibility
//! and recommended share with their 95 % intervals and its average position.

use crate::analysis::adaptive::{self, CellCount, Plan, Pool};
use crate::analysis::mentions::{Brand, Mention};
use crate::analysis::roll_up::{self, BrandRead, CellAnswers, RollRow};
use crate::analysis::stance::Stance;
use crate::api::ApiError;
use crate::config::Config;
use crate::present::answer::PreparedAnswer;
use crate::present::compare::mentions as brand_mentions;
use crate::present::compare::{CompareMode, Vantage};
use crate::store::RequestParams;

use super::Sampling;
use super::compare::{ColumnRequest, answer_column, run_columns};
use super::record::Kept;

/// Each column's answers (or errors), in the columns' order, and what keeping each round in
/// History gave.
pub(super) struct Asked {
    pub columns: Vec<Vec<Result<PreparedAnswer, ApiError>>>,
    pub kept: Vec<Result<(), String>>,
    pub rounds: usize,
    /// The brands the rounds were spent on: the tracked ones, else (with `auto`) the names
    /// the first round's answers put forward.
    pub brands: Vec<Brand>,
}

/// The names most answers put forward, at most this many, when no brand is tracked.
const PUT_FORWARD: usize = 10;

/// The names the answers put forward (their items' subjects and emphasised names), by how
/// many answers put each forward.
fn put_forward(columns: &[Vec<Result<PreparedAnswer, ApiError>>]) -> Vec<Brand> {
    let mut counted: Vec<(String, usize)> = Vec::new();
    for answer in columns.iter().flatten().filter_map(|r| r.as_ref().ok()) {
        for suggested in &answer.candidates {
            match counted.iter_mut().find(|(n, _)| *n == suggested.name) {
                Some((_, count)) => *count += 1,
                None => counted.push((suggested.name.clone(), 1)),
            }
        }
    }
    counted.sort_by_key(|c| std::cmp::Reverse(c.1));
    counted
        .into_iter()
        .take(PUT_FORWARD)
        .map(|(name, _)| Brand::named(&name))
        .collect()
}

/// The counts `adaptive` reads of each column: its answers and the brands they name.
fn counts(
    vantages: &[Vantage],
    columns: &[Vec<Result<PreparedAnswer, ApiError>>],
    brands: &[Brand],
) -> Vec<CellCount> {
    vantages
        .iter()
        .zip(columns)
        .map(|(vantage, answers)| {
            let found: Vec<Vec<Mention>> = answers
                .iter()
                .filter_map(|r| r.as_ref().ok())
                .map(|a| brand_mentions::answer_mentions(a, brands))
                .collect();
            cell_of(vantage, &found, brands, |m| m.position.is_some())
        })
        .collect()
}

/// A column as a cell of the pools, counting the answers whose mention of a brand `counts`.
fn cell_of(
    vantage: &Vantage,
    found: &[Vec<Mention>],
    brands: &[Brand],
    counts: impl Fn(&Mention) -> bool,
) -> CellCount {
    let cell = column_cell(vantage);
    CellCount {
        model: cell.model,
        device: cell.device,
        place: cell.place,
        answers: found.len(),
        named: brands
            .iter()
            .map(|b| {
                found
                    .iter()
                    .filter(|answer| answer.iter().any(|m| m.brand == b.name && counts(m)))
                    .count()
            })
            .collect(),
    }
}

/// A column's model, device and place as the pools name them, with no answers yet.
fn column_cell(vantage: &Vantage) -> CellAnswers {
    CellAnswers {
        model: match vantage.overview {
            true => crate::present::compare::overview::AI_OVERVIEW_NAME.to_string(),
            false => vantage
                .model
                .unwrap_or(crate::api::Model::Chatgpt)
                .display_name()
                .to_string(),
        },
        device: vantage.device.clone().unwrap_or_default(),
        place: crate::present::compare::summary::location_label(&vantage.location),
        answers: Vec::new(),
    }
}

/// Asks every column as `sampling` says, each round kept in History as one comparison.
pub(super) async fn ask(
    config: &Config,
    client: &crate::api::Client,
    vantages: &[Vantage],
    requests: &[ColumnRequest],
    sampling: Sampling,
    brands: &[Brand],
) -> Asked {
    let first = match sampling {
        Sampling::Fixed(n) => n,
        Sampling::Auto(plan) => plan.first,
    };
    let mut asked = Asked {
        columns: vec![Vec::new(); requests.len()],
        kept: Vec::new(),
        rounds: 0,
        brands: brands.to_vec(),
    };
    let mut round: Vec<usize> = vec![first; requests.len()];
    loop {
        let calls: Vec<(usize, ColumnRequest)> = round
            .iter()
            .enumerate()
            .flat_map(|(i, n)| std::iter::repeat_n((i, requests[i].clone()), *n))
            .collect();
        if calls.is_empty() {
            break;
        }
        asked.rounds += 1;
        let kept = Kept::start(
            config,
            RequestParams::Compare(calls.iter().map(|(_, r)| r.params()).collect()),
        );
        let columns: Vec<usize> = calls.iter().map(|(i, _)| *i).collect();
        let results = run_columns(calls.into_iter().map(|(_, r)| r).collect(), |request| {
            answer_column(client, request)
        })
        .await;
        asked.kept.push(
            kept.finish_columns(&results, |a| (a.body.as_str(), a.header.elapsed))
                .await,
        );
        for (i, result) in columns.into_iter().zip(results) {
            asked.columns[i].push(result);
        }
        let Sampling::Auto(plan) = sampling else {
            break;
        };
        if asked.brands.is_empty() {
            asked.brands = put_forward(&asked.columns);
            if asked.brands.is_empty() {
                break;
            }
            let names: Vec<&str> = asked.brands.iter().map(|b| b.name.as_str()).collect();
            super::err(&format!(
                "No brands are tracked: the samples are spent on the {} the answers put forward most: {}.",
                crate::plural::count(names.len() as u64, "name", "names"),
                names.join(", ")
            ));
        }
        let brands = &asked.brands;
        round = adaptive::next_round(
            &counts(vantages, &asked.columns, brands),
            brands.len(),
            &plan,
        );
        let more: usize = round.iter().sum();
        if more > 0 {
            super::err(&format!(
                "Samples, round {}: {} asked again where their answers split.",
                asked.rounds + 1,
                crate::plural::count(more as u64, "column is", "columns are")
            ));
        }
    }
    asked
}

/// Who the pooled columns name and recommend, by model, by place and by device.
pub(super) fn roll_up(
    vantages: &[Vantage],
    columns: &[Vec<Result<PreparedAnswer, ApiError>>],
    brands: &[Brand],
) -> Vec<RollRow> {
    let cells: Vec<CellAnswers> = vantages
        .iter()
        .zip(columns)
        .map(|(vantage, answers)| CellAnswers {
            answers: answers
                .iter()
                .filter_map(|r| r.as_ref().ok())
                .map(|a| {
                    let found = brand_mentions::answer_mentions(a, brands);
                    brands
                        .iter()
                        .map(|b| {
                            let mention = found.iter().find(|m| m.brand == b.name);
                            BrandRead {
                                position: mention
                                    .and_then(|m| m.position)
                                    .and_then(|p| u32::try_from(p).ok()),
                                recommended: mention
                                    .is_some_and(|m| m.stance == Stance::Recommended),
                            }
                        })
                        .collect()
                })
                .collect(),
            ..column_cell(vantage)
        })
        .collect();
    let names: Vec<String> = brands.iter().map(|b| b.name.clone()).collect();
    roll_up::roll_up(&cells, &names)
}

/// Each column's samples, then the roll-up as aligned text: a block per model, place and
/// device, a row per brand.
pub(super) fn text(
    vantages: &[Vantage],
    columns: &[Vec<Result<PreparedAnswer, ApiError>>],
    rows: &[RollRow],
    plan: Option<&Plan>,
) -> String {
    let mut text = String::from("SAMPLES PER COLUMN\n");
    for (vantage, answers) in vantages.iter().zip(columns) {
        let ok = answers.iter().filter(|r| r.is_ok()).count();
        text.push_str(&format!(
            "  {:<40} {}\n",
            crate::sanitize::one_line(&vantage.label(CompareMode::Answers)),
            match ok == answers.len() {
                true => crate::plural::count(ok as u64, "answer", "answers"),
                false => format!("{ok} of {} answered", answers.len()),
            }
        ));
    }
    if let Some(plan) = plan {
        let spent: usize = columns.iter().map(Vec::len).sum();
        let most = plan.most * columns.len();
        text.push_str(&format!(
            "  {spent} asks against {most} asking every column {} times ({:.0} % saved)\n",
            plan.most,
            (most.saturating_sub(spent)) as f64 * 100.0 / most.max(1) as f64
        ));
    }
    if rows.is_empty() {
        return text;
    }
    text.push_str(
        "\nROLL-UP: THE COLUMNS POOLED (% NAMED ± 95 %, % RECOMMENDED ± 95 %, AVERAGE POSITION)\n",
    );
    let mut last: Option<&Pool> = None;
    for row in rows {
        if last != Some(&row.pool) {
            text.push_str(&format!(
                "  {} ({}, {})\n",
                crate::sanitize::one_line(&row.pool.text()),
                crate::plural::count(row.cells as u64, "column", "columns"),
                crate::plural::count(row.answers as u64, "answer", "answers")
            ));
            last = Some(&row.pool);
        }
        text.push_str(&format!(
            "    {:<24} named {:>10} recommended {:>10} {}\n",
            crate::sanitize::one_line(&row.brand),
            row.named_text(),
            row.recommended_text(),
            row.position_text()
        ));
    }
    text
}
