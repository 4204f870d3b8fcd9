//! Settings: defaults, then the config file (TOML in the platform config dir), then the
//! environment, then command-line flags; each later one wins.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::api::{ClientSettings, Secret};

pub const DEFAULT_RENDER_URL: &str = "https://render.joinmassive.com";
pub const DEFAULT_SEARCH_URL: &str = "https://render.joinmassive.com";
pub const DEFAULT_PROXY_HOST: &str = "network.joinmassive.com";
pub const DEFAULT_ISP_PROXY_HOST: &str = "isp.joinmassive.com";
pub const DEFAULT_HISTORY_MAX_ENTRIES: usize = 5_000;

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
    /// The file read, if there was one.
    pub config_file: PathBuf,
    /// Where history, jobs, the log and the demo simulator's state live.
    pub data_dir: PathBuf,
    /// True when the embedded simulator serves every call.
    pub demo: bool,
}

/// Values given on the command line.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub render_url: Option<String>,
    pub search_url: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("The config file {path} could not be read: {reason}. Fix or remove it.")]
    Unreadable { path: PathBuf, reason: String },
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
        Config {
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
            config_file,
            data_dir,
            demo: false,
        }
    }

    /// Points every call at the embedded simulator.
    pub fn use_simulator(&mut self, url: &str, token: &str) {
        self.render_url = url.to_string();
        self.search_url = url.to_string();
        self.token = Secret::new(token);
        self.token_source = Some(TokenSource::Demo);
        self.demo = true;
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
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ConfigFile::default()),
        Err(e) => {
            return Err(ConfigError::Unreadable {
                path: path.to_path_buf(),
                reason: e.to_string(),
            });
        }
    };
    toml::from_str(&text).map_err(|e| ConfigError::Unreadable {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })
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
    fn unknown_keys_in_the_file_are_reported() {
        assert!(toml::from_str::<ConfigFile>("tokne = \"x\"").is_err());
    }
}
