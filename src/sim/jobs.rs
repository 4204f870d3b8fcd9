//! The async job table. A job keeps only what is needed to rebuild its body (the validated
//! query and the variation number), so the state file stays small and a restarted
//! simulator answers byte-identical bodies for jobs submitted before the restart.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum JobKind {
    Ai,
    Search,
    Browser,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Job {
    pub id: String,
    pub kind: JobKind,
    /// The submitted query pairs, re-validated to rebuild the body.
    pub params: Vec<(String, String)>,
    pub variation: u64,
    pub created_unix_ms: u64,
    pub pending_ms: u64,
    pub failed: bool,
    /// Verbatim content, for jobs seeded by tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

pub(crate) enum JobState<'a> {
    Pending,
    Failed,
    Ready(&'a Job),
}

impl Job {
    pub(crate) fn state(&self, now_ms: u64) -> JobState<'_> {
        if now_ms < self.created_unix_ms.saturating_add(self.pending_ms) {
            JobState::Pending
        } else if self.failed {
            JobState::Failed
        } else {
            JobState::Ready(self)
        }
    }
}

pub(crate) fn now_unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[derive(Serialize, Deserialize, Default)]
struct StateFile {
    jobs: Vec<Job>,
}

pub(crate) struct JobTable {
    jobs: Mutex<HashMap<String, Job>>,
    file: Option<PathBuf>,
}

impl JobTable {
    /// Loads the table from `file` if it exists. A file that cannot be parsed is set aside
    /// (renamed with `.corrupt`) rather than stopping the simulator.
    pub(crate) fn open(file: Option<PathBuf>) -> JobTable {
        let mut jobs = HashMap::new();
        if let Some(path) = &file {
            match std::fs::read(path) {
                Ok(bytes) => match serde_json::from_slice::<StateFile>(&bytes) {
                    Ok(state) => {
                        for job in state.jobs {
                            jobs.insert(job.id.clone(), job);
                        }
                    }
                    Err(error) => {
                        tracing::warn!(path = %path.display(), %error, "simulator state file unreadable; starting empty");
                        let _ = std::fs::rename(path, path.with_extension("corrupt"));
                    }
                },
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => {
                    tracing::warn!(path = %path.display(), %error, "simulator state file not readable; starting empty");
                }
            }
        }
        JobTable {
            jobs: Mutex::new(jobs),
            file,
        }
    }

    pub(crate) fn insert(&self, job: Job) {
        let mut jobs = super::lock(&self.jobs);
        jobs.insert(job.id.clone(), job);
        if let Some(path) = &self.file {
            // Written under the lock so concurrent inserts cannot reorder file versions.
            if let Err(error) = write_atomically(path, &jobs) {
                tracing::warn!(path = %path.display(), %error, "could not save simulator jobs");
            }
        }
    }

    /// The query pairs of every job, for tests that count submissions.
    pub(crate) fn queries(&self) -> Vec<Vec<(String, String)>> {
        let jobs = super::lock(&self.jobs);
        jobs.values().map(|job| job.params.clone()).collect()
    }

    pub(crate) fn get(&self, id: &str) -> Option<Job> {
        let jobs = super::lock(&self.jobs);
        jobs.get(id).cloned()
    }
}

fn write_atomically(path: &Path, jobs: &HashMap<String, Job>) -> std::io::Result<()> {
    let mut list: Vec<Job> = jobs.values().cloned().collect();
    list.sort_by(|a, b| {
        a.created_unix_ms
            .cmp(&b.created_unix_ms)
            .then(a.id.cmp(&b.id))
    });
    let bytes = serde_json::to_vec(&StateFile { jobs: list }).map_err(std::io::Error::other)?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let mut temp = path.as_os_str().to_owned();
    temp.push(".tmp");
    let temp = PathBuf::from(temp);
    std::fs::write(&temp, bytes)?;
    std::fs::rename(&temp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: &str) -> Job {
        Job {
            id: id.into(),
            kind: JobKind::Ai,
            params: vec![("prompt".into(), "hi".into())],
            variation: 0,
            created_unix_ms: 1_000,
            pending_ms: 500,
            failed: false,
            content: None,
        }
    }

    #[test]
    fn state_follows_time_and_failure() {
        let mut j = job("a");
        assert!(matches!(j.state(1_200), JobState::Pending));
        assert!(matches!(j.state(1_500), JobState::Ready(_)));
        j.failed = true;
        assert!(matches!(j.state(2_000), JobState::Failed));
    }

    #[test]
    fn table_survives_reopen_and_corrupt_file_is_set_aside() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("state").join("jobs.json");
        JobTable::open(Some(path.clone())).insert(job("x"));
        assert!(JobTable::open(Some(path.clone())).get("x").is_some());
        std::fs::write(&path, b"{not json").expect("write");
        assert!(JobTable::open(Some(path.clone())).get("x").is_none());
        assert!(path.with_extension("corrupt").exists());
    }
}
