//! The app's colours and text styles, in one place.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

/// Whether the terminal writer drops colours (`NO_COLOR`), as crossterm decides it.
pub(crate) fn terminal_without_colour() -> bool {
    crossterm::style::Colored::ansi_color_disabled_memoized()
}

/// Sets every cell's colours to the terminal's own, keeping bold, reverse and underline.
/// Without colour, crossterm still writes a colour change, as a bare `ESC[m` that resets every
/// attribute: the reverse video of a selection drawn before it would be lost.
pub(crate) fn drop_colours(buffer: &mut Buffer) {
    for cell in &mut buffer.content {
        cell.fg = Color::Reset;
        cell.bg = Color::Reset;
    }
}

pub(crate) fn title() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

pub(crate) fn dim() -> Style {
    Style::default().fg(Color::DarkGray)
}

pub(crate) fn muted() -> Style {
    Style::default().fg(Color::Gray)
}

pub(crate) fn accent() -> Style {
    Style::default().fg(Color::Cyan)
}

/// White on blue, written as blue on white reversed: a terminal without colour (`NO_COLOR`)
/// drops the colours but keeps the reverse video, so the selection still shows.
pub(crate) fn selected() -> Style {
    Style::default()
        .fg(Color::Blue)
        .bg(Color::White)
        .add_modifier(Modifier::REVERSED | Modifier::BOLD)
}

/// Marks the selected row of a list, so it shows even where styles do not.
pub(crate) const SELECTED_MARK: &str = "› ";

pub(crate) fn focused_border() -> Style {
    Style::default().fg(Color::Cyan)
}

pub(crate) fn border() -> Style {
    Style::default().fg(Color::DarkGray)
}

pub(crate) fn error() -> Style {
    Style::default().fg(Color::Red)
}

pub(crate) fn warning_banner() -> Style {
    Style::default()
        .bg(Color::Yellow)
        .fg(Color::Black)
        .add_modifier(Modifier::BOLD)
}

pub(crate) fn ok() -> Style {
    Style::default().fg(Color::Green)
}

pub(crate) fn link() -> Style {
    Style::default()
        .fg(Color::Blue)
        .add_modifier(Modifier::UNDERLINED)
}

pub(crate) fn key_hint() -> Style {
    Style::default().fg(Color::Yellow)
}

/// Letters a filter matched: underlined as well, so they show on a selected row (whose
/// colours win) and without colour.
pub(crate) fn matched() -> Style {
    Style::default()
        .fg(Color::Yellow)
        .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
}

pub(crate) fn demo_badge() -> Style {
    Style::default()
        .bg(Color::Magenta)
        .fg(Color::White)
        .add_modifier(Modifier::BOLD)
}

pub(crate) fn live_badge() -> Style {
    Style::default()
        .bg(Color::Green)
        .fg(Color::Black)
        .add_modifier(Modifier::BOLD)
}

/// "k what  k what" with the keys highlighted, for the intros of empty panes.
pub(crate) fn hint_line(pairs: &[(&'static str, &'static str)]) -> ratatui::text::Line<'static> {
    use ratatui::text::Span;
    let mut spans = Vec::with_capacity(pairs.len() * 2);
    for (i, (key, what)) in pairs.iter().enumerate() {
        let gap = if i + 1 == pairs.len() { "" } else { "  " };
        spans.push(Span::styled(*key, key_hint()));
        spans.push(Span::raw(format!(" {what}{gap}")));
    }
    ratatui::text::Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    #[test]
    fn without_colour_a_selection_keeps_its_reverse_video_and_loses_its_colours() {
        let mut buffer = Buffer::empty(Rect::new(0, 0, 6, 1));
        buffer.set_string(0, 0, "[Chat]", selected());
        drop_colours(&mut buffer);
        for cell in &buffer.content {
            assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset));
            assert!(cell.modifier.contains(Modifier::REVERSED | Modifier::BOLD));
        }
    }
}
