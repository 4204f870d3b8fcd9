//! The `vantage` binary against a simulator started in the test process: output, exit codes
//! and the one-sentence errors on stderr.

use std::io::{BufRead, BufReader};
use std::process::{Output, Stdio};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;
use vantage::sim::{Fault, SimConfig, Simulator};

const BIN: &str = env!("CARGO_BIN_EXE_vantage");

/// A simulator on its own runtime (so the test thread can block on the binary), and a
/// temporary home for the binary's config and data.
struct Host {
    sim: Simulator,
    dir: TempDir,
    _runtime: tokio::runtime::Runtime,
}

impl Host {
    fn start(config: SimConfig) -> Host {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let sim = runtime
            .block_on(Simulator::start(config))
            .expect("simulator starts");
        Host {
            sim,
            dir: tempfile::tempdir().expect("temp dir"),
            _runtime: runtime,
        }
    }

    fn quick() -> Host {
        Host::start(quick())
    }

    /// `vantage --render-url URL --search-url URL ARGS…` with the simulator's token.
    fn run(&self, args: &[&str]) -> Output {
        self.run_with_token(Some(self.sim.token()), args)
    }

    fn run_with_token(&self, token: Option<&str>, args: &[&str]) -> Output {
        let url = self.sim.url();
        let mut cmd = bare(&self.dir);
        cmd.args(["--render-url", &url, "--search-url", &url]);
        cmd.args(args);
        if let Some(token) = token {
            cmd.env("VANTAGE_TOKEN", token);
        }
        cmd.output().expect("vantage runs")
    }

    fn requests(&self) -> u64 {
        self.sim.requests_received()
    }
}

fn quick() -> SimConfig {
    SimConfig {
        latency_scale: 0.0,
        job_pending: Duration::from_millis(150),
        job_fail_share: 0.0,
        ..SimConfig::default()
    }
}

/// The binary with no token and no settings from the machine it runs on.
fn bare(dir: &TempDir) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env("VANTAGE_DATA_DIR", dir.path().join("data"))
        .env("VANTAGE_CONFIG", dir.path().join("config.toml"))
        .env_remove("VANTAGE_TOKEN")
        .env_remove("MASSIVE_TOKEN")
        .env_remove("VANTAGE_RENDER_URL")
        .env_remove("VANTAGE_SEARCH_URL")
        .env_remove("VANTAGE_LOG")
        .timeout(Duration::from_secs(20));
    cmd
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts the exit code, showing both streams when it is wrong.
fn expect_code(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(output),
        stderr(output)
    );
}

/// A failure: nothing on stdout, one sentence on one line of stderr.
fn expect_failure(output: &Output, code: i32) -> String {
    expect_code(output, code);
    assert_eq!(stdout(output), "", "nothing on stdout on failure");
    let err = stderr(output);
    let line = err.trim_end_matches('\n');
    assert!(
        !line.is_empty() && !line.contains('\n'),
        "one line: {err:?}"
    );
    assert!(
        line.ends_with('.') || line.ends_with(')'),
        "a sentence: {line:?}"
    );
    line.to_string()
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", stdout(output)))
}

// ---------- answers ----------

#[test]
fn ai_prints_the_completion_as_text_with_its_sources() {
    let host = Host::quick();
    let output = host.run(&["ai", "best hiking boots"]);
    expect_code(&output, 0);
    let text = stdout(&output);
    assert!(text.contains("Sources:"), "{text}");
    assert!(!text.contains("<div") && !text.contains("<p>"), "{text}");
    assert!(text.lines().any(|l| l.trim_start().starts_with("1. ")));
    assert_eq!(host.sim.credits(), 995, "an answer costs 5 credits");
}

