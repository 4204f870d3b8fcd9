//! Track's answers of one cell: `a` lists the shown set's cells (prompt × model × place);
//! `Enter` reads the cell's runs off the UI task (`StoreEffect::LoadCellAnswers`), newest
//! first, with the selected run's answer; the newest two answered runs are marked, and
//! `Space` marks others, to show what changed between the two marked (`track::answers`).

use crate::track::answers::{Cell, CellChanges, CellHistory, cells_of};

use super::keymap::{Action, Context};
use super::{App, Effect, StoreEffect};

/// What the pane beside the runs shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CellPane {
    /// The selected run's answer.
    #[default]
    Answer,
    /// What changed between the two marked runs.
    Changes,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CellAnswersState {
    pub set: String,
    /// The set's cells, in the order a run asks them.
    pub cells: Vec<Cell>,
    pub cell_selected: usize,
    /// The opened cell's runs, once read.
    pub history: Option<CellHistory>,
    /// The cell being read.
    pub loading: Option<Cell>,
    /// The selected run, an index into `history.runs` (newest first).
    pub run_selected: usize,
    /// The runs compared (at most two), indices into `history.runs`.
    pub marked: Vec<usize>,
    /// Between the marked runs, older to newer.
    pub changes: Option<CellChanges>,
    pub pane: CellPane,
    pub scroll: u16,
}

impl CellAnswersState {
    /// The marked runs, older first.
    pub fn pair(&self) -> Option<(usize, usize)> {
        match self.marked.as_slice() {
            [a, b] => Some((*a.max(b), *a.min(b))),
            _ => None,
        }
    }

    fn compare_marked(&mut self) {
        self.changes = match (&self.history, self.pair()) {
            (Some(history), Some((older, newer))) => history.changes(older, newer),
            _ => None,
        };
    }
}

/// `a`: the shown set's cells.
pub(crate) fn open(app: &mut App) -> Vec<Effect> {
    let set = match super::track::shown_set(app) {
        Ok(set) => set,
        Err(sentence) => {
            app.flash_info(sentence);
            return Vec::new();
        }
    };
    let cells = cells_of(&set);
    if cells.is_empty() {
        app.flash_info(format!(
            "The set {} asks no prompt of a model, so it has no answers to show.",
            set.name
        ));
        return Vec::new();
    }
    app.track.answers = Some(CellAnswersState {
        set: set.name,
        cells,
        ..CellAnswersState::default()
    });
    Vec::new()
}

/// Keys while the cell's answers show; `None` leaves the key to the Track tab.
pub(crate) fn on_action(app: &mut App, action: Action) -> Option<Vec<Effect>> {
    let state = app.track.answers.as_mut()?;
    let opened = state.history.is_some();
    match action {
        Action::Up if opened => {
            state.run_selected = state.run_selected.saturating_sub(1);
            state.scroll = 0;
        }
        Action::Down if opened => {
            let last = state
                .history
                .as_ref()
                .map_or(0, |h| h.runs.len())
                .saturating_sub(1);
            state.run_selected = (state.run_selected + 1).min(last);
            state.scroll = 0;
        }
        Action::Top if opened => state.run_selected = 0,
        Action::Bottom if opened => {
            state.run_selected = state
                .history
                .as_ref()
                .map_or(0, |h| h.runs.len())
                .saturating_sub(1);
        }
        Action::Top => state.cell_selected = 0,
        Action::Bottom => state.cell_selected = state.cells.len().saturating_sub(1),
        // The brand Track's chart follows: nothing to move here.
        Action::Left | Action::Right => {}
        Action::Up => state.cell_selected = state.cell_selected.saturating_sub(1),
        Action::Down => {
            state.cell_selected =
                (state.cell_selected + 1).min(state.cells.len().saturating_sub(1));
        }
        Action::Accept if !opened => {
            let Some(cell) = state.cells.get(state.cell_selected).cloned() else {
                return Some(Vec::new());
            };
            state.loading = Some(cell.clone());
            return Some(vec![read(app, cell)]);
        }
        Action::ToggleMark if opened => {
            toggle_mark(app);
            return Some(words_wanted(app));
        }
        Action::NextView | Action::PrevView if opened => {
            state.pane = match state.pane {
                CellPane::Answer => CellPane::Changes,
                CellPane::Changes => CellPane::Answer,
            };
            state.scroll = 0;
        }
        Action::PageUp => state.scroll = state.scroll.saturating_sub(10),
        Action::PageDown => state.scroll = state.scroll.saturating_add(10),
        Action::Back if opened => {
            state.history = None;
            state.changes = None;
            state.marked.clear();
            state.scroll = 0;
        }
        Action::Back => app.track.answers = None,
        // A run of the set asks over this view; `a` starts again from the cells.
        Action::RunSet | Action::CellAnswers => return None,
        // Track's other keys show another view of the tab: this one closes for it.
        _ => {
            app.track.answers = None;
            return None;
        }
    }
    Some(if opened {
        words_wanted(app)
    } else {
        Vec::new()
    })
}

