//! What can go wrong with the store, as a kind a caller can branch on: damage and refused
//! writes keep their kind, with the file's path; the rest is a sentence.

use std::path::{Path, PathBuf};

use super::health::{self, is_damage};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error(
        "The history database {path} was written by a newer vantage (schema version {found}; this one knows up to {supported}). Upgrade vantage, or set VANTAGE_DATA_DIR to use another folder."
    )]
    TooNew {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    #[error(
        "The data folder {path} could not be made ({reason}). Set VANTAGE_DATA_DIR to a folder you can write."
    )]
    Folder { path: PathBuf, reason: String },
    #[error(
        "The history database {path} could not be opened ({reason}). Make its folder writable, or set VANTAGE_DATA_DIR to another folder."
    )]
    Open { path: PathBuf, reason: String },
    #[error(
        "The history database {path} cannot be written ({reason}), so history and jobs are shown but nothing new is saved. Make the file and its folder writable, or set VANTAGE_DATA_DIR to another folder."
    )]
    ReadOnly { path: PathBuf, reason: String },
    #[error(
        "The history database {path} is damaged ({detail}), so vantage writes nothing more to it. Run `vantage store recover`: it copies every row it can read into a new history database in its place and keeps the damaged file aside (`vantage store check` lists the damage)."
    )]
    Damaged { path: PathBuf, detail: String },
    #[error(
        "The disk holding {path} is full: free some space on it. What is stored is still shown, but nothing new is saved until there is room."
    )]
    Full { path: PathBuf },
    #[error(
        "The history database {path} could not be read or written: {detail}. Check the disk it is on, or set VANTAGE_DATA_DIR to a folder on another one."
    )]
    Io { path: PathBuf, detail: String },
    #[error("The history database failed: {0}.")]
    Sqlite(String),
    #[error("A stored record could not be read: {0}.")]
    Corrupt(String),
    #[error("The history database is closed; the write was not made.")]
    Closed,
    #[error(
        "The history database {path} is in use by {holders}: a recovery would swap the file under it, and what it writes would go into the file set aside. Let it end (or stop it), then run `vantage store recover` again."
    )]
    InUse { path: PathBuf, holders: String },
}

/// Damage and refused writes keep their kind (the path is filled in by [`StoreError::at`]);
/// other SQLite errors become a sentence.
impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> Self {
        if is_damage(&error) {
            StoreError::Damaged {
                path: PathBuf::new(),
                detail: error.to_string(),
            }
        } else if error.sqlite_error_code() == Some(rusqlite::ErrorCode::ReadOnly) {
            StoreError::ReadOnly {
                path: PathBuf::new(),
                reason: error.to_string(),
            }
        } else if health::is_full(&error) {
            StoreError::Full {
                path: PathBuf::new(),
            }
        } else if error.sqlite_error_code() == Some(rusqlite::ErrorCode::SystemIoFailure) {
            StoreError::Io {
                path: PathBuf::new(),
                detail: error.to_string(),
            }
        } else {
            StoreError::Sqlite(error.to_string())
        }
    }
}

impl StoreError {
    /// The same error, naming `path` where it names no file yet.
    pub fn at(self, path: &Path) -> StoreError {
        match self {
            StoreError::Damaged { path: p, detail } if p.as_os_str().is_empty() => {
                StoreError::Damaged {
                    path: path.to_path_buf(),
                    detail,
                }
            }
            StoreError::ReadOnly { path: p, reason } if p.as_os_str().is_empty() => {
                StoreError::ReadOnly {
                    path: path.to_path_buf(),
                    reason,
                }
            }
            StoreError::Full { path: p } if p.as_os_str().is_empty() => StoreError::Full {
                path: path.to_path_buf(),
            },
            StoreError::Io { path: p, detail } if p.as_os_str().is_empty() => StoreError::Io {
                path: path.to_path_buf(),
                detail,
            },
            other => other,
        }
    }

    /// True when SQLite found the file damaged.
    pub fn is_damage(&self) -> bool {
        matches!(self, StoreError::Damaged { .. })
    }

    /// The process exit code for any store failure: local storage.
    pub fn exit_code(&self) -> i32 {
        crate::exit::STORAGE
    }
}