#[test]
fn ai_json_prints_the_reading_and_raw_the_body() {
    let host = Host::quick();
    let args = [
        "ai",
        "best hiking boots",
        "--model",
        "gemini",
        "--device",
        "iPhone 15",
        "--country",
        "us",
        "--subdivision",
        "NY",
        "--city",
        "New York",
        "--expiration",
        "0",
    ];
    let output = host.run(&[&args[..], &["--json"]].concat());
    expect_code(&output, 0);
    let reading = json(&output);
    assert_eq!(reading["model"], "gemini");
    assert_eq!(reading["prompt"], "best hiking boots");
    assert_eq!(reading["device"], "iPhone 15");
    assert_eq!(reading["location"]["country"], "US");
    assert_eq!(reading["location"]["subdivision"], "NY");
    assert_eq!(reading["location"]["city"], "New York");
    assert!(
        reading["text"]
            .as_str()
            .is_some_and(|t| t.contains("New York"))
    );
    let sources = reading["sources"].as_array().unwrap();
    assert!(sources.len() >= 3, "{sources:?}");
    assert_eq!(sources[0]["n"], 1);
    assert!(
        sources
            .iter()
            .all(|s| s["title"].is_string() && s["site"].is_string())
    );
    assert!(stdout(&output).starts_with("{\n  \""), "pretty JSON");

    let output = host.run(&[&args[..], &["--raw"]].concat());
    expect_code(&output, 0);
    let body = json(&output);
    assert_eq!(body["query"], "best hiking boots");
    assert!(
        body["sources"]
            .as_str()
            .is_some_and(|s| s.contains("<inline-source-card"))
    );
    assert!(
        !stdout(&output).starts_with("{\n"),
        "as received, not pretty"
    );
}

#[test]
fn ai_rendered_prints_the_page_as_text() {
    let host = Host::quick();
    let output = host.run(&["ai", "how to brew coffee", "--format", "rendered"]);
    expect_code(&output, 0);
    let text = stdout(&output);
    assert!(!text.trim().is_empty());
    assert!(!text.contains("<html"), "{text}");
}

#[test]
fn devices_print_one_per_line_or_json_or_say_there_are_none() {
    let host = Host::quick();
    let output = host.run(&["devices"]);
    expect_code(&output, 0);
    assert!(stdout(&output).lines().any(|l| l.trim() == "iPhone 15"));
    let output = host.run(&["devices", "--json"]);
    expect_code(&output, 0);
    assert!(
        json(&output)
            .as_array()
            .unwrap()
            .contains(&"Pixel 7".into())
    );

    let empty = Host::start(SimConfig {
        empty_devices: true,
        ..quick()
    });
    let output = empty.run(&["devices"]);
    expect_code(&output, 0);
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains("no devices"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn search_prints_a_ranked_list_with_sitelinks() {
    let host = Host::quick();
    let output = host.run(&["search", "best hiking boots", "--size", "10"]);
    expect_code(&output, 0);
    let text = stdout(&output);
    assert!(text.starts_with("google · \"best hiking boots\""), "{text}");
    for rank in 1..=10 {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{rank:>3}. "))),
            "rank {rank} in {text}"
        );
    }
    assert!(
        text.contains("↳ "),
        "sitelinks under the top result: {text}"
    );
    let first = text.find("  1. ").unwrap();
    let arrow = text.find('↳').unwrap();
    let second = text.find("  2. ").unwrap();
    assert!(
        first < arrow && arrow < second,
        "sitelinks sit under their result"
    );
}

#[test]
fn search_json_and_html() {
    let host = Host::quick();
    let output = host.run(&[
        "search",
        "coffee",
        "--serps",
        "2",
        "--size",
        "5",
        "--ip",
        "isp",
        "--country",
        "DE",
        "--json",
    ]);
    expect_code(&output, 0);
    let body = json(&output);
    assert_eq!(body["terms"], "coffee");
    assert_eq!(body["pageCount"], 2);
    assert_eq!(body["country"], "DE");

    let output = host.run(&["search", "coffee", "--format", "html"]);
    expect_code(&output, 0);
    let text = stdout(&output);
    assert!(!text.contains("<a "), "{text}");
    assert!(text.contains("Links:"), "{text}");
}

#[test]
fn the_search_header_quotes_the_terms_once_with_thousands_separators() {
    let host = Host::quick();
    let output = host.run(&["search", "\"trail running shoes\"", "--size", "5"]);
    expect_code(&output, 0);
    let header = stdout(&output)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        header.starts_with("google · \"trail running shoes\" · "),
        "{header}"
    );
    assert!(!header.contains('\\'), "no escaped quotes: {header}");
    let about = header.split("(about ").nth(1).unwrap_or_default();
    let digits: String = about.chars().take_while(|c| *c != ')').collect();
    assert!(
        digits.contains(',') && digits.chars().all(|c| c.is_ascii_digit() || c == ','),
        "{header}"
    );
}

