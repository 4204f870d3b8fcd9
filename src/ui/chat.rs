//! The Chat tab: prompt, settings row, answer pane.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::analysis::stance::Stance;
use crate::api::request::PROMPT_MAX_CHARS;
use crate::app::App;
use crate::app::chat::{AnswerState, ChatFocus, ChatState, chat_areas};
use crate::app::keymap::{Action, Context};
use crate::app::text_search::mark_ranges;
use crate::present::answer::{AnswerView, SourceOrigin};

use super::fit::fit_line;
use super::text_view::{draw_marked_prose, draw_prose, draw_scrollbar, list_offset, restyled};
use super::{call, form, hints, theme};

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let chat = &app.chat;
    let areas = chat_areas(chat, body);
    draw_prompt(app, chat, frame, areas.prompt);
    let cursor = (chat.focus == ChatFocus::Settings).then_some(chat.setting_cursor);
    form::draw_row(frame, areas.settings, &chat.settings.cells(), cursor);
    draw_answer(app, frame, areas.answer);
    if app.brands_pane.open {
        super::brands::draw(app, frame, areas.answer);
    }
}

fn draw_prompt(app: &App, chat: &ChatState, frame: &mut Frame, area: Rect) {
    let hint = format!(
        "Press {} (or click) to type a prompt; {} sends.",
        app.key_of(Context::Form, Action::EditPrompt),
        app.key_of(Context::Editing, Action::Send)
    );
    form::draw_prompt_box(
        frame,
        area,
        &chat.prompt,
        form::PromptBox {
            title: " Prompt ",
            count: chat.prompt_chars(),
            limit: PROMPT_MAX_CHARS,
            focused: chat.focus == ChatFocus::Prompt,
            hint: &hint,
        },
    );
}

fn view_tabs(answer: &AnswerState) -> Line<'static> {
    let titles: Vec<(String, bool)> = answer
        .prepared
        .views
        .iter()
        .map(|view| {
            let count = match view {
                AnswerView::Sources => format!(" {}", answer.prepared.sources.len()),
                AnswerView::Fanouts => format!(" {}", answer.prepared.fanouts.len()),
                AnswerView::Ads => format!(" {}", answer.prepared.ad_count),
                AnswerView::Mentions => format!(
                    " {}",
                    answer
                        .mentions
                        .iter()
                        .filter(|m| m.position.is_some())
                        .count()
                ),
                _ => String::new(),
            };
            (format!("{}{count}", view.title()), *view == answer.view)
        })
        .collect();
    form::view_tabs(&titles)
}

fn draw_answer(app: &App, frame: &mut Frame, area: Rect) {
    let chat = &app.chat;
    let focused = chat.focus == ChatFocus::Answer;
    let title = match &chat.answer {
        Some(answer) => view_tabs(answer),
        None => Line::styled(" Answer ", theme::title()),
    };
    let cancel = app.keys.label_of(Context::Form, Action::Cancel, "Esc");
    let (rest, quiet) =
        call::draw_call_pane(frame, area, title, focused, &chat.call, app.now, cancel);

    let Some(answer) = &chat.answer else {
        if quiet {
            draw_intro(app, frame, rest);
        }
        return;
    };
    if rest.height < 2 {
        return;
    }
    let [header_area, content] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(rest);
    frame.render_widget(
        Paragraph::new(Line::styled(
            answer.prepared.header.describe(),
            theme::muted().add_modifier(Modifier::ITALIC),
        )),
        header_area,
    );
    let view = answer.view;
    let reading_width = app.reading_width;
    match view {
        AnswerView::Sources => draw_sources(answer, frame, content),
        AnswerView::Fanouts => draw_fanouts(app, answer, frame, content),
        AnswerView::Mentions => draw_mentions(app, answer, frame, content),
        _ => match answer.prepared.body_of(view) {
            // The tracked brands are marked in the answer itself.
            Some(body) if !body.is_empty() && view == AnswerView::Answer => draw_marked_prose(
                frame,
                content,
                body,
                answer.scroll_of(view),
                reading_width,
                chat.find.as_ref(),
                &|line| mark_brands(line, &chat.marks, &answer.cautioned_marks),
            ),
            Some(body) if !body.is_empty() => draw_prose(
                frame,
                content,
                body,
                answer.scroll_of(view),
                reading_width,
                chat.find.as_ref(),
            ),
            _ => frame.render_widget(
                Paragraph::new(Line::styled(empty_text(view), theme::dim())),
                content,
            ),
        },
    }
}

