//! What an item is about: the words of its bold lead, its label's name, or its first line
//! before a separator; and the number it opens with.

use std::ops::Range;

/// A subject longer than this many words is cut to them: a sentence is not a subject.
const SUBJECT_WORDS: usize = 8;

/// First words of a bold label that comes before the name it labels ("**Best overall**:
/// Salomon X Ultra").
const LABEL_WORDS: &[&str] = &[
    "best",
    "budget",
    "premium",
    "top",
    "pick",
    "our",
    "overall",
    "runner-up",
    "runner",
    "price",
    "value",
    "upgrade",
    "alternative",
    "winner",
    "editor's",
    "for",
    "most",
    "cheapest",
    "lightest",
];

/// Separators that end an item's subject when it has no bold lead ("Salomon — best for …",
/// "Merrell: roomy", "Lowa Renegade - stiff").
const SUBJECT_ENDS: &[&str] = &[": ", " — ", " – ", " - ", " (", "; ", ", ", ". ", "\n"];

/// The number a heading or an item opens with: "1. ", "1) ", "#1 ", or a number alone; not
/// a year or a measure ("2025 Buyer's Guide", "1.5 kg").
pub(super) fn leading_number(text: &str) -> Option<usize> {
    let text = text.trim_start();
    let (hash, rest) = match text.strip_prefix('#') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 3 {
        return None;
    }
    let after = &rest[digits..];
    let mut chars = after.chars();
    let numbered = match chars.next() {
        None => true,
        Some('.' | ')') => chars.next().is_none_or(char::is_whitespace),
        Some(c) => hash && c.is_whitespace(),
    };
    numbered.then(|| rest[..digits].parse().ok()).flatten()
}

pub(super) fn is_number(text: &str) -> bool {
    let text = text
        .trim()
        .trim_start_matches('#')
        .trim_end_matches(['.', ')']);
    !text.is_empty() && text.chars().all(|c| c.is_ascii_digit())
}

/// `range` of `text` without a leading "1. " or "#1", spaces, and a closing ":" or dash.
pub(super) fn strip_number(text: &str, range: Range<usize>) -> Range<usize> {
    let words = &text[range.clone()];
    let mut rest = words.trim_start();
    if leading_number(rest).is_some() {
        rest = rest
            .trim_start_matches('#')
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches(['.', ')'])
            .trim_start();
    }
    let start = range.end - rest.len();
    let kept = rest.trim_end_matches([':', ' ', '—', '–', '-']);
    start..start + kept.len()
}

/// The subject of an item that opens with a bold lead at `start..bold_end` (the item ends at
/// `end`): the lead, or for a label followed by a short name ("**Best overall:** Salomon X
/// Ultra — …") the name.
pub(super) fn lead_subject(text: &str, start: usize, bold_end: usize, end: usize) -> Range<usize> {
    let lead = strip_number(text, start..bold_end);
    let rest = &text[bold_end..end];
    // "**Best overall:** Salomon": a colon inside the bold, or a label's word before one
    // outside it ("**Budget**: Merrell"); "**Eufy X10**: the value pick" is a name.
    let first_word = text[lead.clone()]
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let is_label = text[start..bold_end].trim_end().ends_with(':')
        || rest.starts_with(':') && LABEL_WORDS.contains(&first_word.as_str());
    if !is_label {
        return lead;
    }
    let after_start = end - rest.trim_start_matches([':', ' ']).len();
    let line_end = text[after_start..end]
        .find('\n')
        .map_or(end, |at| after_start + at);
    let after = plain_subject(text, after_start, line_end);
    // A label before a sentence ("**Standout feature:** its context window …") is the subject.
    match text[after.clone()].split_whitespace().count() {
        1..=4 => after,
        _ => lead,
    }
}

/// The subject of an item without a bold lead: the words of its first line before a
/// separator, at most [`SUBJECT_WORDS`] of them.
pub(super) fn plain_subject(text: &str, start: usize, end: usize) -> Range<usize> {
    let line = &text[start..end];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let cut = SUBJECT_ENDS
        .iter()
        .filter_map(|sep| line.find(sep))
        .min()
        .unwrap_or(line.len());
    let head = strip_number(text, start..start + cut);
    let words = &text[head.clone()];
    match words.split_whitespace().nth(SUBJECT_WORDS) {
        None => head,
        Some(word) => {
            let offset = word.as_ptr() as usize - words.as_ptr() as usize;
            head.start..head.start + words[..offset].trim_end().len()
        }
    }
}
