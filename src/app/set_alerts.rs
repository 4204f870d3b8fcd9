//! The alerts of a set in the Track tab's set form: each listed as it reads ("Lowa
//! visibility drops by 10 points"), made or changed in a small form of its own (brand,
//! measure, change, threshold) and removed with `d`. An alert is checked as it changes by
//! the workspace file's own reader (`Workspace::check_alert`), so the form refuses what
//! `track check` and the loader refuse, in their words; it is written with the set (Ctrl+S).

use crate::analysis::alerts::{Alert, Condition, Measure, number};
use crate::present::compare::overview::AnswerSource;

use super::keymap::{Action, Context};
use super::picker::{PickItem, Picker, PickerKind};
use super::popup::Popup;
use super::sets::{SetField, SetRow};
use super::{App, Effect};
use crate::app::input::{InputPrompt, InputTarget};

/// A row of the alert's form, in the order drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlertRow {
    Subject,
    Measure,
    Change,
    Threshold,
    Models,
}

pub const ALERT_ROWS: [AlertRow; 5] = [
    AlertRow::Subject,
    AlertRow::Measure,
    AlertRow::Change,
    AlertRow::Threshold,
    AlertRow::Models,
];

/// The measures in the order Enter steps through them.
pub const MEASURES: [Measure; 5] = [
    Measure::Visibility,
    Measure::ShareOfVoice,
    Measure::Position,
    Measure::BestRank,
    Measure::MeanRank,
];

/// An alert being made or changed.
#[derive(Clone, Debug)]
pub struct AlertDraft {
    /// Its place among the set's alerts; none for a new one.
    pub index: Option<usize>,
    pub alert: Alert,
    /// The row under the cursor, an index into [`ALERT_ROWS`].
    pub row: usize,
    /// What the file's check refuses in it as it stands.
    pub problem: Option<String>,
}

impl AlertDraft {
    pub fn current(&self) -> AlertRow {
        ALERT_ROWS[self.row.min(ALERT_ROWS.len() - 1)]
    }
}

/// The change's words, as the alert reads: "below", "above", "drops by".
pub fn change_words(condition: Condition) -> &'static str {
    match condition {
        Condition::Below(_) => "below",
        Condition::Above(_) => "above",
        Condition::DropsBy(_) => "drops by",
    }
}

/// The file's refusal without its key path, for the form: "brand: Lowa has no domains …".
fn in_form_words(problem: &str) -> String {
    problem
        .strip_prefix("alerts.")
        .or_else(|| problem.strip_prefix("alerts: "))
        .unwrap_or(problem)
        .trim_end_matches('.')
        .to_string()
}

/// The draft's alert checked by the file's reader: the alert as it would be read, or what
/// is wrong.
fn check(app: &App, alert: &Alert) -> Result<Alert, String> {
    match app.brands_pane.workspace.as_ref() {
        Some(workspace) => workspace
            .check_alert(alert)
            .map_err(|problem| in_form_words(&problem)),
        None => Err("the workspace file is still being read".to_string()),
    }
}

/// Reads the draft again after a change.
fn recheck(app: &mut App) {
    let Some(alert) = draft(app).map(|d| d.alert.clone()) else {
        return;
    };
    let problem = check(app, &alert).err();
    if let Some(draft) = draft_mut(app) {
        draft.problem = problem;
    }
}

fn draft(app: &App) -> Option<&AlertDraft> {
    app.track.editor.as_ref().and_then(|e| e.alert.as_ref())
}

fn draft_mut(app: &mut App) -> Option<&mut AlertDraft> {
    app.track.editor.as_mut().and_then(|e| e.alert.as_mut())
}

