//! Popups over the tabs: help, the command palette, pickers and one-line inputs, and the
//! keys they take.

use crossterm::event::{KeyCode, KeyEvent};

use super::input::{self, InputPrompt, InputTarget};
use super::keymap::{Action, Context};
use super::palette::{self, KeysHelp, Palette};
use super::picker::{Choice, Picker};
use super::{App, Effect, OsEffect, StoreEffect, export, jobs_tab, proxy, search};
use crate::api::JobId;
use crate::store::EntryId;

#[derive(Clone, Debug)]
pub enum Popup {
    /// The keys, filtered by what is typed over them and scrolled.
    Help(KeysHelp),
    /// Every action of the tab, found by name and run (`:`).
    Palette(Palette),
    Picker(Picker),
    Input(InputPrompt),
    /// A question before something that cannot be taken back.
    Confirm(Confirm),
}

/// What waits for a yes: `y` or Enter does it, `n` or Esc keeps things as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// Quitting would drop the calls in flight (and the credits they cost).
    Quit {
        calls: usize,
    },
    DeleteHistory {
        id: EntryId,
        summary: String,
    },
    DeleteJob {
        id: JobId,
    },
    /// A tracking run of the set spends a call per cell.
    TrackRun {
        set: String,
        /// Its calls and credits in words, by the price table.
        cost: String,
        credits: Option<u64>,
    },
    /// A past run lacks cells: fill it (yes), make a new run instead (r), or neither.
    TrackFill {
        set: String,
        run: crate::store::RunId,
        /// "9 of 12 cells".
        held: String,
        missing: u32,
        /// Its calls and credits in words, at most (each priced as an answer).
        cost: String,
        credits: Option<u64>,
    },
    /// A set out of the workspace file (its runs stay in the store).
    DeleteSet {
        name: String,
    },
    /// The set editor closed with changes not written.
    DiscardSet {
        name: String,
    },
    /// A comparison's run spends a call per column and sample.
    CompareRun {
        /// The column run again alone; `None`: every column.
        column: Option<usize>,
        /// Its calls and credits in words, by the price table (the cost line's sentence).
        cost: String,
        credits: Option<u64>,
    },
    /// The fan-out coverage spends a search per fanout.
    FanoutCoverage {
        searches: usize,
        /// The searches and their credits in words, by the price table.
        cost: String,
        place: String,
        credits: Option<u64>,
    },
}

impl Confirm {
    pub fn question(&self) -> String {
        match self {
            Confirm::Quit { calls: 0 } => {
                "Every answer is in (History keeps it). Quit now?".to_string()
            }
            Confirm::Quit { calls: 1 } => {
                "A call is still waiting for its answer. Quit anyway and lose it?".to_string()
            }
            Confirm::Quit { calls } => {
                format!("{calls} calls are still waiting for answers. Quit anyway and lose them?")
            }
            Confirm::DeleteHistory { summary, .. } => {
                format!("Delete this entry and its stored response? {summary}")
            }
            Confirm::DeleteJob { id } => {
                format!("Delete job {} and its stored result?", id.short())
            }
            Confirm::TrackRun { set, cost, credits } => {
                let balance = credits.map_or(String::new(), |c| format!("; {c} credits left"));
                format!(
                    "Run the set {set} now? {cost}{balance}, queued as jobs; the Track tab charts the run as its answers land."
                )
            }
            Confirm::TrackFill {
                set,
                run,
                held,
                missing,
                cost,
                credits,
            } => {
                let balance = credits.map_or(String::new(), |c| format!("; {c} credits left"));
                format!(
                    "Run {} of {set} holds {held}. Ask its {} again into it? {cost}{balance}. y fills the run · r makes a new run instead · n neither",
                    run.short(),
                    crate::plural::count(u64::from(*missing), "missing call", "missing calls")
                )
            }
            Confirm::CompareRun {
                column,
                cost,
                credits,
            } => {
                let balance = credits.map_or(String::new(), |c| format!("; {c} credits left"));
                let what = match column {
                    None => "every column now".to_string(),
                    Some(i) => format!("column {} again", i + 1),
                };
                format!("Run {what}? {cost}{balance}.")
            }
            Confirm::DeleteSet { name } => format!(
                "Delete the set {name} from the workspace file? Its stored runs stay in History and Track."
            ),
            Confirm::DiscardSet { name } => {
                format!("Close the set {name} without writing its changes?")
            }
            Confirm::FanoutCoverage {
                searches,
                cost,
                place,
                credits,
            } => {
                let balance = credits.map_or(String::new(), |c| format!("; {c} credits left"));
                format!("Search the answer's {searches} fanouts from {place}? {cost}{balance}.")
            }
        }
    }
}

