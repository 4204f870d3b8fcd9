//! Year-sized stores for the benchmarks (part 21): one set of 25 prompts × 4 models × 5
//! places (500 answers a run) over 20, 200 or 1,000 runs — 10k, 100k and 500k answers —
//! built once into `target/year-stores/` and kept there, never committed.
//!
//! A store is what a user has after a year of runs that were viewed once: every call with
//! its queued job, its result, its History entry (origin `track`, in the full-text index
//! through the store's own triggers) and its stored reading; every ended run's tally and
//! kept counts. The store is opened once with [`Store::open`] so the migrations make the
//! schema, then filled directly with rusqlite (a transaction per ten runs, no syncs), and
//! brought up to date once with [`bring_up_to_date`], which makes the tallies and counts.
//!
//! The answers come from a pool of [`answers::VARIANTS`] completions a model, each read
//! once per prompt with [`read_item`]; a call's reading is that reading with the call's
//! model, place and prompt. The first run's readings are checked against reading each of
//! its answers, so the pool's shortcut cannot drift from what `track` stores. The names
//! each answer puts forward are kept as discovery keeps them, read once per body. The build is
//! deterministic: the same rows in the same order every time.
#![allow(dead_code)]

pub mod answers;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{Connection, params};

use vantage::analysis::mentions::Brand;
use vantage::analysis::workspace::Workspace;
use vantage::jobs::JobState;
use vantage::present::answer::prepare_stored;
use vantage::present::discover::{NameInAnswer, names_in};
use vantage::store::readings::StoredReading;
use vantage::store::{DB_FILE, Origin, RequestParams, RunItem, Store, StoreOptions};
use vantage::track::plan::expand;
use vantage::track::stored::{READING_RULES, brand_list, bring_up_to_date, read_item};

use answers::{BRANDS, MODELS, VARIANTS, mix};

/// The set every store holds.
pub const SET: &str = "boots";

/// Answers a run: 25 prompts × 4 models × 5 places.
pub const PER_RUN: usize = 500;

/// Bumped whenever the rows a store holds change, so an older build is not reused.
const GENERATOR: &str = "v2";

/// The first run starts on 2025-01-06 06:00 UTC; runs follow every 8 h 45 min 36 s, so a
/// thousand of them span a year.
const FIRST_RUN: i64 = 1_736_143_200_000;
const EVERY: i64 = 31_536_000;

/// Runs written per transaction.
const RUNS_PER_COMMIT: usize = 10;

#[derive(Clone, Copy, Debug)]
pub struct Size {
    pub name: &'static str,
    pub runs: usize,
}

pub const SIZES: [Size; 3] = [
    Size {
        name: "10k",
        runs: 20,
    },
    Size {
        name: "100k",
        runs: 200,
    },
    Size {
        name: "500k",
        runs: 1_000,
    },
];

/// A built store: the folder with its `vantage.toml`, its data folder and config file.
#[derive(Clone, Debug)]
pub struct YearStore {
    pub size: Size,
    /// Holds `vantage.toml`: the folder to run `vantage` from.
    pub folder: PathBuf,
    /// `VANTAGE_DATA_DIR`.
    pub data_dir: PathBuf,
    /// `VANTAGE_CONFIG`: keeps every History entry (the default keeps 5,000).
    pub config: PathBuf,
    /// How long the build took, when this call built it.
    pub built_in: Option<Duration>,
}

impl YearStore {
    pub fn db(&self) -> PathBuf {
        self.data_dir.join(DB_FILE)
    }

    pub fn answers(&self) -> usize {
        self.size.runs * PER_RUN
    }

    /// The store as the CLI opens it, keeping every History entry.
    pub fn open(&self) -> Store {
        Store::open(&self.db(), options()).expect("the year store opens")
    }

    pub fn workspace(&self) -> Workspace {
        Workspace::load(&self.folder.join("vantage.toml")).expect("the workspace reads")
    }
}

fn options() -> StoreOptions {
    StoreOptions {
        history_max_entries: usize::MAX,
        origin: Origin::App,
    }
}

/// `target/year-stores/<generator>/`.
pub fn root() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("year-stores").join(GENERATOR)
}

