//! The command line's manual and its small trips (part 25): `vantage man --dir` writes every
//! page the top page names, each rendering without a warning; `history show` prints an entry
//! made by `ai`; the service's flags are listed only where they mean something.

use std::path::Path;
use std::process::{Command, Output};

use vantage::api::{AiRequest, SearchRequest};
use vantage::store::{RequestParams, Store, StoreOptions};

mod common;

use common::cli::{stdout, vantage};

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The pages a page names under SEE ALSO (`vantage-ai(1)` → `vantage-ai.1`).
fn named_pages(page: &str) -> Vec<String> {
    let see_also = page.split(".SH \"SEE ALSO\"").nth(1).unwrap_or_default();
    see_also
        .split("\\fB")
        .skip(1)
        .filter_map(|part| part.split_once("\\fR(1)"))
        .map(|(name, _)| format!("{}.1", name.replace("\\-", "-")))
        .collect()
}

/// What a formatter says on stderr about `page`; `None` when it is not installed.
fn warnings(program: &str, args: &[&str], page: &Path) -> Option<String> {
    let output = Command::new(program)
        .args(args)
        .arg(page)
        .env("MANWIDTH", "80")
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn the_manual_writes_every_page_it_names_and_each_renders_without_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let pages = tmp.path().join("man");
    let written = vantage(tmp.path(), &["man", "--dir", pages.to_str().unwrap()]);
    assert!(written.status.success(), "{written:?}");
    assert!(stderr(&written).contains("Wrote"), "{written:?}");
    let top = std::fs::read_to_string(pages.join("vantage.1")).unwrap();
    // The top page is what `vantage man` prints.
    assert_eq!(stdout(&vantage(tmp.path(), &["man"])), top);
    for section in [
        "KEYS",
        "CONFIGURATION",
        "ENVIRONMENT",
        "FILES",
        "EXIT STATUS",
    ] {
        assert!(
            top.contains(&format!(".SH {section}")) || top.contains(&format!(".SH \"{section}\"")),
            "{section}"
        );
    }
    let named = named_pages(&top);
    assert!(named.len() > 30, "{named:?}");
    for page in [
        "vantage-ai.1",
        "vantage-track-report.1",
        "vantage-history-show.1",
    ] {
        assert!(named.contains(&page.to_string()), "{page} in {named:?}");
    }
    let mut files: Vec<String> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut expected = named.clone();
    expected.push("vantage.1".to_string());
    expected.sort();
    assert_eq!(files, expected, "every page named is written, and no other");
    let checks: [(&str, &[&str]); 2] = [
        ("groff", &["-man", "-ww", "-z"]),
        ("man", &["-l", "-Tutf8"]),
    ];
    for (program, args) in checks {
        if warnings(program, args, &pages.join("vantage.1")).is_none() {
            println!("skipped: {program} is not installed, so its warnings are not checked");
            continue;
        }
        for file in &files {
            let said = warnings(program, args, &pages.join(file)).unwrap();
            assert!(said.is_empty(), "{program} on {file}: {said}");
        }
    }
}