#[test]
fn search_ai_overview_prints_the_overview_then_its_numbered_sources() {
    let host = Host::quick();
    let output = host.run(&["search", "best hiking boots", "--ai-overview"]);
    expect_code(&output, 0);
    let text = stdout(&output);
    assert!(
        text.starts_with("AI overview · \"best hiking boots\""),
        "{text}"
    );
    let sources = text.find("Sources:").expect("sources follow the text");
    assert!(
        text[..sources].lines().count() > 2,
        "the overview's text: {text}"
    );
    assert!(text[sources..].contains("  1. "), "{text}");
    assert!(text.contains("Related questions:"), "{text}");
    assert!(!text.contains("<div"), "{text}");
    // A related question's answer does not repeat the words it opens with.
    assert!(!text.contains("Hiking Boots Hiking Boots"), "{text}");
    // Plain text, not Markdown: no `##` before a heading, no `- ` before an item.
    assert!(!text.lines().any(|l| l.starts_with("#")), "{text}");
    assert!(text[..sources].contains("  • "), "{text}");
}

#[test]
fn search_ai_overview_json_carries_the_overview_and_the_questions() {
    let host = Host::quick();
    let output = host.run(&["search", "best hiking boots", "--ai-overview", "--json"]);
    expect_code(&output, 0);
    let body = json(&output);
    assert_eq!(body["terms"], "best hiking boots");
    let overview = &body["ai_overview"];
    assert!(
        overview["text"].as_str().is_some_and(|t| !t.is_empty()),
        "{body}"
    );
    assert!(
        overview["sources"][0]["url"]
            .as_str()
            .is_some_and(|u| u.starts_with("http")),
        "{body}"
    );
    assert!(
        body["related_questions"]
            .as_array()
            .is_some_and(|q| !q.is_empty()),
        "{body}"
    );
}

// ---------- jobs ----------

#[test]
fn async_ai_prints_a_job_id_that_job_wait_retrieves() {
    // Pending long enough that a slow start of the binary still finds it pending.
    let host = Host::start(SimConfig {
        job_pending: Duration::from_secs(1),
        ..quick()
    });
    let output = host.run(&["ai", "best hiking boots", "--async"]);
    expect_code(&output, 0);
    let id = stdout(&output).trim().to_string();
    assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id:?}");

    let output = host.run(&["job", "ai", &id]);
    expect_code(&output, 0);
    assert!(stdout(&output).starts_with("pending (retrieving)"));

    let output = host.run(&["job", "ai", &id, "--wait"]);
    expect_code(&output, 0);
    assert!(stdout(&output).contains("Sources:"), "{}", stdout(&output));

    let output = host.run(&["job", "ai", &id, "--json"]);
    expect_code(&output, 0);
    assert_eq!(json(&output)["query"], "best hiking boots");
}

