//! The Proxy tab: the form (network, protocol, credentials, options, the username as sent)
//! and the response pane.

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::api::proxy::ExitInfo;
use crate::app::App;
use crate::app::keymap::{Action, Context};
use crate::app::proxy::{
    FORM_ORDER, ProxyFocus, ProxyState, ResponseState, ResponseView, cell_label, cell_widths,
    proxy_areas,
};

use super::form::{self, Cell, draw_cells};
use super::text_view::draw_body;
use super::{call, hints, pane, theme};

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let proxy = &app.proxy;
    let areas = proxy_areas(proxy, body);
    draw_form(proxy, frame, areas.form, areas.cells);
    draw_response(app, frame, areas.response);
}

fn draw_form(proxy: &ProxyState, frame: &mut Frame, area: Rect, cells_area: Rect) {
    let focused = proxy.focus == ProxyFocus::Form;
    let mut block = pane(Line::styled(" Proxy ", theme::title()), focused);
    if let Some(url) = proxy.proxy_url() {
        block = block.title(
            Line::from(vec![
                Span::styled(" via ", theme::dim()),
                Span::styled(format!("{url} "), theme::accent()),
            ])
            .alignment(Alignment::Right),
        );
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let errors = proxy.errors();
    let cells: Vec<Cell> = FORM_ORDER
        .iter()
        .enumerate()
        .map(|(i, setting)| Cell {
            label: cell_label(*setting),
            value: proxy.value_text(*setting),
            selected: focused && i == proxy.cursor,
            broken: errors.iter().any(|e| e.field == *setting),
        })
        .collect();
    draw_cells(frame, cells_area, &cells, &cell_widths(proxy));

    let rest = Rect {
        y: cells_area.y + cells_area.height,
        height: inner
            .height
            .saturating_sub(cells_area.height)
            .min(inner.bottom().saturating_sub(cells_area.bottom())),
        ..inner
    };
    let username = proxy.full_username();
    let mut lines = vec![Line::from(vec![
        Span::styled("sends as ", theme::dim()),
        if username.is_empty() {
            Span::styled("(no username)", theme::dim())
        } else {
            Span::styled(username, theme::title())
        },
    ])];
    for error in &errors {
        lines.push(Line::from(vec![
            Span::styled("✗ ", theme::error()),
            Span::styled(
                format!("{}: ", error.field),
                theme::error().add_modifier(Modifier::BOLD),
            ),
            Span::styled(error.message.clone(), theme::error()),
        ]));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), rest);
}

fn draw_response(app: &App, frame: &mut Frame, area: Rect) {
    let proxy = &app.proxy;
    let focused = proxy.focus == ProxyFocus::Response;
    let title = match &proxy.response {
        Some(response) => {
            let titles: Vec<(String, bool)> = ResponseView::ALL
                .iter()
                .map(|v| (response.prepared.view_title(*v), *v == response.view))
                .collect();
            form::view_tabs(&titles)
        }
        None => Line::styled(" Response ", theme::title()),
    };
    let cancel = app.keys.label_of(Context::Proxy, Action::Cancel, "Esc");
    let (rest, quiet) =
        call::draw_call_pane(frame, area, title, focused, &proxy.call, app.now, cancel);

    let Some(response) = &proxy.response else {
        if quiet {
            draw_intro(app, frame, rest);
        }
        return;
    };
    let summary = summary_lines(response, rest.width);
    let summary_height = (summary.len() as u16).min(rest.height);
    let [summary_area, content] =
        Layout::vertical([Constraint::Length(summary_height), Constraint::Min(0)]).areas(rest);
    frame.render_widget(Paragraph::new(summary), summary_area);
    let view = response.view;
    let body = response.prepared.body_of(view);
    if body.is_empty() {
        let note = match view {
            ResponseView::Headers => "No headers came back.",
            _ => "The body is empty.",
        };
        frame.render_widget(Paragraph::new(Line::styled(note, theme::dim())), content);
    } else {
        draw_body(frame, content, body, response.scroll_of(view));
    }
}

