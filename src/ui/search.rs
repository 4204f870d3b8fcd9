//! The Search tab: terms, settings row, header, the results list and the detail pane.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use unicode_width::UnicodeWidthStr;

use crate::api::{ResultKind, SearchResult};
use crate::app::App;
use crate::app::keymap::{Action, Context};
use crate::app::search::overview;
use crate::app::search::{PageState, SearchFocus, SearchState, TERMS_LIMIT, search_areas, text_of};
use crate::present::search_page::{EntryKind, OverviewPane, SearchView, stars, summarize_json};
use crate::sanitize::one_line;

use super::fit::{fit_line, fit_str as fit, wrap_str as wrap_lines};
use super::text_view::{draw_prose, draw_scrollbar, list_offset};
use super::{call, form, hints, pane, theme};

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let search = &app.search;
    let areas = search_areas(search, body);
    draw_terms(app, search, frame, areas.terms);
    let cursor = (search.focus == SearchFocus::Settings).then_some(search.setting_cursor);
    form::draw_row(frame, areas.settings, &search.settings.cells(), cursor);
    draw_header(app, frame, areas.header, areas.overview.is_empty());
    match &search.page {
        Some(page) => {
            draw_overview(
                page,
                app.keys
                    .label_of(Context::Search, Action::ToggleOverview, "A"),
                search.focus == SearchFocus::Overview,
                frame,
                areas.overview,
            );
            if !areas.list.is_empty() {
                draw_main(page, search, frame, areas.list);
            }
            if !areas.detail.is_empty() {
                draw_detail(
                    page,
                    search.focus == SearchFocus::Detail,
                    frame,
                    areas.detail,
                );
            }
        }
        None => draw_empty(app, frame, areas.list),
    }
}

/// The AI overview pane: one line when folded; when open, the overview (or why there is
/// none), its sources and the related questions, the picked one marked while focused.
fn draw_overview(page: &PageState, fold_key: &str, focused: bool, frame: &mut Frame, area: Rect) {
    if area.is_empty() {
        return;
    }
    let prepared = &page.prepared;
    if !page.overview.open {
        let summary = overview::summary(prepared);
        let more = overview::has_more(prepared);
        let hint = if more {
            format!("  {fold_key} opens")
        } else {
            String::new()
        };
        let room = usize::from(area.width).saturating_sub(2 + hint.chars().count());
        let line = Line::from(vec![
            Span::styled(if more { "▸ " } else { "  " }, theme::accent()),
            Span::styled(crate::api::request::shorten(&summary, room), theme::muted()),
            Span::styled(hint, theme::dim()),
        ]);
        frame.render_widget(Paragraph::new(line), area);
        return;
    }
    let title = Line::from(vec![
        Span::styled(" AI overview ", theme::title()),
        Span::styled(format!("{fold_key} folds "), theme::dim()),
    ]);
    let block = pane(title, focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let lines = overview_lines(page, focused, inner.width);
    let height = usize::from(inner.height);
    let scroll = page.overview.scroll.min(lines.len().saturating_sub(height));
    let shown: Vec<Line<'static>> = lines.iter().skip(scroll).take(height).cloned().collect();
    frame.render_widget(Paragraph::new(shown), inner);
    // On the right border between its corners: the text keeps the inner width the tab's
    // scrolling counts with, and the pane keeps its corners.
    let border = Rect {
        y: inner.y,
        height: inner.height,
        ..area
    };
    draw_scrollbar(frame, border, lines.len(), scroll, height);
}

/// The open pane's lines, in the order `overview::line_count` counts them.
fn overview_lines(page: &PageState, focused: bool, width: u16) -> Vec<Line<'static>> {
    let prepared = &page.prepared;
    let mut lines: Vec<Line<'static>> = match &prepared.overview {
        OverviewPane::Found { text, .. } => text.lines(width).to_vec(),
        other => vec![Line::styled(
            other.reason().unwrap_or_default(),
            theme::muted().add_modifier(Modifier::ITALIC),
        )],
    };
    let mut item = 0;
    let mut pickable = |label: String, lines: &mut Vec<Line<'static>>| {
        let picked = focused && item == page.overview.picked;
        item += 1;
        lines.push(if picked {
            Line::from(vec![
                Span::raw(theme::SELECTED_MARK),
                Span::styled(label, theme::selected()),
            ])
        } else {
            Line::from(vec![Span::raw("  "), Span::raw(label)])
        });
    };
    if let OverviewPane::Found { overview, .. } = &prepared.overview
        && !overview.sources.is_empty()
    {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Sources", theme::title()));
        for (i, source) in overview.sources.iter().enumerate() {
            let title = if source.title.is_empty() {
                &source.url
            } else {
                &source.title
            };
            let label = format!(
                "[{}] {} — {}",
                i + 1,
                one_line(title),
                one_line(&source.url)
            );
            pickable(label, &mut lines);
        }
    }
    if !prepared.related_questions.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Related questions", theme::title()));
        for question in &prepared.related_questions {
            pickable(one_line(&question.question).into_owned(), &mut lines);
        }
    }
    lines
}

