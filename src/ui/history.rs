//! The History tab: past requests, newest first.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::app::App;

use super::list::{self, Columns, ago, size};
use super::theme;

const TITLES: [&str; 6] = ["kind", "request", "when", "status", "took", "size"];

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let history = &app.history;
    let title = Line::from(vec![
        Span::styled(" History ", theme::title()),
        Span::styled(
            format!("{} ", history.list.count_label("requests")),
            theme::dim(),
        ),
    ]);
    let widths = [
        Constraint::Length(7),
        Constraint::Min(12),
        Constraint::Length(5),
        Constraint::Length(9),
        Constraint::Length(6),
        Constraint::Length(8),
    ];
    let wall = app.wall;
    let empty = if history.loaded {
        "No requests yet: what you send from Chat and Search is kept here."
    } else {
        "Reading the history…"
    };
    list::draw(
        frame,
        body,
        list::Frame {
            title,
            footer: None,
            empty,
        },
        Columns {
            titles: &TITLES,
            widths: &widths,
        },
        &history.list,
        |i| {
            let item = &history.items[i];
            let status = match item.status {
                None => Span::styled("–", theme::dim()),
                Some(crate::store::Body::CANCELLED) => Span::styled("cancelled", theme::dim()),
                Some(0) => Span::styled("error", theme::error()),
                Some(s) if s >= 400 => Span::styled(s.to_string(), theme::error()),
                Some(s) => Span::styled(s.to_string(), theme::ok()),
            };
            let matched = history.list.matched_in(i, item.summary.chars().count());
            vec![
                Line::raw(item.kind.to_string()),
                list::highlighted(item.summary.clone(), &matched, Style::default()),
                Line::raw(ago(wall - item.created_at)),
                status.into(),
                Line::raw(item.elapsed_ms.map_or("–".to_string(), |ms| {
                    format!("{:.1}s", ms as f64 / 1000.0)
                })),
                Line::raw(item.size.map_or("–".to_string(), size)),
            ]
        },
    );
}