#[test]
fn async_search_with_job_wait_polls_until_done() {
    let host = Host::start(SimConfig {
        job_pending: Duration::from_secs(1),
        ..quick()
    });
    let output = host.run(&["search", "coffee", "--async"]);
    expect_code(&output, 0);
    let id = stdout(&output).trim().to_string();
    let started = std::time::Instant::now();
    let output = host.run(&["job", "search", &id, "--wait", "--json"]);
    expect_code(&output, 0);
    assert_eq!(json(&output)["terms"], "coffee");
    // The first poll is at once and finds it pending; the next is 2 s later.
    assert!(stderr(&output).contains("pending (retrieving); next poll in 2 s"));
    assert!(started.elapsed() >= Duration::from_secs(2));
}

#[test]
fn browser_jobs_print_their_content() {
    let host = Host::quick();
    let id = host
        .sim
        .seed_browser_job("<html><body><h1>Seeded</h1><p>Hello from the job.</p></body></html>");
    let output = host.run(&["job", "browser", &id]);
    expect_code(&output, 0);
    let text = stdout(&output);
    assert!(text.contains("Seeded") && text.contains("Hello from the job."));
    assert!(!text.contains("<p>"));
}

#[test]
fn a_queued_markdown_page_prints_as_received() {
    let host = Host::quick();
    let output = host.run(&[
        "page",
        "https://example.com",
        "--format",
        "markdown",
        "--async",
    ]);
    expect_code(&output, 0);
    let id = stdout(&output).trim().to_string();
    let output = host.run(&["job", "browser", &id, "--wait"]);
    expect_code(&output, 0);
    let text = stdout(&output);
    // Its lines as received: HTML layout would run the heading into the paragraph.
    assert!(text.starts_with("# Example Domain\n\n"), "{text}");
    assert!(
        !text.contains("Links:"),
        "Markdown is not laid out again: {text}"
    );
}

#[test]
fn a_failed_job_exits_4() {
    let host = Host::start(SimConfig {
        job_fail_share: 1.0,
        job_pending: Duration::ZERO,
        ..quick()
    });
    let id = stdout(&host.run(&["ai", "hi", "--async"]))
        .trim()
        .to_string();
    let line = expect_failure(&host.run(&["job", "ai", &id, "--wait"]), 4);
    assert!(line.contains("failed"), "{line}");
    let line = expect_failure(&host.run(&["job", "ai", uuid_unknown()]), 4);
    assert!(line.contains("Job not found"), "{line}");
}

fn uuid_unknown() -> &'static str {
    "00000000-0000-4000-8000-000000000000"
}

// ---------- errors ----------

#[test]
fn invalid_input_exits_2_and_sends_nothing() {
    let host = Host::quick();
    let long = "x".repeat(2048);
    let cases: [&[&str]; 8] = [
        &["ai", ""],
        &["ai", &long],
        &["ai", "hi", "--subdivision", "NY"],
        &["ai", "hi", "--country", "XYZ"],
        &["ai", "hi", "--expiration", "2"],
        &["search", "hi", "--serps", "11"],
        &["search", "hi", "--offset", "101"],
        &["job", "ai", "not-a-uuid"],
    ];
    for args in cases {
        let line = expect_failure(&host.run(args), 2);
        assert!(line.starts_with("Nothing was sent"), "{args:?}: {line}");
    }
    // Values the grammar itself refuses.
    for args in [
        &["ai", "hi", "--model", "claude"][..],
        &["ai", "hi", "--format", "xml"],
        &["search", "hi", "--ip", "mobile"],
        &["job", "video", uuid_unknown()],
    ] {
        expect_code(&host.run(args), 2);
    }
    assert_eq!(host.requests(), 0);
}

#[test]
fn missing_wrong_token_and_no_credits_exit_3() {
    let host = Host::quick();
    let line = expect_failure(&host.run_with_token(None, &["ai", "hi"]), 3);
    assert!(line.contains("VANTAGE_TOKEN"), "{line}");
    assert_eq!(host.requests(), 0, "no token, nothing sent");

    let line = expect_failure(&host.run_with_token(Some("wrong"), &["devices"]), 3);
    assert!(line.contains("Valid API token must be provided"), "{line}");

    host.sim.set_credits(0);
    let line = expect_failure(&host.run(&["search", "hi"]), 3);
    assert!(
        line.contains(&format!("top up at {}/plans", host.sim.url())),
        "{line}"
    );
}