/// The sizes named by `VANTAGE_BENCH_YEAR` (a comma list: `10k,100k,500k`, or `all`);
/// 10k and 100k when unset.
pub fn sizes_asked() -> Vec<Size> {
    let asked = std::env::var("VANTAGE_BENCH_YEAR").unwrap_or_else(|_| "10k,100k".into());
    SIZES
        .into_iter()
        .filter(|s| asked == "all" || asked.split(',').any(|a| a.trim() == s.name))
        .collect()
}

/// The store of `size`, built first if it is not in `target/year-stores/` yet.
pub fn year_store(size: Size) -> YearStore {
    let folder = root().join(size.name);
    let at = |folder: PathBuf, built_in| YearStore {
        size,
        data_dir: folder.join("data"),
        config: folder.join("config.toml"),
        folder,
        built_in,
    };
    if folder.join("built").is_file() {
        return at(folder, None);
    }
    // Built aside and moved in whole: a build cut short is started again, not reused.
    let building = root().join(format!("{}.building", size.name));
    let _ = std::fs::remove_dir_all(&building);
    let _ = std::fs::remove_dir_all(&folder);
    let start = Instant::now();
    build(&at(building.clone(), None));
    let took = start.elapsed();
    std::fs::write(
        building.join("built"),
        format!(
            "{} answers over {} runs, built in {:.1} s\n",
            size.runs * PER_RUN,
            size.runs,
            took.as_secs_f64()
        ),
    )
    .unwrap();
    std::fs::rename(&building, &folder).unwrap();
    at(folder, Some(took))
}

const PROMPTS: [&str; 25] = [
    "best hiking boots",
    "best waterproof hiking boots",
    "best hiking boots for wide feet",
    "best lightweight hiking boots",
    "best hiking boots for beginners",
    "best hiking boots for women",
    "best hiking boots for men",
    "best budget hiking boots",
    "best hiking boots for ankle support",
    "best hiking boots for backpacking",
    "best winter hiking boots",
    "best hiking boots for flat feet",
    "best hiking boots for plantar fasciitis",
    "most durable hiking boots",
    "most comfortable hiking boots",
    "best vegan hiking boots",
    "best hiking boots for hot weather",
    "best hiking boots for rocky terrain",
    "best hiking boots for the Alps",
    "best hiking boots under 150 dollars",
    "best leather hiking boots",
    "best mid cut hiking boots",
    "best hiking boots for a thru hike",
    "best hiking boots for kids",
    "best hiking boots for travel",
];

const PLACES: [&str; 5] = [
    "us:co:Denver",
    "de::Berlin",
    "gb::London",
    "fr::Lyon",
    "jp::Tokyo",
];

