//! The reference in `docs/` holds to the program and to itself: every subcommand of
//! `vantage --help`, at every depth, has its section in docs/cli.md naming each of its long
//! flags; every relative link and `#anchor` of README.md and docs/*.md resolves as GitHub
//! resolves it; the exit-code table is the program's; and no page sends a user to the
//! source.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// README.md and every page of docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A subcommand as its full path (`vantage track report`) and the long flags of its own.
struct Documented {
    path: String,
    flags: Vec<String>,
}

/// Every visible subcommand at every depth. A global flag is the top command's: it is
/// documented once, in the top section.
fn commands(command: &clap::Command, path: &str, out: &mut Vec<Documented>) {
    let top = !path.contains(' ');
    let flags = command
        .get_arguments()
        .filter(|arg| !arg.is_hide_set() && (top || !arg.is_global_set()))
        .filter_map(|arg| arg.get_long())
        .filter(|long| !["help", "version"].contains(long))
        .map(|long| format!("--{long}"))
        .collect();
    out.push(Documented {
        path: path.to_string(),
        flags,
    });
    for sub in command.get_subcommands() {
        if !sub.is_hide_set() && sub.get_name() != "help" {
            commands(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }
}

/// A heading of a page: its text (code spans without their backticks), the byte where it
/// starts, and the byte where its section ends (the next heading of any level).
struct Heading {
    text: String,
    start: usize,
    end: usize,
}

fn headings(markdown: &str) -> Vec<Heading> {
    let mut found: Vec<Heading> = Vec::new();
    let mut open: Option<(String, usize)> = None;
    for (event, range) in Parser::new(markdown).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { .. }) => open = Some((String::new(), range.start)),
            Event::Text(text) | Event::Code(text) => {
                if let Some((heading, _)) = open.as_mut() {
                    heading.push_str(&text);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((text, start)) = open.take() {
                    found.push(Heading {
                        text,
                        start,
                        end: markdown.len(),
                    });
                }
            }
            _ => {}
        }
    }
    for i in 1..found.len() {
        found[i - 1].end = found[i].start;
    }
    found
}

/// Whether `text` names `flag` whole (`--json` is not named by `--jsonl`).
fn names_flag(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(at, _)| {
        text[at + flag.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '-' || c == '_'))
    })
}

/// What the command-line reference leaves out: a subcommand with no heading of its own
/// (its path in backticks), or a flag its section does not name.
fn missing_from(reference: &str, documented: &[Documented]) -> Vec<String> {
    let headings = headings(reference);
    let mut missing = Vec::new();
    for command in documented {
        let quoted = format!("`{}`", command.path);
        let Some(heading) = headings.iter().find(|h| {
            reference[h.start..h.end]
                .lines()
                .next()
                .is_some_and(|line| line.contains(&quoted))
        }) else {
            missing.push(format!("no section headed {quoted}"));
            continue;
        };
        let section = &reference[heading.start..heading.end];
        for flag in &command.flags {
            if !names_flag(section, flag) {
                missing.push(format!("{flag} in the section of {quoted}"));
            }
        }
    }
    missing
}