/// Space: mark the selected run (an answered one); a third mark replaces the older of the
/// two.
fn toggle_mark(app: &mut App) {
    let Some(state) = app.track.answers.as_mut() else {
        return;
    };
    let at = state.run_selected;
    let answered = state
        .history
        .as_ref()
        .and_then(|h| h.runs.get(at))
        .is_some_and(|r| r.answer.is_some());
    if let Some(i) = state.marked.iter().position(|&m| m == at) {
        state.marked.remove(i);
    } else if !answered {
        app.flash_info("That run has no answer of this cell to compare: mark one that answered.");
        return;
    } else {
        if state.marked.len() == 2 {
            state.marked.remove(0);
        }
        state.marked.push(at);
    }
    state.compare_marked();
    if state.changes.is_some() {
        state.pane = CellPane::Changes;
        state.scroll = 0;
    }
}

/// The cell's runs were read.
pub(crate) fn on_loaded(app: &mut App, result: Result<Box<CellHistory>, String>) -> Vec<Effect> {
    let Some(state) = app.track.answers.as_mut() else {
        return Vec::new();
    };
    match result {
        // Only the cell still asked for (another may have been opened meanwhile).
        Ok(history) if state.loading.as_ref() == Some(&history.cell) => {
            state.loading = None;
            match state.history.take().filter(|h| h.cell == history.cell) {
                // Read again (a run landed): the same runs stay selected and marked.
                Some(before) => {
                    let id = |i: usize| before.runs.get(i).map(|r| r.run.clone());
                    let at = |id: Option<String>| {
                        history
                            .runs
                            .iter()
                            .position(|r| Some(&r.run) == id.as_ref())
                    };
                    state.run_selected = at(id(state.run_selected)).unwrap_or(0);
                    state.marked = state.marked.iter().filter_map(|&m| at(id(m))).collect();
                }
                None => {
                    state.marked = history
                        .newest_pair()
                        .map_or_else(Vec::new, |(older, newer)| vec![older, newer]);
                    // The newer of the two compared, else the newest run.
                    state.run_selected = state.marked.get(1).copied().unwrap_or(0);
                    state.scroll = 0;
                    state.pane = CellPane::Answer;
                }
            }
            state.history = Some(*history);
            state.compare_marked();
        }
        Ok(_) => {}
        Err(sentence) => {
            state.loading = None;
            app.flash_error(format!("The cell's answers could not be read: {sentence}"));
        }
    }
    Vec::new()
}

/// The store changed (a run's answers landed): the open cell is read again.
pub(crate) fn reload(app: &mut App) -> Vec<Effect> {
    let Some(state) = app.track.answers.as_mut() else {
        return Vec::new();
    };
    let Some(cell) = state.history.as_ref().map(|h| h.cell.clone()) else {
        return Vec::new();
    };
    if state.loading.is_some() {
        return Vec::new();
    }
    state.loading = Some(cell.clone());
    vec![read(app, cell)]
}

