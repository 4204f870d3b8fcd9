//! A filtered table in a pane, shared by the Jobs and History tabs: a header, the rows in
//! view (only those are built), the selection, and the filter line while one is set.

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{HighlightSpacing, Paragraph, Row, Table, TableState};
use unicode_width::UnicodeWidthStr;

use crate::app::list::FilteredList;

use super::fit::fit_line;
use super::text_view::{draw_scrollbar, list_offset};
use super::{pane, theme};

pub(super) struct Columns<'a> {
    pub titles: &'a [&'a str],
    pub widths: &'a [Constraint],
}

/// The pane around the table: its title, a line on its bottom border, and what shows when
/// there are no items at all.
pub(super) struct Frame<'a> {
    pub title: Line<'a>,
    pub footer: Option<Line<'a>>,
    pub empty: &'a str,
}

/// Draws the list; `row(i)` builds the cells of item `i` and is called for visible rows only.
/// Cells wider than their column are cut with an ellipsis.
pub(super) fn draw<'a>(
    frame: &mut ratatui::Frame,
    area: Rect,
    chrome: Frame<'_>,
    columns: Columns<'_>,
    list: &FilteredList,
    row: impl Fn(usize) -> Vec<Line<'a>>,
) {
    let Frame {
        title,
        footer,
        empty,
    } = chrome;
    let mut block = pane(title, true);
    if let Some(footer) = footer {
        block = block.title_bottom(footer);
    }
    let mut inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 {
        return;
    }
    if list.filtering || !list.filter.is_empty() {
        let line_area = Rect {
            y: inner.y + inner.height - 1,
            height: 1,
            ..inner
        };
        inner.height -= 1;
        let mut spans = vec![Span::styled("/ ", theme::accent())];
        spans.extend(super::field_spans(
            &list.filter,
            list.edit.cursor_in(&list.filter),
            list.filtering,
        ));
        spans.push(Span::styled(
            format!("  {} of {}", list.shown.len(), list.total),
            theme::dim(),
        ));
        frame.render_widget(Paragraph::new(Line::from(spans)), line_area);
    }
    if list.shown.is_empty() {
        let text = if list.total == 0 {
            empty.to_string()
        } else {
            "Nothing matches the filter; Esc drops it.".to_string()
        };
        frame.render_widget(
            Paragraph::new(Line::styled(text, theme::dim()))
                .wrap(ratatui::widgets::Wrap { trim: true }),
            inner,
        );
        return;
    }
    let height = inner.height.saturating_sub(1) as usize;
    let offset = list_offset(list.selected, height);
    let end = (offset + height).min(list.shown.len());
    let column_widths = column_widths(columns.widths, inner.width);
    let rows: Vec<Row> = list.shown[offset..end]
        .iter()
        .map(|index| {
            let cells = row(*index)
                .into_iter()
                .zip(&column_widths)
                .map(|(line, width)| fit_line(line, *width));
            Row::new(cells)
        })
        .collect();
    let header = Row::new(
        columns
            .titles
            .iter()
            .map(|t| Span::styled(*t, theme::title())),
    );
    let table = Table::new(rows, columns.widths.iter().copied())
        .header(header)
        .column_spacing(1)
        .row_highlight_style(theme::selected())
        .highlight_symbol(theme::SELECTED_MARK)
        .highlight_spacing(HighlightSpacing::Always);
    // Only the rows in view were built: the selection is relative to them.
    let mut state = TableState::default().with_selected(Some(list.selected - offset));
    frame.render_stateful_widget(table, inner, &mut state);
    draw_scrollbar(
        frame,
        inner,
        list.shown.len() + 1,
        offset,
        inner.height as usize,
    );
}

/// The widths the table gives its columns, as it lays them out: after the selection mark,
/// one space between columns.
fn column_widths(widths: &[Constraint], area_width: u16) -> Vec<u16> {
    let mark = theme::SELECTED_MARK.width() as u16;
    let columns = Rect::new(0, 0, area_width.saturating_sub(mark), 1);
    Layout::horizontal(widths.iter().copied())
        .flex(Flex::Start)
        .spacing(1)
        .split(columns)
        .iter()
        .map(|r| r.width)
        .collect()
}

/// `text` with the chars at `positions` (char indices, ascending) in the match style.
pub(super) fn highlighted(text: String, positions: &[u32], style: Style) -> Line<'static> {
    if positions.is_empty() {
        return Line::styled(text, style);
    }
    let mut spans = Vec::new();
    let mut run = String::new();
    let mut run_matched = false;
    for (i, c) in text.chars().enumerate() {
        let is_match = positions.binary_search(&(i as u32)).is_ok();
        if is_match != run_matched && !run.is_empty() {
            let run_style = if run_matched { theme::matched() } else { style };
            spans.push(Span::styled(std::mem::take(&mut run), run_style));
        }
        run_matched = is_match;
        run.push(c);
    }
    if !run.is_empty() {
        let run_style = if run_matched { theme::matched() } else { style };
        spans.push(Span::styled(run, run_style));
    }
    Line::from(spans)
}

/// "12s", "5m", "3h", "2d": how long ago, in the largest whole unit.
pub(super) fn ago(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..60 => format!("{s}s"),
        60..3_600 => format!("{}m", s / 60),
        3_600..86_400 => format!("{}h", s / 3_600),
        _ => format!("{}d", s / 86_400),
    }
}
