//! Drawing: `view(&app, frame)` reads the app's state and nothing else. One file per tab,
//! plus the widgets they share.

mod brands;
mod call;
mod chat;
mod compare;
mod fit;
mod form;
mod help;
mod hints;
mod history;
mod jobs;
mod list;
mod page;
mod palette;
mod picker;
mod proxy;
mod search;
mod status;
mod text_view;
pub(crate) mod theme;
mod track;
mod track_alert;
mod track_answers;
mod track_chart;
mod track_map;
mod track_runs;
mod track_set;
mod usage;
mod word_diff;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use unicode_width::UnicodeWidthStr;

use crate::app::input::InputTarget;
use crate::app::{App, Popup, Tab, layout};

pub use text_view::visible_lines;

pub fn view(app: &App, frame: &mut Frame) {
    theme::with_theme(&app.theme, || view_themed(app, frame));
}

fn view_themed(app: &App, frame: &mut Frame) {
    let areas = app.frame_areas();
    draw_tabs(app, frame, areas.tabs);
    if let Some(text) = app.banner() {
        let rows = usize::from(areas.banner.height);
        frame.render_widget(
            Paragraph::new(fit::wrap_lines(Line::raw(text), areas.banner.width, rows))
                .style(theme::warning_banner()),
            areas.banner,
        );
    }
    view_of(app.tab)(app, frame, areas.body);
    usage::draw(app, frame, areas.body);
    status::draw(app, frame, areas.status);
    match &app.popup {
        Some(Popup::Help(keys)) => help::draw(app, keys, frame, frame.area()),
        Some(Popup::Palette(commands)) => palette::draw(commands, frame, frame.area()),
        Some(Popup::Picker(p)) => picker::draw(p, frame, frame.area()),
        Some(Popup::Input(input)) => draw_line_popup(
            frame,
            &format!(" {} ", input.title),
            (&input.shown(), input.edit.cursor_in(&input.value)),
            &input.note,
            match input.target {
                InputTarget::Export(_) => "write",
                InputTarget::ImportJob => "import",
                _ => "set",
            },
        ),
        Some(Popup::Confirm(confirm)) => draw_confirm(frame, &confirm.question()),
        None => {}
    }
    if theme::terminal_without_colour() {
        theme::drop_colours(frame.buffer_mut());
    }
}

/// A question and its two answers.
fn draw_confirm(frame: &mut Frame, question: &str) {
    let popup = layout::popup(frame.area(), 60, 6);
    clear_popup(frame, popup);
    let block = pane(Line::styled(" Are you sure? ", theme::title()), true);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let lines = vec![
        Line::raw(question.to_string()),
        Line::from(vec![
            Span::styled("y", theme::key_hint()),
            Span::raw(" yes  "),
            Span::styled("n Esc", theme::key_hint()),
            Span::raw(" no"),
        ]),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}

/// The view of each tab: the other half of the tab table in `app::tabs`.
fn view_of(tab: Tab) -> fn(&App, &mut Frame, Rect) {
    match tab {
        Tab::Chat => chat::draw,
        Tab::Search => search::draw,
        Tab::Jobs => jobs::draw,
        Tab::History => history::draw,
        Tab::Compare => compare::draw,
        Tab::Proxy => proxy::draw,
        Tab::Page => page::draw,
        Tab::Track => track::draw,
    }
}

fn draw_tabs(app: &App, frame: &mut Frame, area: Rect) {
    let row = layout::TabRow::for_width(area.width);
    let mut spans = Vec::new();
    if row.show_name {
        spans.extend([
            Span::styled(layout::APP_NAME, theme::title()),
            Span::raw(" "),
        ]);
    }
    let gap = " ".repeat(usize::from(row.gap));
    for (tab, label, _) in row.labels(area) {
        if tab == app.tab {
            // Brackets in place of the padding: the active tab shows without colour too, and
            // the labels keep their widths for the mouse.
            let inner = label.trim_matches(' ');
            spans.push(Span::styled(format!("[{inner}]"), theme::selected()));
        } else {
            spans.push(Span::styled(label, theme::muted()));
        }
        spans.push(Span::raw(gap.clone()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// A bordered box whose border shows whether it has focus.
pub(crate) fn pane(title: Line<'_>, focused: bool) -> Block<'_> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(if focused {
            theme::focused_border()
        } else {
            theme::border()
        })
        .title(title)
}

/// A one-line field's text with the cursor drawn where it is (when the field has the focus).
pub(crate) fn field_spans(text: &str, cursor: usize, focused: bool) -> Vec<Span<'static>> {
    if !focused {
        return vec![Span::raw(text.to_string())];
    }
    let split = text
        .char_indices()
        .nth(cursor)
        .map_or(text.len(), |(b, _)| b);
    vec![
        Span::raw(text[..split].to_string()),
        Span::styled("▏", theme::accent()),
        Span::raw(text[split..].to_string()),
    ]
}

/// Clears the area a popup is drawn on. A wide character (an emoji, a CJK letter) that starts
/// just left of the area would spill its second half over the popup's border, so it goes too.
pub(crate) fn clear_popup(frame: &mut Frame, popup: Rect) {
    frame.render_widget(Clear, popup);
    if popup.x == 0 {
        return;
    }
    let buffer = frame.buffer_mut();
    for y in popup.top()..popup.bottom() {
        if let Some(cell) = buffer.cell_mut((popup.x - 1, y))
            && cell.symbol().width() > 1
        {
            cell.set_symbol(" ");
        }
    }
}

/// A popup with one line of text being typed, a note under it, and its keys.
fn draw_line_popup(
    frame: &mut Frame,
    title: &str,
    (text, cursor): (&str, usize),
    note: &str,
    accept: &str,
) {
    let popup = layout::popup(frame.area(), 76, 7);
    clear_popup(frame, popup);
    let block = pane(Line::styled(title.to_string(), theme::title()), true);
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let lines = vec![
        Line::from(
            std::iter::once(Span::styled("› ", theme::accent()))
                .chain(field_spans(text, cursor, true))
                .collect::<Vec<_>>(),
        ),
        Line::styled(note.to_string(), theme::dim()),
        Line::from(vec![
            Span::styled("Enter", theme::key_hint()),
            Span::raw(format!(" {accept}  ")),
            Span::styled("Esc", theme::key_hint()),
            Span::raw(" cancel"),
        ]),
    ];
    frame.render_widget(
        Paragraph::new(lines)
            .style(Style::default())
            .wrap(Wrap { trim: true }),
        inner,
    );
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;

    #[test]
    fn an_emoji_under_a_popup_leaves_its_border_whole() {
        for left in [10, 11] {
            let mut terminal = Terminal::new(TestBackend::new(40, 5)).unwrap();
            terminal
                .draw(|frame| {
                    let pins = "📍".repeat(20);
                    frame.render_widget(Paragraph::new(vec![Line::raw(pins); 5]), frame.area());
                    let popup = Rect::new(left, 1, 20, 3);
                    clear_popup(frame, popup);
                    frame.render_widget(pane(Line::raw("t"), true), popup);
                })
                .unwrap();
            let buffer = terminal.backend().buffer();
            for y in 1..4 {
                let before = buffer[(left - 1, y)].symbol();
                assert!(
                    before.width() <= 1,
                    "row {y} at {left}: {before:?} spills over"
                );
                assert_eq!(buffer[(left, y)].symbol().width(), 1);
            }
        }
    }
}
