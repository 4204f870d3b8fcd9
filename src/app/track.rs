//! The Track tab: every tracking run (done, failed, pending, credits), and for the selected
//! run's set a chart of each brand's visibility over its runs and the last run's changes.
//! Read from the store off the UI task; `Enter` shows the selected run's set, `r` reads
//! again.

use crate::track::view::TrackView;

use super::keymap::{Action, Context};
use super::{App, Effect, StoreEffect};

#[derive(Default)]
pub struct TrackState {
    pub view: Option<TrackView>,
    /// The selected run, an index into `view.runs` (newest last).
    pub selected: usize,
    /// A read is under way.
    pub loading: bool,
}

impl TrackState {
    pub fn key_contexts(&self) -> Vec<Context> {
        vec![Context::Track]
    }

    fn run_count(&self) -> usize {
        self.view.as_ref().map_or(0, |v| v.runs.len())
    }

    /// The set of the selected run.
    pub fn selected_set(&self) -> Option<&str> {
        let view = self.view.as_ref()?;
        view.runs.get(self.selected).map(|r| r.set_name.as_str())
    }
}

/// Reads the runs (and the shown set's trends) again.
pub(crate) fn load(app: &mut App) -> Vec<Effect> {
    app.track.loading = true;
    let set = app.track.view.as_ref().and_then(|v| v.set.clone());
    vec![Effect::Store(StoreEffect::LoadTrack { set })]
}

pub(crate) fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let count = app.track.run_count();
    match action {
        Action::Up => app.track.selected = app.track.selected.saturating_sub(1),
        Action::Down => {
            app.track.selected = (app.track.selected + 1).min(count.saturating_sub(1));
        }
        Action::Top => app.track.selected = 0,
        Action::Bottom => app.track.selected = count.saturating_sub(1),
        Action::Accept => {
            let Some(set) = app.track.selected_set().map(str::to_string) else {
                app.flash_info("No runs yet: `vantage track run SET` starts one.");
                return Vec::new();
            };
            app.track.loading = true;
            return vec![Effect::Store(StoreEffect::LoadTrack { set: Some(set) })];
        }
        Action::Rerun => return load(app),
        _ => {}
    }
    Vec::new()
}

pub(crate) fn on_loaded(app: &mut App, result: Result<Box<TrackView>, String>) {
    app.track.loading = false;
    match result {
        Ok(view) => {
            let first_read = app.track.view.is_none();
            let count = view.runs.len();
            app.track.view = Some(*view);
            if first_read {
                app.track.selected = count.saturating_sub(1);
            } else {
                app.track.selected = app.track.selected.min(count.saturating_sub(1));
            }
        }
        Err(e) => app.flash_error(format!("The tracking runs could not be read: {e}")),
    }
}
