//! A mistake in one of the files a user writes to make vantage theirs (`keys.toml`, a theme):
//! named by file, line and key, as the config file's and the workspace's are.

use std::io::Read as _;
use std::path::{Path, PathBuf};

/// The most a file a user writes (the config, a workspace, `keys.toml`, a theme) may hold:
/// far above any real one, far below what would fill memory.
pub const LARGEST_USER_FILE: u64 = 4 << 20;

/// The text of a file a user writes; `None` when there is none. Refused before any read that
/// could block or never end: a FIFO (opening one waits for a writer), a device (`/dev/zero`
/// reads for ever), a socket or a folder, and a file larger than [`LARGEST_USER_FILE`].
pub fn read_text(path: &Path) -> std::io::Result<Option<String>> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    if !meta.is_file() {
        return Err(std::io::Error::other(
            "it is not a regular file (a pipe, a device, a socket or a folder), so it is not read",
        ));
    }
    let too_large = || {
        std::io::Error::other(format!(
            "it is larger than {} MB, which no such file is, so it is not read",
            LARGEST_USER_FILE >> 20
        ))
    };
    if meta.len() > LARGEST_USER_FILE {
        return Err(too_large());
    }
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    // A file that grows while it is read stops at the bound all the same.
    let mut bytes = Vec::new();
    file.take(LARGEST_USER_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > LARGEST_USER_FILE {
        return Err(too_large());
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

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

/// Every mistake of one file, in line order: a file is fixed in one go, not one mistake a
/// look. Never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileMistakes(Vec<FileMistake>);

impl FileMistakes {
    /// The mistakes sorted by line (those of one line in the order found); `None` for none.
    pub fn in_line_order(mut mistakes: Vec<FileMistake>) -> Option<Self> {
        mistakes.sort_by_key(|mistake| mistake.line);
        (!mistakes.is_empty()).then_some(FileMistakes(mistakes))
    }

    /// Each mistake, in line order: a line of its own where there is room (the CLI).
    pub fn all(&self) -> &[FileMistake] {
        &self.0
    }
}

impl From<FileMistake> for FileMistakes {
    fn from(mistake: FileMistake) -> Self {
        FileMistakes(vec![mistake])
    }
}

/// One sentence, for a status line: the mistake's own, or the file's with each mistake by
/// line.
impl std::fmt::Display for FileMistakes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [first, ..] = self.0.as_slice() else {
            return Ok(());
        };
        if self.0.len() == 1 {
            return first.fmt(f);
        }
        let each: Vec<String> = self
            .0
            .iter()
            .map(|m| format!("line {}{}: {}", m.line, at_key(&m.key), m.problem))
            .collect();
        write!(
            f,
            "{} has {} mistakes: {}.",
            first.path.display(),
            self.0.len(),
            each.join("; ")
        )
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

    #[cfg(unix)]
    #[test]
    fn special_and_huge_files_are_refused_before_they_are_read() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_text(&dir.path().join("none")).unwrap().is_none());
        assert!(read_text(Path::new("/dev/zero")).is_err());
        assert!(read_text(dir.path()).is_err());
        let fifo = dir.path().join("keys.toml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // Would block for ever if it were opened.
            assert!(read_text(&fifo).is_err());
        }
        let huge = dir.path().join("vantage.toml");
        std::fs::File::create(&huge)
            .unwrap()
            .set_len(LARGEST_USER_FILE + 1)
            .unwrap();
        let said = read_text(&huge).unwrap_err().to_string();
        assert!(said.contains("larger than 4 MB"), "{said}");
    }

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
    fn several_mistakes_are_said_in_line_order_in_one_sentence() {
        let text = "[normal]\nquit = 1\n\nup = 2";
        let at = |offset: usize, key: &str| {
            FileMistake::new(
                Path::new("/c/keys.toml"),
                text,
                offset,
                Some(key),
                "no".into(),
            )
        };
        let mistakes = FileMistakes::in_line_order(vec![at(19, "up"), at(9, "quit")]).unwrap();
        assert_eq!(mistakes.all()[0].line, 2);
        assert_eq!(
            mistakes.to_string(),
            "/c/keys.toml has 2 mistakes: line 2, at `quit`: no; line 4, at `up`: no."
        );
        assert_eq!(
            FileMistakes::from(at(9, "quit")).to_string(),
            at(9, "quit").to_string()
        );
        assert!(FileMistakes::in_line_order(Vec::new()).is_none());
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
