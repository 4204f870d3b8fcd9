//! The Track tab's form of one set: its name, prompts, terms, models, devices, locations,
//! brands, samples and alerts, one row each (a row per prompt, term, location and alert),
//! then what a run of it costs and what `track run` would refuse.

use crate::app::keymap::{Action, Context};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::analysis::workspace::location_spec;
use crate::api::Location;
use crate::app::App;
use crate::app::sets::{SetEditor, SetRow};
use crate::geo;
use crate::present::compare::overview::AI_OVERVIEW_NAME;

use super::fit::fit_line;
use super::theme;

const LABEL_WIDTH: usize = 11;

pub(super) fn draw(app: &App, editor: &SetEditor, frame: &mut Frame, area: Rect) {
    if let Some(draft) = &editor.alert {
        super::track_alert::draw(app, editor, draft, frame, area);
        return;
    }
    let key = |action| app.key_of(Context::SetEditor, action);
    let (change, write, close) = (key(Action::Accept), key(Action::Send), key(Action::Back));
    let title = match &editor.original {
        None => {
            format!(" A new set · {change} changes a row · {write} writes it · {close} closes ")
        }
        Some(name) => format!(
            " The set {name} · {change} changes a row · {write} writes it · {} deletes it · {close} closes ",
            key(Action::RemoveSet)
        ),
    };
    let block = crate::ui::fit::titled_block(title, area.width);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let footer = footer_lines(app, editor);
    let footer_height = super::call::wrapped_height(&footer, inner.width).min(inner.height / 2);
    let rows = u16::try_from(editor.rows().len()).unwrap_or(u16::MAX);
    let [rows_area, _, footer_area] = Layout::vertical([
        Constraint::Max(rows),
        Constraint::Max(1),
        Constraint::Min(footer_height),
    ])
    .areas(inner);
    draw_rows(app, editor, frame, rows_area);
    frame.render_widget(
        Paragraph::new(footer).wrap(Wrap { trim: true }),
        // One column in, as the rows' labels.
        Rect {
            x: footer_area.x + 1,
            width: footer_area.width.saturating_sub(1),
            ..footer_area
        },
    );
}

fn draw_rows(app: &App, editor: &SetEditor, frame: &mut Frame, area: Rect) {
    let rows = editor.rows();
    let height = usize::from(area.height);
    let selected = editor.row.min(rows.len().saturating_sub(1));
    let offset = super::text_view::list_offset(selected, height);
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, row)| {
            let (value, style) = value_of(app, editor, *row);
            let style = if i == selected {
                theme::selected()
            } else {
                style
            };
            fit_line(
                Line::from(vec![
                    Span::styled(
                        format!(" {:<LABEL_WIDTH$}", editor.label(*row)),
                        theme::dim(),
                    ),
                    Span::styled(value, style),
                ]),
                area.width,
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// A row's value as shown, and its style when not selected.
fn value_of(app: &App, editor: &SetEditor, row: SetRow) -> (String, Style) {
    let set = &editor.set;
    let plain = Style::default();
    match row {
        SetRow::Name => (set.name.clone(), theme::accent()),
        SetRow::Prompt(i) => (format!("{}. {}", i + 1, set.prompts[i]), plain),
        SetRow::AddPrompt => ("+ add a prompt".to_string(), theme::dim()),
        SetRow::Term(i) => (format!("{}. {}", i + 1, set.terms[i]), plain),
        SetRow::AddTerm => ("+ add a search term".to_string(), theme::dim()),
        SetRow::Models => {
            let mut names: Vec<&str> = set.models.iter().map(|m| m.display_name()).collect();
            if set.overview {
                names.push(AI_OVERVIEW_NAME);
            }
            if names.is_empty() {
                ("the service's default (ChatGPT)".to_string(), theme::dim())
            } else {
                (names.join(", "), theme::accent())
            }
        }
        SetRow::Devices if set.devices.is_empty() => {
            ("desktop: no device emulation".to_string(), theme::dim())
        }
        SetRow::Devices => (set.devices.join(", "), theme::accent()),
        SetRow::Location(i) => (place_name(&set.locations[i]), plain),
        SetRow::AddLocation if set.locations.is_empty() => (
            "+ add a country (none: the service picks a place)".to_string(),
            theme::dim(),
        ),
        SetRow::AddLocation => ("+ add a country".to_string(), theme::dim()),
        SetRow::Brands if set.brands.is_empty() => {
            let tracked = app.brands.len();
            (format!("every tracked brand ({tracked})"), theme::dim())
        }
        SetRow::Brands => (set.brands.join(", "), theme::accent()),
        SetRow::Samples => (set.samples.to_string(), theme::accent()),
        SetRow::Alert(i) => (set.alerts[i].to_string(), plain),
        SetRow::AddAlert => (
            "+ add an alert (a brand's visibility, share, position or rank)".to_string(),
            theme::dim(),
        ),
    }
}

/// A place in words, its codes after: "Berlin, Germany (DE:BE)".
fn place_name(location: &Location) -> String {
    let country = location.country.as_deref().unwrap_or("");
    let subdivision = location
        .subdivision
        .as_deref()
        .map(|s| geo::subdivision(country, s).map_or(s, |found| found.name));
    let names: Vec<&str> = [location.city.as_deref(), subdivision]
        .into_iter()
        .flatten()
        .chain(std::iter::once(
            geo::country(country).map_or(country, |c| c.name),
        ))
        .collect();
    format!("{} ({})", names.join(", "), location_spec(location))
}

/// What a run makes, what is wrong, and where it is written.
fn footer_lines(app: &App, editor: &SetEditor) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(vec![
        Span::styled("A run makes ", theme::dim()),
        Span::styled(editor.set.cost_in_words(&app.prices), theme::accent()),
        Span::styled(".", theme::dim()),
    ])];
    match &editor.problem {
        Some(problem) => lines.push(Line::styled(
            format!("Not ready: {problem}"),
            theme::error(),
        )),
        None => {
            let path = app
                .brands_pane
                .path()
                .map_or_else(String::new, |p| format!(" to {}", p.display()));
            let run = app.key_of(Context::Track, Action::RunSet);
            let (write, close) = (
                app.key_of(Context::SetEditor, Action::Send),
                app.key_of(Context::SetEditor, Action::Back),
            );
            let done = if editor.changed {
                format!(
                    "Ready: {write} writes it{path}; then {run} runs it (`vantage track run NAME` from a schedule)."
                )
            } else {
                format!(
                    "As written{path}. {close}, then {run} runs it (`vantage track run NAME` from a schedule)."
                )
            };
            lines.push(Line::styled(
                done.replace("NAME", editor.set.name.trim()),
                theme::dim(),
            ));
        }
    }
    lines
}
