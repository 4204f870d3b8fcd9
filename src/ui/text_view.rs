//! Scrolled text and lists that cost what is on screen: only visible lines are cloned into
//! the frame, whatever the length of what is loaded.

use ratatui::Frame;
use ratatui::layout::{Margin, Rect};
use ratatui::widgets::{Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState};

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::theme;
use crate::app::text_search::TextSearch;
use crate::present::text::{TextBody, ranges_in};

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
    let shown: Vec<Line> = visible.iter().cloned().map(theme::prose).collect();
    frame.render_widget(Paragraph::new(shown), text_area);
    draw_scrollbar(frame, area, lines.len(), scroll, area.height as usize);
}

/// Draws prose no wider than `reading_width` (0: the whole area), centred in a wider area,
/// the scrollbar still on the area's right edge. Verbatim text (HTML, JSON) keeps the width.
/// A search inside the text highlights its matches and takes the bottom row for its line.
pub(super) fn draw_prose(
    frame: &mut Frame,
    area: Rect,
    body: &TextBody,
    scroll: usize,
    reading_width: u16,
    find: Option<&TextSearch>,
) {
    draw_marked_prose(frame, area, body, scroll, reading_width, find, &|line| line);
}

/// [`draw_prose`], each visible line passed through `mark` last (to mark words in it).
pub(super) fn draw_marked_prose(
    frame: &mut Frame,
    area: Rect,
    body: &TextBody,
    scroll: usize,
    reading_width: u16,
    find: Option<&TextSearch>,
    mark: &dyn Fn(Line<'static>) -> Line<'static>,
) {
    if area.width < 2 || area.height == 0 {
        return;
    }
    let mut area = area;
    if let Some(find) = find
        && area.height > 1
    {
        area.height -= 1;
        let bar = Rect {
            y: area.y + area.height,
            height: 1,
            ..area
        };
        frame.render_widget(Paragraph::new(search_line(find)), bar);
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
    let shown: Vec<Line> = match find.filter(|f| !f.query.is_empty()) {
        Some(find) => visible
            .iter()
            .enumerate()
            .map(|(i, line)| mark(highlighted(&theme::prose(line.clone()), scroll + i, find)))
            .collect(),
        None => visible
            .iter()
            .map(|line| mark(theme::prose(line.clone())))
            .collect(),
    };
    frame.render_widget(Paragraph::new(shown), text_area);
    draw_scrollbar(frame, area, lines.len(), scroll, area.height as usize);
}

/// The search's own line: what is typed (with a cursor while typing) and "n of N".
fn search_line(find: &TextSearch) -> Line<'static> {
    let cursor = if find.typing { "▏" } else { "" };
    let status_style = if !find.query.is_empty() && find.found.is_empty() {
        theme::error()
    } else {
        theme::dim()
    };
    let mut spans = vec![
        Span::styled("/", theme::key_hint()),
        Span::raw(format!("{}{cursor}  ", find.query)),
        Span::styled(find.status(), status_style),
    ];
    if !find.typing && !find.found.is_empty() {
        spans.push(Span::styled(
            "  n/N next/previous · Esc clears",
            theme::dim(),
        ));
    }
    Line::from(spans)
}

/// Every match of the search in one line marked in reverse video (readable without colour),
/// the current one also bold and underlined.
fn highlighted(line: &Line<'static>, index: usize, find: &TextSearch) -> Line<'static> {
    let ranges = ranges_in(line, &find.query);
    let current = find
        .current_match()
        .filter(|m| m.line == index)
        .map(|m| (m.start, m.end));
    restyled(line, &ranges, |range, style| {
        if Some(range) == current {
            style.add_modifier(Modifier::REVERSED | Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            style.add_modifier(Modifier::REVERSED)
        }
    })
}

/// The line with the chars of each range (start..end, in chars, not overlapping) restyled
/// by `style(range, span's style)`; the spans are cut at the ranges' ends.
pub(super) fn restyled(
    line: &Line<'static>,
    ranges: &[(usize, usize)],
    style: impl Fn((usize, usize), Style) -> Style,
) -> Line<'static> {
    if ranges.is_empty() {
        return line.clone();
    }
    let mut spans: Vec<Span<'static>> = Vec::with_capacity(line.spans.len() + 2 * ranges.len());
    let mut at = 0;
    for span in &line.spans {
        let chars: Vec<char> = span.content.chars().collect();
        let span_end = at + chars.len();
        let mut piece_start = at;
        // Cut the span at every range boundary inside it.
        let mut cuts: Vec<usize> = ranges
            .iter()
            .flat_map(|(s, e)| [*s, *e])
            .filter(|c| *c > at && *c < span_end)
            .collect();
        cuts.push(span_end);
        for cut in cuts {
            let text: String = chars[piece_start - at..cut - at].iter().collect();
            let inside = ranges
                .iter()
                .find(|(s, e)| piece_start >= *s && piece_start < *e);
            let piece_style = match inside {
                Some(range) => style(*range, span.style),
                None => span.style,
            };
            spans.push(Span::styled(text, piece_style));
            piece_start = cut;
        }
        at = span_end;
    }
    Line::from(spans).style(line.style)
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