fn draw_terms(app: &App, search: &SearchState, frame: &mut Frame, area: Rect) {
    form::draw_prompt_box(
        frame,
        area,
        &search.terms,
        form::PromptBox {
            title: " Search terms ",
            count: search.terms_chars(),
            limit: TERMS_LIMIT,
            focused: search.focus == SearchFocus::Terms,
            hint: &format!(
                "Press {} (or click) to type search terms.",
                app.key_of(Context::Form, Action::EditPrompt)
            ),
        },
    );
}

/// The call's state while it runs or after it failed; else what the service reported.
/// `with_overview`: the overview pane is folded into the header (a short screen).
fn draw_header(app: &App, frame: &mut Frame, area: Rect, with_overview: bool) {
    if area.is_empty() {
        return;
    }
    let search = &app.search;
    let line = match (&search.call, &search.page) {
        (crate::app::call::CallState::Idle, Some(page)) => Line::styled(
            {
                let mut text = page.prepared.header.describe();
                if with_overview {
                    text = format!("{text} · {}", overview::short_summary(&page.prepared));
                }
                // Folded to one line (a short screen): cut with an ellipsis, not mid-word.
                if area.height == 1 {
                    crate::api::request::shorten(&text, usize::from(area.width))
                } else {
                    text
                }
            },
            theme::muted().add_modifier(Modifier::ITALIC),
        ),
        _ => Line::raw(""),
    };
    frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: true }), area);
}

fn draw_empty(app: &App, frame: &mut Frame, area: Rect) {
    let search = &app.search;
    let block = pane(
        Line::styled(" Results ", theme::title()),
        search.focus == SearchFocus::Results,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let cancel = app.keys.label_of(Context::Form, Action::Cancel, "Esc");
    let mut lines = call::lines(&search.call, app.now, cancel);
    if lines.is_empty() {
        lines = vec![
            Line::styled(
                "Search as seen from a place, a device and an IP type.",
                theme::title(),
            ),
            Line::raw(""),
            Line::from(vec![
                Span::raw("Type terms above and press "),
                Span::styled(
                    app.key_of(Context::Editing, Action::Send),
                    theme::key_hint(),
                ),
                Span::raw(". "),
                Span::styled(
                    app.key_of(Context::Global, Action::FocusNext),
                    theme::key_hint(),
                ),
                Span::raw(
                    " reaches the settings row: pages, size, offset, IP, device, location, format…",
                ),
            ]),
            hints::line(
                app,
                &[
                    (Context::Form, Action::PickCountry, "country"),
                    (Context::Form, Action::PickSubdivision, "subdivision"),
                    (Context::Form, Action::PickCity, "city"),
                    (Context::Search, Action::PickDevice, "device"),
                    (Context::Search, Action::CycleIp, "IP type"),
                    (Context::Form, Action::CycleFormat, "format"),
                    (Context::Normal, Action::Help, "all keys"),
                ],
            ),
        ];
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}

fn view_tabs(page: &PageState) -> Line<'static> {
    let titles: Vec<(String, bool)> = page
        .prepared
        .views
        .iter()
        .map(|view| {
            let label = match view {
                SearchView::Results => {
                    let (shown, total) = page.shown_of_total();
                    if page.filter.is_empty() {
                        format!("Results {total}")
                    } else {
                        format!("Results {shown} of {total}")
                    }
                }
                SearchView::Links => format!(
                    "Links {}",
                    page.prepared.html.as_ref().map_or(0, |h| h.links.len())
                ),
                other => other.title().to_string(),
            };
            (label, *view == page.view)
        })
        .collect();
    form::view_tabs(&titles)
}

fn draw_main(page: &PageState, search: &SearchState, frame: &mut Frame, area: Rect) {
    let focused = matches!(search.focus, SearchFocus::Results);
    let block = pane(view_tabs(page), focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match page.view {
        SearchView::Results => draw_results(page, frame, inner),
        SearchView::Links => draw_links(page, frame, inner),
        view => {
            if let Some(body) = text_of(&page.prepared, view) {
                let scroll = page.text_scroll.get(&view).copied().unwrap_or(0);
                draw_prose(frame, inner, body, scroll, 0, search.find.as_ref());
            }
        }
    }
}

fn draw_results(page: &PageState, frame: &mut Frame, area: Rect) {
    let mut area = area;
    if page.filtering || !page.filter.is_empty() {
        let (shown, total) = page.shown_of_total();
        let mut spans = vec![Span::styled("filter › ", theme::accent())];
        spans.extend(super::field_spans(
            &page.filter,
            page.filter_edit.cursor_in(&page.filter),
            page.filtering,
        ));
        spans.push(Span::styled(format!("  {shown} of {total}"), theme::dim()));
        frame.render_widget(
            Paragraph::new(Line::from(spans)),
            Rect { height: 1, ..area },
        );
        area.y += 1;
        area.height = area.height.saturating_sub(1);
    }
    if page.visible.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled(
                if page.prepared.results.is_empty() {
                    "The service found no results."
                } else {
                    "Nothing matches the filter; Esc clears it."
                },
                theme::dim(),
            )),
            area,
        );
        return;
    }
    let height = area.height as usize;
    let scroll = page.scroll.min(page.total_rows().saturating_sub(height));
    // The first entry that reaches the screen, found by bisection over the row offsets.
    let first = page
        .offsets
        .partition_point(|&row| (row as usize) <= scroll)
        .saturating_sub(1);
    let text_width = area.width.saturating_sub(1);
    // Rows of the first entry above the screen are dropped after building it.
    let skip = scroll - page.offsets[first] as usize;
    let mut lines: Vec<Line> = Vec::with_capacity(height + skip);
    for (pos, &entry_index) in page.visible.iter().enumerate().skip(first) {
        if lines.len() >= skip + height {
            break;
        }
        lines.extend(entry_lines(
            page,
            entry_index,
            pos == page.selected,
            text_width,
        ));
    }
    let shown: Vec<Line> = lines.into_iter().skip(skip).take(height).collect();
    frame.render_widget(
        Paragraph::new(shown),
        Rect {
            width: text_width,
            ..area
        },
    );
    draw_scrollbar(frame, area, page.total_rows(), scroll, height);
}

