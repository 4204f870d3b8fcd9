//! What the Track tab shows, read from the store and the workspace file in one go, off the
//! UI task: every run, and for one set its trends and the last run's changes.

use std::path::Path;

use crate::analysis::mentions::Brand;
use crate::analysis::sources::Classifier;
use crate::analysis::workspace::{self, TrackSet, Workspace};
use crate::store::{RunSummary, Store};

use super::alerts::{self, Fired};
use super::diff::{self, RunDiff};
use super::map::{BrandMap, brand_maps};
use super::observe::observe_run;
use super::readings::{self, RunReadings};
use super::report::timestamp;
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

fn reading_of(folder: &Path, explicit: Option<&Path>, set: &str) -> SetReading {
    let Some(path) = workspace::locate(explicit, folder) else {
        return SetReading::default();
    };
    let Ok(w) = Workspace::load(&path) else {
        return SetReading::default();
    };
    let mut brands = match w.set(set) {
        Some(s) => w.brands_of(s),
        None => w.brands().to_vec(),
    };
    let own = w.own().map(str::to_string);
    if let Some(own) = &own
        && !brands.iter().any(|b| &b.name == own)
        && let Some(brand) = w.brands().iter().find(|b| &b.name == own)
    {
        brands.push(brand.clone());
    }
    SetReading {
        brands,
        own,
        classifier: w.classifier(),
        calls_per_run: w.set(set).map(|s| s.combinations()),
        set: w.set(set).cloned(),
        tracked: w.brands().to_vec(),
    }
}

/// The runs, and the trends of `set` (else of the newest run's set). Slow with many runs:
/// call it off the UI task.
pub fn load(
    store: &Store,
    set: Option<&str>,
    folder: &Path,
    explicit: Option<&Path>,
) -> Result<TrackView, String> {
    let runs = store.track_runs(None).map_err(|e| e.to_string())?;
    let set = set.map(str::to_string).or_else(|| {
        runs.iter()
            .max_by_key(|r| r.started_at)
            .map(|r| r.set_name.clone())
    });
    let Some(set) = set else {
        return Ok(TrackView {
            runs,
            ..TrackView::default()
        });
    };
    let reading = reading_of(folder, explicit, &set);
    let brands = reading.brands;
    let mut observed = Vec::new();
    let mut ids = Vec::new();
    for run in runs
        .iter()
        .filter(|r| r.set_name.eq_ignore_ascii_case(&set))
    {
        let items = store.track_items(&run.id).map_err(|e| e.to_string())?;
        observed.push(observe_run(timestamp(run.started_at), &items, &brands));
        ids.push((
            run.id.as_str().to_string(),
            run.pending == 0 && run.unsent == 0,
        ));
    }
    let names: Vec<String> = brands.iter().map(|b| b.name.clone()).collect();
    let mut fired = Vec::new();
    if let Some(definition) = reading.set.as_ref().filter(|s| !s.alerts.is_empty()) {
        for (i, (id, ended)) in ids.iter().enumerate() {
            if !ended {
                continue;
            }
            let before = i.checked_sub(1).map(|b| &observed[b]);
            let on_run = alerts::evaluate(
                &definition.name,
                &definition.alerts,
                id,
                &observed[i],
                before,
                &names,
                &reading.tracked,
            );
            if !on_run.is_empty() {
                fired.push((id.clone(), on_run));
            }
        }
    }
    let diff = match observed.as_slice() {
        [.., before, after] => Some(diff::diff(before, after, &names)),
        _ => None,
    };
    let trends = trends::trends(&observed, &names);
    let readings = observed
        .last()
        .map(|run| readings::readings(run, &brands, reading.own.as_deref(), &reading.classifier));
    Ok(TrackView {
        readings,
        calls_per_run: reading.calls_per_run,
        maps: brand_maps(&trends),
        trends,
        runs,
        set: Some(set),
        diff,
        fired,
    })
}
