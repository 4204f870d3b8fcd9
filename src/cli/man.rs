//! The manual: the top page, `vantage(1)` — clap_mangen's title, name, synopsis,
//! description and options, then the commands, the app's keys, the config file, the
//! environment, the files and the exit codes, so that it stands alone on a machine without
//! the README — and a page per subcommand at every depth (`vantage-track-report(1)`),
//! clap_mangen's whole. The top page names exactly the pages [`pages`] writes.

use clap::CommandFactory;
use roff::{Roff, bold, italic, roman};

use super::Cli;
use crate::keys::file::{action_name, context_name, contexts};
use crate::keys::keymap::{Context, Keymap};

/// What vantage reads from the environment.
const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "VANTAGE_TOKEN, MASSIVE_TOKEN",
        "The service's API token (before the config file's token). It is never printed, logged or stored.",
    ),
    (
        "VANTAGE_RENDER_URL, VANTAGE_SEARCH_URL",
        "The service's base URLs (the flags --render-url and --search-url win).",
    ),
    (
        "VANTAGE_PROXY_USERNAME, VANTAGE_PROXY_KEY",
        "The proxy network's user and key.",
    ),
    (
        "VANTAGE_CONFIG",
        "The config file to read instead of the platform's.",
    ),
    (
        "VANTAGE_DATA_DIR",
        "The data folder to use instead of the platform's: history, jobs, runs, the log.",
    ),
    (
        "VANTAGE_WORKSPACE",
        "The workspace file of brands and tracking sets (as --workspace).",
    ),
    (
        "VANTAGE_LOG",
        "What the log keeps, as a tracing filter (warn by default).",
    ),
    (
        "HTTPS_PROXY, HTTP_PROXY, NO_PROXY",
        "The proxy every call goes through, as curl reads them; the loopback is never proxied.",
    ),
    (
        "NO_COLOR",
        "Draws without colour; every view still tells its marks apart.",
    ),
];

/// Where vantage keeps what it reads and writes.
const FILES: &[(&str, &str)] = &[
    (
        "config.toml",
        "The config file, in the platform's config folder (~/.config/vantage on Linux): token, URLs, proxy, theme, [prices]. `vantage schema config` prints its schema.",
    ),
    (
        "keys.toml",
        "Beside the config file: the keys moved from their defaults. `vantage keys --template` starts one.",
    ),
    (
        "vantage.toml",
        "The workspace file, in the folder vantage runs in or a parent: tracked brands and tracking sets.",
    ),
    (
        "vantage.db",
        "In the data folder (~/.local/share/vantage on Linux): History, jobs, tracking runs and their readings.",
    ),
    (
        "demo/",
        "In the data folder: the demo's own store, log and simulated service (--demo), never mixed with live data.",
    ),
    (
        "vantage.log",
        "In the data folder: warnings and errors, never the token.",
    ),
];

/// The top page as roff, for `vantage man`.
pub fn page() -> Result<Vec<u8>, std::io::Error> {
    let command = built();
    let mut out = Vec::new();
    top_page(&command, &mut out)?;
    Ok(ascii(&out))
}

/// Every page, each with its file name: `vantage.1` first, then one per subcommand at every
/// depth, for `vantage man --dir`.
pub fn pages() -> Result<Vec<(String, Vec<u8>)>, std::io::Error> {
    let command = built();
    let mut top = Vec::new();
    top_page(&command, &mut top)?;
    let mut pages = vec![(format!("{}.1", command.get_name()), top)];
    for sub in every_subcommand(&command) {
        let man = clap_mangen::Man::new(sub.clone());
        let mut out = Vec::new();
        man.render(&mut out)?;
        let mut roff = Roff::new();
        roff.control("SH", ["SEE ALSO"]);
        roff.text([bold(command.get_name()), roman("(1)")]);
        roff.to_writer(&mut out)?;
        pages.push((man.get_filename(), ascii(&out)));
    }
    pages[0].1 = ascii(&pages[0].1);
    Ok(pages)
}

/// The page with every character beyond ASCII written as groff's `\[uXXXX]` escape: the
/// text (… — → ×) reads the same, and no formatter guesses the file's encoding.
fn ascii(page: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(page);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", u32::from(c)));
        }
    }
    out.into_bytes()
}

/// The command line, built: each subcommand then knows its page's name (`vantage-track-run`).
fn built() -> clap::Command {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    command
}

/// The visible subcommands at every depth, parents before their own.
fn every_subcommand(command: &clap::Command) -> Vec<&clap::Command> {
    let mut found = Vec::new();
    for sub in visible(command) {
        found.push(sub);
        found.extend(every_subcommand(sub));
    }
    found
}

/// A subcommand's page name: `vantage-track-run`.
fn page_name(command: &clap::Command) -> &str {
    command
        .get_display_name()
        .unwrap_or_else(|| command.get_name())
}

