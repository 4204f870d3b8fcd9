//! `vantage track answers SET --prompt P --model M --place PLACE`: one cell of a set over its
//! runs — each run's answer, newest first — and what changed between the last two answered
//! runs (or the two `--runs` names): the brands named, their order and stance, the sources
//! cited, and the word diff Compare shows.

use clap::Args;
use clap_complete::engine::ArgValueCandidates;

use super::track::{find_set, invalid, load_workspace};
use super::{err, out, out_as_received, with_newline};
use crate::analysis::workspace::{TrackSet, location_spec};
use crate::config::Config;
use crate::exit;
use crate::present::compare::overview::AnswerSource;
use crate::present::compare::summary::location_label;
use crate::track::answers::{Cell, CellChanges, CellHistory, TextsOf, cells_of, run_time};
use crate::track::answers_read::read_cell;

#[derive(Debug, Args)]
pub struct AnswersArgs {
    /// The set's name in the workspace file
    #[arg(add = ArgValueCandidates::new(super::shell::set_candidates))]
    pub set: String,
    /// The prompt: its text as the set has it, or its number in the set (1 for the first)
    #[arg(long, value_name = "P")]
    pub prompt: String,
    /// The model (chatgpt, perplexity, …, ai-overview); may be left out when the set asks
    /// one model
    #[arg(long, value_name = "M")]
    pub model: Option<String>,
    /// The place as the set names it (us:ny:New+York); may be left out when the set has
    /// one place
    #[arg(long, value_name = "PLACE")]
    pub place: Option<String>,
    /// The two runs to compare, in either order (their ids, or the first characters `track
    /// list` shows); default: the last two that answered
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub runs: Vec<String>,
    /// Print the runs and the changes as one JSON object
    #[arg(long)]
    pub json: bool,
}

/// `track answers`.
pub(super) fn answers(
    config: &Config,
    workspace: Option<&std::path::Path>,
    args: &AnswersArgs,
) -> i32 {
    let loaded = match load_workspace(workspace) {
        Ok(w) => w,
        Err(sentence) => return invalid(&sentence),
    };
    let set = match find_set(&loaded, &args.set) {
        Ok(set) => set.clone(),
        Err(sentence) => return invalid(&sentence),
    };
    let cell = match pick_cell(&set, args) {
        Ok(cell) => cell,
        Err(sentence) => return invalid(&sentence),
    };
    let brands = loaded.read_for(&set.name);
    let (store, read) = match super::track_read::open_set_readings(config, &set.name, &brands) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let history = match read_cell(&store, &set.name, &read, &brands, &cell, &TextsOf::All) {
        Ok(history) => history,
        Err(error) => {
            err(&error.to_string());
            return error.exit_code();
        }
    };
    let pair = match chosen_pair(&history, &args.runs) {
        Ok(pair) => pair,
        Err(sentence) => return invalid(&sentence),
    };
    let changes = pair.and_then(|(older, newer)| history.changes(older, newer));
    if args.json {
        let value = serde_json::json!({
            "set": history.set,
            "cell": history.cell,
            "runs": history.runs,
            "changes": changes,
        });
        out_as_received(&with_newline(value.to_string()));
    } else {
        out(&text(&history, changes.as_ref()));
    }
    exit::OK
}

/// The cell the flags name, checked through the set's own lists; a sentence naming what the
/// set has when they name something it does not.
fn pick_cell(set: &TrackSet, args: &AnswersArgs) -> Result<Cell, String> {
    let cells = cells_of(set);
    if cells.is_empty() {
        return Err(format!(
            "The set {} asks no prompt of a model, so it has no answers to show.",
            set.name
        ));
    }
    let prompt = pick_prompt(set, &args.prompt)?;
    let models = distinct(cells.iter().map(|c| c.model.clone()));
    let model = match &args.model {
        Some(typed) => {
            let model = match typed.parse::<AnswerSource>()? {
                AnswerSource::Model(m) => m.as_str().to_string(),
                AnswerSource::AiOverview => crate::analysis::overview::AI_OVERVIEW.to_string(),
            };
            if !models.contains(&model) {
                return Err(format!(
                    "The set {} does not ask {model}; its models are: {}.",
                    set.name,
                    models.join(", ")
                ));
            }
            model
        }
        None => only_one(&models, "models", "--model", &set.name)?,
    };
    let places: Vec<(String, String)> = set_places(set);
    let labels: Vec<String> = places.iter().map(|(_, label)| label.clone()).collect();
    let written = || {
        places
            .iter()
            .map(|(spec, _)| spec.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let place = match &args.place {
        Some(typed) => {
            // As the set writes it (checked by the one place check), or as views label it.
            let label = if labels.iter().any(|l| l.eq_ignore_ascii_case(typed.trim())) {
                typed.trim().to_string()
            } else {
                location_label(&crate::geo::parse_location(typed).map_err(capital)?)
            };
            labels
                .iter()
                .find(|l| l.eq_ignore_ascii_case(&label))
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "The set {} is not asked from {typed}; its places are: {}.",
                        set.name,
                        written()
                    )
                })?
        }
        None => only_one(&labels, "places", "--place", &set.name).map_err(|_| {
            format!(
                "The set {} is asked from several places: choose one with --place ({}).",
                set.name,
                written()
            )
        })?,
    };
    let cell = Cell {
        prompt,
        model,
        place,
    };
    if cells.contains(&cell) {
        return Ok(cell);
    }
    let listed: Vec<String> = cells
        .iter()
        .filter(|c| c.prompt == cell.prompt)
        .map(Cell::vantage)
        .collect();
    Err(format!(
        "The set {} does not ask that prompt of {} from {}; it asks it of: {}.",
        set.name,
        cell.model,
        cell.place,
        listed.join("; ")
    ))
}

