//! A set's answers read once and kept (part 21): a reading made by other rules, or for other
//! brands, is made again, in batches, and trends read from the kept readings give the same
//! numbers as a fresh store read from the same answers — and as the answers read whole.

use std::sync::atomic::AtomicBool;

use vantage::analysis::mentions::Brand;
use vantage::api::{AiRequest, JobId, JobKind, Location, Model};
use vantage::jobs::{JobState, Transition};
use vantage::store::{
    Body, EntryId, NewJob, NewRun, RequestParams, RunId, Store, StoreOptions, TrackWrite,
};
use vantage::track::observe::observe_run;
use vantage::track::stored::{self, Progress, SetReadings};
use vantage::track::trends::{self, Trends};

const SET: &str = "coding";

/// Real answers of the live service.
fn bodies() -> Vec<String> {
    ["ai-chatgpt-sample", "ai-copilot-sample", "ai-gemini-sample"]
        .iter()
        .map(|name| {
            std::fs::read_to_string(format!("tests/fixtures/live/{name}.json")).expect("fixture")
        })
        .collect()
}

fn brands() -> Vec<Brand> {
    ["Cursor", "Windsurf", "Claude", "Tabnine", "Replit"]
        .iter()
        .map(|name| Brand::named(name))
        .collect()
}

fn request(model: Model, country: &str) -> RequestParams {
    let mut request = AiRequest::new("best ai coding tools");
    request.model = Some(model);
    request.location = Location {
        country: Some(country.to_string()),
        ..Location::default()
    };
    RequestParams::Ai(request)
}

/// Runs of the set, each asking three models at two places; answered by the real answers,
/// but one call of each run that failed. Ids are made from `seed` so two stores hold the
/// same answers.
fn fill(store: &Store, seed: u32) {
    let bodies = bodies();
    let models = [Model::Chatgpt, Model::Copilot, Model::Gemini];
    for run in 0..3u32 {
        let calls: Vec<RequestParams> = ["US", "DE"]
            .iter()
            .flat_map(|country| models.iter().map(|m| request(*m, country)))
            .collect();
        let id = RunId(format!("00000000-0000-4000-8000-{:04}{run:08}", seed));
        store
            .track(TrackWrite::Plan(NewRun {
                id: id.clone(),
                set_name: SET.to_string(),
                started_at: 1_790_000_000_000 + i64::from(run) * 86_400_000,
                calls: calls.clone(),
            }))
            .wait()
            .unwrap();
        for (seq, call) in calls.into_iter().enumerate() {
            let job = JobId::parse(&format!(
                "00000000-0000-4000-9000-{:04}{run:04}{seq:04}",
                seed
            ))
            .unwrap();
            let seq = seq as u32;
            store
                .track(TrackWrite::Submitted {
                    run: id.clone(),
                    seq,
                    job: Box::new(NewJob::submitted(job.clone(), call)),
                })
                .wait()
                .unwrap();
            // The brands move from run to run: the answers differ by run and place.
            let failed = (seq + run) % 6 == 5;
            let transition = Transition {
                id: job,
                kind: JobKind::Ai,
                from: JobState::Pending,
                to: if failed {
                    JobState::Failed
                } else {
                    JobState::Done
                },
                attempts: 1,
                polled_at: 1_790_000_000_000,
                next_poll_at: None,
                known: true,
                error: None,
                parked: false,
            };
            let body = (!failed).then(|| Body {
                status: 200,
                text: bodies[(seq as usize + run as usize) % bodies.len()].clone(),
                elapsed_ms: 1,
                received_at: 1_790_000_000_000,
            });
            store.update_job(transition, body).wait().unwrap();
        }
    }
}

fn bring(store: &Store, brands: &[Brand], version: u32) -> (SetReadings, Progress) {
    let runs = store.track_runs(Some(SET)).unwrap();
    let mut last = Progress::default();
    let never = AtomicBool::new(false);
    let read =
        stored::bring_up_to_date(store, SET, runs, brands, version, &mut |p| last = p, &never)
            .unwrap()
            .expect("not stopped");
    (read, last)
}

