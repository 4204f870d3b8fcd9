//! Full-text search over the history: every request (its summary and parameters) and every
//! answer (the text values of its JSON, or the body as is when it is not JSON), in an FTS5
//! table of SQLite's own.
//!
//! Triggers keep the index in step inside the writer's transactions, so whatever adds,
//! replaces, trims or clears history updates it too; the migration indexes the rows stored
//! before it. A row is replaced by a delete and an insert: a contentless table does not
//! check that a rowid is new, and a trigger's own conflict clause gives way to the
//! statement's. The index keeps no copy of the text (`content=''`): a 478 KB answer is not
//! stored twice. Rows are matched case- and diacritics-insensitively (`Löwa` finds `Lowa`).

use rusqlite::Connection;

use super::StoreError;
use super::model::{HistoryItem, RequestKind};

/// The searchable text of a request row `r`: its summary and its parameters' string values.
macro_rules! request_text {
    ($r:literal) => {
        concat!(
            $r,
            ".summary || ' ' || CASE WHEN json_valid(",
            $r,
            ".params) THEN coalesce(",
            "(SELECT group_concat(value, ' ') FROM json_tree(",
            $r,
            ".params) WHERE type = 'text'),",
            " '') ELSE ",
            $r,
            ".params END"
        )
    };
}

/// The searchable text of a response body: the string values of its JSON but the page's
/// HTML (markup, and several times the answer's size), or the body itself when not JSON.
macro_rules! answer_text {
    ($body:literal) => {
        concat!(
            "CASE WHEN json_valid(",
            $body,
            ") THEN coalesce(",
            "(SELECT group_concat(value, ' ') FROM json_tree(",
            $body,
            ")",
            " WHERE type = 'text' AND key IS NOT 'html'), '') ELSE ",
            $body,
            " END"
        )
    };
}

/// The index, the triggers that keep it in step, and the rows already stored.
pub(super) const MIGRATION: &str = concat!(
    "
    CREATE VIRTUAL TABLE history_text USING fts5(
        request, answer,
        content = '', contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER history_text_request AFTER INSERT ON requests BEGIN
        INSERT INTO history_text (rowid, request, answer) SELECT new.rowid, ",
    request_text!("r"),
    ", '' FROM requests r WHERE r.rowid = new.rowid;
    END;
    CREATE TRIGGER history_text_answer AFTER INSERT ON responses BEGIN
        DELETE FROM history_text
            WHERE rowid = (SELECT rowid FROM requests WHERE id = new.request_id);
        INSERT INTO history_text (rowid, request, answer) SELECT r.rowid, ",
    request_text!("r"),
    ", ",
    answer_text!("new.body"),
    " FROM requests r WHERE r.id = new.request_id;
    END;
    CREATE TRIGGER history_text_answer_again AFTER UPDATE OF body ON responses BEGIN
        DELETE FROM history_text
            WHERE rowid = (SELECT rowid FROM requests WHERE id = new.request_id);
        INSERT INTO history_text (rowid, request, answer) SELECT r.rowid, ",
    request_text!("r"),
    ", ",
    answer_text!("new.body"),
    " FROM requests r WHERE r.id = new.request_id;
    END;
    CREATE TRIGGER history_text_forget AFTER DELETE ON requests BEGIN
        DELETE FROM history_text WHERE rowid = old.rowid;
    END;
    INSERT INTO history_text (rowid, request, answer) SELECT r.rowid, ",
    request_text!("r"),
    ", coalesce(",
    answer_text!("s.body"),
    ", '') FROM requests r LEFT JOIN responses s ON s.request_id = r.id;
    "
);

/// The user's words as an FTS5 query: each word must appear (as a whole word, or as a
/// prefix when it ends in `*`), and nothing typed is taken as query syntax. None when
/// there is no word to look for.
pub fn match_expression(query: &str) -> Option<String> {
    let terms: Vec<String> = query
        .split_whitespace()
        .filter_map(|word| {
            let (word, prefix) = match word.strip_suffix('*') {
                Some(stem) => (stem, true),
                None => (word, false),
            };
            // A word with no letter or digit is no token: FTS5 would refuse the query.
            if !word.chars().any(char::is_alphanumeric) {
                return None;
            }
            let quoted = format!("\"{}\"", word.replace('"', "\"\""));
            Some(if prefix { quoted + "*" } else { quoted })
        })
        .collect();
    (!terms.is_empty()).then(|| terms.join(" "))
}

/// The entries whose request or answer holds every word of `query`, newest first.
pub fn search(
    conn: &Connection,
    query: &str,
    kind: Option<RequestKind>,
    limit: usize,
    offset: usize,
) -> Result<Vec<HistoryItem>, StoreError> {
    let Some(expression) = match_expression(query) else {
        return Ok(Vec::new());
    };
    // The page's rowids come from the index alone, newest first (an offset skips matches,
    // not rows); only the page's rows are then read.
    let mut statement = super::read::prepare_history_query(
        conn,
        "SELECT {columns} FROM (
            SELECT t.rowid AS k FROM history_text t
            WHERE history_text MATCH ?1
              AND (?2 IS NULL OR (SELECT kind FROM requests WHERE rowid = t.rowid) = ?2)
            ORDER BY t.rowid DESC LIMIT ?3 OFFSET ?4) w
         JOIN requests r ON r.rowid = w.k
         LEFT JOIN responses s {indexed} ON s.request_id = r.id
         ORDER BY r.rowid DESC",
    )?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = statement
        .query_map(
            rusqlite::params![expression, kind.map(RequestKind::as_str), limit, offset],
            super::read::history_item,
        )?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter().map(super::read::with_kind).collect()
}

/// How many entries hold every word of `query` (the "n" of "n of N" beside a search).
pub fn count(
    conn: &Connection,
    query: &str,
    kind: Option<RequestKind>,
) -> Result<usize, StoreError> {
    let Some(expression) = match_expression(query) else {
        return Ok(0);
    };
    // Without a kind the index alone counts: no stored row is read. The triggers keep the
    // index and the requests in step, so every match is an entry.
    let n: i64 = match kind {
        None => conn
            .prepare_cached("SELECT count(*) FROM history_text WHERE history_text MATCH ?1")?
            .query_row([expression], |row| row.get(0))?,
        Some(kind) => conn
            .prepare_cached(
                "SELECT count(*) FROM history_text t JOIN requests r ON r.rowid = t.rowid
                 WHERE history_text MATCH ?1 AND r.kind = ?2",
            )?
            .query_row(rusqlite::params![expression, kind.as_str()], |row| {
                row.get(0)
            })?,
    };
    Ok(usize::try_from(n).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::match_expression;

    #[test]
    fn typed_words_are_quoted_not_obeyed() {
        assert_eq!(match_expression("  "), None);
        assert_eq!(match_expression("- * \"\""), None);
        assert_eq!(
            match_expression("boots OR \"x NEAR(y)"),
            Some("\"boots\" \"OR\" \"\"\"x\" \"NEAR(y)\"".to_string())
        );
        assert_eq!(
            match_expression("merr* merrell.com"),
            Some("\"merr\"* \"merrell.com\"".to_string())
        );
    }
}
