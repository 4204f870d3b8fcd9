//! The Compare tab: the prompt, the axes with what a run costs, then the answers side by side
//! (paged horizontally when they do not fit), the summary of what differs, or the search rank
//! table.

use crate::app::keymap::{Action, Context};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::api::request::shorten;
use crate::app::call::{CallState, spinner_frame};
use crate::app::compare::{
    Column, CompareFocus, CompareMode, ComparePane, CompareState, cost_line, in_flight_cap,
};
use crate::app::{App, elapsed_since, layout, seconds_until};
use crate::measure::size;
use crate::present::compare::summary::{self, Movement};

use super::fit::{self, fit_line};
use super::form::{PromptBox, draw_prompt_box};
use super::text_view::{draw_prose, visible_lines};
use super::{pane, theme};

mod views;

/// Narrowest a column is drawn; more columns than fit page horizontally.
pub(super) const MIN_COLUMN_WIDTH: u16 = 30;

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let compare = &app.compare;
    let prompt_rows =
        layout::wrapped_rows(compare.prompt.lines(), body.width.saturating_sub(2)).clamp(1, 4);
    let axes = axes_lines(app);
    let inner_width = usize::from(body.width.saturating_sub(2).max(1));
    // Short screens: while the columns have the focus, the setup box folds to one line.
    let folded = body.height < layout::COMPACT_BELOW && compare.focus == CompareFocus::Columns;
    let axes_height = if folded {
        1
    } else {
        axes.iter()
            .map(|l| l.width().max(1).div_ceil(inner_width))
            .sum::<usize>()
            .clamp(3, 6) as u16
            + 2
    };
    let [prompt_area, axes_area, main] = Layout::vertical([
        Constraint::Length(prompt_rows as u16 + 2),
        Constraint::Length(axes_height),
        Constraint::Min(0),
    ])
    .areas(body);
    let key = |action| app.key_of(Context::Compare, action);
    let (title, hint) = match compare.mode {
        CompareMode::Answers => (
            " Prompt for every column ",
            format!(
                "Press {} to type the prompt; {} runs every column. {} switches to comparing search ranks.",
                key(Action::EditPrompt),
                key(Action::Send),
                key(Action::ToggleMode)
            ),
        ),
        CompareMode::Search => (
            " Search terms for every column ",
            format!(
                "Press {} to type the terms; {} runs every column. {} switches to comparing answers.",
                key(Action::EditPrompt),
                key(Action::Send),
                key(Action::ToggleMode)
            ),
        ),
    };
    draw_prompt_box(
        frame,
        prompt_area,
        &compare.prompt,
        PromptBox {
            title,
            count: compare.prompt_chars(),
            limit: compare.prompt_limit(),
            focused: compare.focus == CompareFocus::Prompt,
            hint: &hint,
        },
    );
    if folded {
        draw_folded_axes(app, frame, axes_area);
    } else {
        draw_axes(axes, frame, axes_area);
    }
    match (compare.mode, compare.pane) {
        (CompareMode::Search, _) => draw_search(app, frame, main),
        (CompareMode::Answers, ComparePane::Summary) => draw_summary(compare, frame, main),
        (CompareMode::Answers, ComparePane::Columns) => draw_columns(app, frame, main),
        (CompareMode::Answers, ComparePane::Matrix) => views::draw_matrix(app, frame, main),
        (CompareMode::Answers, ComparePane::Sources) => views::draw_sources(app, frame, main),
        (CompareMode::Answers, ComparePane::Diff) => views::draw_diff(app, frame, main),
    }
}

fn source_name(source: &crate::present::compare::AnswerSource) -> String {
    match source {
        crate::present::compare::AnswerSource::Model(model) => model.as_str().to_string(),
        crate::present::compare::AnswerSource::AiOverview => {
            crate::present::compare::AI_OVERVIEW.to_string()
        }
    }
}

fn labelled(label: &str, value: String) -> Vec<Span<'static>> {
    vec![
        Span::styled(format!("{label} "), theme::muted()),
        Span::raw(value),
        Span::raw("   "),
    ]
}

