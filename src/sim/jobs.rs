//! The async job table. A job keeps only what is needed to rebuild its body (the validated
//! query and the variation number), so the state file stays small and a restarted
//! simulator answers byte-identical bodies for jobs submitted before the restart.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::state::SharedState;

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

/// The jobs: in memory, and in the state every demo process shares when there is one.
pub(crate) struct JobTable {
    jobs: Mutex<HashMap<String, Job>>,
    shared: Option<Arc<SharedState>>,
}

impl JobTable {
    pub(crate) fn open(shared: Option<Arc<SharedState>>) -> JobTable {
        JobTable {
            jobs: Mutex::new(HashMap::new()),
            shared,
        }
    }

    pub(crate) fn insert(&self, job: Job) {
        if let Some(shared) = &self.shared {
            shared.put_job(&job);
        }
        super::lock(&self.jobs).insert(job.id.clone(), job);
    }

    /// The query pairs of every job, for tests that count submissions.
    pub(crate) fn queries(&self) -> Vec<Vec<(String, String)>> {
        match &self.shared {
            Some(shared) => shared.jobs().into_iter().map(|job| job.params).collect(),
            None => {
                let jobs = super::lock(&self.jobs);
                jobs.values().map(|job| job.params.clone()).collect()
            }
        }
    }

    /// A job this simulator queued, or another demo process did (or this one before a
    /// restart).
    pub(crate) fn get(&self, id: &str) -> Option<Job> {
        if let Some(job) = super::lock(&self.jobs).get(id) {
            return Some(job.clone());
        }
        self.shared.as_ref()?.job(id)
    }
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
    fn a_job_is_found_by_every_table_on_the_file_and_a_damaged_file_is_set_aside() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("state").join("simulator.db");
        let open = || Some(Arc::new(SharedState::at(&path, 1_000)));
        let first = JobTable::open(open());
        let second = JobTable::open(open());
        first.insert(job("x"));
        assert!(second.get("x").is_some(), "another process's job");
        drop((first, second));
        assert!(JobTable::open(open()).get("x").is_some(), "after a restart");
        std::fs::write(&path, vec![0x5a; 8192]).expect("write");
        assert!(JobTable::open(open()).get("x").is_none());
        let mut aside = path.as_os_str().to_owned();
        aside.push(".corrupt");
        assert!(std::path::PathBuf::from(aside).exists());
    }
}
