//! Tracking tells the truth about a run: a waited-for run with failed calls exits 7 and says
//! how many; `track list` counts them; a re-submitted job takes the failed one's place; the
//! changes name what they could not compare rather than saying "nothing changed".

use std::path::Path;
use std::process::Output;
use std::time::Duration;

mod common;

use common::Service;
use vantage::api::{AiRequest, JobId};
use vantage::sim::{SimConfig, Simulator};
use vantage::store::{NewJob, RequestParams, Store, StoreOptions};

const WORKSPACE: &str = r#"[[brands]]
name = "Merrell"

[[sets]]
name = "boots"
prompts = ["best hiking boots", "waterproof boots"]
models = ["chatgpt"]
locations = ["us", "de", "fr"]
"#;

/// A simulator whose jobs end quickly, this share of them failed.
fn service(job_fail_share: f64) -> Service {
    Service::with(SimConfig {
        job_pending: Duration::from_millis(200),
        job_fail_share,
        ..common::quick()
    })
}

fn track(dir: &Path, sim: &Simulator, args: &[&str]) -> Output {
    let mut all = vec!["track"];
    all.extend_from_slice(args);
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_vantage"))
        .current_dir(dir)
        .env("VANTAGE_TOKEN", sim.token())
        .env_remove("MASSIVE_TOKEN")
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("no-config.toml"))
        // A webhook's retries wait milliseconds, not seconds.
        .env("VANTAGE_WEBHOOK_RETRY_MS", "10")
        // And the re-asks of failed calls too.
        .env("VANTAGE_REASK_PAUSE_MS", "10")
        .args(["--render-url", &sim.url(), "--search-url", &sim.url()])
        .args(&all)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap()
}

#[test]
fn a_run_with_failed_calls_says_so_exits_7_and_its_changes_name_what_was_not_compared() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), WORKSPACE).unwrap();

    // A first run where every call answers.
    let whole = service(0.0);
    let first = track(dir, &whole.sim, &["run", "boots", "--wait"]);
    assert_eq!(first.status.code(), Some(0), "{first:?}");

    // A second where every queued job fails: exit 7, and the count said.
    let failing = service(1.0);
    let second = track(dir, &failing.sim, &["run", "boots", "--wait"]);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(
        second.status.code(),
        Some(vantage::exit::RUN_INCOMPLETE),
        "{stderr}"
    );
    // Each failed call was asked again twice within the run, and failed again.
    assert!(stderr.contains("asking again in"), "{stderr}");
    assert!(stderr.contains("round 2 of 2"), "{stderr}");
    assert!(stderr.contains("6 failed"), "{stderr}");
    assert!(stderr.contains("6 of 6 calls gave no answer"), "{stderr}");
    assert!(stderr.contains("--retry-failed"), "{stderr}");

    // `track list` counts them.
    let list = track(dir, &whole.sim, &["list"]);
    let text = String::from_utf8(list.stdout).unwrap();
    // SET RUN DAY TIME CALLS DONE FAILED …: one run all done, one all failed.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with("boots "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows.iter().any(|r| r[4..7] == ["6", "6", "0"]), "{text}");
    assert!(rows.iter().any(|r| r[4..7] == ["6", "0", "6"]), "{text}");

    // The changes do not call a run without answers unchanged.
    let trends = track(dir, &whole.sim, &["trends", "boots"]);
    let text = String::from_utf8(trends.stdout).unwrap();
    assert!(!text.contains("nothing changed"), "{text}");
    assert!(
        text.contains("nothing compared: no vantage point answered in both runs"),
        "{text}"
    );
    assert!(
        text.contains("not compared, failed or not sent in the other run: 6 before, 0 after"),
        "{text}"
    );

    // A failed job re-submitted takes its place in the run: it is no longer counted failed.
    let store = Store::open_in(&dir.join("data"), StoreOptions::default()).unwrap();
    // Every call of both runs is in History, marked as a tracking run's, and answered: by
    // its result, or by the sentence that its job ended without one.
    let history = store.history(100, 0).unwrap();
    let tracked: Vec<_> = history
        .iter()
        .filter(|h| h.origin == vantage::store::Origin::Track)
        .collect();
    // The second run's six calls were each asked three times in all.
    assert_eq!(tracked.len(), 6 + 6 * 3, "{history:#?}");
    assert_eq!(tracked.iter().filter(|h| h.status == Some(200)).count(), 6);
    assert_eq!(tracked.iter().filter(|h| h.status == Some(0)).count(), 18);
    let runs = store.track_runs(Some("boots")).unwrap();
    let newest = runs
        .iter()
        .find(|r| r.failed == 6)
        .expect("the failing run");
    let failed_job = store
        .track_items(&newest.id)
        .unwrap()
        .into_iter()
        .find_map(|item| item.job_id)
        .expect("a job of the run");
    let again = JobId::parse("0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20").unwrap();
    let mut job = NewJob::submitted(
        again,
        RequestParams::Ai(AiRequest::new("best hiking boots")),
    );
    job.replaces = Some(failed_job);
    store.record_job(job).wait().unwrap();
    let after = store.track_run(&newest.id).unwrap().unwrap();
    assert_eq!((after.failed, after.pending), (5, 1), "{after:?}");
}