#[test]
fn service_errors_exit_4() {
    let host = Host::quick();
    host.sim.script(vec![Some(Fault::Captcha)]);
    let line = expect_failure(&host.run(&["ai", "hi"]), 4);
    assert!(line.contains("Captcha was detected"), "{line}");

    // A device the service does not list is refused before the call, not by the service.
    let line = expect_failure(&host.run(&["ai", "hi", "--device", "Nokia 3310"]), 2);
    assert!(
        line.contains("not a device the service emulates") && line.contains("Nokia N9"),
        "{line}"
    );

    host.sim.script(vec![Some(Fault::Timeout)]);
    let line = expect_failure(&host.run(&["search", "hi"]), 4);
    assert!(line.contains("Request(s) timed out"), "{line}");

    host.sim.script(vec![Some(Fault::Malformed)]);
    let line = expect_failure(&host.run(&["ai", "hi"]), 4);
    assert!(line.contains("could not be read"), "{line}");

    host.sim
        .script(vec![Some(Fault::ServerError), Some(Fault::ServerError)]);
    let line = expect_failure(&host.run(&["ai", "hi"]), 4);
    assert!(line.contains("Unknown error occurred"), "{line}");
}

#[test]
fn a_503_is_waited_out_and_retried() {
    let host = Host::quick();
    host.sim.script(vec![Some(Fault::Unavailable), None]);
    let started = std::time::Instant::now();
    let output = host.run(&["ai", "hi", "--json"]);
    expect_code(&output, 0);
    assert_eq!(json(&output)["prompt"], "hi");
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(host.requests(), 2);
}

#[test]
fn no_answer_exits_5() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let output = bare(&dir)
        .args(["--render-url", &url, "--search-url", &url, "ai", "hi"])
        .env("VANTAGE_TOKEN", "t")
        .output()
        .unwrap();
    let line = expect_failure(&output, 5);
    assert!(line.starts_with("Could not connect"), "{line}");
}

#[test]
fn a_plain_http_url_elsewhere_gets_no_token() {
    let dir = tempfile::tempdir().unwrap();
    let output = bare(&dir)
        .args(["--render-url", "http://render.example.test", "devices"])
        .env("VANTAGE_TOKEN", "t")
        .output()
        .unwrap();
    let line = expect_failure(&output, 2);
    assert!(line.starts_with("Refusing to send your token"), "{line}");
}

// ---------- demo and sim ----------

#[test]
fn demo_answers_with_no_token_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let output = bare(&dir)
        .args(["--demo", "ai", "best hiking boots", "--model", "gemini"])
        .output()
        .unwrap();
    expect_code(&output, 0);
    let text = stdout(&output);
    assert!(text.len() > 100, "{text}");
    assert!(text.contains("Sources:"), "{text}");
}