/// The read of `cell`'s runs, off the UI task, for the brands its set watches.
fn read(app: &App, cell: Cell) -> Effect {
    let set = app
        .track
        .answers
        .as_ref()
        .map(|s| s.set.clone())
        .unwrap_or_default();
    let brands = app
        .brands_pane
        .workspace
        .as_ref()
        .map(|w| w.read_for(&set))
        .unwrap_or_default();
    // The words already read, and the selected run's: the others stay unread.
    let texts = app
        .track
        .answers
        .as_ref()
        .and_then(|s| {
            let history = s.history.as_ref()?;
            let shown = std::iter::once(s.run_selected)
                .chain(s.marked.iter().copied())
                .filter_map(|i| history.runs.get(i));
            Some(
                history
                    .runs
                    .iter()
                    .filter(|r| r.answer.as_ref().is_some_and(|a| a.text_read))
                    .chain(shown)
                    .map(|r| r.run.clone())
                    .collect(),
            )
        })
        .unwrap_or_default();
    Effect::Store(StoreEffect::LoadCellAnswers {
        set,
        cell,
        brands,
        texts,
    })
}

/// The selected or a marked run's words are not read yet: they are read (with the cell's
/// runs, read again), unless a read is under way.
fn words_wanted(app: &mut App) -> Vec<Effect> {
    let Some(state) = app.track.answers.as_ref() else {
        return Vec::new();
    };
    let Some(history) = &state.history else {
        return Vec::new();
    };
    let unread = |i: &usize| {
        history
            .runs
            .get(*i)
            .and_then(|r| r.answer.as_ref())
            .is_some_and(|a| !a.text_read)
    };
    let wanted = unread(&state.run_selected) || state.marked.iter().any(unread);
    if wanted && state.loading.is_none() {
        reload(app)
    } else {
        Vec::new()
    }
}

