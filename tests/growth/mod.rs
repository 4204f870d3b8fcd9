//! Looking for the next bad shape: generated tag soups (formatting tags with and without
//! attributes, tables, lists, links and blocks, left open and misnested, with text between)
//! of growing size go through every path that reads HTML (an answer, a results page, a
//! fetched page), and generated JSON bodies and workspace files through their readers. Four
//! times the input may take at most about six times the time, and the largest stays within
//! 2 s and 256 MB.
//!
//! The suite runs a few seeds per shape; `VANTAGE_SOUP_SEEDS=200 cargo test --release --test
//! render_hostile growth` runs many more by hand.

use std::time::{Duration, Instant};

use vantage::analysis::mentions::{Brand, mentions, read};
use vantage::analysis::outline::Outline;
use vantage::analysis::workspace::Workspace;
use vantage::api::{
    AiAnswer, AiRequest, BrowserRequest, Completion, Fetched, SearchAnswer, SearchRequest,
    SearchResults,
};
use vantage::present;

use super::{ALLOCATOR, MEMORY_LIMIT, ONE_AT_A_TIME, TIME_LIMIT};

mod hostile_shapes;
#[path = "../common/soup.rs"]
mod soup;
use soup::{Dice, SHAPES, WORDS, soup};

/// One path that reads HTML, run to what a view shows (laid out at 100 columns).
type Path = (&'static str, fn(&str) -> usize);

fn answer(html: &str) -> usize {
    let prepared = present::answer::prepare(
        AiRequest::new("best hiking boots"),
        fetched(AiAnswer::Html(html.to_owned()), html),
    );
    prepared.answer.lines(100).len() + prepared.sources.len() + prepared.candidates.len()
}

fn results_page(html: &str) -> usize {
    let prepared = present::search_page::prepare(
        SearchRequest::new("best hiking boots"),
        fetched(SearchAnswer::Html(html.to_owned()), html),
    );
    let shown = prepared
        .html
        .as_ref()
        .map_or(0, |page| page.text.lines(100).len());
    shown + prepared.results.len() + prepared.related_questions.len()
}

fn fetched_page(html: &str) -> usize {
    let prepared = present::page::prepare(
        BrowserRequest::new("https://example.com/"),
        fetched(html.to_owned(), html),
    );
    prepared.text.lines(100).len() + prepared.links.len()
}

const HTML_PATHS: &[Path] = &[
    ("an answer", answer),
    ("a results page", results_page),
    ("a fetched page", fetched_page),
];

fn fetched<T>(value: T, body: &str) -> Fetched<T> {
    Fetched {
        value,
        body: body.to_owned(),
        status: 200,
        content_type: "text/html".to_owned(),
        elapsed: Duration::from_millis(5),
    }
}

/// The quickest of two runs, and the peak memory above what was live before.
fn measure(read: fn(&str) -> usize, input: &str) -> (Duration, usize) {
    let base = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let mut best = Duration::MAX;
    for _ in 0..2 {
        let start = Instant::now();
        std::hint::black_box(read(input));
        best = best.min(start.elapsed());
    }
    (best, ALLOCATOR.peak_usage().saturating_sub(base))
}

/// Times below this are noise for a ratio (a page of a few KB is read in about a ms).
const NOISE: Duration = Duration::from_millis(40);
/// Four times the input may take this many times as long.
const GROWTH: f64 = 6.0;

/// Reads `make(size)` for each size (each four times the one before) and checks the growth,
/// the time and the memory; returns the times, for the note.
fn grows_linearly(
    what: &str,
    read: fn(&str) -> usize,
    sizes: &[usize],
    make: &dyn Fn(usize) -> String,
) -> Vec<Duration> {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut times = Vec::new();
    let mut before: Option<(Duration, String)> = None;
    for &size in sizes {
        let input = make(size);
        if let Some(folder) = std::env::var_os("VANTAGE_SOUP_DUMP") {
            let name = format!("{what}-{size}.html").replace([' ', '(', ')', ','], "_");
            let _ = std::fs::write(std::path::Path::new(&folder).join(name), &input);
        }
        let (took, peak) = measure(read, &input);
        eprintln!(
            "{what}, {} KB: {took:?}, peak {} MB",
            input.len() / 1024,
            peak / 1_048_576
        );
        assert!(
            took <= TIME_LIMIT,
            "{what}: {} KB took {took:?}",
            input.len() / 1024
        );
        assert!(
            peak <= MEMORY_LIMIT,
            "{what}: {} KB peaked at {peak} bytes",
            input.len() / 1024
        );
        let mut took = took;
        if let Some((mut earlier, smaller)) = before {
            // A busy machine slows one run now and then: a ratio past the bound is measured
            // again, both sizes, up to three times, before it counts.
            for _ in 0..3 {
                if took <= earlier.max(NOISE).mul_f64(GROWTH) {
                    break;
                }
                earlier = earlier.min(measure(read, &smaller).0);
                took = took.min(measure(read, &input).0);
            }
            assert!(
                took <= earlier.max(NOISE).mul_f64(GROWTH),
                "{what}: four times the input ({} KB) took {took:?}, more than {GROWTH} × {earlier:?}",
                input.len() / 1024
            );
        }
        before = Some((took, input));
        times.push(took);
    }
    times
}

fn seeds() -> u64 {
    std::env::var("VANTAGE_SOUP_SEEDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2)
}

/// Sizes of the soups: 16, 64 and 256 KB in the suite, up to 1 MB with `VANTAGE_SOUP_LARGE`.
fn sizes() -> Vec<usize> {
    let mut sizes = vec![16 * 1024, 64 * 1024, 256 * 1024];
    if std::env::var_os("VANTAGE_SOUP_LARGE").is_some() {
        sizes.push(1024 * 1024);
    }
    sizes
}

#[test]
fn tag_soups_of_every_shape_are_read_in_linear_time() {
    for shape in SHAPES {
        for seed in 0..seeds() {
            for &(path, read) in HTML_PATHS {
                let what = format!("{} (seed {seed}) as {path}", shape.name);
                grows_linearly(&what, read, &sizes(), &|size| soup(shape, seed, size));
            }
        }
    }
}

#[test]
fn the_shapes_of_the_issue_are_read_in_linear_time() {
    let repeat = |unit: &'static str| move |size: usize| unit.repeat(size / unit.len());
    let formatting_and_tables = repeat("<b><i><table><tr><td><span><a href=x>");
    let links = |size: usize| {
        (0..size / 40)
            .map(|i| format!("<a href=\"https://e{i}.example/\">l{i}</a> "))
            .collect::<String>()
    };
    let sizes = [64 * 1024, 256 * 1024, 1024 * 1024];
    for &(path, read) in HTML_PATHS {
        grows_linearly(
            &format!("the formatting-and-table soup as {path}"),
            read,
            &sizes,
            &formatting_and_tables,
        );
        grows_linearly(
            &format!("links as {path}"),
            read,
            &[128 * 1024, 512 * 1024, 2048 * 1024],
            &links,
        );
    }
}

/// An answer of the service whose fields grow: many sources and fanouts, long strings full
/// of escapes, markup in every field.
fn completion_json(seed: u64, size: usize) -> String {
    let mut dice = Dice::new(seed);
    let html = soup(&SHAPES[dice.below(SHAPES.len())], seed, size / 2);
    let count = size / 200;
    let fanouts: Vec<String> = (0..count)
        .map(|i| format!("boots \"{i}\" \\ \u{1F97E} {}", dice.pick(WORDS)))
        .collect();
    let sources: String = (0..count)
        .map(|i| format!("<a href=\"https://s{i}.example/\">Source {i}</a>"))
        .collect();
    serde_json::json!({
        "completion": html,
        "sources": sources,
        "fanouts": fanouts,
        "prompt": "<p>best hiking boots</p>",
        "html": "<html></html>",
        "ads": "",
        "model": "chatgpt",
        "device": "desktop",
        "country": "US",
    })
    .to_string()
}

/// Results of the service whose lists grow.
fn results_json(seed: u64, size: usize) -> String {
    let mut dice = Dice::new(seed);
    let count = size / 300;
    let organic: Vec<serde_json::Value> = (0..count)
        .map(|i| {
            serde_json::json!({
                "position": i + 1,
                "title": format!("Boots {} \"{i}\"", dice.pick(WORDS)),
                "url": format!("https://s{}.example/{i}", i % 50),
                "snippet": "x\\y ".repeat(dice.below(40)),
            })
        })
        .collect();
    serde_json::json!([{ "query": "best hiking boots", "page": 1, "results": { "organic": organic } }])
        .to_string()
}

fn read_completion(body: &str) -> usize {
    let Ok(completion) = serde_json::from_str::<Completion>(body) else {
        panic!("the generated completion does not decode");
    };
    let prepared = present::answer::prepare(
        AiRequest::new("best hiking boots"),
        fetched(AiAnswer::Completion(Box::new(completion)), body),
    );
    prepared.answer.lines(100).len() + prepared.sources.len() + prepared.fanouts.len()
}

fn read_results(body: &str) -> usize {
    let Ok(results) = serde_json::from_str::<SearchResults>(body) else {
        panic!("the generated results do not decode");
    };
    let prepared = present::search_page::prepare(
        SearchRequest::new("best hiking boots"),
        fetched(SearchAnswer::Results(Box::new(results)), body),
    );
    prepared.results.len() + prepared.entries.len()
}

#[test]
fn json_answers_are_read_in_linear_time() {
    for seed in 0..seeds() {
        grows_linearly("a completion", read_completion, &sizes(), &|size| {
            completion_json(seed, size)
        });
        grows_linearly("search results", read_results, &sizes(), &|size| {
            results_json(seed, size)
        });
    }
}

/// A workspace with many brands and sets, long lists, and strings full of escapes.
fn workspace_toml(seed: u64, size: usize) -> String {
    let mut dice = Dice::new(seed);
    let mut out = String::from("# generated\n");
    let mut n = 0;
    while out.len() < size {
        n += 1;
        match dice.below(3) {
            0 => out.push_str(&format!(
                "[[brands]]\nname = \"Brand {n} \\\"{}\\\"\"\naliases = [{}]\ndomains = [\"b{n}.example\"]\n\n",
                dice.pick(WORDS),
                (0..dice.below(20)).map(|i| format!("\"alias {n}.{i}\"")).collect::<Vec<_>>().join(", ")
            )),
            1 => out.push_str(&format!(
                "[[sets]]\nname = \"set {n}\"\nprompts = [{}]\nmodels = [\"chatgpt\", \"gemini\"]\nlocations = [\"us\", \"de\"]\n\n",
                (0..dice.below(30)).map(|i| format!("\"prompt {i} {}\"", dice.pick(WORDS))).collect::<Vec<_>>().join(", ")
            )),
            _ => out.push_str(&format!("# a comment {n} {}\n", "·".repeat(dice.below(60)))),
        }
    }
    out
}

fn read_workspace(text: &str) -> usize {
    // A generated file may repeat a name or break a rule: refused or read, never slowly.
    match Workspace::parse(std::path::Path::new("vantage.toml"), text) {
        Ok(workspace) => workspace.brands().len() + workspace.sets().len(),
        Err(error) => error.to_string().len(),
    }
}

#[test]
fn workspace_files_are_read_in_linear_time() {
    for seed in 0..seeds() {
        grows_linearly("a workspace file", read_workspace, &sizes(), &|size| {
            workspace_toml(seed, size)
        });
    }
}

/// Twenty brands, named densely.
const BRANDS: [&str; 20] = [
    "Salomon",
    "Merrell",
    "Lowa",
    "Keen",
    "Hoka",
    "Scarpa",
    "La Sportiva",
    "Danner",
    "Oboz",
    "Vasque",
    "Zamberlan",
    "Meindl",
    "Hanwag",
    "Asolo",
    "Columbia",
    "Altra",
    "Brooks",
    "Saucony",
    "Arc'teryx",
    "Mammut",
];

fn brands() -> Vec<Brand> {
    BRANDS.iter().map(|name| Brand::named(name)).collect()
}

/// An answer's text read as prose for twenty brands.
fn read_prose(text: &str) -> usize {
    mentions(text, &[], &brands()).iter().map(|m| m.count).sum()
}

/// An answer's HTML read in its shape for twenty brands.
fn read_shaped(html: &str) -> usize {
    let outline = Outline::read(html, "best hiking boots", None).unwrap_or_default();
    read(&outline, &[], &brands()).iter().map(|m| m.count).sum()
}

#[test]
fn brands_are_read_in_linear_time_however_densely_named() {
    // A run-on sentence that names brands without end: each mention's sentence is the
    // whole text, and each names every other brand.
    let run_on = |size: usize| {
        let mut text = String::new();
        let mut i = 0;
        while text.len() < size {
            text.push_str(&format!(
                "{} is better than {}, and ",
                BRANDS[i % 20],
                BRANDS[(i + 7) % 20]
            ));
            i += 1;
        }
        text
    };
    grows_linearly("a run-on sentence of brands", read_prose, &sizes(), &run_on);
    // A list answer: items that name a brand as their lead and others in asides, under
    // headings, with a table repeating them.
    let list = |size: usize| {
        let mut html = String::from("<p>Here are the top picks:</p><ol>");
        let mut i = 0;
        while html.len() < size / 2 {
            html.push_str(&format!(
                "<li><p><strong>{} X{i}</strong> — Best for grip; lighter than the {} and not as stiff as {}.</p></li>",
                BRANDS[i % 20], BRANDS[(i + 3) % 20], BRANDS[(i + 11) % 20]
            ));
            i += 1;
        }
        html.push_str("</ol><h3>1. Table</h3><table><tr><th>Pick</th><th>Brand</th></tr>");
        while html.len() < size {
            html.push_str(&format!("<tr><td>{i}</td><td>{}</td></tr>", BRANDS[i % 20]));
            i += 1;
        }
        html.push_str("</table>");
        html
    };
    grows_linearly("a list answer of brands", read_shaped, &sizes(), &list);
}
