//! The command palette: a filter line, then the tab's actions ranked against it, each with
//! the key that does it where the focus is and what it does (the matched letters marked).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::layout;
use crate::app::palette::{Command, Palette};

use super::fit::fit_line;
use super::text_view::list_offset;
use super::{pane, theme};

/// The keys' column, indent included.
const KEYS_COLUMN: usize = 14;

pub(super) fn draw(palette: &Palette, frame: &mut Frame, area: Rect) {
    // As tall as its rows (the filter's and the hint's with the borders), up to a screenful.
    let height = (palette.rows.len().max(1) as u16).saturating_add(4).min(22);
    let popup = layout::popup(area, 72, height);
    super::clear_popup(frame, popup);
    let title = Line::from(vec![
        Span::styled(" Commands ", theme::title()),
        Span::styled(
            format!("{} of {} ", palette.rows.len(), palette.commands.len()),
            theme::dim(),
        ),
    ]);
    let block = pane(title, true);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let [filter_area, list_area, hint_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let mut filter = vec![Span::styled(": ", theme::accent())];
    filter.extend(super::field_spans(
        &palette.filter,
        palette.edit.cursor_in(&palette.filter),
        true,
    ));
    if palette.filter.is_empty() {
        filter.push(Span::styled(" type what to do", theme::dim()));
    }
    frame.render_widget(
        Paragraph::new(fit_line(Line::from(filter), filter_area.width)),
        filter_area,
    );
    let rows = usize::from(list_area.height);
    let offset = list_offset(palette.selected, rows);
    let mut lines: Vec<Line> = palette
        .rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(rows)
        .filter_map(|(row, (index, positions))| {
            let command = palette.commands.get(*index)?;
            Some(fit_line(
                command_line(command, positions, row == palette.selected),
                list_area.width,
            ))
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::styled(" nothing matches", theme::dim()));
    }
    frame.render_widget(Paragraph::new(lines), list_area);
    frame.render_widget(
        Paragraph::new(super::hints::popup_line(
            &[("↑↓", "choose"), ("Enter", "run"), ("Esc", "close")],
            hint_area.width,
        )),
        hint_area,
    );
}

/// One action: its keys (or a dash when none reaches it here), then what it does with the
/// letters the filter matched marked.
fn command_line(command: &Command, positions: &[u32], selected: bool) -> Line<'static> {
    let keys = if command.keys.is_empty() {
        "–"
    } else {
        command.keys.as_str()
    };
    let mut spans = vec![Span::styled(
        format!(" {keys:<pad$}", pad = KEYS_COLUMN - 1),
        theme::key_hint(),
    )];
    // The matched positions count chars of the searched words, which begin with these.
    let mut run = String::new();
    let mut run_marked = false;
    for (i, c) in command.what.chars().enumerate() {
        let marked = positions.binary_search(&(i as u32)).is_ok();
        if marked != run_marked && !run.is_empty() {
            spans.push(styled_run(std::mem::take(&mut run), run_marked));
        }
        run_marked = marked;
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(styled_run(run, run_marked));
    }
    let line = Line::from(spans);
    if selected {
        line.style(theme::selected())
    } else {
        line
    }
}

fn styled_run(text: String, marked: bool) -> Span<'static> {
    if marked {
        Span::styled(text, theme::accent())
    } else {
        Span::raw(text)
    }
}
