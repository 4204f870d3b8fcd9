//! The Track tab's set editor: a set of the workspace file made, renamed, edited or deleted
//! in the app, with the pickers of Chat and Compare. Every change is read back as a file
//! written by hand would be, so the form says at once what `track run` would refuse and how
//! many calls a run makes; Ctrl+S writes the file (comments and order kept) off the UI task.

use crate::analysis::samples::MAX_SAMPLES;
use crate::analysis::workspace::{SetItemsRef, TrackSet, Workspace, first_refused};
use crate::api::Location;
use crate::present::compare::overview::AnswerSource;

use super::input::{InputPrompt, InputTarget};
use super::keymap::{Action, Context};
use super::picker::{PickItem, Picker, PickerKind};
use super::popup::{Confirm, Popup};
use super::{App, Effect, StoreEffect, pickers};

/// One row of the form, in the order drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetRow {
    Name,
    Prompt(usize),
    AddPrompt,
    Term(usize),
    AddTerm,
    Models,
    Devices,
    Location(usize),
    AddLocation,
    Brands,
    Samples,
    Alert(usize),
    AddAlert,
}

/// Which value a text field of the form sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetField {
    Name,
    /// A prompt edited in place, or a new one.
    Prompt(Option<usize>),
    Term(Option<usize>),
    Samples,
    /// The threshold of the alert being made or changed.
    AlertThreshold,
}

/// A set being made or edited.
#[derive(Clone, Debug)]
pub struct SetEditor {
    /// The set's name in the file; none for a new set.
    pub original: Option<String>,
    pub set: TrackSet,
    /// The row under the cursor, an index into `rows()`.
    pub row: usize,
    /// Something was changed since the form opened.
    pub changed: bool,
    /// What `track run` would refuse in the set as it stands.
    pub problem: Option<String>,
    /// An alert of the set being made or changed, shown in place of the set's rows.
    pub alert: Option<super::set_alerts::AlertDraft>,
}

impl SetEditor {
    fn new(original: Option<String>, set: TrackSet) -> SetEditor {
        SetEditor {
            original,
            set,
            row: 0,
            changed: false,
            problem: None,
            alert: None,
        }
    }

    pub fn rows(&self) -> Vec<SetRow> {
        let mut rows = vec![SetRow::Name];
        rows.extend((0..self.set.prompts.len()).map(SetRow::Prompt));
        rows.push(SetRow::AddPrompt);
        rows.extend((0..self.set.terms.len()).map(SetRow::Term));
        rows.push(SetRow::AddTerm);
        rows.extend([SetRow::Models, SetRow::Devices]);
        rows.extend((0..self.set.locations.len()).map(SetRow::Location));
        rows.extend([SetRow::AddLocation, SetRow::Brands, SetRow::Samples]);
        rows.extend((0..self.set.alerts.len()).map(SetRow::Alert));
        rows.push(SetRow::AddAlert);
        rows
    }

    /// The label in the form's left column: a list shows it on its first row only.
    pub fn label(&self, row: SetRow) -> &'static str {
        match row {
            SetRow::Name => "name",
            SetRow::Prompt(0) => "prompts",
            SetRow::AddPrompt if self.set.prompts.is_empty() => "prompts",
            SetRow::Term(0) => "terms",
            SetRow::AddTerm if self.set.terms.is_empty() => "terms",
            SetRow::Models => "models",
            SetRow::Devices => "devices",
            SetRow::Location(0) => "locations",
            SetRow::AddLocation if self.set.locations.is_empty() => "locations",
            SetRow::Brands => "brands",
            SetRow::Samples => "samples",
            SetRow::Alert(0) => "alerts",
            SetRow::AddAlert if self.set.alerts.is_empty() => "alerts",
            _ => "",
        }
    }

    pub fn current(&self) -> SetRow {
        let rows = self.rows();
        rows.get(self.row.min(rows.len() - 1))
            .copied()
            .unwrap_or(SetRow::Name)
    }

    pub(crate) fn go_to(&mut self, target: SetRow) {
        if let Some(at) = self.rows().iter().position(|r| *r == target) {
            self.row = at;
        }
    }

    /// The models as sources, `ai-overview` among them.
    pub fn sources(&self) -> Vec<AnswerSource> {
        let mut sources: Vec<AnswerSource> = self
            .set
            .models
            .iter()
            .copied()
            .map(AnswerSource::Model)
            .collect();
        if self.set.overview {
            sources.push(AnswerSource::AiOverview);
        }
        sources
    }
}

