//! The last resort of a recovery: rows read straight from the file's pages, for a table
//! whose tree SQLite can no longer walk. A damaged root or interior page hides every leaf
//! below it, however whole those leaves are; here every leaf page of the file is read (the
//! SQLite file format: page headers, cells, records, overflow chains), and a row is kept
//! only when each index of its table that SQLite can still read holds it as it is (its
//! indexed columns and its rowid), at least one of them. So a row deleted or replaced since
//! (its old page lingers in the file until reused), a row of another table, or noise that
//! happens to look like a page, is never brought back.
//!
//! Pages are read from the file itself, not its log (`-wal`): a page whose newer copy is in
//! the log may be older here, and is kept only where the indexes agree with it.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use rusqlite::types::Value;
use rusqlite::{Connection, params_from_iter};

use super::salvage::Deadline;

/// A table b-tree's leaf page, by its first byte.
const TABLE_LEAF: u8 = 0x0D;
/// Pages an overflow chain may run through at most: a row of a few hundred MB.
const MAX_CHAIN: usize = 1 << 17;

/// The database file, read a page at a time.
pub(super) struct PageFile {
    file: File,
    page_size: usize,
    /// The page size less the bytes each page reserves at its end.
    usable: usize,
    pages: u64,
}

impl PageFile {
    /// The file at `path`, its page size from its header (4096, SQLite's default, when the
    /// header is lost).
    pub(super) fn open(path: &Path) -> Option<PageFile> {
        let mut file = File::open(path).ok()?;
        let mut header = [0u8; 100];
        let (page_size, reserved) = match file.read_exact(&mut header) {
            Ok(()) if header.starts_with(b"SQLite format 3\0") => {
                let size = match u16::from_be_bytes([header[16], header[17]]) {
                    1 => 65_536,
                    size => usize::from(size),
                };
                (size, usize::from(header[20]))
            }
            _ => (4096, 0),
        };
        let valid = page_size.is_power_of_two() && (512..=65_536).contains(&page_size);
        let (page_size, reserved) = if valid {
            (page_size, reserved)
        } else {
            (4096, 0)
        };
        let usable = page_size.checked_sub(reserved).filter(|u| *u >= 480)?;
        let pages = file.metadata().ok()?.len() / page_size as u64;
        Some(PageFile {
            file,
            page_size,
            usable,
            pages,
        })
    }

    /// Page `number` (from 1), whole, or `None` past the end.
    fn page(&mut self, number: u64) -> Option<Vec<u8>> {
        if number == 0 || number > self.pages {
            return None;
        }
        let mut page = vec![0u8; self.page_size];
        self.file
            .seek(SeekFrom::Start((number - 1) * self.page_size as u64))
            .ok()?;
        self.file.read_exact(&mut page).ok()?;
        Some(page)
    }

    /// Hands every row of every table leaf page that decodes to `visit`: its rowid and its
    /// record's values. Stops at the deadline.
    pub(super) fn leaf_rows(
        &mut self,
        deadline: &Deadline,
        mut visit: impl FnMut(i64, Vec<Value>),
    ) {
        for number in 1..=self.pages {
            if deadline.passed() {
                return;
            }
            let Some(page) = self.page(number) else {
                return;
            };
            // Page 1 starts with the file's header.
            let start = if number == 1 { 100 } else { 0 };
            if page.get(start) != Some(&TABLE_LEAF) {
                continue;
            }
            let cells = usize::from(u16::from_be_bytes([page[start + 3], page[start + 4]]));
            for cell in 0..cells {
                let at = start + 8 + 2 * cell;
                let Some(pointer) = page.get(at..at + 2) else {
                    break;
                };
                let offset = usize::from(u16::from_be_bytes([pointer[0], pointer[1]]));
                if let Some((rowid, values)) = self.cell(&page, offset) {
                    visit(rowid, values);
                }
            }
        }
    }

    /// The rowid and values of the table leaf cell at `offset`, with its overflow pages.
    fn cell(&mut self, page: &[u8], offset: usize) -> Option<(i64, Vec<Value>)> {
        let bytes = page.get(offset..self.usable)?;
        let (size, used) = varint(bytes)?;
        let (rowid, more) = varint(bytes.get(used..)?)?;
        let size = usize::try_from(size).ok()?;
        let body = used + more;
        let local = self.local_size(size);
        let mut payload = bytes.get(body..body + local)?.to_vec();
        if local < size {
            let link = bytes.get(body + local..body + local + 4)?;
            let mut next = u64::from(u32::from_be_bytes([link[0], link[1], link[2], link[3]]));
            for _ in 0..MAX_CHAIN {
                if payload.len() >= size {
                    break;
                }
                let overflow = self.page(next)?;
                next = u64::from(u32::from_be_bytes([
                    overflow[0],
                    overflow[1],
                    overflow[2],
                    overflow[3],
                ]));
                let take = (size - payload.len()).min(self.usable - 4);
                payload.extend_from_slice(overflow.get(4..4 + take)?);
            }
            if payload.len() < size {
                return None;
            }
        }
        Some((rowid, record(&payload)?))
    }

