//! The app's reference (docs/app.md) shows each tab as it looks: its text captures are the
//! 80×24 snapshots of `ui_narrow`. A capture follows a marker naming its snapshot,
//! `<!-- capture: ui__ui_narrow__chat -->`, in the next code block. A view change that
//! updates a snapshot fails here until the page shows it too; run with
//! `VANTAGE_UPDATE_README=1` to copy the snapshots in. The key tables of docs/keys.md are
//! held to the keymap the same way.

use std::path::{Path, PathBuf};

const MARKER: &str = "<!-- capture: ";

/// The tabs (and the help overlay) docs/app.md must show.
const REQUIRED: &[&str] = &[
    "ui__ui_narrow__chat",
    "ui__ui_narrow__search",
    "ui__ui_narrow__jobs",
    "ui__ui_narrow__history",
    "ui__ui_narrow__compare_summary",
    "ui__ui_narrow__proxy",
    "ui__ui_narrow__help",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A snapshot's screen as plain lines: insta's header dropped, the quotes `TestBackend`
/// puts around each row removed, trailing blanks trimmed.
fn screen_of(snapshot: &Path) -> Vec<String> {
    let text =
        std::fs::read_to_string(snapshot).unwrap_or_else(|e| panic!("{}: {e}", snapshot.display()));
    let body = text.splitn(3, "---\n").nth(2).unwrap_or_default();
    body.lines()
        .map(|line| {
            let row = line.strip_prefix('"').unwrap_or(line);
            let row = match row.rfind("\" Hidden by multi-width symbols: ") {
                Some(end) => &row[..end],
                None => row.strip_suffix('"').unwrap_or(row),
            };
            row.trim_end().to_string()
        })
        .collect()
}

/// One capture in a page: the snapshot it names and the lines of its code block.
struct Capture {
    name: String,
    /// Line numbers (0-based) of the block's fences.
    open: usize,
    close: usize,
}

fn captures(readme: &[&str]) -> Vec<Capture> {
    let mut found = Vec::new();
    for (i, line) in readme.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix(MARKER) else {
            continue;
        };
        let name = rest.trim_end_matches("-->").trim().to_string();
        let open = (i + 1..readme.len())
            .find(|&j| readme[j].starts_with("```"))
            .unwrap_or_else(|| panic!("no code block after the capture of {name}"));
        let close = (open + 1..readme.len())
            .find(|&j| readme[j].starts_with("```"))
            .unwrap_or_else(|| panic!("the code block of {name} is not closed"));
        found.push(Capture { name, open, close });
    }
    found
}

#[test]
fn the_captures_of_the_app_are_the_current_snapshots() {
    let path = root().join("docs/app.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let readme: Vec<&str> = text.lines().collect();
    let captures = captures(&readme);
    let names: Vec<&str> = captures.iter().map(|c| c.name.as_str()).collect();
    for required in REQUIRED {
        assert!(
            names.contains(required),
            "docs/app.md shows no capture of {required}"
        );
    }
    let update = std::env::var_os("VANTAGE_UPDATE_README").is_some();
    let mut out: Vec<String> = Vec::new();
    let mut next = 0;
    let mut stale = Vec::new();
    for capture in &captures {
        let snapshot = root()
            .join("tests/snapshots")
            .join(format!("{}.snap", capture.name));
        let screen = screen_of(&snapshot);
        let shown: Vec<String> = readme[capture.open + 1..capture.close]
            .iter()
            .map(|l| l.trim_end().to_string())
            .collect();
        if shown != screen {
            stale.push(format!(
                "{} differs from its snapshot; it should read:\n{}",
                capture.name,
                screen.join("\n")
            ));
        }
        out.extend(readme[next..=capture.open].iter().map(|l| l.to_string()));
        out.extend(screen);
        next = capture.close;
    }
    out.extend(readme[next..].iter().map(|l| l.to_string()));
    if update && !stale.is_empty() {
        std::fs::write(&path, out.join("\n") + "\n").unwrap();
        return;
    }
    assert!(
        stale.is_empty(),
        "docs/app.md's captures are out of date (VANTAGE_UPDATE_README=1 copies the snapshots in):\n{}",
        stale.join("\n\n")
    );
}

#[test]
fn a_changed_screen_is_caught() {
    let readme = [
        "<!-- capture: ui__ui_narrow__chat -->",
        "```text",
        "not the chat tab",
        "```",
    ];
    let captures = captures(&readme);
    assert_eq!(captures.len(), 1);
    let screen = screen_of(&root().join("tests/snapshots/ui__ui_narrow__chat.snap"));
    assert_eq!(screen.len(), 24);
    assert!(screen[0].contains("Chat"));
    let shown = &readme[captures[0].open + 1..captures[0].close];
    assert_ne!(shown, screen.as_slice());
}

/// The tables of docs/keys.md are those `vantage keys` prints for the defaults: written from
/// the keymap table, never by hand. `VANTAGE_UPDATE_README=1` writes them in.
#[test]
fn the_key_tables_of_the_reference_are_the_keymap() {
    let path = root().join("docs/keys.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (start, end) = ("<!-- keys:start -->\n", "<!-- keys:end -->");
    let from = text
        .find(start)
        .expect("docs/keys.md has the keys' markers")
        + start.len();
    let to = text[from..].find(end).expect("the keys' markers close") + from;
    let tables = format!(
        "\n{}\n",
        vantage::app::keys_file::tables(&vantage::app::keymap::Keymap::default())
    );
    if text[from..to] == tables {
        return;
    }
    if std::env::var_os("VANTAGE_UPDATE_README").is_some() {
        std::fs::write(&path, format!("{}{tables}{}", &text[..from], &text[to..])).unwrap();
        return;
    }
    panic!(
        "the key tables of docs/keys.md differ from the keymap; run with VANTAGE_UPDATE_README=1"
    );
}
