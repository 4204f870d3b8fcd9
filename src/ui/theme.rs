//! The app's colours and text styles, in one place.

use ratatui::style::{Color, Modifier, Style};

pub fn title() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

pub fn dim() -> Style {
    Style::default().fg(Color::DarkGray)
}

pub fn muted() -> Style {
    Style::default().fg(Color::Gray)
}

pub fn accent() -> Style {
    Style::default().fg(Color::Cyan)
}

pub fn selected() -> Style {
    Style::default()
        .bg(Color::Blue)
        .fg(Color::White)
        .add_modifier(Modifier::BOLD)
}

pub fn focused_border() -> Style {
    Style::default().fg(Color::Cyan)
}

pub fn border() -> Style {
    Style::default().fg(Color::DarkGray)
}

pub fn error() -> Style {
    Style::default().fg(Color::Red)
}

pub fn warning_banner() -> Style {
    Style::default()
        .bg(Color::Yellow)
        .fg(Color::Black)
        .add_modifier(Modifier::BOLD)
}

pub fn ok() -> Style {
    Style::default().fg(Color::Green)
}

pub fn link() -> Style {
    Style::default()
        .fg(Color::Blue)
        .add_modifier(Modifier::UNDERLINED)
}

pub fn key_hint() -> Style {
    Style::default().fg(Color::Yellow)
}

pub fn matched() -> Style {
    Style::default()
        .fg(Color::Yellow)
        .add_modifier(Modifier::BOLD)
}

pub fn demo_badge() -> Style {
    Style::default()
        .bg(Color::Magenta)
        .fg(Color::White)
        .add_modifier(Modifier::BOLD)
}

pub fn live_badge() -> Style {
    Style::default()
        .bg(Color::Green)
        .fg(Color::Black)
        .add_modifier(Modifier::BOLD)
}

/// "k what  k what" with the keys highlighted, for the intros of empty panes.
pub fn hint_line(pairs: &[(&'static str, &'static str)]) -> ratatui::text::Line<'static> {
    use ratatui::text::Span;
    let mut spans = Vec::with_capacity(pairs.len() * 2);
    for (i, (key, what)) in pairs.iter().enumerate() {
        let gap = if i + 1 == pairs.len() { "" } else { "  " };
        spans.push(Span::styled(*key, key_hint()));
        spans.push(Span::raw(format!(" {what}{gap}")));
    }
    ratatui::text::Line::from(spans)
}
