//! The Track tab's chart and its brand list. The chart draws each line (every brand, or one
//! brand by model or place) as braille in its colour with its own marker at each run, so up
//! to twelve lines are told apart without colour; its legend wraps onto as many rows as it
//! needs and names every line; the y-axis spans the data (0 to a rounded top, in percent);
//! the runs are named by date, with the time when two share one.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Line as Segment};
use ratatui::widgets::{Block, Borders, Paragraph, Sparkline};
use unicode_width::UnicodeWidthStr;

use crate::app::track::{Split, TrackState};
use crate::track::chart_scale::{self, PercentScale};
use crate::track::stat::RunStat;
use crate::track::view::TrackView;

use super::fit::{fit_line, fit_str};
use super::theme;

/// The keys the chart's title names, as the keymap has them.
pub(super) struct ChartKeys {
    pub split: String,
    pub share: String,
}

/// The width the brand list takes beside the chart: its longest name whole where the body
/// has room (a third of it), 40 columns at least.
pub(super) fn brand_list_width(view: &TrackView, body_width: u16) -> u16 {
    let longest = view
        .trends
        .brands
        .iter()
        .map(|b| b.brand.width())
        .max()
        .unwrap_or(0);
    // Borders, the mark, the marker, the name, a sparkline of 6 and the figures.
    let wanted = u16::try_from(longest + 2 + 2 + 2 + 1 + 6 + 17).unwrap_or(u16::MAX);
    wanted.clamp(40, (body_width / 3).max(40))
}

/// The brands as a list: each with its marker, a sparkline of its visibility over the runs,
/// and its visibility, 95 % interval and average position in the last run, with a key line
/// saying what those figures are.
pub(super) fn draw_brand_list(frame: &mut Frame, area: Rect, view: &TrackView, selected: usize) {
    let key = fit_line(
        Line::styled(
            if area.width >= 58 {
                " % of answers naming it · 95 % interval · @ mean position "
            } else {
                " % named · 95% interval · @ position "
            },
            theme::dim(),
        ),
        area.width.saturating_sub(2),
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme::border())
        .title(Span::styled(" Brands, last run ", theme::title()))
        .title_bottom(key);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // Under each brand, its change since the run before, when there is room for it.
    let brands = view.trends.brands.len();
    let with_change = brands * 2 <= usize::from(inner.height);
    let step = if with_change { 2 } else { 1 };
    // The names in one column, as wide as the longest needs and the width allows.
    let name_width = view
        .trends
        .brands
        .iter()
        .map(|b| b.brand.width())
        .max()
        .unwrap_or(0)
        .min(usize::from(inner.width.saturating_sub(2 + 2 + 1 + 6 + 17)));
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
                Paragraph::new(fit_line(Line::styled(text, style), inner.width)),
                Rect::new(inner.x, inner.y + row + 1, inner.width, 1),
            );
        }
        let name = fit_str(&brand.brand, name_width);
        let [name_area, spark_area, value_area] = Layout::horizontal([
            Constraint::Length(u16::try_from(name_width + 5).unwrap_or(u16::MAX)),
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
                Span::styled(
                    format!("{} ", chart_scale::marker(i)),
                    Style::default().fg(color),
                ),
                Span::styled(name, name_style),
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
            Paragraph::new(Span::raw(last)).alignment(Alignment::Right),
            value_area,
        );
    }
}

