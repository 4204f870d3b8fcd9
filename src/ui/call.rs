//! How a call in flight or a failed call looks, for every tab: a spinner with elapsed and
//! typical seconds, a countdown to the automatic retry, or the error's sentence.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::api::ApiError;
use crate::app::call::{CallState, spinner_frame};
use crate::app::{elapsed_since, seconds_until};
use crate::measure::size;

use super::theme;

/// The lines describing a call's state; empty when idle.
pub(super) fn lines<E: std::fmt::Display>(
    call: &CallState<E>,
    now: std::time::Instant,
    cancel_key: &str,
) -> Vec<Line<'static>> {
    match call {
        CallState::Idle => Vec::new(),
        CallState::Running {
            started,
            label,
            typical,
            retry,
            landed,
            ..
        } => {
            let elapsed = elapsed_since(now, *started).as_secs();
            let spinner = Span::styled(
                format!("{} ", spinner_frame(*started, now)),
                theme::accent(),
            );
            if let Some(landed) = landed {
                // The service has answered; what is left is ours.
                let answered = landed.at.saturating_duration_since(*started);
                return vec![
                    Line::from(vec![
                        spinner,
                        Span::styled(
                            format!("Reading the response ({})… ", size(landed.bytes as u64)),
                            theme::title(),
                        ),
                        Span::raw(format!("{elapsed} s")),
                        Span::styled(
                            format!(
                                "  (it came back after {})",
                                crate::measure::duration(answered)
                            ),
                            theme::dim(),
                        ),
                    ]),
                    Line::from(vec![
                        Span::styled(cancel_key.to_string(), theme::key_hint()),
                        Span::styled(" cancels", theme::dim()),
                    ]),
                ];
            }
            let mut first = vec![
                spinner,
                Span::styled(format!("{label}… "), theme::title()),
                Span::raw(format!("{elapsed} s")),
            ];
            if let Some((lo, hi)) = typical {
                first.push(Span::styled(
                    format!("  (typically {lo}–{hi} s on the live service)"),
                    theme::dim(),
                ));
            }
            let mut out = vec![Line::from(first)];
            if let Some(countdown) = retry {
                let left = seconds_until(now, countdown.until);
                out.push(Line::from(vec![
                    Span::styled("↻ ", theme::key_hint()),
                    Span::styled(
                        format!(
                            "Retrying in {left} s (retry {}): {}",
                            countdown.attempt,
                            status_and_message(&countdown.error)
                        ),
                        theme::key_hint(),
                    ),
                ]));
            }
            out.push(Line::from(vec![
                Span::styled(cancel_key.to_string(), theme::key_hint()),
                Span::styled(" cancels", theme::dim()),
            ]));
            out
        }
        CallState::Failed(error) => vec![
            Line::styled("✗ The call failed", theme::error()),
            Line::styled(error.to_string(), theme::error()),
        ],
    }
}

/// Rows the lines take when word-wrapped at `width`, with one spare row for each line that
/// wraps (words pushed to the next row can need it).
pub(super) fn wrapped_height(lines: &[Line<'_>], width: u16) -> u16 {
    let width = usize::from(width.max(1));
    lines
        .iter()
        .map(|l| {
            let w = l.width();
            if w <= width { 1 } else { w.div_ceil(width) + 1 }
        })
        .sum::<usize>()
        .min(u16::MAX as usize) as u16
}

/// "503: Service is autoscaling…" for countdown lines.
fn status_and_message(error: &ApiError) -> String {
    match (error.status(), error.server_message()) {
        (Some(status), Some(message)) => format!("{status} {message}"),
        _ => error.to_string(),
    }
}

/// Draws a call's state at the top of a pane's inside and returns the room left under it.
pub(super) fn draw_status<E: std::fmt::Display>(
    frame: &mut Frame,
    area: Rect,
    call: &CallState<E>,
    now: std::time::Instant,
    cancel_key: &str,
) -> Rect {
    let status = lines(call, now, cancel_key);
    let height = wrapped_height(&status, area.width);
    let [status_area, rest] =
        Layout::vertical([Constraint::Length(height), Constraint::Min(0)]).areas(area);
    frame.render_widget(
        Paragraph::new(status).wrap(Wrap { trim: true }),
        status_area,
    );
    rest
}

/// A pane whose top shows a call's state: draws the box and the state, and returns the room
/// left under it and whether nothing has happened yet (no call running, none failed), when a
/// pane shows its intro instead.
pub(super) fn draw_call_pane<E: std::fmt::Display>(
    frame: &mut Frame,
    area: Rect,
    title: ratatui::text::Line<'_>,
    focused: bool,
    call: &CallState<E>,
    now: std::time::Instant,
    cancel_key: &str,
) -> (Rect, bool) {
    let block = super::pane(title, focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let rest = draw_status(frame, inner, call, now, cancel_key);
    (rest, !call.is_running() && call.error().is_none())
}