/// The workspace with the editor's set in place of its original (or added), its items
/// checked as a run checks them (`workspace::first_refused`, as `track set` does) and read
/// back as a hand-written file is. The sentence names the form's row, not a file's line.
fn checked(workspace: &Workspace, editor: &SetEditor) -> Result<Workspace, String> {
    if let Some(refusal) = first_refused(editor.set.items(), workspace.brands()) {
        return Err(refusal.for_form());
    }
    let mut edited = workspace.clone();
    let taken = edited.sets().iter().any(|s| {
        s.name.eq_ignore_ascii_case(editor.set.name.trim())
            && !editor
                .original
                .as_deref()
                .is_some_and(|o| o.eq_ignore_ascii_case(&s.name))
    });
    if taken {
        return Err(format!(
            "name: another set is named {}; choose another name.",
            editor.set.name.trim()
        ));
    }
    match &editor.original {
        Some(original) => edited.replace_set(original, editor.set.clone()),
        None => edited.add_set(editor.set.clone()),
    }
    .map_err(|e| e.problem())?;
    Workspace::parse(edited.path(), &edited.to_text()).map_err(|e| e.problem())
}

/// Reads the form's set again after a change: what is wrong with it, if anything.
pub(crate) fn recheck(app: &mut App) {
    let Some(workspace) = app.brands_pane.workspace.as_ref() else {
        return;
    };
    if let Some(editor) = app.track.editor.as_mut() {
        editor.problem = checked(workspace, editor).err();
    }
}

/// The workspace file with `edit` made and read back as a hand-written file is (a set that
/// cannot run is refused with the sentence), kept as the app's workspace; the effect writes
/// it off the UI task, only if the file on disk still reads as it did.
pub(crate) fn write_workspace(
    app: &mut App,
    edit: impl FnOnce(&mut Workspace) -> Result<(), String>,
) -> Result<Effect, String> {
    let Some(workspace) = app.brands_pane.workspace.clone() else {
        return Err("The workspace file is still being read; try again in a moment.".to_string());
    };
    let read = workspace.as_read().map(str::to_string);
    let mut edited = workspace;
    edit(&mut edited)?;
    let checked = Workspace::parse(edited.path(), &edited.to_text()).map_err(|e| e.to_string())?;
    let effect = Effect::Store(StoreEffect::SaveWorkspace {
        path: checked.path().to_path_buf(),
        text: checked.to_text(),
        read,
        created: !app.brands_pane.exists,
    });
    app.brands_pane.workspace = Some(checked);
    app.brands_pane.exists = true;
    Ok(effect)
}

fn workspace_sets(app: &App) -> Vec<String> {
    app.brands_pane
        .workspace
        .as_ref()
        .map(|w| w.sets().iter().map(|s| s.name.clone()).collect())
        .unwrap_or_default()
}

/// `e`: which set to edit, or a new one.
pub(crate) fn ask_which(app: &mut App) -> Vec<Effect> {
    if let Some(problem) = &app.brands_pane.problem {
        app.flash_error(format!(
            "Sets are not edited over a file vantage cannot read: {problem}"
        ));
        return Vec::new();
    }
    let shown = app.track.view.as_ref().and_then(|v| v.set.clone());
    let items = std::iter::once(PickItem::new(
        "+ a new set",
        None,
        "with Compare's models and places",
    ))
    .chain(
        workspace_sets(app)
            .into_iter()
            .map(|name| PickItem::new(name.clone(), Some(name), "")),
    )
    .collect();
    let current = shown.filter(|s| workspace_sets(app).contains(s));
    app.popup = Some(Popup::Picker(
        Picker::new(PickerKind::TrackSet, items, current.as_deref())
            .with_note("Enter edits the set (rename, prompts, models, places, brands)."),
    ));
    Vec::new()
}

