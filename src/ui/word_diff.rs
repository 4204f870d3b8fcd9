//! A word diff drawn as lines: removed words struck through between `[-` `-]`, added ones
//! underlined between `{+` `+}` (so they read without colour), the texts' own line breaks
//! kept. Compare's Diff and Track's cell answers draw it the same way.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::analysis::diff::{Change, WordDiff};

use super::theme;

/// The style and marks of a removed run of words.
pub(crate) fn removed() -> Style {
    theme::error().add_modifier(Modifier::CROSSED_OUT)
}

/// The style and marks of an added run of words.
pub(crate) fn added() -> Style {
    theme::ok().add_modifier(Modifier::UNDERLINED)
}

/// The diff's pieces as lines, to wrap.
pub(crate) fn lines(diff: &WordDiff) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    for piece in &diff.pieces {
        let (style, open, close) = match piece.change {
            Change::Same => (Style::default(), "", ""),
            _ if piece.is_blank() => (Style::default(), "", ""),
            Change::Removed => (removed(), "[-", "-]"),
            Change::Added => (added(), "{+", "+}"),
        };
        let mut parts = piece.text.split('\n').peekable();
        while let Some(part) = parts.next() {
            if !part.is_empty() {
                current.push(Span::styled(format!("{open}{part}{close}"), style));
            }
            if parts.peek().is_some() {
                lines.push(Line::from(std::mem::take(&mut current)));
            }
        }
    }
    lines.push(Line::from(current));
    lines
}
