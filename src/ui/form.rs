//! Pieces every form draws alike: a row of "label value" cells with a cursor, and the row of
//! view names in a pane's title.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::layout;

use super::fit::fit_line;
use super::{pane, theme};

/// One cell of a settings row.
pub(super) struct Cell<'a> {
    pub label: &'a str,
    pub value: String,
    pub selected: bool,
    /// A rule of the contract is broken here: the message is shown nearby.
    pub broken: bool,
}

/// Draws cells left to right, wrapping to new rows as `layout::flow` places them.
pub(super) fn draw_cells(frame: &mut Frame, area: Rect, cells: &[Cell<'_>], widths: &[u16]) {
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

/// Values that mean "not chosen": a folded row leaves them out.
const UNSET: &[&str] = &[
    "random", "none", "desktop", "–", "default", "on", "sync", "0", "1", "",
];

/// A form's settings row from the app's cells; the one under the cursor highlighted. When
/// the row is folded to fewer lines than its cells need (a short screen, the focus on the
/// results), one compact line shows every setting chosen, so none is hidden.
pub(super) fn draw_row(
    frame: &mut Frame,
    area: Rect,
    cells: &[layout::Cell],
    cursor: Option<usize>,
) {
    let needed = layout::flow_rows(area.width, &layout::cell_widths(cells), 1);
    if cursor.is_none() && area.height < needed && area.height > 0 {
        let mut spans = Vec::new();
        for (i, cell) in cells
            .iter()
            .filter(|c| !UNSET.contains(&c.value.as_str()))
            .enumerate()
        {
            let gap = if i == 0 { " " } else { "  " };
            spans.push(Span::styled(format!("{gap}{} ", cell.label), theme::dim()));
            spans.push(Span::styled(cell.value.clone(), theme::accent()));
        }
        if spans.is_empty() {
            spans.push(Span::styled(" every setting at its default", theme::dim()));
        }
        // The way back to the whole row, where there is room for it.
        let hint = Span::styled("  Tab: the settings", theme::dim());
        if Line::from(spans.clone()).width() + hint.width() <= usize::from(area.width) {
            spans.push(hint);
        }
        let line = fit_line(Line::from(spans), area.width);
        frame.render_widget(Paragraph::new(line), Rect { height: 1, ..area });
        return;
    }
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
pub(super) fn view_tabs(titles: &[(String, bool)]) -> Line<'static> {
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

/// How a prompt editor is framed: its title, counter, limit and the hint shown when empty.
pub(crate) struct PromptBox<'a> {
    pub title: &'a str,
    pub count: usize,
    pub limit: usize,
    pub focused: bool,
    pub hint: &'a str,
}

/// A prompt editor in a box with its character counter, as Chat, Search and Compare show it.
pub(crate) fn draw_prompt_box(
    frame: &mut Frame,
    area: Rect,
    editor: &ratatui_textarea::TextArea<'static>,
    spec: PromptBox<'_>,
) {
    let PromptBox {
        title,
        count,
        limit,
        focused,
        hint,
    } = spec;
    let over = count > limit;
    let counter_style = if over {
        theme::error().add_modifier(Modifier::BOLD)
    } else {
        theme::dim()
    };
    let mut block = pane(Line::styled(title.to_string(), theme::title()), focused).title(
        Line::styled(format!(" {count}/{limit} "), counter_style).alignment(Alignment::Right),
    );
    if over {
        block = block.title_bottom(Line::styled(
            format!(
                " {} too many: the service takes at most {limit} ",
                crate::plural::count((count - limit) as u64, "character", "characters")
            ),
            theme::error(),
        ));
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if focused {
        frame.render_widget(editor, inner);
    } else if editor.is_empty() {
        frame.render_widget(
            Paragraph::new(fit_line(
                Line::styled(hint.to_string(), theme::dim()),
                inner.width,
            )),
            inner,
        );
    } else {
        let lines: Vec<Line> = editor
            .lines()
            .iter()
            .map(|l| Line::raw(l.clone()))
            .collect();
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    }
}
