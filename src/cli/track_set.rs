//! `vantage track set new|add|remove|delete`: a set of the workspace file made and edited
//! from the shell, as the file would be by hand — comments and order kept, every change
//! checked by the same reading as a file written by hand, then written atomically.

use clap_complete::engine::ArgValueCandidates;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::{err, out, with_newline};
use crate::analysis::mentions::Brand;
use crate::analysis::samples::check_samples;
use crate::analysis::workspace::{self, SetItemsRef, SetList, TrackSet, Workspace, first_refused};
use crate::api::Location;
use crate::exit;
use crate::present::compare::overview::AnswerSource;

#[derive(Debug, Subcommand)]
pub enum SetCommand {
    /// Make a set: its prompts and terms, and the vantage points to ask them from
    New {
        name: String,
        #[command(flatten)]
        items: SetItems,
    },
    /// Add prompts, terms, models, devices, locations or brands to a set (or set its samples)
    Add {
        name: String,
        #[command(flatten)]
        items: SetItems,
    },
    /// Remove prompts, terms, models, devices, locations or brands from a set
    Remove {
        name: String,
        #[command(flatten)]
        items: SetItems,
    },
    /// Delete a set from the workspace file (its stored runs stay)
    Delete { name: String },
}

#[derive(Debug, Args, Default)]
pub struct SetItems {
    /// A prompt to ask (repeat for more)
    #[arg(long = "prompt", value_name = "TEXT")]
    pub prompts: Vec<String>,
    /// Search terms to rank (repeat for more)
    #[arg(long = "term", value_name = "TEXT")]
    pub terms: Vec<String>,
    /// Models, comma-separated: chatgpt,gemini,perplexity,copilot,ai-overview
    #[arg(long, value_name = "M,…", value_delimiter = ',', add = ArgValueCandidates::new(super::shell::source_candidates))]
    pub models: Vec<AnswerSource>,
    /// Device names, comma-separated (see `vantage devices`)
    #[arg(long, value_name = "D,…", value_delimiter = ',')]
    pub devices: Vec<String>,
    /// Locations, comma-separated, each cc:subdivision:city with + for spaces (de::Berlin)
    #[arg(long, value_name = "L,…", value_delimiter = ',')]
    pub locations: Vec<String>,
    /// Brands to watch (names of [[brands]]), comma-separated
    #[arg(long, value_name = "B,…", value_delimiter = ',')]
    pub brands: Vec<String>,
    /// How many times a run asks each prompt from each vantage point (1 to 20)
    #[arg(long, value_name = "N")]
    pub samples: Option<usize>,
}

/// The workspace file the sets live in: `--workspace`, else `vantage.toml` here (made by
/// the first set when there is none).
fn workspace_path(explicit: Option<&Path>) -> Result<PathBuf, workspace::WorkspaceError> {
    let folder = std::env::current_dir().unwrap_or_default();
    Ok(workspace::locate(explicit, &folder)?
        .unwrap_or_else(|| folder.join(workspace::WORKSPACE_FILE)))
}

/// The places of `--locations`, a refused one named by its place in the flag.
fn locations(specs: &[String]) -> Result<Vec<Location>, String> {
    let specs: Vec<&String> = specs.iter().filter(|s| !s.trim().is_empty()).collect();
    specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            crate::geo::parse_location(spec).map_err(|problem| {
                let flag = SetList::Locations.flag();
                match specs.len() {
                    1 => format!("{flag}: {problem}"),
                    _ => format!("{flag} {}: {problem}", i + 1),
                }
            })
        })
        .collect()
}

/// What `new` and `add` put in a set, checked before anything is written as a run would
/// check it (`workspace::first_refused`, as the app's set form does), naming the flag.
fn check_added(items: &SetItems, tracked: &[Brand]) -> Result<(), String> {
    let locations = locations(&items.locations)?;
    let refused = first_refused(
        SetItemsRef {
            prompts: &items.prompts,
            terms: &items.terms,
            devices: &items.devices,
            locations: &locations,
            brands: &items.brands,
        },
        tracked,
    );
    if let Some(refusal) = refused {
        return Err(refusal.for_flags());
    }
    if let Some(samples) = items.samples {
        check_samples(samples).map_err(|problem| format!("--samples: {problem}"))?;
    }
    Ok(())
}

/// Adds what is not there yet (ignoring case for text), in order.
fn extend_new<T: Clone + PartialEq>(list: &mut Vec<T>, items: &[T], same: impl Fn(&T, &T) -> bool) {
    for item in items {
        if !list.iter().any(|x| same(x, item)) {
            list.push(item.clone());
        }
    }
}

