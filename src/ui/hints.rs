//! Key hints in the intros of empty panes, each key as the keymap in effect writes it: a key
//! `keys.toml` moved is shown where it now is, and one it unbound is not offered.

use ratatui::text::{Line, Span};

use crate::app::App;
use crate::app::keymap::{Action, Context};

use super::theme;

/// An action, where it is bound, and what the hint calls it.
pub(super) type Hint = (Context, Action, &'static str);

/// "k what  k what" with the keys highlighted.
pub(super) fn line(app: &App, hints: &[Hint]) -> Line<'static> {
    let mut spans = Vec::with_capacity(hints.len() * 2);
    for (context, action, what) in hints {
        let key = app.key_of(*context, *action);
        if key.is_empty() {
            continue;
        }
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(key, theme::key_hint()));
        spans.push(Span::raw(format!(" {what}")));
    }
    Line::from(spans)
}

/// A popup's own keys ("↑↓ choose  Enter run  Esc close"), the keys highlighted and the words
/// dim, cut to `width`.
pub(super) fn popup_line(keys: &[(&str, &str)], width: u16) -> Line<'static> {
    let mut spans = Vec::with_capacity(keys.len() * 2);
    for (i, (key, what)) in keys.iter().enumerate() {
        let gap = if i + 1 < keys.len() { "  " } else { "" };
        spans.push(Span::styled(key.to_string(), theme::key_hint()));
        spans.push(Span::styled(format!(" {what}{gap}"), theme::dim()));
    }
    super::fit::fit_line(Line::from(spans), width)
}