/// `n`, or "+ a new set": an empty set asked from Compare's models and places.
pub(crate) fn open_new(app: &mut App) {
    let taken = workspace_sets(app);
    let name = (1..)
        .map(|n| match n {
            1 => "new set".to_string(),
            n => format!("new set {n}"),
        })
        .find(|name| !taken.iter().any(|t| t.eq_ignore_ascii_case(name)))
        .unwrap_or_default();
    let axes = &app.compare.axes;
    let set = TrackSet {
        name,
        models: axes.models.clone(),
        overview: axes.overview,
        locations: axes
            .locations
            .iter()
            .filter(|l| **l != Location::default())
            .cloned()
            .collect(),
        ..TrackSet::default()
    };
    app.track.editor = Some(SetEditor::new(None, set));
    recheck(app);
    // A new set wants its prompts first.
    if let Some(editor) = app.track.editor.as_mut() {
        editor.go_to(SetRow::AddPrompt);
    }
}

/// Opens the form over the set of this name.
pub(crate) fn open(app: &mut App, name: &str) {
    let Some(set) = app
        .brands_pane
        .workspace
        .as_ref()
        .and_then(|w| w.set(name))
        .cloned()
    else {
        app.flash_error(format!("There is no set {name} in the workspace file."));
        return;
    };
    app.track.editor = Some(SetEditor::new(Some(set.name.clone()), set));
    recheck(app);
}

/// A picker opened from the Track tab chose.
pub(crate) fn apply_choice(app: &mut App, kind: PickerKind, value: Option<String>) {
    if kind == PickerKind::TrackSet {
        match value {
            Some(name) => open(app, &name),
            None => open_new(app),
        }
        return;
    }
    if app.track.editor.as_ref().is_some_and(|e| e.alert.is_some()) {
        match kind {
            PickerKind::Brand => super::set_alerts::choose_subject(app, value),
            PickerKind::Model => super::set_alerts::toggle_model(app, value),
            _ => {}
        }
        return;
    }
    let devices = &app.devices;
    let Some(editor) = app.track.editor.as_mut() else {
        return;
    };
    let row = editor.current();
    let set = &mut editor.set;
    let reopen = match kind {
        PickerKind::Model => {
            let source = value.and_then(|v| v.parse::<AnswerSource>().ok());
            match source {
                Some(AnswerSource::Model(model)) => pickers::toggle(&mut set.models, model),
                Some(AnswerSource::AiOverview) => set.overview = !set.overview,
                None => {}
            }
            Some(pickers::sources(&editor.sources(), source))
        }
        PickerKind::Device => {
            if let Some(device) = &value {
                pickers::toggle(&mut set.devices, device.clone());
            }
            Some(device_picker(devices, editor, value.as_deref()))
        }
        PickerKind::Brand => {
            if let Some(brand) = &value {
                pickers::toggle(&mut set.brands, brand.clone());
            }
            let all = app
                .brands_pane
                .workspace
                .as_ref()
                .map(|w| w.brands().iter().map(|b| b.name.clone()).collect())
                .unwrap_or_default();
            Some(brand_picker(all, editor, value.as_deref()))
        }
        PickerKind::Country => {
            let mut location = Location::default();
            pickers::apply_location(&mut location, kind, value);
            if location == Location::default() {
                None
            } else if set.locations.contains(&location) {
                app.flash_info("That location is already in the set.");
                return;
            } else {
                let at = set.locations.len();
                set.locations.push(location);
                editor.go_to(SetRow::Location(at));
                None
            }
        }
        PickerKind::Subdivision | PickerKind::City => {
            let SetRow::Location(at) = row else {
                return;
            };
            let Some(location) = set.locations.get_mut(at) else {
                return;
            };
            pickers::apply_location(location, kind, value.clone());
            // A subdivision chosen: its cities next (Esc keeps the subdivision alone).
            (kind == PickerKind::Subdivision && value.is_some())
                .then(|| pickers::location(PickerKind::City, location))
        }
        _ => return,
    };
    editor.changed = true;
    app.popup = reopen.map(Popup::Picker);
    recheck(app);
}

