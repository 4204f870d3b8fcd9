//! The status bar: LIVE or DEMO and the host, the balance, calls in flight, a message or the
//! keys of the focused pane.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::keymap::{self, Action, Context};
use crate::app::{App, Credits, FlashLevel, Tab};

use super::theme;

pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let mut spans = Vec::new();
    if app.connection.demo {
        spans.push(Span::styled(" DEMO ", theme::demo_badge()));
    } else {
        spans.push(Span::styled(" LIVE ", theme::live_badge()));
    }
    spans.push(Span::styled(
        format!(" {} ", app.connection.host),
        theme::muted(),
    ));
    spans.push(Span::styled("│", theme::border()));
    spans.push(match &app.credits {
        Credits::Unknown => Span::styled(" credits ? ", theme::dim()),
        Credits::Known(n) => Span::raw(format!(" {n} credits ")),
        Credits::Exhausted { .. } => Span::styled(" 0 credits ", theme::error()),
    });
    let in_flight = app.in_flight();
    if in_flight > 0 {
        spans.push(Span::styled("│", theme::border()));
        spans.push(Span::styled(
            format!(" {in_flight} in flight "),
            theme::accent(),
        ));
    }
    spans.push(Span::styled("│ ", theme::border()));
    match &app.flash {
        Some(flash) => spans.push(Span::styled(
            flash.text.clone(),
            match flash.level {
                FlashLevel::Info => theme::ok(),
                FlashLevel::Error => theme::error(),
            },
        )),
        None => spans.extend(hints(app)),
    }
    frame.render_widget(
        Paragraph::new(Line::from(spans)).wrap(ratatui::widgets::Wrap { trim: false }),
        area,
    );
}

/// The most useful keys where the focus is, from the keymap.
fn hints(app: &App) -> Vec<Span<'static>> {
    let contexts = app.key_contexts();
    let wanted: &[Action] = if app.popup.is_some() {
        &[Action::Accept, Action::Back]
    } else if app.editing() {
        &[
            Action::Send,
            Action::Newline,
            Action::Back,
            Action::FocusNext,
        ]
    } else if matches!(app.tab, Tab::Jobs | Tab::History) && app.jobs.reader.is_none() {
        &[
            Action::Accept,
            Action::PollNow,
            Action::Resubmit,
            Action::Rerun,
            Action::ImportJob,
            Action::Filter,
            Action::Delete,
            Action::Help,
        ]
    } else {
        &[
            Action::Send,
            Action::NextView,
            Action::Copy,
            Action::Open,
            Action::Export,
            Action::Help,
            Action::Quit,
        ]
    };
    let mut spans = Vec::new();
    for action in wanted {
        let found = contexts
            .iter()
            .find_map(|c| keymap::label_of(*c, *action).map(|label| (label, *c)));
        if let Some((label, context)) = found {
            let help = keymap::bindings(context)
                .find(|b| b.action == *action)
                .map_or("", |b| b.help);
            spans.push(Span::styled(label.to_string(), theme::key_hint()));
            spans.push(Span::styled(format!(" {help}  "), theme::dim()));
        }
    }
    if app.chat.call.is_running()
        && !app.editing()
        && let Some(label) = keymap::label_of(Context::Form, Action::Cancel)
    {
        spans.push(Span::styled(label.to_string(), theme::key_hint()));
        spans.push(Span::styled(" cancel", theme::dim()));
    }
    spans
}