/// The workspace file: the twelve brands (Lowa the own one), the set, two alerts.
pub fn workspace_text() -> String {
    let list = |items: &[&str]| {
        items
            .iter()
            .map(|i| format!("{i:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut text = String::from(
        "# A year of tracking, generated by benches/common/year for the benchmarks.\n\n",
    );
    for (i, (name, domain, _)) in BRANDS.iter().enumerate() {
        text.push_str(&format!("[[brands]]\nname = {name:?}\n"));
        if i == 0 {
            text.push_str("own = true\n");
        }
        text.push_str(&format!("domains = [{domain:?}]\n\n"));
    }
    text.push_str(&format!(
        "[[sets]]\nname = {SET:?}\nprompts = [{}]\nmodels = [{}]\nlocations = [{}]\n\n",
        list(&PROMPTS),
        list(&MODELS),
        list(&PLACES)
    ));
    text.push_str(
        "[[sets.alerts]]\nbrand = \"Lowa\"\nmeasure = \"visibility\"\nbelow = 30\n\n\
         [[sets.alerts]]\nbrand = \"Merrell\"\nmeasure = \"share_of_voice\"\ndrops_by = 5\n",
    );
    text
}

/// A deterministic UUID: the `n`th of kind `tag`.
fn uuid(tag: u64, n: u64) -> String {
    let high = u128::from(mix((tag << 48) ^ n));
    let low = u128::from(mix(mix(tag) ^ n));
    uuid::Uuid::from_u128((high << 64) | low)
        .hyphenated()
        .to_string()
}

/// One call of the plan, as the store writes it.
struct Call {
    request: RequestParams,
    json: String,
    summary: String,
    prompt: usize,
    model: usize,
}

/// What every call of a store is read from: the answers by model variant and prompt,
/// each read once.
struct Pool {
    /// `[variant body][prompt]`: the answer with the prompt written in.
    bodies: Vec<Vec<String>>,
    /// Its reading (kind, detail, brands), read once.
    readings: Vec<Vec<StoredReading>>,
    /// Per call number: the model, place, prompt and device its readings carry.
    calls: Vec<StoredReading>,
    /// `[variant body][prompt]`: the names the answer puts forward, read once, as
    /// discovery keeps them.
    names: Vec<Vec<Vec<NameInAnswer>>>,
}

fn item(seq: u32, request: &RequestParams, body: &str) -> RunItem {
    RunItem {
        seq,
        request: request.clone(),
        job_id: None,
        state: Some(JobState::Done),
        sends: 1,
        refused: None,
        body: Some(body.to_string()),
    }
}

fn read(seq: u32, request: &RequestParams, body: &str, brands: &[Brand]) -> StoredReading {
    read_item(&item(seq, request, body), brands).expect("an answered call has a reading")
}

/// Runs `work` over `0..n` on every core, in order.
fn parallel<T: Send>(n: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = n.div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|start| {
                let work = &work;
                scope.spawn(move || {
                    (start..(start + chunk).min(n))
                        .map(work)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a reading thread ends"))
            .collect()
    })
}

impl Pool {
    fn new(calls: &[Call], brands: &[Brand]) -> Pool {
        let templates: Vec<String> = (0..MODELS.len() * VARIANTS)
            .map(|b| answers::template(MODELS[b / VARIANTS], b % VARIANTS))
            .collect();
        let bodies: Vec<Vec<String>> = templates
            .iter()
            .map(|t| PROMPTS.iter().map(|p| answers::answer(t, p)).collect())
            .collect();
        // A call of each model and prompt, to read the pool's answers as that call.
        let mut asked: HashMap<(usize, usize), usize> = HashMap::new();
        for (seq, call) in calls.iter().enumerate() {
            asked.entry((call.model, call.prompt)).or_insert(seq);
        }
        let cells = bodies.len() * PROMPTS.len();
        let flat = parallel(cells, |i| {
            let (b, p) = (i / PROMPTS.len(), i % PROMPTS.len());
            let seq = asked[&(b / VARIANTS, p)];
            read(seq as u32, &calls[seq].request, &bodies[b][p], brands)
        });
        let readings = flat.chunks(PROMPTS.len()).map(<[_]>::to_vec).collect();
        let flat_names = parallel(cells, |i| {
            let (b, p) = (i / PROMPTS.len(), i % PROMPTS.len());
            let RequestParams::Ai(request) = &calls[asked[&(b / VARIANTS, p)]].request else {
                unreachable!("the set asks chatbots only")
            };
            prepare_stored(request.clone(), &bodies[b][p])
                .map(|answer| names_in(&answer))
                .unwrap_or_default()
        });
        let names = flat_names
            .chunks(PROMPTS.len())
            .map(<[_]>::to_vec)
            .collect();
        let metadata = parallel(calls.len(), |seq| {
            let call = &calls[seq];
            let body = &bodies[call.model * VARIANTS][call.prompt];
            read(seq as u32, &call.request, body, brands)
        });
        Pool {
            bodies,
            readings,
            calls: metadata,
            names,
        }
    }

    /// The answer body of call `seq` in run `run`: its model's variant of the day. The mix
    /// drifts over the year, so trends move.
    fn variant(&self, calls: &[Call], run: usize, seq: usize) -> usize {
        let drift = run / 111;
        let pick = (mix((run * PER_RUN + seq) as u64) % 9) as usize;
        calls[seq].model * VARIANTS + (pick + drift) % VARIANTS
    }

    fn reading(&self, calls: &[Call], body: usize, seq: usize) -> StoredReading {
        let of_body = &self.readings[body][calls[seq].prompt];
        let of_call = &self.calls[seq];
        StoredReading {
            seq: seq as u32,
            kind: of_body.kind.clone(),
            model: of_call.model.clone(),
            place: of_call.place.clone(),
            query: of_call.query.clone(),
            device: of_call.device.clone(),
            detail: of_body.detail.clone(),
            brands: of_body.brands.clone(),
        }
    }
}

fn build(store: &YearStore) {
    std::fs::create_dir_all(&store.data_dir).unwrap();
    std::fs::write(store.folder.join("vantage.toml"), workspace_text()).unwrap();
    std::fs::write(&store.config, "history_max_entries = 10000000\n").unwrap();
    let workspace = store.workspace();
    let set = workspace.set(SET).expect("the set is in the file").clone();
    let brands = workspace.read_for(SET);
    let calls: Vec<Call> = expand(&set)
        .expect("the set expands")
        .into_iter()
        .map(|request| {
            let RequestParams::Ai(ai) = &request else {
                panic!("the set asks chatbots only")
            };
            let model = ai.model.map_or("chatgpt", |m| m.as_str());
            Call {
                json: request.to_json(),
                summary: request.summary(),
                prompt: PROMPTS.iter().position(|p| *p == ai.prompt).unwrap(),
                model: MODELS.iter().position(|m| *m == model).unwrap(),
                request,
            }
        })
        .collect();
    assert_eq!(calls.len(), PER_RUN);
    let started = Instant::now();
    let pool = Pool::new(&calls, &brands);
    eprintln!(
        "year store {}: {} answers read for the pool in {:.1} s",
        store.size.name,
        pool.bodies.len() * PROMPTS.len() + PER_RUN,
        started.elapsed().as_secs_f64()
    );
    // The pool's readings are the readings of the answers themselves.
    for seq in 0..PER_RUN {
        let body = pool.variant(&calls, 0, seq);
        let direct = read(
            seq as u32,
            &calls[seq].request,
            &pool.bodies[body][calls[seq].prompt],
            &brands,
        );
        assert_eq!(pool.reading(&calls, body, seq), direct, "call {seq}");
    }
    // Opened once so the migrations make the schema, then filled directly.
    drop(Store::open(&store.db(), options()).unwrap());
    let mut conn = Connection::open(store.db()).unwrap();
    conn.execute_batch(
        "PRAGMA synchronous = OFF; PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY;",
    )
    .unwrap();
    let list = brand_list(&brands);
    conn.execute(
        "INSERT INTO track_reading_lists (brands) VALUES (?1)",
        [&list],
    )
    .unwrap();
    let list_id = conn.last_insert_rowid();
    let started = Instant::now();
    for first in (0..store.size.runs).step_by(RUNS_PER_COMMIT) {
        let tx = conn.transaction().unwrap();
        for run in first..(first + RUNS_PER_COMMIT).min(store.size.runs) {
            write_run(&tx, &calls, &pool, list_id, run);
        }
        tx.commit().unwrap();
    }
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    drop(conn);
    eprintln!(
        "year store {}: {} runs written in {:.1} s",
        store.size.name,
        store.size.runs,
        started.elapsed().as_secs_f64()
    );
    // What a store has once its runs were viewed: each run's tally and kept counts.
    let started = Instant::now();
    let opened = Store::open(&store.db(), options()).unwrap();
    let runs = opened.track_runs(Some(SET)).unwrap();
    assert_eq!(runs.len(), store.size.runs);
    let never = std::sync::atomic::AtomicBool::new(false);
    let read = bring_up_to_date(
        &opened,
        SET,
        runs,
        &brands,
        READING_RULES,
        &mut |_| {},
        &never,
    )
    .unwrap()
    .expect("not stopped");
    assert_eq!(read.read_in_memory(), 0);
    let kept = vantage::track::stored::kept(
        &opened,
        SET,
        opened.track_runs(Some(SET)).unwrap(),
        &brands,
        READING_RULES,
    )
    .unwrap();
    assert_eq!(kept.stale, 0, "every run's tally is kept");
    drop(opened);
    eprintln!(
        "year store {}: tallies and counts kept in {:.1} s",
        store.size.name,
        started.elapsed().as_secs_f64()
    );
}

/// One run: its row, and per call its History entry and answer, its job, events and
/// result, its row in the run and its reading.
fn write_run(tx: &Connection, calls: &[Call], pool: &Pool, list: i64, run: usize) {
    let run_id = uuid(1, run as u64);
    let started_at = FIRST_RUN + run as i64 * EVERY;
    tx.execute(
        "INSERT INTO track_runs (id, set_name, started_at, planned) VALUES (?1, ?2, ?3, ?4)",
        params![run_id, SET, started_at, PER_RUN as i64],
    )
    .unwrap();
    let mut request = tx
        .prepare_cached(
            "INSERT INTO requests (id, kind, params, summary, created_at, origin)
             VALUES (?1, 'ai', ?2, ?3, ?4, 'track')",
        )
        .unwrap();
    let mut response = tx
        .prepare_cached(
            "INSERT INTO responses (request_id, status, body, elapsed_ms, size, received_at)
             VALUES (?1, 200, ?2, ?3, ?4, ?5)",
        )
        .unwrap();
    let mut job = tx
        .prepare_cached(
            "INSERT INTO jobs (id, kind, request, summary, state, known, created_at,
                               last_poll_at, next_poll_at, attempts, result_size, last_error,
                               entry_id)
             VALUES (?1, 'ai', ?2, ?3, 'done', 1, ?4, ?5, ?5, 3, ?6, NULL, ?7)",
        )
        .unwrap();
    let mut event = tx
        .prepare_cached(
            "INSERT INTO job_events (job_id, from_state, to_state, at, note)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .unwrap();
    let mut result = tx
        .prepare_cached(
            "INSERT INTO job_results (job_id, status, body, elapsed_ms, received_at)
             VALUES (?1, 200, ?2, ?3, ?4)",
        )
        .unwrap();
    let mut item = tx
        .prepare_cached(
            "INSERT INTO track_items (run_id, seq, kind, request, job_id, sends)
             VALUES (?1, ?2, 'ai', ?3, ?4, 1)",
        )
        .unwrap();
    let mut reading = tx
        .prepare_cached(
            "INSERT INTO track_readings
                 (run_id, seq, list, version, kind, model, place, query, device, detail)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )
        .unwrap();
    let mut read_names = tx
        .prepare_cached(
            "INSERT INTO answer_reads (entry_id, col, version, at) VALUES (?1, 0, ?2, ?3)",
        )
        .unwrap();
    // Each name through the store's trigger, which keeps the totals discovery reads.
    let mut name = tx
        .prepare_cached(
            "INSERT INTO answer_names
                 (entry_id, col, name, version, model, place, at, products, recommended,
                  sentence)
             VALUES (?1, 0, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )
        .unwrap();
    let mut brand = tx
        .prepare_cached(
            "INSERT INTO track_reading_brands
                 (run_id, seq, brand, position, count, stance, cited, rank)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )
        .unwrap();
    for (seq, call) in calls.iter().enumerate() {
        let n = (run * PER_RUN + seq) as u64;
        let (entry, job_id) = (uuid(2, n), uuid(3, n));
        let sent = started_at + seq as i64 * 120;
        let queued = sent + 400;
        let received = sent + 30_000 + (mix(n) % 40_000) as i64;
        let elapsed = received - sent;
        let body_at = pool.variant(calls, run, seq);
        let body = &pool.bodies[body_at][call.prompt];
        let size = body.len() as i64;
        request
            .execute(params![entry, call.json, call.summary, sent])
            .unwrap();
        job.execute(params![
            job_id,
            call.json,
            call.summary,
            queued,
            received,
            size,
            entry
        ])
        .unwrap();
        event
            .execute(params![
                job_id,
                None::<&str>,
                "pending",
                queued,
                Some("submitted")
            ])
            .unwrap();
        item.execute(params![run_id, seq as i64, call.json, job_id])
            .unwrap();
        result
            .execute(params![job_id, body, elapsed, received])
            .unwrap();
        event
            .execute(params![
                job_id,
                Some("pending"),
                "done",
                received,
                None::<&str>
            ])
            .unwrap();
        response
            .execute(params![entry, body, elapsed, size, received])
            .unwrap();
        read_names
            .execute(params![entry, READING_RULES, sent])
            .unwrap();
        let of_call = &pool.calls[seq];
        for n in &pool.names[body_at][call.prompt] {
            name.execute(params![
                entry,
                n.name,
                READING_RULES,
                of_call.model,
                of_call.place,
                sent,
                serde_json::to_string(&n.products).unwrap(),
                n.recommended,
                n.sentence
            ])
            .unwrap();
        }
        let r = pool.reading(calls, body_at, seq);
        reading
            .execute(params![
                run_id,
                seq as i64,
                list,
                READING_RULES,
                r.kind,
                r.model,
                r.place,
                r.query,
                r.device,
                r.detail
            ])
            .unwrap();
        for b in &r.brands {
            brand
                .execute(params![
                    run_id, seq as i64, b.brand, b.position, b.count, b.stance, b.cited, b.rank
                ])
                .unwrap();
        }
    }
}