/// Kills the spawned simulator when the test ends, whatever happens.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn sim_prints_its_url_and_token_and_serves() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Child(
        std::process::Command::new(BIN)
            .args([
                "sim",
                "--port",
                "0",
                "--latency-scale",
                "0",
                "--token",
                "t-123",
            ])
            .env("VANTAGE_DATA_DIR", dir.path().join("data"))
            .env("VANTAGE_CONFIG", dir.path().join("config.toml"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("vantage sim starts"),
    );
    let mut lines = BufReader::new(child.0.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first
        .strip_prefix("Simulator listening on ")
        .unwrap_or_else(|| panic!("{first:?}"))
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(!url.ends_with(":0"));
    assert_eq!(lines.next().unwrap().unwrap(), "Token: t-123");

    let output = bare(&dir)
        .args(["--render-url", &url, "--search-url", &url, "devices"])
        .env("VANTAGE_TOKEN", "t-123")
        .output()
        .unwrap();
    expect_code(&output, 0);
    assert!(stdout(&output).lines().any(|l| l.trim() == "iPhone 15"));
    child.0.kill().unwrap();
    assert!(!child.0.wait().unwrap().success());
}

/// `vantage completions bash` is a script bash accepts, and it completes `vantage tr` to
/// `track` (and `vantage track r` to its subcommands, a set's name from the workspace file, a
/// model); `vantage man` is a man page `man` renders.
#[test]
fn completions_complete_subcommands_and_the_man_page_renders() {
    let dir = TempDir::new().unwrap();
    let script = Command::new(env!("CARGO_BIN_EXE_vantage"))
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert_eq!(script.status.code(), Some(0));
    let file = dir.path().join("vantage.bash");
    std::fs::write(&file, &script.stdout).unwrap();
    let checked = std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .output()
        .unwrap();
    assert!(checked.status.success(), "{checked:?}");
    // The script asks `vantage` itself at each Tab: the binary is on the PATH, and the
    // workspace is the one of the folder the Tab is pressed in.
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_vantage"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    std::fs::write(
        dir.path().join("vantage.toml"),
        // The third set's name holds an escape sequence: it is not offered to the shell.
        "[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\"]\n\n[[sets]]\nname = \"trail\"\nprompts = [\"trail shoes\"]\n\n[[sets]]\nname = \"b\\u001b[31mad\"\nprompts = [\"x\"]\n",
    )
    .unwrap();
    let complete = |words: &str| -> Vec<String> {
        let count = words.split_whitespace().count();
        let cword = if words.ends_with(' ') {
            count
        } else {
            count - 1
        };
        let program = format!(
            "source {}; COMP_WORDS=({words}{}); COMP_CWORD={cword}; COMP_LINE='{words}'; COMP_POINT=${{#COMP_LINE}}; _clap_complete_vantage vantage \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            file.display(),
            if words.ends_with(' ') { " ''" } else { "" }
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &program])
            .env("PATH", &path)
            .current_dir(dir.path())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(complete("vantage tr"), vec!["track"]);
    // Set names come from the workspace file, models from the list of models.
    assert_eq!(complete("vantage track run b"), vec!["boots"]);
    assert_eq!(complete("vantage track report t"), vec!["trail"]);
    assert_eq!(complete("vantage ai --model ge"), vec!["gemini"]);
    assert_eq!(complete("vantage --theme hi"), vec!["high-contrast"]);
    let under_track = complete("vantage track r");
    assert!(
        under_track.contains(&"run".to_string()) && under_track.contains(&"report".to_string()),
        "{under_track:?}"
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = Command::new(env!("CARGO_BIN_EXE_vantage"))
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success() && !out.stdout.is_empty(), "{shell}");
    }

    let man = Command::new(env!("CARGO_BIN_EXE_vantage"))
        .arg("man")
        .output()
        .unwrap();
    assert_eq!(man.status.code(), Some(0));
    let roff = String::from_utf8_lossy(&man.stdout).to_string();
    assert!(
        roff.starts_with(".ie \\n(.g .ds Aq") || roff.contains(".TH vantage 1"),
        "{roff}"
    );
    let page = dir.path().join("vantage.1");
    std::fs::write(&page, &man.stdout).unwrap();
    let rendered = std::process::Command::new("man")
        .arg("-l")
        .arg(&page)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .output()
        .expect("man renders the page");
    assert!(rendered.status.success(), "{rendered:?}");
    let text = String::from_utf8_lossy(&rendered.stdout);
    assert!(
        text.contains("SYNOPSIS") && text.contains("track"),
        "{text}"
    );
    assert!(rendered.stderr.is_empty(), "no roff warnings: {rendered:?}");
}
