//! The word-level difference of two answers: which words the second drops and which it adds.
//! Pure; `similar` does the diffing, this only shapes the result for the views and exports.

use serde::Serialize;
use similar::{Algorithm, ChangeTag, TextDiff};

/// Whether a run of words is in both texts, only the first, or only the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Same,
    Removed,
    Added,
}

/// A run of text (words with the spaces between them) of one kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    pub change: Change,
    pub text: String,
}

/// Two texts compared word by word.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WordDiff {
    pub pieces: Vec<Piece>,
    /// Words only in the first text.
    pub removed_words: usize,
    /// Words only in the second text.
    pub added_words: usize,
    /// Words in both.
    pub same_words: usize,
}

/// Texts beyond this many bytes are compared up to it: diffing is quadratic at worst, and
/// answers of the service run to a few tens of kilobytes.
pub const MAX_DIFF_BYTES: usize = 256 * 1024;

fn bounded(text: &str) -> &str {
    if text.len() <= MAX_DIFF_BYTES {
        return text;
    }
    let mut end = MAX_DIFF_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Compares `old` with `new` word by word. Adjacent pieces of the same kind are joined, so a
/// view draws one span per run.
pub fn words(old: &str, new: &str) -> WordDiff {
    // Patience anchors on words found once in each text, so prose aligns on its rare words
    // rather than on the spaces between common ones. The deadline bounds a hostile pair.
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(std::time::Duration::from_millis(250))
        .diff_words(bounded(old), bounded(new));
    let mut out = WordDiff::default();
    for change in diff.iter_all_changes() {
        let kind = match change.tag() {
            ChangeTag::Equal => Change::Same,
            ChangeTag::Delete => Change::Removed,
            ChangeTag::Insert => Change::Added,
        };
        let text = change.value();
        if !text.trim().is_empty() {
            match kind {
                Change::Same => out.same_words += 1,
                Change::Removed => out.removed_words += 1,
                Change::Added => out.added_words += 1,
            }
        }
        match out.pieces.last_mut() {
            Some(last) if last.change == kind => last.text.push_str(text),
            _ => out.pieces.push(Piece {
                change: kind,
                text: text.to_string(),
            }),
        }
    }
    out.pieces = coalesce(out.pieces);
    out
}

/// Joins the changes that only spaces separate into one removed and one added run, so that a
/// rewritten sentence reads as `[-old words-]{+new words+}` rather than alternating word by
/// word on the spaces both texts happen to share.
fn coalesce(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    let mut removed = String::new();
    let mut added = String::new();
    // Spaces met inside a run of changes; they join the run only if another change follows.
    let mut spaces = String::new();
    let mut in_block = false;
    let flush = |out: &mut Vec<Piece>, removed: &mut String, added: &mut String| {
        for (change, text) in [(Change::Removed, removed), (Change::Added, added)] {
            if !text.is_empty() {
                out.push(Piece {
                    change,
                    text: std::mem::take(text),
                });
            }
        }
    };
    for piece in pieces {
        match piece.change {
            Change::Same if in_block && piece.text.trim().is_empty() => {
                spaces.push_str(&piece.text)
            }
            Change::Same => {
                flush(&mut out, &mut removed, &mut added);
                in_block = false;
                let text = std::mem::take(&mut spaces) + &piece.text;
                out.push(Piece {
                    change: Change::Same,
                    text,
                });
            }
            Change::Removed | Change::Added => {
                // Spaces between two changes belong to both texts.
                removed.push_str(&spaces);
                added.push_str(&spaces);
                spaces.clear();
                in_block = true;
                match piece.change {
                    Change::Removed => removed.push_str(&piece.text),
                    _ => added.push_str(&piece.text),
                }
            }
        }
    }
    flush(&mut out, &mut removed, &mut added);
    if !spaces.is_empty() {
        out.push(Piece {
            change: Change::Same,
            text: spaces,
        });
    }
    out
}

impl Piece {
    /// Only spaces: drawn and written as they are, without the marks of a change.
    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
}

impl WordDiff {
    /// The diff as plain text for files and pipes: `[-removed-]` and `{+added+}`, as
    /// `git diff --word-diff` writes them.
    pub fn marked_text(&self) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece.change {
                Change::Same => out.push_str(&piece.text),
                _ if piece.is_blank() => out.push_str(&piece.text),
                Change::Removed => {
                    out.push_str("[-");
                    out.push_str(&piece.text);
                    out.push_str("-]");
                }
                Change::Added => {
                    out.push_str("{+");
                    out.push_str(&piece.text);
                    out.push_str("+}");
                }
            }
        }
        out
    }

    /// Share of the words of both texts that are common to both, 0 to 100.
    pub fn similarity(&self) -> f64 {
        let total = self.same_words * 2 + self.removed_words + self.added_words;
        if total == 0 {
            100.0
        } else {
            (self.same_words * 2) as f64 * 100.0 / total as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_texts_are_one_same_piece() {
        let diff = words("Salomon and Lowa lead.", "Salomon and Lowa lead.");
        assert_eq!(diff.pieces.len(), 1);
        assert_eq!(diff.pieces[0].change, Change::Same);
        assert_eq!(diff.removed_words + diff.added_words, 0);
        assert_eq!(diff.similarity(), 100.0);
    }

    #[test]
    fn a_replaced_word_is_removed_then_added() {
        let diff = words("Buy Salomon boots today", "Buy Merrell boots today");
        let marked = diff.marked_text();
        assert_eq!(marked, "Buy [-Salomon-]{+Merrell+} boots today");
        assert_eq!(diff.removed_words, 1);
        assert_eq!(diff.added_words, 1);
        assert_eq!(diff.same_words, 3);
        assert_eq!(diff.similarity(), 75.0);
    }

    #[test]
    fn insertions_and_deletions_are_counted_in_words() {
        let diff = words("one two three", "one three four five");
        assert_eq!(diff.removed_words, 1, "{diff:?}");
        assert_eq!(diff.added_words, 2, "{diff:?}");
        assert_eq!(diff.same_words, 2, "{diff:?}");
        let rebuilt_old: String = diff
            .pieces
            .iter()
            .filter(|p| p.change != Change::Added)
            .map(|p| p.text.as_str())
            .collect();
        let rebuilt_new: String = diff
            .pieces
            .iter()
            .filter(|p| p.change != Change::Removed)
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(rebuilt_old, "one two three");
        assert_eq!(rebuilt_new, "one three four five");
    }

    #[test]
    fn a_rewritten_sentence_is_one_removed_and_one_added_run() {
        let old = "Good hiking boots depend on fit. Salomon leads.";
        let new = "Boots vary mostly in sizing. Salomon leads.";
        let diff = words(old, new);
        assert_eq!(
            diff.marked_text(),
            "[-Good hiking boots depend on fit.-]{+Boots vary mostly in sizing.+} Salomon leads."
        );
        let side = |skip: Change| -> String {
            diff.pieces
                .iter()
                .filter(|p| p.change != skip)
                .map(|p| p.text.as_str())
                .collect()
        };
        assert_eq!(side(Change::Added), old);
        assert_eq!(side(Change::Removed), new);
    }

    #[test]
    fn empty_against_text_is_all_added() {
        let diff = words("", "Lowa Renegade");
        assert_eq!(diff.added_words, 2);
        assert_eq!(diff.same_words, 0);
        assert_eq!(diff.similarity(), 0.0);
        assert!(diff.pieces.iter().all(|p| p.change == Change::Added));
    }

    #[test]
    fn oversized_texts_are_cut_on_a_character_boundary() {
        let long = "ö".repeat(MAX_DIFF_BYTES);
        let diff = words(&long, "x");
        assert!(diff.removed_words >= 1);
    }
}
