//! Export: the popup that asks where, and what each source writes there.

use std::path::PathBuf;

use super::input::{InputPrompt, InputTarget};
use super::{App, Effect, OsEffect, Popup};
use crate::present::compare::CompareMode;

/// What an export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportSource {
    ChatAnswer,
    SearchResults,
    /// The Compare tab: answers and summary, or the search rank table.
    Comparison,
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
            ".json writes the comparison as JSON; .csv the search rank table; any other name Markdown."
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
        });
    }
    let as_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let contents = match source {
        ExportSource::ChatAnswer => app.chat.answer.as_ref().map(|answer| {
            if as_json {
                answer.prepared.export_json()
            } else {
                answer.prepared.export_markdown()
            }
        }),
        ExportSource::SearchResults => app.search.page.as_ref().map(|page| {
            if as_json {
                page.prepared.export_json()
            } else {
                page.prepared.export_csv()
            }
        }),
        ExportSource::Comparison => {
            let compare = &app.compare;
            let as_csv = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
            Some(if as_json {
                compare.export_json()
            } else if as_csv && compare.mode == CompareMode::Search {
                compare.export_csv()
            } else {
                compare.export_markdown()
            })
        }
    };
    match contents {
        Some(contents) => vec![Effect::Os(OsEffect::WriteFile { path, contents })],
        None => {
            app.flash_error("There is nothing to export yet.");
            Vec::new()
        }
    }
}
