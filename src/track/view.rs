//! What the Track tab shows, read from the store and the workspace file off the UI task:
//! every run, and for one set its trends from the runs' stored tallies and the last run's
//! changes from its stored readings. A first look shows what is kept at once; the rest
//! follows once every answer is read by the current rules (`track::stored`).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::analysis::mentions::Brand;
use crate::analysis::sources::Classifier;
use crate::analysis::workspace::{self, TrackSet, Workspace};
use crate::store::{RunSummary, Store};

use super::alerts::{self, Fired};
use super::diff::RunDiff;
use super::map::{BrandMap, brand_maps};
use super::paired::{self, Compared};
use super::readings::{self, RunReadings};
use super::stored::{self, Progress, READING_RULES, SetReadings};
use super::trends::{self, Trends};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrackView {
    /// Every run, oldest first.
    pub runs: Vec<RunSummary>,
    /// The set the trends are of.
    pub set: Option<String>,
    pub trends: Trends,
    /// From the set's run before last to its last.
    pub diff: Option<RunDiff>,
    /// Each watched brand's vantage points on the map, in the order of `trends.brands`:
    /// placed here, off the UI task, since the first placement parses the location tables.
    pub maps: Vec<BrandMap>,
    /// The last run's sources by kind, and the gaps of the workspace's own brand.
    pub readings: Option<RunReadings>,
    /// The calls the set's next run makes (samples included), when the workspace file
    /// names the set.
    pub calls_per_run: Option<usize>,
    /// The alerts of the set that fired, by run id (finished runs only).
    pub fired: Vec<(String, Vec<Fired>)>,
    /// Runs whose numbers shown were read by older rules or for other brands, or not read
    /// yet: the view is the first look, and a reading is under way.
    pub stale: usize,
    /// How far that reading has got.
    pub reading: Option<Progress>,
    /// The percent of its planned cells a run of the set holds to be complete.
    pub complete: u8,
}

impl TrackView {
    /// The alerts that fired on a run.
    pub fn fired_on(&self, run: &str) -> &[Fired] {
        self.fired
            .iter()
            .find(|(id, _)| id == run)
            .map_or(&[], |(_, fired)| fired.as_slice())
    }
}

/// What the view reads of the workspace file in `folder`: the brands `set` watches (with
/// the own brand, for its gaps), the own brand, and how sites are classed.
#[derive(Default)]
struct SetReading {
    brands: Vec<Brand>,
    own: Option<String>,
    classifier: Classifier,
    calls_per_run: Option<usize>,
    set: Option<TrackSet>,
    tracked: Vec<Brand>,
}

impl SetReading {
    /// The share of its cells a run holds to be complete, by the set's `complete`.
    fn complete(&self) -> u8 {
        self.set
            .as_ref()
            .map_or(workspace::DEFAULT_COMPLETE, |s| s.complete)
    }
}

fn reading_of(folder: &Path, explicit: Option<&Path>, set: &str) -> SetReading {
    let Ok(Some(path)) = workspace::locate(explicit, folder) else {
        return SetReading::default();
    };
    let Ok(w) = Workspace::load(&path) else {
        return SetReading::default();
    };
    SetReading {
        brands: w.read_for(set),
        own: w.own().map(str::to_string),
        classifier: w.classifier(),
        calls_per_run: w.set(set).map(|s| s.combinations()),
        set: w.set(set).cloned(),
        tracked: w.brands().to_vec(),
    }
}

/// A load of the tab, in two looks: at once, the runs and the tallies as kept (some maybe
/// read by older rules); then, once every answer is read by the current rules, the whole
/// view.
pub struct Loading {
    runs: Vec<RunSummary>,
    set: Option<String>,
    reading: SetReading,
    /// The set's runs as kept, when every one was read by the current rules for these
    /// brands: the first look's trends are then the whole view's, and only the last two
    /// runs remain to read (their paired changes, and the alerts' drops over them).
    kept: Option<SetReadings>,
}

/// The runs, and what is kept of the trends of `set` (else of the newest run's set): what
/// the tab shows at once, with `stale` saying how many runs are still to be read.
pub fn first_look(
    store: &Store,
    set: Option<&str>,
    folder: &Path,
    explicit: Option<&Path>,
) -> Result<(TrackView, Loading), String> {
    let runs = store.track_runs(None).map_err(|e| e.to_string())?;
    let set = set.map(str::to_string).or_else(|| {
        // The runs come in the order they were made: the last is the newest.
        runs.last().map(|r| r.set_name.clone())
    });
    let reading = set
        .as_deref()
        .map(|set| reading_of(folder, explicit, set))
        .unwrap_or_default();
    let mut view = TrackView {
        runs: runs.clone(),
        set: set.clone(),
        calls_per_run: reading.calls_per_run,
        complete: reading.complete(),
        ..TrackView::default()
    };
    let mut up_to_date = None;
    if let Some(set) = &set {
        let of_set = of_set(&runs, set);
        let kept = stored::kept(store, set, of_set, &reading.brands, READING_RULES)
            .map_err(|e| e.to_string())?;
        view.stale = kept.stale;
        view.trends = trends::trends_of(kept.labels(), &kept.tallies, &kept.names)
            .with_held(trends::held_of(&kept.runs, reading.complete()));
        view.maps = brand_maps(&view.trends);
        view.fired = fired(&kept, None, &reading);
        if kept.stale == 0 {
            up_to_date = Some(kept);
        }
    }
    let loading = Loading {
        runs,
        set,
        reading,
        kept: up_to_date,
    };
    Ok((view, loading))
}

