//! The Brands pane, opened over Chat's answer with `b`: the tracked brands of the workspace
//! file (`vantage.toml`), added, edited and removed here, and the names the current answer
//! puts forward, offered as brands to track so a user can start with no list. The file is
//! edited in memory (comments and order kept) and written off the UI task.

use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyEvent};

use crate::analysis::mentions::Brand;
use crate::analysis::products::Suggested;
use crate::analysis::workspace::{WORKSPACE_FILE, Workspace, parse_domains};
use crate::present::discover::{Untracked, covered};

use super::input::EditState;
use super::keymap::{Action, Context};
use super::{App, Effect, StoreEffect};

/// The workspace file as read at start, and whether it was there.
pub struct LoadedWorkspace {
    pub workspace: Workspace,
    pub existed: bool,
}

/// The fields of a brand, in the editor's order: three typed, then the own mark.
pub const FIELDS: [&str; 4] = ["name", "aliases", "domains", "yours"];

/// The field of the own mark, toggled rather than typed.
pub const OWN_FIELD: usize = 3;

/// A brand being added or edited: each field as typed, lists comma-separated.
#[derive(Clone, Debug, Default)]
pub struct BrandEditor {
    /// The name of the brand edited; none when adding.
    pub original: Option<String>,
    pub values: [String; 3],
    /// The brand is the user's own (`own = true`): its site cited is "own", its gaps shown.
    pub own: bool,
    pub field: usize,
    pub edit: EditState,
}

impl BrandEditor {
    fn of(brand: &Brand, own: bool) -> BrandEditor {
        BrandEditor {
            original: Some(brand.name.clone()),
            values: [
                brand.name.clone(),
                brand.aliases.join(", "),
                brand.domains.join(", "),
            ],
            own,
            ..BrandEditor::default()
        }
    }

    /// The brand as typed; domains are read by the parser `--brands` uses, so the form and
    /// the flag take the same text, and what is not a domain is refused with a sentence.
    fn brand(&self) -> Result<Brand, String> {
        let aliases = self.values[1]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let domains =
            parse_domains(&self.values[2]).map_err(|problem| format!("Domains: {problem}."))?;
        Ok(Brand {
            name: self.values[0].trim().to_string(),
            aliases,
            domains,
        })
    }
}

#[derive(Default)]
pub struct BrandsState {
    pub open: bool,
    /// The file named with `--workspace`, if any (else `vantage.toml` in the current folder).
    pub explicit: Option<PathBuf>,
    /// The file as last read or edited; none until read, or when it could not be.
    pub workspace: Option<Workspace>,
    /// False until the file exists on disk: the first brand added creates it.
    pub exists: bool,
    /// Why the file could not be read: brands are not edited over a file not understood.
    pub problem: Option<String>,
    /// The row selected: the tracked brands first, then the suggestions.
    pub selected: usize,
    pub editor: Option<BrandEditor>,
    /// The untracked names of the stored answers, once `D` read them.
    pub discovered: Option<Discovered>,
    /// `D` is reading the stored answers.
    pub discovering: bool,
}

/// What `D` found in the stored answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Discovered {
    pub names: Vec<Untracked>,
    /// The stored answers read, and how many of them as plain text.
    pub read: crate::store::names::AnswersRead,
}

impl BrandsState {
    pub fn editing(&self) -> bool {
        self.open && self.editor.is_some()
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        vec![Context::Brands]
    }

    /// The file's path as it will be written.
    pub fn path(&self) -> Option<&Path> {
        self.workspace.as_ref().map(Workspace::path)
    }

    /// The brand marked as the user's own, if any.
    pub fn own(&self) -> Option<&str> {
        self.workspace.as_ref().and_then(Workspace::own)
    }

    /// Whether this tracked brand is the user's own.
    pub fn is_own(&self, name: &str) -> bool {
        self.own().is_some_and(|own| own.eq_ignore_ascii_case(name))
    }
}

/// What the workspace file is read with at start.
pub(crate) fn load(app: &App) -> Effect {
    Effect::Store(StoreEffect::LoadWorkspace {
        explicit: app.brands_pane.explicit.clone(),
        unless_read: None,
    })
}

/// Reads the workspace file again if it changed since it was read (edited in another window,
/// say): a broken file keeps the brands in use and says which line is wrong.
pub(crate) fn look_again(app: &App) -> Effect {
    Effect::Store(StoreEffect::LoadWorkspace {
        explicit: app.brands_pane.explicit.clone(),
        unless_read: app
            .brands_pane
            .workspace
            .as_ref()
            .map(|w| w.as_read().map(str::to_string)),
    })
}