fn trends_of(read: &SetReadings) -> Trends {
    trends::trends_of(read.labels(), &read.tallies, &read.names)
}

/// The trends of the answers read whole, as before readings were kept: each run's figures.
fn read_whole(store: &Store, brands: &[Brand]) -> Trends {
    let names: Vec<String> = brands.iter().map(|b| b.name.clone()).collect();
    let runs = store.track_runs(Some(SET)).unwrap();
    let observed: Vec<_> = runs
        .iter()
        .map(|r| {
            let items = store.track_items(&r.id).unwrap();
            observe_run(
                vantage::track::report::timestamp(r.started_at),
                &items,
                brands,
            )
        })
        .collect();
    // The runs' figures as their tallies give them; the last two runs' paired changes are
    // read from the answers (`paired::compare`) and tested apart.
    let tallies: Vec<vantage::track::tally::RunTally> = observed
        .iter()
        .map(|o| vantage::track::tally::RunTally::of(o, &names))
        .collect();
    let labels = observed.iter().map(|o| o.label.clone()).collect();
    trends::trends_of(labels, &tallies, &names)
}

fn open(dir: &tempfile::TempDir) -> Store {
    Store::open_in(dir.path(), StoreOptions::default()).unwrap()
}

#[test]
fn a_new_reading_version_reads_every_answer_again_and_trends_match_a_fresh_store() {
    let first = tempfile::tempdir().unwrap();
    let store = open(&first);
    fill(&store, 1);
    let brands = brands();
    let answered = 15; // 3 runs × 6 calls, 3 failed

    let (read, progress) = bring(&store, &brands, 1);
    assert_eq!(
        progress,
        Progress {
            read: answered,
            total: answered
        }
    );
    let by_version_1 = trends_of(&read);
    assert_eq!(by_version_1, read_whole(&store, &brands));
    assert!(
        by_version_1
            .brands
            .iter()
            .any(|b| b.overall.iter().any(|s| s.named > 0)),
        "the real answers name some of the brands: {by_version_1:?}"
    );

    // Read again by the same rules: nothing is read, the tallies are kept.
    let (again, progress) = bring(&store, &brands, 1);
    assert_eq!(progress, Progress::default());
    assert_eq!(trends_of(&again), by_version_1);

    // The rules move: every answer is read again, and none is left by the old rules.
    let (moved, progress) = bring(&store, &brands, 2);
    assert_eq!(
        progress,
        Progress {
            read: answered,
            total: answered
        }
    );
    for run in &moved.runs {
        let list = store
            .reading_list(&stored::brand_list(&brands))
            .unwrap()
            .unwrap();
        assert!(store.track_readings(&run.id, list, 1).unwrap().is_empty());
        assert_eq!(store.track_unread_count(&run.id, Some(list), 2).unwrap(), 0);
    }
    let by_version_2 = trends_of(&moved);

    // A fresh store of the same answers, read by the new rules, reads the same numbers.
    let second = tempfile::tempdir().unwrap();
    let fresh = open(&second);
    fill(&fresh, 1);
    let (fresh_read, _) = bring(&fresh, &brands, 2);
    assert_eq!(trends_of(&fresh_read), by_version_2);
    assert_eq!(by_version_2, read_whole(&store, &brands));
}

#[test]
fn other_brands_read_every_answer_again_and_a_kept_view_says_what_is_stale() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    fill(&store, 2);
    let brands = brands();
    bring(&store, &brands, 1);

    let mut more = brands.clone();
    more.push(Brand::named("GitHub Copilot"));
    let runs = store.track_runs(Some(SET)).unwrap();
    // What a view shows at once: the tallies as kept, every run said to be stale.
    let kept = stored::kept(&store, SET, runs.clone(), &more, 1).unwrap();
    assert_eq!(kept.stale, runs.len());
    let (read, progress) = bring(&store, &more, 1);
    assert_eq!(progress.read, 15);
    assert_eq!(trends_of(&read), read_whole(&store, &more));
    let kept = stored::kept(&store, SET, runs, &more, 1).unwrap();
    assert_eq!(kept.stale, 0);
    // The order brands are listed in does not make another list.
    let mut reversed = more.clone();
    reversed.reverse();
    assert_eq!(bring(&store, &reversed, 1).1, Progress::default());
}

