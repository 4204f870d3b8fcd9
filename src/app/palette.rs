//! Keys you can search: the filter typed over help (`?`) and the command palette (`:`). Both
//! read the keymap in effect, so a key moved in `keys.toml` is found, and shown, where it is.

use crossterm::event::{KeyCode, KeyEvent};

use super::input::{self, EditState};
use super::keymap::{Action, Binding, Context, Keymap};
use super::{App, Effect, Popup, Tab};
use crate::fuzzy::FuzzyMatcher;

/// What a binding is found by: what it does, its action's name (as `keys.toml` writes it,
/// words apart) and its keys. What it does comes first, so the matched positions that fall
/// in it are its own, for highlighting.
fn searchable(what: &str, action: Action, label: &str) -> String {
    let name = super::keys_file::action_name(action).replace('_', " ");
    format!("{what} {name} {label}")
}

/// What a binding does, in words: the tab keys name their tab.
pub(crate) fn what_it_does(binding: &Binding) -> String {
    match binding.action {
        Action::SelectTab(index) => match Tab::ALL.get(index) {
            Some(tab) => format!("the {} tab", tab.title()),
            None => binding.help.to_string(),
        },
        _ => binding.help.to_string(),
    }
}

/// The help overlay: the filter typed over it and how far it is scrolled.
#[derive(Clone, Debug, Default)]
pub struct KeysHelp {
    pub filter: String,
    /// The filter's cursor and undo.
    pub edit: EditState,
    /// Lines scrolled down (the view clamps).
    pub scroll: u16,
    /// The bindings the filter keeps, by their place in the keymap (`Keymap::all`); `None`
    /// while nothing is typed: every one.
    pub kept: Option<Vec<usize>>,
}

impl KeysHelp {
    /// Whether help lists the binding at this place in the keymap.
    pub fn shows(&self, index: usize) -> bool {
        self.kept.as_ref().is_none_or(|kept| kept.contains(&index))
    }

    /// The actions of the rows the filter keeps; `None` while nothing is typed.
    pub fn kept_actions(&self, keys: &Keymap) -> Option<Vec<Action>> {
        let all = keys.all();
        self.kept.as_ref().map(|kept| {
            kept.iter()
                .filter_map(|i| all.get(*i))
                .map(|b| b.action)
                .collect()
        })
    }

    /// Keeps the bindings whose words, action or keys match the filter.
    fn refilter(&mut self, keys: &Keymap, matcher: &mut FuzzyMatcher) {
        self.scroll = 0;
        if self.filter.trim().is_empty() {
            self.kept = None;
            return;
        }
        let candidates: Vec<String> = keys
            .all()
            .iter()
            .map(|b| searchable(&what_it_does(b), b.action, &b.label))
            .collect();
        let mut kept: Vec<usize> = matcher
            .rank(&self.filter, candidates.iter().map(String::as_str))
            .into_iter()
            .map(|r| r.index)
            .collect();
        // Help keeps its sections' order; the filter only leaves rows out.
        kept.sort_unstable();
        self.kept = Some(kept);
    }
}

/// A key over help: the arrows scroll, typing filters, Esc clears the filter and then
/// closes, as do Enter and help's own key while nothing is typed.
pub(super) fn on_help_key(
    app: &mut App,
    mut help: KeysHelp,
    key: KeyEvent,
    action: Option<Action>,
) -> Vec<Effect> {
    let help_key = app.keys.lookup(&[Context::Normal], &key) == Some(Action::Help);
    match action {
        Some(Action::Up) => help.scroll = help.scroll.saturating_sub(1),
        Some(Action::Down) => help.scroll = help.scroll.saturating_add(1),
        Some(Action::PageUp) => help.scroll = help.scroll.saturating_sub(10),
        Some(Action::PageDown) => help.scroll = help.scroll.saturating_add(10),
        Some(Action::Top) => help.scroll = 0,
        Some(Action::Bottom) => help.scroll = u16::MAX,
        Some(Action::Back) if !help.filter.is_empty() => {
            help.filter.clear();
            help.edit = EditState::default();
            help.refilter(&app.keys, &mut app.matcher);
        }
        Some(Action::Back | Action::Accept) => return Vec::new(),
        _ if help_key && help.filter.is_empty() => return Vec::new(),
        _ => {
            if input::edit_line(&mut help.filter, &mut help.edit, key) {
                help.refilter(&app.keys, &mut app.matcher);
            }
        }
    }
    app.popup = Some(Popup::Help(help));
    Vec::new()
}

/// One action the palette offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub action: Action,
    /// The keys that do it where the focus is; empty when none does (another binding of
    /// the same keys comes first): the palette still runs it.
    pub keys: String,
    pub what: String,
}

/// The command palette: the tab's actions, ranked against what is typed.
#[derive(Clone, Debug)]
pub struct Palette {
    /// Every action the tab's contexts in effect bind, in the order their keys are looked up.
    pub commands: Vec<Command>,
    pub filter: String,
    pub edit: EditState,
    /// The commands that match, best first, each with where the filter matched in its words.
    pub rows: Vec<(usize, Vec<u32>)>,
    /// Index into `rows`.
    pub selected: usize,
}

