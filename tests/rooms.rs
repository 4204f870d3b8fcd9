//! The rooms of ARCHITECTURE.md kept apart, checked on the sources: `analysis` takes nothing
//! from `present`, the views nothing from `store`, the terminal nothing from the CLI, and no
//! file of one tab in `src/app/` imports another tab's file (a tab asks through `app::hub`).

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Each tab, and the files (or folders) under `src/app/` that hold it.
const TABS: &[(&str, &[&str])] = &[
    ("chat", &["chat.rs", "chat_settings.rs"]),
    ("brands", &["brands.rs"]),
    ("history", &["history.rs"]),
    ("page", &["page.rs"]),
    ("jobs_tab", &["jobs_tab.rs"]),
    ("track", &["track.rs"]),
    ("usage", &["usage.rs"]),
    ("search", &["search"]),
    ("compare", &["compare"]),
    ("proxy", &["proxy"]),
];

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The file's code without its tests (a test may reach anywhere).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

#[test]
fn rooms_do_not_import_from_the_rooms_above_them() {
    for (room, forbidden) in [
        ("src/analysis", "crate::present"),
        ("src/ui", "crate::store"),
        ("src/tui", "crate::cli"),
        ("src/cli", "crate::app"),
        ("src/keys", "crate::app"),
    ] {
        for file in rust_files(&Path::new(ROOT).join(room)) {
            let code = std::fs::read_to_string(&file).unwrap();
            assert!(
                !code.contains(forbidden),
                "{} uses {forbidden}",
                file.display()
            );
        }
    }
}

/// The modules of `src/app/` a piece of code names: `crate::app::x`, and `super::x` (or
/// `super::super::x` one folder down), grouped imports (`super::{x, y::z}`) included.
fn app_modules_named(code: &str, depth: usize) -> Vec<String> {
    let prefixes: Vec<String> = match depth {
        0 => vec!["crate::app::".into(), "super::".into()],
        _ => vec!["crate::app::".into(), "super::super::".into()],
    };
    let mut names = Vec::new();
    for prefix in &prefixes {
        let mut from = 0;
        while let Some(at) = code[from..].find(prefix.as_str()) {
            let start = from + at + prefix.len();
            from = start;
            // `super::super::x` is not `super::x`: only whole prefixes count.
            let before = &code[..start - prefix.len()];
            if prefix == "super::"
                && (before.ends_with("super::") || code[start..].starts_with("super::"))
            {
                continue;
            }
            let rest = &code[start..];
            if let Some(group) = rest.strip_prefix('{') {
                let mut level = 0;
                let mut item = String::new();
                let mut items = Vec::new();
                for c in group.chars() {
                    match c {
                        '{' => level += 1,
                        '}' if level == 0 => break,
                        '}' => level -= 1,
                        ',' if level == 0 => items.push(std::mem::take(&mut item)),
                        _ => {}
                    }
                    if level == 0 && c != ',' {
                        item.push(c);
                    }
                }
                items.push(item);
                for item in items {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    names.push(name);
                }
            } else {
                names.push(
                    rest.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect(),
                );
            }
        }
    }
    names
}

#[test]
fn no_tab_file_imports_another_tab_file() {
    let app = Path::new(ROOT).join("src/app");
    // The tab a module or file belongs to: `chat_settings` is Chat's.
    let tab_of = |name: &str| {
        TABS.iter()
            .find(|(_, files)| {
                files.contains(&name) || files.contains(&format!("{name}.rs").as_str())
            })
            .map(|(tab, _)| *tab)
    };
    let mut crossings = Vec::new();
    for file in rust_files(&app) {
        let relative = file
            .strip_prefix(&app)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if relative.ends_with("tests.rs") {
            continue;
        }
        let top = relative.split('/').next().unwrap().to_string();
        let Some(own) = tab_of(&top) else {
            continue; // a shared file: it may use any tab
        };
        // In `search/mod.rs`, `super::` is `app`; in `search/page.rs` it is `search`.
        let depth = match relative.matches('/').count() {
            0 => 0,
            _ if relative.ends_with("/mod.rs") => 0,
            _ => 1,
        };
        for named in app_modules_named(&code_of(&file), depth) {
            if tab_of(&named).is_some_and(|tab| tab != own) {
                crossings.push(format!("{relative} imports {named}"));
            }
        }
    }
    assert!(
        crossings.is_empty(),
        "tab files import other tabs: {crossings:#?}"
    );
}

#[test]
fn the_check_finds_imports_written_every_way() {
    let code = "use super::chat::ChatFocus;\nuse super::{brands, search::{SearchFocus, x}};\nlet a = crate::app::page::f();\nsuper::super::proxy::g();";
    assert_eq!(
        app_modules_named(code, 0),
        ["page", "chat", "brands", "search"]
    );
    assert_eq!(app_modules_named(code, 1), ["page", "proxy"]);
}