/// Each watched brand's share (visibility, share of voice or recommended share, as `c`
/// picks) over the set's runs, or the selected brand's by model or place (`v`).
pub(super) fn draw_chart(
    frame: &mut Frame,
    area: Rect,
    view: &TrackView,
    state: &TrackState,
    keys: &ChartKeys,
) {
    let set = view.set.as_deref().unwrap_or("");
    let trends = &view.trends;
    if trends.brands.is_empty() {
        let block = crate::ui::fit::titled_block(
            format!(
                " {} of each brand over the runs of {set} (%) ",
                state.share.title()
            ),
            area.width,
        );
        frame.render_widget(
            Paragraph::new("No brands are watched: track some in Chat's Brands pane.")
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
    let block = crate::ui::fit::titled_block(title, area.width);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let points: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|(_, stats)| {
            stats
                .iter()
                .enumerate()
                // A run that holds too few of its cells is left out: its line breaks there.
                .filter(|(i, _)| trends.complete(*i))
                .filter_map(|(i, stat)| share.of(stat).map(|v| (i as f64, v)))
                .collect()
        })
        .collect();
    // A split names each line's last value: the breakdown is read from the legend.
    let names: Vec<String> = series
        .iter()
        .map(|(name, stats)| match state.split {
            Split::Brands => name.to_string(),
            _ => {
                let last = stats
                    .last()
                    .and_then(|stat| share.of(stat))
                    .map_or(" –".to_string(), |v| format!(" {v:.0}%"));
                format!("{name}{last}")
            }
        })
        .collect();
    let legend = legend_rows(&names, inner.width);
    let legend_height = u16::try_from(legend.len()).unwrap_or(u16::MAX);
    let [plot_area, dates_area, legend_area] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(legend_height),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(legend), legend_area);
    let scale = PercentScale::of(points.iter().flatten().map(|(_, v)| *v));
    let runs = trends.runs.len();
    let last_run = runs.saturating_sub(1) as f64;
    let x_bounds = if runs > 1 {
        [0.0, last_run]
    } else {
        [-1.0, 1.0]
    };
    // The y-axis: its ticks in percent, right-aligned against the plot.
    let axis_width = 5;
    let [axis_area, canvas_area] =
        Layout::horizontal([Constraint::Length(axis_width), Constraint::Min(1)]).areas(plot_area);
    let rows = canvas_area.height;
    let mut axis: Vec<Line> = (0..rows).map(|_| Line::raw("   │")).collect();
    // The top and 0 first, then the rest from the top down; on a short plot a tick whose
    // row is taken is left out, so each label stands on the row its value rounds to.
    let mut labelled = vec![false; usize::from(rows)];
    let mut ticks = scale.ticks();
    ticks.rotate_left(1);
    for tick in ticks.into_iter().rev() {
        let row = usize::from(canvas_row(tick, scale.top, rows));
        if let (Some(line), Some(taken)) = (axis.get_mut(row), labelled.get_mut(row))
            && !*taken
        {
            *line = Line::styled(format!("{:>3}┤", format!("{tick:.0}")), theme::dim());
            *taken = true;
        }
    }
    if let Some(top) = axis.first_mut() {
        *top = Line::styled(format!("{:>3}%", scale.top), theme::dim());
    }
    frame.render_widget(Paragraph::new(axis), axis_area);
    frame.render_widget(
        Paragraph::new(date_line(
            &chart_scale::run_dates(&trends.runs),
            canvas_area.width,
            x_bounds,
        ))
        .style(theme::dim()),
        Rect::new(
            canvas_area.x,
            dates_area.y,
            canvas_area.width,
            dates_area.height,
        ),
    );
    let canvas = Canvas::default()
        .marker(Marker::Braille)
        .x_bounds(x_bounds)
        .y_bounds([0.0, scale.top])
        .paint(|ctx| {
            for (i, line) in points.iter().enumerate() {
                let color = theme::series(i);
                for pair in line.windows(2) {
                    ctx.draw(&Segment {
                        x1: pair[0].0,
                        y1: pair[0].1,
                        x2: pair[1].0,
                        y2: pair[1].1,
                        color,
                    });
                }
            }
            // The markers over every line, so none is hidden under another's braille.
            // The canvas places text at the cell its point truncates to: half a cell down and
            // right, each marker lands on the cell its point rounds to, as the ticks do.
            ctx.layer();
            let half_row = scale.top / f64::from(rows.saturating_sub(1).max(1)) / 2.0;
            let half_column = (x_bounds[1] - x_bounds[0])
                / f64::from(canvas_area.width.saturating_sub(1).max(1))
                / 2.0;
            for (i, line) in points.iter().enumerate() {
                let style = Style::default().fg(theme::series(i));
                for &(x, y) in line {
                    ctx.print(
                        (x + half_column).min(x_bounds[1]),
                        (y - half_row).max(0.0),
                        Span::styled(chart_scale::marker(i), style),
                    );
                }
            }
        });
    frame.render_widget(canvas, canvas_area);
}

