//! A one-line text field in a popup, for a value typed rather than picked: a file name, a
//! number of pages, a proxy username, a key, a URL, a session name.

use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::ExportSource;
use super::search::SearchSetting;
use crate::api::proxy::ProxyField;

/// Which value a text field sets when accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputTarget {
    /// A file name to export to.
    Export(ExportSource),
    /// A search setting typed by hand (numbers, uule).
    Search(SearchSetting),
    Proxy(ProxyField),
    /// A job to import: its kind and id.
    ImportJob,
}

#[derive(Clone)]
pub struct InputPrompt {
    pub target: InputTarget,
    pub title: String,
    pub value: String,
    /// A secret: shown as dots, never in `Debug`.
    pub masked: bool,
    /// A dim line under the field: what the value is for, its limits.
    pub note: String,
}

impl fmt::Debug for InputPrompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InputPrompt")
            .field("target", &self.target)
            .field("title", &self.title)
            .field("value", &self.shown())
            .finish()
    }
}

impl InputPrompt {
    pub fn new(target: InputTarget, title: impl Into<String>, value: impl Into<String>) -> Self {
        InputPrompt {
            target,
            title: title.into(),
            value: value.into(),
            masked: false,
            note: String::new(),
        }
    }

    pub fn masked(mut self) -> Self {
        self.masked = true;
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = note.into();
        self
    }

    /// What the field shows: the text, or one dot per character of a secret.
    pub fn shown(&self) -> String {
        if self.masked {
            "•".repeat(self.value.chars().count())
        } else {
            self.value.clone()
        }
    }
}

/// Applies a key to a one-line text: Backspace deletes, printable characters are added.
pub(crate) fn edit_line(text: &mut String, key: KeyEvent) {
    match key.code {
        KeyCode::Backspace => {
            text.pop();
        }
        KeyCode::Char(c)
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            text.push(c)
        }
        _ => {}
    }
}