/// The keys the view names, as the keymap has them.
pub(crate) fn key(app: &App, action: Action) -> String {
    app.key_of(Context::CellAnswers, action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::answers::{CellAnswer, CellRun, CellStatus};

    fn run(id: &str, text: Option<&str>) -> CellRun {
        CellRun {
            run: id.to_string(),
            started_at: 0,
            status: if text.is_some() {
                CellStatus::Answered
            } else {
                CellStatus::Failed
            },
            answer: text.map(|t| CellAnswer {
                text: t.to_string(),
                text_read: true,
                ..CellAnswer::default()
            }),
        }
    }

    fn app() -> App {
        App::new(
            crate::app::Connection {
                demo: true,
                host: "127.0.0.1:4000".into(),
                token: Some("demo".into()),
                token_hint: "the config file".into(),
            },
            std::time::Instant::now(),
        )
    }

    fn opened(app: &mut App) -> Cell {
        let cell = Cell {
            prompt: "best boots".into(),
            model: "chatgpt".into(),
            place: "US".into(),
        };
        app.track.answers = Some(CellAnswersState {
            set: "boots".into(),
            cells: vec![cell.clone()],
            ..CellAnswersState::default()
        });
        let effects = on_action(app, Action::Accept).expect("handled");
        assert!(
            matches!(&effects[..], [Effect::Store(StoreEffect::LoadCellAnswers { set, .. })] if set == "boots"),
            "{effects:?}"
        );
        cell
    }

    #[test]
    fn a_cell_read_marks_its_newest_two_answers_and_compares_them() {
        let mut app = app();
        let cell = opened(&mut app);
        let history = CellHistory {
            set: "boots".into(),
            cell,
            runs: vec![
                run("c", Some("new words")),
                run("b", None),
                run("a", Some("old words")),
            ],
        };
        on_loaded(&mut app, Ok(Box::new(history)));
        let state = app.track.answers.as_ref().unwrap();
        assert_eq!(state.marked, [2, 0]);
        let changes = state.changes.as_ref().expect("two answered runs");
        assert_eq!((changes.from.as_str(), changes.to.as_str()), ("a", "c"));

        // A failed run cannot be marked; unmarking one leaves nothing compared.
        on_action(&mut app, Action::Down);
        on_action(&mut app, Action::ToggleMark);
        assert_eq!(app.track.answers.as_ref().unwrap().marked, [2, 0]);
        on_action(&mut app, Action::Up);
        on_action(&mut app, Action::ToggleMark);
        let state = app.track.answers.as_ref().unwrap();
        assert_eq!(state.marked, [2]);
        assert!(state.changes.is_none());

        // Another view of the tab (m, the map) closes this one.
        on_action(&mut app, Action::ToggleMode);
        assert!(app.track.answers.is_none());
        let cell = opened(&mut app);
        on_loaded(
            &mut app,
            Ok(Box::new(CellHistory {
                set: "boots".into(),
                cell,
                runs: vec![run("a", Some("one"))],
            })),
        );

        // Esc goes back to the cells, then closes.
        on_action(&mut app, Action::Back);
        assert!(app.track.answers.as_ref().unwrap().history.is_none());
        on_action(&mut app, Action::Back);
        assert!(app.track.answers.is_none());
    }

    #[test]
    fn a_cell_read_again_keeps_its_selected_and_marked_runs() {
        let mut app = app();
        let cell = opened(&mut app);
        let history = |runs: Vec<CellRun>| CellHistory {
            set: "boots".into(),
            cell: cell.clone(),
            runs,
        };
        let first = history(vec![run("b", Some("two")), run("a", Some("one"))]);
        on_loaded(&mut app, Ok(Box::new(first)));
        on_action(&mut app, Action::Down);
        assert_eq!(app.track.answers.as_ref().unwrap().run_selected, 1);
        let effects = reload(&mut app);
        assert!(matches!(
            &effects[..],
            [Effect::Store(StoreEffect::LoadCellAnswers { .. })]
        ));
        // A newer run landed: the runs shift down one, the selection and marks follow them.
        let again = history(vec![
            run("c", Some("three")),
            run("b", Some("two")),
            run("a", Some("one")),
        ]);
        on_loaded(&mut app, Ok(Box::new(again)));
        let state = app.track.answers.as_ref().unwrap();
        assert_eq!(state.run_selected, 2);
        assert_eq!(state.marked, [2, 1]);
        let changes = state.changes.as_ref().unwrap();
        assert_eq!((changes.from.as_str(), changes.to.as_str()), ("a", "b"));
    }

    #[test]
    fn the_words_of_a_run_are_read_only_when_it_is_shown() {
        let mut app = app();
        let cell = opened(&mut app);
        let mut unread = run("a", Some(""));
        if let Some(answer) = unread.answer.as_mut() {
            answer.text_read = false;
        }
        let history = CellHistory {
            set: "boots".into(),
            cell,
            runs: vec![run("c", Some("three")), run("b", Some("two")), unread],
        };
        on_loaded(&mut app, Ok(Box::new(history)));
        // The newest two are read and compared: nothing to ask.
        assert!(on_action(&mut app, Action::Up).unwrap().is_empty());
        assert!(on_action(&mut app, Action::Down).unwrap().is_empty());
        // The oldest is not: shown, its words are asked for, with those read before.
        let effects = on_action(&mut app, Action::Down).unwrap();
        match &effects[..] {
            [Effect::Store(StoreEffect::LoadCellAnswers { texts, .. })] => {
                assert!(texts.contains(&"a".to_string()), "{texts:?}");
                assert!(texts.contains(&"c".to_string()) && texts.contains(&"b".to_string()));
            }
            other => panic!("{other:?}"),
        }
        // Asked once while the read is under way.
        assert!(on_action(&mut app, Action::Up).unwrap().is_empty());
    }

    #[test]
    fn an_answer_for_a_cell_no_longer_asked_is_dropped() {
        let mut app = app();
        opened(&mut app);
        let other = CellHistory {
            cell: Cell {
                prompt: "other".into(),
                ..Cell::default()
            },
            ..CellHistory::default()
        };
        on_loaded(&mut app, Ok(Box::new(other)));
        let state = app.track.answers.as_ref().unwrap();
        assert!(state.history.is_none());
        assert!(state.loading.is_some());
    }
}