#[test]
fn a_set_with_samples_asks_each_answer_afresh_and_trends_test_the_change() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("vantage.toml"),
        r#"[[brands]]
name = "Salomon"

[[brands]]
name = "Merrell"
own = true

[[sets]]
name = "boots"
prompts = ["best hiking boots"]
models = ["chatgpt", "gemini"]
locations = ["us", "de"]
samples = 5
"#,
    )
    .unwrap();
    let service = service(0.0);
    for _ in 0..2 {
        let run = track(dir, &service.sim, &["run", "boots", "--wait"]);
        assert_eq!(run.status.code(), Some(0), "{run:?}");
    }
    let store = Store::open_in(&dir.join("data"), StoreOptions::default()).unwrap();
    let runs = store.track_runs(Some("boots")).unwrap();
    assert_eq!(runs.len(), 2);
    let items = store.track_items(&runs[0].id).unwrap();
    assert_eq!(items.len(), 2 * 2 * 5, "each answer asked five times");
    assert!(items.iter().all(|item| matches!(
        &item.request,
        RequestParams::Ai(request) if request.expiration == Some(0)
    )));

    let trends = track(dir, &service.sim, &["trends", "boots", "--json"]);
    assert_eq!(trends.status.code(), Some(0), "{trends:?}");
    let json: serde_json::Value = serde_json::from_slice(&trends.stdout).unwrap();
    let mut varied = false;
    for brand in json["trends"]["brands"].as_array().unwrap() {
        for stat in brand["overall"].as_array().unwrap() {
            assert_eq!(stat["answers"], 20, "{stat}");
            let (low, high) = (
                stat["low"].as_f64().unwrap(),
                stat["high"].as_f64().unwrap(),
            );
            let share = stat["visibility"].as_f64().unwrap();
            assert!(low <= share && share <= high, "{stat}");
        }
        for (_, stats) in brand["by_location"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| (pair[0].clone(), pair[1].clone()))
        {
            for stat in stats.as_array().unwrap() {
                let named = stat["named"].as_u64().unwrap();
                varied |= named > 0 && named < stat["answers"].as_u64().unwrap();
            }
        }
        let change = &brand["change"];
        assert!(change["p"].as_f64().is_some(), "{brand}");
        assert!(change["different"].is_boolean(), "{brand}");
    }
    assert!(varied, "the samples of a vantage point differ: {json:#}");
    let text = String::from_utf8(track(dir, &service.sim, &["trends", "boots"]).stdout).unwrap();
    assert!(
        text.contains("CHANGES IN THE LAST RUN, AGAINST THE ONE BEFORE, OVER THE CELLS BOTH ANSWERED (McNemar's exact test"),
        "{text}"
    );
    // The last run's sources by kind, per model and place; its gaps when asked.
    assert!(text.contains("SOURCES BY KIND IN THE LAST RUN"), "{text}");
    assert!(text.contains("  model chatgpt"), "{text}");
    assert!(!text.contains("Gaps: where"), "{text}");
    let gaps = track(dir, &service.sim, &["trends", "boots", "--gaps", "--json"]);
    assert_eq!(gaps.status.code(), Some(0), "{gaps:?}");
    let json: serde_json::Value = serde_json::from_slice(&gaps.stdout).unwrap();
    let last = &json["last_run"];
    assert_eq!(last["gaps"]["own"], "Merrell", "{last}");
    assert!(last["kinds"][0]["total"].as_u64().unwrap() > 0, "{last}");
    let with_other = track(
        dir,
        &service.sim,
        &["trends", "boots", "--gaps", "--own", "salomon"],
    );
    let text = String::from_utf8(with_other.stdout).unwrap();
    assert!(
        text.contains("Gaps: where Salomon (your brand) is missing"),
        "{text}"
    );
    let unknown = track(
        dir,
        &service.sim,
        &["trends", "boots", "--gaps", "--own", "Hoka"],
    );
    assert_eq!(unknown.status.code(), Some(2), "{unknown:?}");
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("Hoka is not one of the tracked brands")
    );
    assert!(
        text.contains("no clear difference") || text.contains(": different (p = "),
        "{text}"
    );
}

