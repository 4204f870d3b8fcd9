//! The Track tab: every tracking run (done, failed, pending, credits), and for the selected
//! run's set a chart of each brand's visibility over its runs and the last run's changes.
//! Read from the store off the UI task; `Enter` shows the selected run's set, `r` reads
//! again, `m` swaps the chart for a map of one brand (`←`/`→` pick it), `s` for the last
//! run's sources by kind and the gaps of the workspace's own brand; `v` splits the chart by
//! model or place, `c` turns it to share of voice or recommended share.

use crate::price::covers;
use crate::track::stat::Share;
use crate::track::view::TrackView;

use super::keymap::{Action, Context};
use super::popup::{Confirm, Popup};
use super::{App, CallEffect, Credits, Effect, StoreEffect, TrackRunSent};
use crate::analysis::workspace::TrackSet;

/// What the chart's lines are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Split {
    /// A line per watched brand.
    #[default]
    Brands,
    /// The selected brand, a line per model.
    Models,
    /// The selected brand, a line per place.
    Places,
}

impl Split {
    fn next(self) -> Split {
        match self {
            Split::Brands => Split::Models,
            Split::Models => Split::Places,
            Split::Places => Split::Brands,
        }
    }
}

#[derive(Default)]
pub struct TrackState {
    pub view: Option<TrackView>,
    /// The selected run, an index into `view.runs` (newest last).
    pub selected: usize,
    /// A read is under way.
    pub loading: bool,
    /// The store changed during that read: read again once it is done.
    pub changed_while_loading: bool,
    /// The brand the list highlights and the map shows, an index into `view.trends.brands`.
    pub brand: usize,
    /// The map of the vantage points replaces the chart.
    pub show_map: bool,
    /// The last run's sources by kind and gaps replace the chart.
    pub show_readings: bool,
    /// The chart's lines: the brands, or the selected brand by model or by place.
    pub split: Split,
    /// What the chart draws of each line: visibility, share of voice or recommended share.
    pub share: Share,
    /// Prompts discovered around a topic (`D`), shown in place of the chart.
    pub discover: Option<super::discover::DiscoverState>,
    /// A set written from the tab (the form, Discover): shown once the file holds it.
    pub show_when_written: Option<String>,
    /// The set whose run is being sent (`R`), until its calls are queued.
    pub sending: Option<String>,
    /// The run sent from here whose jobs are still out (its short id and set): when they
    /// have all ended, the line that said it was queued gives way to one that says so.
    pub out: Option<(String, String)>,
    /// A set being made or edited (`n`, `e`), shown in place of the tab.
    pub editor: Option<super::sets::SetEditor>,
    /// A cell's answers over the runs (`a`), shown in place of the tab.
    pub answers: Option<super::track_answers::CellAnswersState>,
    /// The store's version when the view was last read: coming back to the tab reads it
    /// again only when the store (or the workspace file) changed since.
    pub read_at: Option<i64>,
}

impl TrackState {
    pub fn key_contexts(&self) -> Vec<Context> {
        if self.editor.is_some() {
            return vec![Context::SetEditor];
        }
        if self.answers.is_some() {
            return vec![Context::CellAnswers, Context::Track];
        }
        if self.discover.is_some() {
            return vec![Context::Discover, Context::Track];
        }
        vec![Context::Track]
    }

    pub fn owns_discovery(&self, tag: super::Tag) -> bool {
        self.discover.as_ref().is_some_and(|d| d.owns(tag))
    }

