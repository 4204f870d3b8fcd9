//! The Brands pane over Chat's answer: the tracked brands, the names the answer puts
//! forward as suggestions, and the editor of one brand.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::App;
use crate::app::brands::{self, BrandEditor, FIELDS, OWN_FIELD};

use super::chat::brand_style;
use super::fit::fit_line;
use super::text_view::list_offset;
use super::{clear_popup, field_spans, hints, pane, theme};
use crate::app::keymap::{Action, Context};

pub(super) fn draw(app: &App, frame: &mut Frame, area: Rect) {
    clear_popup(frame, area);
    let pane_state = &app.brands_pane;
    let title = Line::from(vec![
        Span::styled(" Brands ", theme::title()),
        Span::styled(format!("{} ", brands::file_label(app)), theme::dim()),
    ]);
    let block = pane(title, true);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height < 2 {
        return;
    }
    let editor_height = if pane_state.editor.is_some() { 6 } else { 0 };
    let [list_area, editor_area, hint_area] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(editor_height),
        Constraint::Length(1),
    ])
    .areas(inner);
    draw_rows(app, frame, list_area);
    if let Some(editor) = &pane_state.editor {
        draw_editor(editor, frame, editor_area);
    }
    let keys: &[hints::Hint] = if pane_state.editor.is_some() {
        &[
            (Context::BrandEditor, Action::FocusNext, "next field"),
            (Context::BrandEditor, Action::Send, "save"),
            (Context::BrandEditor, Action::Back, "cancel"),
        ]
    } else {
        &[
            (Context::Brands, Action::AddBrand, "add"),
            (Context::Brands, Action::Accept, "edit / track"),
            (
                Context::Brands,
                Action::DiscoverNames,
                "untracked in stored answers",
            ),
            (Context::Brands, Action::Delete, "remove"),
            (Context::Brands, Action::Back, "close"),
        ]
    };
    frame.render_widget(Paragraph::new(hints::line(app, keys)), hint_area);
}