/// The short badge of a result's type.
fn badge(kind: &ResultKind) -> (&'static str, Style) {
    match kind {
        ResultKind::Organic => ("WEB ", theme::accent()),
        ResultKind::OrganicWithSitelinks => ("WEB+", theme::accent()),
        ResultKind::AlsoAsked => ("ASK ", theme::result_question()),
        ResultKind::TopStory => ("NEWS", theme::result_news()),
        ResultKind::AlsoSearched => ("REL ", theme::muted()),
        ResultKind::Other(_) => ("??? ", theme::key_hint()),
    }
}

/// The rows of one entry, exactly `entry.height` of them.
fn entry_lines(page: &PageState, index: usize, selected: bool, width: u16) -> Vec<Line<'static>> {
    let prepared = &page.prepared;
    let entry = &prepared.entries[index];
    let width = width as usize;
    let mark = |s: Style| if selected { theme::selected() } else { s };
    let mut out = match &entry.kind {
        EntryKind::Page(n) => vec![Line::styled(
            fit(
                &format!("── Page {n} ──────────────────────────────"),
                width,
            ),
            theme::title(),
        )],
        EntryKind::Section(name) => vec![Line::styled(format!("   {name}"), theme::dim())],
        EntryKind::Result(r) => result_lines(&prepared.results[*r], selected, width),
        EntryKind::Sitelink { result, link } => {
            let sitelink = &prepared.results[*result].sitelinks[*link];
            let title = fit(&sitelink.title, (width / 3).max(12));
            let room = width.saturating_sub(12 + title.width() + 2);
            vec![Line::from(vec![
                Span::raw("          "),
                Span::styled("↳ ", theme::dim()),
                Span::styled(title, mark(Style::default())),
                Span::styled(format!("  {}", fit(&sitelink.url, room)), theme::dim()),
            ])]
        }
        EntryKind::Image { result, image } => {
            let image = &prepared.results[*result].images[*image];
            let source = if image.source.starts_with("data:") {
                "[inline image]".to_string()
            } else {
                image.source.clone()
            };
            let alt = if image.alt.is_empty() {
                "image"
            } else {
                &image.alt
            };
            vec![Line::styled(
                fit(&format!("          ▣ {alt}  {source}"), width),
                theme::dim(),
            )]
        }
    };
    out.resize(entry.height as usize, Line::raw(""));
    out
}

