//! `vantage completions SHELL` and `vantage man`: written from the command-line definitions
//! themselves (clap_complete, clap_mangen), so they never drift from the flags.

use clap::CommandFactory;

use super::{Cli, err, out_as_received};
use crate::config::Config;
use crate::exit;
use crate::keys::file as keys_file;
use crate::keys::keymap::Keymap;

/// The variable the shell sets when it asks `vantage` itself for completions.
const COMPLETE_VAR: &str = "VANTAGE_COMPLETE";

/// Answers the shell's request for completions and exits, when the shell asked (the script
/// of `vantage completions` calls `vantage` with `VANTAGE_COMPLETE` set); else returns at
/// once. Call it first: nothing may be written before.
pub fn answer_the_shell() {
    clap_complete::CompleteEnv::with_factory(Cli::command)
        .var(COMPLETE_VAR)
        .complete();
}

/// The completion script of `shell` on stdout: it asks `vantage` at each Tab, so set names
/// come from the workspace file where the Tab is pressed, and models, flags and subcommands
/// from the command's own definitions.
pub fn completions(shell: clap_complete::Shell) -> i32 {
    let name = shell.to_string();
    let shells = clap_complete::env::Shells::builtins();
    let Some(completer) = shells.completer(&name) else {
        err(&format!("There is no completion script for {name}."));
        return exit::INVALID_INPUT;
    };
    let mut script = Vec::new();
    if let Err(error) =
        completer.write_registration(COMPLETE_VAR, "vantage", "vantage", "vantage", &mut script)
    {
        err(&format!(
            "The completion script could not be written: {error}."
        ));
        return exit::FAILURE;
    }
    write_out(&script)
}

/// The sets of the workspace file found from the current folder (or `VANTAGE_WORKSPACE`),
/// offered where a set's name goes; none when there is no file or it does not read.
pub fn set_candidates() -> Vec<clap_complete::engine::CompletionCandidate> {
    let explicit = std::env::var_os("VANTAGE_WORKSPACE").map(std::path::PathBuf::from);
    let Ok(folder) = std::env::current_dir() else {
        return Vec::new();
    };
    let Ok(Some(path)) = crate::analysis::workspace::locate(explicit.as_deref(), &folder) else {
        return Vec::new();
    };
    let Ok(workspace) = crate::analysis::workspace::Workspace::load(&path) else {
        return Vec::new();
    };
    let prices = crate::config::Config::load(&crate::config::Overrides::default())
        .map(|config| config.prices)
        .unwrap_or_default();
    workspace
        .sets()
        .iter()
        // A name a terminal would obey is not offered: the shell may print the candidates.
        .filter(|set| crate::sanitize::for_terminal(&set.name) == set.name.as_str())
        .map(|set| {
            clap_complete::engine::CompletionCandidate::new(set.name.clone())
                .help(Some(set.cost_in_words(&prices).into()))
        })
        .collect()
}

/// The files a JSON Schema is printed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemaFile {
    /// config.toml
    Config,
    /// vantage.toml
    Workspace,
    /// keys.toml, beside the config file
    Keys,
    /// a theme file
    Theme,
}

/// The JSON Schema of a file, for editors that check TOML (taplo, Even Better TOML).
pub fn schema(file: SchemaFile) -> i32 {
    // The keys' and the theme's are written from the keymap table and the theme's styles.
    let generated = |schema: serde_json::Value| {
        let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
        text.push('\n');
        text
    };
    let text = match file {
        SchemaFile::Config => include_str!("../../schemas/config.schema.json").to_string(),
        SchemaFile::Workspace => include_str!("../../schemas/workspace.schema.json").to_string(),
        SchemaFile::Keys => generated(keys_file::schema()),
        SchemaFile::Theme => generated(crate::theme::schema()),
    };
    write_out(text.as_bytes())
}

