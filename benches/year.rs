//! Part 21: what a user waits for over a year of tracking, on generated stores of 10k and
//! 100k answers (and 500k with `VANTAGE_BENCH_YEAR=500k`, or `all`; the first build of it
//! takes several minutes), built once into `target/year-stores/` (`benches/common/year`).
//! Each bench is the work of a command or a view on a store whose runs were viewed once:
//! `track trends`, `track check`, `track list`, the HTML report, the Track tab's first look
//! and its whole view (which is what it first draws when every reading is kept), History's
//! first page and its search, and `brands discover`.
//!
//! `VANTAGE_BENCH_YEAR_BUILD_ONLY=1` builds the stores asked for, prints where they are and
//! how to point `vantage` at them, and stops; `benches/common/year/measure.py` then times the
//! release binary and the app on them (wall, peak memory, the app's tabs in tmux). Run outside `cargo bench` (as `cargo test
//! --benches` does) it does nothing unless `VANTAGE_BENCH_YEAR` asks for stores.

// A benchmark builds its own data: a panic is the right answer to a broken one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/year/mod.rs"]
mod year;

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use criterion::Criterion;

use vantage::analysis::mentions::Brand;
use vantage::analysis::workspace::{TrackSet, Workspace};
use vantage::store::Store;
use vantage::track::stored::{READING_RULES, SetReadings, bring_up_to_date};
use vantage::track::{alerts, paired, readings, report, report_page, trends, view};

use year::{SET, YearStore};

/// The set's readings as every command reads them: brought up to date (nothing to read on
/// these stores), then the kept tallies.
fn up_to_date(
    store: &Store,
    runs: Vec<vantage::store::RunSummary>,
    brands: &[Brand],
) -> SetReadings {
    let never = AtomicBool::new(false);
    bring_up_to_date(store, SET, runs, brands, READING_RULES, &mut |_| {}, &never)
        .unwrap()
        .expect("never stopped")
}

/// `track trends SET`: the trends of every run, the last run's changes and its sources by
/// kind and the own brand's gaps.
fn trends_of(store: &Store, workspace: &Workspace, brands: &[Brand]) -> usize {
    let read = up_to_date(store, store.track_runs(Some(SET)).unwrap(), brands);
    let names = read.names.clone();
    let (before, after) = read.last_two(store, brands).unwrap();
    // The last run against the one before over the cells both answered, as the CLI reads it.
    let compared = paired::compare(before.as_ref().unwrap(), after.as_ref().unwrap(), &names);
    let trends = trends::trends_of(read.labels(), &read.tallies, &names).with_compared(&compared);
    let changes = compared.diff;
    let last = readings::readings(
        after.as_ref().unwrap(),
        brands,
        workspace.own(),
        &workspace.classifier(),
    );
    black_box((&changes, &last));
    trends.runs.len()
}

/// `track check SET`: the alerts on the newest ended run against the one before.
fn check(store: &Store, workspace: &Workspace, set: &TrackSet) -> usize {
    let runs = store.track_runs(Some(SET)).unwrap();
    let at = runs.iter().rposition(|r| r.is_finished()).unwrap();
    let run = runs[at].clone();
    let brands = workspace.brands_of(set);
    let read = up_to_date(store, runs[at.saturating_sub(1)..=at].to_vec(), &brands);
    let [_, now] = read.tallies.as_slice() else {
        panic!("two runs")
    };
    // A drop is read over the cells both runs answered, as `track check` reads it.
    let (before, after) = read.last_two(store, &brands).unwrap();
    let compared = paired::compare(
        before.as_ref().unwrap(),
        after.as_ref().unwrap(),
        &read.names,
    );
    let fired = alerts::evaluate(
        &set.name,
        &set.alerts,
        run.id.as_str(),
        now,
        Some((&compared.before, &compared.after)),
        workspace.brands(),
    );
    fired.len()
}

/// `track report SET --format html`: gathered and written as one page.
fn report_html(store: &Store, set: &TrackSet, brands: &[Brand]) -> usize {
    let read = up_to_date(store, store.track_runs(Some(SET)).unwrap(), brands);
    let input = report::gather(store, SET, Some(set), brands, &read, None, 0).unwrap();
    report_page::html(&input).len()
}

/// History's first screen: its first page and how many entries there are.
fn history_first_page(store: &Store) -> usize {
    let page = store.history(200, 0).unwrap();
    page.len() + store.history_len().unwrap()
}