    /// The bytes of a payload of `size` kept on the leaf page itself (SQLite's rule for
    /// table leaves); the rest is on overflow pages.
    fn local_size(&self, size: usize) -> usize {
        let most = self.usable - 35;
        if size <= most {
            return size;
        }
        let least = (self.usable - 12) * 32 / 255 - 23;
        let local = least + (size - least) % (self.usable - 4);
        if local <= most { local } else { least }
    }
}

/// A SQLite varint: its value and its length in bytes.
fn varint(bytes: &[u8]) -> Option<(i64, usize)> {
    let mut value: u64 = 0;
    for (i, byte) in bytes.iter().take(9).enumerate() {
        if i == 8 {
            return Some(((value << 8 | u64::from(*byte)) as i64, 9));
        }
        value = value << 7 | u64::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            return Some((value as i64, i + 1));
        }
    }
    None
}

/// A record's values, or `None` when it does not decode (noise, or text not UTF-8).
fn record(payload: &[u8]) -> Option<Vec<Value>> {
    let (header, mut at) = varint(payload)?;
    let header = usize::try_from(header)
        .ok()
        .filter(|h| *h <= payload.len())?;
    let mut body = header;
    let mut values = Vec::new();
    while at < header {
        let (kind, used) = varint(payload.get(at..header)?)?;
        at += used;
        let integer = |width: usize, body: usize| -> Option<Value> {
            let bytes = payload.get(body..body + width)?;
            let mut value = if bytes[0] & 0x80 != 0 { -1i64 } else { 0 };
            for byte in bytes {
                value = value << 8 | i64::from(*byte);
            }
            Some(Value::Integer(value))
        };
        let (value, width) = match kind {
            0 => (Value::Null, 0),
            1..=4 => (integer(kind as usize, body)?, kind as usize),
            5 => (integer(6, body)?, 6),
            6 => (integer(8, body)?, 8),
            7 => {
                let bytes: [u8; 8] = payload.get(body..body + 8)?.try_into().ok()?;
                (Value::Real(f64::from_be_bytes(bytes)), 8)
            }
            8 => (Value::Integer(0), 0),
            9 => (Value::Integer(1), 0),
            n if n >= 12 && n % 2 == 0 => {
                let width = usize::try_from((n - 12) / 2).ok()?;
                (
                    Value::Blob(payload.get(body..body + width)?.to_vec()),
                    width,
                )
            }
            n if n >= 13 => {
                let width = usize::try_from((n - 13) / 2).ok()?;
                let text = std::str::from_utf8(payload.get(body..body + width)?).ok()?;
                (Value::Text(text.to_string()), width)
            }
            _ => return None,
        };
        body += width;
        values.push(value);
    }
    Some(values)
}

/// An index of a table as a check of a row: the statement that counts its entries with the
/// row's indexed columns and rowid, and the positions of those columns in the row.
struct IndexCheck {
    sql: String,
    columns: Vec<usize>,
}

/// The checks of `table`'s indexes that the damaged file can still prepare.
fn index_checks(old: &Connection, table: &str, names: &[String]) -> Vec<IndexCheck> {
    let indexes: Vec<String> = old
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1")
        .and_then(|mut s| s.query_map([table], |r| r.get(0))?.collect())
        .unwrap_or_default();
    indexes
        .into_iter()
        .filter_map(|index| {
            // (column number in the table, collation), the key's columns only.
            let keys: Vec<(i64, String)> = old
                .prepare(&format!("PRAGMA index_xinfo(\"{index}\")"))
                .and_then(|mut s| {
                    s.query_map([], |r| Ok((r.get(1)?, r.get(4)?, r.get::<_, i64>(5)?)))?
                        .filter_map(|row| match row {
                            Ok((cid, coll, 1)) => Some(Ok((cid, coll))),
                            Ok(_) => None,
                            Err(e) => Some(Err(e)),
                        })
                        .collect()
                })
                .ok()?;
            let mut terms = Vec::new();
            let mut columns = Vec::new();
            for (cid, collation) in keys {
                let column = usize::try_from(cid).ok().filter(|c| *c < names.len())?;
                terms.push(format!(
                    "{} IS ?{} COLLATE {collation}",
                    names[column],
                    columns.len() + 1
                ));
                columns.push(column);
            }
            terms.push(format!("rowid = ?{}", columns.len() + 1));
            let sql = format!(
                "SELECT count(*) FROM {table} INDEXED BY \"{index}\" WHERE {}",
                terms.join(" AND ")
            );
            old.prepare(&sql).ok()?;
            Some(IndexCheck { sql, columns })
        })
        .collect()
}

