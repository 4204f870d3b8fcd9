//! Manual inspection helper: `cargo test --test render_dump -- --ignored` writes the
//! rendered fixtures to the temp dir.

use std::path::Path;

use vantage::render::{RenderOptions, html_to_document};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/live");

fn lines_to_string(lines: &[ratatui::text::Line<'_>]) -> String {
    lines
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
#[ignore = "writes files for manual inspection"]
fn dump_fixtures() {
    let dir = std::env::temp_dir();
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(FIXTURES).join("ai-chatgpt-sample.json")).unwrap(),
    )
    .unwrap();
    let google =
        std::fs::read_to_string(Path::new(FIXTURES).join("search-google-sample.html")).unwrap();
    let inputs = [
        (
            "chatgpt_completion",
            json["completion"].as_str().unwrap().to_owned(),
        ),
        ("chatgpt_html", json["html"].as_str().unwrap().to_owned()),
        ("google", google),
    ];
    for (name, html) in inputs {
        let doc = html_to_document(
            &html,
            &RenderOptions {
                number_links: true,
                ..Default::default()
            },
        );
        std::fs::write(
            dir.join(format!("{name}.wrap.txt")),
            lines_to_string(&doc.wrap(100)),
        )
        .unwrap();
        std::fs::write(dir.join(format!("{name}.plain.txt")), doc.plain_text()).unwrap();
        std::fs::write(dir.join(format!("{name}.md")), doc.to_markdown()).unwrap();
        let links: Vec<String> = doc
            .links()
            .iter()
            .map(|l| format!("{} | {}", l.text, l.url))
            .collect();
        std::fs::write(dir.join(format!("{name}.links.txt")), links.join("\n")).unwrap();
    }
}