/// Enter on an alert of the set (or on "+ add an alert"): its form.
pub(crate) fn open(app: &mut App, index: Option<usize>) {
    let Some(editor) = app.track.editor.as_ref() else {
        return;
    };
    let alert = match index.and_then(|i| editor.set.alerts.get(i)) {
        Some(alert) => alert.clone(),
        None => {
            // The set's first watched brand, else yours, else the first tracked.
            let workspace = app.brands_pane.workspace.as_ref();
            let own = workspace.and_then(|w| w.own()).map(str::to_string);
            let first = app.brands.first().map(|b| b.name.clone());
            let Some(brand) = editor.set.brands.first().cloned().or(own).or(first) else {
                let brands = app.key_of(Context::Chat, Action::OpenBrands);
                app.flash_error(format!(
                    "An alert watches a tracked brand, and none is tracked: add one in Chat's Brands pane ({brands}) first."
                ));
                return;
            };
            Alert {
                brand: Some(brand),
                domain: None,
                measure: Measure::Visibility,
                condition: Condition::DropsBy(10.0),
                models: Vec::new(),
                locations: Vec::new(),
            }
        }
    };
    if let Some(editor) = app.track.editor.as_mut() {
        editor.alert = Some(AlertDraft {
            index,
            alert,
            row: 0,
            problem: None,
        });
    }
    recheck(app);
}

/// `d` on an alert of the set: taken out of the form (the file changes with Ctrl+S).
pub(crate) fn remove(app: &mut App, index: usize) {
    let Some(editor) = app.track.editor.as_mut() else {
        return;
    };
    if index >= editor.set.alerts.len() {
        return;
    }
    let alert = editor.set.alerts.remove(index);
    editor.changed = true;
    let write = app.key_of(Context::SetEditor, Action::Send);
    app.flash_info(format!(
        "Removed the alert \"{alert}\"; {write} writes the set without it."
    ));
}

/// The keys of the alert's form (the set form's context: the same keys, one level in).
pub(crate) fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(draft) = draft_mut(app) else {
        return Vec::new();
    };
    let last = ALERT_ROWS.len() - 1;
    match action {
        Action::Up => draft.row = draft.row.saturating_sub(1),
        Action::Down => draft.row = (draft.row + 1).min(last),
        Action::Top => draft.row = 0,
        Action::Bottom => draft.row = last,
        Action::Accept => change_row(app),
        Action::Send => keep(app),
        Action::Back => {
            if let Some(editor) = app.track.editor.as_mut() {
                editor.alert = None;
            }
        }
        _ => {}
    }
    Vec::new()
}

/// Enter on a row of the alert: the brand picked, the measure or change stepped, the
/// threshold typed.
fn change_row(app: &mut App) {
    let Some(draft) = draft_mut(app) else {
        return;
    };
    let row = draft.current();
    let alert = &mut draft.alert;
    match row {
        AlertRow::Subject => {
            let picker = subject_picker(app);
            app.popup = Some(Popup::Picker(picker));
            return;
        }
        AlertRow::Measure => {
            let at = MEASURES.iter().position(|m| *m == alert.measure);
            alert.measure = MEASURES[at.map_or(0, |i| (i + 1) % MEASURES.len())];
        }
        AlertRow::Change => {
            let threshold = alert.condition.threshold();
            alert.condition = match alert.condition {
                Condition::Below(_) => Condition::Above(threshold),
                Condition::Above(_) => Condition::DropsBy(threshold),
                Condition::DropsBy(_) => Condition::Below(threshold),
            };
        }
        AlertRow::Threshold => {
            let value = number(alert.condition.threshold());
            app.popup = Some(Popup::Input(
                InputPrompt::new(
                    InputTarget::SetField(SetField::AlertThreshold),
                    "The alert's threshold",
                    value,
                )
                .with_note(
                    "A number: percent points for visibility and share of voice, places for position and rank.".to_string(),
                ),
            ));
            return;
        }
        AlertRow::Models => {
            app.popup = Some(Popup::Picker(models_picker(alert, None)));
            return;
        }
    }
    recheck(app);
}

