//! One alert of a set in its form: the brand, the measure, the change and the threshold a
//! row each, what each means, the alert as it reads, and what the file's check refuses.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

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
        " {what} of the set {} · {} changes a row · {} keeps it · {} drops it ",
        editor.set.name,
        key(Action::Accept),
        key(Action::Send),
        key(Action::Back)
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme::border())
        .title(fit_line(
            Line::styled(title, theme::title()),
            area.width.saturating_sub(2),
        ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let alert = &draft.alert;
    let mut lines: Vec<Line> = ALERT_ROWS
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let (label, value) = row_text(alert, *row);
            let style = if i == draft.row {
                theme::selected()
            } else {
                theme::accent()
            };
            fit_line(
                Line::from(vec![
                    Span::styled(format!(" {label:<LABEL_WIDTH$}"), theme::dim()),
                    Span::styled(value, style),
                    Span::styled(format!("  {}", row_note(alert, *row)), theme::dim()),
                ]),
                inner.width,
            )
        })
        .collect();
    if let Some(scope) = scope(alert) {
        lines.push(fit_line(
            Line::from(vec![
                Span::styled(format!(" {:<LABEL_WIDTH$}", "only"), theme::dim()),
                Span::raw(scope),
                Span::styled("  as the file has it", theme::dim()),
            ]),
            inner.width,
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(" Reads: ", theme::dim()),
        Span::styled(alert.to_string(), theme::title()),
    ]));
    lines.push(Line::styled(
        format!(" Fires {}.", meaning(alert)),
        theme::dim(),
    ));
    match &draft.problem {
        Some(problem) => lines.push(Line::styled(
            format!(" Refused: {problem}."),
            theme::error(),
        )),
        None => lines.push(Line::styled(
            format!(
                " {} keeps it in the set; the set's {} then writes the file. `vantage track check {}` checks a set's alerts from a schedule.",
                key(Action::Send),
                key(Action::Send),
                editor.set.name
            ),
            theme::dim(),
        )),
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// A row's label and value.
fn row_text(alert: &Alert, row: AlertRow) -> (&'static str, String) {
    match row {
        AlertRow::Subject if alert.brand.is_none() => ("domain", alert.subject().to_string()),
        AlertRow::Subject => ("brand", alert.subject().to_string()),
        AlertRow::Measure => ("measure", alert.measure.words().to_string()),
        AlertRow::Change => ("change", change_words(alert.condition).to_string()),
        AlertRow::Threshold => {
            let unit = match (alert.measure.is_percent(), alert.condition) {
                (true, Condition::DropsBy(_)) => " points",
                (true, _) => " %",
                (false, _) => "",
            };
            (
                "threshold",
                format!("{}{unit}", number(alert.condition.threshold())),
            )
        }
    }
}

/// What Enter does on the row, or what the value means.
fn row_note(alert: &Alert, row: AlertRow) -> String {
    match row {
        AlertRow::Subject => "(Enter picks a tracked brand)".to_string(),
        AlertRow::Measure => {
            let others: Vec<&str> = MEASURES
                .iter()
                .filter(|m| **m != alert.measure)
                .map(|m| m.words())
                .collect();
            format!("(Enter: {})", others.join(", "))
        }
        AlertRow::Change => "(Enter: below, above, drops by)".to_string(),
        AlertRow::Threshold => "(Enter types it)".to_string(),
    }
}

/// The models and places the alert is kept to, when it is.
fn scope(alert: &Alert) -> Option<String> {
    let places: Vec<String> = alert.locations.iter().map(location_spec).collect();
    let parts: Vec<String> = [alert.models.join(", "), places.join(", ")]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
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
    let threshold = number(alert.condition.threshold());
    let when = match alert.condition {
        Condition::Below(_) => format!("when it is below {threshold}"),
        Condition::Above(_) => format!("when it is above {threshold}"),
        Condition::DropsBy(_) => {
            format!("when a run is worse than the run before by {threshold} or more")
        }
    };
    format!(
        "{when}, after a run; {} is {measure}",
        alert.measure.words()
    )
}