#[test]
fn a_reading_stops_between_batches_when_asked_and_goes_on_from_there() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    fill(&store, 3);
    let brands = brands();
    let runs = store.track_runs(Some(SET)).unwrap();
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    let stopped = stored::bring_up_to_date(
        &store,
        SET,
        runs,
        &brands,
        1,
        &mut |p| {
            seen.push(p);
            if p.read > 0 {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        },
        &stop,
    )
    .unwrap();
    assert!(stopped.is_none());
    let read_before = seen.last().unwrap().read;
    assert!(read_before > 0 && read_before < 15, "{seen:?}");
    let (_, progress) = bring(&store, &brands, 1);
    assert_eq!(progress.total, 15 - read_before);
}

/// An AI entry answered with `body`, and its id.
fn answered(store: &Store, body: &str, model: Model) -> EntryId {
    let (id, ack) = store.add_request(request(model, "US"));
    ack.wait().unwrap();
    answer_again(store, &id, body);
    id
}

fn answer_again(store: &Store, id: &EntryId, body: &str) {
    store
        .add_response(
            id,
            Body {
                status: 200,
                text: body.to_string(),
                elapsed_ms: 1,
                received_at: 1_790_000_000_000,
            },
        )
        .wait()
        .unwrap();
}

/// What discovery read to bring its names up to date by the rules of `version`.
fn discovery_reads(store: &Store, version: u32) -> Progress {
    let never = AtomicBool::new(false);
    let mut last = Progress::default();
    assert!(
        vantage::discovery::bring_up_to_date(store, i64::MIN, version, &mut |p| last = p, &never)
            .unwrap()
    );
    last
}

#[test]
fn discovery_reads_only_what_landed_or_changed_since_and_everything_for_new_rules() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let bodies = bodies();
    let rules = vantage::analysis::READING_RULES;
    let first = answered(&store, &bodies[0], Model::Chatgpt);
    answered(&store, &bodies[1], Model::Copilot);
    assert_eq!(
        discovery_reads(&store, rules),
        Progress { read: 2, total: 2 }
    );
    assert_eq!(discovery_reads(&store, rules), Progress::default());
    // A new answer, and an answer replaced: those two only.
    answered(&store, &bodies[2], Model::Gemini);
    answer_again(&store, &first, &bodies[2]);
    assert_eq!(
        discovery_reads(&store, rules),
        Progress { read: 2, total: 2 }
    );
    let (found, read) = vantage::discovery::untracked(&store, None, &[]).unwrap();
    assert_eq!(read.answers, 3);
    let codex = found.iter().find(|u| u.name == "OpenAI Codex");
    assert!(codex.is_some(), "{found:#?}");
    // A failed call has nothing to read.
    let (failed, ack) = store.add_request(request(Model::Chatgpt, "DE"));
    ack.wait().unwrap();
    store
        .add_response(
            &failed,
            Body {
                status: 500,
                text: "{}".into(),
                elapsed_ms: 1,
                received_at: 1_790_000_000_000,
            },
        )
        .wait()
        .unwrap();
    assert_eq!(discovery_reads(&store, rules), Progress::default());
    // New rules read every answer again, once; the totals are the new rules' alone.
    assert_eq!(
        discovery_reads(&store, rules + 1),
        Progress { read: 3, total: 3 }
    );
    assert_eq!(discovery_reads(&store, rules + 1), Progress::default());
}