fn draw_rows(app: &App, frame: &mut Frame, area: Rect) {
    let suggestions = brands::suggestions(app);
    let selected = app.brands_pane.selected;
    let editing = app.brands_pane.editor.is_some();
    // Each row with its index among the selectable rows (headings have none).
    let mut rows: Vec<(Option<usize>, Line)> = Vec::new();
    rows.push((
        None,
        Line::styled(format!("Tracked ({})", app.brands.len()), theme::title()),
    ));
    if app.brands.is_empty() {
        rows.push((
            None,
            Line::styled(
                "  None yet: a adds one, or Enter tracks a suggestion below.",
                theme::dim(),
            ),
        ));
    }
    for (i, brand) in app.brands.iter().enumerate() {
        let is_selected = i == selected && !editing;
        let mut spans = vec![
            Span::raw(if is_selected {
                theme::SELECTED_MARK
            } else {
                "  "
            }),
            Span::styled(
                brand.name.clone(),
                if is_selected {
                    theme::selected()
                } else {
                    brand_style()
                },
            ),
        ];
        if app.brands_pane.is_own(&brand.name) {
            spans.push(Span::styled("  (yours)", theme::accent()));
        }
        if !brand.aliases.is_empty() {
            spans.push(Span::styled(
                format!("  aka {}", brand.aliases.join(", ")),
                theme::muted(),
            ));
        }
        if !brand.domains.is_empty() {
            spans.push(Span::styled(
                format!("  · {}", brand.domains.join(", ")),
                theme::link(),
            ));
        }
        rows.push((Some(i), Line::from(spans)));
    }
    rows.push((None, Line::raw("")));
    let heading = match &app.chat.answer {
        None => "Suggestions: none until an answer is on screen",
        Some(_) if suggestions.is_empty() => "Suggestions: the answer puts forward no other names",
        Some(_) => "Suggestions from this answer (Enter tracks one)",
    };
    rows.push((None, Line::styled(heading, theme::title())));
    for (n, suggested) in suggestions.iter().enumerate() {
        let i = app.brands.len() + n;
        let is_selected = i == selected && !editing;
        let mut spans = name_to_track(&suggested.name, is_selected);
        spans.extend(products_note(&suggested.products));
        rows.push((Some(i), Line::from(spans)));
    }
    rows.push((None, Line::raw("")));
    let discovered = brands::discovered(app);
    let first = app.brands.len() + suggestions.len();
    let heading = match &app.brands_pane.discovered {
        _ if app.brands_pane.discovering => "In stored answers: reading them…".to_string(),
        None => {
            "In stored answers: D lists the names they put forward that nobody tracks".to_string()
        }
        Some(found) if discovered.is_empty() => format!(
            "In the {} stored: no name left untracked (D reads them again)",
            crate::plural::count(found.read.answers as u64, "answer", "answers")
        ),
        Some(found) => format!(
            "In the {} stored (answers naming it, recommending it; models; places)",
            crate::plural::count(found.read.answers as u64, "answer", "answers")
        ),
    };
    rows.push((None, Line::styled(heading, theme::title())));
    let width = area.width;
    for (n, name) in discovered.iter().enumerate() {
        let i = first + n;
        let is_selected = i == selected && !editing;
        let mut spans = name_to_track(&name.name, is_selected);
        spans.extend(products_note(&name.products));
        spans.push(Span::raw(format!(
            "  {}, {} · {} · {}",
            crate::plural::count(name.answers as u64, "answer", "answers"),
            crate::plural::count(name.recommended as u64, "recommends", "recommend"),
            name.models.join(", "),
            name.places.join("; ")
        )));
        // One row a name, cut at a word where the pane is narrow.
        rows.push((Some(i), fit_line(Line::from(spans), width)));
        // The evidence of the selected one: the sentence that names it.
        if is_selected {
            rows.push((
                None,
                fit_line(
                    Line::styled(format!("    “{}”", name.sentence), theme::dim()),
                    width,
                ),
            ));
        }
    }
    let height = area.height as usize;
    let at = rows
        .iter()
        .position(|(row, _)| *row == Some(selected))
        .unwrap_or(0);
    let offset = list_offset(at, height);
    let lines: Vec<Line> = rows
        .into_iter()
        .skip(offset)
        .take(height)
        .map(|(_, line)| line)
        .collect();
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

/// The products the answers name under a suggested brand: what tracking it covers.
fn products_note(products: &[String]) -> Option<Span<'static>> {
    (!products.is_empty())
        .then(|| Span::styled(format!("  ({})", products.join(", ")), theme::dim()))
}

/// A name offered for tracking, marked when selected.
fn name_to_track(name: &str, selected: bool) -> Vec<Span<'static>> {
    vec![
        Span::raw(if selected { theme::SELECTED_MARK } else { "  " }),
        Span::styled(
            format!("+ {name}"),
            if selected {
                theme::selected()
            } else {
                theme::muted()
            },
        ),
    ]
}

fn draw_editor(editor: &BrandEditor, frame: &mut Frame, area: Rect) {
    let title = if editor.original.is_some() {
        "Edit the brand (lists are comma-separated)"
    } else {
        "Add a brand (lists are comma-separated)"
    };
    let mut lines = vec![Line::styled(title, theme::title())];
    for (i, label) in FIELDS.iter().enumerate() {
        let focused = i == editor.field;
        let mut spans = vec![Span::styled(
            format!("{label:>8}: "),
            if focused {
                theme::accent()
            } else {
                theme::dim()
            },
        )];
        match editor.values.get(i) {
            Some(value) => spans.extend(field_spans(value, editor.edit.cursor_in(value), focused)),
            None if i == OWN_FIELD => spans.extend(own_spans(editor.own, focused)),
            None => {}
        }
        lines.push(fit_line(Line::from(spans), area.width));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The own mark in the form: what it means, and how to change it where focused.
fn own_spans(own: bool, focused: bool) -> Vec<Span<'static>> {
    let (mark, meaning) = if own {
        (
            "[x] ",
            "your brand (only one is; its site cited is \"own\")",
        )
    } else {
        ("[ ] ", "a brand you watch")
    };
    let mut spans = vec![
        Span::styled(
            mark,
            if focused {
                theme::selected()
            } else {
                theme::accent()
            },
        ),
        Span::styled(meaning, theme::muted()),
    ];
    if focused {
        spans.push(Span::styled("  Space toggles", theme::dim()));
    }
    spans
}