/// The row of a canvas `rows` high that a value lands on, as the canvas places its labels.
fn canvas_row(value: f64, top: f64, rows: u16) -> u16 {
    if top <= 0.0 || rows == 0 {
        return 0;
    }
    ((top - value) * f64::from(rows - 1) / top).round() as u16
}

/// The legend: each line's marker and name, as many on a row as fit and as many rows as it
/// takes; a name is cut (with `…`) only when it alone is wider than the row.
fn legend_rows(names: &[String], width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width);
    let mut rows: Vec<Line<'static>> = Vec::new();
    let mut row: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for (i, name) in names.iter().enumerate() {
        let name = fit_str(name, width.saturating_sub(2));
        let entry = name.width() + 2;
        let gap = if row.is_empty() { 0 } else { 2 };
        if !row.is_empty() && used + gap + entry > width {
            rows.push(Line::from(std::mem::take(&mut row)));
            used = 0;
        } else if gap > 0 {
            row.push(Span::raw("  "));
            used += gap;
        }
        let style = Style::default().fg(theme::series(i));
        row.push(Span::styled(format!("{} ", chart_scale::marker(i)), style));
        row.push(Span::styled(name, style));
        used += entry;
    }
    if !row.is_empty() {
        rows.push(Line::from(row));
    }
    rows
}

/// The runs' dates under the plot, each under its run, as many as fit without touching:
/// the first and the last, then those between from left to right.
fn date_line(dates: &[String], width: u16, bounds: [f64; 2]) -> Line<'static> {
    let width = usize::from(width);
    let mut cells = vec![' '; width];
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let span = bounds[1] - bounds[0];
    let column = |i: usize| {
        if span <= 0.0 || width == 0 {
            return 0;
        }
        (((i as f64 - bounds[0]) * (width - 1) as f64 / span).round() as usize).min(width - 1)
    };
    let last = dates.len().saturating_sub(1);
    let order = std::iter::once(0)
        .chain((last > 0).then_some(last))
        .chain(1..last);
    for i in order {
        let Some(date) = dates.get(i) else { continue };
        let chars: Vec<char> = date.chars().collect();
        let len = chars.len();
        if len > width {
            continue;
        }
        // Centred under its run, kept within the plot.
        let start = column(i).saturating_sub(len / 2).min(width - len);
        let end = start + len;
        if taken.iter().any(|&(s, e)| start < e + 2 && s < end + 2) {
            continue;
        }
        taken.push((start, end));
        cells[start..end].copy_from_slice(&chars);
    }
    Line::raw(cells.into_iter().collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_wraps_and_names_every_line() {
        let names: Vec<String> = (0..12).map(|i| format!("Brand number {i}")).collect();
        let rows = legend_rows(&names, 40);
        let text: Vec<String> = rows
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        assert!(rows.len() > 1);
        for row in &text {
            assert!(row.width() <= 40, "{row}");
        }
        for (i, name) in names.iter().enumerate() {
            let entry = format!("{} {name}", chart_scale::marker(i));
            assert!(
                text.iter().any(|row| row.contains(&entry)),
                "{entry}: {text:?}"
            );
        }
        // A name wider than the row is cut with `…`, not dropped.
        let long = legend_rows(&["A very long brand name indeed".to_string()], 12);
        let row: String = long[0].spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(row.ends_with('…') && row.width() <= 12, "{row}");
    }

    #[test]
    fn dates_never_touch() {
        let dates: Vec<String> = (1..=30).map(|d| format!("{d} Nov 06:15")).collect();
        let line: String = date_line(&dates, 60, [0.0, 29.0]).to_string();
        assert!(line.starts_with("1 Nov 06:15"), "{line}");
        assert!(line.trim_end().ends_with("30 Nov 06:15"), "{line}");
        assert!(!line.contains("15 1") && !line.contains("1530"), "{line}");
    }
}