/// The status and time, then the exit the request left from, packed into rows of `width`.
fn summary_lines(response: &ResponseState, width: u16) -> Vec<Line<'static>> {
    let r = &response.prepared.response;
    let status_style = if (200..300).contains(&r.status) {
        theme::accent().add_modifier(Modifier::BOLD)
    } else {
        theme::error().add_modifier(Modifier::BOLD)
    };
    let mut first = vec![
        Span::styled(format!("{} ", r.status), status_style),
        Span::styled("· ", theme::dim()),
        Span::raw(format_elapsed(r.elapsed)),
    ];
    if !r.content_type.is_empty() {
        first.push(Span::styled(" · ", theme::dim()));
        first.push(Span::raw(r.content_type.clone()));
    }
    let mut lines = vec![Line::from(first)];
    if r.exit.is_empty() {
        lines.push(Line::styled(
            "The exit was not reported (no X-Exit-* headers).",
            theme::dim(),
        ));
    } else {
        lines.extend(exit_lines(&r.exit, width));
    }
    lines.push(Line::raw(""));
    lines
}

/// `X-Exit-IP 203.0.113.7  X-Exit-Country DE …`, a header never split across rows.
fn exit_lines(exit: &ExitInfo, width: u16) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    for (name, value) in [
        ("X-Exit-IP", &exit.ip),
        ("X-Exit-Country", &exit.country),
        ("X-Exit-Timezone", &exit.timezone),
        ("X-Exit-ASN", &exit.asn),
    ] {
        let Some(value) = value else { continue };
        let cell = name.len() + 1 + value.chars().count();
        if !spans.is_empty() && used + 2 + cell > usize::from(width) {
            lines.push(Line::from(std::mem::take(&mut spans)));
            used = 0;
        }
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
            used += 2;
        }
        spans.push(Span::styled(format!("{name} "), theme::dim()));
        spans.push(Span::styled(value.clone(), theme::title()));
        used += cell;
    }
    if !spans.is_empty() {
        lines.push(Line::from(spans));
    }
    lines
}

fn format_elapsed(elapsed: Duration) -> String {
    let ms = elapsed.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        crate::measure::duration(elapsed)
    }
}

fn draw_intro(app: &App, frame: &mut Frame, area: Rect) {
    use crate::api::proxy::ProxyField;
    let edit = |field, what| (Context::Proxy, Action::EditProxy(field), what);
    let lines = vec![
        Line::styled(
            "Fetch a page through the residential or ISP proxy network.",
            theme::title(),
        ),
        Line::raw(""),
        hints::line(
            app,
            &[
                (Context::Proxy, Action::Send, "sends"),
                (Context::Settings, Action::Right, "next setting"),
                (Context::Settings, Action::Clear, "unset it"),
                (Context::Normal, Action::Copy, "copy as curl"),
            ],
        ),
        hints::line(
            app,
            &[
                edit(ProxyField::Network, "network"),
                edit(ProxyField::Protocol, "protocol"),
                edit(ProxyField::Fallback, "fallback"),
                edit(ProxyField::Username, "user"),
                edit(ProxyField::Key, "key"),
                edit(ProxyField::TargetUrl, "url"),
            ],
        ),
        hints::line(
            app,
            &[
                edit(ProxyField::Country, "country"),
                edit(ProxyField::Subdivision, "subdivision"),
                edit(ProxyField::City, "city"),
                edit(ProxyField::Zipcode, "zip"),
                edit(ProxyField::Asn, "asn"),
                edit(ProxyField::Type, "type"),
                edit(ProxyField::Session, "session"),
                edit(ProxyField::SessionTtl, "ttl"),
                edit(ProxyField::SessionMode, "mode"),
            ],
        ),
        hints::line(
            app,
            &[
                (Context::Global, Action::FocusNext, "response pane"),
                (Context::Normal, Action::Help, "all keys"),
                (Context::Normal, Action::Quit, "quit"),
            ],
        ),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}