/// Copies into `new` the rows of `table` found on the file's leaf pages that are not there
/// yet (by rowid) and that its indexes vouch for; returns how many.
pub(super) fn copy_from_pages(
    path: &Path,
    old: &Connection,
    new: &Connection,
    table: &str,
    deadline: &Deadline,
) -> rusqlite::Result<u64> {
    let names: Vec<(String, String, i64)> = old
        .prepare(&format!("PRAGMA table_info({table})"))?
        .query_map([], |row| Ok((row.get(1)?, row.get(2)?, row.get(5)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let aliased = match names
        .iter()
        .filter(|(_, _, pk)| *pk > 0)
        .collect::<Vec<_>>()[..]
    {
        [(name, kind, _)] if kind.eq_ignore_ascii_case("INTEGER") => Some(name.clone()),
        _ => None,
    };
    let columns: Vec<String> = names.into_iter().map(|(name, _, _)| name).collect();
    let checks = index_checks(old, table, &columns);
    let Some(mut file) = PageFile::open(path).filter(|_| !checks.is_empty()) else {
        return Ok(0);
    };
    let mut here = new.prepare(&format!("SELECT 1 FROM {table} WHERE rowid = ?1"))?;
    let mut kept = 0;
    file.leaf_rows(deadline, |rowid, mut values| {
        if values.len() > columns.len() || here.exists([rowid]).unwrap_or(true) {
            return;
        }
        // The rowid stands for the column that is its alias (stored as NULL).
        if let Some(alias) = &aliased
            && let Some(at) = columns.iter().position(|c| c == alias)
            && let Some(value @ Value::Null) = values.get_mut(at)
        {
            *value = Value::Integer(rowid);
        }
        let value_of = |column: usize| values.get(column).cloned().unwrap_or(Value::Null);
        let mut vouched = false;
        for check in &checks {
            let mut bound: Vec<Value> = check.columns.iter().map(|c| value_of(*c)).collect();
            bound.push(Value::Integer(rowid));
            match old.query_row(&check.sql, params_from_iter(bound), |r| r.get::<_, i64>(0)) {
                Ok(0) => return,
                Ok(_) => vouched = true,
                // A damaged index neither vouches nor objects.
                Err(_) => {}
            }
        }
        if !vouched {
            return;
        }
        let listed = &columns[..values.len()];
        let sql = format!(
            "INSERT OR IGNORE INTO {table} (rowid, {}) VALUES (?1, {})",
            listed.join(", "),
            (2..=values.len() + 1)
                .map(|i| format!("?{i}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut bound = vec![Value::Integer(rowid)];
        bound.extend(values);
        if let Ok(1) = new.execute(&sql, params_from_iter(bound)) {
            kept += 1;
        }
    });
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_records_decode_as_sqlite_writes_them() {
        assert_eq!(varint(&[0x05]), Some((5, 1)));
        assert_eq!(varint(&[0x81, 0x00]), Some((128, 2)));
        assert_eq!(varint(&[0xff; 9]), Some((-1, 9)));
        assert_eq!(varint(&[0x80, 0x80]), None, "cut short");
        // A header of 5 bytes (its size, then NULL, an 8-bit integer, a text of 2, a one).
        let record_bytes = [5, 0, 1, 17, 9, 0xfe, b'h', b'i'];
        assert_eq!(
            record(&record_bytes),
            Some(vec![
                Value::Null,
                Value::Integer(-2),
                Value::Text("hi".into()),
                Value::Integer(1)
            ])
        );
        assert_eq!(
            record(&[4, 0, 1, 17, 9, 0xfe, 0xff, 0xfe]),
            None,
            "not UTF-8"
        );
        assert_eq!(record(&[40, 1]), None, "a header longer than the record");
    }
}
