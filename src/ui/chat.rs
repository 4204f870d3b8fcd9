//! The Chat tab: prompt, settings row, answer pane.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::api::request::PROMPT_MAX_CHARS;
use crate::app::App;
use crate::app::chat::{AnswerState, ChatFocus, ChatState, chat_areas};
use crate::app::keymap::{self, Action, Context};
use crate::present::answer::{AnswerView, SourceOrigin};

use super::text_view::{draw_prose, draw_scrollbar, list_offset};
use super::{call, form, theme};

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let chat = &app.chat;
    let areas = chat_areas(chat, body);
    draw_prompt(chat, frame, areas.prompt);
    let cursor = (chat.focus == ChatFocus::Settings).then_some(chat.setting_cursor);
    form::draw_row(frame, areas.settings, &chat.settings.cells(), cursor);
    draw_answer(app, frame, areas.answer);
}

fn draw_prompt(chat: &ChatState, frame: &mut Frame, area: Rect) {
    form::draw_prompt_box(
        frame,
        area,
        &chat.prompt,
        form::PromptBox {
            title: " Prompt ",
            count: chat.prompt_chars(),
            limit: PROMPT_MAX_CHARS,
            focused: chat.focus == ChatFocus::Prompt,
            hint: "Press i (or click) to type a prompt; Enter sends.",
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
    let cancel = keymap::label_of(Context::Form, Action::Cancel).unwrap_or("Esc");
    let (rest, quiet) =
        call::draw_call_pane(frame, area, title, focused, &chat.call, app.now, cancel);

    let Some(answer) = &chat.answer else {
        if quiet {
            draw_intro(frame, rest);
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
        AnswerView::Fanouts => draw_fanouts(answer, frame, content),
        _ => match answer.prepared.body_of(view) {
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

fn draw_intro(frame: &mut Frame, area: Rect) {
    let key = |k: &'static str| Span::styled(k, theme::key_hint());
    let lines = vec![
        Line::styled(
            "Ask a chatbot as seen from a model, device and place.",
            theme::title(),
        ),
        Line::raw(""),
        Line::from(vec![
            Span::raw("Type a prompt above and press "),
            key("Enter"),
            Span::raw(". "),
            key("Esc"),
            Span::raw(" leaves the prompt; then single keys act:"),
        ]),
        theme::hint_line(&[
            ("m", "model"),
            ("d", "device"),
            ("c", "country"),
            ("s", "subdivision"),
            ("t", "city"),
            ("f", "format"),
            ("x", "cache"),
        ]),
        theme::hint_line(&[
            ("i", "back to the prompt"),
            ("Tab", "next pane"),
            ("?", "all keys"),
            ("q", "quit"),
        ]),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}

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
    // Two rows per source: title and domain, then the URL.
    let per_page = (area.height as usize / 2).max(1);
    let offset = list_offset(selected, per_page);
    let mut lines = Vec::with_capacity(per_page * 2);
    for (i, source) in sources.iter().enumerate().skip(offset).take(per_page) {
        let marker = match source.origin {
            SourceOrigin::Sources => "source",
            SourceOrigin::Citation => "cited",
            SourceOrigin::Page => "link",
        };
        let is_selected = i == selected;
        let title_style = if is_selected {
            theme::selected()
        } else {
            theme::title()
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:>3}. ", i + 1), theme::dim()),
            Span::styled(source.title.clone(), title_style),
            Span::styled(format!("  {} · {marker}", source.domain), theme::muted()),
        ]));
        lines.push(Line::from(vec![
            Span::raw("     "),
            Span::styled(source.url.clone(), theme::link()),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), area);
    draw_scrollbar(frame, area, sources.len(), offset, per_page);
}

fn draw_fanouts(answer: &AnswerState, frame: &mut Frame, area: Rect) {
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
