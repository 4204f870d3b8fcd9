//! The Track tab's list of runs: only the rows the table can show are made, and the title
//! says what a run of the shown set spends and whether a reading is under way.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Row, Table, TableState};

use crate::track::report::timestamp;
use crate::track::trends::Held;
use crate::track::view::TrackView;

use super::theme;

/// The runs of `view`; the price table and whether they are the demo's (said in the title)
/// come from `app`.
pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    view: &TrackView,
    selected: usize,
    app: &crate::app::App,
) {
    let (prices, demo) = (&app.prices, app.connection.demo);
    let shown_set = view.set.as_deref().unwrap_or("");
    let header = Row::new([
        "set", "run", "started", "calls", "done", "failed", "pending", "credits", "⚑",
    ])
    .style(theme::dim());
    // Only the rows the table can show are made: a year of daily runs costs a screenful.
    let visible = usize::from(area.height.saturating_sub(3)).max(1);
    let first = selected
        .saturating_sub(visible - 1)
        .min(view.runs.len().saturating_sub(visible));
    let window = &view.runs[first..(first + visible).min(view.runs.len())];
    let rows = window.iter().map(|run| {
        let stamp = timestamp(run.started_at);
        let started = match (stamp.get(..10), stamp.get(11..16)) {
            (Some(day), Some(time)) => format!("{day} {time}"),
            _ => stamp,
        };
        let failed = run.failed + run.refused;
        let style = if run.set_name.eq_ignore_ascii_case(shown_set) {
            Style::default()
        } else {
            theme::dim()
        };
        Row::new(vec![
            Line::raw(run.set_name.clone()),
            Line::raw(run.id.short().to_string()),
            Line::raw(started),
            Line::raw(run.planned.to_string()),
            // A finished run holding too few of its cells reads as incomplete.
            if run.is_finished() && !Held::of(run, view.complete).complete {
                Line::styled(format!("{} ⚠", run.done), theme::error())
            } else {
                Line::styled(run.done.to_string(), theme::ok())
            },
            Line::styled(
                failed.to_string(),
                if failed > 0 {
                    theme::error()
                } else {
                    Style::default()
                },
            ),
            Line::raw(if run.unsent > 0 {
                format!("{} +{} unsent", run.pending, run.unsent)
            } else {
                run.pending.to_string()
            }),
            Line::raw(run.credits(prices).to_string()),
            match view.fired_on(run.id.as_str()).len() {
                0 => Line::raw(""),
                n => Line::styled(format!("⚑ {n}"), theme::error()),
            },
        ])
        .style(style)
    });
    // The set column as wide as its longest name (within reason), the rest packed to the
    // left: a wide terminal does not open an empty gulf after short names.
    let set_width = window
        .iter()
        .map(|run| unicode_width::UnicodeWidthStr::width(run.set_name.as_str()))
        .max()
        .unwrap_or(0)
        .clamp(3, 32) as u16;
    let widths = [
        Constraint::Length(set_width),
        Constraint::Length(8),
        Constraint::Length(16),
        Constraint::Length(6),
        Constraint::Length(6),
        Constraint::Length(6),
        Constraint::Length(12),
        Constraint::Length(7),
        Constraint::Length(4),
    ];
    let mut title = vec![Span::styled(" Runs ", theme::title())];
    if demo {
        title.extend([super::status::demo_badge(), Span::raw(" ")]);
    }
    title.push(Span::styled(format!("{} ", view.runs.len()), theme::dim()));
    // What the next run of the shown set will spend, before `vantage track run` spends it;
    // left out while answers are read again, so that the reading's progress fits 80 columns.
    let reading_again = view.reading.is_some() || view.stale > 0;
    if let (Some(set), Some(calls), false) = (&view.set, view.calls_per_run, reading_again) {
        title.push(Span::styled(
            format!("· a run of {set} makes {calls} calls "),
            theme::dim(),
        ));
    }
    // The numbers shown were read by older rules or for other brands (or not yet): a reading
    // is under way.
    match (view.reading, view.stale) {
        (Some(progress), _) if progress.total > 0 => title.push(Span::styled(
            format!(
                "· reading answers again: {} of {} ",
                progress.read, progress.total
            ),
            theme::accent(),
        )),
        (Some(_), stale) | (None, stale @ 1..) => title.push(Span::styled(
            format!(
                "· {} shown as last read, reading again ",
                crate::plural::count(stale as u64, "run", "runs")
            ),
            theme::accent(),
        )),
        _ => {}
    }
    let title = Line::from(title);
    let table = Table::new(rows, widths)
        .flex(ratatui::layout::Flex::Start)
        .header(header)
        .row_highlight_style(theme::selected())
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme::border())
                .title(title),
        );
    let mut table_state = TableState::default().with_selected(Some(selected - first));
    frame.render_stateful_widget(table, area, &mut table_state);
}
