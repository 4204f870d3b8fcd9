//! The History tab: past requests, newest first.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};

use crate::app::App;
use crate::app::history::{HistoryState, RowStatus, named_origin};

use super::list::{self, Columns, ago};
use super::{field_spans, theme};
use crate::measure::size;

const TITLES: [&str; 7] = ["kind", "from", "request", "when", "status", "took", "size"];

/// "request" or "requests", as the count before it asks.
fn requests(count: usize) -> &'static str {
    if count == 1 { "request" } else { "requests" }
}

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let history = &app.history;
    let count = match &history.search.applied {
        // The page shows before its count: no number until it is known.
        _ if history.loaded && !history.counted => "counting… ".to_string(),
        Some(_) => format!(
            "{} of {} {} ",
            history.total,
            history.entries,
            requests(history.entries)
        ),
        None => format!("{} {} ", history.total, requests(history.total)),
    };
    let mut title = vec![Span::styled(" History ", theme::title())];
    // The demo keeps a History of its own: said where it is read.
    if app.connection.demo {
        title.extend([super::status::demo_badge(), Span::raw(" ")]);
    }
    title.push(Span::styled(count, theme::dim()));
    if history.reading() && history.loaded {
        title.push(Span::styled("reading… ", theme::dim()));
    }
    let title = Line::from(title);
    let widths = [
        Constraint::Length(7),
        Constraint::Length(5),
        Constraint::Min(12),
        Constraint::Length(5),
        Constraint::Length(9),
        Constraint::Length(6),
        Constraint::Length(8),
    ];
    let wall = app.wall;
    let empty = match (&history.search.applied, history.loaded) {
        (_, false) => "Reading the history…",
        (Some(_), true) => {
            "Nothing stored matches: every word must appear (a trailing * matches a prefix). Esc goes back to every entry."
        }
        (None, true) => {
            "No requests yet: every call is kept here, from the app, the command line and tracking runs."
        }
    };
    list::draw(
        frame,
        body,
        list::Frame {
            title,
            footer: search_line(history),
            empty,
        },
        Columns {
            titles: &TITLES,
            widths: &widths,
        },
        &history.list,
        |i| {
            let item = &history.items[i];
            // The words are the CLI's; the colour says how it went.
            let word = RowStatus::word(item);
            let status = match RowStatus::of(item) {
                RowStatus::Waiting | RowStatus::Cancelled => Span::styled(word, theme::dim()),
                RowStatus::Unanswered | RowStatus::Failed(_) => Span::styled(word, theme::error()),
                RowStatus::Answered(_) => Span::styled(word, theme::ok()),
            };
            vec![
                Line::raw(item.kind.to_string()),
                // The app's own calls are the usual case: only the others are named.
                match named_origin(item) {
                    None => Line::styled("app", theme::dim()),
                    Some(origin) => Line::raw(origin),
                },
                Line::raw(item.summary.clone()),
                Line::raw(ago(wall - item.created_at)),
                status.into(),
                Line::raw(item.elapsed_ms.map_or("–".to_string(), |ms| {
                    crate::measure::duration(std::time::Duration::from_millis(ms))
                })),
                Line::raw(item.size.map_or("–".to_string(), size)),
            ]
        },
    );
}

/// The search on the pane's bottom border: what is typed (with its cursor), or the query
/// applied and how many entries it found of all.
fn search_line(history: &HistoryState) -> Option<Line<'static>> {
    let search = &history.search;
    if search.typing {
        let mut spans = vec![Span::styled(" / ", theme::accent())];
        spans.extend(field_spans(
            &search.typed,
            search.edit.cursor_in(&search.typed),
            true,
        ));
        spans.push(Span::styled(
            "  Enter searches every request and answer · Esc ",
            theme::dim(),
        ));
        return Some(Line::from(spans));
    }
    let applied = search.applied.as_ref()?;
    let found = match history.counted {
        true => format!("{} of {}", history.total, history.entries),
        false => "counting…".to_string(),
    };
    Some(Line::from(vec![
        Span::styled(" / ", theme::accent()),
        Span::styled(applied.clone(), theme::matched()),
        Span::styled(format!("  {found} · Esc: every entry "), theme::dim()),
    ]))
}
