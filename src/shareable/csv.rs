//! CSV that a spreadsheet shows and never evaluates: every cell of every CSV vantage writes
//! (search results, a comparison's tables, fan-out coverage, a set's report rows) passes
//! through [`cell`]. Quoting is the `csv` crate's.

use std::borrow::Cow;

use serde::Serialize;

use crate::sanitize;

/// A cell a spreadsheet reads as text, never as a formula: control characters are shown (a
/// CR directly before a newline goes), and a cell that starts with `=`, `+`, `-`, `@`, tab
/// or newline, or with spaces and then one of those, gets a leading `'`. A plain signed
/// number (`-3`, `+2`, `-0.5`) is data a spreadsheet should sort, and cannot carry a
/// formula: it is left as it is.
pub fn cell(text: &str) -> Cow<'_, str> {
    let clean = sanitize::for_terminal(text);
    if !is_formula(&clean) {
        return clean;
    }
    Cow::Owned(format!("'{clean}"))
}

fn is_formula(text: &str) -> bool {
    if is_plain_number(text) {
        return false;
    }
    let starts_formula = |c: Option<char>| matches!(c, Some('=' | '+' | '-' | '@'));
    matches!(text.chars().next(), Some('\t' | '\r' | '\n'))
        || starts_formula(text.trim_start().chars().next())
}

/// Digits with at most a leading sign and one decimal point: nothing a spreadsheet evaluates.
fn is_plain_number(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    !digits.is_empty()
        && digits.bytes().filter(|b| *b == b'.').count() <= 1
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && digits.bytes().any(|b| b.is_ascii_digit())
}

/// Rows as CSV text, one record a line, every cell through [`cell`].
pub fn text<R, C>(rows: R) -> String
where
    R: IntoIterator,
    R::Item: IntoIterator<Item = C>,
    C: AsRef<str>,
{
    let mut writer = csv::WriterBuilder::new()
        .flexible(true)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    for row in rows {
        let cells = row.into_iter().map(|c| cell(c.as_ref()).into_owned());
        // Writing into memory cannot fail; should it, the rows so far are kept.
        if writer.write_record(cells).is_err() {
            break;
        }
    }
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Records serialized as the `csv` crate writes them (a header of their field names first
/// when `header`), every cell through [`cell`]: each field is read back as the crate wrote
/// it, so no field of a record can slip past.
pub fn serialized<T: Serialize>(records: &[T], header: bool) -> Result<String, String> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(header)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    for record in records {
        writer.serialize(record).map_err(|e| e.to_string())?;
    }
    let written = writer.into_inner().map_err(|e| e.to_string())?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(written.as_slice());
    let rows = reader
        .records()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok(text(rows.iter().map(|row| row.iter())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn cells_that_a_spreadsheet_would_evaluate_become_text() {
        for formula in [
            "=1+1", "+1+cmd", "-1+A1", "-x", "@SUM(A1)", "\tx", "+", "-.", " =1+1", "\n=1",
        ] {
            assert_eq!(cell(formula), format!("'{formula}"), "{formula:?}");
        }
        // A lone CR is shown, and so cannot start anything.
        assert_eq!(cell("\r=1"), "␍=1");
        assert_eq!(cell("a\x1b]0;t\x07b"), "a␛b");
        // Signed numbers stay numbers a spreadsheet can sort.
        for number in ["+2", "-3", "0", "-0.5"] {
            assert!(matches!(cell(number), Cow::Borrowed(n) if n == number));
        }
        assert!(matches!(cell("plain"), Cow::Borrowed("plain")));
        assert!(matches!(cell(""), Cow::Borrowed("")));
    }

    #[test]
    fn text_quotes_and_neutralises_every_cell() {
        let rows = [
            vec!["n", "title", "url"],
            vec!["1", "=HYPERLINK(\"http://evil\")", "a, \"b\""],
            vec!["2", "line\nbreak", "@x"],
        ];
        assert_eq!(
            text(rows),
            "n,title,url\n1,\"'=HYPERLINK(\"\"http://evil\"\")\",\"a, \"\"b\"\"\"\n2,\"line\nbreak\",'@x\n"
        );
    }

    #[derive(Serialize)]
    struct Row {
        name: String,
        count: Option<u32>,
    }

    #[test]
    fn serialized_records_are_neutralised_field_by_field() {
        let rows = [
            Row {
                name: "=cmd|' /C calc'!A0".into(),
                count: Some(2),
            },
            Row {
                name: "plain, \"quoted\"".into(),
                count: None,
            },
        ];
        assert_eq!(
            serialized(&rows, true).unwrap(),
            "name,count\n'=cmd|' /C calc'!A0,2\n\"plain, \"\"quoted\"\"\",\n"
        );
        assert_eq!(
            serialized(&rows[1..], false).unwrap(),
            "\"plain, \"\"quoted\"\"\",\n"
        );
    }

    proptest! {
        #[test]
        fn no_cell_read_back_starts_a_formula_or_holds_a_control(
            cells in prop::collection::vec(
                prop::collection::vec(
                    prop_oneof![
                        prop::sample::select(vec!["=", "+", "-", "@", "\t", "\r", "\n", " ", "\x1b", "\u{85}", "\"", ","]),
                        Just("x"),
                        Just("1"),
                    ],
                    0..8,
                ).prop_map(|parts| parts.concat()),
                1..6,
            )
        ) {
            let written = text([cells.clone()]);
            let mut reader = ::csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(written.as_bytes());
            let record = reader.records().next().unwrap().unwrap();
            prop_assert_eq!(record.len(), cells.len());
            for read in record.iter() {
                prop_assert!(is_plain_number(read) || !is_formula(read), "{:?}", read);
                prop_assert!(!read.chars().any(sanitize::is_unsafe), "{:?}", read);
            }
        }
    }
}
