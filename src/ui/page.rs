//! The Page tab: the address, the settings row, and the page as each vantage point saw it,
//! its links, and the word diff of the first two.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::api::browse::URL_MAX_CHARS;
use crate::app::App;
use crate::app::call::CallState;
use crate::app::keymap::{Action, Context};
use crate::app::page::{DiffState, PageFocus, PageTabState, PageView, page_areas};
use crate::present::search_page::thousands;

use super::search::draw_link_list;
use super::text_view::draw_prose;
use super::{call, form, hints, pane, theme};

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let state = &app.page;
    let areas = page_areas(state, body);
    let url_chars = state.url_text().chars().count();
    form::draw_prompt_box(
        frame,
        areas.url,
        &state.url,
        form::PromptBox {
            title: " Page address ",
            count: url_chars,
            limit: URL_MAX_CHARS,
            focused: state.focus == PageFocus::Url,
            hint: &format!(
                "Press {} (or click) to type the page's address, https://…",
                app.key_of(Context::Form, Action::EditPrompt)
            ),
        },
    );
    let cursor = (state.focus == PageFocus::Settings).then_some(state.setting_cursor);
    form::draw_row(frame, areas.settings, &state.settings.cells(), cursor);
    draw_view(app, state, frame, areas.view);
}

fn view_title(state: &PageTabState) -> Line<'static> {
    let titles: Vec<(String, bool)> = state
        .views()
        .into_iter()
        .map(|view| {
            let label = match view {
                PageView::Seen(i) => state.fetches.get(i).map_or_else(String::new, |f| {
                    crate::present::page::vantage_label(&f.request)
                }),
                PageView::Links => {
                    format!("Links {}", state.links_page().map_or(0, |p| p.links.len()))
                }
                PageView::Diff => "Diff".to_string(),
            };
            (label, view == state.view)
        })
        .collect();
    if titles.is_empty() {
        Line::styled(" Page ", theme::title())
    } else {
        form::view_tabs(&titles)
    }
}

fn draw_view(app: &App, state: &PageTabState, frame: &mut Frame, area: Rect) {
    let block = pane(view_title(state), state.focus == PageFocus::View);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if state.fetches.is_empty() {
        draw_empty(app, frame, inner);
        return;
    }
    let scroll = state.scroll.get(&state.view).copied().unwrap_or(0);
    match state.view {
        PageView::Seen(i) => {
            let Some(fetch) = state.fetches.get(i) else {
                return;
            };
            match (&fetch.page, &fetch.call) {
                (Some(page), _) => {
                    let [line, text] = split_first_line(inner);
                    let about = format!(
                        "{} · status {} · {} · {} bytes · {}",
                        page.vantage(),
                        page.status,
                        crate::measure::duration(page.elapsed),
                        thousands(page.bytes as u64),
                        page.request.format
                    );
                    frame.render_widget(
                        Paragraph::new(Line::styled(
                            about,
                            theme::muted().add_modifier(Modifier::ITALIC),
                        )),
                        line,
                    );
                    draw_prose(frame, text, &page.text, scroll, app.reading_width, None);
                }
                (None, call_state) => {
                    let cancel = app.keys.label_of(Context::Form, Action::Cancel, "Esc");
                    let lines = match call_state {
                        CallState::Idle => vec![Line::styled("Cancelled.", theme::dim())],
                        other => call::lines(other, app.now, cancel),
                    };
                    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
                }
            }
        }
        PageView::Links => {
            if let Some(page) = state.links_page() {
                draw_link_list(frame, inner, &page.links, state.link_selected);
            }
        }
        PageView::Diff => match &state.diff {
            DiffState::Ready(diff) => {
                let [line, text] = split_first_line(inner);
                let mut about = vec![Span::styled(
                    format!("{} → {}", diff.left, diff.right),
                    theme::title(),
                )];
                // More than two pages: say how to choose another pair, before the counts
                // that a narrow screen cuts.
                if state.pages_in() > 2 {
                    let key = app.keys.label_of(Context::Page, Action::NextDiffPair, "p");
                    about.extend([
                        Span::styled(" · ", theme::muted()),
                        Span::styled(key, theme::key_hint()),
                        Span::styled(" other pair", theme::muted()),
                    ]);
                }
                about.push(Span::styled(
                    format!(
                        " · {} words only in {} [-…-] · {} only in {} {{+…+}}",
                        diff.removed, diff.left, diff.added, diff.right
                    ),
                    theme::muted(),
                ));
                frame.render_widget(Paragraph::new(Line::from(about)), line);
                draw_prose(frame, text, &diff.text, scroll, app.reading_width, None);
            }
            DiffState::Running(_) => frame.render_widget(
                Paragraph::new(Line::styled("Comparing the two pages…", theme::dim())),
                inner,
            ),
            DiffState::None => {}
        },
    }
}

/// One line on top (what is shown), the rest below.
fn split_first_line(area: Rect) -> [Rect; 2] {
    let line = Rect {
        height: 1.min(area.height),
        ..area
    };
    let rest = Rect {
        y: area.y + line.height,
        height: area.height - line.height,
        ..area
    };
    [line, rest]
}

fn draw_empty(app: &App, frame: &mut Frame, area: Rect) {
    let key = |context, action| Span::styled(app.key_of(context, action), theme::key_hint());
    let lines = vec![
        Line::styled("Any page, as a device and a place see it.", theme::title()),
        Line::raw(""),
        Line::from(vec![
            Span::raw("Type an address above and press "),
            key(Context::Editing, Action::Send),
            Span::raw(". "),
            key(Context::Page, Action::PickCompareCountries),
            Span::raw(
                " adds a country to fetch it from too; the Diff view then shows what differs.",
            ),
        ]),
        hints::line(
            app,
            &[
                (Context::Page, Action::PickDevice, "device"),
                (Context::Form, Action::PickCountry, "country"),
                (Context::Form, Action::PickSubdivision, "subdivision"),
                (Context::Form, Action::PickCity, "city"),
                (Context::Page, Action::CycleDifficulty, "difficulty"),
                (Context::Form, Action::CycleFormat, "format"),
                (Context::Form, Action::ToggleAsync, "async"),
                (Context::Normal, Action::Help, "all keys"),
            ],
        ),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}