/// The models the alert is kept to, checked (none: every model's answers).
fn models_picker(alert: &Alert, at: Option<AnswerSource>) -> Picker {
    let checked: Vec<AnswerSource> = alert.models.iter().filter_map(|m| m.parse().ok()).collect();
    super::pickers::sources(&checked, at).with_note(
        "Enter adds or removes a model the alert reads; none checked reads every model; Esc when done.",
    )
}

/// The models picker of the alert chose: the model in or out, the picker open again.
pub(crate) fn toggle_model(app: &mut App, value: Option<String>) {
    let Some(editing) = draft_mut(app) else {
        return;
    };
    let source = value
        .as_deref()
        .and_then(|v| v.parse::<AnswerSource>().ok());
    if let Some(value) = value {
        super::pickers::toggle(&mut editing.alert.models, value.to_ascii_lowercase());
    }
    app.popup = draft(app).map(|d| Popup::Picker(models_picker(&d.alert, source)));
    recheck(app);
}

/// The tracked brands to watch, and the domain the alert watches, if it does.
fn subject_picker(app: &App) -> Picker {
    let current = draft(app).map(|d| d.alert.subject().to_string());
    let domain = draft(app).and_then(|d| d.alert.domain.clone());
    let items = app
        .brands
        .iter()
        .map(|b| PickItem::new(b.name.clone(), Some(b.name.clone()), ""))
        .chain(domain.map(|d| PickItem::new(d.clone(), Some(d), "a domain, by its rank")))
        .collect();
    let brands = app.key_of(Context::Chat, Action::OpenBrands);
    Picker::new(PickerKind::Brand, items, current.as_deref()).with_note(format!(
        "The tracked brand the alert watches (Chat's Brands pane, {brands}, adds one)."
    ))
}

/// The picker of the alert's brand chose.
pub(crate) fn choose_subject(app: &mut App, value: Option<String>) {
    let Some(name) = value else {
        return;
    };
    let tracked = app
        .brands
        .iter()
        .find(|b| b.name.eq_ignore_ascii_case(&name))
        .map(|b| b.name.clone());
    if let Some(draft) = draft_mut(app) {
        match tracked {
            Some(brand) => {
                draft.alert.brand = Some(brand);
                draft.alert.domain = None;
            }
            None => {
                draft.alert.brand = None;
                draft.alert.domain = Some(name);
            }
        }
    }
    recheck(app);
}

/// The threshold typed: a number, else the sentence keeps the field open.
pub(crate) fn apply_threshold(app: &mut App, value: &str) -> Result<(), String> {
    let text = value.trim().trim_end_matches('%').trim();
    let threshold = text
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite())
        .ok_or_else(|| {
            format!(
                "{:?} is not a number; type one like 10 or 2.5.",
                crate::sanitize::excerpt(value, crate::sanitize::QUOTED_CHARS)
            )
        })?;
    if let Some(draft) = draft_mut(app) {
        draft.alert.condition = draft.alert.condition.with_threshold(threshold);
    }
    recheck(app);
    Ok(())
}

/// Ctrl+S in the alert's form: the alert, as the file's check reads it, put in the set's
/// list; refused with the check's sentence.
fn keep(app: &mut App) {
    let Some(draft) = draft(app).cloned() else {
        return;
    };
    let alert = match check(app, &draft.alert) {
        Ok(alert) => alert,
        Err(problem) => {
            app.flash_error(format!("The alert is refused: {problem}."));
            return;
        }
    };
    let Some(editor) = app.track.editor.as_mut() else {
        return;
    };
    let same = editor
        .set
        .alerts
        .iter()
        .enumerate()
        .any(|(i, a)| *a == alert && Some(i) != draft.index);
    if same {
        app.flash_error(format!("The set has the alert \"{alert}\" already."));
        return;
    }
    let at = match draft.index.filter(|i| *i < editor.set.alerts.len()) {
        Some(i) => {
            editor.set.alerts[i] = alert.clone();
            i
        }
        None => {
            editor.set.alerts.push(alert.clone());
            editor.set.alerts.len() - 1
        }
    };
    editor.alert = None;
    editor.changed = true;
    editor.go_to(SetRow::Alert(at));
    let write = app.key_of(Context::SetEditor, Action::Send);
    app.flash_info(format!(
        "The alert \"{alert}\" is in the form; {write} writes the set with it."
    ));
    super::sets::recheck(app);
}