/// `vantage keys`: the keys in effect as a table per context; `--template`, a commented
/// `keys.toml` of every default. A broken `keys.toml` is said (file, line, key) and exits 2,
/// after the defaults the app would then use.
pub fn keys(config: &Config, template: bool) -> i32 {
    if template {
        return write_out(keys_file::template().as_bytes());
    }
    let path = config.keys_file();
    let (keymap, mistake) = match crate::user_file::read_text(&path) {
        Ok(Some(text)) => match keys_file::keymap_from(&text, &path) {
            Ok(keymap) => (keymap, None),
            // Each mistake on a line of its own, in line order.
            Err(mistakes) => {
                let mut lines: Vec<String> =
                    mistakes.all().iter().map(ToString::to_string).collect();
                // Said after them all, not as if of the last one alone.
                if lines.len() > 1 {
                    lines.push(String::new());
                }
                (Keymap::default(), Some(lines.join("\n")))
            }
        },
        Ok(None) => (Keymap::default(), None),
        Err(error) => (
            Keymap::default(),
            Some(format!("{} could not be read: {error}.", path.display())),
        ),
    };
    let source = match &mistake {
        None if path.exists() => format!("The defaults, with the keys of {}.", path.display()),
        _ => format!(
            "The defaults ({} moves them: `vantage keys --template` starts one).",
            path.display()
        ),
    };
    out_as_received(&format!("{source}\n\n{}", keys_file::tables(&keymap)));
    match mistake {
        Some(sentence) => {
            let gap = if sentence.ends_with('\n') { "" } else { " " };
            err(&format!(
                "{sentence}{gap}The default keys are in use until it is fixed."
            ));
            exit::INVALID_INPUT
        }
        None => exit::OK,
    }
}

/// The manual's top page (roff) on stdout; with `dir`, every page written into it.
pub fn man(dir: Option<&std::path::Path>) -> i32 {
    let Some(dir) = dir else {
        return match super::man::page() {
            Ok(page) => write_out(&page),
            Err(error) => {
                err(&format!("The man page could not be written: {error}."));
                exit::FAILURE
            }
        };
    };
    let written = super::man::pages().and_then(|pages| {
        std::fs::create_dir_all(dir)?;
        for (name, page) in &pages {
            crate::safe_file::write(&dir.join(name), page)?;
        }
        Ok(pages.len())
    });
    match written {
        Ok(count) => {
            err(&format!(
                "Wrote {} into {}: man -l {} opens the first.",
                crate::plural::count(count as u64, "page", "pages"),
                dir.display(),
                dir.join("vantage.1").display()
            ));
            exit::OK
        }
        Err(error) => {
            err(&format!(
                "The manual could not be written into {}: {error}. Give a folder you can write to.",
                dir.display()
            ));
            exit::FAILURE
        }
    }
}

/// Our own text, written as is into a pipe or a file (and cleaned on a terminal, as every
/// output is).
fn write_out(bytes: &[u8]) -> i32 {
    out_as_received(&String::from_utf8_lossy(bytes));
    exit::OK
}

/// The four models, where a model goes.
pub fn model_candidates() -> Vec<clap_complete::engine::CompletionCandidate> {
    crate::api::Model::ALL
        .iter()
        .map(|model| clap_complete::engine::CompletionCandidate::new(model.as_str()))
        .collect()
}

/// The four models and Google's AI Overview, where an answer's source goes.
pub fn source_candidates() -> Vec<clap_complete::engine::CompletionCandidate> {
    let mut candidates = model_candidates();
    candidates.push(
        clap_complete::engine::CompletionCandidate::new("ai-overview").help(Some(
            "Google's AI Overview for the prompt as search terms".into(),
        )),
    );
    candidates
}

/// The built-in themes, then theme files, where a theme goes.
pub fn theme_candidates(
    current: &std::ffi::OsStr,
) -> Vec<clap_complete::engine::CompletionCandidate> {
    use clap_complete::engine::{CompletionCandidate, PathCompleter, ValueCompleter};
    let typed = current.to_string_lossy();
    let mut candidates: Vec<CompletionCandidate> = crate::theme::BUILT_IN
        .iter()
        .filter(|name| name.starts_with(typed.as_ref()))
        .map(|name| CompletionCandidate::new(*name))
        .collect();
    candidates.extend(PathCompleter::file().complete(current));
    candidates
}