fn capital(sentence: String) -> String {
    let mut chars = sentence.chars();
    chars.next().map_or(sentence.clone(), |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The prompt by its number in the set or its text.
fn pick_prompt(set: &TrackSet, typed: &str) -> Result<String, String> {
    let typed = typed.trim();
    if let Ok(number) = typed.parse::<usize>() {
        return number
            .checked_sub(1)
            .and_then(|i| set.prompts.get(i))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "The set {} has {} prompts; --prompt {number} is none of them.",
                    set.name,
                    set.prompts.len()
                )
            });
    }
    set.prompts
        .iter()
        .find(|p| p.trim().eq_ignore_ascii_case(typed))
        .cloned()
        .ok_or_else(|| {
            let numbered: Vec<String> = set
                .prompts
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{}. {p}", i + 1))
                .collect();
            format!(
                "The set {} has no prompt {typed:?}; give one of its prompts or its number: {}.",
                set.name,
                numbered.join("  ")
            )
        })
}

/// The set's places, each as the set writes it and as views label it.
fn set_places(set: &TrackSet) -> Vec<(String, String)> {
    if set.locations.is_empty() {
        return vec![("anywhere".to_string(), location_label(&Default::default()))];
    }
    set.locations
        .iter()
        .map(|l| (location_spec(l), location_label(l)))
        .collect()
}

fn distinct(values: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

fn only_one(values: &[String], what: &str, flag: &str, set: &str) -> Result<String, String> {
    match values {
        [only] => Ok(only.clone()),
        _ => Err(format!(
            "The set {set} has several {what}: choose one with {flag} ({}).",
            values.join(", ")
        )),
    }
}

/// The two runs compared (older, newer), as indices into the history's runs: the ones named,
/// else the newest two answered.
fn chosen_pair(history: &CellHistory, named: &[String]) -> Result<Option<(usize, usize)>, String> {
    let (a, b) = match named {
        [] => return Ok(history.newest_pair()),
        [a, b] => (a, b),
        _ => {
            return Err(format!(
                "--runs takes two runs, A,B (it was given {}).",
                named.len()
            ));
        }
    };
    let find = |typed: &String| -> Result<usize, String> {
        let typed = typed.trim();
        let found: Vec<usize> = history
            .runs
            .iter()
            .enumerate()
            .filter(|(_, r)| !typed.is_empty() && r.run.starts_with(typed))
            .map(|(i, _)| i)
            .collect();
        match found.as_slice() {
            [one] if history.runs[*one].answer.is_some() => Ok(*one),
            [one] => Err(format!(
                "Run {typed} did not answer this cell ({}); `vantage track answers` without --runs lists the runs that did.",
                history.runs[*one].status.label()
            )),
            [] => Err(format!(
                "No run of {} starts with {typed}; `vantage track list` shows the runs.",
                history.set
            )),
            _ => Err(format!(
                "Several runs of {} start with {typed}: give more of its id.",
                history.set
            )),
        }
    };
    let (a, b) = (find(a)?, find(b)?);
    if a == b {
        return Err("--runs names the same run twice: give two runs to compare.".to_string());
    }
    // Runs are newest first: the larger index is the older run.
    Ok(Some((a.max(b), a.min(b))))
}

/// The runs newest first, then the changes between the two compared.
fn text(history: &CellHistory, changes: Option<&CellChanges>) -> String {
    let cell = &history.cell;
    let answered = history.runs.iter().filter(|r| r.answer.is_some()).count();
    let mut text = format!(
        "{} · “{}” · {} · {}\n{} of {} runs answered\n",
        history.set,
        cell.prompt,
        cell.model,
        cell.place,
        answered,
        history.runs.len()
    );
    let label = |id: &str| {
        history
            .runs
            .iter()
            .find(|r| r.run == id)
            .map_or(id.to_string(), |r| run_label(r.started_at, &r.run))
    };
    for run in &history.runs {
        text.push_str(&format!(
            "\nRUN {} · {}\n",
            run_label(run.started_at, &run.run),
            run.status.label()
        ));
        let Some(answer) = &run.answer else {
            continue;
        };
        let brands: Vec<String> = answer
            .brands
            .iter()
            .map(|b| match b.position {
                Some(p) => format!("#{p} {} ({})", b.brand, b.stance),
                None => format!("{} ({})", b.brand, b.stance),
            })
            .collect();
        text.push_str(&format!("  Brands: {}\n", none_or(&brands.join(", "))));
        text.push_str(&format!(
            "  Sources: {}\n",
            none_or(&answer.sources.join(", "))
        ));
        for line in answer.text.lines().filter(|l| !l.trim().is_empty()) {
            text.push_str(&format!("  │ {line}\n"));
        }
    }
    match changes {
        None => text.push_str(
            "\nFewer than two runs answered this cell, so there is nothing to compare yet.\n",
        ),
        Some(changes) => {
            text.push_str(&format!(
                "\nCHANGES FROM {} TO {}\n",
                label(&changes.from),
                label(&changes.to)
            ));
            for line in changes.lines() {
                text.push_str(&format!("  {line}\n"));
            }
            if let Some(words) = changes
                .words
                .as_ref()
                .filter(|w| w.added_words + w.removed_words > 0)
            {
                text.push_str("\nWORDS ([-removed-] {+added+})\n");
                for line in words.marked_text().lines().filter(|l| !l.trim().is_empty()) {
                    text.push_str(&format!("  {line}\n"));
                }
            }
        }
    }
    text
}

fn run_label(started_at: i64, id: &str) -> String {
    format!("{} ({})", run_time(started_at), id.get(..8).unwrap_or(id))
}

fn none_or(list: &str) -> &str {
    if list.is_empty() { "none" } else { list }
}