fn of_set(runs: &[RunSummary], set: &str) -> Vec<RunSummary> {
    runs.iter()
        .filter(|r| r.set_name.eq_ignore_ascii_case(set))
        .cloned()
        .collect()
}

/// The alerts of the set that fired, on each run that has ended and holds enough of its
/// cells, from the runs' tallies; the last run's drops over the cells it and the run before
/// both answered (`compared`, once their answers are read).
fn fired(
    readings: &SetReadings,
    compared: Option<&Compared>,
    reading: &SetReading,
) -> Vec<(String, Vec<Fired>)> {
    let Some(definition) = reading.set.as_ref().filter(|s| !s.alerts.is_empty()) else {
        return Vec::new();
    };
    let held = trends::held_of(&readings.runs, definition.complete);
    let last = readings.runs.len().checked_sub(1);
    let mut fired = Vec::new();
    for (i, run) in readings.runs.iter().enumerate() {
        if !run.is_finished() || !held[i].complete {
            continue;
        }
        let against = match (Some(i) == last, compared) {
            (true, Some(c)) => Some((&c.before, &c.after)),
            // The last run's drops wait for its answers to be paired with the run before's.
            (true, None) => None,
            _ => i
                .checked_sub(1)
                .filter(|b| held[*b].complete)
                .map(|b| (&readings.tallies[b], &readings.tallies[i])),
        };
        let on_run = alerts::evaluate(
            &definition.name,
            &definition.alerts,
            run.id.as_str(),
            &readings.tallies[i],
            against,
            &reading.tracked,
        );
        if !on_run.is_empty() {
            fired.push((run.id.as_str().to_string(), on_run));
        }
    }
    fired
}

/// The whole view once every answer of the set is read by the current rules (in bounded
/// batches, `progress` told after each; `None` when `stop` was raised). `first` is the
/// first look, when it was not shown: when nothing was stale, it is completed with the
/// last two runs' changes rather than made again. Slow the first time a year of runs is
/// read: call it off the UI task.
pub fn finish(
    store: &Store,
    loading: Loading,
    first: Option<TrackView>,
    progress: &mut dyn FnMut(Progress),
    stop: &AtomicBool,
) -> Result<Option<TrackView>, String> {
    let Loading {
        runs,
        set,
        reading,
        kept,
    } = loading;
    let Some(set) = set else {
        return Ok(Some(TrackView {
            runs,
            ..TrackView::default()
        }));
    };
    let brands = &reading.brands;
    if let (Some(mut view), Some(read)) = (first, kept) {
        let (compared, readings) = last_changes(store, &read, &reading)?;
        if let Some(compared) = &compared {
            view.trends = view.trends.with_compared(compared);
            view.fired = fired(&read, Some(compared), &reading);
        }
        view.diff = compared.map(|c| c.diff);
        view.readings = readings;
        return Ok(Some(view));
    }
    let of_set = of_set(&runs, &set);
    let Some(read) =
        stored::bring_up_to_date(store, &set, of_set, brands, READING_RULES, progress, stop)
            .map_err(|e| e.to_string())?
    else {
        return Ok(None);
    };
    let (compared, readings) = last_changes(store, &read, &reading)?;
    let mut trends = trends::trends_of(read.labels(), &read.tallies, &read.names)
        .with_held(trends::held_of(&read.runs, reading.complete()));
    if let Some(compared) = &compared {
        trends = trends.with_compared(compared);
    }
    Ok(Some(TrackView {
        fired: fired(&read, compared.as_ref(), &reading),
        readings,
        calls_per_run: reading.calls_per_run,
        maps: brand_maps(&trends),
        trends,
        runs,
        set: Some(set),
        diff: compared.map(|c| c.diff),
        stale: 0,
        reading: None,
        complete: reading.complete(),
    }))
}

/// From the set's run before last to its last, over the cells both answered, and the last
/// run's readings.
fn last_changes(
    store: &Store,
    read: &SetReadings,
    reading: &SetReading,
) -> Result<(Option<Compared>, Option<RunReadings>), String> {
    let brands = &reading.brands;
    let (before, last) = read.last_two(store, brands).map_err(|e| e.to_string())?;
    let compared = match (&before, &last) {
        (Some(before), Some(last)) => Some(paired::compare(before, last, &read.names)),
        _ => None,
    };
    let readings = last
        .as_ref()
        .map(|run| readings::readings(run, brands, reading.own.as_deref(), &reading.classifier));
    Ok((compared, readings))
}

/// The runs, and the trends of `set` (else of the newest run's set), every answer read by
/// the current rules. Slow the first time a year of runs is read: call it off the UI task.
pub fn load(
    store: &Store,
    set: Option<&str>,
    folder: &Path,
    explicit: Option<&Path>,
) -> Result<TrackView, String> {
    let (first, loading) = first_look(store, set, folder, explicit)?;
    let first = (first.stale == 0).then_some(first);
    let never = AtomicBool::new(false);
    finish(store, loading, first, &mut |_| {}, &never).map(Option::unwrap_or_default)
}