fn result_lines(result: &SearchResult, selected: bool, width: usize) -> Vec<Line<'static>> {
    let (badge_text, badge_style) = badge(&result.kind);
    let title_style = if selected {
        theme::selected()
    } else {
        theme::title()
    };
    let indent = "          ";
    let body_width = width.saturating_sub(indent.len());
    let head = |title: &str, after: String| {
        let room = width.saturating_sub(11 + after.width());
        Line::from(vec![
            Span::styled(format!("{:>4} ", result.position), theme::dim()),
            Span::styled(badge_text, badge_style),
            Span::raw(" "),
            Span::styled(fit(title, room.max(8)), title_style),
            Span::styled(after, theme::muted()),
        ])
    };
    match &result.kind {
        ResultKind::Organic | ResultKind::OrganicWithSitelinks => {
            let site = if result.site.is_empty() {
                String::new()
            } else {
                format!(" — {}", result.site)
            };
            let mut second = vec![
                Span::raw(indent),
                Span::styled(
                    fit(
                        if result.visible_url.is_empty() {
                            &result.url
                        } else {
                            &result.visible_url
                        },
                        body_width.saturating_sub(30),
                    ),
                    theme::link(),
                ),
            ];
            if let Some(date) = &result.date {
                second.push(Span::styled(format!(" · {date}"), theme::dim()));
            }
            if let Some(rating) = result.rating {
                second.push(Span::styled(
                    format!(" · {}", stars(rating, result.votes)),
                    theme::rating(),
                ));
            }
            let mut lines = vec![head(&result.title, site), Line::from(second)];
            if !result.snippet.is_empty() {
                for text in wrap_lines(&result.snippet, body_width, 2) {
                    lines.push(Line::from(vec![Span::raw(indent), Span::raw(text)]));
                }
            }
            lines
        }
        ResultKind::AlsoAsked => {
            let mut lines = vec![head(&result.question, String::new())];
            if let Some(answer) = &result.answer {
                if !answer.description.is_empty() {
                    lines.push(Line::from(vec![
                        Span::raw(indent),
                        Span::raw(fit(&answer.description, body_width)),
                    ]));
                }
                lines.push(Line::from(vec![
                    Span::raw(indent),
                    Span::styled(
                        fit(&format!("{} · {}", answer.site, answer.url), body_width),
                        theme::dim(),
                    ),
                ]));
            }
            lines
        }
        ResultKind::TopStory => {
            let date = result.date.as_deref().unwrap_or("");
            vec![
                head(&result.headline, String::new()),
                Line::from(vec![
                    Span::raw(indent),
                    Span::styled(
                        fit(&format!("{} · {date}", result.publisher), body_width),
                        theme::dim(),
                    ),
                ]),
            ]
        }
        ResultKind::AlsoSearched => vec![head(&result.query, String::new())],
        ResultKind::Other(name) => {
            let summary = result.raw.as_ref().map(summarize_json).unwrap_or_default();
            vec![
                head(&format!("[{name}]"), String::new()),
                Line::from(vec![
                    Span::raw(indent),
                    Span::styled(fit(&summary, body_width), theme::dim()),
                ]),
            ]
        }
    }
}

fn draw_links(page: &PageState, frame: &mut Frame, area: Rect) {
    if let Some(html) = &page.prepared.html {
        draw_link_list(frame, area, &html.links, page.link_selected);
    }
}

/// A page's links, numbered, the selected one highlighted (Search's Links view, the Page tab).
pub(super) fn draw_link_list(
    frame: &mut Frame,
    area: Rect,
    links: &[crate::render::Link],
    selected: usize,
) {
    if links.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled("The page holds no links.", theme::dim())),
            area,
        );
        return;
    }
    let height = area.height as usize;
    let offset = list_offset(selected, height);
    let lines: Vec<Line> = links
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, link)| {
            let style = if i == selected {
                theme::selected()
            } else {
                Style::default()
            };
            let line = Line::from(vec![
                Span::styled(format!("{:>4}. ", i + 1), theme::dim()),
                Span::styled(fit(&link.text, 40), style),
                Span::styled(format!("  {}", link.url), theme::link()),
            ]);
            // The last column is the scrollbar's: a long URL ends in `…` before it.
            fit_line(line, area.width.saturating_sub(1))
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
    draw_scrollbar(frame, area, links.len(), offset, height);
}