fn empty_text(view: AnswerView) -> &'static str {
    match view {
        AnswerView::Ads => "No ads came with this answer.",
        AnswerView::Prompt => "The service sent no prompt section.",
        _ => "This part of the answer is empty.",
    }
}

fn draw_intro(app: &App, frame: &mut Frame, area: Rect) {
    let key = |context, action| Span::styled(app.key_of(context, action), theme::key_hint());
    let lines = vec![
        Line::styled(
            "Ask a chatbot as seen from a model, device and place.",
            theme::title(),
        ),
        Line::raw(""),
        Line::from(vec![
            Span::raw("Type a prompt above and press "),
            key(Context::Editing, Action::Send),
            Span::raw(". "),
            key(Context::Editing, Action::Back),
            Span::raw(" leaves the prompt; then single keys act:"),
        ]),
        hints::line(
            app,
            &[
                (Context::Chat, Action::PickModel, "model"),
                (Context::Chat, Action::PickDevice, "device"),
                (Context::Form, Action::PickCountry, "country"),
                (Context::Form, Action::PickSubdivision, "subdivision"),
                (Context::Form, Action::PickCity, "city"),
                (Context::Form, Action::CycleFormat, "format"),
                (Context::Form, Action::ToggleCache, "cache"),
            ],
        ),
        hints::line(
            app,
            &[
                (Context::Form, Action::EditPrompt, "back to the prompt"),
                (Context::Global, Action::FocusNext, "next pane"),
                (Context::Normal, Action::Help, "all keys"),
                (Context::Normal, Action::Quit, "quit"),
            ],
        ),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}

/// Rows each source takes in the Sources view.
const SOURCE_ROWS: usize = 3;

/// Each source as its card reads: the title (else the site), then the site and domain and
/// where it was found, then the snippet (else the address).
fn draw_sources(answer: &AnswerState, frame: &mut Frame, area: Rect) {
    let sources = &answer.prepared.sources;
    if sources.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled("This answer cites no sources.", theme::dim())),
            area,
        );
        return;
    }
    let selected = answer.selected_of(AnswerView::Sources);
    let per_page = (area.height as usize / SOURCE_ROWS).max(1);
    let offset = list_offset(selected, per_page);
    // The scrollbar takes the last column when the list is longer than the pane.
    let width = match sources.len() > per_page {
        true => area.width.saturating_sub(1),
        false => area.width,
    };
    let indent = "     ";
    let mut lines = Vec::with_capacity(per_page * SOURCE_ROWS);
    for (i, source) in sources.iter().enumerate().skip(offset).take(per_page) {
        let marker = match source.origin {
            SourceOrigin::Sources => "source",
            SourceOrigin::Citation => "cited",
            SourceOrigin::Page => "link",
        };
        let headline_style = if i == selected {
            theme::selected()
        } else {
            theme::title()
        };
        lines.push(fit_line(
            Line::from(vec![
                Span::styled(format!("{:>3}. ", i + 1), theme::dim()),
                Span::styled(source.headline().to_string(), headline_style),
            ]),
            width,
        ));
        lines.push(fit_line(
            Line::from(vec![
                Span::raw(indent),
                Span::styled(format!("{} · {marker}", source.byline()), theme::muted()),
            ]),
            width,
        ));
        let last = match source.snippet.is_empty() {
            true => Span::styled(source.url.clone(), theme::link()),
            false => Span::styled(source.snippet.clone(), theme::dim()),
        };
        lines.push(fit_line(Line::from(vec![Span::raw(indent), last]), width));
    }
    frame.render_widget(Paragraph::new(lines), area);
    draw_scrollbar(frame, area, sources.len(), offset, per_page);
}

