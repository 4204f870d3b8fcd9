//! A set's answers read once and kept: each answered call's reading (the brands it names,
//! where and how, the domains it cites, a search's results) is stored beside it by the
//! rules of [`READING_RULES`] for the set's brands, and each ended run's tally beside the
//! run. Trends, alerts, the Track tab and the report read those; an answer's HTML is read
//! again only to show or quote it.
//!
//! [`bring_up_to_date`] is the one way in: it reads, in bounded batches, every answered call
//! whose reading is missing or was made by other rules or for other brands (an answer just
//! landed, an import, rules or brands changed), saying how far it got, and stops between
//! batches when asked. A store that cannot be written is read in memory instead, run by
//! run, and said to be.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::analysis::mentions::Brand;
use crate::analysis::stance::Stance;
use crate::store::readings::{ANSWER, CellKey, NOTHING, RESULTS, StoredBrand, StoredReading};
use crate::store::{RunItem, RunSummary, Store, StoreError, TrackWrite};

use super::observe::{Observed, observe, observe_run};
use super::report::timestamp;
use super::tally::RunTally;
use super::trends::{AnswerObservation, ResultObservation, RunObservations, Seen};

pub use crate::analysis::READING_RULES;

/// Calls read per batch: each batch is one write, and the work between two looks at `stop`.
const BATCH: usize = 64;

/// The brands readings are made for, written the same whatever their order.
pub fn brand_list(brands: &[Brand]) -> String {
    let mut sorted: Vec<Brand> = brands
        .iter()
        .map(|b| {
            let mut b = b.clone();
            b.aliases.sort();
            b.domains.sort();
            b
        })
        .collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    serde_json::to_string(&sorted).unwrap_or_default()
}

/// One call's reading from its stored result; none while it has none.
pub fn read_item(item: &RunItem, brands: &[Brand]) -> Option<StoredReading> {
    item.body.as_ref()?;
    let mut reading = StoredReading {
        seq: item.seq,
        kind: NOTHING.to_string(),
        detail: "[]".to_string(),
        ..StoredReading::default()
    };
    match observe(item, brands) {
        Observed::Answer(answer) => {
            let o = answer.observation;
            reading.kind = ANSWER.to_string();
            reading.detail = serde_json::to_string(&o.domains).unwrap_or_default();
            reading.brands = brands
                .iter()
                .zip(&o.brands)
                .filter(|(_, seen)| {
                    seen.position.is_some() || seen.count > 0 || seen.stance == Stance::NotFound
                })
                .map(|(brand, seen)| {
                    let mention = answer.mentions.iter().find(|m| m.brand == brand.name);
                    StoredBrand {
                        brand: brand.name.clone(),
                        position: seen.position,
                        count: seen.count,
                        stance: seen.stance.label().to_string(),
                        cited: mention.is_some_and(|m| m.cited),
                        rank: mention
                            .and_then(|m| m.rank)
                            .and_then(|r| u32::try_from(r).ok()),
                    }
                })
                .collect();
            (reading.model, reading.place, reading.query, reading.device) =
                (o.model, o.location, o.query, o.device);
        }
        Observed::Results(results) => {
            reading.kind = RESULTS.to_string();
            if let Some(first) = results.first() {
                reading.query = first.terms.clone();
                reading.place = first.location.clone();
            }
            let rows: Vec<(u32, &str, &str, &str)> = results
                .iter()
                .map(|r| (r.rank, r.domain.as_str(), r.url.as_str(), r.title.as_str()))
                .collect();
            reading.detail = serde_json::to_string(&rows).unwrap_or_default();
        }
        Observed::Nothing => {}
    }
    Some(reading)
}

fn stance_of(label: &str) -> Stance {
    [
        Stance::Recommended,
        Stance::Cautioned,
        Stance::NotFound,
        Stance::Listed,
    ]
    .into_iter()
    .find(|s| s.label() == label)
    .unwrap_or_default()
}

