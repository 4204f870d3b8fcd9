//! One alert of a set in its form: the brand, the measure, the change and the threshold a
//! row each, what each means, the alert as it reads, and what the file's check refuses.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::analysis::alerts::{Alert, Condition, Measure, number};
use crate::analysis::workspace::location_spec;
use crate::app::App;
use crate::app::keymap::{Action, Context};
use crate::app::set_alerts::{ALERT_ROWS, AlertDraft, AlertRow, MEASURES, change_words};
use crate::app::sets::SetEditor;

use super::fit::fit_line;
use super::theme;

const LABEL_WIDTH: usize = 11;

pub(super) fn draw(
    app: &App,
    editor: &SetEditor,
    draft: &AlertDraft,
    frame: &mut Frame,
    area: Rect,
) {
    let key = |action| app.key_of(Context::SetEditor, action);
    let what = if draft.index.is_some() {
        "An alert"
    } else {
        "A new alert"
    };
    let title = format!(
        " {what} of {} · {} changes a row · {} keeps it · {} drops it ",
        editor.set.name,
        key(Action::Accept),
        key(Action::Send),
        key(Action::Back)
    );
    let block = crate::ui::fit::titled_block(title, area.width);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let alert = &draft.alert;
    let mut rows: Vec<Line> = ALERT_ROWS
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut spans = vec![Span::styled(
                format!(" {:<LABEL_WIDTH$}", label(alert, *row)),
                theme::dim(),
            )];
            spans.extend(value_spans(alert, *row, i == draft.row));
            fit_line(Line::from(spans), inner.width)
        })
        .collect();
    if !alert.locations.is_empty() {
        let places: Vec<String> = alert.locations.iter().map(location_spec).collect();
        rows.push(fit_line(
            Line::from(vec![
                Span::styled(format!(" {:<LABEL_WIDTH$}", "places"), theme::dim()),
                Span::raw(places.join(", ")),
                Span::styled("  as the file has them", theme::dim()),
            ]),
            inner.width,
        ));
    }
    let mut text = vec![
        Line::from(vec![
            Span::styled("Reads: ", theme::dim()),
            Span::styled(alert.to_string(), theme::title()),
        ]),
        Line::styled(format!("Fires {}.", meaning(alert)), theme::dim()),
    ];
    match &draft.problem {
        Some(problem) => text.push(Line::styled(format!("Refused: {problem}."), theme::error())),
        None => text.push(Line::styled(
            format!(
                "{} picks the brand or models, steps through a row's choices or types the threshold; {} keeps the alert in the set, whose {} then writes the file.",
                key(Action::Accept),
                key(Action::Send),
                key(Action::Send),
            ),
            theme::dim(),
        )),
    }
    let rows_height = u16::try_from(rows.len()).unwrap_or(u16::MAX);
    let [rows_area, _, text_area] = Layout::vertical([
        Constraint::Length(rows_height),
        Constraint::Length(1),
        Constraint::Min(1),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(rows), rows_area);
    frame.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: true }),
        // One column in, as the rows' labels.
        Rect {
            x: text_area.x + 1,
            width: text_area.width.saturating_sub(1),
            ..text_area
        },
    );
}

fn label(alert: &Alert, row: AlertRow) -> &'static str {
    match row {
        AlertRow::Subject if alert.brand.is_none() => "domain",
        AlertRow::Subject => "brand",
        AlertRow::Measure => "measure",
        AlertRow::Change => "change",
        AlertRow::Threshold => "threshold",
        AlertRow::Models => "models",
    }
}

/// A row's value: the brand and threshold as they are, the measure and change among their
/// choices, the one chosen marked.
fn value_spans(alert: &Alert, row: AlertRow, focused: bool) -> Vec<Span<'static>> {
    let chosen = if focused {
        theme::selected()
    } else {
        theme::accent()
    };
    let choices = |all: Vec<&'static str>, current: &str| -> Vec<Span<'static>> {
        let mut spans = Vec::new();
        for (i, choice) in all.into_iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" · ", theme::dim()));
            }
            // Marked without colour too.
            if choice == current {
                spans.push(Span::styled(format!("[{choice}]"), chosen));
            } else {
                spans.push(Span::styled(choice, theme::dim()));
            }
        }
        spans
    };
    match row {
        AlertRow::Subject => vec![Span::styled(alert.subject().to_string(), chosen)],
        AlertRow::Measure => choices(
            MEASURES.iter().map(|m| m.words()).collect(),
            alert.measure.words(),
        ),
        AlertRow::Change => choices(
            vec!["below", "above", "drops by"],
            change_words(alert.condition),
        ),
        AlertRow::Threshold => {
            let unit = match (alert.measure.is_percent(), alert.condition) {
                (true, Condition::DropsBy(_)) => " points",
                (true, _) => " %",
                (false, _) => "",
            };
            vec![Span::styled(
                format!("{}{unit}", number(alert.condition.threshold())),
                chosen,
            )]
        }
        AlertRow::Models if alert.models.is_empty() => {
            let style = if focused { chosen } else { theme::dim() };
            vec![Span::styled("every model's answers", style)]
        }
        AlertRow::Models => vec![Span::styled(alert.models.join(", "), chosen)],
    }
}

/// When the alert fires, in words.
fn meaning(alert: &Alert) -> String {
    let measure = match alert.measure {
        Measure::Visibility => "the share of the set's answers that name it",
        Measure::ShareOfVoice => "its share of every watched brand's mentions",
        Measure::Position => "the average place it is first named at (1 is first)",
        Measure::BestRank => "the best Google rank of its domains over the set's terms",
        Measure::MeanRank => "the mean Google rank of its domains over the set's terms",
    };
    let points = if alert.measure.is_percent() {
        " points"
    } else {
        ""
    };
    let threshold = number(alert.condition.threshold());
    let when = match alert.condition {
        Condition::Below(_) => format!("when it is below {threshold}"),
        Condition::Above(_) => format!("when it is above {threshold}"),
        Condition::DropsBy(_) => {
            format!("when it is worse than in the run before by {threshold}{points} or more")
        }
    };
    format!("after a run {when}; {} is {measure}", alert.measure.words())
}
