//! The Track tab: the runs (with done, failed, pending and credits), the watched brands
//! with a sparkline each and a line chart of their shares over the shown set's runs
//! (`track_chart`), and what the last run changed.

use crate::app::keymap::{Action, Context};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::track_chart::ChartKeys;
use crate::analysis::sources::KindCounts;
use crate::app::App;
use crate::track::changes::{self, ChangeKind};
use crate::track::diff::RunDiff;
use crate::track::trends::Trends;
use crate::track::view::TrackView;

use super::theme;

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let state = &app.track;
    if let Some(editor) = &state.editor {
        super::track_set::draw(app, editor, frame, body);
        return;
    }
    if let Some(answers) = &state.answers {
        super::track_answers::draw(app, answers, frame, body);
        return;
    }
    // Discover takes the tab below the runs while it is open.
    if let Some(discover) = &state.discover {
        let runs = state.view.as_ref().filter(|v| !v.runs.is_empty());
        let runs_height = runs.map_or(0, |v| {
            u16::try_from(v.runs.len()).unwrap_or(u16::MAX).min(4) + 3
        });
        let [runs_area, discover_area] =
            Layout::vertical([Constraint::Length(runs_height), Constraint::Min(4)]).areas(body);
        if let Some(view) = runs {
            super::track_runs::draw(frame, runs_area, view, state.selected, app);
        }
        draw_discover(discover, frame, discover_area);
        return;
    }
    let Some(view) = &state.view else {
        let text = if state.loading {
            "Reading the tracking runs…"
        } else {
            "No tracking runs read yet."
        };
        frame.render_widget(Paragraph::new(text).style(theme::dim()), body);
        return;
    };
    if view.runs.is_empty() {
        let key = |action| app.key_of(Context::Track, action);
        let (run, edit, new, discover) = (
            key(Action::RunSet),
            key(Action::EditSet),
            key(Action::NewSet),
            key(Action::DiscoverPrompts),
        );
        let first = match (&view.set, view.calls_per_run) {
            (Some(set), Some(calls)) => format!(
                "The set {set} has no runs yet: {run} runs it now ({calls} calls, after a yes), or `vantage track run {set}` from a schedule."
            ),
            _ => {
                let sets: Vec<String> = app
                    .brands_pane
                    .workspace
                    .as_ref()
                    .map(|w| {
                        w.sets()
                            .iter()
                            .map(|s| format!("{} ({} calls a run)", s.name, s.combinations()))
                            .collect()
                    })
                    .unwrap_or_default();
                match sets.as_slice() {
                    [] => "No tracking runs yet.".to_string(),
                    [only] => format!(
                        "No tracking runs yet. The workspace file's set: {only}; {run} runs it now, after a yes."
                    ),
                    all => format!(
                        "No tracking runs yet. The workspace file's sets: {}; {edit} opens one ({} shows it, then {run} runs it).",
                        all.join(", "),
                        app.key_of(Context::SetEditor, Action::Back)
                    ),
                }
            }
        };
        frame.render_widget(
            Paragraph::new(vec![
                Line::raw(first),
                Line::styled(
                    format!("{new} makes a set here ({edit} edits one), {discover} discovers prompts around a topic and makes a set of them, `vantage track set new` makes one from the shell; {run} runs the shown set, `vantage track run SET` runs one from the shell."),
                    theme::dim(),
                ),
            ])
            // At 80 columns the hint takes two rows rather than losing its end.
            .wrap(Wrap { trim: true }),
            body,
        );
        return;
    }
    let list_height = u16::try_from(view.runs.len()).unwrap_or(u16::MAX).min(8) + 3;
    // The map needs height to be read; the changes then keep a few lines (the rest are
    // counted, and `vantage track trends` lists them all). A short terminal keeps the chart
    // a few rows more.
    let changes_room = if state.show_map || state.show_readings {
        3
    } else if body.height < 30 {
        5
    } else {
        8
    };
    // Wide enough for the brand list beside the chart.
    let brands_listed = body.width >= 80 && !view.trends.brands.is_empty();
    // The alerts that fired on the selected run (or the set's newest), then the changes.
    let mut lines = alert_lines(view, state.selected);
    let alerts_fired = !lines.is_empty();
    if let Some(diff) = &view.diff {
        lines.extend(change_lines(
            diff,
            &view.trends,
            body.width.saturating_sub(2),
        ));
    }
    let changes_height = if lines.is_empty() {
        0
    } else {
        u16::try_from(lines.len())
            .unwrap_or(0)
            .clamp(1, changes_room)
            + 2
    };
    let [runs_area, chart_area, changes_area] = Layout::vertical([
        Constraint::Length(list_height),
        Constraint::Min(6),
        Constraint::Length(changes_height),
    ])
    .areas(body);
    super::track_runs::draw(frame, runs_area, view, state.selected, app);
    // The readings are text: they take the whole width.
    // The list beside the chart only when it names every brand; else the chart's legend does.
    let list_fits = usize::from(chart_area.height.saturating_sub(2)) >= view.trends.brands.len();
    if brands_listed && list_fits && !state.show_readings {
        let list_width = super::track_chart::brand_list_width(view, body.width);
        let [list_area, chart_area] =
            Layout::horizontal([Constraint::Length(list_width), Constraint::Min(40)])
                .areas(chart_area);
        super::track_chart::draw_brand_list(frame, list_area, view, state.brand);
        draw_trend(app, frame, chart_area, view);
    } else {
        draw_trend(app, frame, chart_area, view);
    }
    if !lines.is_empty() {
        let room = usize::from(changes_area.height.saturating_sub(2));
        if lines.len() > room && room > 0 {
            // Say what was cut and where the whole list is.
            let hidden = lines.len() - room + 1;
            lines.truncate(room - 1);
            lines.push(Line::styled(
                format!(
                    "… {hidden} more: `vantage track trends {}`",
                    view.set.as_deref().unwrap_or("SET")
                ),
                theme::dim(),
            ));
        }
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme::border())
            .title(Span::styled(
                if alerts_fired {
                    " Alerts and changes "
                } else {
                    " Changes in the last run "
                },
                theme::title(),
            ));
        frame.render_widget(Paragraph::new(lines).block(block), changes_area);
    }
}