/// `q` and Ctrl+C: at once when nothing is in flight, else after a yes. Ctrl+C while the
/// question shows quits (the second press of an impatient user).
pub(super) fn quit(app: &mut App) -> Vec<Effect> {
    let calls = app.waiting_for_answers();
    let asking = matches!(app.popup, Some(Popup::Confirm(Confirm::Quit { .. })));
    if calls > 0 && !asking {
        app.popup = Some(Popup::Confirm(Confirm::Quit { calls }));
        return Vec::new();
    }
    app.popup = None;
    app.should_quit = true;
    vec![Effect::Os(OsEffect::Quit)]
}

/// The quit question counts the calls still waiting as they land: an answer that came in
/// while it showed is no longer said to be waiting.
pub(super) fn follow_waiting_calls(app: &mut App) {
    let waiting = app.waiting_for_answers();
    if let Some(Popup::Confirm(Confirm::Quit { calls })) = &mut app.popup {
        *calls = waiting;
    }
}

fn on_confirm_key(
    app: &mut App,
    confirm: Confirm,
    key: KeyEvent,
    action: Option<Action>,
) -> Vec<Effect> {
    if let Confirm::TrackFill { .. } = confirm
        && matches!(key.code, KeyCode::Char('r' | 'R'))
    {
        super::track::ask_new_run(app);
        return Vec::new();
    }
    let yes = action == Some(Action::Accept) || matches!(key.code, KeyCode::Char('y' | 'Y'));
    let no = action == Some(Action::Back) || matches!(key.code, KeyCode::Char('n' | 'N'));
    if no {
        return Vec::new();
    }
    if !yes {
        app.popup = Some(Popup::Confirm(confirm));
        return Vec::new();
    }
    match confirm {
        Confirm::Quit { .. } => {
            app.should_quit = true;
            vec![Effect::Os(OsEffect::Quit)]
        }
        Confirm::DeleteHistory { id, .. } => {
            app.history.items.retain(|i| i.id != id);
            app.history.refresh(&mut app.matcher);
            app.flash_info("Deleted the entry.");
            vec![Effect::Store(StoreEffect::DeleteHistory(id))]
        }
        Confirm::DeleteJob { id } => {
            app.jobs.scheduler.remove(&id);
            app.jobs.rows.retain(|r| r.id != id);
            app.jobs.refresh(&mut app.matcher);
            app.flash_info(format!("Deleted job {}.", id.short()));
            vec![Effect::Store(StoreEffect::DeleteJob(id))]
        }
        Confirm::FanoutCoverage { .. } => super::coverage::start(app),
        Confirm::CompareRun { column, .. } => super::compare::run_confirmed(app, column),
        Confirm::DeleteSet { name } => super::sets::delete(app, &name),
        Confirm::TrackRun { set, .. } => super::track::run(app, &set),
        Confirm::TrackFill { set, run, .. } => super::track::fill(app, set, run),
        Confirm::DiscardSet { .. } => super::sets::close(app),
    }
}

