//! The help overlay, listed from the keymap table itself and filtered by what is typed over
//! it; each row wraps at the width rather than being cut.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::keymap::{Action, Context};
use crate::app::palette::KeysHelp;
use crate::app::{App, Tab, layout};

use super::fit::fit_line;
use super::{pane, theme};

/// The sections help lists: every key there is, the current tab's first (from the tab
/// table), then the global ones, editing and popups, then the other tabs'.
fn sections(tab: Tab) -> Vec<Context> {
    let mut sections: Vec<Context> = tab.spec().help.to_vec();
    let rest = [
        Context::Global,
        Context::Normal,
        Context::Editing,
        Context::TextField,
        Context::Popup,
    ]
    .into_iter()
    .chain(Tab::ALL.iter().flat_map(|t| t.spec().help.iter().copied()));
    for context in rest {
        if !sections.contains(&context) {
            sections.push(context);
        }
    }
    sections
}

/// Help's width at most: wide enough for a row's words, narrow enough to read.
const WIDTH: u16 = 80;
/// The keys' column, indent included.
const KEYS_COLUMN: usize = 16;

pub(super) fn draw(app: &App, help: &KeysHelp, frame: &mut Frame, area: Rect) {
    let popup_width = area.width.saturating_sub(2).min(WIDTH);
    // The rows are wrapped to the popup's inner width (borders off) less a column of margin,
    // so none is cut and no word touches the border.
    let width = usize::from(popup_width.saturating_sub(3)).max(20);
    let mut lines = Vec::new();
    for problem in [&app.keys_problem, &app.theme_problem]
        .into_iter()
        .flatten()
    {
        for line in super::fit::wrap_str(problem, width, 6) {
            lines.push(Line::styled(line, theme::error()));
        }
        lines.push(Line::raw(""));
    }
    let bindings = app.keys.all();
    let mut listed = 0;
    for context in sections(app.tab) {
        let mut rows = Vec::new();
        let mut tab_keys_done = false;
        for (index, binding) in bindings.iter().enumerate() {
            if binding.context != context || !help.shows(index) {
                continue;
            }
            // The tab keys are one row: Alt+1…n with the tabs' names.
            if let Action::SelectTab(_) = binding.action {
                if !tab_keys_done {
                    tab_keys_done = true;
                    let names: Vec<String> = Tab::ALL
                        .iter()
                        .enumerate()
                        .map(|(i, t)| format!("{} {}", i + 1, t.title()))
                        .collect();
                    rows.extend(help_rows(
                        &format!("Alt+1…{}", Tab::ALL.len()),
                        &format!("tabs: {}", names.join(", ")),
                        width,
                    ));
                }
                continue;
            }
            rows.extend(help_rows(&binding.label, binding.help, width));
        }
        if rows.is_empty() {
            continue;
        }
        listed += 1;
        lines.push(Line::styled(context.title(), theme::title()));
        lines.extend(rows);
        lines.push(Line::raw(""));
    }
    let close = app.keys.label_of(Context::Popup, Action::Back, "Esc");
    let footer = if listed == 0 {
        format!(
            "No key, action or description matches “{}”. Backspace edits the filter; {close} clears it.",
            help.filter
        )
    } else if help.filter.is_empty() {
        format!(
            "Mouse: click a tab or a pane; the wheel scrolls. {close} or {} closes this.",
            app.keys.label_of(Context::Normal, Action::Help, "?"),
        )
    } else {
        format!("Backspace edits the filter; {close} clears it, then closes help.")
    };
    for line in super::fit::wrap_str(&footer, width, 4) {
        lines.push(Line::styled(line, theme::dim()));
    }
    // The filter's row and the borders.
    let height = (lines.len() as u16).saturating_add(3).min(area.height);
    let popup = layout::popup(area, popup_width, height);
    super::clear_popup(frame, popup);
    let block = pane(Line::styled(" Keys ", theme::title()), true)
        .title(Line::styled(" ↑↓ PgUp PgDn scroll ", theme::dim()).alignment(Alignment::Right));
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let [filter_area, list_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(inner);
    frame.render_widget(
        Paragraph::new(fit_line(filter_line(help), filter_area.width)),
        filter_area,
    );
    let max_scroll = (lines.len() as u16).saturating_sub(list_area.height);
    frame.render_widget(
        Paragraph::new(lines).scroll((help.scroll.min(max_scroll), 0)),
        list_area,
    );
}

/// The filter as typed, with its cursor; while empty, what typing does.
fn filter_line(help: &KeysHelp) -> Line<'static> {
    let mut spans = vec![Span::styled("filter › ", theme::accent())];
    spans.extend(super::field_spans(
        &help.filter,
        help.edit.cursor_in(&help.filter),
        true,
    ));
    if help.filter.is_empty() {
        spans.push(Span::styled(
            " type a key, an action or a word",
            theme::dim(),
        ));
    }
    Line::from(spans)
}

/// A binding's rows: its keys, then what it does wrapped beside them (never cut).
fn help_rows(keys: &str, what: &str, width: usize) -> Vec<Line<'static>> {
    let column = KEYS_COLUMN.max(keys.chars().count() + 3);
    let room = width.saturating_sub(column).max(12);
    super::fit::wrap_str(what, room, usize::MAX)
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            let keys = if i == 0 { keys } else { "" };
            Line::from(vec![
                Span::styled(
                    format!("  {keys:<pad$}", pad = column - 2),
                    theme::key_hint(),
                ),
                Span::raw(text),
            ])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_every_key_the_current_tabs_first() {
        for tab in Tab::ALL {
            let listed = sections(tab);
            assert_eq!(listed[0], tab.spec().help[0], "{tab:?} first");
            for binding in crate::app::keymap::Keymap::default().all() {
                assert!(
                    listed.contains(&binding.context),
                    "{:?} ({}) missing from help on {tab:?}",
                    binding.context,
                    binding.label
                );
            }
        }
    }
}
