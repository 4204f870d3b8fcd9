//! The names each stored answer puts forward, read once and kept for discovery: a row per
//! answer read (a History entry, or a comparison's column) with the rules' version, a row
//! per name it puts forward, and per name, model and place the answers naming it, kept up
//! to date by triggers as answers are read and History entries are deleted. Discovery then
//! reads a few thousand totals, not the answers. Which answers are still to read is kept
//! too (`answers_to_read`, filled by triggers as answers land and emptied as they are
//! read), so "anything new?" is one look, not a walk over every answer stored.

use rusqlite::{Connection, params};

use super::model::EntryId;
use super::writer::Op;
use super::{Ack, Store, StoreError};

pub(super) const MIGRATION: &str = "
    CREATE TABLE answer_reads (
        entry_id  TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
        col       INTEGER NOT NULL,
        version   INTEGER NOT NULL,
        at        INTEGER NOT NULL,
        PRIMARY KEY (entry_id, col)
    ) WITHOUT ROWID;
    CREATE INDEX answer_reads_by_time ON answer_reads (version, at);

    CREATE TABLE answer_names (
        entry_id     TEXT NOT NULL,
        col          INTEGER NOT NULL,
        name         TEXT NOT NULL,
        version      INTEGER NOT NULL,
        model        TEXT NOT NULL,
        place        TEXT NOT NULL,
        at           INTEGER NOT NULL,
        products     TEXT NOT NULL,
        recommended  INTEGER NOT NULL,
        sentence     TEXT NOT NULL,
        PRIMARY KEY (entry_id, col, name),
        FOREIGN KEY (entry_id, col) REFERENCES answer_reads (entry_id, col) ON DELETE CASCADE
    ) WITHOUT ROWID;
    CREATE INDEX answer_names_by_name ON answer_names (name);
    CREATE INDEX answer_names_by_time ON answer_names (version, at);

    CREATE TABLE name_totals (
        version      INTEGER NOT NULL,
        name         TEXT NOT NULL,
        model        TEXT NOT NULL,
        place        TEXT NOT NULL,
        answers      INTEGER NOT NULL,
        recommended  INTEGER NOT NULL,
        sentence     TEXT NOT NULL,
        PRIMARY KEY (version, name, model, place)
    ) WITHOUT ROWID;

    CREATE TRIGGER answer_names_counted AFTER INSERT ON answer_names BEGIN
        INSERT INTO name_totals (version, name, model, place, answers, recommended, sentence)
        VALUES (NEW.version, NEW.name, NEW.model, NEW.place, 1, NEW.recommended, NEW.sentence)
        ON CONFLICT (version, name, model, place) DO UPDATE SET
            answers = answers + 1,
            recommended = recommended + excluded.recommended;
    END;

    CREATE TRIGGER answer_names_uncounted AFTER DELETE ON answer_names BEGIN
        UPDATE name_totals SET
            answers = answers - 1,
            recommended = recommended - OLD.recommended
        WHERE version = OLD.version AND name = OLD.name AND model = OLD.model
            AND place = OLD.place;
        DELETE FROM name_totals WHERE version = OLD.version AND name = OLD.name
            AND model = OLD.model AND place = OLD.place AND answers <= 0;
    END;
";

/// Whether an answer was read as plain text (past the bounds of a reading in its shape), so
/// that discovery can say how many answers' names it could not know.
pub(super) const AS_TEXT_MIGRATION: &str = "
    ALTER TABLE answer_reads ADD COLUMN as_text INTEGER NOT NULL DEFAULT 0;
";

pub(super) const TO_READ_MIGRATION: &str = "
    -- A name's products are looked up where any are named (few answers do): the rows with
    -- none stay out of the index, so the look does not walk every answer naming it.
    DROP INDEX answer_names_by_name;
    CREATE INDEX answer_names_products ON answer_names (name, products) WHERE products <> '[]';

    CREATE TABLE answers_to_read (
        entry_id  TEXT PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
        at        INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX answers_to_read_by_time ON answers_to_read (at);

    -- The rules' version the list above is kept for (one row; none until first filled).
    CREATE TABLE names_rules (
        one      INTEGER PRIMARY KEY CHECK (one = 1),
        version  INTEGER NOT NULL
    );

    -- Not `OR IGNORE`: the statement that fires a trigger overrides its body's conflict
    -- policy (an upsert of a response would then fail on an answer already listed).
    CREATE TRIGGER answer_to_read AFTER INSERT ON responses WHEN NEW.status = 200 BEGIN
        INSERT INTO answers_to_read (entry_id, at)
        SELECT id, created_at FROM requests
        WHERE id = NEW.request_id AND kind IN ('ai', 'compare')
        ON CONFLICT (entry_id) DO NOTHING;
    END;

    CREATE TRIGGER answer_to_read_again AFTER UPDATE OF status, body ON responses
    WHEN NEW.status = 200 BEGIN
        INSERT INTO answers_to_read (entry_id, at)
        SELECT id, created_at FROM requests
        WHERE id = NEW.request_id AND kind IN ('ai', 'compare')
        ON CONFLICT (entry_id) DO NOTHING;
    END;
";

/// A name one answer puts forward.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredName {
    pub name: String,
    /// Its products the answer names, as JSON.
    pub products: String,
    pub recommended: bool,
    /// The sentence that says it.
    pub sentence: String,
}