/// A tracked brand where it is named: bold and underlined, so it shows without colour too.
pub(super) fn brand_style() -> Style {
    theme::brand()
}

/// A tracked brand the answer cautions against: red, and in italics besides bold and
/// underlined, so it shows without colour too.
fn cautioned_style() -> Style {
    theme::cautioned()
}

/// The line with every tracked brand (name or alias, as a whole word) marked, and the brands
/// the answer cautions against marked apart.
fn mark_brands(line: Line<'static>, marks: &[String], cautioned: &[String]) -> Line<'static> {
    if marks.is_empty() {
        return line;
    }
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let ranges = mark_ranges(&text, marks);
    let line = restyled(&line, &ranges, |_, style| style.patch(brand_style()));
    if cautioned.is_empty() {
        return line;
    }
    let ranges = mark_ranges(&text, cautioned);
    restyled(&line, &ranges, |_, style| style.patch(cautioned_style()))
}

/// The tracked brands the answer names, in the answer's order: position, count,
/// whether a source on its domains is cited, and the sentence of the first mention; then
/// those it does not name.
/// The fan-out coverage: per brand its share of the fanouts it ranks for, the cited sites
/// that rank, then each fanout with the brands' ranks (or its search's state).
fn draw_coverage(
    app: &App,
    answer: &AnswerState,
    coverage: &crate::app::coverage::FanoutCoverage,
    frame: &mut Frame,
    area: Rect,
) {
    let mut head: Vec<Line> = Vec::new();
    match &coverage.report {
        None => head.push(Line::styled(
            format!(
                "Searching the {} fanouts from the answer's place… {} back",
                coverage.searches.len(),
                coverage.searches.len() - coverage.running()
            ),
            theme::title(),
        )),
        Some(report) => {
            head.push(Line::styled(
                format!(
                    "Who ranks for the fanouts of {} from {} (top {})",
                    report.model, report.place, report.top
                ),
                theme::title(),
            ));
            let width = report
                .brands
                .iter()
                .map(|b| b.brand.chars().count())
                .max()
                .unwrap_or(0);
            for b in &report.brands {
                let named = if b.in_answer {
                    Span::styled(" · in the answer", theme::ok())
                } else {
                    Span::styled(" · not in the answer", theme::dim())
                };
                head.push(Line::from(vec![
                    Span::styled(format!("  {:<width$}  ", b.brand), brand_style()),
                    Span::raw(b.coverage_text()),
                    named,
                ]));
            }
            if report.brands.is_empty() {
                head.push(Line::styled(
                    format!(
                        "  No brands are tracked: {} adds them, and their ranks show here.",
                        app.key_of(Context::Chat, Action::OpenBrands)
                    ),
                    theme::dim(),
                ));
            }
            let cited: Vec<String> = report
                .cited
                .iter()
                .filter(|c| c.fanouts > 0)
                .map(|c| format!("{} {}", c.domain, c.fanouts))
                .collect();
            head.push(Line::styled(
                if cited.is_empty() {
                    "  None of the answer's cited sites ranks for its fanouts.".to_string()
                } else {
                    format!("  Cited sites ranking (fanouts): {}", cited.join(" · "))
                },
                theme::muted(),
            ));
        }
    }
    head.push(Line::raw(""));
    let head_height = u16::try_from(head.len())
        .unwrap_or(u16::MAX)
        .min(area.height);
    let [head_area, rows_area] =
        Layout::vertical([Constraint::Length(head_height), Constraint::Min(0)]).areas(area);
    // A line too long for the pane ends in "…" at a word.
    let head: Vec<Line> = head
        .into_iter()
        .map(|line| super::fit::fit_line(line, area.width))
        .collect();
    frame.render_widget(Paragraph::new(head), head_area);
    let selected = answer.selected_of(AnswerView::Fanouts);
    let height = rows_area.height as usize;
    let offset = list_offset(selected, height);
    let lines: Vec<Line> = answer
        .prepared
        .fanouts
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, query)| {
            let style = if i == selected {
                theme::selected()
            } else {
                Style::default()
            };
            let mut spans = vec![
                Span::styled(format!("{:>3}. ", i + 1), theme::dim()),
                Span::styled(query.clone(), style),
            ];
            let search = coverage.searches.get(i);
            let row = coverage.report.as_ref().and_then(|r| r.rows.get(i));
            match (search.map(|s| &s.call), row) {
                (Some(crate::app::call::CallState::Running { started, .. }), _) => {
                    spans.push(Span::styled(
                        format!(
                            "  {} searching",
                            crate::app::call::spinner_frame(*started, app.now)
                        ),
                        theme::accent(),
                    ));
                }
                (_, Some(row)) if row.error.is_some() => spans.push(Span::styled(
                    format!("  failed: {}", row.error.as_deref().unwrap_or_default()),
                    theme::error(),
                )),
                (_, Some(row)) => {
                    let report = coverage.report.as_ref();
                    let ranks: Vec<String> = report
                        .map(|r| &r.brands)
                        .into_iter()
                        .flatten()
                        .zip(&row.brands)
                        .filter(|(b, _)| b.has_domains)
                        .map(|(b, rank)| {
                            format!(
                                "{} {}",
                                b.brand,
                                rank.map_or("–".to_string(), |r| r.to_string())
                            )
                        })
                        .collect();
                    if !ranks.is_empty() {
                        spans.push(Span::styled(
                            format!("  {}", ranks.join(" · ")),
                            brand_style(),
                        ));
                    }
                    if let Some(first) = row.results.first() {
                        spans.push(Span::styled(
                            format!("  #1 {}", first.domain),
                            theme::muted(),
                        ));
                    }
                }
                _ => {}
            }
            super::fit::fit_line(Line::from(spans), rows_area.width)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), rows_area);
}

