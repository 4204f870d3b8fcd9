//! The picker popup: a filter line, a note, and the ranked rows with matches highlighted.
//! Only the visible rows are built, so a list of thousands of cities costs a screenful.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::layout;
use crate::app::picker::{PickItem, Picker};

use super::fit::{fit_line, wrap_lines};
use super::text_view::list_offset;
use super::{pane, theme};

pub(super) fn draw(picker: &Picker, frame: &mut Frame, area: Rect) {
    let popup = layout::popup(area, 64, 22);
    super::clear_popup(frame, popup);
    let title = Line::from(vec![
        Span::styled(format!(" {} ", picker.kind.title()), theme::title()),
        Span::styled(
            format!("{} of {} ", picker.rows.len(), picker.items.len()),
            theme::dim(),
        ),
    ]);
    let block = pane(title, true);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    // A note takes up to two rows, so its advice is read to the end.
    let note_lines = picker.note.as_ref().map_or_else(Vec::new, |note| {
        wrap_lines(
            Line::styled(note.clone(), theme::key_hint()),
            inner.width,
            2,
        )
    });
    let note_rows = note_lines.len() as u16;
    let [filter_area, note_area, list_area, hint_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(note_rows),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    frame.render_widget(
        Paragraph::new(fit_line(
            Line::from(
                std::iter::once(Span::styled("filter › ", theme::accent()))
                    .chain(super::field_spans(
                        &picker.filter,
                        picker.edit.cursor_in(&picker.filter),
                        true,
                    ))
                    .chain(
                        picker
                            .custom_value()
                            .map(|_| Span::styled("  End: use as typed", theme::dim())),
                    )
                    .collect::<Vec<_>>(),
            ),
            filter_area.width,
        )),
        filter_area,
    );
    frame.render_widget(Paragraph::new(note_lines), note_area);
    let height = list_area.height as usize;
    let offset = list_offset(picker.selected, height);
    let count = picker.row_count();
    let mut lines = Vec::with_capacity(height);
    for row in offset..(offset + height).min(count) {
        let selected = row == picker.selected;
        lines.push(match picker.item_at(row) {
            Some(item) => {
                let positions = picker
                    .rows
                    .get(row)
                    .map(|r| r.positions.as_slice())
                    .unwrap_or(&[]);
                fit_line(
                    item_line(item, positions, selected, picker.is_checked(item)),
                    list_area.width,
                )
            }
            None => Line::from(vec![Span::styled(
                format!(
                    " use “{}” as typed ",
                    picker.custom_value().unwrap_or_default()
                ),
                if selected {
                    theme::selected()
                } else {
                    theme::key_hint()
                },
            )]),
        });
    }
    if lines.is_empty() {
        lines.push(Line::styled(" nothing matches", theme::dim()));
    }
    frame.render_widget(Paragraph::new(lines), list_area);
    frame.render_widget(
        Paragraph::new(super::hints::popup_line(
            &[
                ("↑↓", "move"),
                ("Enter", "choose"),
                ("Esc", "close  type to filter"),
            ],
            hint_area.width,
        )),
        hint_area,
    );
}

fn item_line(
    item: &PickItem,
    positions: &[u32],
    selected: bool,
    checked: Option<bool>,
) -> Line<'static> {
    let base = if selected {
        theme::selected()
    } else {
        Style::default()
    };
    let highlight = if selected {
        theme::selected().add_modifier(ratatui::style::Modifier::UNDERLINED)
    } else {
        theme::matched()
    };
    let mut spans = vec![Span::styled(if selected { "› " } else { "  " }, base)];
    match checked {
        // "default", "none": nothing to add to the choice, so no box either.
        Some(_) if item.value.is_none() => spans.push(Span::styled("    ", base)),
        Some(true) => spans.push(Span::styled("[✓] ", base)),
        Some(false) => spans.push(Span::styled("[ ] ", base)),
        None => {}
    }
    let mut run = String::new();
    let mut run_matched = false;
    for (i, c) in item.label.chars().enumerate() {
        let is_match = positions.binary_search(&(i as u32)).is_ok();
        if is_match != run_matched && !run.is_empty() {
            spans.push(Span::styled(
                std::mem::take(&mut run),
                if run_matched { highlight } else { base },
            ));
        }
        run_matched = is_match;
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(Span::styled(
            run,
            if run_matched { highlight } else { base },
        ));
    }
    if !item.detail.is_empty() {
        spans.push(Span::styled(format!("  {}", item.detail), theme::dim()));
    }
    Line::from(spans)
}
