//! Stopping what reads the file: the start-up check when the store closes, and every read in
//! progress when the app quits ([`super::Store::stop_reads`]). SQLite's interrupt ends a
//! running statement at its next step, so a read of the whole file stops within milliseconds
//! rather than running on after the app has gone.

use std::collections::HashMap;
use std::sync::Mutex;

use rusqlite::{Connection, InterruptHandle};

/// The connections reading now, each to be interrupted on [`Interrupts::stop`].
#[derive(Default)]
pub(super) struct Interrupts {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    stopped: bool,
    next: u64,
    running: HashMap<u64, InterruptHandle>,
}

/// A connection registered as reading; it leaves the register when dropped.
pub(super) struct Reading<'a> {
    interrupts: &'a Interrupts,
    id: u64,
}

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        if let Ok(mut state) = self.interrupts.state.lock() {
            state.running.remove(&self.id);
        }
    }
}

impl Interrupts {
    /// Registers `conn` before it reads: `None` once stopped (the read is not to start).
    pub(super) fn enter(&self, conn: &Connection) -> Option<Reading<'_>> {
        let mut state = self.state.lock().ok()?;
        if state.stopped {
            return None;
        }
        let id = state.next;
        state.next += 1;
        state.running.insert(id, conn.get_interrupt_handle());
        Some(Reading {
            interrupts: self,
            id,
        })
    }

    /// Interrupts every registered read, and refuses any later one. A statement about to
    /// start when it is called may miss the interrupt (SQLite clears it as the first statement
    /// of a connection starts): the reads stay registered, so calling it again reaches them.
    pub(super) fn stop(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.stopped = true;
            for running in state.running.values() {
                running.interrupt();
            }
        }
    }

    pub(super) fn stopped(&self) -> bool {
        self.state.lock().map_or(true, |state| state.stopped)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use crate::store::{Store, StoreError, StoreOptions};

    /// A read that would never end (a recursive count without a bound) ends once the reads
    /// are stopped, and later reads are refused.
    #[test]
    fn a_read_in_progress_ends_when_the_reads_are_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path(), StoreOptions::default()).unwrap();
        let reader = store.clone();
        let reading = std::thread::spawn(move || {
            reader.with_reader(|conn| {
                Ok(conn.query_row(
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
                     SELECT count(*) FROM c",
                    [],
                    |row| row.get::<_, i64>(0),
                )?)
            })
        });
        std::thread::sleep(Duration::from_millis(100));
        let stopping = Instant::now();
        while !reading.is_finished() {
            store.stop_reads();
            assert!(
                stopping.elapsed() < Duration::from_secs(10),
                "the read ran on"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(reading.join().unwrap().is_err());
        assert!(stopping.elapsed() < Duration::from_secs(1));
        assert!(matches!(store.history(1, 0), Err(StoreError::Closed)));
    }
}
