//! Drawing: `view(&app, frame)` reads the app's state and nothing else. One file per tab,
//! plus the widgets they share.

mod call;
mod chat;
mod help;
mod picker;
mod search;
mod settings_row;
mod status;
mod text_view;
pub mod theme;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::{App, InputPrompt, Popup, Tab, layout};

pub use text_view::visible_lines;

pub fn view(app: &App, frame: &mut Frame) {
    let areas = app.frame_areas();
    draw_tabs(app, frame, areas.tabs);
    if let Some(text) = app.banner() {
        frame.render_widget(
            Paragraph::new(text)
                .style(theme::warning_banner())
                .wrap(Wrap { trim: true }),
            areas.banner,
        );
    }
    match app.tab {
        Tab::Chat => chat::draw(app, frame, areas.body),
        Tab::Search => search::draw(app, frame, areas.body),
    }
    status::draw(app, frame, areas.status);
    match &app.popup {
        Some(Popup::Help(scroll)) => help::draw(*scroll, frame, frame.area()),
        Some(Popup::Picker(p)) => picker::draw(p, frame, frame.area()),
        Some(Popup::Input(input)) => draw_input(input, frame, frame.area()),
        None => {}
    }
}

fn draw_tabs(app: &App, frame: &mut Frame, area: Rect) {
    let mut spans = vec![Span::styled(" vantage ", theme::title()), Span::raw(" ")];
    for (i, tab) in Tab::ALL.iter().enumerate() {
        let style = if *tab == app.tab {
            theme::selected()
        } else {
            theme::muted()
        };
        spans.push(Span::styled(layout::tab_label(i, *tab), style));
        spans.push(Span::raw(" "));
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

fn draw_input(input: &InputPrompt, frame: &mut Frame, area: Rect) {
    let popup = layout::popup(area, 76, 7);
    frame.render_widget(Clear, popup);
    let block = pane(
        Line::styled(format!(" {} ", input.title), theme::title()),
        true,
    );
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let lines = vec![
        Line::from(vec![
            Span::styled("› ", theme::accent()),
            Span::raw(input.text.clone()),
            Span::styled("▏", theme::accent()),
        ]),
        Line::styled(input.hint.clone(), theme::dim()),
        Line::from(vec![
            Span::styled("Enter", theme::key_hint()),
            Span::raw(" write  "),
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
