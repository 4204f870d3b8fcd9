//! The readings of a set's answers, stored once beside them: for each call of a run that
//! answered, what it names (a row per brand), where it is from and what it cites; for each
//! finished run, its tally (the counts trends, alerts and charts read) and its final counts
//! (what `track list` shows). Each reading carries the version of the reading rules and the
//! list of brands it was read for, so a reading made by older rules, or for other brands,
//! is known as such and made again (`track::stored`). The answers' HTML is not read here.

use rusqlite::{Connection, OptionalExtension, params};

use super::track::{RunId, RunItem, RunSummary};
use super::{Store, StoreError};

pub(super) const MIGRATION: &str = "
    CREATE TABLE track_reading_lists (
        id      INTEGER PRIMARY KEY,
        brands  TEXT NOT NULL UNIQUE
    );

    CREATE TABLE track_readings (
        run_id   TEXT NOT NULL REFERENCES track_runs (id) ON DELETE CASCADE,
        seq      INTEGER NOT NULL,
        list     INTEGER NOT NULL,
        version  INTEGER NOT NULL,
        kind     TEXT NOT NULL CHECK (kind IN ('answer', 'results', 'nothing')),
        model    TEXT NOT NULL,
        place    TEXT NOT NULL,
        query    TEXT NOT NULL,
        device   TEXT NOT NULL,
        detail   TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX track_readings_by_vantage ON track_readings (model, place, run_id);

    CREATE TABLE track_reading_brands (
        run_id    TEXT NOT NULL,
        seq       INTEGER NOT NULL,
        brand     TEXT NOT NULL,
        position  INTEGER,
        count     INTEGER NOT NULL,
        stance    TEXT NOT NULL,
        cited     INTEGER NOT NULL,
        rank      INTEGER,
        PRIMARY KEY (run_id, seq, brand),
        FOREIGN KEY (run_id, seq) REFERENCES track_readings (run_id, seq) ON DELETE CASCADE
    ) WITHOUT ROWID;
    CREATE INDEX track_reading_brands_by_brand ON track_reading_brands (brand, run_id);

    CREATE TABLE track_tallies (
        run_id   TEXT PRIMARY KEY REFERENCES track_runs (id) ON DELETE CASCADE,
        list     INTEGER NOT NULL,
        version  INTEGER NOT NULL,
        tally    TEXT NOT NULL
    );

    CREATE TABLE track_run_counts (
        run_id   TEXT PRIMARY KEY REFERENCES track_runs (id) ON DELETE CASCADE,
        queued   INTEGER NOT NULL,
        unsent   INTEGER NOT NULL,
        refused  INTEGER NOT NULL,
        done     INTEGER NOT NULL,
        failed   INTEGER NOT NULL,
        pending  INTEGER NOT NULL
    );
";

/// 11 → 12: the kept counts of ended runs also count their answered AI calls, so a run's
/// credits are priced by kind; the counts kept so far are dropped and counted again.
pub(super) const CREDITS_MIGRATION: &str = "
    ALTER TABLE track_run_counts ADD COLUMN done_answers INTEGER NOT NULL DEFAULT 0;
    DELETE FROM track_run_counts;
";

/// What a call's reading is of.
pub const ANSWER: &str = "answer";
pub const RESULTS: &str = "results";
/// A result with nothing to read (a body that is neither an answer nor a page): kept so it
/// is not read again.
pub const NOTHING: &str = "nothing";

/// One call of a run as read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredReading {
    pub seq: u32,
    /// [`ANSWER`], [`RESULTS`] or [`NOTHING`].
    pub kind: String,
    pub model: String,
    pub place: String,
    pub query: String,
    pub device: String,
    /// JSON: an answer's cited domains, a search's organic results.
    pub detail: String,
    /// The brands the answer names (or says it knows nothing of); the others are not named.
    pub brands: Vec<StoredBrand>,
}

/// A brand in one answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredBrand {
    pub brand: String,
    pub position: Option<u32>,
    pub count: u32,
    /// The stance's label ("recommended", "listed", "cautioned", "not found").
    pub stance: String,
    pub cited: bool,
    /// The number of the first list item about it.
    pub rank: Option<u32>,
}

/// A run's stored tally, with what it was read by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTally {
    pub run: RunId,
    pub list: i64,
    pub version: u32,
    /// JSON, as `track::tally` writes it.
    pub tally: String,
}

/// The list's id, made the first time it is seen.
pub(super) fn list_id_or_new(tx: &Connection, brands: &str) -> Result<i64, rusqlite::Error> {
    tx.execute(
        "INSERT INTO track_reading_lists (brands) VALUES (?1) ON CONFLICT (brands) DO NOTHING",
        [brands],
    )?;
    tx.query_row(
        "SELECT id FROM track_reading_lists WHERE brands = ?1",
        [brands],
        |r| r.get(0),
    )
}

/// The id of a list of brands readings were made for; none when nothing was read for it.
pub(super) fn list_id(conn: &Connection, brands: &str) -> Result<Option<i64>, StoreError> {
    Ok(conn
        .query_row(
            "SELECT id FROM track_reading_lists WHERE brands = ?1",
            [brands],
            |r| r.get(0),
        )
        .optional()?)
}