/// Names the current answer puts forward that no tracked brand covers (a product of one,
/// "Salomon X Ultra", is left out once Salomon is tracked), products under their brands.
/// Read again at each call, so a brand added or renamed is never suggested.
pub fn suggestions(app: &App) -> Vec<&Suggested> {
    let Some(answer) = &app.chat.answer else {
        return Vec::new();
    };
    answer
        .prepared
        .candidates
        .iter()
        .filter(|s| !covered(&s.name, &app.brands))
        .collect()
}

/// The untracked names of the stored answers that no tracked brand covers now, most named
/// first.
pub fn discovered(app: &App) -> Vec<&Untracked> {
    let Some(found) = &app.brands_pane.discovered else {
        return Vec::new();
    };
    found
        .names
        .iter()
        .filter(|n| !covered(&n.name, &app.brands))
        .collect()
}

/// Every selectable row: the tracked brands, the answer's suggestions, the stored answers'
/// names.
fn row_count(app: &App) -> usize {
    app.brands.len() + suggestions(app).len() + discovered(app).len()
}

/// The note on answers read as plain text, after a space; nothing when there are none.
fn as_text_note(read: &crate::store::names::AnswersRead) -> String {
    read.as_text_note()
        .map(|note| format!(" {note}"))
        .unwrap_or_default()
}

pub(crate) fn on_discovered(app: &mut App, result: Result<Discovered, String>) {
    app.brands_pane.discovering = false;
    match result {
        Ok(found) => {
            if found.names.is_empty() {
                app.flash_info(format!(
                    "The {} stored answers name nothing that the tracked brands do not cover.{}",
                    found.read.answers,
                    as_text_note(&found.read)
                ));
            } else {
                let track = app.key_of(Context::Brands, Action::Accept);
                app.flash_info(format!(
                    "{} names in the {} stored answers are not tracked: {track} tracks one.{}",
                    found.names.len(),
                    found.read.answers,
                    as_text_note(&found.read)
                ));
                // The selection moves to the first of them.
                app.brands_pane.selected = app.brands.len() + suggestions(app).len();
            }
            app.brands_pane.discovered = Some(found);
        }
        Err(problem) => app.flash_error(format!("The stored answers could not be read: {problem}")),
    }
}

/// Sets the tracked brands and recomputes what depends on them.
pub(crate) fn set_brands(app: &mut App, brands: Vec<Brand>) {
    app.brands = brands;
    app.ask(super::hub::Ask::BrandsChanged);
}

pub(crate) fn on_loaded(app: &mut App, result: Result<LoadedWorkspace, String>) -> Vec<Effect> {
    match result {
        Ok(LoadedWorkspace { workspace, existed }) => {
            let brands = workspace.brands().to_vec();
            app.brands_pane.workspace = Some(workspace);
            app.brands_pane.exists = existed;
            app.brands_pane.problem = None;
            set_brands(app, brands);
        }
        Err(problem) => {
            // Said once: looking again at a file still broken the same way says nothing new.
            if app.brands_pane.problem.as_ref() != Some(&problem) {
                let kept = if app.brands_pane.workspace.is_some() {
                    " The brands and sets as they were stay in use until it is fixed."
                } else {
                    ""
                };
                app.flash_error(format!("{problem}{kept}"));
            }
            app.brands_pane.problem = Some(problem);
        }
    }
    Vec::new()
}

pub(crate) fn on_saved(
    app: &mut App,
    path: &Path,
    created: bool,
    result: Result<(), String>,
) -> Vec<Effect> {
    match result {
        Ok(()) if created => {
            app.brands_pane.exists = true;
            app.flash_info(format!(
                "Created {} to keep the tracked brands.",
                path.display()
            ));
        }
        // What was changed was said when it was made (a brand, a set): this says where.
        Ok(()) => {
            let said = app.flash.take().map(|f| f.text);
            app.flash_info(match said {
                Some(said) if said.ends_with('.') => {
                    format!("{said} Written to {}.", path.display())
                }
                _ => format!("Saved {}.", path.display()),
            });
        }
        Err(e) => {
            app.flash_error(e);
            // What is on disk is what counts: read it again.
            return vec![load(app)];
        }
    }
    Vec::new()
}

