//! Track's answers of one cell: the set's cells to pick from, then the cell's runs newest
//! first (the two compared marked) beside the selected run's answer or what changed
//! between the marked runs: brands, order, stance, sources and the word diff.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::app::App;
use crate::app::keymap::Action;
use crate::app::track_answers::{CellAnswersState, CellPane, key};
use crate::track::answers::{CellAnswer, CellHistory, CellRun, CellStatus, run_time, words_line};

use super::fit::{fit_line, fit_str};
use super::theme;

/// The runs' column: a mark, the date and time, the status.
const RUNS_WIDTH: u16 = 27;

pub(super) fn draw(app: &App, state: &CellAnswersState, frame: &mut Frame, area: Rect) {
    match &state.history {
        None => draw_cells(app, state, frame, area),
        Some(history) => draw_runs(app, state, history, frame, area),
    }
}

fn draw_cells(app: &App, state: &CellAnswersState, frame: &mut Frame, area: Rect) {
    let title = format!(
        " Answers of {} · pick a prompt × model × place · {} opens · {} closes ",
        state.set,
        key(app, Action::Accept),
        key(app, Action::Back)
    );
    let outer = crate::ui::fit::titled_block(title, area.width);
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    if let Some(cell) = &state.loading {
        let line = Line::styled(
            format!(
                "Reading the answers of “{}” · {}…",
                cell.prompt,
                cell.vantage()
            ),
            theme::dim(),
        );
        frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: true }), inner);
        return;
    }
    let height = usize::from(inner.height);
    let offset = super::text_view::list_offset(state.cell_selected, height);
    let vantage_width = state
        .cells
        .iter()
        .map(|c| c.vantage().chars().count())
        .max()
        .unwrap_or(0)
        .min(usize::from(inner.width / 2));
    let lines: Vec<Line> = state
        .cells
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, cell)| {
            let style = if i == state.cell_selected {
                theme::selected()
            } else {
                Style::default()
            };
            let vantage = fit_str(&cell.vantage(), vantage_width);
            fit_line(
                Line::from(vec![
                    Span::styled(format!("{vantage:<vantage_width$}  "), theme::muted()),
                    Span::styled(cell.prompt.clone(), style),
                ]),
                inner.width,
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// "11-27 21:23:26", the run's start as the list shows it (UTC, the year left out).
fn when(started_at: i64) -> String {
    let time = run_time(started_at);
    time.get(5..time.len() - 1)
        .map_or(time.clone(), str::to_string)
}

fn status_style(status: CellStatus) -> Style {
    match status {
        CellStatus::Answered => theme::ok(),
        CellStatus::Failed | CellStatus::Refused | CellStatus::Unreadable => theme::error(),
        CellStatus::Pending | CellStatus::NotAsked => theme::dim(),
    }
}

fn draw_runs(
    app: &App,
    state: &CellAnswersState,
    history: &CellHistory,
    frame: &mut Frame,
    area: Rect,
) {
    let cell = &history.cell;
    let title = format!(" “{}” · {} ", cell.prompt, cell.vantage());
    let keys = format!(
        " {} marks two runs to compare · {} answer / changes · {} back ",
        key(app, Action::ToggleMark),
        key(app, Action::NextView),
        key(app, Action::Back)
    );
    let outer = crate::ui::fit::titled_block(title, area.width).title_bottom(fit_line(
        Line::styled(keys, theme::dim()),
        area.width.saturating_sub(2),
    ));
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let runs_width = RUNS_WIDTH.min(inner.width / 2);
    let [runs_area, pane_area] =
        Layout::horizontal([Constraint::Length(runs_width), Constraint::Min(10)]).areas(inner);
    draw_run_list(state, history, frame, runs_area);
    let pane = Block::default()
        .borders(Borders::LEFT)
        .border_style(theme::border());
    let text_area = pane.inner(pane_area);
    frame.render_widget(pane, pane_area);
    let lines = match state.pane {
        CellPane::Answer => answer_lines(history.runs.get(state.run_selected)),
        CellPane::Changes => changes_lines(state, history),
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((state.scroll, 0)),
        text_area,
    );
}

fn draw_run_list(state: &CellAnswersState, history: &CellHistory, frame: &mut Frame, area: Rect) {
    let height = usize::from(area.height);
    let offset = super::text_view::list_offset(state.run_selected, height);
    let lines: Vec<Line> = history
        .runs
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, run)| {
            let mark = if state.marked.contains(&i) {
                "● "
            } else {
                "  "
            };
            let style = if i == state.run_selected {
                theme::selected()
            } else {
                Style::default()
            };
            fit_line(
                Line::from(vec![
                    Span::styled(mark, theme::accent()),
                    Span::styled(when(run.started_at), style),
                    Span::raw(" "),
                    Span::styled(run.status.label(), status_style(run.status)),
                ]),
                area.width,
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

fn answer_lines(run: Option<&CellRun>) -> Vec<Line<'static>> {
    let Some(run) = run else {
        return Vec::new();
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("Run {} · ", run_time(run.started_at)),
            theme::title(),
        ),
        Span::styled(run.status.label(), status_style(run.status)),
    ])];
    let Some(answer) = &run.answer else {
        lines.push(Line::styled(
            "No answer of this cell in that run: ↑ ↓ choose another.",
            theme::dim(),
        ));
        return lines;
    };
    lines.extend(reading_lines(answer));
    lines.push(Line::raw(""));
    if !answer.text_read {
        lines.push(Line::styled("Reading the answer's words…", theme::dim()));
        return lines;
    }
    lines.extend(
        answer
            .text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| Line::raw(l.to_string())),
    );
    lines
}

