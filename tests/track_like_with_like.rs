//! Many answers read like with like, run as a user would against the simulator: three runs of
//! a set, and in the third exactly the cells that name one brand fail. Trends, the Track
//! tab's view, the report and `track check` show the brand unchanged over the cells both
//! runs answered and mark the run incomplete; a `drops_by` alert on it does not fire; then
//! `--retry-failed` fills the run and every figure reads the whole of it.

use std::path::Path;
use std::process::Output;

mod common;

use common::Service;
use vantage::sim::Simulator;

fn track(dir: &Path, sim: &Simulator, args: &[&str]) -> Output {
    common::cli::on_sim(dir, sim, &[&["track"], args].concat())
}

const BRANDS: [&str; 5] = ["Merrell", "Salomon", "Keen", "Lowa", "Hoka"];

fn workspace() -> String {
    let mut text = String::new();
    for brand in BRANDS {
        text.push_str(&format!("[[brands]]\nname = \"{brand}\"\n\n"));
    }
    text.push_str(
        r#"[[sets]]
name = "boots"
prompts = ["best hiking boots", "waterproof hiking boots", "hiking boots for wide feet"]
models = ["chatgpt", "gemini"]
locations = ["us", "de"]
"#,
    );
    text
}

fn alert(brand: &str) -> String {
    format!("\n[[sets.alerts]]\nbrand = \"{brand}\"\nmeasure = \"visibility\"\ndrops_by = 5\n")
}