#[test]
fn the_cost_is_said_before_the_spend_and_a_short_balance_refuses_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("vantage.toml"), WORKSPACE).unwrap();
    let rich = service(0.0);
    let dry = track(dir, &rich.sim, &["run", "boots", "--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{dry:?}");
    let said = String::from_utf8_lossy(&dry.stdout);
    assert!(
        said.contains("A run of boots makes 6 calls (6 answers × 5 = 30 credits);"),
        "{said}"
    );
    assert!(said.contains("credits left"), "{said}");
    let store = Store::open_in(&dir.join("data"), StoreOptions::default()).unwrap();
    assert!(
        store.track_runs(Some("boots")).unwrap().is_empty(),
        "nothing was sent"
    );

    // 10 credits cover the run's 6 calls at a credit a call, not its 30 credits by the table.
    let poor = Service::with(SimConfig {
        credits: 10,
        job_pending: Duration::from_millis(200),
        ..common::quick()
    });
    let refused = track(dir, &poor.sim, &["run", "boots"]);
    assert_eq!(
        refused.status.code(),
        Some(vantage::exit::CREDENTIALS),
        "{refused:?}"
    );
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("10 credits left"), "{stderr}");
    assert!(
        stderr.contains("the balance cannot cover its 30 credits"),
        "{stderr}"
    );
    assert!(stderr.contains("--yes"), "{stderr}");
    assert!(store.track_runs(Some("boots")).unwrap().is_empty());
    // --yes sends what the balance allows: the run is stored and says what was not sent.
    let anyway = track(dir, &poor.sim, &["run", "boots", "--yes"]);
    assert_ne!(anyway.status.code(), Some(0), "{anyway:?}");
    assert_eq!(store.track_runs(Some("boots")).unwrap().len(), 1);
}

