//! Settings: defaults, then the config file (TOML in the platform config dir), then the
//! environment, then command-line flags; each later one wins.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::api::{ClientSettings, Secret};
use crate::price::{PRICE_KEYS, Prices};
use crate::theme::ThemeChoice;

pub const DEFAULT_RENDER_URL: &str = "https://render.joinmassive.com";
pub const DEFAULT_SEARCH_URL: &str = "https://render.joinmassive.com";
pub const DEFAULT_PROXY_HOST: &str = "network.joinmassive.com";
pub const DEFAULT_ISP_PROXY_HOST: &str = "isp.joinmassive.com";
pub const DEFAULT_HISTORY_MAX_ENTRIES: usize = 5_000;
/// Answers wrap at most this wide, centred: long lines are hard to read.
pub const DEFAULT_READING_WIDTH: u16 = 100;
/// Narrower than this, a reading width would make prose harder to read, not easier.
const MIN_READING_WIDTH: u16 = 40;

/// The file, as a user writes it. Every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    render_url: Option<String>,
    search_url: Option<String>,
    token: Option<String>,
    timeout_secs: Option<u64>,
    proxy_host: Option<String>,
    isp_proxy_host: Option<String>,
    proxy_username: Option<String>,
    proxy_key: Option<String>,
    history_max_entries: Option<usize>,
    reading_width: Option<u16>,
    confirm_above: Option<u64>,
    theme: Option<String>,
    prices: Option<Prices>,
    safe_workspaces: Option<Vec<PathBuf>>,
    longest_job_wait_hours: Option<u64>,
}

/// Where the token in use came from, so messages can say where to change it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenSource {
    VantageEnv,
    MassiveEnv,
    ConfigFile,
    Demo,
}

impl TokenSource {
    pub fn describe(self) -> &'static str {
        match self {
            TokenSource::VantageEnv => "VANTAGE_TOKEN",
            TokenSource::MassiveEnv => "MASSIVE_TOKEN",
            TokenSource::ConfigFile => "the config file",
            TokenSource::Demo => "the demo simulator",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    pub render_url: String,
    pub search_url: String,
    pub token: Option<Secret>,
    pub token_source: Option<TokenSource>,
    pub timeout: Duration,
    pub proxy_host: String,
    pub isp_proxy_host: String,
    pub proxy_username: Option<String>,
    pub proxy_key: Option<Secret>,
    pub history_max_entries: usize,
    /// The widest that answers wrap, centred in a wider pane; 0 uses the whole pane.
    pub reading_width: u16,
    /// A comparison that would cost more credits than this asks for a confirmation first
    /// (`--yes` on the command line, `y` in the app).
    pub confirm_above: u64,
    /// Workspace files trusted above the current folder whoever owns them (see
    /// `analysis::workspace::trust`); a relative path is from the config file's folder.
    pub safe_workspaces: Vec<PathBuf>,
    /// How long a job is polled before it is expired (hours; see `jobs::Scheduler`).
    pub longest_job_wait_hours: u64,
    /// The theme: a built-in one, or a file (a relative path is from the current folder from
    /// `--theme`, beside the config file from its `theme` key).
    pub theme: ThemeChoice,
    /// What each call costs, in credits: the live service's prices unless `[prices]` says.
    pub prices: Prices,
    /// The file read, if there was one.
    pub config_file: PathBuf,
    /// Where history, jobs and the log live: the demo's own folder inside it with `--demo`
    /// ([`Config::keep_demo_apart`]).
    pub data_dir: PathBuf,
    /// True when the embedded simulator serves every call.
    pub demo: bool,
}

/// Values given on the command line.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub render_url: Option<String>,
    pub search_url: Option<String>,
    /// `--theme`: a built-in theme or a file (a relative path is from the current folder, as
    /// any path on a command line; `theme` in the config file is beside that file).
    pub theme: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("The config file {path} could not be read: {reason}. Fix or remove it.")]
    Unreadable { path: PathBuf, reason: String },
    /// The file is not valid: named by line and key, never by value (it may be the token).
    #[error(
        "The config file {path} has a mistake on line {line}{}: {problem}. Fix that line, or remove the file to use the defaults.",
        key_part(.key)
    )]
    Invalid {
        path: PathBuf,
        line: usize,
        key: Option<String>,
        problem: String,
    },
}

fn key_part(key: &Option<String>) -> String {
    key.as_ref()
        .map_or_else(String::new, |key| format!(", at `{key}`"))
}