fn device_picker(devices: &super::Devices, editor: &SetEditor, at: Option<&str>) -> Picker {
    let list = crate::devices::DeviceList::Ai;
    pickers::devices_checked(list, devices, &editor.set.devices, at)
}

fn brand_picker(all: Vec<String>, editor: &SetEditor, at: Option<&str>) -> Picker {
    let note = if all.is_empty() {
        "No brands are tracked yet: add them in Chat's Brands pane (b). A set with none watches every tracked brand."
    } else {
        "Enter adds or removes the highlighted brand; none checked watches them all; Esc when done."
    };
    Picker::new(
        PickerKind::Brand,
        all.into_iter()
            .map(|name| PickItem::new(name.clone(), Some(name), ""))
            .collect(),
        at,
    )
    .with_note(note)
    .with_checked(editor.set.brands.iter().cloned())
}

/// A text field of the form accepted: the set changes, or the sentence says why not.
pub(crate) fn apply_input(app: &mut App, field: SetField, value: &str) -> Result<(), String> {
    if field == SetField::AlertThreshold {
        return super::set_alerts::apply_threshold(app, value);
    }
    let Some(editor) = app.track.editor.as_mut() else {
        return Ok(());
    };
    let text = value.trim().to_string();
    let set = &mut editor.set;
    let same = |list: &[String], except: Option<usize>| {
        list.iter()
            .enumerate()
            .any(|(i, x)| Some(i) != except && x.trim().eq_ignore_ascii_case(&text))
    };
    match field {
        SetField::Name => {
            if text.is_empty() || text.chars().count() > 64 {
                return Err("A set's name takes 1 to 64 characters.".to_string());
            }
            set.name = text;
        }
        SetField::Prompt(at) | SetField::Term(at) => {
            let terms = matches!(field, SetField::Term(_));
            let (list, what) = if terms {
                (&mut set.terms, "term")
            } else {
                (&mut set.prompts, "prompt")
            };
            if text.is_empty() {
                return Err(format!("An empty {what} asks nothing; d removes one."));
            }
            if same(list, at) {
                return Err(format!("That {what} is in the set already."));
            }
            // Refused as typed, by the check a run makes (and `track set`).
            let typed = [text.clone()];
            let items = if terms {
                SetItemsRef {
                    terms: &typed,
                    ..SetItemsRef::default()
                }
            } else {
                SetItemsRef {
                    prompts: &typed,
                    ..SetItemsRef::default()
                }
            };
            if let Some(refusal) = first_refused(items, &[]) {
                return Err(refusal.for_form());
            }
            match at.filter(|i| *i < list.len()) {
                Some(i) => list[i] = text,
                None => {
                    list.push(text);
                    // The next one is typed from the same row.
                    let row = if terms {
                        SetRow::AddTerm
                    } else {
                        SetRow::AddPrompt
                    };
                    editor.go_to(row);
                }
            }
        }
        SetField::Samples => {
            let samples = text
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_SAMPLES).contains(n))
                .ok_or_else(|| format!("Samples are a whole number from 1 to {MAX_SAMPLES}."))?;
            set.samples = samples;
        }
        SetField::AlertThreshold => {}
    }
    editor.changed = true;
    recheck(app);
    Ok(())
}

fn input(field: SetField, title: &str, value: String, note: &str) -> Popup {
    Popup::Input(
        InputPrompt::new(InputTarget::SetField(field), title, value).with_note(note.to_string()),
    )
}

const PROMPT_NOTE: &str = "Asked of every model from every place of the set.";
const TERM_NOTE: &str =
    "Searched on Google from every place of the set; the brands' ranks are read.";

