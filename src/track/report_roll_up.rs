//! The report's roll-up of the last run: who recommends whom by model, by place and by
//! device, the cells pooled (`analysis::roll_up`), each figure with its 95 % interval. A
//! cell is one prompt asked by one model on one device from one place, its samples
//! together. Every value is written through `shareable`.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::analysis::adaptive::Pool;
use crate::analysis::roll_up::{self, BrandRead, CellAnswers, RollRow};
use crate::api::Model;
use crate::shareable::html::text;
use crate::shareable::markdown;

use super::trends::RunObservations;

/// Each watched brand of `run`'s answers pooled by model, by place and by device.
pub fn of_run(run: &RunObservations, brands: &[String]) -> Vec<RollRow> {
    // Beside phones, the answers asked with no device are the desktop's.
    let some_device = run.answers.iter().any(|a| !a.device.is_empty());
    let mut index: HashMap<[&str; 4], usize> = HashMap::new();
    let mut cells: Vec<CellAnswers> = Vec::new();
    for answer in &run.answers {
        let reads: Vec<BrandRead> = (0..brands.len())
            .map(|b| {
                let seen = answer.seen(b);
                BrandRead {
                    position: seen.position,
                    recommended: seen.recommends(),
                }
            })
            .collect();
        let key = [
            answer.query.as_str(),
            &answer.model,
            &answer.device,
            &answer.location,
        ];
        let at = *index.entry(key).or_insert_with(|| {
            cells.push(CellAnswers {
                model: answer
                    .model
                    .parse::<Model>()
                    .map_or_else(|_| answer.model.clone(), |m| m.display_name().to_string()),
                device: match answer.device.is_empty() && some_device {
                    true => crate::devices::DESKTOP.to_string(),
                    false => answer.device.clone(),
                },
                place: answer.location.clone(),
                answers: Vec::new(),
            });
            cells.len() - 1
        });
        cells[at].answers.push(reads);
    }
    roll_up::roll_up(&cells, brands)
}

const TITLE: &str = "Who recommends whom in the last run";
const HOW: &str = "Each brand's share of the answers naming it and recommending it, and its \
    average position where named, pooled by model, by place and by device, each with its 95 % \
    interval. A cell (a prompt asked by one model on one device from one place) weighs the same \
    however often it was asked; one cell's own interval stays wide (five of ten answers is \
    24–76 %), a pool of many cells narrows.";
const NO_ANSWER: &str = "The last run holds no answer to pool.";

/// The pools of `rows` with theirs, in order: one model's, one place's, one device's.
fn by_pool(rows: &[RollRow]) -> Vec<(&Pool, Vec<&RollRow>)> {
    let mut pools: Vec<(&Pool, Vec<&RollRow>)> = Vec::new();
    for row in rows {
        match pools.iter_mut().find(|(p, _)| **p == row.pool) {
            Some((_, rows)) => rows.push(row),
            None => pools.push((&row.pool, vec![row])),
        }
    }
    pools
}

/// "by ChatGPT: 12 cells, 36 answers".
fn pool_heading(pool: &Pool, rows: &[&RollRow]) -> String {
    let (cells, answers) = rows.first().map_or((0, 0), |r| (r.cells, r.answers));
    format!(
        "{}: {}, {}",
        pool.text(),
        crate::plural::count(cells as u64, "cell", "cells"),
        crate::plural::count(answers as u64, "answer", "answers")
    )
}

/// The section as HTML.
pub fn html(rows: &[RollRow]) -> String {
    let mut page = format!(
        r#"<section id="roll-up"><h2>{TITLE}</h2><p class="meta">{}</p>"#,
        text(HOW)
    );
    if rows.is_empty() {
        let _ = write!(page, "<p>{}</p></section>", text(NO_ANSWER));
        return page;
    }
    for (pool, rows) in by_pool(rows) {
        let _ = write!(
            page,
            r#"<h3>{}</h3><table><tr><th>Brand</th><th class="n">Named</th><th class="n">Recommended</th><th class="n">Position</th></tr>"#,
            text(&pool_heading(pool, &rows))
        );
        for row in rows {
            let _ = write!(
                page,
                r#"<tr><td>{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td></tr>"#,
                text(&row.brand),
                text(&row.named_text()),
                text(&row.recommended_text()),
                text(&row.position_text())
            );
        }
        page.push_str("</table>");
    }
    page.push_str("</section>");
    page
}

/// The section as Markdown.
pub fn markdown(rows: &[RollRow]) -> String {
    let cell = markdown::text;
    let mut md = format!("\n## {TITLE}\n\n{}\n", cell(HOW));
    if rows.is_empty() {
        let _ = writeln!(md, "\n{}", cell(NO_ANSWER));
        return md;
    }
    for (pool, rows) in by_pool(rows) {
        let _ = writeln!(
            md,
            "\n### {}\n\n| Brand | Named | Recommended | Position |\n|---|---:|---:|---:|",
            cell(&pool_heading(pool, &rows))
        );
        for row in rows {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                cell(&row.brand),
                cell(&row.named_text()),
                cell(&row.recommended_text()),
                cell(&row.position_text())
            );
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::stance::Stance;
    use crate::track::trends::{AnswerObservation, Seen};

    fn answer(query: &str, model: &str, place: &str, position: Option<u32>) -> AnswerObservation {
        AnswerObservation {
            query: query.to_string(),
            model: model.to_string(),
            device: String::new(),
            location: place.to_string(),
            brands: vec![Seen {
                stance: Stance::Recommended,
                ..Seen::at(position)
            }],
            domains: Vec::new(),
        }
    }

    #[test]
    fn a_runs_samples_are_one_cell_and_the_pools_read_as_tables() {
        let run = RunObservations {
            label: String::new(),
            answers: vec![
                answer("boots", "ChatGPT", "US", Some(1)),
                answer("boots", "ChatGPT", "US", None),
                answer("boots", "ChatGPT", "DE", Some(2)),
                answer("tents", "ChatGPT", "US", Some(1)),
            ],
            results: Vec::new(),
        };
        let rows = of_run(&run, &["Salomon".to_string()]);
        let chatgpt = &rows[0];
        // Three cells: boots from US (1 of 2), boots from DE (1 of 1), tents from US (1 of 1).
        assert_eq!((chatgpt.cells, chatgpt.answers), (3, 4));
        assert!((chatgpt.visibility - 100.0 * (0.5 + 1.0 + 1.0) / 3.0).abs() < 1e-9);
        let md = markdown(&rows);
        assert!(md.contains("### by ChatGPT: 3 cells, 4 answers"), "{md}");
        assert!(md.contains("| Salomon | 83% ±"), "{md}");
        assert!(md.contains("### at US: 2 cells, 3 answers"), "{md}");
        let page = html(&rows);
        assert!(page.contains(r#"<section id="roll-up">"#));
        assert!(page.contains("@1.3 ±"), "{page}");
        assert!(html(&[]).contains(NO_ANSWER));
    }
}