/// The keys the file may hold, the only words of a line quoted back to the user.
const KNOWN_KEYS: [&str; 15] = [
    "render_url",
    "search_url",
    "token",
    "timeout_secs",
    "proxy_host",
    "isp_proxy_host",
    "proxy_username",
    "proxy_key",
    "history_max_entries",
    "reading_width",
    "confirm_above",
    "theme",
    "prices",
    "safe_workspaces",
    "longest_job_wait_hours",
];

/// Credits a comparison may cost before it asks for a confirmation.
pub const DEFAULT_CONFIRM_ABOVE: u64 = 500;

/// The demo's folder inside the data folder: its own store (history, jobs, runs), log and
/// simulator state, so that nothing simulated ever mixes with what the service answered.
pub const DEMO_FOLDER: &str = "demo";

/// Where `--demo` keeps its data, given the live data folder.
pub fn demo_data_dir(data_dir: &Path) -> PathBuf {
    data_dir.join(DEMO_FOLDER)
}

/// The config and data folders: `VANTAGE_CONFIG` / `VANTAGE_DATA_DIR` when set (tests and
/// portable installs), else the platform's folders.
fn default_paths() -> (PathBuf, PathBuf) {
    let dirs = directories::ProjectDirs::from("", "", "vantage");
    let config_file = std::env::var_os("VANTAGE_CONFIG")
        .map(PathBuf::from)
        .or_else(|| dirs.as_ref().map(|d| d.config_dir().join("config.toml")))
        .unwrap_or_else(|| PathBuf::from("vantage.toml"));
    let data_dir = std::env::var_os("VANTAGE_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs.as_ref().map(|d| d.data_dir().to_path_buf()))
        .unwrap_or_else(|| PathBuf::from(".vantage"));
    (config_file, data_dir)
}

fn non_empty_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

impl Config {
    /// Reads the config file (missing is fine), the environment and the flags.
    pub fn load(overrides: &Overrides) -> Result<Config, ConfigError> {
        let (config_file, data_dir) = default_paths();
        let file = read_file(&config_file)?;
        Ok(Config::assemble(
            file,
            overrides,
            config_file,
            data_dir,
            non_empty_env,
        ))
    }

    fn assemble(
        file: ConfigFile,
        overrides: &Overrides,
        config_file: PathBuf,
        data_dir: PathBuf,
        env: impl Fn(&str) -> Option<String>,
    ) -> Config {
        let pick =
            |flag: &Option<String>, env_name: &str, from_file: Option<String>, default: &str| {
                flag.clone()
                    .or_else(|| env(env_name))
                    .or(from_file)
                    .unwrap_or_else(|| default.to_string())
            };
        let render_url = pick(
            &overrides.render_url,
            "VANTAGE_RENDER_URL",
            file.render_url,
            DEFAULT_RENDER_URL,
        );
        let search_url = pick(
            &overrides.search_url,
            "VANTAGE_SEARCH_URL",
            file.search_url,
            DEFAULT_SEARCH_URL,
        );
        let (token, token_source) = [
            (env("VANTAGE_TOKEN"), TokenSource::VantageEnv),
            (env("MASSIVE_TOKEN"), TokenSource::MassiveEnv),
            (file.token, TokenSource::ConfigFile),
        ]
        .into_iter()
        .find_map(|(value, source)| value.and_then(Secret::new).map(|s| (s, source)))
        .map_or((None, None), |(s, source)| (Some(s), Some(source)));
        // A relative path is read from where it was written: the flag's from the folder the
        // command runs in (as the shell completed it), the config key's beside the config
        // file, so the file finds its theme wherever the app is started. The path is made
        // whole so that a sentence about it says where it was looked for.
        let whole = |folder: &Path| std::path::absolute(folder).unwrap_or(folder.into());
        let config_folder = config_file
            .parent()
            .filter(|folder| !folder.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let theme = match (overrides.theme.as_deref(), file.theme.as_deref()) {
            (Some(flag), _) => ThemeChoice::parse(flag, &whole(Path::new("."))),
            (None, Some(key)) => ThemeChoice::parse(key, &whole(config_folder)),
            (None, None) => ThemeChoice::default(),
        };
        Config {
            theme,
            prices: file.prices.unwrap_or_default(),
            render_url,
            search_url,
            token,
            token_source,
            timeout: Duration::from_secs(file.timeout_secs.unwrap_or(180).clamp(5, 3600)),
            proxy_host: file
                .proxy_host
                .unwrap_or_else(|| DEFAULT_PROXY_HOST.to_string()),
            isp_proxy_host: file
                .isp_proxy_host
                .unwrap_or_else(|| DEFAULT_ISP_PROXY_HOST.to_string()),
            proxy_username: env("VANTAGE_PROXY_USERNAME").or(file.proxy_username),
            proxy_key: env("VANTAGE_PROXY_KEY")
                .or(file.proxy_key)
                .and_then(Secret::new),
            history_max_entries: file
                .history_max_entries
                .unwrap_or(DEFAULT_HISTORY_MAX_ENTRIES),
            confirm_above: file.confirm_above.unwrap_or(DEFAULT_CONFIRM_ABOVE),
            longest_job_wait_hours: file
                .longest_job_wait_hours
                .unwrap_or(crate::jobs::DEFAULT_LONGEST_WAIT_HOURS)
                .max(1),
            safe_workspaces: file
                .safe_workspaces
                .unwrap_or_default()
                .into_iter()
                .map(|path| whole(config_folder).join(path))
                .collect(),
            reading_width: match file.reading_width.unwrap_or(DEFAULT_READING_WIDTH) {
                0 => 0,
                width => width.max(MIN_READING_WIDTH),
            },
            config_file,
            data_dir,
            demo: false,
        }
    }

    /// The demo's data in a folder of its own, beside the live store's.
    pub fn keep_demo_apart(&mut self) {
        self.data_dir = demo_data_dir(&self.data_dir);
    }

    /// Points every call at the embedded simulator.
    pub fn use_simulator(&mut self, url: &str, token: &str) {
        self.render_url = url.to_string();
        self.search_url = url.to_string();
        self.token = Secret::new(token);
        self.token_source = Some(TokenSource::Demo);
        self.demo = true;
    }

    /// `keys.toml`, beside the config file.
    pub fn keys_file(&self) -> PathBuf {
        self.config_file.with_file_name("keys.toml")
    }

    /// Where the user can set the token, for messages.
    pub fn token_hint(&self) -> String {
        format!("the config file {}", self.config_file.display())
    }

    pub fn client_settings(&self) -> ClientSettings {
        let mut settings =
            ClientSettings::new(&self.render_url, &self.search_url, self.token.clone());
        settings.timeout = self.timeout;
        settings.config_hint = self.token_hint();
        settings
    }
}

fn read_file(path: &Path) -> Result<ConfigFile, ConfigError> {
    let text = match crate::user_file::read_text(path) {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(ConfigFile::default()),
        Err(e) => {
            return Err(ConfigError::Unreadable {
                path: path.to_path_buf(),
                reason: e.to_string(),
            });
        }
    };
    toml::from_str(&text).map_err(|e| invalid_file(path, &text, &e))
}

/// The error for a file TOML refused, built from the error's position and message alone:
/// toml's own Display quotes the offending line, which may hold the token.
fn invalid_file(path: &Path, text: &str, error: &toml::de::Error) -> ConfigError {
    let start = error.span().map_or(0, |span| span.start).min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |at| at + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |at| start + at);
    let line_text = text.get(line_start..line_end).unwrap_or("");
    let (key_text, value_text) = line_text.split_once('=').unwrap_or(("", line_text));
    let key_text = key_text.trim().trim_matches(['"', '\'']);
    let unknown = unknown_field(error.message());
    // A line under `[prices]` names a price, not a setting.
    let in_prices = text[..line_start]
        .lines()
        .rev()
        .find_map(|line| line.trim().strip_prefix('['))
        .is_some_and(|header| header.trim_end_matches(']').trim() == "prices");
    let (known_keys, table, what): (&[&str], &str, &str) = if in_prices {
        (&PRICE_KEYS, "prices.", "price")
    } else {
        (&KNOWN_KEYS, "", "setting")
    };
    let key = known_keys
        .iter()
        .find(|known| **known == key_text)
        .map(|known| known.to_string())
        .or_else(|| unknown.clone())
        .map(|name| format!("{table}{name}"));
    let problem = match unknown {
        Some(name) => format!(
            "`{name}` is not a {what} (the {what}s are {})",
            known_keys.join(", ")
        ),
        None => describe(error.message()),
    };
    ConfigError::Invalid {
        path: path.to_path_buf(),
        line: text[..line_start].matches('\n').count() + 1,
        key,
        problem: without_value(problem, value_text),
    }
}

/// The field named by serde's "unknown field `x`, expected one of …".
fn unknown_field(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    rest.split_once('`').map(|(name, _)| name.to_string())
}

/// toml's message in words that never repeat the value: serde's "invalid type: string
/// \"…\", expected u64" quotes it, so type errors are rephrased from their kinds alone.
fn describe(message: &str) -> String {
    let first_line = message.lines().next().unwrap_or("").trim();
    let Some(rest) = first_line
        .strip_prefix("invalid type: ")
        .or_else(|| first_line.strip_prefix("invalid value: "))
    else {
        return first_line.to_string();
    };
    let found = rest.split_whitespace().next().unwrap_or("value");
    let expected = match rest.rsplit_once("expected ").map(|(_, e)| e.trim()) {
        Some("u64" | "usize" | "u32" | "u16") => "a whole number",
        Some("a string") => "text in quotes",
        Some("a boolean") => "true or false",
        _ => "another kind of value",
    };
    if first_line.starts_with("invalid value") {
        format!("the {found} is out of range; it should be {expected}")
    } else {
        format!("the value is a {found} but should be {expected}")
    }
}

/// A last guard: if the problem still shows any part of the line's value, it is replaced.
fn without_value(problem: String, value_text: &str) -> String {
    let value: Vec<char> = value_text
        .trim()
        .trim_matches(['"', '\''])
        .chars()
        .collect();
    let window = value.len().min(6);
    let leaks = window >= 3
        && value
            .windows(window)
            .any(|part| problem.contains(&part.iter().collect::<String>()));
    if leaks {
        "the value could not be read".to_string()
    } else {
        problem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn flags_win_over_env_and_env_over_file() {
        let file: ConfigFile = toml::from_str(
            "render_url = \"https://file.example\"\nsearch_url = \"https://file-search.example\"\ntoken = \"from-file\"",
        )
        .unwrap();
        let overrides = Overrides {
            render_url: Some("https://flag.example".into()),
            search_url: None,
            theme: None,
        };
        let config = Config::assemble(
            file,
            &overrides,
            PathBuf::from("c.toml"),
            PathBuf::from("d"),
            env_of(&[
                ("VANTAGE_SEARCH_URL", "https://env-search.example"),
                ("MASSIVE_TOKEN", "from-massive"),
            ]),
        );
        assert_eq!(config.render_url, "https://flag.example");
        assert_eq!(config.search_url, "https://env-search.example");
        assert_eq!(
            config.token.as_ref().map(Secret::expose),
            Some("from-massive")
        );
        assert_eq!(config.token_source, Some(TokenSource::MassiveEnv));
    }

    #[test]
    fn a_relative_theme_is_beside_the_config_file_from_the_file_and_from_here_from_the_flag() {
        let folder = std::path::absolute("/home/u/.config/vantage").unwrap();
        let assemble = |file: ConfigFile, flag: Option<&str>| {
            let overrides = Overrides {
                theme: flag.map(str::to_string),
                ..Overrides::default()
            };
            Config::assemble(
                file,
                &overrides,
                folder.join("config.toml"),
                PathBuf::from("d"),
                env_of(&[]),
            )
            .theme
        };
        let in_file: ConfigFile = toml::from_str("theme = \"paper.toml\"").unwrap();
        assert_eq!(
            assemble(in_file, None),
            ThemeChoice::File(folder.join("paper.toml"))
        );
        let here = std::path::absolute(".").unwrap();
        assert_eq!(
            assemble(ConfigFile::default(), Some("paper.toml")),
            ThemeChoice::File(here.join("paper.toml"))
        );
        // The flag wins over the file; a built-in name stays a name.
        let in_file: ConfigFile = toml::from_str("theme = \"paper.toml\"").unwrap();
        assert_eq!(
            assemble(in_file, Some("light")),
            ThemeChoice::BuiltIn("light")
        );
        // A config file named by a relative path still gives a whole path to look at.
        let relative = Config::assemble(
            toml::from_str("theme = \"paper.toml\"").unwrap(),
            &Overrides::default(),
            PathBuf::from("c.toml"),
            PathBuf::from("d"),
            env_of(&[]),
        );
        let ThemeChoice::File(path) = relative.theme else {
            panic!("a theme file")
        };
        assert!(path.is_absolute(), "{}", path.display());
    }

    #[test]
    fn vantage_token_wins_over_massive_token_and_defaults_apply() {
        let config = Config::assemble(
            ConfigFile::default(),
            &Overrides::default(),
            PathBuf::from("c.toml"),
            PathBuf::from("d"),
            env_of(&[("VANTAGE_TOKEN", "v"), ("MASSIVE_TOKEN", "m")]),
        );
        assert_eq!(config.token.as_ref().map(Secret::expose), Some("v"));
        assert_eq!(config.render_url, DEFAULT_RENDER_URL);
        assert_eq!(config.timeout, Duration::from_secs(180));
    }

    #[test]
    fn the_reading_width_defaults_to_100_and_0_means_the_whole_pane() {
        let width = |text: &str| {
            let file: ConfigFile = toml::from_str(text).unwrap();
            let dir = PathBuf::from("d");
            let config = Config::assemble(file, &Overrides::default(), dir.clone(), dir, |_| None);
            config.reading_width
        };
        assert_eq!(width(""), DEFAULT_READING_WIDTH);
        assert_eq!(width("reading_width = 72"), 72);
        assert_eq!(width("reading_width = 0"), 0);
        assert_eq!(width("reading_width = 10"), MIN_READING_WIDTH);
    }

    #[test]
    fn unknown_keys_in_the_file_are_reported() {
        assert!(toml::from_str::<ConfigFile>("tokne = \"x\"").is_err());
    }

    const SECRET: &str = "sk-live-9f8e7d6c5b4a";

    fn error_for(text: &str) -> String {
        let path = Path::new("/home/u/.config/vantage/config.toml");
        let error = toml::from_str::<ConfigFile>(text).expect_err("malformed");
        invalid_file(path, text, &error).to_string()
    }

    #[test]
    fn malformed_files_are_named_by_line_and_key_never_by_value() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            (
                "render_url = \"https://x.example\"\ntoken = \"SECRET",
                "line 2",
                Some("token"),
            ),
            ("token = SECRET", "line 1", Some("token")),
            (
                "token = \"SECRET\"\ntoken = \"SECRET\"",
                "line 2",
                Some("token"),
            ),
            ("timeout_secs = \"SECRET\"", "line 1", Some("timeout_secs")),
            ("tokne = \"SECRET\"", "line 1", Some("tokne")),
            ("token = \"SECRET\\q\"", "line 1", Some("token")),
            ("token = 'SECRET'\n[x", "line 2", None),
            ("\n\ntoken = \"\"\"SECRET\nmore SECRET", "line 4", None),
            ("token = \"SECRET\" SECRET", "line 1", Some("token")),
            (
                "proxy_key = \"SECRET\"\nhistory_max_entries = -SECRET",
                "line 2",
                Some("history_max_entries"),
            ),
        ];
        for (template, line, key) in cases {
            let text = template.replace("SECRET", SECRET);
            let message = error_for(&text);
            assert!(!message.contains(SECRET), "{message}");
            assert!(!message.contains("sk-live"), "{message}");
            assert!(!message.contains("9f8e"), "{message}");
            assert!(message.contains("config.toml"), "{message}");
            assert!(message.contains(line), "{text:?}: {message}");
            if let Some(key) = key {
                assert!(message.contains(&format!("`{key}`")), "{text:?}: {message}");
            }
            assert_eq!(message.lines().count(), 1, "one sentence: {message}");
            assert!(message.ends_with('.'), "{message}");
        }
    }

    #[test]
    fn prices_are_read_from_their_table_and_checked() {
        let file: ConfigFile = toml::from_str("[prices]\nai = 7\nsearch = 0").unwrap();
        let dir = PathBuf::from("d");
        let config = Config::assemble(file, &Overrides::default(), dir.clone(), dir, |_| None);
        assert_eq!(config.prices.ai, 7);
        assert_eq!(config.prices.search, 0);
        assert_eq!(config.prices.browser, Prices::default().browser);
        let message = error_for("theme = \"dark\"\n[prices]\nai = 5\ngpt = 5");
        assert!(message.contains("line 4, at `prices.gpt`"), "{message}");
        assert!(
            message.contains("`gpt` is not a price (the prices are ai, search"),
            "{message}"
        );
        let message = error_for("[prices]\nai = -5");
        assert!(message.contains("line 2, at `prices.ai`"), "{message}");
        assert!(message.contains("should be a whole number"), "{message}");
        let message = error_for("[prices]\nsearch = \"cheap\"");
        assert!(message.contains("should be a whole number"), "{message}");
    }

    #[test]
    fn a_type_mistake_says_what_was_expected() {
        let message = error_for("timeout_secs = \"soon\"");
        assert!(message.contains("should be a whole number"), "{message}");
        let message = error_for("token = 42");
        assert!(message.contains("should be text in quotes"), "{message}");
    }
}
