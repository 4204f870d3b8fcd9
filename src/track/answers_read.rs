//! A cell's answers read from the store: what each run's answer named and cited comes from
//! the kept readings (`track::stored`: brought up to date before), its words from the one
//! stored answer of the cell in that run — never the run's other answers. Blocking: off the
//! UI task.

use std::time::Duration;

use crate::analysis::mentions::Brand;
use crate::present::answer;
use crate::present::compare::overview::{is_overview_request, stored_overview};
use crate::store::readings::{ANSWER, CellKey, StoredReading};
use crate::store::{RequestParams, RunId, RunItem, Store, StoreError};

use super::answers::{
    Cell, CellAnswer, CellChanges, CellHistory, CellRun, CellStatus, TextsOf, compare,
};
use super::stored::{SetReadings, read_item};

impl Cell {
    fn key(&self) -> CellKey<'_> {
        CellKey {
            query: &self.prompt,
            model: &self.model,
            place: &self.place,
        }
    }
}

/// An answer's words as Compare reads them (the outline's text); none for a body with no
/// answer in it.
pub fn answer_text(item: &RunItem) -> Option<String> {
    let body = item.body.as_deref()?;
    match &item.request {
        RequestParams::Ai(request) => {
            answer::prepare_to_read(request.clone(), body).map(|a| a.plain_text)
        }
        RequestParams::Search(request) if is_overview_request(request) => {
            Some(stored_overview(request.clone(), body.to_owned(), Duration::ZERO).plain_text)
        }
        _ => None,
    }
}

/// The words of the call `seq` of `run`, read from its stored body (this call's only).
fn words_of(store: &Store, run: &RunId, seq: u32) -> Result<String, StoreError> {
    let item = store.track_items_between(run, seq, seq, true)?;
    Ok(item.first().and_then(answer_text).unwrap_or_default())
}

/// The cell's answer from its reading, with its words when `with_text`.
fn answer_of(
    store: &Store,
    run: &RunId,
    reading: &StoredReading,
    with_text: bool,
) -> Result<CellAnswer, StoreError> {
    let text = if with_text {
        words_of(store, run, reading.seq)?
    } else {
        String::new()
    };
    let sources = serde_json::from_str(&reading.detail).unwrap_or_default();
    let mut answer = CellAnswer::from_reading(&reading.brands, sources, text);
    answer.text_read = with_text;
    answer.seq = reading.seq;
    Ok(answer)
}

/// The cell in run `index` of `read`.
fn cell_run(
    store: &Store,
    read: &SetReadings,
    index: usize,
    brands: &[Brand],
    cell: &Cell,
    with_text: bool,
) -> Result<CellRun, StoreError> {
    let summary = &read.runs[index];
    let mut run = CellRun {
        run: summary.id.as_str().to_string(),
        started_at: summary.started_at,
        status: CellStatus::NotAsked,
        answer: None,
    };
    let kept = read.cell_stored(store, index, cell.key())?;
    if let Some(reading) = kept.iter().flatten().find(|r| r.kind == ANSWER) {
        run.status = CellStatus::Answered;
        run.answer = Some(answer_of(store, &summary.id, reading, with_text)?);
        return Ok(run);
    }
    // Not answered (or read in memory): the run's calls, without their answers, say why.
    let calls: Vec<RunItem> = store
        .track_items_between(&summary.id, 0, u32::MAX, false)?
        .into_iter()
        .filter(|item| Cell::of(&item.request).as_ref() == Some(cell))
        .collect();
    let Some(first) = calls.first() else {
        return Ok(run);
    };
    if kept.is_none() {
        // Read in memory: the store could not keep readings, so the answer is read here.
        for call in calls
            .iter()
            .filter(|c| c.state == Some(crate::jobs::JobState::Done))
        {
            let with_body = store.track_items_between(&summary.id, call.seq, call.seq, true)?;
            let Some(item) = with_body.first() else {
                continue;
            };
            if let Some(reading) = read_item(item, brands).filter(|r| r.kind == ANSWER) {
                let sources = serde_json::from_str(&reading.detail).unwrap_or_default();
                let text = answer_text(item).unwrap_or_default();
                run.status = CellStatus::Answered;
                let mut answer = CellAnswer::from_reading(&reading.brands, sources, text);
                answer.seq = call.seq;
                run.answer = Some(answer);
                return Ok(run);
            }
        }
    }
    run.status = CellStatus::of_call(first.state, first.refused.is_some(), false);
    Ok(run)
}

/// The cell's answer in every run of `read` (brought up to date for `brands`), newest
/// first; the words of the runs `texts` names only.
pub fn read_cell(
    store: &Store,
    set: &str,
    read: &SetReadings,
    brands: &[Brand],
    cell: &Cell,
    texts: &TextsOf,
) -> Result<CellHistory, StoreError> {
    let all = *texts == TextsOf::All;
    let runs = (0..read.runs.len())
        .rev()
        .map(|i| cell_run(store, read, i, brands, cell, all))
        .collect::<Result<Vec<_>, _>>()?;
    let mut history = CellHistory {
        set: set.to_string(),
        cell: cell.clone(),
        runs,
    };
    if let TextsOf::These(ids) = texts {
        let mut wanted: Vec<usize> = history
            .newest_pair()
            .map_or_else(Vec::new, |(a, b)| vec![a, b]);
        wanted.extend(
            history
                .runs
                .iter()
                .enumerate()
                .filter(|(_, r)| ids.contains(&r.run))
                .map(|(i, _)| i),
        );
        for i in wanted {
            let run = &mut history.runs[i];
            let id = RunId(run.run.clone());
            if let Some(answer) = run.answer.as_mut().filter(|a| !a.text_read) {
                answer.text = words_of(store, &id, answer.seq)?;
                answer.text_read = true;
            }
        }
    }
    Ok(history)
}

