//! `/` inside a text view: the typed text, its occurrences, and which one is current.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::keymap::Action;
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

/// The search's keys over one text body (the Jobs reader): `/` opens it, Enter keeps it, Esc
/// drops it, `n` / `N` move and scroll. True when the action was the search's.
pub fn on_action(find: &mut Option<TextSearch>, scroll: &mut usize, action: Action) -> bool {
    let typing = find.as_ref().is_some_and(|f| f.typing);
    match action {
        Action::Filter => *find = Some(TextSearch::start()),
        Action::Send if typing => {
            if let Some(search) = find {
                search.typing = false;
                if search.query.is_empty() {
                    *find = None;
                }
            }
        }
        // Esc drops the search before it leaves the view.
        Action::Back | Action::Cancel if find.is_some() => *find = None,
        Action::NextMatch | Action::PrevMatch => {
            let Some(search) = find else {
                return false;
            };
            search.step(action == Action::NextMatch);
            if let Some(line) = search.scroll_target() {
                *scroll = line;
            }
        }
        _ => return false,
    }
    true
}

/// A key typed into the search over one text body; true when the search took it.
pub fn on_key(
    find: &mut Option<TextSearch>,
    body: &TextBody,
    scroll: &mut usize,
    key: KeyEvent,
) -> bool {
    let Some(search) = find.as_mut().filter(|f| f.typing) else {
        return false;
    };
    if search.edit(key) {
        search.refresh(body, *scroll);
        if let Some(line) = search.scroll_target() {
            *scroll = line;
        }
    }
    true
}

/// A term as marks compare it: lower case, diacritics dropped, one char for one char.
pub(crate) fn fold_term(term: &str) -> String {
    term.trim().chars().map(fold_char).collect()
}

/// One char without case or diacritics (`Ö` → `o`), so positions stay char for char.
pub(crate) fn fold_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let mut base = c;
    unicode_normalization::char::decompose_canonical(c, |part| {
        if base == c && !unicode_normalization::char::is_combining_mark(part) {
            base = part;
        }
    });
    base.to_lowercase().next().unwrap_or(base)
}

/// The char ranges of `text` where any of `marks` (folded) stands as a whole word.
pub fn mark_ranges(text: &str, marks: &[String]) -> Vec<(usize, usize)> {
    if marks.is_empty() {
        return Vec::new();
    }
    let hay: Vec<char> = text.chars().map(fold_char).collect();
    let word = |at: usize| hay.get(at).is_some_and(|c| c.is_alphanumeric());
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for mark in marks {
        let needle: Vec<char> = mark.chars().collect();
        if needle.is_empty() || needle.len() > hay.len() {
            continue;
        }
        for start in 0..=hay.len() - needle.len() {
            let end = start + needle.len();
            if hay[start..end] == needle[..]
                && !(start > 0 && word(start - 1) && word(start))
                && !(word(end) && word(end - 1))
            {
                ranges.push((start, end));
            }
        }
    }
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use crate::app::jobs_tab::Reader;
    use crate::app::{App, Connection, Msg, Tab, update};
    use crate::present::text::TextBody;

    fn key(app: &mut App, code: KeyCode) {
        update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    #[test]
    fn the_jobs_reader_searches_its_text_and_esc_drops_the_search_before_the_reader() {
        let mut app = App::new(
            Connection {
                demo: true,
                host: "127.0.0.1:4000".into(),
                token: Some("demo".into()),
                token_hint: "the config file".into(),
            },
            Instant::now(),
        );
        app.tab = Tab::Jobs;
        let text: String = (0..60)
            .map(|i| {
                if i % 20 == 7 {
                    "a needle here\n"
                } else {
                    "hay\n"
                }
            })
            .collect();
        app.jobs.reader = Some(Reader {
            title: "page".into(),
            body: TextBody::raw(&text),
            scroll: 0,
            find: None,
        });
        key(&mut app, KeyCode::Char('/'));
        assert!(app.editing());
        for c in "NEEDLE".chars() {
            key(&mut app, KeyCode::Char(c));
        }
        key(&mut app, KeyCode::Enter);
        let reader = app.jobs.reader.as_ref().unwrap();
        let find = reader.find.as_ref().unwrap();
        assert_eq!(find.status(), "1 of 3");
        assert_eq!(reader.scroll, 4, "three lines of context above line 7");
        key(&mut app, KeyCode::Char('n'));
        let reader = app.jobs.reader.as_ref().unwrap();
        assert_eq!(reader.find.as_ref().unwrap().status(), "2 of 3");
        assert_eq!(reader.scroll, 24);
        key(&mut app, KeyCode::Esc);
        assert!(app.jobs.reader.as_ref().unwrap().find.is_none());
        key(&mut app, KeyCode::Esc);
        assert!(app.jobs.reader.is_none());
    }
}