fn list(items: Vec<String>, none: &str) -> String {
    if items.is_empty() {
        none.to_string()
    } else {
        items.join(", ")
    }
}

fn draw_axes(lines: Vec<Line<'static>>, frame: &mut Frame, area: Rect) {
    let block = pane(Line::styled(" Columns from ", theme::title()), false);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| fit_line(l, inner.width))
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The setup box folded to a line: what a run costs, and how to see the rest.
fn draw_folded_axes(app: &App, frame: &mut Frame, area: Rect) {
    let (cost, allowed) = cost_line(app);
    let style = if allowed {
        theme::accent().add_modifier(Modifier::BOLD)
    } else {
        theme::error().add_modifier(Modifier::BOLD)
    };
    let what = match app.compare.mode {
        CompareMode::Answers => "· Tab shows the models, devices and locations",
        CompareMode::Search => "· Tab shows the locations and IP types",
    };
    let rest = shorten(
        what,
        usize::from(area.width).saturating_sub(cost.chars().count() + 3),
    );
    let line = Line::from(vec![
        Span::raw(" "),
        Span::styled(cost, style),
        Span::raw("  "),
        Span::styled(rest, theme::dim()),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// The axes, and what a run costs.
fn axes_lines(app: &App) -> Vec<Line<'static>> {
    let compare = &app.compare;
    let axes = &compare.axes;
    let locations: Vec<String> = axes.locations.iter().map(summary::location_label).collect();
    let cache = match (axes.no_cache, compare.sampled()) {
        (_, true) => "off (samples)",
        (true, false) => "off",
        (false, false) => "on",
    };
    let first = match compare.mode {
        CompareMode::Answers => {
            let mut spans = labelled(
                "models",
                list(
                    axes.sources().iter().map(source_name).collect(),
                    "chatgpt (default)",
                ),
            );
            spans.extend(labelled(
                "devices",
                list(axes.devices.clone(), crate::devices::DESKTOP),
            ));
            spans.extend(labelled("format", axes.format.to_string()));
            spans.extend(labelled("cache", cache.to_string()));
            spans.extend(labelled("samples", axes.samples().to_string()));
            spans
        }
        CompareMode::Search => {
            let mut spans = labelled(
                "IP types",
                list(
                    axes.ips.iter().map(|ip| ip.as_str().to_string()).collect(),
                    "any",
                ),
            );
            spans.extend(labelled("other settings", "the Search tab's".to_string()));
            spans.extend(labelled("cache", cache.to_string()));
            spans
        }
    };
    let (cost, allowed) = cost_line(app);
    let hand = compare.columns.iter().filter(|c| c.by_hand).count();
    let mut cost_spans = vec![Span::styled(
        cost,
        if allowed {
            theme::accent().add_modifier(Modifier::BOLD)
        } else {
            theme::error().add_modifier(Modifier::BOLD)
        },
    )];
    if hand > 0 {
        cost_spans.push(Span::styled(
            format!(" ({hand} added by hand)"),
            theme::dim(),
        ));
    }
    // Through the queue every column is asked at once; else a few at a time.
    let at_once = match app.compare.columns.len() > crate::present::compare::MAX_COLUMNS {
        true => String::new(),
        false => format!(" · at most {} at once", in_flight_cap(app)),
    };
    cost_spans.push(Span::styled(
        format!(
            " {at_once} · {} runs · {} keys",
            app.key_of(Context::Compare, Action::Send),
            app.key_of(Context::Normal, Action::Help)
        ),
        theme::dim(),
    ));
    vec![
        Line::from(first),
        Line::from(labelled(
            "locations",
            list(locations, "any (the service picks)"),
        )),
        Line::from(cost_spans),
    ]
}

/// Which columns are on screen: the page holding the focused one.
pub(super) fn visible_columns(compare: &CompareState, width: u16) -> std::ops::Range<usize> {
    let n = compare.columns.len();
    if n == 0 {
        return 0..0;
    }
    if compare.full {
        return compare.selected..compare.selected + 1;
    }
    let per_page = usize::from((width / MIN_COLUMN_WIDTH).max(1)).min(n);
    let start = (compare.selected / per_page) * per_page;
    start..(start + per_page).min(n)
}

fn draw_columns(app: &App, frame: &mut Frame, area: Rect) {
    let compare = &app.compare;
    let n = compare.columns.len();
    let shown = visible_columns(compare, area.width);
    let sync = if compare.sync { "together" } else { "alone" };
    let title = if n == 0 {
        " Answers ".to_string()
    } else if compare.full {
        format!(
            " Column {} of {n}, full width · Enter back ",
            compare.selected + 1
        )
    } else {
        format!(
            " Columns {}–{} of {n} · ←→ focus · Enter full width · ] summary · z scroll {sync} ",
            shown.start + 1,
            shown.end
        )
    };
    let nothing_run = compare
        .columns
        .iter()
        .all(|c| c.outcome.is_none() && !c.queued && matches!(c.call, CallState::Idle));
    if nothing_run {
        let block = pane(Line::styled(" Answers ", theme::title()), false);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let mut lines = vec![
            Line::styled(
                "Ask one prompt from several vantage points and read the answers side by side.",
                theme::title(),
            ),
            Line::styled(
                "Choose models (m), devices (d) and locations (c, then s and t for the last one); each combination is a column; a asks each several times (samples). Esc leaves the prompt; r or Enter in the prompt runs them all.",
                theme::dim(),
            ),
            Line::raw(""),
        ];
        for (i, column) in compare.columns.iter().enumerate() {
            let hand = if column.by_hand {
                "  (added by hand)"
            } else {
                ""
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{:>3}  ", i + 1), theme::muted()),
                Span::raw(column.vantage.label(CompareMode::Answers)),
                Span::styled(hand, theme::dim()),
            ]));
        }
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
        return;
    }
    let [title_area, columns_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(
        Paragraph::new(Line::styled(title, theme::muted())),
        title_area,
    );
    let count = shown.len() as u32;
    let areas =
        Layout::horizontal((0..count).map(|_| Constraint::Ratio(1, count))).split(columns_area);
    for (slot, i) in shown.enumerate() {
        draw_column(app, i, &compare.columns[i], frame, areas[slot]);
    }
}

fn draw_column(app: &App, index: usize, column: &Column, frame: &mut Frame, area: Rect) {
    let compare = &app.compare;
    let focused = index == compare.selected && compare.focus == CompareFocus::Columns;
    let model = column.vantage.source_name();
    // The column Esc, R, Enter and the diff act on is told apart without colour too: a
    // marker in its title and a thick border.
    let marker = if index == compare.selected {
        "▶ "
    } else {
        ""
    };
    let block = pane(
        Line::styled(format!(" {marker}{} {model} ", index + 1), theme::title()),
        focused,
    );
    let block = match focused {
        true => block.border_type(ratatui::widgets::BorderType::Thick),
        false => block,
    };
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let device = match &column.vantage.device {
        Some(device) => device.as_str(),
        None if column.vantage.overview => "Google",
        None => crate::devices::DESKTOP,
    };
    let place = summary::location_label(&column.vantage.location);
    let mut lines = vec![Line::styled(
        shorten(&format!("{place} · {device}"), width),
        theme::muted(),
    )];
    lines.extend(status_lines(app, column));
    let header_height = (lines.len() as u16).min(inner.height);
    let [header, rest] =
        Layout::vertical([Constraint::Length(header_height), Constraint::Min(0)]).areas(inner);
    frame.render_widget(Paragraph::new(lines), header);
    match (column.shown_answer(), &column.call) {
        (Some(answer), _) => draw_prose(
            frame,
            rest,
            &answer.answer,
            column.scroll,
            app.reading_width,
            compare.find.as_ref().filter(|_| index == compare.selected),
        ),
        (None, CallState::Failed(error)) => frame.render_widget(
            Paragraph::new(Line::styled(error.to_string(), theme::error()))
                .wrap(Wrap { trim: true }),
            rest,
        ),
        _ => {}
    }
}

/// The state of one column in a line or two: done with its numbers, queued, running with its
/// spinner and elapsed seconds (and retry countdown), failed, cancelled, or not run.
fn status_lines(app: &App, column: &Column) -> Vec<Line<'static>> {
    if column.queued {
        return vec![Line::styled("· queued", theme::dim())];
    }
    let mut out = Vec::new();
    if column.cancelled {
        out.push(Line::styled("cancelled · R runs it", theme::key_hint()));
        if column.outcome.is_none() {
            return out;
        }
    }
    out.extend(call_status_lines(app, column));
    if !column.samples.is_empty() {
        out.push(samples_line(column));
    }
    out
}