#[test]
fn only_the_subcommands_that_use_them_list_the_service_s_flags() {
    let tmp = tempfile::tempdir().unwrap();
    let help = |args: &[&str]| {
        let output = vantage(tmp.path(), args);
        assert!(output.status.success(), "{args:?}: {output:?}");
        stdout(&output)
    };
    for command in ["man", "sim", "keys", "completions", "schema"] {
        let text = help(&[command, "--help"]);
        for flag in ["--demo", "--render-url", "--search-url"] {
            assert!(
                !text.contains(flag),
                "{command} --help lists {flag}:\n{text}"
            );
        }
    }
    for command in [
        &["ai", "--help"][..],
        &["track", "run", "--help"],
        &["devices", "--help"],
    ] {
        let text = help(command);
        for flag in ["--demo", "--render-url", "--search-url"] {
            assert!(text.contains(flag), "{command:?} lacks {flag}:\n{text}");
        }
    }
    let history = help(&["history", "--help"]);
    assert!(
        history.contains("--demo") && !history.contains("--render-url"),
        "{history}"
    );
    // Before the subcommand they are still taken, as the app takes them.
    assert!(help(&["--help"]).contains("--demo"));
    let refused = vantage(tmp.path(), &["man", "--demo"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
}

#[test]
fn history_show_prints_an_entry_made_by_ai_as_history_and_ai_json_read_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // The flags after the subcommand, where `ai` takes them.
    let asked = vantage(
        dir,
        &[
            "ai",
            "best hiking boots",
            "--model",
            "gemini",
            "--country",
            "de",
            "--brands",
            "Merrell",
            "--json",
            "--demo",
        ],
    );
    assert!(asked.status.success(), "{asked:?}");
    // Into a pipe, the wait shows no spinner: stderr stays empty.
    assert_eq!(
        stderr(&asked),
        "",
        "no spinner when stderr is not a terminal"
    );
    let listed = vantage(dir, &["--demo", "history", "--json"]);
    let entries: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let id = entries[0]["id"].as_str().unwrap().to_string();
    let prefix = &id[..8];
    // The table prints the start that `show` takes.
    assert!(stdout(&vantage(dir, &["--demo", "history"])).contains(prefix));

    let shown = vantage(dir, &["--demo", "history", "show", prefix]);
    assert!(shown.status.success(), "{shown:?}");
    let text = stdout(&shown);
    for line in [
        format!("Entry    {id}"),
        "Kind     ai (from cli)".to_string(),
        "Request  gemini · best hiking boots · DE".to_string(),
        "Model    Gemini".to_string(),
        "Place    DE".to_string(),
        "Status   200".to_string(),
        "Took ".to_string(),
    ] {
        assert!(text.contains(&line), "{line:?} in:\n{text}");
    }
    let reading: serde_json::Value = serde_json::from_slice(&asked.stdout).unwrap();
    let first_line = reading["text"].as_str().unwrap().lines().next().unwrap();
    assert!(
        text.contains(first_line.trim_end_matches('.')),
        "the answer's text:\n{text}"
    );

    let json = vantage(
        dir,
        &[
            "history", "show", prefix, "--json", "--brands", "Merrell", "--demo",
        ],
    );
    assert!(json.status.success(), "{json:?}");
    assert_eq!(
        stdout(&json),
        stdout(&asked),
        "--json is the reading `ai --json` printed"
    );

    let raw = vantage(dir, &["--demo", "history", "show", &id, "--raw"]);
    assert!(raw.status.success(), "{raw:?}");
    let body: serde_json::Value = serde_json::from_slice(&raw.stdout).unwrap();
    assert!(body.is_object(), "the body as received: {body}");
}

#[test]
fn an_unknown_or_ambiguous_id_is_refused_with_a_sentence() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Seventeen entries: two of them share a first hex digit, whatever their ids.
    let data = dir.join("data");
    let ids: Vec<String> = std::thread::spawn(move || {
        let store = Store::open_in(&data, StoreOptions::default()).unwrap();
        let mut ids = Vec::new();
        for n in 0..17 {
            let (id, ack) =
                store.add_request(RequestParams::Search(SearchRequest::new(format!("q{n}"))));
            ack.wait().unwrap();
            ids.push(id.as_str().to_string());
        }
        let (id, ack) = store.add_request(RequestParams::Ai(AiRequest::new("never answered")));
        ack.wait().unwrap();
        ids.push(id.as_str().to_string());
        ids
    })
    .join()
    .unwrap();
    let shared = ids
        .iter()
        .map(|id| &id[..1])
        .find(|digit| ids.iter().filter(|id| id.starts_with(*digit)).count() > 1)
        .unwrap();
    let ambiguous = vantage(dir, &["history", "show", shared]);
    assert_eq!(ambiguous.status.code(), Some(2), "{ambiguous:?}");
    assert!(
        stderr(&ambiguous).contains("type more of the id"),
        "{ambiguous:?}"
    );

    let unknown = vantage(dir, &["history", "show", "not-an-id"]);
    assert_eq!(unknown.status.code(), Some(2), "{unknown:?}");
    let missing = vantage(dir, &["history", "show", "0000000000"]);
    assert_eq!(missing.status.code(), Some(2), "{missing:?}");
    assert!(stderr(&missing).contains("No stored entry"), "{missing:?}");

    // A call this process left unanswered is ended as it opens the store: shown with its
    // error, and with no body for --raw (exit 4, and why).
    let unanswered = ids.last().unwrap();
    let shown = vantage(dir, &["history", "show", unanswered]);
    let text = stdout(&shown);
    assert!(text.contains("Status   error"), "{shown:?}");
    assert!(text.contains("No answer, only an error:"), "{shown:?}");
    let raw = vantage(dir, &["history", "show", unanswered, "--raw"]);
    assert_eq!(raw.status.code(), Some(4), "{raw:?}");
    assert!(raw.stdout.is_empty(), "{raw:?}");
    assert!(stderr(&raw).contains("No body was received"), "{raw:?}");
}