#[test]
fn a_set_made_with_track_set_new_runs_and_edits_keep_the_file_s_comments() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("vantage.toml"),
        "# Boots we follow.\n[[brands]]\nname = \"Merrell\" # the Moab\n",
    )
    .unwrap();
    let service = service(0.0);
    let made = track(
        dir,
        &service.sim,
        &[
            "set",
            "new",
            "boots",
            "--prompt",
            "best hiking boots",
            "--models",
            "chatgpt,gemini",
            "--locations",
            "us,de::Berlin",
        ],
    );
    assert_eq!(made.status.code(), Some(0), "{made:?}");
    assert!(String::from_utf8_lossy(&made.stdout).contains("Made the set boots"));
    let added = track(
        dir,
        &service.sim,
        &["set", "add", "boots", "--term", "hiking boots"],
    );
    assert_eq!(added.status.code(), Some(0), "{added:?}");
    let text = std::fs::read_to_string(dir.join("vantage.toml")).unwrap();
    assert!(
        text.starts_with("# Boots we follow.\n[[brands]]\nname = \"Merrell\" # the Moab\n"),
        "{text}"
    );
    assert!(text.contains("terms = [\"hiking boots\"]"), "{text}");
    // A brand the file does not track is refused, and the file is left as it was.
    let refused = track(
        dir,
        &service.sim,
        &["set", "add", "boots", "--brands", "Hoka"],
    );
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("vantage.toml")).unwrap(),
        text
    );
    let run = track(dir, &service.sim, &["run", "boots", "--wait"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let store = Store::open_in(&dir.join("data"), StoreOptions::default()).unwrap();
    let runs = store.track_runs(Some("boots")).unwrap();
    assert_eq!(runs[0].planned, 2 * 2 + 2);
    let deleted = track(dir, &service.sim, &["set", "delete", "boots"]);
    assert_eq!(deleted.status.code(), Some(0), "{deleted:?}");
    let text = std::fs::read_to_string(dir.join("vantage.toml")).unwrap();
    assert!(!text.contains("[[sets]]"), "{text}");
    assert_eq!(
        store.track_runs(Some("boots")).unwrap().len(),
        1,
        "its runs stay"
    );
}

/// `track report --format html`: one page that asks for nothing when opened, with the
/// visibility chart (a series per brand), a map per brand and the changes of the last run;
/// `--format md` the same with its charts as files beside it.
#[test]
fn the_html_report_is_self_contained_with_its_chart_map_and_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("vantage.toml"),
        "[[brands]]\nname = \"REI\"\ndomains = [\"rei.com\"]\n\n[[brands]]\nname = \"Salomon\"\ndomains = [\"salomon.com\"]\n\n[[brands]]\nname = \"Keen\"\n\n[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\", \"hiking boots reviews\"]\nmodels = [\"chatgpt\", \"gemini\"]\nlocations = [\"us\", \"de::Berlin\"]\n",
    )
    .unwrap();
    let service = service(0.0);
    for _ in 0..2 {
        let run = track(dir, &service.sim, &["run", "boots", "--wait"]);
        assert_eq!(run.status.code(), Some(0), "{run:?}");
    }
    let report = dir.join("r.html");
    let written = track(
        dir,
        &service.sim,
        &[
            "report",
            "boots",
            "--format",
            "html",
            "-o",
            &report.to_string_lossy(),
        ],
    );
    assert_eq!(written.status.code(), Some(0), "{written:?}");
    let page = std::fs::read_to_string(&report).unwrap();
    let document = scraper::Html::parse_document(&page);
    let select = |css: &str| scraper::Selector::parse(css).unwrap();
    // Nothing is fetched when the page opens.
    for element in document.select(&select("[src], link, script")) {
        let source = element.value().attr("src").unwrap_or_default();
        assert!(
            !source.starts_with("http") && element.value().name() != "link",
            "{:?} fetches",
            element.value()
        );
        assert_ne!(element.value().name(), "script", "no script is needed");
    }
    for style in document.select(&select("style")) {
        let css: String = style.text().collect();
        assert!(!css.contains("@import") && !css.contains("url("), "{css}");
    }
    // The chart of visibility: one series per brand, each a line (or a point) and named.
    let chart = document
        .select(&select("#visibility svg.chart"))
        .next()
        .expect("the visibility chart");
    let series: Vec<String> = chart
        .select(&select("g.series"))
        .filter_map(|g| g.value().attr("data-brand").map(str::to_string))
        .collect();
    assert_eq!(series, vec!["REI", "Salomon", "Keen"]);
    assert!(chart.select(&select("polyline")).count() >= 1);
    // Beside it, share of voice and recommended share over the runs, a series per brand too.
    for share in ["share", "recommended"] {
        let chart = document
            .select(&select(&format!("#{share} svg.chart")))
            .next()
            .unwrap_or_else(|| panic!("the {share} chart"));
        assert_eq!(chart.select(&select("g.series")).count(), 3, "{share}");
    }
    // The map: a world per brand with the set's two vantage points on it.
    let maps: Vec<_> = document.select(&select("#map svg.map")).collect();
    assert_eq!(maps.len(), 3);
    assert_eq!(maps[0].select(&select("g.point")).count(), 2);
    // The changes of the last run in sentences, against the run before.
    let changes: Vec<String> = document
        .select(&select("#changes li"))
        .map(|li| li.text().collect())
        .collect();
    assert!(
        changes
            .iter()
            .any(|c| c.contains("cells both runs answered")),
        "{changes:?}"
    );
    // REI is read over the paired cells: a change of its own, or folded within chance.
    assert!(
        changes
            .iter()
            .any(|c| (c.starts_with("REI: named in") && c.contains("→"))
                || (c.contains("no clear difference in") && c.contains("REI"))),
        "{changes:?}"
    );
    // And the answers that named a brand, the name marked.
    assert!(document.select(&select("#answers mark")).count() > 0);

    let markdown = dir.join("r.md");
    let written = track(
        dir,
        &service.sim,
        &[
            "report",
            "boots",
            "--format",
            "md",
            "-o",
            &markdown.to_string_lossy(),
        ],
    );
    assert_eq!(written.status.code(), Some(0), "{written:?}");
    let text = std::fs::read_to_string(&markdown).unwrap();
    // Beside the report, by a `./` path that no file name can turn into a scheme.
    assert!(text.contains("![Visibility of each brand over the runs](./r-visibility.svg)"));
    let chart = std::fs::read_to_string(dir.join("r-visibility.svg")).unwrap();
    assert!(chart.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(dir.join("r-map-1.svg").exists());
    for chart in ["r-share-of-voice.svg", "r-recommended.svg"] {
        assert!(text.contains(&format!("](./{chart})")), "{text}");
        assert!(dir.join(chart).exists(), "{chart}");
    }
    // Markdown without a file to write its charts beside is refused.
    let refused = track(dir, &service.sim, &["report", "boots", "--format", "md"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
}

/// What a webhook receiver got: each POST's body, and how it answered.
#[derive(Clone, Default)]
struct Receiver {
    bodies: std::sync::Arc<std::sync::Mutex<Vec<serde_json::Value>>>,
    /// The first this many posts are refused with a 503.
    refuse: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

fn receiver(refuse: usize) -> (Receiver, common::Served) {
    let receiver = Receiver::default();
    receiver
        .refuse
        .store(refuse, std::sync::atomic::Ordering::SeqCst);
    let state = receiver.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |headers: axum::http::HeaderMap, body: String| {
            let state = state.clone();
            async move {
                assert!(
                    headers.get("authorization").is_none(),
                    "the token never goes to a webhook"
                );
                let value: serde_json::Value = serde_json::from_str(&body).unwrap();
                state.bodies.lock().unwrap().push(value);
                let left = state.refuse.load(std::sync::atomic::Ordering::SeqCst);
                if left > 0 {
                    state
                        .refuse
                        .store(left - 1, std::sync::atomic::Ordering::SeqCst);
                    axum::http::StatusCode::SERVICE_UNAVAILABLE
                } else {
                    axum::http::StatusCode::OK
                }
            }
        }),
    );
    (receiver, common::serve(app))
}

fn alerting_workspace(dir: &Path, webhook: &str, below: u32) {
    std::fs::write(
        dir.join("vantage.toml"),
        format!(
            "webhook = \"{webhook}/hook\"\n\n[[brands]]\nname = \"REI\"\ndomains = [\"rei.com\"]\n\n[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\"]\nmodels = [\"chatgpt\", \"gemini\"]\nlocations = [\"us\"]\n\n[[sets.alerts]]\nbrand = \"REI\"\nmeasure = \"visibility\"\nbelow = {below}\nmodels = [\"chatgpt\"]\n"
        ),
    )
    .unwrap();
}

/// An alert that must fire (visibility below 101 %) is printed by `track run --wait`, which
/// exits 8, and posted to the webhook once; one that cannot fire exits 0 and posts nothing.
#[test]
fn an_alert_that_fires_is_printed_exits_8_and_reaches_the_webhook() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (got, served) = receiver(0);
    alerting_workspace(dir, &served.url, 101);
    let service = service(0.0);
    let run = track(dir, &service.sim, &["run", "boots", "--wait"]);
    assert_eq!(run.status.code(), Some(8), "{run:?}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("boots: REI's visibility (chatgpt) is "))
        .unwrap_or_else(|| panic!("the alert is a line of stdout: {stdout}"));
    assert!(line.contains(", below 101 % in run "), "{line}");
    let bodies = got.bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 1, "{bodies:?}");
    assert_eq!(bodies[0]["set"], "boots");
    assert!(
        bodies[0]["text"].as_str().unwrap().contains(line),
        "{}",
        bodies[0]
    );
    assert_eq!(bodies[0]["alerts"][0]["measure"], "visibility");
    assert_eq!(bodies[0]["alerts"][0]["threshold"], 101.0);
    // `track check` on the same run prints it again but does not post it twice.
    let check = track(dir, &service.sim, &["check", "boots"]);
    assert_eq!(check.status.code(), Some(8), "{check:?}");
    assert_eq!(got.bodies.lock().unwrap().len(), 1);

    // One that cannot fire: exit 0, nothing posted.
    let quiet = tempfile::tempdir().unwrap();
    let (nothing, served) = receiver(0);
    alerting_workspace(quiet.path(), &served.url, 0);
    let run = track(quiet.path(), &service.sim, &["run", "boots", "--wait"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(
        String::from_utf8_lossy(&run.stdout)
            .lines()
            .all(|l| !l.contains("visibility"))
    );
    assert!(nothing.bodies.lock().unwrap().is_empty());
}

/// A newest run with no answers is said to have none, not "no alert fired", and exits 7,
/// from `track run --wait` and `track check` alike.
#[test]
fn a_run_without_answers_is_said_rather_than_no_alert_fired() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (got, served) = receiver(0);
    alerting_workspace(dir, &served.url, 0);
    let service = service(1.0);
    for args in [&["run", "boots", "--wait"][..], &["check", "boots"]] {
        let output = track(dir, &service.sim, args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(7), "{args:?}: {stderr}");
        assert!(stderr.contains("has no answers"), "{args:?}: {stderr}");
        assert!(!stderr.contains("No alert"), "{args:?}: {stderr}");
    }
    assert!(got.bodies.lock().unwrap().is_empty(), "nothing to post");
}

/// A delivery the webhook refuses (503 on every try) is kept, said, and posted again by the
/// next run, which posts its own alerts too.
#[test]
fn a_refused_delivery_is_kept_and_posted_by_the_next_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (got, served) = receiver(3);
    alerting_workspace(dir, &served.url, 101);
    let service = service(0.0);
    let first = track(dir, &service.sim, &["run", "boots", "--wait"]);
    assert_eq!(first.status.code(), Some(8), "{first:?}");
    assert!(
        String::from_utf8_lossy(&first.stderr).contains("could not be posted"),
        "{first:?}"
    );
    let first_run = got.bodies.lock().unwrap()[0]["run"].clone();
    assert_eq!(got.bodies.lock().unwrap().len(), 3, "three tries");
    let store = Store::open_in(&dir.join("data"), StoreOptions::default()).unwrap();
    let kept = store.webhook_deliveries(Some("boots")).unwrap();
    assert_eq!(kept.len(), 1);
    assert!(!kept[0].delivered && kept[0].last_error.is_some());

    let second = track(dir, &service.sim, &["run", "boots", "--wait"]);
    assert_eq!(second.status.code(), Some(8), "{second:?}");
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("kept since an earlier post failed"),
        "{second:?}"
    );
    let bodies = got.bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 5, "the kept one, then the new run's");
    assert_eq!(bodies[3]["run"], first_run);
    assert_ne!(bodies[4]["run"], first_run);
    let deliveries = store.webhook_deliveries(Some("boots")).unwrap();
    assert!(deliveries.iter().all(|d| d.delivered), "{deliveries:?}");
}