    fn brand_count(&self) -> usize {
        self.view.as_ref().map_or(0, |v| v.trends.brands.len())
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
    app.track.read_at = app.store_version;
    let set = app.track.view.as_ref().and_then(|v| v.set.clone());
    vec![Effect::Store(StoreEffect::LoadTrack { set })]
}

pub(crate) fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    if app.track.editor.is_some() {
        return super::sets::on_action(app, action);
    }
    if let Some(effects) = super::track_answers::on_action(app, action) {
        return effects;
    }
    if let Some(discover) = app.track.discover.as_mut() {
        let rows = discover.rows.len();
        match action {
            Action::Up => {
                discover.selected = discover.selected.saturating_sub(1);
                return Vec::new();
            }
            Action::Down => {
                discover.selected = (discover.selected + 1).min(rows.saturating_sub(1));
                return Vec::new();
            }
            Action::ToggleMark => {
                super::discover::toggle_mark(app);
                return Vec::new();
            }
            Action::AddToSet => return super::discover::ask_set(app),
            Action::Back => {
                app.track.discover = None;
                return Vec::new();
            }
            _ => {}
        }
    }
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
                say_no_set_selected(app);
                return Vec::new();
            };
            app.track.loading = true;
            return vec![Effect::Store(StoreEffect::LoadTrack { set: Some(set) })];
        }
        Action::Left => app.track.brand = app.track.brand.saturating_sub(1),
        Action::Right => {
            let brands = app.track.brand_count();
            app.track.brand = (app.track.brand + 1).min(brands.saturating_sub(1));
        }
        Action::ToggleMode => {
            app.track.show_map = !app.track.show_map;
            app.track.show_readings = false;
        }
        Action::SplitChart => {
            app.track.split = app.track.split.next();
            app.track.show_map = false;
            app.track.show_readings = false;
        }
        Action::ChartShare => {
            app.track.share = app.track.share.next();
            app.track.show_map = false;
            app.track.show_readings = false;
        }
        Action::ToggleReadings => {
            app.track.show_readings = !app.track.show_readings;
            app.track.show_map = false;
        }
        Action::Rerun => return load(app),
        Action::DiscoverPrompts => return super::discover::ask(app),
        Action::EditSet => return super::sets::ask_which(app),
        Action::NewSet => super::sets::open_new(app),
        Action::RunSet => ask_run(app),
        Action::CellAnswers => return super::track_answers::open(app),
        Action::Export => match app.track.view.as_ref().and_then(|v| v.set.clone()) {
            Some(set) => {
                app.popup = Some(Popup::Input(super::export_prompt(
                    super::ExportSource::TrackReport,
                    format!("{set}-report.html"),
                )));
            }
            None => {
                let (show, export) = (
                    app.key_of(Context::Track, Action::Accept),
                    app.key_of(Context::Track, Action::Export),
                );
                app.flash_info(format!(
                    "No set is shown: {show} on a run shows its set, then {export} writes its report."
                ));
            }
        },
        _ => {}
    }
    Vec::new()
}

pub(crate) fn on_loaded(app: &mut App, result: Result<Box<TrackView>, String>) -> Vec<Effect> {
    match result {
        Ok(view) => {
            // "Still being read" is no longer true once they are.
            if app
                .flash
                .as_ref()
                .is_some_and(|f| f.text == RUNS_BEING_READ)
            {
                app.flash = None;
            }
            // The first look leaves the reading under way.
            app.track.loading = view.reading.is_some();
            let first_read = app.track.view.is_none();
            let count = view.runs.len();
            app.track.view = Some(*view);
            // Another set may watch fewer brands.
            app.track.brand = app
                .track
                .brand
                .min(app.track.brand_count().saturating_sub(1));
            if first_read {
                app.track.selected = count.saturating_sub(1);
            } else {
                app.track.selected = app.track.selected.min(count.saturating_sub(1));
            }
        }
        Err(e) => {
            app.track.loading = false;
            app.flash_error(format!("The tracking runs could not be read: {e}"));
        }
    }
    // The store changed while it was read (its own readings, or another process).
    if !app.track.loading && std::mem::take(&mut app.track.changed_while_loading) {
        return load(app);
    }
    Vec::new()
}

/// Enter on no run: the runs still being read, not read, or none.
const RUNS_BEING_READ: &str =
    "The runs are still being read; Enter shows a run's set once they are listed.";

fn say_no_set_selected(app: &mut App) {
    match &app.track.view {
        None if app.track.loading => app.flash_info(RUNS_BEING_READ),
        None => {
            let read = app.key_of(Context::Track, Action::Rerun);
            app.flash_info(format!("The runs are not read yet; {read} reads them."));
        }
        Some(_) => app.flash_info("No runs yet: `vantage track run SET` starts one."),
    }
}

/// The reading under way got further.
pub(crate) fn on_reading(app: &mut App, progress: crate::track::stored::Progress) {
    if let Some(view) = app.track.view.as_mut().filter(|v| v.reading.is_some()) {
        view.reading = Some(progress);
    }
}