/// The names of one answer: a History entry's (column 0), or a comparison's column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerNames {
    pub entry: EntryId,
    pub col: u32,
    pub model: String,
    pub place: String,
    /// When the entry was made.
    pub at: i64,
    pub names: Vec<StoredName>,
    /// The answer was read as plain text: the names it puts forward are not known.
    pub read_as_text: bool,
}

/// How many answers discovery read, and how many of them as plain text (past the bounds of
/// a reading in their shape: the names they put forward are not known).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnswersRead {
    pub answers: usize,
    pub as_text: usize,
}

impl AnswersRead {
    /// Says how many answers were read as plain text, when any were.
    pub fn as_text_note(&self) -> Option<String> {
        (self.as_text > 0).then(|| {
            format!(
                "Answers too large to read in their shape (lists, headings, bold names) were read as plain text, and the names they put forward are not listed: {} of {}.",
                self.as_text,
                crate::plural::count(self.answers as u64, "answer", "answers")
            )
        })
    }
}

/// A name over the answers of one model at one place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameTotal {
    pub name: String,
    pub model: String,
    pub place: String,
    pub answers: u32,
    pub recommended: u32,
    pub sentence: String,
}

pub(super) fn write(
    tx: &Connection,
    version: u32,
    answers: &[AnswerNames],
) -> Result<(), rusqlite::Error> {
    let mut forget =
        tx.prepare_cached("DELETE FROM answer_names WHERE entry_id = ?1 AND col = ?2")?;
    let mut read = tx.prepare_cached(
        "INSERT INTO answer_reads (entry_id, col, version, at, as_text) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (entry_id, col)
         DO UPDATE SET version = excluded.version, as_text = excluded.as_text",
    )?;
    // Read by the rules the list is kept for: off the list.
    let mut done = tx.prepare_cached(
        "DELETE FROM answers_to_read WHERE entry_id = ?1
           AND EXISTS (SELECT 1 FROM names_rules WHERE version = ?2)",
    )?;
    let mut name = tx.prepare_cached(
        "INSERT OR IGNORE INTO answer_names
             (entry_id, col, name, version, model, place, at, products, recommended, sentence)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    for answer in answers {
        // The entry may have been deleted since it was read: nothing to keep then.
        let exists: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM requests WHERE id = ?1)",
            [answer.entry.as_str()],
            |r| r.get(0),
        )?;
        if !exists {
            continue;
        }
        forget.execute(params![answer.entry.as_str(), answer.col])?;
        read.execute(params![
            answer.entry.as_str(),
            answer.col,
            version,
            answer.at,
            answer.read_as_text
        ])?;
        for n in &answer.names {
            name.execute(params![
                answer.entry.as_str(),
                answer.col,
                n.name,
                version,
                answer.model,
                answer.place,
                answer.at,
                n.products,
                n.recommended,
                n.sentence
            ])?;
        }
        done.execute(params![answer.entry.as_str(), version])?;
    }
    Ok(())
}

/// Fills the list of answers to read with every answered AI entry and comparison not read
/// by the rules of `version`, and keeps the list for that version: once per version, the
/// one walk over every answer stored.
pub(super) fn prepare(tx: &Connection, version: u32) -> Result<(), rusqlite::Error> {
    tx.execute("DELETE FROM answers_to_read", [])?;
    tx.execute(
        "INSERT OR IGNORE INTO answers_to_read (entry_id, at)
         SELECT r.id, r.created_at FROM requests r JOIN responses s ON s.request_id = r.id
         WHERE r.kind IN ('ai', 'compare') AND s.status = 200
           AND NOT EXISTS (SELECT 1 FROM answer_reads a
                           WHERE a.entry_id = r.id AND +a.version = ?1)",
        [version],
    )?;
    tx.execute(
        "INSERT INTO names_rules (one, version) VALUES (1, ?1)
         ON CONFLICT (one) DO UPDATE SET version = excluded.version",
        [version],
    )?;
    Ok(())
}

