//! Whether the database can be written, and the SQLite errors that change that: a file or
//! folder that refuses writes makes the store read-only; a damaged file stops all writes, so
//! that damage is never made worse.

use std::path::Path;

use rusqlite::ErrorCode;
use tokio::sync::watch;

use super::StoreError;

/// What the store can do with its file now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Health {
    /// Reads and writes.
    Writable,
    /// Reads only: the file or its folder cannot be written.
    ReadOnly { reason: String },
    /// SQLite found the file damaged: reads are still tried, nothing more is written.
    Damaged { detail: String },
    /// Reads only: the disk was full when the store opened.
    Full,
}

impl Health {
    /// The error every write gets in this state, if writes are refused.
    pub fn refusal(&self, path: &Path) -> Option<StoreError> {
        match self {
            Health::Writable => None,
            Health::ReadOnly { reason } => Some(StoreError::ReadOnly {
                path: path.to_path_buf(),
                reason: reason.clone(),
            }),
            Health::Damaged { detail } => Some(StoreError::Damaged {
                path: path.to_path_buf(),
                detail: detail.clone(),
            }),
            Health::Full => Some(StoreError::Full {
                path: path.to_path_buf(),
            }),
        }
    }
}

/// The store's health, shared by its handles and its writer thread, and watched by the app.
pub(super) type HealthCell = watch::Sender<Health>;

/// Records what an error says about the file: damage always wins; a refused write makes a
/// writable store read-only. A full disk changes nothing: each write is tried again, and
/// succeeds once there is room. Returns the error with the file's path filled in, an I/O
/// error on a full disk named as the full disk.
pub(super) fn note(cell: &HealthCell, path: &Path, error: StoreError) -> StoreError {
    let error = name_full_disk(error, path);
    let next = match &error {
        StoreError::Damaged { detail, .. } => Some(Health::Damaged {
            detail: detail.clone(),
        }),
        StoreError::ReadOnly { reason, .. } => Some(Health::ReadOnly {
            reason: reason.clone(),
        }),
        _ => None,
    };
    if let Some(next) = next {
        cell.send_if_modified(|health| {
            let worse = match (&*health, &next) {
                (Health::Damaged { .. }, _) => false,
                (_, Health::Damaged { .. }) => true,
                (Health::Writable, Health::ReadOnly { .. }) => true,
                _ => false,
            };
            if worse {
                tracing::warn!(%error, "the store stops writing");
                *health = next.clone();
            }
            worse
        });
    }
    error
}

/// SQLite says the file is damaged or is not a database at all.
pub fn is_damage(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
    )
}

/// SQLite could not write: the disk (or the file's page limit) is full.
pub fn is_full(error: &rusqlite::Error) -> bool {
    error.sqlite_error_code() == Some(ErrorCode::DiskFull)
}

/// Room a write is sure to need: the log's index grows 32 KB at a time, and a transaction
/// writes whole pages.
const ROOM: usize = 256 << 10;

/// An I/O error where the disk has no room is the full disk: SQLite says only "disk I/O
/// error" when it cannot grow the index of its log, say. Any other error is `error` as is.
/// Either way with the file's path filled in.
pub(super) fn name_full_disk(error: StoreError, path: &Path) -> StoreError {
    match error.at(path) {
        StoreError::Io { path, .. } if no_room_beside(&path) => StoreError::Full { path },
        other => other,
    }
}

/// Whether the disk holding `path` has no room for [`ROOM`] bytes: a file that size is
/// written beside it, then removed.
fn no_room_beside(path: &Path) -> bool {
    use std::io::Write;
    let folder = path.parent().unwrap_or(Path::new("."));
    let probe = folder.join(format!(".vantage-room-{}", std::process::id()));
    let written = std::fs::File::create(&probe).and_then(|mut file| {
        file.write_all(&vec![0; ROOM])?;
        file.sync_data()
    });
    let _ = std::fs::remove_file(&probe);
    matches!(written, Err(error) if error.kind() == std::io::ErrorKind::StorageFull)
}

