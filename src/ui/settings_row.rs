//! A form's settings row: "label value" cells flowed over as many rows as they need, the
//! selected one highlighted while the row has focus.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::layout::{self, Cell};

use super::theme;

pub fn draw(frame: &mut Frame, area: Rect, cells: &[Cell], selected: Option<usize>) {
    let positions = layout::flow(area.width, &layout::cell_widths(cells), 1);
    for (i, (cell, at)) in cells.iter().zip(positions).enumerate() {
        let rect = Rect::new(area.x + at.x, area.y + at.y, at.width, 1).intersection(area);
        if rect.is_empty() {
            continue;
        }
        let (label_style, value_style) = if selected == Some(i) {
            (theme::selected(), theme::selected())
        } else {
            (theme::dim(), theme::accent())
        };
        let line = Line::from(vec![
            Span::styled(format!(" {} ", cell.label), label_style),
            Span::styled(format!("{} ", cell.value), value_style),
        ]);
        frame.render_widget(Paragraph::new(line), rect);
    }
}