/// A run's observations from its stored readings, for the watched `names`.
pub fn observations(
    label: String,
    readings: &[StoredReading],
    names: &[String],
) -> RunObservations {
    let mut run = RunObservations {
        label,
        ..RunObservations::default()
    };
    for r in readings {
        match r.kind.as_str() {
            ANSWER => run.answers.push(AnswerObservation {
                query: r.query.clone(),
                model: r.model.clone(),
                device: r.device.clone(),
                location: r.place.clone(),
                brands: names
                    .iter()
                    .map(|name| {
                        r.brands
                            .iter()
                            .find(|b| &b.brand == name)
                            .map_or_else(Seen::default, |b| Seen {
                                position: b.position,
                                count: b.count,
                                stance: stance_of(&b.stance),
                            })
                    })
                    .collect(),
                domains: serde_json::from_str(&r.detail).unwrap_or_default(),
            }),
            RESULTS => {
                let rows: Vec<(u32, String, String, String)> =
                    serde_json::from_str(&r.detail).unwrap_or_default();
                run.results
                    .extend(
                        rows.into_iter()
                            .map(|(rank, domain, url, title)| ResultObservation {
                                terms: r.query.clone(),
                                location: r.place.clone(),
                                rank,
                                domain,
                                url,
                                title,
                            }),
                    );
            }
            _ => {}
        }
    }
    run
}

/// How far a bringing up to date has got, in calls read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub read: usize,
    pub total: usize,
}

/// A set's runs and what their numbers are read from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SetReadings {
    /// Oldest first.
    pub runs: Vec<RunSummary>,
    /// One per run.
    pub tallies: Vec<RunTally>,
    /// The watched brands' names, in the order observations hold them.
    pub names: Vec<String>,
    list: Option<i64>,
    version: u32,
    /// Runs read in memory (the store could not keep their readings).
    in_memory: BTreeSet<usize>,
    /// Runs whose tally was made by older rules or for other brands, or not made yet: what
    /// [`kept`] shows before [`bring_up_to_date`] is done.
    pub stale: usize,
}

impl SetReadings {
    /// The runs' labels, for trends.
    pub fn labels(&self) -> Vec<String> {
        self.runs.iter().map(|r| timestamp(r.started_at)).collect()
    }

    /// Runs whose readings could not be kept, so were read from their answers this time.
    pub fn read_in_memory(&self) -> usize {
        self.in_memory.len()
    }

    /// The observations of run `index` (for the changes from one run to the next, the
    /// gaps), from its stored readings.
    pub fn observations(
        &self,
        store: &Store,
        index: usize,
        brands: &[Brand],
    ) -> Result<RunObservations, StoreError> {
        let run = &self.runs[index];
        let label = timestamp(run.started_at);
        match self.list {
            Some(list) if !self.in_memory.contains(&index) => {
                let readings = store.track_readings(&run.id, list, self.version)?;
                Ok(observations(label, &readings, &self.names))
            }
            _ => Ok(observe_run(label, &store.track_items(&run.id)?, brands)),
        }
    }

    /// The stored readings of run `index`; none when it was read in memory.
    pub fn stored(
        &self,
        store: &Store,
        index: usize,
    ) -> Result<Option<Vec<StoredReading>>, StoreError> {
        match self.list {
            Some(list) if !self.in_memory.contains(&index) => Ok(Some(store.track_readings(
                &self.runs[index].id,
                list,
                self.version,
            )?)),
            _ => Ok(None),
        }
    }

    /// The stored readings of one cell in run `index`; none when the run was read in
    /// memory.
    pub fn cell_stored(
        &self,
        store: &Store,
        index: usize,
        cell: CellKey<'_>,
    ) -> Result<Option<Vec<StoredReading>>, StoreError> {
        match self.list {
            Some(list) if !self.in_memory.contains(&index) => Ok(Some(store.track_cell_readings(
                &self.runs[index].id,
                list,
                self.version,
                cell,
            )?)),
            _ => Ok(None),
        }
    }

    /// The last two runs' observations (before, last).
    pub fn last_two(
        &self,
        store: &Store,
        brands: &[Brand],
    ) -> Result<(Option<RunObservations>, Option<RunObservations>), StoreError> {
        let n = self.runs.len();
        let at = |i: Option<usize>| i.map(|i| self.observations(store, i, brands)).transpose();
        Ok((at(n.checked_sub(2))?, at(n.checked_sub(1))?))
    }
}

/// The tallies kept for `runs` as they are, made by whatever rules and for whatever brands
/// (`stale` says how many runs are not read by these rules for these brands, or not read at
/// all): what a view shows at once, before [`bring_up_to_date`] is done.
pub fn kept(
    store: &Store,
    set: &str,
    runs: Vec<RunSummary>,
    brands: &[Brand],
    version: u32,
) -> Result<SetReadings, StoreError> {
    let names: Vec<String> = brands.iter().map(|b| b.name.clone()).collect();
    let list_id = store.reading_list(&brand_list(brands))?;
    let mut kept: HashMap<_, _> = store
        .track_tallies(set)?
        .into_iter()
        .map(|t| (t.run.clone(), t))
        .collect();
    let mut stale = 0;
    let tallies = runs
        .iter()
        .map(|run| {
            let Some(t) = kept.remove(&run.id) else {
                stale += 1;
                return RunTally::default();
            };
            if Some(t.list) != list_id || t.version != version || !run.is_finished() {
                stale += 1;
            }
            serde_json::from_str(&t.tally).unwrap_or_default()
        })
        .collect();
    Ok(SetReadings {
        runs,
        tallies,
        names,
        list: list_id,
        version,
        in_memory: BTreeSet::new(),
        stale,
    })
}