/// SQLite could not write or create the file: it, its folder or its journal is read-only.
pub fn is_write_refusal(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::{Connection, OpenFlags};

    #[test]
    fn errors_are_sorted_into_damage_and_refused_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        Connection::open(&path)
            .unwrap()
            .execute_batch("CREATE TABLE t (x)")
            .unwrap();
        let read_only =
            Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        let refused = read_only
            .execute("INSERT INTO t VALUES (1)", [])
            .unwrap_err();
        assert!(is_write_refusal(&refused), "{refused}");
        assert!(!is_damage(&refused));

        let missing = Connection::open_with_flags(
            dir.path().join("no/such/folder.db"),
            OpenFlags::SQLITE_OPEN_READ_WRITE,
        )
        .unwrap_err();
        assert!(is_write_refusal(&missing), "{missing}");

        let garbage = dir.path().join("garbage.db");
        std::fs::write(&garbage, vec![0x5Au8; 8192]).unwrap();
        let conn = Connection::open(&garbage).unwrap();
        let damaged = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap_err();
        assert!(is_damage(&damaged), "{damaged}");
        assert!(!is_write_refusal(&damaged));
    }

    /// A write the disk has no room for is named as such; what is stored is still read, the
    /// store stays writable, and writes go through again once there is room.
    #[test]
    fn a_full_disk_is_named_and_reads_go_on() {
        use crate::api::SearchRequest;
        use crate::store::{Body, RequestParams, Store, StoreOptions, now_ms};
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
        let add = |n: usize| {
            let (id, ack) =
                store.add_request(RequestParams::Search(SearchRequest::new(format!("q{n}"))));
            let body = Body {
                status: 200,
                text: "answer ".repeat(2_000),
                elapsed_ms: 1,
                received_at: now_ms(),
            };
            let answered = store.add_response(&id, body);
            ack.wait().and_then(|()| answered.wait())
        };
        for n in 0..20 {
            add(n).unwrap();
        }
        store.cap_pages(true).wait().unwrap();
        let error = (20..200).find_map(|n| add(n).err()).expect("a write fails");
        let path = dir.path().join(crate::store::DB_FILE);
        assert!(
            matches!(&error, StoreError::Full { path: p } if *p == path),
            "{error:?}"
        );
        let sentence = error.to_string();
        assert!(
            sentence.starts_with(&format!("The disk holding {} is full", path.display())),
            "{sentence}"
        );
        assert!(sentence.contains("free some space"), "{sentence}");
        // Reads are served, and nothing marks the store read-only or damaged.
        let kept = store.history_len().unwrap();
        assert!(kept >= 20, "{kept}");
        let first = store.history(1, kept - 1).unwrap();
        assert!(store.history_entry(&first[0].id).unwrap().is_some());
        assert_eq!(store.health(), Health::Writable);
        store.cap_pages(false).wait().unwrap();
        add(1_000).expect("room again: writes go through");
    }

    #[test]
    fn damage_outranks_a_read_only_file_and_is_never_undone() {
        let (cell, _) = watch::channel(Health::Writable);
        let path = Path::new("/data/vantage.db");
        let read_only = StoreError::ReadOnly {
            path: Default::default(),
            reason: "attempt to write a readonly database".into(),
        };
        let error = note(&cell, path, read_only.clone());
        assert!(error.to_string().contains("/data/vantage.db"), "{error}");
        assert!(matches!(*cell.borrow(), Health::ReadOnly { .. }));
        let damaged = StoreError::Damaged {
            path: Default::default(),
            detail: "database disk image is malformed".into(),
        };
        note(&cell, path, damaged);
        assert!(matches!(*cell.borrow(), Health::Damaged { .. }));
        note(&cell, path, read_only);
        assert!(
            matches!(*cell.borrow(), Health::Damaged { .. }),
            "stays damaged"
        );
    }
}
