//! The first reading of an export, before anything of it is written: every row checked as
//! [`super::row_check`] says, and against this store. Rows for a run this store holds whole
//! are refused unless they are that run's own rows (an import cannot add calls to a run made
//! here, which the next `track run` would send), a result for a job of this store that has
//! none yet is refused (it would become that job's answer), and a row for a run neither in
//! the file nor here is refused. Memory stays small whatever the file's size: the file's run
//! ids are kept as 32-bit hashes (12 MB for three million runs), sorted once the runs (which
//! come first) are read. Two ids may share a hash: a row naming a run that is nowhere may
//! then pass this check, and is refused by the database's own reference when written.

use std::hash::{Hash, Hasher};
use std::io::BufRead;

use rusqlite::{Connection, OptionalExtension};
use serde_json::Value;

use super::travel::{BadLine, Batches, ImportRow, Presence};
use super::{Store, StoreError};

/// What an export would do here, found before any of it is written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportPlan {
    /// Rows read (the header and blank lines aside).
    pub rows: usize,
    /// Runs in the file.
    pub runs: usize,
    /// Of them, not here yet.
    pub new: usize,
    /// Of them, here whole already: kept as they are.
    pub already: usize,
    /// Of them, here in part (an earlier import was cut short): this one may complete them.
    pub parts: usize,
    /// The sets of the file's runs, in the order first met.
    pub sets: Vec<String>,
}

/// The file's run ids, as hashes: four bytes a run for millions of runs.
#[derive(Default)]
struct RunsOfFile {
    hashes: Vec<u32>,
    sorted: bool,
}

impl RunsOfFile {
    fn hash(id: &str) -> u32 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        id.hash(&mut hasher);
        (hasher.finish() >> 32) as u32
    }

    fn add(&mut self, id: &str) {
        self.hashes.push(Self::hash(id));
        self.sorted = false;
    }

    fn holds(&mut self, id: &str) -> bool {
        if !self.sorted {
            self.hashes.sort_unstable();
            self.hashes.dedup();
            self.sorted = true;
        }
        self.hashes.binary_search(&Self::hash(id)).is_ok()
    }
}

/// Where a run of the store stands, read once per run in a row of calls.
fn presence(conn: &Connection, run: &str) -> Result<Presence, rusqlite::Error> {
    let part: Option<bool> = conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM track_imports WHERE run_id = r.id)
             FROM track_runs r WHERE r.id = ?1",
        )?
        .query_row([run], |r| r.get(0))
        .optional()?;
    Ok(match part {
        None => Presence::Absent,
        Some(true) => Presence::Part,
        Some(false) => Presence::Whole,
    })
}

fn exists(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached(sql)?
        .query_row(params, |_| Ok(()))
        .optional()?
        .is_some())
}

/// The checks of one row against the store and the file read so far.
struct Checker {
    runs: RunsOfFile,
    /// The last run a call or reading named, and where it stands here.
    last_run: Option<(String, Presence)>,
    plan: ImportPlan,
}

impl Checker {
    fn check(
        &mut self,
        conn: &Connection,
        row: &ImportRow,
    ) -> Result<Result<(), String>, rusqlite::Error> {
        let text = |name: &str| {
            row.row
                .get(name)
                .and_then(Value::as_str)
                .unwrap_or_default()
        };
        match row.table.as_str() {
            "track_runs" => {
                let id = text("id");
                self.plan.runs += 1;
                match presence(conn, id)? {
                    Presence::Absent => self.plan.new += 1,
                    Presence::Part => self.plan.parts += 1,
                    Presence::Whole => self.plan.already += 1,
                }
                self.runs.add(id);
                let set = text("set_name");
                if !self.plan.sets.iter().any(|s| s.eq_ignore_ascii_case(set)) {
                    self.plan.sets.push(set.to_string());
                }
            }
            "track_items" | "track_readings" => {
                let run = text("run_id");
                let stands = match &self.last_run {
                    Some((last, stands)) if last == run => *stands,
                    _ => {
                        let stands = presence(conn, run)?;
                        self.last_run = Some((run.to_string(), stands));
                        stands
                    }
                };
                let seq = row.row.get("seq").and_then(Value::as_i64).unwrap_or(-1);
                match stands {
                    Presence::Absent if !self.runs.holds(run) => {
                        return Ok(Err(format!(
                            "a call of run {run}, which is neither in the file (before this line) nor in this store"
                        )));
                    }
                    Presence::Whole => {
                        let sql = match row.table.as_str() {
                            "track_items" => {
                                "SELECT 1 FROM track_items WHERE run_id = ?1 AND seq = ?2"
                            }
                            _ => "SELECT 1 FROM track_readings WHERE run_id = ?1 AND seq = ?2",
                        };
                        // A reading this store lacks is read again here anyway: only calls
                        // are refused.
                        if row.table == "track_items"
                            && !exists(conn, sql, rusqlite::params![run, seq])?
                        {
                            return Ok(Err(format!(
                                "call {seq} of run {run}, a run this store holds whole, is not one of its calls: an import cannot add calls to a run that is here"
                            )));
                        }
                    }
                    _ => {}
                }
            }
            "job_results" => {
                let job = text("job_id");
                let held = exists(conn, "SELECT 1 FROM jobs WHERE id = ?1", [job])?;
                let answered = exists(conn, "SELECT 1 FROM job_results WHERE job_id = ?1", [job])?;
                if held && !answered {
                    return Ok(Err(format!(
                        "a result for job {job}, a job of this store still without one: an import cannot answer a job made here"
                    )));
                }
            }
            _ => {}
        }
        Ok(Ok(()))
    }
}

impl Store {
    /// Reads an export through, checking each row as it comes and against this store,
    /// writing nothing: what the import would do, or the first line it would refuse.
    pub fn check_import<R: BufRead>(
        &self,
        reader: R,
    ) -> Result<Result<ImportPlan, BadLine>, StoreError> {
        self.with_reader(|conn| {
            let mut checker = Checker {
                runs: RunsOfFile::default(),
                last_run: None,
                plan: ImportPlan::default(),
            };
            for batch in Batches::new(reader) {
                let batch = match batch {
                    Ok(batch) => batch,
                    Err(bad) => return Ok(Err(bad)),
                };
                for row in &batch.rows {
                    if let Err(problem) = checker.check(conn, row)? {
                        return Ok(Err(BadLine {
                            line: row.line,
                            problem,
                        }));
                    }
                }
                checker.plan.rows += batch.rows.len();
            }
            Ok(Ok(checker.plan))
        })
    }

    /// How many runs are here only in part (an import brought them before all their calls).
    pub fn runs_in_part(&self) -> Result<usize, StoreError> {
        self.with_reader(|conn| {
            let n: i64 = conn.query_row("SELECT count(*) FROM track_imports", [], |r| r.get(0))?;
            Ok(usize::try_from(n).unwrap_or(0))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_million_runs_of_a_file_are_held_in_sixteen_megabytes() {
        let mut runs = RunsOfFile::default();
        let id = |n: u32| format!("{n:08x}-0000-4000-8000-000000000000");
        for n in 0..3_000_000 {
            runs.add(&id(n));
        }
        assert!(
            runs.hashes.capacity() * 4 <= 16 << 20,
            "{}",
            runs.hashes.capacity()
        );
        assert!(runs.holds(&id(0)) && runs.holds(&id(2_999_999)));
        let absent = (3_000_000..3_001_000)
            .filter(|n| runs.holds(&id(*n)))
            .count();
        assert!(
            absent <= 2,
            "{absent} of 1,000 ids not in the file were taken for its own"
        );
    }
}