/// The cell's answer in every run of `set`, its readings brought up to date for `brands`
/// first: what the Track tab's cell view reads. The error is a sentence.
pub fn read_set_cell(
    store: &Store,
    set: &str,
    brands: &[Brand],
    cell: &Cell,
    texts: &TextsOf,
) -> Result<CellHistory, String> {
    let never = std::sync::atomic::AtomicBool::new(false);
    let runs = store.track_runs(Some(set)).map_err(|e| e.to_string())?;
    let read = super::stored::bring_up_to_date(
        store,
        set,
        runs,
        brands,
        super::stored::READING_RULES,
        &mut |_| {},
        &never,
    )
    .map_err(|e| e.to_string())?
    .unwrap_or_default();
    read_cell(store, set, &read, brands, cell, texts).map_err(|e| e.to_string())
}

/// What changed in one cell from the run before last to the last.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CellChanged {
    pub cell: Cell,
    pub changes: CellChanges,
}

/// Every cell answered in both of the last two runs whose brands, order, stances or
/// sources changed, with the word diff of those only (their two answers read again);
/// the cells in the set's order of prompts. Empty with fewer than two runs.
pub fn last_two_changed(store: &Store, read: &SetReadings) -> Result<Vec<CellChanged>, StoreError> {
    let n = read.runs.len();
    if n < 2 {
        return Ok(Vec::new());
    }
    let (Some(before), Some(last)) = (read.stored(store, n - 2)?, read.stored(store, n - 1)?)
    else {
        // Read in memory: the report says nothing rather than read every answer again.
        return Ok(Vec::new());
    };
    let answers = |readings: &[StoredReading]| -> Vec<(Cell, StoredReading)> {
        let mut seen = std::collections::BTreeSet::new();
        readings
            .iter()
            .filter(|r| r.kind == ANSWER)
            .map(|r| {
                let cell = Cell {
                    prompt: r.query.clone(),
                    model: r.model.clone(),
                    place: r.place.clone(),
                };
                (cell, r.clone())
            })
            // A cell's first sample stands for it, as in the cell's own view.
            .filter(|(cell, _)| seen.insert(cell.clone()))
            .collect()
    };
    // A cell asked several times in either run is read by its counts: each brand's answers
    // naming it, tested, never one sample's words against another's.
    let named = |readings: &[StoredReading]| -> std::collections::HashMap<Cell, Vec<Vec<String>>> {
        let mut cells: std::collections::HashMap<Cell, Vec<Vec<String>>> = Default::default();
        for r in readings.iter().filter(|r| r.kind == ANSWER) {
            let cell = Cell {
                prompt: r.query.clone(),
                model: r.model.clone(),
                place: r.place.clone(),
            };
            let brands = r
                .brands
                .iter()
                .filter(|b| b.position.is_some())
                .map(|b| b.brand.clone())
                .collect();
            cells.entry(cell).or_default().push(brands);
        }
        cells
    };
    let (named_before, named_last) = (named(&before), named(&last));
    let before: std::collections::HashMap<Cell, StoredReading> =
        answers(&before).into_iter().collect();
    let mut changed = Vec::new();
    for (cell, now) in answers(&last) {
        if let (Some(then), Some(lately)) = (named_before.get(&cell), named_last.get(&cell))
            && (then.len() > 1 || lately.len() > 1)
        {
            let counted = super::answers::counted_moves(then, lately);
            if !counted.is_empty() {
                changed.push(CellChanged {
                    cell,
                    changes: CellChanges {
                        from: read.runs[n - 2].id.as_str().to_string(),
                        to: read.runs[n - 1].id.as_str().to_string(),
                        counted,
                        ..CellChanges::default()
                    },
                });
            }
            continue;
        }
        let Some(was) = before.get(&cell) else {
            continue;
        };
        let domains = |r: &StoredReading| serde_json::from_str(&r.detail).unwrap_or_default();
        let old = CellAnswer::from_reading(&was.brands, domains(was), String::new());
        let new = CellAnswer::from_reading(&now.brands, domains(&now), String::new());
        let mut changes = compare(&old, &new, false);
        if changes.same_readings() {
            continue;
        }
        let old = answer_of(store, &read.runs[n - 2].id, was, true)?;
        let new = answer_of(store, &read.runs[n - 1].id, &now, true)?;
        changes = compare(&old, &new, true);
        changes.from = read.runs[n - 2].id.as_str().to_string();
        changes.to = read.runs[n - 1].id.as_str().to_string();
        changed.push(CellChanged { cell, changes });
    }
    Ok(changed)
}
