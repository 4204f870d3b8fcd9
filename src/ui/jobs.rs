//! The Jobs tab: the table of queued jobs, or a text result open over it.

use crate::app::keymap::{Action, Context};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::App;
use crate::app::jobs_tab::{NextStep, summary_of};
use crate::jobs::JobState;

use super::list::{self, Columns, ago};
use super::{pane, text_view, theme};
use crate::measure::size;

const TITLES: [&str; 8] = [
    "kind", "request", "id", "state", "age", "polled", "polls", "size",
];

pub(super) fn draw(app: &App, frame: &mut Frame, body: Rect) {
    let jobs = &app.jobs;
    if let Some(reader) = &jobs.reader {
        let block = pane(
            Line::from(vec![
                Span::styled(format!(" {} ", reader.title), theme::title()),
                Span::styled(
                    format!(" {} back ", app.key_of(Context::Jobs, Action::Back)),
                    theme::dim(),
                ),
            ]),
            true,
        );
        let inner = block.inner(body);
        frame.render_widget(block, body);
        text_view::draw_prose(
            frame,
            inner,
            &reader.body,
            reader.scroll,
            0,
            reader.find.as_ref(),
        );
        return;
    }
    let mut area = body;
    if let Some(reason) = &jobs.memory_only {
        let [note, rest] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(body);
        frame.render_widget(
            Paragraph::new(Line::styled(
                format!("Memory only: {reason}"),
                theme::error(),
            )),
            note,
        );
        area = rest;
    }
    let counts = jobs.scheduler.counts();
    let mut title = vec![Span::styled(" Jobs ", theme::title())];
    let stored = |state: JobState| jobs.stored_count(state);
    // The same words as the state column: a job in `error` is not counted as pending, and
    // every ended job is counted, failed and expired ones too.
    let mut parts = vec![format!("{} pending", counts.pending)];
    if counts.error > 0 {
        parts.push(format!("{} error (retrying)", counts.error));
    }
    parts.push(format!("{} done", stored(JobState::Done)));
    for (state, word) in [(JobState::Failed, "failed"), (JobState::Expired, "expired")] {
        let n = stored(state);
        if n > 0 {
            parts.push(format!("{n} {word}"));
        }
    }
    let polling = jobs.scheduler.in_flight();
    if polling > 0 {
        parts.push(format!("{polling} polling"));
    }
    title.push(Span::styled(
        format!("{} ", parts.join(" · ")),
        theme::dim(),
    ));
    // A long history of jobs is listed by its newest; History lists and searches them all.
    if jobs.left_out() > 0 {
        title.push(Span::styled(
            format!("· the newest {} listed ", jobs.rows.len()),
            theme::dim(),
        ));
    }
    if !jobs.list.filter.is_empty() {
        title.push(Span::styled(
            format!("· {} ", jobs.list.count_label("shown")),
            theme::accent(),
        ));
    }
    let widths = [
        Constraint::Length(7),
        Constraint::Min(12),
        Constraint::Length(8),
        Constraint::Length(7),
        Constraint::Length(4),
        Constraint::Length(6),
        Constraint::Length(5),
        Constraint::Length(8),
    ];
    let wall = app.wall;
    list::draw(
        frame,
        area,
        list::Frame {
            title: Line::from(title),
            footer: jobs
                .selected_next_step(wall)
                .map(|(id, step)| footer(id, step)),
            empty: &format!(
                "No jobs yet. Press {} in the Chat or Search form for async mode, then {} queues the request; {} imports a job by its id.",
                app.key_of(Context::Form, Action::ToggleAsync),
                app.key_of(Context::Editing, Action::Send),
                app.key_of(Context::Jobs, Action::ImportJob)
            ),
        },
        Columns {
            titles: &TITLES,
            widths: &widths,
        },
        &jobs.list,
        |i| {
            let job = &jobs.rows[i];
            let summary = summary_of(job);
            let matched = jobs.list.matched_in(i, summary.chars().count());
            vec![
                Line::raw(job.kind.to_string()),
                list::highlighted(summary, &matched, Style::default()),
                Line::styled(job.id.short().to_string(), theme::muted()),
                Line::styled(job.state.to_string(), state_style(job.state)),
                Line::raw(ago(job.age_ms(wall))),
                Line::raw(
                    job.last_poll_at
                        .map_or("–".to_string(), |at| ago(wall - at)),
                ),
                Line::raw(job.attempts.to_string()),
                Line::raw(job.result_size.map_or("–".to_string(), size)),
            ]
        },
    );
}

/// The selected job's full id and what comes next for it (or why it stopped).
fn footer(id: String, step: NextStep) -> Line<'static> {
    let what = match step {
        NextStep::Error(error) => Span::styled(format!(" {error} "), theme::error()),
        NextStep::PollIn(wait) => {
            Span::styled(format!(" next poll in {} ", ago(wait)), theme::dim())
        }
        NextStep::Polling => Span::styled(" polling ", theme::dim()),
        NextStep::Open => Span::styled(" Enter opens the result ", theme::dim()),
        NextStep::Resubmit => Span::styled(" R re-submits it ", theme::dim()),
        NextStep::Nothing => Span::raw(""),
    };
    Line::from(vec![Span::styled(format!(" {id} "), theme::muted()), what])
}

fn state_style(state: JobState) -> Style {
    match state {
        JobState::Pending => theme::accent(),
        JobState::Done => theme::ok(),
        JobState::Failed | JobState::Expired | JobState::Error => theme::error(),
    }
}