/// Enter on a row: its text field or picker.
fn change_row(app: &mut App) {
    let Some(editor) = app.track.editor.as_ref() else {
        return;
    };
    let set = &editor.set;
    let popup = match editor.current() {
        SetRow::Name => input(
            SetField::Name,
            "The set's name",
            set.name.clone(),
            "Runs already stored keep the old name; `track trends` reads them by it.",
        ),
        SetRow::Prompt(i) => input(
            SetField::Prompt(Some(i)),
            "Edit the prompt",
            set.prompts[i].clone(),
            PROMPT_NOTE,
        ),
        SetRow::AddPrompt => input(
            SetField::Prompt(None),
            "Add a prompt",
            String::new(),
            PROMPT_NOTE,
        ),
        SetRow::Term(i) => input(
            SetField::Term(Some(i)),
            "Edit the search term",
            set.terms[i].clone(),
            TERM_NOTE,
        ),
        SetRow::AddTerm => input(
            SetField::Term(None),
            "Add a search term",
            String::new(),
            TERM_NOTE,
        ),
        SetRow::Models => Popup::Picker(pickers::sources(&editor.sources(), None)),
        SetRow::Devices => Popup::Picker(device_picker(&app.devices, editor, None)),
        SetRow::Location(i) => {
            let Some(location) = set.locations.get(i) else {
                return;
            };
            Popup::Picker(
                pickers::location(PickerKind::Subdivision, location)
                    .with_note("A subdivision narrows the place (then a city); random keeps the whole country."),
            )
        }
        SetRow::AddLocation => {
            Popup::Picker(pickers::location(PickerKind::Country, &Location::default()))
        }
        SetRow::Brands => {
            let all = app
                .brands_pane
                .workspace
                .as_ref()
                .map(|w| w.brands().iter().map(|b| b.name.clone()).collect())
                .unwrap_or_default();
            Popup::Picker(brand_picker(all, editor, None))
        }
        SetRow::Samples => input(
            SetField::Samples,
            "Samples: how many times a run asks each prompt from each vantage point",
            set.samples.to_string(),
            "1 to 20; more than 1 turns the cache off and gives each share its interval.",
        ),
        SetRow::Alert(i) => return super::set_alerts::open(app, Some(i)),
        SetRow::AddAlert => return super::set_alerts::open(app, None),
    };
    app.popup = Some(popup);
}

/// `d`: the row's prompt, term or location taken out.
fn remove_item(app: &mut App) {
    if let Some(SetRow::Alert(i)) = app.track.editor.as_ref().map(SetEditor::current) {
        super::set_alerts::remove(app, i);
        if let Some(editor) = app.track.editor.as_mut() {
            editor.row = editor.row.min(editor.rows().len() - 1);
        }
        recheck(app);
        return;
    }
    let Some(editor) = app.track.editor.as_mut() else {
        return;
    };
    let row = editor.current();
    let set = &mut editor.set;
    match row {
        SetRow::Prompt(i) if i < set.prompts.len() => {
            set.prompts.remove(i);
        }
        SetRow::Term(i) if i < set.terms.len() => {
            set.terms.remove(i);
        }
        SetRow::Location(i) if i < set.locations.len() => {
            set.locations.remove(i);
        }
        _ => {
            let (remove, change) = (
                app.key_of(Context::SetEditor, Action::Delete),
                app.key_of(Context::SetEditor, Action::Accept),
            );
            app.flash_info(format!(
                "{remove} removes a prompt, a term, a location or an alert; {change} changes this row."
            ));
            return;
        }
    }
    editor.changed = true;
    editor.row = editor.row.min(editor.rows().len() - 1);
    recheck(app);
}

/// Ctrl+S: the set written to the file, or the sentence of what keeps it from running.
fn save(app: &mut App) -> Vec<Effect> {
    let Some(editor) = app.track.editor.clone() else {
        return Vec::new();
    };
    if let Some(problem) = &editor.problem {
        app.flash_error(format!("Not written: {problem}"));
        return Vec::new();
    }
    let name = editor.set.name.trim().to_string();
    let result = write_workspace(app, |workspace| {
        match &editor.original {
            Some(original) => workspace.replace_set(original, editor.set.clone()),
            None => workspace.add_set(editor.set.clone()),
        }
        .map_err(|e| e.to_string())
    });
    let effect = match result {
        Ok(effect) => effect,
        Err(problem) => {
            app.flash_error(format!("Not written: {problem}"));
            return Vec::new();
        }
    };
    app.track.editor = None;
    let calls = editor.set.combinations();
    let verb = match &editor.original {
        None => "Made the set",
        Some(original) if !original.eq_ignore_ascii_case(&name) => "Renamed and saved the set",
        Some(_) => "Saved the set",
    };
    let run = app.key_of(Context::Track, Action::RunSet);
    app.flash_info(format!(
        "{verb} {name}: {} a run. {run} runs it here, `vantage track run {name}` from a schedule.",
        crate::plural::count(calls as u64, "call", "calls")
    ));
    app.track.show_when_written = Some(name);
    vec![effect]
}