/// `history search`, as History's search field reads it: the first page and the count.
fn history_search(store: &Store) -> usize {
    let page = store.search_history("Lowa Renegade", None, 200, 0).unwrap();
    page.len() + store.search_history_len("Lowa Renegade", None).unwrap()
}

/// `brands discover`: the names every stored answer puts forward, untracked: each answer's
/// names brought up to date (nothing to read on these stores), then the kept totals.
fn discover(store: &Store, tracked: &[Brand]) -> usize {
    let never = AtomicBool::new(false);
    vantage::discovery::bring_up_to_date(store, i64::MIN, READING_RULES, &mut |_| {}, &never)
        .unwrap();
    vantage::discovery::untracked(store, None, tracked)
        .unwrap()
        .0
        .len()
}

fn bench_store(c: &mut Criterion, year: &YearStore) {
    let store = year.open();
    let workspace = year.workspace();
    let set = workspace.set(SET).unwrap().clone();
    let brands = workspace.read_for(SET);
    // Once each, so a run of the bench says the times beside the medians.
    let once = |name: &str, work: &dyn Fn() -> usize| {
        let start = Instant::now();
        let n = work();
        println!(
            "year {} {name}: {:.3} s once ({n})",
            year.size.name,
            start.elapsed().as_secs_f64()
        );
    };
    once("track trends", &|| trends_of(&store, &workspace, &brands));
    once("track check", &|| check(&store, &workspace, &set));
    once("track list", &|| store.track_runs(None).unwrap().len());
    once("report html", &|| report_html(&store, &set, &brands));
    once("track tab first look", &|| {
        view::first_look(&store, None, &year.folder, None)
            .unwrap()
            .0
            .runs
            .len()
    });
    once("track tab whole view", &|| {
        view::load(&store, None, &year.folder, None)
            .unwrap()
            .runs
            .len()
    });
    once("history first page", &|| history_first_page(&store));
    once("history search", &|| history_search(&store));
    once("brands discover", &|| discover(&store, workspace.brands()));

    let mut group = c.benchmark_group(format!("year_{}", year.size.name));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("track_trends", |b| {
        b.iter(|| trends_of(&store, &workspace, &brands))
    });
    group.bench_function("track_check", |b| {
        b.iter(|| check(&store, &workspace, &set))
    });
    group.bench_function("track_list", |b| {
        b.iter(|| store.track_runs(None).unwrap().len())
    });
    group.bench_function("report_html", |b| {
        b.iter(|| report_html(&store, &set, &brands))
    });
    group.bench_function("track_tab_first_look", |b| {
        b.iter(|| view::first_look(&store, None, &year.folder, None).unwrap())
    });
    // On a store whose readings are all kept, the tab shows nothing before this is done.
    group.bench_function("track_tab_whole_view", |b| {
        b.iter(|| view::load(&store, None, &year.folder, None).unwrap())
    });
    group.bench_function("history_first_page", |b| {
        b.iter(|| history_first_page(&store))
    });
    group.bench_function("history_search", |b| b.iter(|| history_search(&store)));
    group.bench_function("brands_discover", |b| {
        b.iter(|| discover(&store, workspace.brands()))
    });
    group.finish();
}

fn main() {
    // `cargo bench` passes --bench; anything else (cargo test --benches) builds nothing
    // unless a size is asked for.
    let benching = std::env::args().any(|a| a == "--bench");
    if !benching && std::env::var_os("VANTAGE_BENCH_YEAR").is_none() {
        println!("year: set VANTAGE_BENCH_YEAR (10k,100k,500k) to build and time year stores");
        return;
    }
    let stores: Vec<YearStore> = year::sizes_asked()
        .into_iter()
        .map(|size| {
            let built = year::year_store(size);
            let db = std::fs::metadata(built.db()).map_or(0, |m| m.len());
            let how = built
                .built_in
                .map_or("kept from before".to_string(), |took| {
                    format!("built in {:.1} s", took.as_secs_f64())
                });
            println!(
                "year {}: {} answers over {} runs, {} MB, {how}",
                size.name,
                built.answers(),
                size.runs,
                db / 1_000_000
            );
            println!(
                "  cd {} && VANTAGE_DATA_DIR={} VANTAGE_CONFIG={} vantage track trends {SET}",
                built.folder.display(),
                built.data_dir.display(),
                built.config.display()
            );
            built
        })
        .collect();
    if std::env::var_os("VANTAGE_BENCH_YEAR_BUILD_ONLY").is_some() {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    for store in &stores {
        bench_store(&mut c, store);
    }
    c.final_summary();
}
