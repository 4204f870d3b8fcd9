//! The app's colours and text styles, in one place.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Style};

use crate::theme::Theme;

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

thread_local! {
    /// The theme of the frame being drawn: set from the app's state for the length of one
    /// `ui::view`, so every style below is the app's theme without passing it to each view.
    static CURRENT: std::cell::RefCell<Theme> = std::cell::RefCell::new(Theme::dark());
}

/// Draws with `theme` as the current one (a draw is synchronous: nothing else runs on this
/// thread meanwhile), then puts the previous one back.
pub(crate) fn with_theme<R>(theme: &Theme, draw: impl FnOnce() -> R) -> R {
    let previous = CURRENT.with(|current| current.replace(theme.clone()));
    let result = draw();
    CURRENT.with(|current| current.replace(previous));
    result
}

fn current(pick: impl FnOnce(&Theme) -> Style) -> Style {
    CURRENT.with(|current| pick(&current.borrow()))
}

pub(crate) fn title() -> Style {
    current(|t| t.title)
}

pub(crate) fn dim() -> Style {
    current(|t| t.dim)
}

pub(crate) fn muted() -> Style {
    current(|t| t.muted)
}

pub(crate) fn accent() -> Style {
    current(|t| t.accent)
}

/// The selected row or tab. The built-in themes write it reversed: a terminal without colour
/// (`NO_COLOR`) drops the colours but keeps the reverse video, so the selection still shows.
pub(crate) fn selected() -> Style {
    current(|t| t.selected)
}

/// Marks the selected row of a list, so it shows even where styles do not.
pub(crate) const SELECTED_MARK: &str = "› ";

pub(crate) fn focused_border() -> Style {
    current(|t| t.focused_border)
}

pub(crate) fn border() -> Style {
    current(|t| t.border)
}

pub(crate) fn error() -> Style {
    current(|t| t.error)
}

pub(crate) fn warning_banner() -> Style {
    current(|t| t.warning_banner)
}

pub(crate) fn ok() -> Style {
    current(|t| t.ok)
}

pub(crate) fn link() -> Style {
    current(|t| t.link)
}

pub(crate) fn key_hint() -> Style {
    current(|t| t.key_hint)
}

/// Letters a filter matched.
pub(crate) fn matched() -> Style {
    current(|t| t.matched)
}

pub(crate) fn demo_badge() -> Style {
    current(|t| t.demo_badge)
}

pub(crate) fn live_badge() -> Style {
    current(|t| t.live_badge)
}

/// A tracked brand where an answer names it.
pub(crate) fn brand() -> Style {
    current(|t| t.brand)
}

/// A tracked brand an answer cautions against.
pub(crate) fn cautioned() -> Style {
    current(|t| t.cautioned)
}

pub(crate) fn result_question() -> Style {
    current(|t| t.result_question)
}

pub(crate) fn result_news() -> Style {
    current(|t| t.result_news)
}

pub(crate) fn rating() -> Style {
    current(|t| t.rating)
}

pub(crate) fn band(band: crate::track::map::Band) -> Style {
    use crate::track::map::Band;
    current(|t| match band {
        Band::High => t.band_high,
        Band::Middle => t.band_middle,
        Band::Low => t.band_low,
        Band::None => t.band_none,
        Band::Unknown => t.band_unknown,
    })
}

pub(crate) fn map_land() -> Style {
    current(|t| t.map_land)
}

/// A line of rendered prose in the theme in use: the colours `render` marks headings, code,
/// links and dim parts with become the theme's (the marks' modifiers stay).
pub(crate) fn prose(mut line: ratatui::text::Line<'static>) -> ratatui::text::Line<'static> {
    use crate::render::prose;
    CURRENT.with(|current| {
        let theme = current.borrow();
        let colour_of = |style: Style, fallback: Color| style.fg.unwrap_or(fallback);
        let mapping = [
            (prose::HEADING, colour_of(theme.heading, prose::HEADING)),
            (prose::CODE, colour_of(theme.code, prose::CODE)),
            (prose::LINK, colour_of(theme.prose_link, prose::LINK)),
            (prose::DIM, colour_of(theme.dim, prose::DIM)),
            (prose::MUTED, colour_of(theme.muted, prose::MUTED)),
        ];
        if mapping.iter().all(|(from, to)| from == to) {
            return;
        }
        let map = |style: &mut Style| {
            if let Some(fg) = style.fg
                && let Some((_, to)) = mapping.iter().find(|(from, _)| *from == fg)
            {
                style.fg = Some(*to);
            }
        };
        map(&mut line.style);
        for span in &mut line.spans {
            map(&mut span.style);
        }
    });
    line
}

/// The colour of a chart's `index`th line.
pub(crate) fn series(index: usize) -> Color {
    CURRENT.with(|current| current.borrow().series_color(index))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Modifier;

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