/// The tab shows: read when nothing is shown yet or the store changed since it was read (the
/// look at the store's version that follows catches what changed unseen).
pub(crate) fn enter(app: &mut App) -> Vec<Effect> {
    let current = app.track.view.is_some()
        && !app.track.loading
        && app.track.read_at.is_some()
        && app.track.read_at == app.store_version;
    if current { Vec::new() } else { load(app) }
}

/// The workspace file was read or written: its brands and sets may differ, so the next look
/// at the tab reads the view again.
pub(crate) fn forget_read(app: &mut App) {
    app.track.read_at = None;
}

/// Another write to the store: read again, or once the read under way is done.
pub(crate) fn on_store_changed(app: &mut App) -> Vec<Effect> {
    let mut effects = super::track_answers::reload(app);
    if app.track.loading {
        app.track.changed_while_loading = true;
        return effects;
    }
    effects.extend(load(app));
    effects
}

/// The set the tab shows (with no runs yet, the workspace's only set), as the workspace
/// file has it now.
pub(crate) fn shown_set(app: &App) -> Result<TrackSet, String> {
    let Some(workspace) = app.brands_pane.workspace.as_ref() else {
        return Err("The workspace file is still being read; try again in a moment.".to_string());
    };
    let shown = app.track.view.as_ref().and_then(|v| v.set.clone());
    let only = match workspace.sets() {
        [only] => Some(only.name.clone()),
        _ => None,
    };
    let Some(name) = shown.or(only) else {
        return Err(
            "No set is shown: Enter on a run shows its set, e opens one of the file's sets, n makes one."
                .to_string(),
        );
    };
    workspace.set(&name).cloned().ok_or_else(|| {
        format!(
            "The set {name} is not in {} any more, so it cannot run; e makes or opens a set.",
            workspace.path().display()
        )
    })
}

/// `R`: on a run of the shown set that lacks cells, the offer to fill it (or make a new
/// run); else the calls a run of the shown set makes, against the balance, before a yes.
fn ask_run(app: &mut App) {
    if app.track.sending.is_some() {
        app.flash_info("A run is being sent; wait for it to be queued.");
        return;
    }
    if let Some(offer) = fill_offer(app) {
        app.popup = Some(Popup::Confirm(offer));
        return;
    }
    ask_new_run(app);
}

/// The selected run, when it is of the shown set, has ended and lacks cells: what filling
/// it asks (each missing call priced as an answer, the dearer kind, so the cost is at most).
fn fill_offer(app: &App) -> Option<Confirm> {
    let set = shown_set(app).ok()?;
    let view = app.track.view.as_ref()?;
    let run = view
        .runs
        .get(app.track.selected)
        .filter(|r| r.set_name.eq_ignore_ascii_case(&set.name))?;
    let missing = run.failed + run.unsent;
    if run.pending > 0 || missing == 0 {
        return None;
    }
    let calls = crate::price::Calls {
        answers: u64::from(missing),
        ..crate::price::Calls::default()
    };
    let credits = match app.credits {
        Credits::Known(n) => Some(n),
        _ => None,
    };
    Some(Confirm::TrackFill {
        set: set.name,
        run: run.id.clone(),
        held: crate::track::trends::Held::of(run, set.complete).text(),
        missing,
        cost: format!("At most {}", calls.in_words(&app.prices)),
        credits,
    })
}

/// After the yes to fill a run: its missing calls asked again off the UI task.
pub(crate) fn fill(app: &mut App, set: String, run: crate::store::RunId) -> Vec<Effect> {
    app.track.sending = Some(set.clone());
    app.flash_info(format!(
        "Asking the missing calls of run {} again…",
        run.short()
    ));
    vec![Effect::Call(CallEffect::FillRun { set, run })]
}