/// Everything about the selected result: full text, URL, every sitelink and image.
fn draw_detail(page: &PageState, focused: bool, frame: &mut Frame, area: Rect) {
    let block = pane(Line::styled(" Detail ", theme::title()), focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(entry) = page.selected_entry() else {
        return;
    };
    let Some(r) = entry.result() else {
        return;
    };
    let result = &page.prepared.results[r];
    let label = |k: &'static str| Span::styled(format!("{k:<10}"), theme::dim());
    let mut lines = vec![Line::styled(result.heading().to_string(), theme::title())];
    // A selected sitelink comes first: it is what o opens and y copies.
    if let EntryKind::Sitelink { link, .. } = entry.kind {
        let sitelink = &result.sitelinks[link];
        lines.push(Line::from(vec![
            label("sitelink"),
            Span::styled(sitelink.title.clone(), theme::selected()),
        ]));
        lines.push(Line::from(vec![
            label("  url"),
            Span::styled(sitelink.url.clone(), theme::link()),
        ]));
    }
    lines.extend([
        Line::raw(""),
        Line::from(vec![
            label("type"),
            Span::raw(result.kind.type_name().to_string()),
        ]),
        Line::from(vec![
            label("place"),
            Span::raw(format!(
                "page {} · {} · feature {} · position {}",
                result.page, result.section, result.feature, result.position
            )),
        ]),
    ]);
    let url = result.target_url();
    if !url.is_empty() {
        lines.push(Line::from(vec![
            label("url"),
            Span::styled(url.to_string(), theme::link()),
        ]));
    }
    for (name, value) in [
        ("site", result.site.as_str()),
        ("shown as", result.visible_url.as_str()),
        ("publisher", result.publisher.as_str()),
        ("query", result.query.as_str()),
    ] {
        if !value.is_empty() && value != result.heading() {
            lines.push(Line::from(vec![label(name), Span::raw(value.to_string())]));
        }
    }
    if let Some(date) = &result.date {
        lines.push(Line::from(vec![label("date"), Span::raw(date.clone())]));
    }
    if let Some(rating) = result.rating {
        lines.push(Line::from(vec![
            label("rating"),
            Span::raw(stars(rating, result.votes)),
        ]));
    }
    if !result.snippet.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::raw(result.snippet.clone()));
    }
    if let Some(answer) = &result.answer {
        lines.push(Line::raw(""));
        if let Some(heading) = &answer.heading {
            lines.push(Line::styled(heading.clone(), theme::title()));
        }
        lines.push(Line::raw(answer.description.clone()));
        lines.push(Line::from(vec![
            label("source"),
            Span::raw(format!("{} — {}", answer.title, answer.site)),
        ]));
        lines.push(Line::from(vec![
            label("url"),
            Span::styled(answer.url.clone(), theme::link()),
        ]));
        if let Some(date) = &answer.date {
            lines.push(Line::from(vec![label("date"), Span::raw(date.clone())]));
        }
    }
    if !result.sitelinks.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!("Sitelinks ({})", result.sitelinks.len()),
            theme::title(),
        ));
        let chosen = match entry.kind {
            EntryKind::Sitelink { link, .. } => Some(link),
            _ => None,
        };
        for (i, link) in result.sitelinks.iter().enumerate() {
            let style = if chosen == Some(i) {
                theme::selected()
            } else {
                Style::default()
            };
            lines.push(Line::from(vec![Span::styled(
                format!("↳ {}", link.title),
                style,
            )]));
            lines.push(Line::from(vec![
                Span::raw("  "),
                Span::styled(link.url.clone(), theme::link()),
            ]));
        }
    }
    if !result.images.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!("Images ({})", result.images.len()),
            theme::title(),
        ));
        for image in &result.images {
            let source = if image.source.starts_with("data:") {
                "[inline image]".to_string()
            } else {
                image.source.clone()
            };
            lines.push(Line::raw(format!("▣ {} — {source}", image.alt)));
        }
    }
    if let Some(raw) = &result.raw {
        lines.push(Line::raw(""));
        lines.push(Line::styled("As received", theme::title()));
        let pretty = serde_json::to_string_pretty(raw).unwrap_or_default();
        lines.extend(
            pretty
                .lines()
                .map(|l| Line::styled(l.to_string(), theme::muted())),
        );
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((page.detail_scroll.min(u16::MAX as usize) as u16, 0)),
        inner,
    );
}