pub(super) fn on_popup_key(
    app: &mut App,
    popup: Popup,
    key: KeyEvent,
    action: Option<Action>,
) -> Vec<Effect> {
    if action == Some(Action::Quit) {
        app.popup = Some(popup);
        return quit(app);
    }
    match popup {
        Popup::Confirm(confirm) => on_confirm_key(app, confirm, key, action),
        Popup::Help(help) => palette::on_help_key(app, help, key, action),
        Popup::Palette(commands) => palette::on_palette_key(app, commands, key, action),
        Popup::Picker(mut picker) => {
            match action {
                Some(Action::Back) => {}
                Some(Action::Accept) => match picker.choose() {
                    Choice::Set(Some(typed))
                        if let Some(list) = super::pickers::device_list_of(picker.kind) =>
                    {
                        match crate::devices::check(&typed, app.device_list(list).names()) {
                            Ok(device) => {
                                (app.tab.spec().on_choice)(app, picker.kind, Some(device))
                            }
                            Err(problem) => {
                                // In the picker's own note too: a long flash can sit under it.
                                let sentence = format!("Not chosen: {problem}.");
                                app.flash_error(sentence.clone());
                                app.popup = Some(Popup::Picker(picker.with_note(sentence)));
                            }
                        }
                    }
                    Choice::Set(value) => (app.tab.spec().on_choice)(app, picker.kind, value),
                    Choice::Nothing => {
                        let back = app.key_of(Context::Popup, Action::Back);
                        app.flash_info(format!(
                            "Nothing matches; change the filter or press {back}."
                        ));
                        app.popup = Some(Popup::Picker(picker));
                    }
                },
                Some(Action::Up) => {
                    picker.move_by(-1);
                    app.popup = Some(Popup::Picker(picker));
                }
                Some(Action::Down) => {
                    picker.move_by(1);
                    app.popup = Some(Popup::Picker(picker));
                }
                Some(Action::PageUp) => {
                    picker.move_by(-10);
                    app.popup = Some(Popup::Picker(picker));
                }
                Some(Action::PageDown) => {
                    picker.move_by(10);
                    app.popup = Some(Popup::Picker(picker));
                }
                Some(Action::Top) => {
                    picker.move_by(isize::MIN / 2);
                    app.popup = Some(Popup::Picker(picker));
                }
                Some(Action::Bottom) => {
                    picker.move_by(isize::MAX / 2);
                    app.popup = Some(Popup::Picker(picker));
                }
                _ => {
                    let mut filter = picker.filter.clone();
                    if input::edit_line(&mut filter, &mut picker.edit, key) {
                        picker.set_filter(filter, &mut app.matcher);
                    }
                    app.popup = Some(Popup::Picker(picker));
                }
            }
            Vec::new()
        }
        Popup::Input(mut prompt) => {
            match action {
                Some(Action::Back) => {}
                Some(Action::Accept) => return accept_input(app, prompt),
                _ => {
                    input::edit_line(&mut prompt.value, &mut prompt.edit, key);
                    app.popup = Some(Popup::Input(prompt));
                }
            }
            Vec::new()
        }
    }
}

/// Sets what an input popup holds; a value its form refuses keeps the popup open with the
/// reason.
fn accept_input(app: &mut App, prompt: InputPrompt) -> Vec<Effect> {
    let result = match prompt.target {
        InputTarget::Export(source) => return export::export_to(app, source, prompt),
        InputTarget::ImportJob => return jobs_tab::import(app, prompt),
        InputTarget::DiscoverTopic | InputTarget::AddToSet => {
            let done = match prompt.target {
                InputTarget::DiscoverTopic => super::discover::start(app, &prompt.value),
                _ => super::discover::add_to_set(app, &prompt.value),
            };
            return done.unwrap_or_else(|message| {
                app.flash_error(message);
                app.popup = Some(Popup::Input(prompt));
                Vec::new()
            });
        }
        InputTarget::SetField(field) => super::sets::apply_input(app, field, &prompt.value),
        InputTarget::Search(setting) => search::apply_input(app, setting, &prompt.value),
        InputTarget::Proxy(setting) => proxy::apply_input(app, setting, &prompt.value),
    };
    if let Err(message) = result {
        app.flash_error(message);
        app.popup = Some(Popup::Input(prompt));
    }
    Vec::new()
}
