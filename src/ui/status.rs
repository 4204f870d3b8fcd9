//! The status bar: LIVE or DEMO and the host, the balance, calls in flight, a message or the
//! keys of the focused pane.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::keymap::Action;
use crate::app::{App, Credits, FlashLevel};

use super::{fit, theme};

/// The mark of the demo's data, in the status bar and the titles of stored views.
pub(super) fn demo_badge() -> Span<'static> {
    Span::styled(" DEMO ", theme::demo_badge())
}

pub(super) fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let mut spans = Vec::new();
    if app.connection.demo {
        spans.push(demo_badge());
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
    // Which workspace file the brands and sets come from, where there is room to say it:
    // its folder and name ("tracking/vantage.toml").
    if area.width >= 120
        && app.brands_pane.exists
        && let Some(path) = app.brands_pane.path()
    {
        let parts: Vec<String> = path
            .components()
            .rev()
            .take(2)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let short: Vec<&str> = parts.iter().rev().map(String::as_str).collect();
        spans.push(Span::styled("│", theme::border()));
        spans.push(Span::styled(
            format!(" {} ", short.join("/")),
            theme::muted(),
        ));
    }
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
        None => {
            // Whole hints only: a key without what it does would mislead.
            let room = usize::from(area.width).saturating_sub(Line::from(spans.clone()).width());
            spans.extend(hints_within(hints(app), room));
        }
    }
    // A message may take the two rows it was given; hints take one. What does not fit is
    // cut at a word, with an ellipsis.
    let lines = fit::wrap_lines(Line::from(spans), area.width, usize::from(area.height));
    frame.render_widget(Paragraph::new(lines), area);
}

/// As many hints (key and help, in pairs) as fit `room` columns, then `…` if some were left.
fn hints_within(hints: Vec<Span<'static>>, room: usize) -> Vec<Span<'static>> {
    let pairs: Vec<&[Span<'static>]> = hints.chunks(2).collect();
    let width = |pair: &[Span<'_>]| pair.iter().map(Span::width).sum::<usize>();
    let total: usize = pairs.iter().map(|p| width(p)).sum();
    // The last hint's trailing spaces may run past the edge unseen.
    if total.saturating_sub(2) <= room {
        return hints;
    }
    let mut shown = Vec::new();
    let mut used = 0;
    for pair in pairs {
        if used + width(pair) > room.saturating_sub(1) {
            break;
        }
        used += width(pair);
        shown.extend_from_slice(pair);
    }
    shown.push(Span::styled(fit::ELLIPSIS, theme::dim()));
    shown
}

/// The most useful keys where the focus is, from the keymap.
fn hints(app: &App) -> Vec<Span<'static>> {
    let contexts = app.key_contexts();
    // Help is read, not chosen from: Enter only closes it, so it offers scrolling and Esc.
    let wanted: &[Action] = if matches!(app.popup, Some(crate::app::Popup::Help(_))) {
        &[Action::Down, Action::Back]
    } else if app.popup.is_some() {
        &[Action::Accept, Action::Back]
    } else if app.editing() && (app.tab.spec().multi_line)(app) {
        &[
            Action::Send,
            Action::Newline,
            Action::Back,
            Action::FocusNext,
        ]
    } else if app.editing() {
        &[Action::Send, Action::Back, Action::FocusNext]
    } else if let Some(hints) = app.tab.spec().hints
        && app.jobs.reader.is_none()
    {
        hints
    } else {
        &[
            Action::Cancel,
            Action::Send,
            Action::Accept,
            Action::NextView,
            Action::NextPage,
            Action::Copy,
            Action::Open,
            Action::Export,
            Action::Help,
            Action::Quit,
        ]
    };
    let running = app.in_flight() > 0;
    let mut spans = Vec::new();
    for action in wanted {
        if *action == Action::Cancel && !running {
            continue;
        }
        // The first binding of the action whose keys are not taken by a nearer context.
        let binding = contexts.iter().find_map(|c| {
            app.keys.bindings(*c).find(|b| {
                b.action == *action
                    && b.keys.iter().all(|k| {
                        let event = crossterm::event::KeyEvent::new(k.code, k.modifiers);
                        app.keys.lookup(&contexts, &event) == Some(*action)
                    })
            })
        });
        if let Some(binding) = binding {
            spans.push(Span::styled(binding.label.to_string(), theme::key_hint()));
            spans.push(Span::styled(format!(" {}  ", binding.help), theme::dim()));
        }
    }
    spans
}
