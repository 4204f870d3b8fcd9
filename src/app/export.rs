//! Export: the popup that asks where, and what each source writes there.

use std::path::PathBuf;

use super::compare::CompareExport;
use super::input::{InputPrompt, InputTarget};
use super::{App, Effect, OsEffect, Popup};
use crate::present::answer::AnswerExport;
use crate::present::compare::CompareMode;

/// The text of an export or a copy, made where it is written or copied (off the UI task)
/// from what `update` took of the view: a large answer or comparison costs the UI nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportText {
    /// Made already (a URL, a command, a page of results as CSV: small).
    Ready(String),
    /// A body as received: pretty when it is JSON, its control characters as escapes.
    Received(String),
    /// An answer as Markdown.
    Answer(Box<AnswerExport>),
    /// A comparison in one of its forms.
    Comparison(Box<CompareExport>, CompareForm),
}

/// The forms a comparison is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareForm {
    Markdown,
    Html,
    Json,
    Csv,
}

impl ExportText {
    /// The text itself. Costs what the answer or comparison is long: not on the UI task.
    pub fn make(&self) -> String {
        match self {
            ExportText::Ready(text) => text.clone(),
            ExportText::Received(body) => crate::shareable::json::received(body),
            ExportText::Answer(answer) => answer.markdown(),
            ExportText::Comparison(compare, form) => match form {
                CompareForm::Markdown => compare.markdown(),
                CompareForm::Html => compare.html(),
                CompareForm::Json => compare.json(),
                CompareForm::Csv => compare.csv(),
            },
        }
    }
}

impl From<String> for ExportText {
    fn from(text: String) -> ExportText {
        ExportText::Ready(text)
    }
}

/// Why an export was not written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteFailure {
    /// A file of that name is there; it is replaced only once the user says so.
    Exists,
    /// The missing folder could not be made.
    Folder { folder: PathBuf, reason: String },
    /// The file could not be written.
    Write(String),
}

/// The export last asked for, so that a file in the way can be confirmed and replaced.
#[derive(Clone, Debug, Default)]
pub struct ExportState {
    /// What was exported and the name typed, to ask again with.
    asked: Option<(ExportSource, String)>,
    /// The path the user agreed to replace.
    replace: Option<PathBuf>,
}

/// What an export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportSource {
    ChatAnswer,
    SearchResults,
    /// The Compare tab: answers and summary, or the search rank table.
    Comparison,
    /// The Track tab: the shown set's report as one HTML page.
    TrackReport,
}

/// The input popup that asks where to export.
pub fn export_prompt(source: ExportSource, suggested: String) -> InputPrompt {
    let note = match source {
        ExportSource::ChatAnswer => {
            ".json writes the body as received; any other name the answer as Markdown."
        }
        ExportSource::SearchResults => {
            ".json writes the body as received; any other name the results as CSV."
        }
        ExportSource::Comparison => {
            ".json writes the comparison as JSON; .csv the search rank table or the mention matrix; .html a page to share; any other name Markdown."
        }
        ExportSource::TrackReport => {
            "The set's report as one HTML page (charts, map, changes, the answers quoted), as `vantage track report --format html` writes it."
        }
    };
    InputPrompt::new(InputTarget::Export(source), "Export to file", suggested).with_note(note)
}

/// Writes what the export prompt names: `.json` gets the body as received, anything else the
/// readable form (Markdown for an answer, CSV for results; the extension is added when the
/// name has none).
pub(super) fn export_to(app: &mut App, source: ExportSource, input: InputPrompt) -> Vec<Effect> {
    let typed = input.value.trim();
    if typed.is_empty() {
        app.flash_error("Type a file name to export to.");
        app.popup = Some(Popup::Input(input));
        return Vec::new();
    }
    let mut path = PathBuf::from(typed);
    if path.extension().is_none() {
        path.set_extension(match source {
            ExportSource::ChatAnswer => "md",
            ExportSource::SearchResults => "csv",
            ExportSource::Comparison => match app.compare.mode {
                CompareMode::Answers => "md",
                CompareMode::Search => "csv",
            },
            ExportSource::TrackReport => "html",
        });
    }
    let overwrite_now = app.export.replace.as_ref().is_some_and(|p| *p == path);
    if source == ExportSource::TrackReport {
        // Read from the store: written off the UI task.
        let Some(set) = app.track.view.as_ref().and_then(|v| v.set.clone()) else {
            app.flash_error("No set is shown: Enter on a run shows its set.");
            return Vec::new();
        };
        let workspace = app.brands_pane.workspace.as_ref();
        let definition = workspace.and_then(|w| w.set(&set)).cloned();
        // Read as every view of the set reads its answers.
        let brands = workspace.map(|w| w.read_for(&set)).unwrap_or_default();
        app.export.replace = None;
        app.export.asked = Some((source, typed.to_string()));
        return vec![Effect::Store(super::StoreEffect::WriteReport {
            set,
            definition: definition.map(Box::new),
            brands,
            path,
            overwrite: overwrite_now,
        })];
    }
    let as_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    // What the file is made of: made where it is written.
    let contents = match source {
        ExportSource::ChatAnswer => app.chat.answer.as_ref().map(|answer| {
            if as_json {
                ExportText::Received(answer.prepared.body.clone())
            } else {
                ExportText::Answer(Box::new(answer.prepared.to_export()))
            }
        }),
        ExportSource::SearchResults => app.search.page.as_ref().map(|page| {
            if as_json {
                ExportText::Received(page.prepared.body.clone())
            } else {
                ExportText::Ready(page.prepared.export_csv())
            }
        }),
        ExportSource::TrackReport => None,
        ExportSource::Comparison => {
            let compare = &app.compare;
            let as_csv = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
            let as_html = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
            let form = if as_json {
                CompareForm::Json
            } else if as_html {
                CompareForm::Html
            } else if as_csv && (compare.mode == CompareMode::Search || compare.has_mentions()) {
                CompareForm::Csv
            } else {
                CompareForm::Markdown
            };
            Some(ExportText::Comparison(Box::new(compare.to_export()), form))
        }
    };
    // Replacing is allowed once, for the path the user confirmed after being told it exists.
    let overwrite = app.export.replace.take().is_some_and(|p| p == path);
    app.export.asked = Some((source, typed.to_string()));
    match contents {
        Some(contents) => vec![Effect::Os(OsEffect::WriteFile {
            path,
            contents,
            overwrite,
        })],
        None => {
            app.flash_error("There is nothing to export yet.");
            Vec::new()
        }
    }
}

/// Says how an export went; a file in the way opens the prompt again to confirm or rename.
pub(super) fn on_written(app: &mut App, path: PathBuf, result: Result<(), WriteFailure>) {
    match result {
        Ok(()) => app.flash_info(format!("Exported to {}", path.display())),
        Err(WriteFailure::Exists) => match app.export.asked.take() {
            Some((source, typed)) => {
                let name = path.display();
                let prompt = export_prompt(source, typed).with_note(format!(
                    "{name} exists. Enter replaces it; edit the name to keep it."
                ));
                app.export.replace = Some(path);
                app.popup = Some(Popup::Input(prompt));
            }
            None => app.flash_error(format!(
                "{} exists and was left as it is. Press e to export under another name.",
                path.display()
            )),
        },
        Err(WriteFailure::Folder { folder, reason }) => app.flash_error(format!(
            "Could not create the folder {}: {reason}. Press e to choose another path.",
            folder.display()
        )),
        Err(WriteFailure::Write(reason)) => app.flash_error(format!(
            "Could not write {}: {reason}. Press e to choose another path.",
            path.display()
        )),
    }
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