fn trends_json(dir: &Path, sim: &Simulator) -> serde_json::Value {
    let out = track(dir, sim, &["trends", "boots", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn brand<'a>(trends: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    trends["trends"]["brands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["brand"] == name)
        .unwrap()
}

/// The third run's cells (seq numbers) whose answers name `brand`, read from the store.
fn naming(db: &rusqlite::Connection, run: &str, brand: &str) -> Vec<i64> {
    let mut statement = db
        .prepare(
            "SELECT seq FROM track_reading_brands
             WHERE run_id = ?1 AND brand = ?2 AND position IS NOT NULL ORDER BY seq",
        )
        .unwrap();
    statement
        .query_map(rusqlite::params![run, brand], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn failed_cells_naming_a_brand_move_no_figure_and_retry_failed_fills_the_run() {
    let service = Service::with(common::quick());
    let sim = &service.sim;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), workspace()).unwrap();
    for _ in 0..3 {
        let run = track(dir, sim, &["run", "boots", "--wait"]);
        assert_eq!(run.status.code(), Some(0), "{run:?}");
    }
    let db = rusqlite::Connection::open(dir.join("data").join(vantage::store::DB_FILE)).unwrap();
    let last: String = db
        .query_row(
            "SELECT id FROM track_runs ORDER BY started_at DESC, rowid DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    // The brand named in the fewest cells of the third run, but in some.
    let (name, cells) = BRANDS
        .iter()
        .map(|b| (*b, naming(&db, &last, b)))
        .filter(|(_, seqs)| !seqs.is_empty() && seqs.len() < 12)
        .min_by_key(|(_, seqs)| seqs.len())
        .expect("a brand named in some cells but not all");
    let whole = trends_json(dir, sim);
    let named_whole = brand(&whole, name)["overall"][2]["named"].as_u64().unwrap();
    assert_eq!(named_whole as usize, cells.len());

    // Exactly the cells that name it fail in the third run.
    let seqs: Vec<String> = cells.iter().map(i64::to_string).collect();
    let jobs = format!(
        "SELECT job_id FROM track_items WHERE run_id = '{last}' AND seq IN ({})",
        seqs.join(",")
    );
    db.execute_batch(&format!(
        "UPDATE jobs SET state = 'failed', last_error = 'failed on purpose by the test'
             WHERE id IN ({jobs});
         DELETE FROM job_results WHERE job_id IN ({jobs});
         DELETE FROM track_readings WHERE run_id = '{last}';
         DELETE FROM track_tallies WHERE run_id = '{last}';
         DELETE FROM track_run_counts WHERE run_id = '{last}';"
    ))
    .unwrap();
    let mut file = workspace();
    file.push_str(&alert(name));
    std::fs::write(dir.join("vantage.toml"), file).unwrap();

    // Trends: the brand unchanged over the paired cells, the run marked incomplete.
    let holed = trends_json(dir, sim);
    let change = &brand(&holed, name)["change"];
    assert_eq!(change["lost"], 0, "{change}");
    assert_eq!(change["gained"], 0, "{change}");
    assert_eq!(
        change["before"]["named"], change["after"]["named"],
        "{change}"
    );
    assert_eq!(change["cells"].as_u64().unwrap() as usize, 12 - cells.len());
    assert_eq!(change["different"], false);
    let held = &holed["trends"]["held"][2];
    assert_eq!(held["complete"], false, "{held}");
    assert_eq!(
        held["answered"].as_u64().unwrap() as usize,
        12 - cells.len()
    );
    let text = track(dir, sim, &["trends", "boots"]);
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    assert!(text.contains("incomplete"), "{text}");
    assert!(text.contains("--retry-failed"), "{text}");
    assert!(!text.contains(&format!("{name}: named in")), "{text}");
    assert!(!text.contains("moved clearly"), "{text}");

    // The Track tab's view: the same change, and no alert fired.
    let store =
        vantage::store::Store::open_in(&dir.join("data"), vantage::store::StoreOptions::default())
            .unwrap();
    let view = vantage::track::view::load(&store, Some("boots"), dir, None).unwrap();
    let in_view = view
        .trends
        .brands
        .iter()
        .find(|b| b.brand == name)
        .and_then(|b| b.change)
        .unwrap();
    assert_eq!((in_view.lost, in_view.gained), (0, 0));
    assert!(view.fired.is_empty(), "{:?}", view.fired);
    assert!(!view.trends.complete(2));

    // The report: the run drawn as incomplete, no clear change.
    let report = dir.join("report.html");
    let out = track(
        dir,
        sim,
        &[
            "report",
            "boots",
            "--format",
            "html",
            "-o",
            report.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        html.contains("too few to read alone"),
        "the report marks run #3"
    );
    assert!(!html.contains("moved clearly"));

    // The check: the run is incomplete, so no alert is checked on it alone.
    let check = track(dir, sim, &["check", "boots"]);
    assert_eq!(check.status.code(), Some(7), "{check:?}");
    assert!(check.stdout.is_empty(), "no alert fired: {check:?}");
    assert!(String::from_utf8_lossy(&check.stderr).contains("--retry-failed"));

    // Filling the run: only the missing cells go out, into the same run.
    let dry = track(dir, sim, &["run", "boots", "--retry-failed", "--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{dry:?}");
    let said = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(
        said.contains(&format!(
            "asking its missing calls again makes {} call",
            cells.len()
        )),
        "{said}"
    );
    let filled = track(dir, sim, &["run", "boots", "--retry-failed", "--wait"]);
    assert_eq!(filled.status.code(), Some(0), "{filled:?}");
    assert_eq!(String::from_utf8_lossy(&filled.stdout).trim(), last);
    let runs: i64 = db
        .query_row("SELECT count(*) FROM track_runs", [], |r| r.get(0))
        .unwrap();
    assert_eq!(runs, 3, "no new run was made");
    let after = trends_json(dir, sim);
    assert_eq!(after["trends"]["held"][2]["complete"], true);
    let change = &brand(&after, name)["change"];
    assert_eq!(change["cells"], 12);
    assert_eq!(change["after"]["named"].as_u64().unwrap(), named_whole);
    assert_eq!(change["before"]["named"], change["after"]["named"]);
    let check = track(dir, sim, &["check", "boots"]);
    assert_eq!(check.status.code(), Some(0), "{check:?}");
    assert!(
        check.stdout.is_empty(),
        "the drop alert does not fire: {check:?}"
    );
}
