//! Pieces every form draws alike: a row of "label value" cells with a cursor, and the row of
//! view names in a pane's title.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::layout;

use super::theme;

/// One cell of a settings row.
pub struct Cell<'a> {
    pub label: &'a str,
    pub value: String,
    pub selected: bool,
    /// A rule of the contract is broken here: the message is shown nearby.
    pub broken: bool,
}

/// Draws cells left to right, wrapping to new rows as `layout::flow` places them.
pub fn draw_cells(frame: &mut Frame, area: Rect, cells: &[Cell<'_>], widths: &[u16]) {
    let positions = layout::flow(area.width, widths, 1);
    for (cell, at) in cells.iter().zip(positions) {
        let rect = Rect::new(area.x + at.x, area.y + at.y, at.width, 1).intersection(area);
        if rect.is_empty() {
            continue;
        }
        let (label_style, value_style) = match (cell.selected, cell.broken) {
            (true, _) => (theme::selected(), theme::selected()),
            (false, true) => (theme::error(), theme::error().add_modifier(Modifier::BOLD)),
            (false, false) => (theme::dim(), theme::accent()),
        };
        let line = Line::from(vec![
            Span::styled(format!(" {} ", cell.label), label_style),
            Span::styled(format!("{} ", cell.value), value_style),
        ]);
        frame.render_widget(Paragraph::new(line), rect);
    }
}

/// A form's settings row from the app's cells; the one under the cursor highlighted.
pub fn draw_row(frame: &mut Frame, area: Rect, cells: &[layout::Cell], cursor: Option<usize>) {
    let drawn: Vec<Cell> = cells
        .iter()
        .enumerate()
        .map(|(i, c)| Cell {
            label: c.label,
            value: c.value.clone(),
            selected: cursor == Some(i),
            broken: false,
        })
        .collect();
    draw_cells(frame, area, &drawn, &layout::cell_widths(cells));
}

/// " Body │ Headers │ Raw " with the current view highlighted.
pub fn view_tabs(titles: &[(String, bool)]) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    for (i, (title, current)) in titles.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" │ ", theme::border()));
        }
        let style = if *current {
            theme::selected()
        } else {
            theme::muted()
        };
        spans.push(Span::styled(title.clone(), style));
    }
    spans.push(Span::raw(" "));
    Line::from(spans)
}
