//! The Track tab: the runs (with done, failed, pending and credits), the watched brands
//! with a sparkline each, a line chart of each brand's visibility over the shown set's
//! runs, and what the last run changed.

use crate::app::keymap::{Action, Context};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph, Sparkline, Wrap,
};

use crate::analysis::sources::KindCounts;
use crate::app::App;
use crate::app::track::{Split, TrackState};
use crate::track::changes::{self, ChangeKind};
use crate::track::diff::RunDiff;
use crate::track::stat::RunStat;
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
    if brands_listed && !state.show_readings {
        let [list_area, chart_area] =
            Layout::horizontal([Constraint::Length(40), Constraint::Min(40)]).areas(chart_area);
        draw_brand_list(frame, list_area, view, state.brand);
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
        draw_readings(frame, area, view);
    } else {
        let keys = ChartKeys {
            split: app.key_of(Context::Track, Action::SplitChart),
            share: app.key_of(Context::Track, Action::ChartShare),
        };
        draw_chart(frame, area, view, state, &keys);
    }
}

/// The brands as a list: each with a sparkline of its visibility over the runs, and its
/// visibility and average position in the last run.
fn draw_brand_list(frame: &mut Frame, area: Rect, view: &TrackView, selected: usize) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme::border())
        .title(Span::styled(" Brands, last run ", theme::title()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // Under each brand, its change since the run before, when there is room for it.
    let brands = view.trends.brands.len();
    let with_change = brands * 2 <= usize::from(inner.height);
    let step = if with_change { 2 } else { 1 };
    for (i, brand) in view.trends.brands.iter().enumerate() {
        let Ok(row) = u16::try_from(i * step) else {
            break;
        };
        if row >= inner.height {
            break;
        }
        let line = Rect::new(inner.x, inner.y + row, inner.width, 1);
        if with_change && let Some(change) = brand.change {
            let (text, style) = if change.different {
                let way = if change.after.visibility() > change.before.visibility() {
                    "↑ up"
                } else {
                    "↓ down"
                };
                (
                    format!("   {way} from the run before (p {:.3})", change.p),
                    theme::title(),
                )
            } else {
                (
                    "   no clear change from the run before".to_string(),
                    theme::dim(),
                )
            };
            frame.render_widget(
                Paragraph::new(Span::styled(text, style)),
                Rect::new(inner.x, inner.y + row + 1, inner.width, 1),
            );
        }
        let [name_area, spark_area, value_area] = Layout::horizontal([
            Constraint::Length(12),
            Constraint::Min(4),
            Constraint::Length(17),
        ])
        .areas(line);
        let color = theme::series(i);
        // The selected brand (the one the map shows) is marked, not only styled.
        let (mark, name_style) = if i == selected {
            (theme::SELECTED_MARK, theme::selected())
        } else {
            ("  ", Style::default().fg(color))
        };
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::raw(mark),
                Span::styled(brand.brand.clone(), name_style),
            ])),
            name_area,
        );
        // Percent of answers, rounded; the newest runs when they do not all fit.
        let values: Vec<u64> = brand
            .overall
            .iter()
            .map(|s| s.visibility().map_or(0, |v| v.round() as u64))
            .collect();
        let shown = values.len().saturating_sub(usize::from(spark_area.width));
        frame.render_widget(
            Sparkline::default()
                .data(&values[shown..])
                .max(100)
                .style(Style::default().fg(color)),
            spark_area,
        );
        // The last run's visibility with its 95 % interval, then the average position.
        let last = brand.overall.last().map_or("–".to_string(), |s| {
            match (s.visibility(), s.interval(), s.average_position()) {
                (Some(v), Some((low, high)), Some(p)) => {
                    format!("{v:>3.0}% {low:.0}–{high:.0} @{p:.1}")
                }
                (Some(v), Some((low, high)), None) => format!("{v:>3.0}% {low:.0}–{high:.0}"),
                _ => "–".to_string(),
            }
        });
        frame.render_widget(
            Paragraph::new(Span::raw(last)).alignment(ratatui::layout::Alignment::Right),
            value_area,
        );
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
    let block = titled_block(
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

/// A bordered block whose title fits `width` (ending in `…` when cut).
fn titled_block(title: String, width: u16) -> Block<'static> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme::border())
        .title(crate::ui::fit::fit_line(
            Line::styled(title, theme::title()),
            width.saturating_sub(2),
        ))
}