/// `track export` from one store and `track import` into another that has a run of its
/// own: the runs join, trends read all of them, and importing the same file again stores
/// nothing twice.
#[test]
fn a_set_s_history_travels_to_another_store_and_is_merged_once() {
    let service = service(0.0);
    let set = "[[brands]]\nname = \"REI\"\ndomains = [\"rei.com\"]\n\n[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\"]\nmodels = [\"chatgpt\", \"gemini\"]\nterms = [\"hiking boots\"]\n";
    let server = tempfile::tempdir().unwrap();
    let laptop = tempfile::tempdir().unwrap();
    for dir in [server.path(), laptop.path()] {
        std::fs::write(dir.join("vantage.toml"), set).unwrap();
    }
    for _ in 0..2 {
        let run = track(server.path(), &service.sim, &["run", "boots", "--wait"]);
        assert_eq!(run.status.code(), Some(0), "{run:?}");
    }
    let run = track(laptop.path(), &service.sim, &["run", "boots", "--wait"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");

    let exported = track(server.path(), &service.sim, &["export", "boots"]);
    assert_eq!(exported.status.code(), Some(0), "{exported:?}");
    let file = laptop.path().join("boots.jsonl");
    std::fs::write(&file, &exported.stdout).unwrap();
    let text = String::from_utf8_lossy(&exported.stdout);
    assert!(text.starts_with("{\"exported_at\""), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("\"track_runs\""))
            .count(),
        2
    );

    let imported = track(
        laptop.path(),
        &service.sim,
        &["import", &file.to_string_lossy()],
    );
    assert_eq!(imported.status.code(), Some(0), "{imported:?}");
    assert!(
        String::from_utf8_lossy(&imported.stderr).contains("2 runs new here"),
        "{imported:?}"
    );
    let store = Store::open_in(&laptop.path().join("data"), StoreOptions::default()).unwrap();
    let runs = store.track_runs(Some("boots")).unwrap();
    assert_eq!(runs.len(), 3);
    assert!(runs.iter().all(|r| r.done == 3), "{runs:?}");
    let items = |store: &Store| -> usize {
        store
            .track_runs(Some("boots"))
            .unwrap()
            .iter()
            .map(|r| store.track_items(&r.id).unwrap().len())
            .sum()
    };
    let before = items(&store);
    // Again: nothing new.
    let again = track(
        laptop.path(),
        &service.sim,
        &["import", &file.to_string_lossy()],
    );
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("0 runs new here"));
    assert_eq!(store.track_runs(Some("boots")).unwrap().len(), 3);
    assert_eq!(items(&store), before);
    // Trends read the three runs, the imported ones' answers included.
    let trends = track(laptop.path(), &service.sim, &["trends", "boots", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&trends.stdout).unwrap();
    assert_eq!(value["trends"]["runs"].as_array().unwrap().len(), 3);
    let answers: Vec<u64> = value["trends"]["brands"][0]["overall"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["answers"].as_u64().unwrap())
        .collect();
    assert_eq!(answers, vec![2, 2, 2], "{value}");
    // A line that is not of an export is refused with its line number.
    std::fs::write(&file, "{\"table\":\"requests\",\"row\":{}}\n").unwrap();
    let refused = track(
        laptop.path(),
        &service.sim,
        &["import", &file.to_string_lossy()],
    );
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("line 1"));
}