/// A new run of the shown set: its calls against the balance, before a yes.
pub(crate) fn ask_new_run(app: &mut App) {
    let set = match shown_set(app) {
        Ok(set) => set,
        Err(sentence) => {
            app.flash_info(sentence);
            return;
        }
    };
    if let Err(problem) = crate::track::plan::expand(&set) {
        app.flash_error(format!("The set {} cannot run: {problem}.", set.name));
        return;
    }
    if set.auto.is_some() {
        // Its rounds read each round's answers before asking more: a waiting command does.
        app.flash_info(format!(
            "The set {0} spends its samples round by round (samples = \"auto\"): run it with `vantage track run {0} --wait`, which reads each round's answers before asking more; its runs show here as they land.",
            set.name
        ));
        return;
    }
    let credits = match app.credits {
        Credits::Known(n) => Some(n),
        _ => None,
    };
    let cost = set.cost_in_words(&app.prices);
    if !covers(credits, set.calls_by_kind().credits(&app.prices)) {
        let left = credits.unwrap_or_default();
        app.flash_error(format!(
            "A run of {} makes {cost} and {left} credits are left: not sent. Top up, or make the set smaller (e).",
            set.name,
        ));
        return;
    }
    app.popup = Some(Popup::Confirm(Confirm::TrackRun {
        set: set.name,
        cost,
        credits,
    }));
}

/// After the yes: the run is planned and sent off the UI task.
pub(crate) fn run(app: &mut App, name: &str) -> Vec<Effect> {
    // The set's devices meet the one rule, against the service's list as the app has it.
    let refused = shown_set(app).ok().and_then(|set| {
        set.devices
            .iter()
            .find_map(|d| crate::devices::check(d, app.devices.names()).err())
    });
    if let Some(problem) = refused {
        app.flash_error(format!("The set {name} cannot run: {problem}."));
        return Vec::new();
    }
    let planned = shown_set(app)
        .ok()
        .filter(|set| set.name == name)
        .map(|set| crate::track::plan::expand(&set));
    match planned {
        Some(Ok(calls)) => {
            app.track.sending = Some(name.to_string());
            app.flash_info(format!("Sending the {} calls of {name}…", calls.len()));
            vec![Effect::Call(CallEffect::RunSet {
                set: name.to_string(),
                calls,
            })]
        }
        Some(Err(problem)) => {
            app.flash_error(format!("The set {name} cannot run: {problem}."));
            Vec::new()
        }
        None => {
            app.flash_error(format!("The set {name} changed meanwhile; R asks again."));
            Vec::new()
        }
    }
}

/// Every job polled here has ended: a run sent from here says it is done, in place of the
/// line that said it was queued.
pub(crate) fn on_jobs_settled(app: &mut App) {
    if let Some((run, set)) = app.track.out.take() {
        app.flash_info(format!(
            "Run {run} of {set} has ended: every answer is in (or its job ended without one); the chart and the runs list show it."
        ));
    }
}

/// The run's calls went out (or it could not start): said, and its jobs polled here.
pub(crate) fn on_run_sent(app: &mut App, result: Result<TrackRunSent, String>) -> Vec<Effect> {
    app.track.sending = None;
    let sent = match result {
        Ok(sent) => sent,
        Err(problem) => {
            app.flash_error(format!("The run could not start: {problem}"));
            return Vec::new();
        }
    };
    let calls = crate::plural::count(sent.planned as u64, "call", "calls");
    let mut sentence = match sent.filled {
        true => format!(
            "Asked again into run {} of {}: {} of {calls} queued",
            sent.run, sent.set, sent.queued
        ),
        false => format!(
            "Run {} of {}: {} of {calls} queued",
            sent.run, sent.set, sent.queued
        ),
    };
    if sent.resumed {
        sentence = format!("Went on with an earlier run cut short. {sentence}");
    }
    if sent.refused > 0 {
        sentence.push_str(&format!(", {} refused", sent.refused));
    }
    if sent.later > 0 {
        sentence.push_str(&format!(", {} left for the next run", sent.later));
    }
    sentence.push('.');
    match &sent.halted {
        Some(reason) => {
            app.flash_error(format!("{sentence} Sending stopped: {reason}"));
        }
        None if sent.refused > 0 => app.flash_error(format!(
            "{sentence} History has each refusal with the service's words."
        )),
        None => app.flash_info(format!(
            "{sentence} Their answers are polled here; the chart follows as they land."
        )),
    }
    app.track.loading = true;
    if sent.queued > 0 {
        app.track.out = Some((sent.run.to_string(), sent.set.to_string()));
    }
    vec![
        // The run's jobs are polled by this process whichever tab shows.
        Effect::Store(StoreEffect::LoadJobs),
        // The balance the status bar shows is the one after the run.
        Effect::Call(CallEffect::FetchAccount),
        Effect::Store(StoreEffect::LoadTrack {
            set: Some(sent.set),
        }),
    ]
}
