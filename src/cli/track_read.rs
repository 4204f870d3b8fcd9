//! A set's readings brought up to date before its numbers are shown (`track trends`,
//! `report`, `check`, `run --wait`, `import`): answers landed since, or read by older rules
//! or for other brands, are read once and kept. On a terminal a bar on stderr says how far
//! it got; elsewhere (cron, a pipe) a line per thousand answers read.

use std::sync::atomic::AtomicBool;

use super::{err, progress, progress_shown};
use crate::analysis::mentions::Brand;
use crate::store::{RunSummary, Store};
use crate::track::stored::{self, Progress, READING_RULES, SetReadings};

/// Answers read between two lines when stderr is not a terminal.
const LINE_EVERY: usize = 1_000;

/// The bar: "Reading answers ███████░░░░░░░ 4,200 of 9,000".
fn bar(done: Progress) -> String {
    const WIDTH: usize = 24;
    let filled = (done.read * WIDTH)
        .checked_div(done.total)
        .unwrap_or(WIDTH)
        .min(WIDTH);
    format!(
        "Reading answers by the current rules {}{} {} of {}",
        "█".repeat(filled),
        "░".repeat(WIDTH - filled),
        done.read,
        done.total
    )
}

/// What says how far a reading has got: the bar on a terminal, else a line per thousand.
pub(super) fn shown_progress() -> impl FnMut(Progress) {
    let terminal = progress_shown();
    let mut next_line = LINE_EVERY;
    move |done: Progress| {
        if terminal {
            progress(&bar(done));
        } else if done.read >= next_line || (done.read == done.total && done.total >= LINE_EVERY) {
            err(&format!(
                "Read {} of {} by the current reading rules.",
                done.read,
                crate::plural::count(done.total as u64, "answer", "answers")
            ));
            next_line = (done.read / LINE_EVERY + 1) * LINE_EVERY;
        }
    }
}

/// The readings of `set`'s `runs` for `brands`, up to date; the exit code to end with when
/// the store could not be read.
pub(super) fn set_readings(
    store: &Store,
    set: &str,
    runs: Vec<RunSummary>,
    brands: &[Brand],
) -> Result<SetReadings, i32> {
    let mut show = shown_progress();
    let never = AtomicBool::new(false);
    // The store's writes are waited for: on a thread of its own, outside the async runtime.
    let read = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                stored::bring_up_to_date(store, set, runs, brands, READING_RULES, &mut show, &never)
            })
            .join()
    });
    match read {
        Ok(Ok(Some(readings))) => {
            if readings.read_in_memory() > 0 {
                err(&format!(
                    "The store could not keep the readings of {}, so their answers were read again this time.",
                    crate::plural::count(readings.read_in_memory() as u64, "run", "runs")
                ));
            }
            Ok(readings)
        }
        Ok(Ok(None)) => Err(crate::exit::CANCELLED),
        Ok(Err(error)) => {
            err(&error.to_string());
            Err(error.exit_code())
        }
        Err(_) => {
            err("Reading the stored answers failed unexpectedly; nothing was changed.");
            Err(crate::exit::FAILURE)
        }
    }
}

/// The store, and the readings of every run of `set` for `brands`, up to date: what `track
/// trends` and the report start from; the exit code to end with when either fails.
pub(super) fn open_set_readings(
    config: &crate::config::Config,
    set: &str,
    brands: &[Brand],
) -> Result<(Store, SetReadings), i32> {
    let store = super::track::open_store(config)?;
    let runs = super::track::runs_of(&store, set)?;
    let read = set_readings(&store, set, runs, brands)?;
    Ok((store, read))
}
