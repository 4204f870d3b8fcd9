//! The files a user writes to make the app theirs: `keys.toml` beside the config file, and the
//! theme (a built-in one or a file). Read before the first frame, and again when the terminal
//! regains focus (back from the editor): only a file whose text changed is read into a message,
//! so a broken file is said once, and the app keeps what it had until the file is fixed.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::app::{App, FileUnusable, Msg, UserFile, keys_file};
use crate::theme::{Theme, ThemeChoice, theme_from};

/// Where the files are, and the text of each as last read (`None`: no file).
#[derive(Clone, Debug)]
pub struct UserFiles {
    keys: PathBuf,
    theme: ThemeChoice,
    seen: Arc<Mutex<Seen>>,
}

#[derive(Debug, Default)]
struct Seen {
    keys: Option<Option<String>>,
    theme: Option<Option<String>>,
}

/// A file's text, `None` when there is none.
fn read_text(path: &Path) -> Result<Option<String>, io::Error> {
    crate::user_file::read_text(path)
}

impl UserFiles {
    pub fn new(keys: PathBuf, theme: ThemeChoice) -> UserFiles {
        UserFiles {
            keys,
            theme,
            seen: Arc::default(),
        }
    }

    /// What changed since the last read, as messages for the app (none on the first read of
    /// files that are not there: the app starts with the defaults).
    pub fn read_changes(&self) -> Vec<Msg> {
        let mut seen = match self.seen.lock() {
            Ok(seen) => seen,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut changes = Vec::new();
        match read_text(&self.keys) {
            Ok(text) => {
                let first = seen.keys.is_none();
                if seen.keys.as_ref() != Some(&text) {
                    if !(first && text.is_none()) {
                        let keys = match &text {
                            Some(text) => keys_file::keymap_from(text, &self.keys)
                                .map(Box::new)
                                .map_err(FileUnusable::Mistake),
                            None => Ok(Box::default()),
                        };
                        changes.push(Msg::UserFileRead(UserFile::Keys(keys)));
                    }
                    seen.keys = Some(text);
                }
            }
            // Unreadable (a folder, no permission): said, and the keys in use stay.
            Err(error) => {
                let sentence = format!(
                    "{} could not be read: {error}. The keys in use stay until it can.",
                    self.keys.display()
                );
                changes.push(Msg::UserFileRead(UserFile::Keys(Err(
                    FileUnusable::Unreadable(sentence),
                ))));
                seen.keys = None;
            }
        }
        if let ThemeChoice::File(path) = &self.theme {
            let read = read_text(path);
            let text = read.as_ref().ok().cloned().flatten();
            let first = seen.theme.is_none();
            if first || seen.theme.as_ref() != Some(&text) {
                let theme = match (read, text.as_deref()) {
                    (Ok(_), Some(text)) => theme_from(text, path)
                        .map(Box::new)
                        .map_err(|mistake| FileUnusable::Mistake(mistake.into())),
                    (Ok(_), None) => Err(FileUnusable::Unreadable(format!(
                        "There is no theme file at {} (a relative path is looked for from the current folder when given with --theme, beside the config file when given in it), so the theme in use stays (at start, dark). Give `theme` in the config file (or --theme) dark, light, high-contrast or the path of a theme file.",
                        path.display()
                    ))),
                    (Err(error), _) => Err(FileUnusable::Unreadable(format!(
                        "The theme file {} could not be read: {error}. The theme in use stays.",
                        path.display()
                    ))),
                };
                changes.push(Msg::UserFileRead(UserFile::Theme(theme)));
                seen.theme = Some(text);
            }
        }
        changes
    }

    /// Before the first frame: the built-in theme chosen, then the files.
    pub fn apply_at_start(&self, app: &mut App) {
        if let ThemeChoice::BuiltIn(name) = &self.theme {
            app.theme = Theme::built_in(name).unwrap_or_default();
        }
        for msg in self.read_changes() {
            crate::app::update(app, msg);
        }
    }
}