/// The alerts that fired on the selected run, when it is of the shown set, else on the
/// set's newest run; each a line marked ⚑.
fn alert_lines(view: &TrackView, selected: usize) -> Vec<Line<'static>> {
    let shown = view.set.as_deref().unwrap_or("");
    let of_set = |name: &str| name.eq_ignore_ascii_case(shown);
    let run = view
        .runs
        .get(selected)
        .filter(|r| of_set(&r.set_name))
        .or_else(|| view.runs.iter().rev().find(|r| of_set(&r.set_name)));
    let Some(run) = run else {
        return Vec::new();
    };
    view.fired_on(run.id.as_str())
        .iter()
        .map(|fired| {
            Line::from(vec![
                Span::styled("⚑ ", theme::error()),
                Span::raw(fired.text.clone()),
            ])
        })
        .collect()
}

/// The chart, or the map when the user switched to it.
fn draw_trend(app: &App, frame: &mut Frame, area: Rect, view: &TrackView) {
    let state = &app.track;
    if state.show_map {
        super::track_map::draw(frame, area, view, state.brand);
    } else if state.show_readings {
        draw_readings(app, frame, area, view);
    } else {
        let keys = ChartKeys {
            split: app.key_of(Context::Track, Action::SplitChart),
            share: app.key_of(Context::Track, Action::ChartShare),
        };
        super::track_chart::draw_chart(frame, area, view, state, &keys);
    }
}