/// From a subfolder, `track list` reads the nearest vantage.toml above it and says which;
/// `--workspace` and `VANTAGE_WORKSPACE` point elsewhere.
#[test]
fn track_list_finds_the_workspace_in_a_parent_and_says_which() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("vantage.toml"),
        "[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\"]\n",
    )
    .unwrap();
    let deeper = dir.join("reports").join("weekly");
    std::fs::create_dir_all(&deeper).unwrap();
    let service = service(0.0);
    let listed = track(&deeper, &service.sim, &["list"]);
    assert_eq!(listed.status.code(), Some(0), "{listed:?}");
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(
        text.contains(&format!("workspace {}", dir.join("vantage.toml").display())),
        "{text}"
    );
    assert!(
        text.contains("set boots: a run makes 1 call (1 answer × 5 = 5 credits)"),
        "{text}"
    );
    let other = dir.join("other.toml");
    std::fs::write(
        &other,
        "[[sets]]\nname = \"tents\"\nprompts = [\"best tent\"]\n",
    )
    .unwrap();
    let named = track(
        &deeper,
        &service.sim,
        &["list", "--workspace", &other.to_string_lossy()],
    );
    assert!(
        String::from_utf8_lossy(&named.stdout).contains("set tents"),
        "{named:?}"
    );
    let by_env = assert_cmd::Command::new(env!("CARGO_BIN_EXE_vantage"))
        .current_dir(&deeper)
        .env("VANTAGE_TOKEN", service.sim.token())
        .env("VANTAGE_DATA_DIR", dir.join("data"))
        .env("VANTAGE_CONFIG", dir.join("no-config.toml"))
        .env("VANTAGE_WORKSPACE", &other)
        .args([
            "--render-url",
            &service.sim.url(),
            "--search-url",
            &service.sim.url(),
        ])
        .args(["track", "list"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&by_env.stdout).contains("set tents"),
        "{by_env:?}"
    );
}
