//! `/` inside a text view: the typed text, its occurrences, and which one is current.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::present::text::{Found, TextBody};

/// Lines kept above the current match when scrolling to it, so it reads in context.
const CONTEXT_ABOVE: usize = 3;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextSearch {
    pub query: String,
    /// Keys type into the query until Enter (keep) or Esc (drop).
    pub typing: bool,
    pub found: Vec<Found>,
    /// Index into `found`.
    pub current: usize,
}

impl TextSearch {
    pub fn start() -> TextSearch {
        TextSearch {
            typing: true,
            ..TextSearch::default()
        }
    }

    /// Edits the query with a key; true when it changed.
    pub fn edit(&mut self, key: KeyEvent) -> bool {
        match key.code {
            KeyCode::Backspace => self.query.pop().is_some(),
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                let changed = !self.query.is_empty();
                self.query.clear();
                changed
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.query.push(c);
                true
            }
            _ => false,
        }
    }

    /// Finds the query in `body` again; the current match becomes the first at or after
    /// `from_line` (the top of the view), so the view moves as little as it can.
    pub fn refresh(&mut self, body: &TextBody, from_line: usize) {
        self.found = if self.query.is_empty() {
            Vec::new()
        } else {
            body.find(&self.query)
        };
        self.current = self
            .found
            .iter()
            .position(|f| f.line >= from_line)
            .unwrap_or(0);
    }

    /// Moves to the next (or previous) match, round the end.
    pub fn step(&mut self, forward: bool) {
        let n = self.found.len();
        if n > 0 {
            self.current = if forward {
                (self.current + 1) % n
            } else {
                (self.current + n - 1) % n
            };
        }
    }

    pub fn current_match(&self) -> Option<Found> {
        self.found.get(self.current).copied()
    }

    /// Where to scroll so the current match shows near the top with a little context above
    /// it, as `less` does.
    pub fn scroll_target(&self) -> Option<usize> {
        Some(self.current_match()?.line.saturating_sub(CONTEXT_ABOVE))
    }

    /// "3 of 12", "no match", or what to do while the query is empty.
    pub fn status(&self) -> String {
        if self.query.is_empty() {
            "type to search; Enter keeps it, Esc drops it".to_string()
        } else if self.found.is_empty() {
            "no match".to_string()
        } else {
            format!("{} of {}", self.current + 1, self.found.len())
        }
    }
}