fn top_page(command: &clap::Command, out: &mut Vec<u8>) -> Result<(), std::io::Error> {
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    let mut roff = Roff::new();
    roff.control("SH", ["COMMANDS"]);
    roff.text([roman(
        "With no command vantage opens the app; ? in it lists every key. Each command has a page of its own, named under SEE ALSO, and its flags are in vantage COMMAND --help.",
    )]);
    for sub in visible(command) {
        list(&mut roff, "vantage", sub);
    }
    keys_section(&mut roff);
    configuration_section(&mut roff);
    section(&mut roff, "ENVIRONMENT", ENVIRONMENT.iter().copied());
    section(&mut roff, "FILES", FILES.iter().copied());
    let codes: Vec<(String, &str)> = crate::exit::MEANINGS
        .iter()
        .map(|(code, meaning)| (code.to_string(), *meaning))
        .collect();
    section(
        &mut roff,
        "EXIT STATUS",
        codes
            .iter()
            .map(|(code, meaning)| (code.as_str(), *meaning)),
    );
    roff.control("SH", ["SEE ALSO"]);
    // Page names are not hyphenated or stretched at the margin.
    roff.control("nh", []);
    roff.control("ad", ["l"]);
    let subs = every_subcommand(command);
    for (i, sub) in subs.iter().enumerate() {
        let comma = if i + 1 < subs.len() { "," } else { "" };
        roff.text([bold(page_name(sub)), roman(format!("(1){comma}"))]);
    }
    roff.control("PP", []);
    roff.text([roman(
        "vantage keys (the keys in effect); vantage schema config|workspace|keys|theme; vantage completions SHELL.",
    )]);
    roff.to_writer(out)?;
    Ok(())
}

/// The app's keys as `vantage keys` prints them with no keys.toml: a subsection per
/// context, each key with its action's name (what keys.toml moves) and what it does.
fn keys_section(roff: &mut Roff) {
    roff.control("SH", ["KEYS"]);
    roff.text([roman(
        "The app's default keys. keys.toml beside the config file moves them, an action under its context: [chat] then send = \"ctrl-s\". vantage keys prints the keys in effect.",
    )]);
    let keymap = Keymap::default();
    for context in contexts() {
        let bindings: Vec<_> = keymap.bindings(context).collect();
        if bindings.is_empty() {
            continue;
        }
        let heading = format!("{} ({})", context.title(), context_name(context));
        roff.control("SS", [heading.as_str()]);
        for binding in bindings {
            roff.control("TP", []);
            roff.text([bold(binding.label.as_str())]);
            if context == Context::TextField {
                roff.text([roman(binding.help)]);
            } else {
                roff.text([
                    italic(action_name(binding.action)),
                    roman(format!(": {}", binding.help)),
                ]);
            }
        }
    }
}

/// The config file's keys with what each means, read from its JSON Schema (the one
/// `vantage schema config` prints), so the two never differ.
fn configuration_section(roff: &mut Roff) {
    roff.control("SH", ["CONFIGURATION"]);
    roff.text([roman(
        "config.toml (see FILES) is TOML; every key is optional and an unknown key is refused. vantage schema config prints its JSON Schema.",
    )]);
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../schemas/config.schema.json")).unwrap_or_default();
    let Some(keys) = schema["properties"].as_object() else {
        return;
    };
    for (key, about) in keys {
        roff.control("TP", []);
        roff.text([bold(key.as_str())]);
        roff.text([roman(about["description"].as_str().unwrap_or_default())]);
        // A table's own keys, as [prices] has.
        if let Some(inner) = about["properties"].as_object() {
            for (name, what) in inner {
                let name = format!("{key}.{name}");
                roff.control("IP", [name.as_str()]);
                roff.text([roman(what["description"].as_str().unwrap_or_default())]);
            }
        }
    }
}

fn visible(command: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
}

/// A command and, under it, its own commands, each as `vantage a b`.
fn list(roff: &mut Roff, prefix: &str, command: &clap::Command) {
    let name = format!("{prefix} {}", command.get_name());
    let about = command
        .get_about()
        .map(|about| about.to_string())
        .unwrap_or_default();
    roff.control("TP", []);
    roff.text([bold(name.as_str())]);
    roff.text([roman(about)]);
    for sub in visible(command) {
        list(roff, &name, sub);
    }
}

fn section<'a>(roff: &mut Roff, title: &str, items: impl Iterator<Item = (&'a str, &'a str)>) {
    roff.control("SH", [title]);
    for (name, what) in items {
        roff.control("TP", []);
        roff.text([bold(name)]);
        roff.text([roman(what)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pages a page names under SEE ALSO, as `name(1)`.
    fn named_pages(page: &str) -> Vec<String> {
        let see_also = page.split(".SH \"SEE ALSO\"").nth(1).unwrap_or_default();
        see_also
            .split("\\fB")
            .skip(1)
            .filter_map(|part| part.split_once("\\fR(1)"))
            .map(|(name, _)| format!("{}.1", name.replace("\\-", "-")))
            .collect()
    }

    #[test]
    fn the_top_page_stands_alone() {
        let page = String::from_utf8(page().unwrap()).unwrap();
        for needed in [
            "COMMANDS",
            "vantage track run",
            "vantage history show",
            "KEYS",
            "select_tab_1",
            "CONFIGURATION",
            "reading_width",
            "prices.ai",
            "ENVIRONMENT",
            "VANTAGE_TOKEN",
            "FILES",
            "keys.toml",
            "EXIT STATUS",
        ] {
            assert!(page.contains(needed), "{needed} is missing");
        }
        for (code, _) in crate::exit::MEANINGS {
            assert!(page.contains(&format!("\\fB{code}\\fR")), "exit {code}");
        }
    }

    #[test]
    fn the_top_page_names_exactly_the_pages_written() {
        let pages = pages().unwrap();
        let written: Vec<&str> = pages.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(written[0], "vantage.1");
        for needed in [
            "vantage-ai.1",
            "vantage-track-report.1",
            "vantage-history-show.1",
        ] {
            assert!(written.contains(&needed), "{needed} in {written:?}");
        }
        let top = String::from_utf8(pages[0].1.clone()).unwrap();
        assert_eq!(named_pages(&top), written[1..], "{top}");
        // Each subcommand's page points back to the top page, which is written too.
        for (name, page) in &pages[1..] {
            let page = String::from_utf8(page.clone()).unwrap();
            assert_eq!(named_pages(&page), ["vantage.1"], "{name}");
        }
    }
}