#[cfg(test)]
mod tests {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::analysis::workspace::Workspace;
    use crate::app::test_support::{demo_app, key};
    use crate::app::{Msg, StoreEffect, Tab, update};

    const FILE: &str = "[[brands]]\nname = \"Lowa\"\n[[brands]]\nname = \"Hoka\"\ndomains = [\"hoka.com\"]\n\n[[sets]]\nname = \"boots\"\nprompts = [\"best boots\"]\n\n# Ours.\n[[sets.alerts]]\nbrand = \"lowa\"\nmeasure = \"visibility\"\nbelow = 30\n";

    fn on_the_set_form() -> App {
        let mut app = demo_app();
        app.tab = Tab::Track;
        let workspace = Workspace::parse(std::path::Path::new("/w/vantage.toml"), FILE).unwrap();
        super::super::brands::set_brands(&mut app, workspace.brands().to_vec());
        app.brands_pane.workspace = Some(workspace);
        app.brands_pane.exists = true;
        super::super::sets::open(&mut app, "boots");
        app
    }

    fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
        update(app, key(code))
    }

    fn ctrl_s(app: &mut App) -> Vec<Effect> {
        update(
            app,
            Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
        )
    }

    fn to_row(app: &mut App, row: SetRow) {
        let editor = app.track.editor.as_mut().unwrap();
        editor.go_to(row);
        assert_eq!(editor.current(), row);
    }

    fn alerts(app: &App) -> Vec<String> {
        let editor = app.track.editor.as_ref().unwrap();
        editor.set.alerts.iter().map(ToString::to_string).collect()
    }

    fn flash(app: &App) -> String {
        app.flash
            .as_ref()
            .map(|f| f.text.clone())
            .unwrap_or_default()
    }

    /// Made, changed and removed in the form, written with the set by Ctrl+S: the file
    /// holds them, reads back to them, and keeps the untouched alert's comment.
    #[test]
    fn an_alert_is_added_edited_and_removed_and_written_with_the_set() {
        let mut app = on_the_set_form();
        assert_eq!(alerts(&app), ["Lowa visibility below 30 %"]);
        // Added: Hoka's share of voice drops by 5 points.
        to_row(&mut app, SetRow::AddAlert);
        press(&mut app, KeyCode::Enter);
        let draft = app.track.editor.as_ref().unwrap().alert.clone().unwrap();
        assert_eq!(
            draft.alert.to_string(),
            "Lowa visibility drops by 10 points"
        );
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        assert_eq!(draft_of(&app).subject(), "Hoka");
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        assert_eq!(draft_of(&app).measure, Measure::ShareOfVoice);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        for _ in 0..2 {
            press(&mut app, KeyCode::Backspace);
        }
        update(&mut app, key(KeyCode::Char('5')));
        press(&mut app, KeyCode::Enter);
        // Kept to ChatGPT's answers: the models picker, after its "default" row.
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Esc);
        assert_eq!(draft_of(&app).models, ["chatgpt"]);
        assert!(ctrl_s(&mut app).is_empty(), "kept in the form, not written");
        assert_eq!(
            alerts(&app),
            [
                "Lowa visibility below 30 %",
                "Hoka share of voice drops by 5 points (chatgpt)"
            ]
        );
        assert!(flash(&app).contains("is in the form"), "{}", flash(&app));
        // Edited: the first one's change stepped from below to above.
        to_row(&mut app, SetRow::Alert(0));
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        ctrl_s(&mut app);
        assert_eq!(alerts(&app)[0], "Lowa visibility above 30 %");
        // Written with the set: read back as the form had them.
        let effects = ctrl_s(&mut app);
        let text = saved(&effects);
        let again = Workspace::parse(std::path::Path::new("/w/vantage.toml"), &text).unwrap();
        let read: Vec<String> = again
            .set("boots")
            .unwrap()
            .alerts
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            read,
            [
                "Lowa visibility above 30 %",
                "Hoka share of voice drops by 5 points (chatgpt)"
            ]
        );
        assert!(
            text.contains("measure = \"share_of_voice\"\ndrops_by = 5\nmodels = [\"chatgpt\"]\n"),
            "{text}"
        );
        // Removed with d, and written without it; the other keeps its comment.
        super::super::sets::open(&mut app, "boots");
        to_row(&mut app, SetRow::Alert(0));
        press(&mut app, KeyCode::Char('d'));
        assert_eq!(
            alerts(&app),
            ["Hoka share of voice drops by 5 points (chatgpt)"]
        );
        assert!(
            flash(&app).starts_with("Removed the alert"),
            "{}",
            flash(&app)
        );
        let text = saved(&ctrl_s(&mut app));
        assert!(!text.contains("lowa"), "{text}");
        let again = Workspace::parse(std::path::Path::new("/w/vantage.toml"), &text).unwrap();
        assert_eq!(again.set("boots").unwrap().alerts.len(), 1);
    }

    fn draft_of(app: &App) -> Alert {
        app.track
            .editor
            .as_ref()
            .unwrap()
            .alert
            .as_ref()
            .unwrap()
            .alert
            .clone()
    }

    fn saved(effects: &[Effect]) -> String {
        effects
            .iter()
            .find_map(|e| match e {
                Effect::Store(StoreEffect::SaveWorkspace { text, .. }) => Some(text.clone()),
                _ => None,
            })
            .expect("Ctrl+S writes the workspace file")
    }

    /// What the file's reader refuses is refused in the form with its sentence: a rank of a
    /// brand with no domains, a negative threshold; a threshold that is not a number keeps
    /// the field open.
    #[test]
    fn an_invalid_alert_is_refused_with_the_files_sentence() {
        let mut app = on_the_set_form();
        to_row(&mut app, SetRow::AddAlert);
        press(&mut app, KeyCode::Enter);
        // Lowa's best rank: Lowa has no domains.
        press(&mut app, KeyCode::Down);
        for _ in 0..3 {
            press(&mut app, KeyCode::Enter);
        }
        assert_eq!(draft_of(&app).measure, Measure::BestRank);
        let problem = app
            .track
            .editor
            .as_ref()
            .unwrap()
            .alert
            .as_ref()
            .unwrap()
            .problem
            .clone();
        assert_eq!(
            problem.as_deref(),
            Some(
                "brand: Lowa has no domains in [[brands]], so it has no rank to watch; add its domains"
            )
        );
        assert!(ctrl_s(&mut app).is_empty());
        assert!(
            flash(&app).starts_with("The alert is refused: brand: Lowa has no domains"),
            "{}",
            flash(&app)
        );
        assert_eq!(alerts(&app).len(), 1, "not added");
        // Back to visibility; a negative threshold is refused by the same check.
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Enter);
        assert_eq!(draft_of(&app).measure, Measure::Visibility);
        assert_eq!(apply_threshold(&mut app, "-5"), Ok(()));
        assert!(ctrl_s(&mut app).is_empty());
        assert_eq!(
            flash(&app),
            "The alert is refused: drops_by: should be a number, not negative, like 30 or 2.5."
        );
        assert_eq!(
            apply_threshold(&mut app, "ten"),
            Err("\"ten\" is not a number; type one like 10 or 2.5.".to_string())
        );
        // Esc drops the draft; the set is as it was.
        press(&mut app, KeyCode::Esc);
        let editor = app.track.editor.as_ref().unwrap();
        assert!(editor.alert.is_none());
        assert!(!editor.changed);
    }
}
