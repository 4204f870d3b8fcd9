//! Scrolled text and lists that cost what is on screen: only visible lines are cloned into
//! the frame, whatever the length of what is loaded.

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::widgets::{Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState};

use crate::present::text::TextBody;

/// The slice of `lines` that fits `height` rows from `scroll`, with the scroll clamped so the
/// last page stays full.
pub fn visible_lines<T>(lines: &[T], scroll: usize, height: usize) -> (&[T], usize) {
    let max_scroll = lines.len().saturating_sub(height);
    let scroll = scroll.min(max_scroll);
    let end = (scroll + height).min(lines.len());
    (&lines[scroll..end], scroll)
}

/// Draws a text body wrapped to the area (one column is kept for the scrollbar).
pub(super) fn draw_body(frame: &mut Frame, area: Rect, body: &TextBody, scroll: usize) {
    if area.width < 2 || area.height == 0 {
        return;
    }
    let text_area = Rect {
        width: area.width - 1,
        ..area
    };
    let lines = body.lines(text_area.width);
    let (visible, scroll) = visible_lines(&lines, scroll, area.height as usize);
    frame.render_widget(Paragraph::new(visible.to_vec()), text_area);
    draw_scrollbar(frame, area, lines.len(), scroll, area.height as usize);
}

/// Draws prose no wider than `reading_width` (0: the whole area), centred in a wider area,
/// the scrollbar still on the area's right edge. Verbatim text (HTML, JSON) keeps the width.
pub(super) fn draw_prose(
    frame: &mut Frame,
    area: Rect,
    body: &TextBody,
    scroll: usize,
    reading_width: u16,
) {
    if area.width < 2 || area.height == 0 {
        return;
    }
    let text_area = reading_area(
        Rect {
            width: area.width - 1,
            ..area
        },
        if body.as_document().is_some() {
            reading_width
        } else {
            0
        },
    );
    let lines = body.lines(text_area.width);
    let (visible, scroll) = visible_lines(&lines, scroll, area.height as usize);
    frame.render_widget(Paragraph::new(visible.to_vec()), text_area);
    draw_scrollbar(frame, area, lines.len(), scroll, area.height as usize);
}

/// The centred part of `area` at most `reading_width` wide (0: all of it).
fn reading_area(area: Rect, reading_width: u16) -> Rect {
    if reading_width == 0 || area.width <= reading_width {
        return area;
    }
    Rect {
        x: area.x + (area.width - reading_width) / 2,
        width: reading_width,
        ..area
    }
}

/// A scrollbar on the right edge, only when the content overflows.
pub(super) fn draw_scrollbar(
    frame: &mut Frame,
    area: Rect,
    len: usize,
    position: usize,
    height: usize,
) {
    if len <= height {
        return;
    }
    let mut state = ScrollbarState::new(len.saturating_sub(height)).position(position);
    frame.render_stateful_widget(
        Scrollbar::new(ScrollbarOrientation::VerticalRight)
            .begin_symbol(None)
            .end_symbol(None),
        area.inner(Margin {
            vertical: 0,
            horizontal: 0,
        }),
        &mut state,
    );
}

/// The first row to show so that `selected` stays in view of `height` rows.
pub(super) fn list_offset(selected: usize, height: usize) -> usize {
    if height == 0 {
        0
    } else {
        selected.saturating_sub(height - 1)
    }
}