/// The last run's sources by kind, per model and place, and where the own brand is missing.
fn draw_readings(frame: &mut Frame, area: Rect, view: &TrackView) {
    let set = view.set.as_deref().unwrap_or("");
    let block = titled_block(
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
                    "Mark your brand own = true in vantage.toml to see where it is missing.",
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

/// The markers the chart's lines are drawn with, in turn, and how the legend shows each.
const SERIES: [(Marker, &str); 4] = [
    (Marker::Braille, "⣿"),
    (Marker::Dot, "•"),
    (Marker::Block, "█"),
    (Marker::HalfBlock, "▀"),
];

/// The keys the chart's title names, as the keymap has them.
struct ChartKeys {
    split: String,
    share: String,
}

/// Each watched brand's share (visibility, share of voice or recommended share, as `c`
/// picks) over the set's runs, or the selected brand's by model or place (`v`).
fn draw_chart(
    frame: &mut Frame,
    area: Rect,
    view: &TrackView,
    state: &TrackState,
    keys: &ChartKeys,
) {
    let set = view.set.as_deref().unwrap_or("");
    let trends = &view.trends;
    if trends.brands.is_empty() {
        let block = titled_block(
            format!(
                " {} of each brand over the runs of {set} (%) ",
                state.share.title()
            ),
            area.width,
        );
        frame.render_widget(
            Paragraph::new("No brands are watched: add [[brands]] to vantage.toml.")
                .style(theme::dim())
                .block(block),
            area,
        );
        return;
    }
    let brand = &trends.brands[state.brand.min(trends.brands.len() - 1)];
    let (share, next) = (state.share, state.share.next().label());
    let (v, c) = (&keys.split, &keys.share);
    // The lines: every brand, or the selected brand's per model or per place. The title says
    // what they are and the keys that change them, as far as the width allows.
    let (titles, series): (Vec<String>, Vec<(&str, &[RunStat])>) = match state.split {
        Split::Brands => {
            let what = format!(
                " {} of each brand over the runs of {set} (%)",
                share.title()
            );
            (
                vec![
                    format!("{what} · {v}: by model · {c}: {next} "),
                    format!("{what} · {c}: {next} "),
                    format!(" {} of each brand (%) · {v} · {c} ", share.title()),
                    format!(" {} (%) · {v} · {c} ", share.title()),
                ],
                trends
                    .brands
                    .iter()
                    .map(|b| (b.brand.as_str(), b.overall.as_slice()))
                    .collect(),
            )
        }
        Split::Models => (
            vec![
                format!(
                    " {}: {} by model over the runs of {set} (%) · ← → brand · {v}: by place · {c}: {next} ",
                    brand.brand,
                    share.label()
                ),
                format!(
                    " {}: {} by model (%) · ←→ · {v} · {c} ",
                    brand.brand,
                    share.label()
                ),
                format!(" {} by model (%) · ←→ · {v} · {c} ", brand.brand),
            ],
            brand
                .by_model
                .iter()
                .map(|(m, stats)| (m.as_str(), stats.as_slice()))
                .collect(),
        ),
        Split::Places => (
            vec![
                format!(
                    " {}: {} by place over the runs of {set} (%) · ← → brand · {v}: all brands · {c}: {next} ",
                    brand.brand,
                    share.label()
                ),
                format!(
                    " {}: {} by place (%) · ←→ · {v} · {c} ",
                    brand.brand,
                    share.label()
                ),
                format!(" {} by place (%) · ←→ · {v} · {c} ", brand.brand),
            ],
            brand
                .by_location
                .iter()
                // "US/CO/Denver" is Denver on a legend: the city, else the country.
                .map(|(l, stats)| {
                    let short = l.rsplit('/').find(|p| *p != "–").unwrap_or(l.as_str());
                    (short, stats.as_slice())
                })
                .collect(),
        ),
    };
    // The first that fits the border, else the shortest (cut at a word).
    let fits = |t: &String| t.chars().count() + 2 <= usize::from(area.width);
    let title = titles
        .iter()
        .find(|t| fits(t))
        .or(titles.last())
        .cloned()
        .unwrap_or_default();
    let block = titled_block(title, area.width);
    let points: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|(_, stats)| {
            stats
                .iter()
                .enumerate()
                .filter_map(|(i, stat)| state.share.of(stat).map(|v| (i as f64 + 1.0, v)))
                .collect()
        })
        .collect();
    // Each line is told apart by its marker as well as its colour (NO_COLOR, a printout),
    // and the legend, on the bottom border, shows both: it never covers the lines.
    let datasets: Vec<Dataset> = points
        .iter()
        .enumerate()
        .map(|(i, data)| {
            let (marker, _) = SERIES[i % SERIES.len()];
            Dataset::default()
                .marker(marker)
                .graph_type(GraphType::Line)
                .style(Style::default().fg(theme::series(i)))
                .data(data)
        })
        .collect();
    let mut legend = vec![Span::raw(" ")];
    for (i, (name, stats)) in series.iter().enumerate() {
        let (_, sample) = SERIES[i % SERIES.len()];
        legend.push(Span::styled(
            format!("{sample} "),
            Style::default().fg(theme::series(i)),
        ));
        // A split names each line's last value: the breakdown is read from the legend.
        let last = match state.split {
            Split::Brands => String::new(),
            _ => stats
                .last()
                .and_then(|stat| state.share.of(stat))
                .map_or(" –".to_string(), |v| format!(" {v:.0}%")),
        };
        legend.push(Span::raw(format!("{name}{last}  ")));
    }
    let legend = crate::ui::fit::fit_line(Line::from(legend), area.width.saturating_sub(2));
    let block = block.title_bottom(legend);
    let runs = trends.runs.len().max(2);
    let x_labels = vec![
        Span::raw("#1"),
        Span::raw(format!("#{}", trends.runs.len().max(1))),
    ];
    let chart = Chart::new(datasets)
        .block(block)
        .legend_position(None)
        .x_axis(
            Axis::default()
                .title(Span::styled("run", theme::dim()))
                .bounds([1.0, runs as f64])
                .labels(x_labels),
        )
        .y_axis(Axis::default().bounds([0.0, 100.0]).labels(vec![
            Span::raw("0"),
            Span::raw("50"),
            Span::raw("100"),
        ]));
    frame.render_widget(chart, area);
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
