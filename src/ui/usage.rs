//! The usage overlay (toggled with `$`): credits spent today by service, and an hourly
//! sparkline, in a box at the top right of the body.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::App;
use crate::app::keymap::{Action, Context};
use crate::present::search_page::thousands;
use crate::present::usage::sparkline;

use super::{clear_popup, pane, theme};

const WIDTH: u16 = 52;

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let usage = &app.usage;
    if !usage.shown || body.width < 20 || body.height < 5 {
        return;
    }
    let mut lines: Vec<Line<'static>> = Vec::new();
    match (&usage.summary, &usage.error) {
        (_, Some(error)) => lines.push(Line::styled(error.clone(), theme::error())),
        (None, None) => lines.push(Line::styled("Asking the service…", theme::dim())),
        (Some(summary), None) => {
            let since = usage
                .since
                .map(|t| format!(" since {:02}:00 UTC", t.hour()))
                .unwrap_or_default();
            lines.push(Line::from(vec![
                Span::styled(counted(summary.credits, "credit"), theme::title()),
                Span::styled(format!(" today{since}"), theme::muted()),
            ]));
            if summary.by_service.is_empty() {
                lines.push(Line::styled("No calls yet today.", theme::dim()));
            }
            for service in &summary.by_service {
                let failed = if service.failed_calls > 0 {
                    format!(", {} failed", service.failed_calls)
                } else {
                    String::new()
                };
                lines.push(Line::raw(format!(
                    "{:<8} {:>11} · {}{failed}",
                    service.service,
                    counted(service.credits, "credit"),
                    counted(service.calls, "call")
                )));
            }
            if !summary.hourly.is_empty() {
                lines.push(Line::from(vec![
                    Span::styled(sparkline(&summary.hourly), theme::accent()),
                    Span::styled(" by hour", theme::dim()),
                ]));
            }
            lines.push(Line::styled(crate::present::usage::COVERS, theme::dim()));
        }
    }
    let width = WIDTH.min(body.width);
    // Each line is shorter than the box; a long error wraps onto the lines below it.
    let wrapped: usize = lines
        .iter()
        .map(|l| l.width().div_ceil(usize::from(WIDTH - 2)).max(1))
        .sum();
    let height = (wrapped as u16 + 2).min(body.height);
    let area = Rect::new(body.x + body.width - width, body.y, width, height);
    clear_popup(frame, area);
    let close = app.keys.label_of(Context::Normal, Action::ShowUsage, "$");
    let block = pane(
        Line::from(vec![
            Span::styled(" Usage ", theme::title()),
            Span::styled(format!("{close} closes "), theme::dim()),
        ]),
        false,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}

/// "1 credit", "1,204 credits".
fn counted(n: u64, what: &str) -> String {
    let plural = if n == 1 { "" } else { "s" };
    format!("{} {what}{plural}", thousands(n))
}