fn same_text(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// The set with `items` added (`add`) or taken out.
fn apply(mut set: TrackSet, items: &SetItems, add: bool) -> Result<TrackSet, String> {
    let locations = locations(&items.locations)?;
    let models: Vec<_> = items
        .models
        .iter()
        .filter_map(|m| match m {
            AnswerSource::Model(model) => Some(*model),
            AnswerSource::AiOverview => None,
        })
        .collect();
    let overview = items.models.contains(&AnswerSource::AiOverview);
    if add {
        let text = |a: &String, b: &String| same_text(a, b);
        extend_new(&mut set.prompts, &items.prompts, text);
        extend_new(&mut set.terms, &items.terms, text);
        extend_new(&mut set.models, &models, |a, b| a == b);
        extend_new(&mut set.devices, &items.devices, text);
        extend_new(&mut set.locations, &locations, |a, b| a == b);
        extend_new(&mut set.brands, &items.brands, text);
        set.overview |= overview;
    } else {
        let gone = |list: &[String], item: &String| list.iter().any(|x| same_text(x, item));
        set.prompts.retain(|p| !gone(&items.prompts, p));
        set.terms.retain(|t| !gone(&items.terms, t));
        set.models.retain(|m| !models.contains(m));
        set.devices.retain(|d| !gone(&items.devices, d));
        set.locations.retain(|l| !locations.contains(l));
        set.brands.retain(|b| !gone(&items.brands, b));
        set.overview &= !overview;
    }
    if let Some(samples) = items.samples {
        set.samples = samples;
    }
    Ok(set)
}

pub(super) fn run_set_command(explicit: Option<&Path>, mut command: SetCommand) -> i32 {
    let path = match workspace_path(explicit) {
        Ok(path) => path,
        Err(error) => {
            err(&error.to_string());
            return exit::INVALID_INPUT;
        }
    };
    let mut workspace = match Workspace::load(&path) {
        Ok(workspace) => workspace,
        Err(error) => {
            err(&error.to_string());
            return exit::INVALID_INPUT;
        }
    };
    let read = workspace.as_read().map(str::to_string);
    if let SetCommand::New { items, .. } | SetCommand::Add { items, .. } = &mut command {
        if let Err(problem) = check_added(items, workspace.brands()) {
            return refuse(&problem);
        }
        // A watched brand is written as the file spells it, whatever case was typed.
        for typed in &mut items.brands {
            if let Some(brand) = workspace
                .brands()
                .iter()
                .find(|b| b.name.eq_ignore_ascii_case(typed))
            {
                typed.clone_from(&brand.name);
            }
        }
    }
    let (name, done) = match command {
        SetCommand::New { name, items } => {
            let name = name.trim().to_string();
            let set = match apply(
                TrackSet {
                    name: name.clone(),
                    ..TrackSet::default()
                },
                &items,
                true,
            ) {
                Ok(set) => set,
                Err(problem) => return refuse(&problem),
            };
            if let Err(error) = workspace.add_set(set) {
                return refuse(&error.to_string());
            }
            (name, "Made")
        }
        SetCommand::Add { name, items } => match edit(&mut workspace, &name, &items, true) {
            Ok(name) => (name, "Added to"),
            Err(problem) => return refuse(&problem),
        },
        SetCommand::Remove { name, items } => match edit(&mut workspace, &name, &items, false) {
            Ok(name) => (name, "Removed from"),
            Err(problem) => return refuse(&problem),
        },
        SetCommand::Delete { name } => {
            let Some(set) = workspace.set(&name).map(|s| s.name.clone()) else {
                return refuse(&no_set(&workspace, &name));
            };
            workspace.remove_set(&set);
            (set, "Deleted")
        }
    };
    // The same reading as a file written by hand: a set that cannot run is not written.
    // Its lines are those of the file as it would be, so the sentence names none.
    let checked = match Workspace::parse(&path, &workspace.to_text()) {
        Ok(checked) => checked,
        Err(error) => {
            return refuse(&format!(
                "the set {} would not run: {}.",
                crate::sanitize::excerpt(&name, crate::sanitize::QUOTED_CHARS),
                error.problem().trim_end_matches('.')
            ));
        }
    };
    if let Err(error) = checked.save_over(read.as_deref()) {
        err(&error.to_string());
        return exit::FAILURE;
    }
    let cost = checked
        .set(&name)
        .map(|s| {
            format!(
                ": {} a run",
                crate::plural::count(s.combinations() as u64, "call", "calls")
            )
        })
        .unwrap_or_default();
    out(&with_newline(format!(
        "{done} the set {name} in {}{cost}.",
        path.display()
    )));
    exit::OK
}

/// Adds `items` to the set (or takes them out): its name as the file spells it.
fn edit(
    workspace: &mut Workspace,
    name: &str,
    items: &SetItems,
    add: bool,
) -> Result<String, String> {
    let Some(set) = workspace.set(name).cloned() else {
        return Err(no_set(workspace, name));
    };
    let original = set.name.clone();
    let changed = apply(set, items, add)?;
    workspace
        .replace_set(&original, changed)
        .map_err(|e| e.to_string())?;
    Ok(original)
}

fn no_set(workspace: &Workspace, name: &str) -> String {
    let names: Vec<&str> = workspace.sets().iter().map(|s| s.name.as_str()).collect();
    if names.is_empty() {
        format!(
            "there is no set {name} in {}; `vantage track set new {name} --prompt …` makes one.",
            workspace.path().display()
        )
    } else {
        format!(
            "there is no set {name} in {}; its sets are {}.",
            workspace.path().display(),
            names.join(", ")
        )
    }
}

/// Nothing written: exit 2 with the sentence.
fn refuse(sentence: &str) -> i32 {
    err(&format!("Nothing was written: {sentence}"));
    exit::INVALID_INPUT
}