/// "answer 1 of 5 · 3 back · 2 asking · 1 failed": the answer shown and the column's
/// other asks.
fn samples_line(column: &Column) -> Line<'static> {
    let (back, asked) = column.samples_back();
    let asking = column
        .samples
        .iter()
        .filter(|s| s.queued || s.call.is_running())
        .count();
    let failed = column
        .samples
        .iter()
        .filter(|s| s.call.error().is_some())
        .count();
    let mut spans = vec![
        Span::styled(
            format!("answer {} of {asked}", column.showing + 1),
            theme::title(),
        ),
        Span::styled(format!(" · {back} back · , . step"), theme::muted()),
    ];
    if asking > 0 {
        spans.push(Span::styled(format!(" · {asking} asking"), theme::accent()));
    }
    if failed > 0 {
        spans.push(Span::styled(format!(" · {failed} failed"), theme::error()));
    }
    Line::from(spans)
}

/// The column's call: running, failed, or done with its numbers.
fn call_status_lines(app: &App, column: &Column) -> Vec<Line<'static>> {
    let now = app.now;
    match &column.call {
        CallState::Running {
            started,
            retry,
            landed,
            ..
        } => {
            let mut first = vec![
                Span::styled(
                    format!("{} ", spinner_frame(*started, now)),
                    theme::accent(),
                ),
                Span::raw(format!("{} s", elapsed_since(now, *started).as_secs())),
            ];
            if let Some(landed) = landed {
                first.push(Span::styled(
                    format!(" · reading {}", size(landed.bytes as u64)),
                    theme::dim(),
                ));
            }
            let mut out = vec![Line::from(first)];
            if let Some(countdown) = retry {
                out.push(Line::styled(
                    format!(
                        "↻ retry {} in {} s",
                        countdown.attempt,
                        seconds_until(now, countdown.until)
                    ),
                    theme::key_hint(),
                ));
            }
            out
        }
        CallState::Failed(_) => vec![Line::styled("✗ failed · R retries", theme::error())],
        CallState::Idle => match (column.answer(), column.results()) {
            (Some(answer), _) => vec![Line::styled(
                format!(
                    "✓ {} · {} · {} src",
                    crate::measure::duration(answer.header.elapsed),
                    size(answer.header.bytes as u64),
                    answer.sources.len()
                ),
                theme::ok(),
            )],
            (None, Some(page)) => vec![Line::styled(
                format!(
                    "✓ {} · {} results",
                    crate::measure::duration(page.header.elapsed),
                    crate::present::compare::ranked_results(page).len()
                ),
                theme::ok(),
            )],
            (None, None) => vec![Line::styled("not run", theme::dim())],
        },
    }
}