/// The keys of the form.
pub(crate) fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    if app.track.editor.as_ref().is_some_and(|e| e.alert.is_some()) {
        return super::set_alerts::on_action(app, action);
    }
    let Some(editor) = app.track.editor.as_mut() else {
        return Vec::new();
    };
    let last = editor.rows().len() - 1;
    match action {
        Action::Up => editor.row = editor.row.saturating_sub(1),
        Action::Down => editor.row = (editor.row + 1).min(last),
        Action::Top => editor.row = 0,
        Action::Bottom => editor.row = last,
        Action::Accept => change_row(app),
        Action::Delete => remove_item(app),
        Action::Send => return save(app),
        Action::RemoveSet => match editor.original.clone() {
            Some(name) => {
                app.popup = Some(Popup::Confirm(Confirm::DeleteSet { name }));
            }
            None => {
                app.track.editor = None;
                app.flash_info("The new set was not saved, so there is nothing to delete.");
            }
        },
        Action::Back if editor.changed => {
            let name = editor.set.name.clone();
            app.popup = Some(Popup::Confirm(Confirm::DiscardSet { name }));
        }
        Action::Back => return close(app),
        _ => {}
    }
    Vec::new()
}

/// Closes the form; the tab then shows the set it was on (so R runs it).
pub(crate) fn close(app: &mut App) -> Vec<Effect> {
    let Some(editor) = app.track.editor.take() else {
        return Vec::new();
    };
    let shown = app.track.view.as_ref().and_then(|v| v.set.as_deref());
    match editor.original {
        Some(name) if shown != Some(name.as_str()) => {
            app.track.loading = true;
            vec![Effect::Store(StoreEffect::LoadTrack { set: Some(name) })]
        }
        _ => Vec::new(),
    }
}

/// After a yes to deleting: the set out of the file; its runs stay in the store.
pub(crate) fn delete(app: &mut App, name: &str) -> Vec<Effect> {
    let result = write_workspace(app, |workspace| {
        if workspace.remove_set(name) {
            Ok(())
        } else {
            Err(format!("There is no set {name} in the file any more."))
        }
    });
    match result {
        Ok(effect) => {
            app.track.editor = None;
            app.flash_info(format!(
                "Deleted the set {name} from the workspace file; its stored runs stay."
            ));
            vec![effect]
        }
        Err(problem) => {
            app.flash_error(format!("Not deleted: {problem}"));
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::test_support::demo_app;

    /// The form refuses what a run would refuse, as typed, with the check `track set` makes
    /// (`workspace::first_refused`): the sentence names the row and quotes no essay.
    #[test]
    fn an_over_long_prompt_is_refused_as_typed_and_a_loaded_one_is_named() {
        let mut app = demo_app();
        let file = format!(
            "[[brands]]\nname = \"Lowa\"\n[[sets]]\nname = \"boots\"\nprompts = [\"a\", \"{}\"]\n",
            "y".repeat(2100)
        );
        let workspace = Workspace::parse(std::path::Path::new("/w/vantage.toml"), &file);
        app.brands_pane.workspace = Some(workspace.unwrap());
        open_new(&mut app);
        let refused = apply_input(&mut app, SetField::Prompt(None), &"x".repeat(3000));
        assert_eq!(
            refused,
            Err("Prompt is 3000 characters; the service takes at most 2047.".to_string())
        );
        let editor = app.track.editor.as_ref().unwrap();
        assert!(editor.set.prompts.is_empty(), "{:?}", editor.set.prompts);
        // A set written by hand with such a prompt is said to be refused on opening.
        open(&mut app, "boots");
        let problem = app.track.editor.as_ref().unwrap().problem.clone();
        assert_eq!(
            problem.as_deref(),
            Some("Prompt 2 is 2100 characters; the service takes at most 2047.")
        );
    }
}
