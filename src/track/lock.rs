//! One run of a set at a time: an exclusive lock on a file per set in the data folder.
//! The operating system releases it when the process ends, however it ends (a SIGKILL
//! included), so a stale lock never blocks the next run.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// Held while a run of the set goes on; dropping it releases the lock.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
    path: PathBuf,
}

impl RunLock {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Why the lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "Another `vantage track run {set}` is still going (it holds {path}). Let it finish, or stop it, then run again."
    )]
    Busy { set: String, path: PathBuf },
    #[error(
        "The lock file {path} could not be opened ({reason}). Check that the data folder can be written."
    )]
    Io { path: PathBuf, reason: String },
}

/// The lock file's name for a set: its name lower-cased (set names ignore case), anything
/// but ASCII letters and digits percent-encoded, so any set name makes one safe file name and
/// two names make two (`a b` and `a_b` once shared one lock). Very long names are cut to
/// what a file system takes.
fn file_name(set: &str) -> String {
    let safe = percent_encoding::utf8_percent_encode(
        &set.to_lowercase(),
        percent_encoding::NON_ALPHANUMERIC,
    )
    .to_string();
    // Percent-encoded text is ASCII: any byte is a character boundary.
    let safe = &safe[..safe.len().min(200)];
    format!("track-{safe}.lock")
}

/// Takes the lock of `set` in `data_dir`, or says who holds it.
pub fn acquire(data_dir: &Path, set: &str) -> Result<RunLock, LockError> {
    let path = data_dir.join(file_name(set));
    let failed = |error: std::io::Error| LockError::Io {
        path: path.clone(),
        reason: error.to_string(),
    };
    std::fs::create_dir_all(data_dir).map_err(failed)?;
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(failed)?;
    match file.try_lock() {
        Ok(()) => Ok(RunLock { _file: file, path }),
        Err(TryLockError::WouldBlock) => Err(LockError::Busy {
            set: set.to_string(),
            path,
        }),
        Err(TryLockError::Error(error)) => Err(failed(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_of_a_set_is_refused_until_the_first_ends() {
        let dir = tempfile::tempdir().unwrap();
        let first = acquire(dir.path(), "Boots").unwrap();
        let error = acquire(dir.path(), "boots").unwrap_err().to_string();
        assert!(
            error.contains("Another `vantage track run boots`"),
            "{error}"
        );
        // Another set is not held up.
        let other = acquire(dir.path(), "shoes").unwrap();
        drop(first);
        assert!(acquire(dir.path(), "boots").is_ok());
        drop(other);
    }

    #[test]
    fn any_name_makes_a_safe_file_name() {
        assert_eq!(
            file_name("../Hiking Boots"),
            "track-%2E%2E%2Fhiking%20boots.lock"
        );
        assert_ne!(file_name("a b"), file_name("a_b"));
        assert_eq!(file_name("Boots"), file_name("boots"));
        assert!(file_name(&"é".repeat(500)).len() < 255);
    }
}
