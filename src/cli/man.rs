//! The man page: clap_mangen's title, name, synopsis, description and options, then what it
//! would leave out or name wrongly. There is one page, so the commands are listed as
//! `vantage COMMAND` (not as pages of their own); then the environment, the files and the
//! exit codes, so that the page stands alone on a machine without the README.

use clap::CommandFactory;
use roff::{Roff, bold, roman};

use super::Cli;

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

/// The man page as roff.
pub fn page() -> Result<Vec<u8>, std::io::Error> {
    let command = Cli::command();
    let man = clap_mangen::Man::new(command.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    let mut roff = Roff::new();
    roff.control("SH", ["COMMANDS"]);
    roff.text([roman(
        "With no command vantage opens the app; ? in it lists every key. Each command's flags: vantage COMMAND --help.",
    )]);
    for sub in visible(&command) {
        list(&mut roff, "vantage", sub);
    }
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
    roff.text([roman(
        "vantage COMMAND --help; vantage keys (the keys in effect); vantage schema config|workspace|keys|theme; vantage completions SHELL.",
    )]);
    roff.to_writer(&mut out)?;
    Ok(out)
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

    #[test]
    fn the_page_names_no_page_that_does_not_exist_and_stands_alone() {
        let page = String::from_utf8(page().unwrap()).unwrap();
        assert!(!page.contains("vantage-ai(1)") && !page.contains("-track(1)"));
        for needed in [
            "COMMANDS",
            "vantage track run",
            "vantage history search",
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
}
