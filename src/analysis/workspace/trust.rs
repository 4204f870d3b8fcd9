//! A workspace file found in a folder above the current one is used as git uses a repository
//! found there (`safe.directory`): only when it is the user's own and no one else may write
//! it, or when the config file lists it (`safe_workspaces`). Someone else's file in a shared
//! folder would otherwise run its sets on the user's credits, post its alerts to its own
//! webhook, and receive the prompts `track set new` writes.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::WorkspaceError;

/// The files the config file trusts whoever owns them (`safe_workspaces`), set once at start.
static LISTED: OnceLock<Vec<PathBuf>> = OnceLock::new();

/// Trusts these files (the config file's `safe_workspaces`) for the rest of the process.
pub fn trust_listed(files: Vec<PathBuf>) {
    let files = files
        .into_iter()
        .map(|file| std::fs::canonicalize(&file).unwrap_or(file))
        .collect();
    let _ = LISTED.set(files);
}

fn listed(path: &Path) -> bool {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    LISTED.get().is_some_and(|files| files.contains(&path))
}

/// Why the workspace file at `path`, found above the current folder, may not be used; none
/// when it may.
pub(super) fn refusal(path: &Path) -> Option<String> {
    if listed(path) {
        return None;
    }
    problem(path)
}

#[cfg(unix)]
fn problem(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(error) => return Some(format!("its owner could not be read ({error})")),
    };
    let me = rustix::process::geteuid().as_raw();
    if meta.uid() != me {
        return Some(format!(
            "it is owned by another user (uid {}), not by you (uid {me})",
            meta.uid()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Some(format!(
            "others may write it (mode {:o})",
            meta.mode() & 0o777
        ));
    }
    None
}

#[cfg(not(unix))]
fn problem(_path: &Path) -> Option<String> {
    None
}

/// The error every command gives for an untrusted file: which file, and what to do.
pub(super) fn refused(path: &Path, why: String) -> WorkspaceError {
    WorkspaceError::Untrusted {
        path: path.to_path_buf(),
        why,
    }
}