#[test]
fn discovery_keeps_each_answer_s_names_once_and_forgets_a_deleted_entry_s() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let bodies = bodies();
    let entries: Vec<EntryId> = bodies
        .iter()
        .zip([Model::Chatgpt, Model::Copilot, Model::Gemini])
        .map(|(body, model)| answered(&store, body, model))
        .collect();
    let never = AtomicBool::new(false);
    let mut last = Progress::default();
    let rules = vantage::analysis::READING_RULES;
    assert!(
        vantage::discovery::bring_up_to_date(&store, i64::MIN, rules, &mut |p| last = p, &never)
            .unwrap()
    );
    assert_eq!(last, Progress { read: 3, total: 3 });
    let (found, read) = vantage::discovery::untracked(&store, None, &[]).unwrap();
    assert_eq!(read.answers, 3);
    let codex = found
        .iter()
        .find(|u| u.name == "OpenAI Codex")
        .expect("Codex is put forward");
    assert_eq!(codex.answers, 2, "{found:#?}");
    assert!(found.iter().any(|u| u.name == "Cursor"), "{found:#?}");
    // Nothing is read twice.
    last = Progress::default();
    vantage::discovery::bring_up_to_date(&store, i64::MIN, rules, &mut |p| last = p, &never)
        .unwrap();
    assert_eq!(last, Progress::default());
    // A tracked brand is no longer suggested.
    let (tracked, _) =
        vantage::discovery::untracked(&store, None, &[Brand::named("Cursor")]).unwrap();
    assert!(tracked.iter().all(|u| u.name != "Cursor"));
    // A deleted entry's names are no longer counted.
    for id in &entries {
        store.delete_history(id).wait().unwrap();
    }
    let (after, read) = vantage::discovery::untracked(&store, None, &[]).unwrap();
    assert_eq!((after, read.answers), (Vec::new(), 0));
}

/// The lines of an export of the set, header first.
fn export(store: &Store) -> Vec<String> {
    let mut lines = Vec::new();
    store
        .export_set(SET, 0, "2026-11-27T00:00:00Z", |line| {
            lines.push(line.to_string());
            Ok(())
        })
        .unwrap();
    lines
}

fn import(store: &Store, lines: &[String]) {
    let rows: Vec<_> = lines
        .iter()
        .filter_map(|line| vantage::store::travel::parse_line(line).unwrap())
        .collect();
    store.track(TrackWrite::Import(rows)).wait().unwrap();
}

#[test]
fn readings_travel_with_their_answers_and_an_older_export_is_read_again_on_import() {
    let brands = brands();
    let answered = 15;
    let from = tempfile::tempdir().unwrap();
    let source = open(&from);
    fill(&source, 4);
    let (read, _) = bring(&source, &brands, 1);
    let expected = trends_of(&read);
    let lines = export(&source);
    assert!(lines.iter().any(|l| l.contains("\"track_readings\"")));

    // An export of these rules: its readings are kept as they came, nothing is read.
    let to = tempfile::tempdir().unwrap();
    let current = open(&to);
    import(&current, &lines);
    let (read, progress) = bring(&current, &brands, 1);
    assert_eq!(progress, Progress::default());
    assert_eq!(trends_of(&read), expected);

    // Read by older rules than this store's: every answer is read again.
    let newer = tempfile::tempdir().unwrap();
    let by_newer_rules = open(&newer);
    import(&by_newer_rules, &lines);
    let (read, progress) = bring(&by_newer_rules, &brands, 2);
    assert_eq!(
        progress,
        Progress {
            read: answered,
            total: answered
        }
    );
    assert_eq!(trends_of(&read), read_whole(&by_newer_rules, &brands));

    // An export of version 1 has no readings: its answers are read on import.
    let old: Vec<String> = lines
        .iter()
        .filter(|l| !l.contains("\"track_readings\""))
        .map(|l| l.replace("\"version\":2", "\"version\":1"))
        .collect();
    let plain = tempfile::tempdir().unwrap();
    let from_old = open(&plain);
    import(&from_old, &old);
    let (read, progress) = bring(&from_old, &brands, 1);
    assert_eq!(
        progress,
        Progress {
            read: answered,
            total: answered
        }
    );
    assert_eq!(trends_of(&read), expected);
}