#[test]
fn every_subcommand_and_flag_is_in_the_command_line_reference() {
    let mut documented = Vec::new();
    commands(&vantage::cli::Cli::command(), "vantage", &mut documented);
    assert!(
        documented.iter().any(|c| c.path == "vantage track set new"),
        "the walk reaches every depth"
    );
    let reference = read(&root().join("docs/cli.md"));
    let missing = missing_from(&reference, &documented);
    assert!(
        missing.is_empty(),
        "docs/cli.md leaves out:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_subcommand_or_flag_left_out_is_caught() {
    let documented = [
        Documented {
            path: "vantage ai".into(),
            flags: vec!["--json".into(), "--raw".into()],
        },
        Documented {
            path: "vantage track report".into(),
            flags: vec!["--format".into()],
        },
    ];
    let reference = "## `vantage ai`\n\n`--jsonl` only.\n\n## `vantage page`\n\n--raw\n";
    assert_eq!(
        missing_from(reference, &documented),
        [
            "--json in the section of `vantage ai`",
            "--raw in the section of `vantage ai`",
            "no section headed `vantage track report`",
        ]
    );
}

/// GitHub's anchor of a heading: lower case, every character but letters, digits, `-`,
/// `_` and spaces dropped, spaces made `-`; a repeated anchor takes `-1`, `-2`, ….
fn slugs(markdown: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for heading in headings(markdown) {
        let base: String = heading
            .text
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut slug = base.clone();
        let mut n = 0;
        while seen.contains(&slug) {
            n += 1;
            slug = format!("{base}-{n}");
        }
        seen.insert(slug);
    }
    seen
}

/// The links of a page that do not resolve: a relative file that is not there, or an
/// anchor no heading of its page makes. Links off the site are not followed.
fn broken_links(page: &Path, markdown: &str) -> Vec<String> {
    let mut broken = Vec::new();
    for event in Parser::new(markdown) {
        let (Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. })) =
            event
        else {
            continue;
        };
        let url = dest_url.to_string();
        if url.contains("://") || url.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = match url.split_once('#') {
            Some((file, anchor)) => (file, Some(anchor)),
            None => (url.as_str(), None),
        };
        let target = if file.is_empty() {
            page.to_path_buf()
        } else {
            page.parent().unwrap().join(file)
        };
        if !target.exists() {
            broken.push(format!("{url}: no file {}", target.display()));
            continue;
        }
        if let Some(anchor) = anchor {
            let text = if file.is_empty() {
                markdown.to_string()
            } else {
                read(&target)
            };
            if !slugs(&text).contains(anchor) {
                broken.push(format!("{url}: no heading makes #{anchor}"));
            }
        }
    }
    broken
}

#[test]
fn every_link_between_the_readme_and_the_reference_resolves() {
    let mut broken = Vec::new();
    for page in pages() {
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        for link in broken_links(&page, &read(&page)) {
            broken.push(format!("{name}: {link}"));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    // Every page of docs/ is reached from the README.
    let readme = read(&root().join("README.md"));
    for page in pages().iter().skip(1) {
        let name = page.file_name().unwrap().to_string_lossy();
        assert!(
            readme.contains(&format!("(docs/{name}")),
            "the README links no docs/{name}"
        );
    }
}

#[test]
fn a_broken_link_or_anchor_is_caught() {
    let page = root().join("README.md");
    let markdown = "# Set-up and first run\n## Set-up and first run\n## `vantage track report`, CSV & HTML\n\n\
        [a](#set-up-and-first-run) [b](#set-up-and-first-run-1) [c](#vantage-track-report-csv--html) \
        [d](#no-such-heading) [e](docs/nowhere.md) [f](docs/cli.md#no-such-heading) \
        [g](https://example.com/#x) ![h](assets/missing.svg)";
    assert_eq!(
        broken_links(&page, markdown)
            .iter()
            .map(|l| l.split(':').next().unwrap())
            .collect::<Vec<_>>(),
        [
            "#no-such-heading",
            "docs/nowhere.md",
            "docs/cli.md#no-such-heading",
            "assets/missing.svg"
        ]
    );
}

#[test]
fn the_exit_code_table_is_the_programs() {
    let text = read(&root().join("docs/exit-codes.md"));
    let listed: Vec<i32> = text
        .lines()
        .filter_map(|line| line.strip_prefix("| "))
        .filter_map(|rest| rest.split(' ').next())
        .filter_map(|code| code.parse().ok())
        .collect();
    let codes: Vec<i32> = vantage::exit::MEANINGS
        .iter()
        .map(|(code, _)| *code)
        .collect();
    assert_eq!(
        listed, codes,
        "docs/exit-codes.md lists every code, in order"
    );
}

/// The pages are for users: none names a source file as where to read more. (The
/// service's notes, docs/service.md, are for whoever changes the simulator.)
#[test]
fn no_page_for_users_points_at_the_source() {
    for page in pages() {
        if page.ends_with("docs/service.md") {
            continue;
        }
        let text = read(&page);
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.contains("src/") && !line.contains(".rs`") && !line.contains(".rs)"),
                "{}:{}: {line}",
                page.display(),
                n + 1
            );
        }
    }
}

/// The README is read in ten minutes: at most 350 lines, a table of contents, and the
/// commands that install vantage and set it up.
#[test]
fn the_readme_stays_short_and_says_how_to_start() {
    let readme = read(&root().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= 350,
        "the README has {lines} lines; move detail to docs/"
    );
    assert!(
        readme.contains("## Contents"),
        "the README has no table of contents"
    );
    for command in [
        "cargo install --locked --path .",
        "cargo run --release -- --demo",
        "cargo test --locked",
    ] {
        assert!(
            readme.contains(command),
            "the README does not say {command}"
        );
    }
}
