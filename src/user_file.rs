//! A mistake in one of the files a user writes to make vantage theirs (`keys.toml`, a theme):
//! named by file, line and key, as the config file's and the workspace's are.

use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path} has a mistake on line {line}{}: {problem}.", at_key(.key))]
pub struct FileMistake {
    pub path: PathBuf,
    pub line: usize,
    /// The TOML key the mistake is at, when there is one.
    pub key: Option<String>,
    pub problem: String,
}

fn at_key(key: &Option<String>) -> String {
    key.as_ref()
        .map_or_else(String::new, |key| format!(", at `{key}`"))
}

impl FileMistake {
    pub fn new(path: &Path, text: &str, offset: usize, key: Option<&str>, problem: String) -> Self {
        FileMistake {
            path: path.to_path_buf(),
            line: line_of(text, offset),
            key: key.map(str::to_string),
            problem,
        }
    }

    /// The mistake TOML itself found (a broken line, a value of the wrong kind), by its span.
    pub fn from_toml(path: &Path, text: &str, error: &toml::de::Error) -> Self {
        let offset = error.span().map_or(0, |span| span.start);
        let problem = error
            .message()
            .lines()
            .next()
            .unwrap_or("it is not valid TOML")
            .trim()
            .trim_end_matches('.')
            .to_string();
        FileMistake::new(path, text, offset, None, problem)
    }
}

/// The 1-based line of a byte offset, clamped to the text's lines: an offset at the end
/// of a file that ends with a newline is its last line, not one past it.
pub fn line_of(text: &str, offset: usize) -> usize {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let line = text[..end].matches('\n').count() + 1;
    line.min(text.lines().count().max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_from_one_and_offsets_past_the_end_are_the_last_line() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 99), 3);
        assert_eq!(line_of("é\né", 1), 1);
        // A file of two lines ending with a newline has no third line to name.
        assert_eq!(line_of("a\nb\n", 4), 2);
        assert_eq!(line_of("", 0), 1);
    }

    #[test]
    fn the_sentence_names_file_line_and_key() {
        let mistake = FileMistake::new(
            Path::new("/c/keys.toml"),
            "[normal]\nquit = 1",
            9,
            Some("quit"),
            "no".into(),
        );
        assert_eq!(
            mistake.to_string(),
            "/c/keys.toml has a mistake on line 2, at `quit`: no."
        );
    }
}