fn draw_mentions(app: &App, answer: &AnswerState, frame: &mut Frame, area: Rect) {
    let mentions = &answer.mentions;
    if app.brands.is_empty() {
        let lines = vec![
            Line::styled("No brands are tracked yet.", theme::dim()),
            Line::from(vec![
                Span::raw("Press "),
                Span::styled("b", theme::key_hint()),
                Span::raw(
                    " to add some, or to track names this answer puts forward; they are kept in vantage.toml.",
                ),
            ]),
        ];
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
        return;
    }
    let selected = answer.selected_of(AnswerView::Mentions);
    // Two rows per brand: what and how much, then the sentence.
    let per_page = (area.height as usize / 2).max(1);
    let offset = list_offset(selected, per_page);
    let named = mentions.iter().filter(|m| m.position.is_some()).count();
    let mut lines = Vec::with_capacity(per_page * 2);
    for (i, mention) in mentions.iter().enumerate().skip(offset).take(per_page) {
        let is_selected = i == selected;
        let mark = if is_selected {
            theme::SELECTED_MARK
        } else {
            "  "
        };
        let name_style = if is_selected {
            theme::selected()
        } else {
            brand_style()
        };
        match mention.position {
            Some(position) => {
                let count = crate::plural::count(mention.count as u64, "mention", "mentions");
                let cited = if mention.cited {
                    Span::styled("cited ✓", theme::ok())
                } else {
                    Span::styled("not cited", theme::dim())
                };
                let stance = match mention.stance {
                    Stance::Cautioned => Span::styled("cautioned !", theme::error()),
                    Stance::Recommended => Span::styled("recommended +", theme::ok()),
                    other => Span::styled(other.label(), theme::muted()),
                };
                // Where the answer's list puts it, when a list does ("item 3 of a list").
                let listed_at = mention
                    .rank
                    .map(|rank| format!(" · item {rank} of a list"))
                    .unwrap_or_default();
                lines.push(Line::from(vec![
                    Span::raw(mark),
                    Span::styled(format!("{position:>2}. "), theme::title()),
                    Span::styled(mention.brand.clone(), name_style),
                    Span::styled(format!("  {count} · "), theme::muted()),
                    stance,
                    Span::styled(format!("{listed_at} · "), theme::muted()),
                    cited,
                ]));
                lines.push(Line::from(vec![
                    Span::raw("      "),
                    Span::styled(
                        format!("“{}”", mention.sentence.as_deref().unwrap_or_default()),
                        theme::muted().add_modifier(Modifier::ITALIC),
                    ),
                ]));
            }
            None => {
                lines.push(Line::from(vec![
                    Span::raw(mark),
                    Span::styled(" –  ", theme::dim()),
                    Span::styled(
                        mention.brand.clone(),
                        if is_selected {
                            theme::selected()
                        } else {
                            theme::dim()
                        },
                    ),
                    Span::styled(
                        match mention.stance {
                            Stance::NotFound => {
                                "  not counted: the answer says it found nothing on it".to_string()
                            }
                            _ => format!("  {}", crate::analysis::mentions::NOT_NAMED),
                        },
                        theme::dim(),
                    ),
                ]));
                match (&mention.sentence, mention.stance) {
                    (Some(sentence), Stance::NotFound) => lines.push(Line::from(vec![
                        Span::raw("      "),
                        Span::styled(
                            format!("“{sentence}”"),
                            theme::dim().add_modifier(Modifier::ITALIC),
                        ),
                    ])),
                    _ => lines.push(Line::raw("")),
                }
            }
        }
    }
    if named == 0 {
        lines.insert(
            0,
            Line::styled(
                "This answer names none of the tracked brands.",
                theme::dim(),
            ),
        );
    }
    // A line the pane cannot hold ends in "…" at a word.
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|line| fit_line(line, area.width.saturating_sub(1)))
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
    draw_scrollbar(frame, area, mentions.len() * 2, offset * 2, per_page * 2);
}