/// Opens the pane (from Chat), or says why brands cannot be edited.
pub(crate) fn open(app: &mut App) -> Vec<Effect> {
    if let Some(problem) = &app.brands_pane.problem {
        let problem = problem.clone();
        app.flash_error(problem);
        return vec![load(app)];
    }
    app.brands_pane.open = true;
    app.brands_pane.selected = 0;
    Vec::new()
}

/// Applies an edit of the file: the brands change now, the write happens off the UI task.
fn change(app: &mut App, edit: impl FnOnce(&mut Workspace) -> Result<(), String>) -> Vec<Effect> {
    let exists = app.brands_pane.exists;
    let Some(workspace) = app.brands_pane.workspace.as_mut() else {
        app.flash_info("The workspace file is still being read; try again in a moment.");
        return Vec::new();
    };
    let read = workspace.as_read().map(str::to_string);
    let mut edited = workspace.clone();
    if let Err(e) = edit(&mut edited) {
        app.flash_error(e);
        return Vec::new();
    }
    // Read back as the loader will read it: a brand a set or an alert still names is not
    // taken out from under it.
    if let Err(e) = Workspace::parse(edited.path(), &edited.to_text()) {
        app.flash_error(format!(
            "Not written, as the file would not read back: {}.",
            e.problem().trim_end_matches('.')
        ));
        return Vec::new();
    }
    let effect = Effect::Store(StoreEffect::SaveWorkspace {
        path: edited.path().to_path_buf(),
        text: edited.to_text(),
        read,
        created: !exists,
    });
    let brands = edited.brands().to_vec();
    edited.mark_written();
    *workspace = edited;
    app.brands_pane.exists = true;
    set_brands(app, brands);
    vec![effect]
}

/// Adds a brand, or puts an edited one back in its place.
fn save_editor(app: &mut App) -> Vec<Effect> {
    let Some(editor) = app.brands_pane.editor.take() else {
        return Vec::new();
    };
    let brand = match editor.brand() {
        Ok(brand) => brand,
        Err(problem) => {
            app.flash_error(problem);
            app.brands_pane.editor = Some(editor);
            return Vec::new();
        }
    };
    if brand.name.is_empty() {
        let leave = app.key_of(Context::BrandEditor, Action::Back);
        app.flash_error(format!(
            "A brand needs a name; {leave} leaves without adding one."
        ));
        app.brands_pane.editor = Some(editor);
        return Vec::new();
    }
    let name = brand.name.clone();
    let own_before = app.brands_pane.own().map(str::to_string);
    let was_own = own_before.as_deref().is_some_and(|own| {
        editor
            .original
            .as_deref()
            .is_some_and(|o| o.eq_ignore_ascii_case(own))
    });
    let effects = change(app, |workspace| {
        match &editor.original {
            Some(original) => workspace.replace_brand(original, brand),
            None => workspace.add_brand(brand),
        }
        .map_err(|e| e.to_string())?;
        // Only one brand is yours: the mark moves here, or leaves this one.
        if editor.own {
            workspace.set_own(Some(&name));
        } else if was_own {
            workspace.set_own(None);
        }
        Ok(())
    });
    if !effects.is_empty() {
        say_own_change(app, &name, editor.own, was_own, own_before.as_deref());
    }
    if let Some(at) = app.brands.iter().position(|b| b.name == name) {
        app.brands_pane.selected = at;
    }
    effects
}

/// What the save did to the own mark, said on screen (the write's place follows it).
fn say_own_change(app: &mut App, name: &str, own: bool, was_own: bool, before: Option<&str>) {
    let sentence = match (own, was_own, before) {
        (true, false, Some(other)) => {
            format!("{name} is your brand now ({other} no longer is: one brand is yours).")
        }
        (true, false, None) => format!("{name} is your brand now."),
        (false, true, _) => format!("{name} is no longer marked as your brand."),
        _ => return,
    };
    app.flash_info(sentence);
}

/// Tracks a suggested name; the selection follows it into the tracked brands.
fn add_suggestion(app: &mut App, name: String) -> Vec<Effect> {
    let effects = change(app, |workspace| {
        workspace
            .add_brand(Brand::named(&name))
            .map_err(|e| e.to_string())
    });
    if let Some(at) = app.brands.iter().position(|b| b.name == name) {
        app.brands_pane.selected = at;
    }
    effects
}