/// The prompts found around a topic: marked ones with `[x]`, how many vantage points
/// raised each, and who.
fn draw_discover(discover: &crate::app::discover::DiscoverState, frame: &mut Frame, area: Rect) {
    let status = match discover.running() {
        0 if discover.failed() > 0 => format!(" · {} calls failed", discover.failed()),
        0 => String::new(),
        n => format!(" · {n} calls out"),
    };
    let block = crate::ui::fit::titled_block(
        format!(
            " Prompts around \"{}\"{status} · Space marks · a adds to a set · Esc closes ",
            discover.topic
        ),
        area.width,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if discover.rows.is_empty() {
        let text = if discover.running() > 0 {
            "Asking the models and Google…"
        } else {
            "Nothing was raised around this topic."
        };
        frame.render_widget(Paragraph::new(text).style(theme::dim()), inner);
        return;
    }
    // The selected prompt in full, with who raised it, where rows are cut short.
    let detail_height = if inner.height >= 8 { 2 } else { 0 };
    let [inner, detail_area] =
        Layout::vertical([Constraint::Min(1), Constraint::Length(detail_height)]).areas(inner);
    if let Some(row) = discover.rows.get(discover.selected) {
        let by: Vec<String> = row
            .raised_by
            .iter()
            .map(|r| format!("{} ({})", r.by, r.place))
            .collect();
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(format!("› {}", row.prompt), theme::accent()),
                Span::styled(format!(" · raised by {}", by.join("; ")), theme::dim()),
            ]))
            .wrap(Wrap { trim: true }),
            detail_area,
        );
    }
    let height = usize::from(inner.height);
    let offset = crate::ui::text_view::list_offset(discover.selected, height);
    let width = discover
        .rows
        .iter()
        .map(|r| r.prompt.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, usize::from(inner.width / 2).max(44));
    let lines: Vec<Line> = discover
        .rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, row)| {
            let mark = if discover.marked.contains(&row.prompt) {
                "[x] "
            } else {
                "[ ] "
            };
            let style = if i == discover.selected {
                theme::selected()
            } else {
                Style::default()
            };
            let by: Vec<String> = row
                .raised_by
                .iter()
                .map(|r| format!("{} ({})", r.by, r.place))
                .collect();
            let prompt = crate::ui::fit::fit_str(&row.prompt, width);
            crate::ui::fit::fit_line(
                Line::from(vec![
                    Span::styled(mark, theme::accent()),
                    Span::styled(format!("{:>2} ", row.count), theme::muted()),
                    Span::styled(format!("{prompt:<width$}"), style),
                    Span::styled(format!("  {}", by.join("; ")), theme::dim()),
                ]),
                inner.width,
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The last run's sources by kind, per model and place, and where the own brand is missing.
fn draw_readings(app: &App, frame: &mut Frame, area: Rect, view: &TrackView) {
    let set = view.set.as_deref().unwrap_or("");
    let block = crate::ui::fit::titled_block(
        format!(" Sources and gaps in the last run of {set} · s back to the chart "),
        area.width,
    );
    let mut lines = Vec::new();
    match &view.readings {
        None => lines.push(Line::styled("No run has answered yet.", theme::dim())),
        Some(readings) => {
            lines.push(Line::styled("Sources by kind", theme::title()));
            if readings.kinds.is_empty() {
                lines.push(Line::styled("  no answers in this run", theme::dim()));
            }
            for (group, kinds) in KindCounts::aligned(&readings.kinds) {
                lines.push(Line::from(vec![
                    Span::styled(format!("  {group}  "), theme::muted()),
                    Span::raw(kinds),
                ]));
            }
            lines.push(Line::raw(""));
            match &readings.gaps {
                Some(gaps) => {
                    for (i, line) in gaps.text().lines().enumerate() {
                        let style = if i == 0 {
                            theme::title()
                        } else {
                            Style::default()
                        };
                        lines.push(Line::styled(line.to_string(), style));
                    }
                }
                None => lines.push(Line::styled(
                    format!(
                        "Mark your brand as yours in the Brands pane ({} in Chat, then its form) to see where it is missing.",
                        app.key_of(Context::Chat, Action::OpenBrands)
                    ),
                    theme::dim(),
                )),
            }
        }
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block),
        area,
    );
}

/// The changes of the last run as every view has them (the headline over what moved, each
/// brand against the run before, mentions gained (+) and lost (−), sources, ranks moved),
/// each fitted to `width`.
fn change_lines(diff: &RunDiff, trends: &Trends, width: u16) -> Vec<Line<'static>> {
    changes::change_lines(diff, trends)
        .into_iter()
        .map(|line| match line.kind {
            ChangeKind::Headline => Line::styled(line.text, theme::dim()),
            ChangeKind::LeftOut => Line::styled(line.text, theme::error()),
            ChangeKind::Unclear(_) => Line::styled(line.text, theme::dim()),
            ChangeKind::Brand { different, .. } => {
                let style = if different {
                    theme::title()
                } else {
                    theme::dim()
                };
                Line::from(vec![
                    Span::styled(format!("{}: ", line.brand), style),
                    Span::raw(line.text),
                ])
            }
            ChangeKind::Gained => {
                Line::from(vec![Span::styled("+ ", theme::ok()), Span::raw(line.text)])
            }
            ChangeKind::Lost => Line::from(vec![
                Span::styled("− ", theme::error()),
                Span::raw(line.text),
            ]),
            ChangeKind::SourcesGained(_) | ChangeKind::SourcesLost(_) | ChangeKind::Rank => {
                Line::raw(line.text)
            }
        })
        // The headline may take two rows: it says what the lines under it show moved.
        .enumerate()
        .flat_map(|(i, line)| match i {
            0 => crate::ui::fit::wrap_lines(line, width, 2),
            _ => vec![crate::ui::fit::fit_line(line, width)],
        })
        .collect()
}