/// Brings the readings of `runs` (a set's, oldest first) up to date for `brands` by the
/// rules of `version`, and returns each run's tally; `None` when `stop` was raised.
/// Blocks (it reads answers and waits for the store's writes): off the UI task, and not
/// on an async task.
pub fn bring_up_to_date(
    store: &Store,
    set: &str,
    runs: Vec<RunSummary>,
    brands: &[Brand],
    version: u32,
    progress: &mut dyn FnMut(Progress),
    stop: &AtomicBool,
) -> Result<Option<SetReadings>, StoreError> {
    let list = brand_list(brands);
    let names: Vec<String> = brands.iter().map(|b| b.name.clone()).collect();
    let mut list_id = store.reading_list(&list)?;
    let kept: HashMap<_, _> = store
        .track_tallies(set)?
        .into_iter()
        .map(|t| (t.run.clone(), t))
        .collect();
    let mut tallies: Vec<Option<RunTally>> = runs
        .iter()
        .map(|run| {
            kept.get(&run.id)
                .filter(|t| Some(t.list) == list_id && t.version == version && run.is_finished())
                .and_then(|t| serde_json::from_str(&t.tally).ok())
        })
        .collect();
    let stale: Vec<usize> = (0..runs.len()).filter(|&i| tallies[i].is_none()).collect();
    let mut done = Progress::default();
    for &i in &stale {
        done.total += store.track_unread_count(&runs[i].id, list_id, version)?;
    }
    if done.total > 0 {
        progress(done);
    }
    let mut in_memory = BTreeSet::new();
    let mut writable = true;
    let mut settled = Vec::new();
    for &i in &stale {
        let run = &runs[i];
        if writable {
            let mut after = None;
            loop {
                if stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                let seqs = store.track_unread(&run.id, list_id, version, after, BATCH)?;
                let (Some(&first), Some(&last)) = (seqs.first(), seqs.last()) else {
                    break;
                };
                after = Some(last);
                let wanted: BTreeSet<u32> = seqs.iter().copied().collect();
                let readings: Vec<StoredReading> = store
                    .track_items_between(&run.id, first, last, true)?
                    .iter()
                    .filter(|item| wanted.contains(&item.seq))
                    .filter_map(|item| read_item(item, brands))
                    .collect();
                let write = TrackWrite::Readings {
                    run: run.id.clone(),
                    list: list.clone(),
                    version,
                    readings,
                };
                if let Err(error) = store.track(write).wait() {
                    tracing::warn!(%error, "readings not kept; reading in memory");
                    writable = false;
                    break;
                }
                done.read += seqs.len();
                progress(done);
            }
        }
        if list_id.is_none() && writable {
            list_id = store.reading_list(&list)?;
        }
        let tally = if writable {
            let readings = match list_id {
                Some(id) => store.track_readings(&run.id, id, version)?,
                // Nothing was ever read for these brands: the run answered nothing.
                None => Vec::new(),
            };
            let tally = RunTally::of(&observations(String::new(), &readings, &names), &names);
            if run.is_finished() {
                let json = serde_json::to_string(&tally).unwrap_or_default();
                let write = TrackWrite::Tally {
                    run: run.id.clone(),
                    list: list.clone(),
                    version,
                    tally: json,
                };
                writable = store.track(write).wait().is_ok();
                settled.push(run.clone());
            }
            tally
        } else {
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            in_memory.insert(i);
            let items = store.track_items(&run.id)?;
            RunTally::of(&observe_run(String::new(), &items, brands), &names)
        };
        tallies[i] = Some(tally);
    }
    if writable && !settled.is_empty() {
        // Counted once more by a later listing only if this fails: nothing is lost.
        let _ = store.track(TrackWrite::Settle(settled)).wait();
    }
    Ok(Some(SetReadings {
        tallies: tallies.into_iter().map(Option::unwrap_or_default).collect(),
        runs,
        names,
        list: list_id,
        version,
        in_memory,
        stale: 0,
    }))
}