pub(crate) fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    if let Some(editor) = app.brands_pane.editor.as_mut() {
        match action {
            Action::Send => return save_editor(app),
            Action::Back => app.brands_pane.editor = None,
            Action::FocusNext | Action::Down => {
                editor.field = (editor.field + 1) % FIELDS.len();
                editor.edit = EditState::default();
            }
            Action::FocusPrev | Action::Up => {
                editor.field = (editor.field + FIELDS.len() - 1) % FIELDS.len();
                editor.edit = EditState::default();
            }
            _ => {}
        }
        return Vec::new();
    }
    let tracked = app.brands.len();
    let suggested = suggestions(app).len();
    let rows = row_count(app);
    let pane = &mut app.brands_pane;
    let last = rows.saturating_sub(1);
    match action {
        Action::Back | Action::OpenBrands => pane.open = false,
        Action::Up => pane.selected = pane.selected.saturating_sub(1),
        Action::Down => pane.selected = (pane.selected + 1).min(last),
        Action::PageUp => pane.selected = pane.selected.saturating_sub(10),
        Action::PageDown => pane.selected = (pane.selected + 10).min(last),
        Action::Top => pane.selected = 0,
        Action::Bottom => pane.selected = last,
        Action::AddBrand => {
            pane.editor = Some(BrandEditor::default());
        }
        Action::DiscoverNames => {
            if pane.discovering {
                return Vec::new();
            }
            pane.discovering = true;
            app.flash_info("Reading the stored answers for names nobody tracks…");
            return vec![Effect::Store(StoreEffect::DiscoverNames {
                tracked: app.brands.clone(),
            })];
        }
        Action::Accept => {
            let selected = pane.selected;
            if let Some(brand) = app.brands.get(selected) {
                let own = app.brands_pane.is_own(&brand.name);
                app.brands_pane.editor = Some(BrandEditor::of(brand, own));
            } else if let Some(name) = suggestions(app)
                .get(selected - tracked)
                .map(|s| s.name.clone())
            {
                return add_suggestion(app, name);
            } else if let Some(name) = discovered(app)
                .get(selected - tracked - suggested)
                .map(|n| n.name.clone())
            {
                return add_suggestion(app, name);
            } else {
                let add = app.key_of(Context::Brands, Action::AddBrand);
                app.flash_info(format!("{add} adds a brand to track."));
            }
        }
        Action::Delete => {
            let Some(name) = app.brands.get(pane.selected).map(|b| b.name.clone()) else {
                app.flash_info("Only tracked brands are removed; a suggestion is just left.");
                return Vec::new();
            };
            let effects = change(app, |workspace| {
                if workspace.remove_brand(&name) {
                    Ok(())
                } else {
                    Err(format!("{name} is not in the workspace file any more."))
                }
            });
            let rows = row_count(app);
            app.brands_pane.selected = app.brands_pane.selected.min(rows.saturating_sub(1));
            if !effects.is_empty() {
                app.flash_info(format!("No longer tracking {name}."));
            }
            return effects;
        }
        _ => {}
    }
    Vec::new()
}

/// A key typed into the editor's field; on the own mark, Space toggles it and y or n set it.
pub(crate) fn edit(app: &mut App, key: KeyEvent) {
    if let Some(editor) = app.brands_pane.editor.as_mut() {
        let field = editor.field;
        if field == OWN_FIELD {
            match key.code {
                KeyCode::Char(' ') => editor.own = !editor.own,
                KeyCode::Char('y' | 'Y') => editor.own = true,
                KeyCode::Char('n' | 'N') => editor.own = false,
                _ => {}
            }
            return;
        }
        super::input::edit_line(&mut editor.values[field], &mut editor.edit, key);
    }
}

pub(crate) fn paste(app: &mut App, text: &str) {
    if let Some(editor) = app.brands_pane.editor.as_mut() {
        let field = editor.field;
        if let Some(value) = editor.values.get_mut(field) {
            value.push_str(text.replace(['\n', '\r'], " ").trim());
        }
    }
}

/// Where the file goes when none exists yet, for the pane's title.
pub fn file_label(app: &App) -> String {
    match app.brands_pane.path() {
        Some(path) if app.brands_pane.exists => path.display().to_string(),
        Some(path) => format!("{} (created on the first brand)", path.display()),
        None => WORKSPACE_FILE.to_string(),
    }
}

#[cfg(test)]
#[path = "brands_tests.rs"]
mod tests;