pub(super) fn write_readings(
    tx: &Connection,
    run: &RunId,
    list: &str,
    version: u32,
    readings: &[StoredReading],
) -> Result<(), rusqlite::Error> {
    let list = list_id_or_new(tx, list)?;
    let mut forget =
        tx.prepare_cached("DELETE FROM track_reading_brands WHERE run_id = ?1 AND seq = ?2")?;
    let mut reading = tx.prepare_cached(
        "INSERT OR REPLACE INTO track_readings
             (run_id, seq, list, version, kind, model, place, query, device, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    let mut brand = tx.prepare_cached(
        "INSERT OR REPLACE INTO track_reading_brands
             (run_id, seq, brand, position, count, stance, cited, rank)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for r in readings {
        forget.execute(params![run.as_str(), r.seq])?;
        reading.execute(params![
            run.as_str(),
            r.seq,
            list,
            version,
            r.kind,
            r.model,
            r.place,
            r.query,
            r.device,
            r.detail
        ])?;
        for b in &r.brands {
            brand.execute(params![
                run.as_str(),
                r.seq,
                b.brand,
                b.position,
                b.count,
                b.stance,
                b.cited,
                b.rank
            ])?;
        }
    }
    // The run's tally was made from the readings before these.
    tx.execute(
        "DELETE FROM track_tallies WHERE run_id = ?1",
        [run.as_str()],
    )?;
    Ok(())
}

pub(super) fn write_tally(
    tx: &Connection,
    run: &RunId,
    list: &str,
    version: u32,
    tally: &str,
) -> Result<(), rusqlite::Error> {
    let list = list_id_or_new(tx, list)?;
    tx.execute(
        "INSERT OR REPLACE INTO track_tallies (run_id, list, version, tally)
         VALUES (?1, ?2, ?3, ?4)",
        params![run.as_str(), list, version, tally],
    )?;
    Ok(())
}

/// Keeps the counts of runs that have ended, so listing runs does not count their calls
/// again. A run that has not ended is not kept (its counts still change).
pub(super) fn settle(tx: &Connection, runs: &[RunSummary]) -> Result<(), rusqlite::Error> {
    let mut statement = tx.prepare_cached(
        "INSERT OR REPLACE INTO track_run_counts
             (run_id, queued, unsent, refused, done, failed, pending, done_answers)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for run in runs.iter().filter(|r| r.is_finished()) {
        statement.execute(params![
            run.id.as_str(),
            run.queued,
            run.unsent,
            run.refused,
            run.done,
            run.failed,
            run.pending,
            run.done_answers
        ])?;
    }
    Ok(())
}

/// A write that may change a run's calls forgets its kept counts.
pub(super) fn unsettle(tx: &Connection, run: &RunId) -> Result<(), rusqlite::Error> {
    tx.execute(
        "DELETE FROM track_run_counts WHERE run_id = ?1",
        [run.as_str()],
    )?;
    Ok(())
}

/// The tallies kept for a set's runs (any case), by run.
pub(super) fn tallies(conn: &Connection, set: &str) -> Result<Vec<StoredTally>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT t.run_id, t.list, t.version, t.tally FROM track_tallies t
         JOIN track_runs r ON r.id = t.run_id
         WHERE r.set_name = ?1 COLLATE NOCASE",
    )?;
    let rows = statement.query_map([set], |row| {
        Ok(StoredTally {
            run: RunId(row.get(0)?),
            list: row.get(1)?,
            version: row.get(2)?,
            tally: row.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// The answered calls of a run with no reading by these rules for these brands: how many.
pub(super) fn unread_count(
    conn: &Connection,
    run: &RunId,
    list: Option<i64>,
    version: u32,
) -> Result<usize, StoreError> {
    let count: i64 = conn.query_row(
        "SELECT count(*) FROM track_items i
         JOIN job_results j ON j.job_id = i.job_id
         LEFT JOIN track_readings g ON g.run_id = i.run_id AND g.seq = i.seq
             AND g.list = ?2 AND g.version = ?3
         WHERE i.run_id = ?1 AND g.run_id IS NULL",
        params![run.as_str(), list.unwrap_or(-1), version],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(count).unwrap_or(0))
}

/// Those calls' numbers, after `after`, at most `limit`.
pub(super) fn unread(
    conn: &Connection,
    run: &RunId,
    list: Option<i64>,
    version: u32,
    after: Option<u32>,
    limit: usize,
) -> Result<Vec<u32>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT i.seq FROM track_items i
         JOIN job_results j ON j.job_id = i.job_id
         LEFT JOIN track_readings g ON g.run_id = i.run_id AND g.seq = i.seq
             AND g.list = ?2 AND g.version = ?3
         WHERE i.run_id = ?1 AND g.run_id IS NULL AND i.seq > ?4
         ORDER BY i.seq LIMIT ?5",
    )?;
    let rows = statement.query_map(
        params![
            run.as_str(),
            list.unwrap_or(-1),
            version,
            after.map_or(-1, i64::from),
            i64::try_from(limit).unwrap_or(i64::MAX)
        ],
        |r| r.get::<_, u32>(0),
    )?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// A prompt × model × place, as readings name them (`track::answers::Cell`).
#[derive(Clone, Copy, Debug)]
pub struct CellKey<'a> {
    pub query: &'a str,
    pub model: &'a str,
    pub place: &'a str,
}

/// The readings of a run made by these rules for these brands, by call; of one cell only
/// when `cell` is given (found through the readings' index by model and place).
pub(super) fn run_readings(
    conn: &Connection,
    run: &RunId,
    list: i64,
    version: u32,
    cell: Option<CellKey<'_>>,
) -> Result<Vec<StoredReading>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT seq, kind, model, place, query, device, detail FROM track_readings
         WHERE run_id = ?1 AND list = ?2 AND version = ?3
             AND (?4 IS NULL OR (model = ?4 AND place = ?5 AND query = ?6))
         ORDER BY seq",
    )?;
    let (model, place, query) = match cell {
        Some(c) => (Some(c.model), Some(c.place), Some(c.query)),
        None => (None, None, None),
    };
    let mut readings = statement
        .query_map(
            params![run.as_str(), list, version, model, place, query],
            |row| {
                Ok(StoredReading {
                    seq: row.get(0)?,
                    kind: row.get(1)?,
                    model: row.get(2)?,
                    place: row.get(3)?,
                    query: row.get(4)?,
                    device: row.get(5)?,
                    detail: row.get(6)?,
                    brands: Vec::new(),
                })
            },
        )?
        .collect::<Result<Vec<_>, _>>()?;
    if cell.is_some() && readings.is_empty() {
        return Ok(readings);
    }
    // A cell's few calls are looked up by their numbers rather than reading the run's brands.
    let (first, last) = match (cell, readings.first(), readings.last()) {
        (Some(_), Some(first), Some(last)) => (first.seq, last.seq),
        _ => (0, u32::MAX),
    };
    let mut statement = conn.prepare_cached(
        "SELECT seq, brand, position, count, stance, cited, rank FROM track_reading_brands
         WHERE run_id = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq",
    )?;
    let brands = statement.query_map(params![run.as_str(), first, last], |row| {
        Ok((
            row.get::<_, u32>(0)?,
            StoredBrand {
                brand: row.get(1)?,
                position: row.get(2)?,
                count: row.get(3)?,
                stance: row.get(4)?,
                cited: row.get(5)?,
                rank: row.get(6)?,
            },
        ))
    })?;
    // Both in the order of the calls: one walk puts each brand under its reading.
    let mut at = 0;
    for row in brands {
        let (seq, brand) = row?;
        while at < readings.len() && readings[at].seq < seq {
            at += 1;
        }
        if let Some(reading) = readings.get_mut(at).filter(|r| r.seq == seq) {
            reading.brands.push(brand);
        }
    }
    Ok(readings)
}

impl Store {
    /// The calls of a run numbered `first` to `last`, with their result only when `bodies`
    /// (a run's calls without their answers cost what their requests do).
    pub fn track_items_between(
        &self,
        run: &RunId,
        first: u32,
        last: u32,
        bodies: bool,
    ) -> Result<Vec<RunItem>, StoreError> {
        self.with_reader(|c| super::track::items_between(c, run, first, last, bodies))
    }

    /// The id of the list of brands readings were made for, if any was.
    pub fn reading_list(&self, brands: &str) -> Result<Option<i64>, StoreError> {
        self.with_reader(|c| list_id(c, brands))
    }

    /// The tallies kept for a set's runs.
    pub fn track_tallies(&self, set: &str) -> Result<Vec<StoredTally>, StoreError> {
        self.with_reader(|c| tallies(c, set))
    }

    /// How many answered calls of a run have no reading by these rules for these brands.
    pub fn track_unread_count(
        &self,
        run: &RunId,
        list: Option<i64>,
        version: u32,
    ) -> Result<usize, StoreError> {
        self.with_reader(|c| unread_count(c, run, list, version))
    }

    /// Those calls' numbers after `after`, at most `limit`.
    pub fn track_unread(
        &self,
        run: &RunId,
        list: Option<i64>,
        version: u32,
        after: Option<u32>,
        limit: usize,
    ) -> Result<Vec<u32>, StoreError> {
        self.with_reader(|c| unread(c, run, list, version, after, limit))
    }

    /// A run's readings by these rules for these brands.
    pub fn track_readings(
        &self,
        run: &RunId,
        list: i64,
        version: u32,
    ) -> Result<Vec<StoredReading>, StoreError> {
        self.with_reader(|c| run_readings(c, run, list, version, None))
    }

    /// A run's readings of one cell (its samples, when it has several).
    pub fn track_cell_readings(
        &self,
        run: &RunId,
        list: i64,
        version: u32,
        cell: CellKey<'_>,
    ) -> Result<Vec<StoredReading>, StoreError> {
        self.with_reader(|c| run_readings(c, run, list, version, Some(cell)))
    }
}