fn draw_fanouts(app: &App, answer: &AnswerState, frame: &mut Frame, area: Rect) {
    if let Some(coverage) = &answer.coverage {
        return draw_coverage(app, answer, coverage, frame, area);
    }
    let fanouts = &answer.prepared.fanouts;
    if fanouts.is_empty() {
        let note = if answer.prepared.header.model.exposes_fanouts() {
            "The model searched nothing for this answer."
        } else {
            "Only ChatGPT exposes the queries it searched."
        };
        frame.render_widget(Paragraph::new(Line::styled(note, theme::dim())), area);
        return;
    }
    let selected = answer.selected_of(AnswerView::Fanouts);
    let [hint_area, area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(
        Paragraph::new(Line::styled(
            format!(
                "{} searches one in the Search tab · {} searches them all from the answer's place and shows who ranks",
                app.key_of(Context::AnswerList, Action::Accept),
                app.key_of(Context::Chat, Action::FanoutCoverage)
            ),
            theme::dim(),
        )),
        hint_area,
    );
    let height = area.height as usize;
    let offset = list_offset(selected, height);
    let lines: Vec<Line> = fanouts
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, q)| {
            let style = if i == selected {
                theme::selected()
            } else {
                ratatui::style::Style::default()
            };
            Line::from(vec![
                Span::styled(format!("{:>3}. ", i + 1), theme::dim()),
                Span::styled(q.clone(), style),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}