fn draw_summary(compare: &CompareState, frame: &mut Frame, area: Rect) {
    let block = pane(
        Line::styled(
            " What differs · ] mentions, sources, diff · [ back to the columns ",
            theme::title(),
        ),
        compare.focus == CompareFocus::Columns,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(summary) = &compare.summary else {
        return;
    };
    let mut text = summary.text(false);
    // Where the own brand is missing, before the similarity of the answers.
    if let Some(gaps) = &compare.brand_views.gaps {
        let at = text
            .find("\nSimilarity of the answers")
            .unwrap_or(text.len());
        text.insert_str(at, &format!("\n{}", gaps.text()));
    }
    let note_width = usize::from(inner.width.saturating_sub(2));
    let lines: Vec<Line> = text
        .lines()
        .skip_while(|l| l.is_empty())
        .flat_map(|l| {
            if l.trim_start() == summary::SIMILARITY_NOTE {
                // The one line of prose: wrapped, so its end ("all words") is not cut off.
                fit::wrap_str(summary::SIMILARITY_NOTE, note_width, 3)
                    .into_iter()
                    .map(|row| Line::raw(format!("  {row}")))
                    .collect()
            } else if l.is_empty() || l.starts_with(' ') {
                vec![Line::raw(l.to_string())]
            } else {
                vec![Line::styled(l.to_string(), theme::title())]
            }
        })
        .collect();
    let (visible, _) = visible_lines(&lines, compare.table_scroll, inner.height as usize);
    let visible: Vec<Line> = visible
        .iter()
        .map(|l| fit_line(l.clone(), inner.width))
        .collect();
    frame.render_widget(Paragraph::new(visible), inner);
}

fn movement_style(movement: Movement) -> Style {
    match movement {
        Movement::Up(_) => theme::ok(),
        Movement::Down(_) => theme::error(),
        Movement::New => theme::accent(),
        Movement::Gone => theme::dim(),
        Movement::Same | Movement::Absent => Style::default(),
    }
}

/// Width of one rank cell of the search table.
const CELL: usize = 12;

fn draw_search(app: &App, frame: &mut Frame, area: Rect) {
    let compare = &app.compare;
    let block = pane(
        Line::styled(
            format!(
                " Ranks by {} · S sorts · movement against column 1 · +N sitelinks ",
                compare.sort.label()
            ),
            theme::title(),
        ),
        compare.focus == CompareFocus::Columns,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if compare.columns.is_empty() {
        return;
    }
    let status_rows = (compare.columns.len() as u16).min(inner.height / 2);
    let [status_area, table_area] =
        Layout::vertical([Constraint::Length(status_rows), Constraint::Min(0)]).areas(inner);
    let status: Vec<Line> = compare
        .columns
        .iter()
        .enumerate()
        .take(status_rows as usize)
        .map(|(i, column)| {
            let mut spans = vec![
                Span::styled(format!("#{:<3}", i + 1), theme::title()),
                Span::raw(format!(
                    "{:<28} ",
                    shorten(&column.vantage.label(compare.mode), 28)
                )),
            ];
            for line in status_lines(app, column) {
                spans.extend(line.spans);
                spans.push(Span::raw("  "));
            }
            if let Some(error) = column.call.error() {
                spans.push(Span::styled(error.to_string(), theme::error()));
            }
            fit_line(Line::from(spans), status_area.width)
        })
        .collect();
    frame.render_widget(Paragraph::new(status), status_area);
    if table_area.height < 2 {
        return;
    }
    let mut header = vec![Span::raw(" ")];
    for i in 0..compare.columns.len() {
        header.push(Span::styled(
            format!("{:<CELL$}", format!("#{}", i + 1)),
            theme::muted(),
        ));
    }
    header.push(Span::styled("url", theme::muted()));
    let mut lines = vec![Line::from(header)];
    let brand_rows = views::brand_rank_lines(app, CELL);
    let rows = (table_area.height as usize - 1).saturating_sub(brand_rows.len());
    lines.extend(brand_rows);
    let (visible, _) = visible_lines(&compare.table, compare.table_scroll, rows);
    for row in visible {
        let mut spans = vec![Span::raw(" ")];
        for cell in &row.cells {
            spans.push(Span::styled(
                format!("{:<CELL$}", summary::cell_text(cell)),
                movement_style(cell.movement),
            ));
        }
        spans.push(Span::styled(row.url.clone(), theme::link()));
        lines.push(fit_line(Line::from(spans), table_area.width));
    }
    if compare.table.is_empty() {
        lines.push(Line::styled(
            "No ranked results yet: r runs every column.",
            theme::dim(),
        ));
    }
    frame.render_widget(Paragraph::new(lines), table_area);
}