/// The brands in the answer's order with their stance, and the cited domains.
fn reading_lines(answer: &CellAnswer) -> Vec<Line<'static>> {
    let mut brands = vec![Span::styled("Brands: ", theme::muted())];
    if answer.brands.is_empty() {
        brands.push(Span::styled("none named", theme::dim()));
    }
    for (i, b) in answer.brands.iter().enumerate() {
        if i > 0 {
            brands.push(Span::raw(", "));
        }
        let at = b.position.map_or(String::new(), |p| format!("#{p} "));
        brands.push(Span::styled(format!("{at}{}", b.brand), theme::brand()));
        brands.push(Span::styled(format!(" ({})", b.stance), theme::dim()));
    }
    let sources = if answer.sources.is_empty() {
        "none cited".to_string()
    } else {
        answer.sources.join(", ")
    };
    vec![
        Line::from(brands),
        Line::from(vec![
            Span::styled("Sources: ", theme::muted()),
            Span::raw(sources),
        ]),
    ]
}

fn changes_lines(state: &CellAnswersState, history: &CellHistory) -> Vec<Line<'static>> {
    let (Some(changes), Some((older, newer))) = (&state.changes, state.pair()) else {
        return vec![Line::styled(
            "Mark two runs that answered (Space) to see what changed between them.",
            theme::dim(),
        )];
    };
    let at = |i: usize| {
        history
            .runs
            .get(i)
            .map_or(String::new(), |r| when(r.started_at))
    };
    let mut lines = vec![Line::styled(
        format!("From {} to {}", at(older), at(newer)),
        theme::title(),
    )];
    let words = changes.words.as_ref();
    let words_said = words.map(words_line);
    for line in changes.lines() {
        if Some(&line) == words_said.as_ref() {
            continue;
        }
        lines.push(Line::raw(format!("• {line}")));
    }
    let unread = [older, newer].iter().any(|&i| {
        history
            .runs
            .get(i)
            .and_then(|r| r.answer.as_ref())
            .is_some_and(|a| !a.text_read)
    });
    if unread {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Reading the answers' words…", theme::dim()));
        return lines;
    }
    if let Some(words) = words {
        lines.push(Line::raw(""));
        lines.push(Line::styled(words_line(words), theme::muted()));
        if words.added_words + words.removed_words > 0 {
            lines.extend(super::word_diff::lines(words));
        }
    }
    lines
}