impl Palette {
    /// The palette of what can be done where the focus is (`contexts`, as keys are looked up).
    pub fn new(keys: &Keymap, contexts: &[Context]) -> Palette {
        let mut commands: Vec<Command> = Vec::new();
        let in_effect = || contexts.iter().flat_map(|context| keys.bindings(*context));
        for binding in in_effect() {
            let listed = commands.iter().any(|c| c.action == binding.action);
            let offered = match binding.action {
                // The palette does not open itself; a text field's own keys are not actions.
                Action::Palette | Action::EditText => false,
                Action::SelectTab(index) => index < Tab::ALL.len(),
                _ => true,
            };
            if listed || !offered {
                continue;
            }
            // The key in effect: the first binding of the action whose keys reach it here.
            let keys_label = in_effect()
                .filter(|b| b.action == binding.action)
                .find(|b| {
                    b.keys.iter().any(|k| {
                        keys.lookup(contexts, &KeyEvent::new(k.code, k.modifiers))
                            == Some(binding.action)
                    })
                })
                .map(|b| b.label.clone())
                .unwrap_or_default();
            commands.push(Command {
                action: binding.action,
                keys: keys_label,
                what: what_it_does(binding),
            });
        }
        let rows = (0..commands.len()).map(|i| (i, Vec::new())).collect();
        Palette {
            commands,
            filter: String::new(),
            edit: EditState::default(),
            rows,
            selected: 0,
        }
    }

    fn refilter(&mut self, matcher: &mut FuzzyMatcher) {
        let candidates: Vec<String> = self
            .commands
            .iter()
            .map(|c| searchable(&c.what, c.action, &c.keys))
            .collect();
        self.rows = matcher
            .rank(&self.filter, candidates.iter().map(String::as_str))
            .into_iter()
            .map(|r| (r.index, r.positions))
            .collect();
        self.selected = 0;
    }

    /// The command under the selection.
    pub fn chosen(&self) -> Option<&Command> {
        self.rows
            .get(self.selected)
            .and_then(|(index, _)| self.commands.get(*index))
    }

    fn move_by(&mut self, delta: isize) {
        let last = self.rows.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize)
            .saturating_add(delta)
            .clamp(0, last) as usize;
    }
}

/// `:` opens the palette with what the tab's keys can do where the focus is.
pub(super) fn open(app: &mut App) -> Vec<Effect> {
    let contexts = app.key_contexts();
    app.popup = Some(Popup::Palette(Palette::new(&app.keys, &contexts)));
    Vec::new()
}

/// A key over the palette: typing filters, the arrows choose, Enter runs the chosen action
/// as its key would, Esc closes.
pub(super) fn on_palette_key(
    app: &mut App,
    mut palette: Palette,
    key: KeyEvent,
    action: Option<Action>,
) -> Vec<Effect> {
    match action {
        Some(Action::Back) => return Vec::new(),
        Some(Action::Accept) => {
            if let Some(command) = palette.chosen() {
                return super::events::run_action(app, command.action);
            }
            let back = app.key_of(Context::Popup, Action::Back);
            app.flash_info(format!(
                "Nothing matches; change the filter or press {back}."
            ));
        }
        Some(Action::Up) => palette.move_by(-1),
        Some(Action::Down) => palette.move_by(1),
        Some(Action::PageUp) => palette.move_by(-10),
        Some(Action::PageDown) => palette.move_by(10),
        Some(Action::Top) => palette.move_by(isize::MIN / 2),
        Some(Action::Bottom) => palette.move_by(isize::MAX / 2),
        _ => {
            // Tab and Shift+Tab step through the rows, as a completion list does.
            match key.code {
                KeyCode::Tab => palette.move_by(1),
                KeyCode::BackTab => palette.move_by(-1),
                _ => {
                    if input::edit_line(&mut palette.filter, &mut palette.edit, key) {
                        palette.refilter(&mut app.matcher);
                    }
                }
            }
        }
    }
    app.popup = Some(Popup::Palette(palette));
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_whose_key_another_takes_here_is_listed_without_it() {
        let keys = Keymap::default();
        // In the Brands pane D names the untracked names; the demo switch's D is not reached.
        let palette = Palette::new(&keys, &[Context::Brands, Context::Normal, Context::Global]);
        let command = |action| {
            palette
                .commands
                .iter()
                .find(|c| c.action == action)
                .expect("listed")
        };
        assert_eq!(command(Action::DiscoverNames).keys, "D");
        assert_eq!(command(Action::SwitchToDemo).keys, "");
        // An action bound in two contexts is listed once, with the key that reaches it.
        assert_eq!(
            palette
                .commands
                .iter()
                .filter(|c| c.action == Action::Back)
                .count(),
            1
        );
        assert_eq!(command(Action::Back).keys, "Esc b");
        assert_eq!(command(Action::SelectTab(2)).what, "the Jobs tab");
        assert!(
            !palette
                .commands
                .iter()
                .any(|c| c.action == Action::SelectTab(Tab::ALL.len())),
            "no tab past the last"
        );
    }

    #[test]
    fn enter_with_nothing_matching_says_so_and_keeps_the_palette() {
        let mut app = crate::app::test_support::demo_app();
        crate::app::update(&mut app, crate::app::test_support::key(KeyCode::Esc));
        crate::app::update(&mut app, crate::app::test_support::key(KeyCode::Char(':')));
        for c in "zzzz".chars() {
            crate::app::update(&mut app, crate::app::test_support::key(KeyCode::Char(c)));
        }
        let effects = crate::app::update(&mut app, crate::app::test_support::key(KeyCode::Enter));
        assert!(effects.is_empty());
        assert!(matches!(&app.popup, Some(Popup::Palette(p)) if p.rows.is_empty()));
        assert!(
            app.flash
                .as_ref()
                .is_some_and(|f| f.text.contains("Nothing matches")),
            "{:?}",
            app.flash
        );
    }
}
