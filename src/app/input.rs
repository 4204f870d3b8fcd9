//! A one-line text field in a popup, for a value typed rather than picked: a file name, a
//! number of pages, a proxy username, a key, a URL, a session name.

use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{TextArea, WrapMode};

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
    /// The topic to discover prompts around (Track).
    DiscoverTopic,
    /// The set the marked prompts go to (Track's Discover).
    AddToSet,
    /// A text field of Track's set editor.
    SetField(super::sets::SetField),
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
    pub edit: EditState,
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
            edit: EditState::default(),
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

/// Where the cursor of a one-line field is and what undo goes back to. The text itself lives
/// with its owner (a filter, a popup's value), so code that sets it needs nothing else.
#[derive(Clone, Debug, Default)]
pub struct EditState {
    /// In chars; `None` is the end of the text, where typing usually happens.
    pub cursor: Option<usize>,
    undo: Vec<String>,
    /// Typing a run of characters is one step of undo, not one per character.
    typing: bool,
}

impl EditState {
    /// The cursor as a char index into `text`.
    pub fn cursor_in(&self, text: &str) -> usize {
        let len = text.chars().count();
        self.cursor.unwrap_or(len).min(len)
    }

    fn remember(&mut self, text: &str, typing: bool) {
        if !(typing && self.typing) {
            self.undo.push(text.to_string());
        }
        self.typing = typing;
    }

    fn place(&mut self, at: usize, text: &str) {
        self.cursor = (at < text.chars().count()).then_some(at);
    }
}

fn byte_at(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(b, _)| b)
}

/// The one way every one-line field takes keys (filters, pickers, popups): characters are
/// typed at the cursor; ← → move; Ctrl+A and Ctrl+E go to the start and end; Backspace and
/// Del delete a character, Ctrl+W the word before the cursor, Ctrl+U everything before it,
/// Ctrl+K everything after it; Ctrl+Z undoes. True when the text changed.
pub(crate) fn edit_line(text: &mut String, state: &mut EditState, key: KeyEvent) -> bool {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    let at = state.cursor_in(text);
    match key.code {
        KeyCode::Char('a') if ctrl => state.cursor = Some(0),
        KeyCode::Char('e') if ctrl => state.cursor = None,
        KeyCode::Left => state.place(at.saturating_sub(1), text),
        KeyCode::Right => state.place(at + 1, text),
        KeyCode::Char('z') if ctrl => {
            let Some(before) = state.undo.pop() else {
                return false;
            };
            *text = before;
            state.cursor = None;
            state.typing = false;
            return true;
        }
        KeyCode::Char('u') if ctrl && at > 0 => {
            state.remember(text, false);
            text.replace_range(..byte_at(text, at), "");
            state.place(0, text);
            return true;
        }
        KeyCode::Char('k') if ctrl && at < text.chars().count() => {
            state.remember(text, false);
            text.truncate(byte_at(text, at));
            state.cursor = None;
            return true;
        }
        KeyCode::Char('w') if ctrl => return delete_word_before(text, state, at),
        KeyCode::Backspace if alt => return delete_word_before(text, state, at),
        KeyCode::Backspace if at > 0 => {
            state.remember(text, false);
            text.replace_range(byte_at(text, at - 1)..byte_at(text, at), "");
            state.place(at - 1, text);
            return true;
        }
        KeyCode::Delete if at < text.chars().count() => {
            state.remember(text, false);
            text.replace_range(byte_at(text, at)..byte_at(text, at + 1), "");
            state.place(at, text);
            return true;
        }
        KeyCode::Char(c) if !ctrl && !alt => {
            state.remember(text, true);
            text.insert(byte_at(text, at), c);
            state.place(at + 1, text);
            return true;
        }
        _ => {}
    }
    state.typing = false;
    false
}

fn delete_word_before(text: &mut String, state: &mut EditState, at: usize) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let mut start = at;
    while start > 0 && chars[start - 1].is_whitespace() {
        start -= 1;
    }
    while start > 0 && !chars[start - 1].is_whitespace() {
        start -= 1;
    }
    if start == at {
        return false;
    }
    state.remember(text, false);
    text.replace_range(byte_at(text, start)..byte_at(text, at), "");
    state.place(start, text);
    true
}

/// The same keys in the multi-line prompt editors, on top of the editor's own: there Ctrl+U
/// was undo; here it deletes to the start of the line like everywhere else.
pub(crate) fn edit_text_area(editor: &mut ratatui_textarea::TextArea<'_>, key: KeyEvent) {
    use ratatui_textarea::CursorMove;
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('a') if ctrl => editor.move_cursor(CursorMove::Head),
        KeyCode::Char('e') if ctrl => editor.move_cursor(CursorMove::End),
        KeyCode::Char('u') if ctrl => {
            editor.delete_line_by_head();
        }
        KeyCode::Char('k') if ctrl => {
            editor.delete_line_by_end();
        }
        KeyCode::Char('w') if ctrl => {
            editor.delete_word();
        }
        KeyCode::Char('z') if ctrl => {
            editor.undo();
        }
        _ => {
            editor.input(key);
        }
    }
}

/// A prompt editor as Chat and Compare use it: word-wrapped, with a placeholder.
pub(crate) fn prompt_editor(placeholder: &str) -> TextArea<'static> {
    let mut prompt = TextArea::default();
    prompt.set_wrap_mode(WrapMode::WordOrGlyph);
    prompt.set_placeholder_text(placeholder);
    prompt
}

/// Characters in an editor, lines joined by one newline each (the service counts them too).
pub(crate) fn editor_chars(editor: &TextArea<'_>) -> usize {
    let lines = editor.lines();
    lines.iter().map(|l| l.chars().count()).sum::<usize>() + lines.len().saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, keys: &[KeyEvent]) -> (String, usize) {
        let mut text = text.to_string();
        let mut state = EditState::default();
        for key in keys {
            edit_line(&mut text, &mut state, *key);
        }
        let at = state.cursor_in(&text);
        (text, at)
    }

    fn ctrl(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn the_readline_keys_work_at_the_cursor() {
        assert_eq!(run("san francisco", &[ctrl('w')]), ("san ".into(), 4));
        assert_eq!(run("san francisco", &[ctrl('u')]), ("".into(), 0));
        assert_eq!(
            run(
                "san francisco",
                &[ctrl('a'), key(KeyCode::Right), ctrl('k')]
            ),
            ("s".into(), 1)
        );
        assert_eq!(
            run(
                "an",
                &[
                    ctrl('a'),
                    key(KeyCode::Char('s')),
                    ctrl('e'),
                    key(KeyCode::Char('!'))
                ]
            ),
            ("san!".into(), 4)
        );
        assert_eq!(
            run("münchen", &[key(KeyCode::Left), key(KeyCode::Backspace)]),
            ("münchn".into(), 5)
        );
    }

    #[test]
    fn undo_takes_back_a_run_of_typing_or_a_deletion() {
        let keys = [
            key(KeyCode::Char('x')),
            key(KeyCode::Char('y')),
            ctrl('u'),
            ctrl('z'),
        ];
        assert_eq!(run("ab", &keys), ("abxy".into(), 4));
        let mut keys = keys.to_vec();
        keys.push(ctrl('z'));
        assert_eq!(run("ab", &keys), ("ab".into(), 2));
    }
}
