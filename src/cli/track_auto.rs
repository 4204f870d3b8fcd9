//! `samples = "auto"` from the command line: each round of a waiting run reads the run's
//! answers so far and asks again the cells whose readings are least certain
//! (`track::auto`), and the run ends by saying what it spent against asking every cell the
//! most, and how precise its pooled readings are.

use super::err;
use crate::analysis::adaptive::Plan;
use crate::analysis::mentions::Brand;
use crate::analysis::workspace::TrackSet;
use crate::price::Prices;
use crate::store::{RequestParams, RunId, Store};
use crate::track::auto;
use crate::track::stored;

/// The run's cells so far, read by the set's brands (its answers read and kept first).
fn cells_of(
    store: &Store,
    set: &TrackSet,
    run: &RunId,
    brands: &[Brand],
) -> Result<
    (
        Vec<crate::analysis::adaptive::CellCount>,
        Vec<RequestParams>,
    ),
    i32,
> {
    let failed = |error: crate::store::StoreError| {
        err(&error.to_string());
        error.exit_code()
    };
    let summary = store.track_run(run).map_err(failed)?;
    let runs: Vec<_> = summary.into_iter().collect();
    let read = super::track_read::set_readings(store, &set.name, runs, brands)?;
    let items = store
        .track_items_between(run, 0, u32::MAX, false)
        .map_err(failed)?;
    let readings = match read.stored(store, 0).map_err(failed)? {
        Some(readings) => readings,
        // A store that cannot keep readings: the answers read here, for this round.
        None => store
            .track_items(run)
            .map_err(failed)?
            .iter()
            .filter_map(|item| stored::read_item(item, brands))
            .collect(),
    };
    let names: Vec<String> = brands.iter().map(|b| b.name.clone()).collect();
    Ok(auto::cells(&items, &readings, &names))
}

/// The calls of the run's next round: none when every pooled visibility is within the
/// precision or every cell had the most.
pub(super) fn next_round(
    store: &Store,
    set: &TrackSet,
    run: &RunId,
    plan: &Plan,
    brands: &[Brand],
) -> Result<Vec<RequestParams>, i32> {
    let (cells, requests) = cells_of(store, set, run, brands)?;
    Ok(auto::next_calls(&cells, &requests, brands.len(), plan))
}

/// What the run spent against asking every cell the most, and how precise it came out.
pub(super) fn spent(
    store: &Store,
    set: &TrackSet,
    run: &RunId,
    plan: &Plan,
    rounds: u32,
    brands: &[Brand],
    prices: &Prices,
) {
    let Ok(Some(summary)) = store.track_run(run) else {
        return;
    };
    let most = set.calls_at(plan.most);
    let most_credits = most.credits(prices);
    let spent = summary.credits(prices);
    let saved = most_credits.saturating_sub(spent);
    err(&format!(
        "Samples spent where they told, in {}: {} answered ({} credits), against {} ({most_credits} credits) asking every cell {} times: {} credits saved ({:.0} %).",
        crate::plural::count(u64::from(rounds) + 1, "round", "rounds"),
        crate::plural::count(u64::from(summary.done), "call", "calls"),
        spent,
        most.answers + most.searches,
        plan.most,
        saved,
        saved as f64 * 100.0 / most_credits.max(1) as f64
    ));
    if let Ok((cells, _)) = cells_of(store, set, run, brands) {
        let names: Vec<String> = brands.iter().map(|b| b.name.clone()).collect();
        err(&auto::reached(&cells, &names, plan));
    }
}
