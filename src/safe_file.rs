//! The one way vantage writes a file (a workspace, remembered settings, a report or an
//! export with `-o`, manual pages, completions): into a new temporary file beside the
//! target, made with `create_new` under a random name (a planted name or symlink is never
//! opened), with the original's mode; flushed to disk and renamed over the target only
//! when whole. A symlinked target is written through: the file it points to is replaced and
//! the link stays. On any failure the old file is untouched and the temporary one removed.

use std::fs::Permissions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How many links are followed before a path is taken for a loop (Linux's own bound).
const MOST_LINKS: usize = 40;

/// The file a path names once its symlinks are followed (itself when it is none or does not
/// exist yet). A relative link is read from the folder holding it.
pub fn resolved(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MOST_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(folder) if link.is_relative() => folder.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(at),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(at),
            Err(error) => return Err(error),
        }
    }
    Err(io::Error::other(format!(
        "{} is a loop of symbolic links",
        path.display()
    )))
}

/// A file being written: nothing is at its path until [`SafeFile::commit`].
pub struct SafeFile {
    temporary: tempfile::NamedTempFile,
    target: PathBuf,
    /// The original's mode, set again after the umask had its say.
    keep: Option<Permissions>,
    overwrite: bool,
}

impl SafeFile {
    /// Starts replacing `path` (or making it, in a folder that exists).
    pub fn create(path: &Path) -> io::Result<Self> {
        Self::start(path, true)
    }

    /// Starts making `path`; the commit fails with `AlreadyExists` when it exists by then.
    pub fn create_new(path: &Path) -> io::Result<Self> {
        Self::start(path, false)
    }

    fn start(path: &Path, overwrite: bool) -> io::Result<Self> {
        let target = resolved(path)?;
        let existing = match std::fs::metadata(&target) {
            Ok(meta) if !meta.is_file() => {
                return Err(io::Error::other(format!(
                    "{} is not a regular file",
                    target.display()
                )));
            }
            Ok(_) if !overwrite => return Err(io::ErrorKind::AlreadyExists.into()),
            Ok(meta) => Some(meta.permissions()),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(error),
        };
        let folder = match target.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .map_or_else(|| "file".into(), |name| name.to_string_lossy().into_owned());
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".partial");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            // A new file gets what `File::create` gives it (0666 less the umask).
            builder.permissions(
                existing
                    .clone()
                    .unwrap_or_else(|| Permissions::from_mode(0o666)),
            );
        }
        let temporary = builder.tempfile_in(&folder)?;
        Ok(SafeFile {
            temporary,
            target,
            keep: existing,
            overwrite,
        })
    }

    /// Puts the whole file in place: flushed, its mode kept, renamed over the target.
    pub fn commit(mut self) -> io::Result<()> {
        self.temporary.flush()?;
        if let Some(permissions) = self.keep.take() {
            self.temporary.as_file().set_permissions(permissions)?;
        }
        self.temporary.as_file().sync_all()?;
        let placed = match self.overwrite {
            true => self.temporary.persist(&self.target),
            false => self.temporary.persist_noclobber(&self.target),
        };
        placed.map(|_| ()).map_err(|failed| failed.error)
    }
}

impl Write for SafeFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.temporary.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.temporary.flush()
    }
}

/// Replaces (or makes) `path` with `contents`, whole or not at all.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    let mut file = SafeFile::create(path)?;
    file.write_all(contents.as_ref())?;
    file.commit()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt as _, symlink};

    #[test]
    fn a_planted_symlink_at_any_temporary_name_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "kept").unwrap();
        let target = dir.path().join("vantage.toml");
        for planted in ["vantage.toml.saving", ".vantage.toml.partial"] {
            symlink(&victim, dir.path().join(planted)).unwrap();
        }
        write(&target, "[[brands]]\n").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "kept");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "[[brands]]\n");
    }

    #[test]
    fn a_symlinked_target_is_written_through_and_the_link_stays() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        let real = dir.path().join("real/vantage.toml");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("vantage.toml");
        symlink("real/vantage.toml", &link).unwrap();
        write(&link, "new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }

    #[test]
    fn the_original_mode_is_kept_and_a_failure_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("vantage.toml");
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, Permissions::from_mode(0o600)).unwrap();
        write(&file, "new").unwrap();
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);

        let mut half = SafeFile::create(&file).unwrap();
        half.write_all(b"half").unwrap();
        drop(half); // never committed: a failure mid-write
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "the temporary file is removed");
    }

    #[test]
    fn a_new_file_is_refused_when_one_exists_and_special_files_are_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("report.md");
        std::fs::write(&file, "mine").unwrap();
        let refused = SafeFile::create_new(&file).err().unwrap();
        assert_eq!(refused.kind(), io::ErrorKind::AlreadyExists);
        assert!(SafeFile::create(Path::new("/dev/null")).is_err());
        let looped = dir.path().join("loop");
        symlink(&looped, &looped).unwrap();
        assert!(write(&looped, "x").is_err());
    }
}