/// The rules' version the list of answers to read is kept for (none before it is filled).
pub(super) fn kept_for(conn: &Connection) -> Result<Option<u32>, StoreError> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .query_row("SELECT version FROM names_rules WHERE one = 1", [], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Answered AI entries and comparisons on the list to read (newest first), at most
/// `limit`, made at or after `since`.
pub(super) fn unread(
    conn: &Connection,
    since: i64,
    limit: usize,
) -> Result<Vec<EntryId>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT entry_id FROM answers_to_read WHERE at >= ?1 ORDER BY at DESC LIMIT ?2",
    )?;
    let rows = statement.query_map(
        params![since, i64::try_from(limit).unwrap_or(i64::MAX)],
        |r| r.get::<_, String>(0),
    )?;
    Ok(rows
        .map(|r| r.map(EntryId))
        .collect::<Result<Vec<_>, _>>()?)
}

/// How many there are.
pub(super) fn unread_count(conn: &Connection, since: i64) -> Result<usize, StoreError> {
    let count: i64 = conn.query_row(
        "SELECT count(*) FROM answers_to_read WHERE at >= ?1",
        [since],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(count).unwrap_or(0))
}

/// The names over every answer read by the rules of `version` (made at or after `since`,
/// when given), per model and place.
pub(super) fn totals(
    conn: &Connection,
    version: u32,
    since: Option<i64>,
) -> Result<Vec<NameTotal>, StoreError> {
    let map = |row: &rusqlite::Row<'_>| {
        Ok(NameTotal {
            name: row.get(0)?,
            model: row.get(1)?,
            place: row.get(2)?,
            answers: row.get(3)?,
            recommended: row.get(4)?,
            sentence: row.get(5)?,
        })
    };
    let rows = match since {
        None => conn
            .prepare_cached(
                "SELECT name, model, place, answers, recommended, sentence FROM name_totals
                 WHERE version = ?1 AND answers > 0",
            )?
            .query_map([version], map)?
            .collect::<Result<Vec<_>, _>>()?,
        Some(since) => conn
            .prepare_cached(
                "SELECT name, model, place, count(*), sum(recommended), min(sentence)
                 FROM answer_names WHERE version = ?1 AND at >= ?2
                 GROUP BY name, model, place",
            )?
            .query_map(params![version, since], map)?
            .collect::<Result<Vec<_>, _>>()?,
    };
    Ok(rows)
}

/// The products the answers name under `name`, as kept (JSON arrays), at most `limit`.
pub(super) fn products(
    conn: &Connection,
    name: &str,
    limit: usize,
) -> Result<Vec<String>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT DISTINCT products FROM answer_names WHERE name = ?1 AND products <> '[]'
         LIMIT ?2",
    )?;
    let rows = statement.query_map(
        params![name, i64::try_from(limit).unwrap_or(i64::MAX)],
        |r| r.get::<_, String>(0),
    )?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// How many answers are read by the rules of `version` (made at or after `since`), and how
/// many of them as plain text.
pub(super) fn read_count(
    conn: &Connection,
    version: u32,
    since: i64,
) -> Result<AnswersRead, StoreError> {
    let (answers, as_text): (i64, i64) = conn.query_row(
        "SELECT count(*), coalesce(sum(as_text), 0) FROM answer_reads
         WHERE version = ?1 AND at >= ?2",
        params![version, since],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(AnswersRead {
        answers: usize::try_from(answers).unwrap_or(0),
        as_text: usize::try_from(as_text).unwrap_or(0),
    })
}

impl Store {
    /// Keeps the names answers put forward, read by the rules of `version`.
    pub fn keep_names(&self, version: u32, answers: Vec<AnswerNames>) -> Ack {
        self.send(Op::Names { version, answers })
    }

    /// Makes the list of answers to read the list for the rules of `version`, when it is
    /// not already (the one walk over every answer, once per version).
    pub fn names_prepare(&self, version: u32) -> Result<(), StoreError> {
        if self.with_reader(kept_for)? == Some(version) {
            return Ok(());
        }
        self.send(Op::NamesPrepare { version }).wait()
    }

    /// Answered AI entries and comparisons, newest first, whose names are still to read
    /// (after `names_prepare`): at most `limit`, made at or after `since`.
    pub fn names_unread(&self, since: i64, limit: usize) -> Result<Vec<EntryId>, StoreError> {
        self.with_reader(|c| unread(c, since, limit))
    }

    /// How many there are.
    pub fn names_unread_count(&self, since: i64) -> Result<usize, StoreError> {
        self.with_reader(|c| unread_count(c, since))
    }

    /// The kept names per model and place, over every answer (or those since `since`).
    pub fn name_totals(
        &self,
        version: u32,
        since: Option<i64>,
    ) -> Result<Vec<NameTotal>, StoreError> {
        self.with_reader(|c| totals(c, version, since))
    }

    /// How many answers have their names kept by the rules of `version` (made at or after
    /// `since`).
    pub fn names_read_count(&self, version: u32, since: i64) -> Result<AnswersRead, StoreError> {
        self.with_reader(|c| read_count(c, version, since))
    }

    /// The products kept under a name (JSON arrays), at most `limit`.
    pub fn name_products(&self, name: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        self.with_reader(|c| products(c, name, limit))
    }
}
