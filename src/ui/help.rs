//! The help overlay, listed from the keymap table itself.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::keymap::{Action, Context};
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

pub(super) fn draw(app: &App, scroll: u16, frame: &mut Frame, area: Rect) {
    let mut lines = Vec::new();
    for problem in [&app.keys_problem, &app.theme_problem]
        .into_iter()
        .flatten()
    {
        // Wrapped here: the list's lines are cut at the width, this one must be read whole.
        let width = usize::from(area.width.min(72).saturating_sub(2)).max(20);
        for line in super::fit::wrap_str(problem, width, 6) {
            lines.push(Line::styled(line, theme::error()));
        }
        lines.push(Line::raw(""));
    }
    for context in sections(app.tab) {
        lines.push(Line::styled(context.title(), theme::title()));
        let mut tab_keys_done = false;
        for binding in app.keys.bindings(context) {
            // The tab keys are one line: Alt+1…n with the tabs' names.
            if let Action::SelectTab(_) = binding.action {
                if !tab_keys_done {
                    tab_keys_done = true;
                    let names: Vec<String> = Tab::ALL
                        .iter()
                        .enumerate()
                        .map(|(i, t)| format!("{} {}", i + 1, t.title()))
                        .collect();
                    lines.push(help_line(
                        &format!("Alt+1…{}", Tab::ALL.len()),
                        &format!("tabs: {}", names.join(", ")),
                    ));
                }
                continue;
            }
            lines.push(help_line(&binding.label, binding.help));
        }
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled(
        format!(
            "Mouse: click a tab or a pane; the wheel scrolls. {}, {} or {} closes this.",
            app.keys.label_of(Context::Popup, Action::Back, "Esc"),
            app.keys.label_of(Context::Normal, Action::Help, "?"),
            app.keys.label_of(Context::Normal, Action::Quit, "q"),
        ),
        theme::dim(),
    ));
    let height = (lines.len() as u16 + 2).min(area.height);
    let popup = layout::popup(area, 72, height);
    super::clear_popup(frame, popup);
    let block = pane(Line::styled(" Keys ", theme::title()), true)
        .title(Line::styled(" ↑↓ PgUp PgDn scroll ", theme::dim()).alignment(Alignment::Right));
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let max_scroll = (lines.len() as u16).saturating_sub(inner.height);
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|line| fit_line(line, inner.width))
        .collect();
    frame.render_widget(
        Paragraph::new(lines).scroll((scroll.min(max_scroll), 0)),
        inner,
    );
}

fn help_line(keys: &str, what: &str) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("  {keys:<14}"), theme::key_hint()),
        Span::raw(what.to_string()),
    ])
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
