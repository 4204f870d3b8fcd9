//! Fuzzy ranking for pickers and filters, on top of `nucleo-matcher`.
//!
//! A query is split on whitespace into words; a candidate matches when every word matches it
//! fuzzily (letters in order, gaps allowed). Case is smart (a query with an upper-case letter
//! matches case exactly) and so are diacritics (a plain-ASCII query matches accented letters:
//! "munchen" finds "München"; a query with accents matches them exactly). No search syntax:
//! `^`, `$`, `!` and `'` are ordinary characters.

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

/// One candidate that matched a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranked {
    /// Index into the candidates as given.
    pub index: usize,
    /// Higher is better; 0 for every candidate when the query is empty.
    pub score: u32,
    /// Char indices (not byte offsets) of the matched characters in the candidate,
    /// ascending and without duplicates, for highlighting.
    pub positions: Vec<u32>,
}

/// Ranks candidates against a query. Owns a matcher and buffers reused between calls.
pub struct FuzzyMatcher {
    matcher: Matcher,
    chars: Vec<char>,
}

impl Default for FuzzyMatcher {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for FuzzyMatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FuzzyMatcher").finish_non_exhaustive()
    }
}

impl FuzzyMatcher {
    pub fn new() -> Self {
        let mut config = Config::DEFAULT;
        // Pickers are typed into from the start of a name: "new york" should put
        // "New York City" before "West New York".
        config.prefer_prefix = true;
        Self {
            matcher: Matcher::new(config),
            chars: Vec::new(),
        }
    }

    /// Ranks candidates against a query: best first, ties keep the original order.
    /// An empty (or all-whitespace) query returns every candidate in the original order,
    /// with score 0 and no positions.
    pub fn rank<'a>(
        &mut self,
        query: &str,
        candidates: impl IntoIterator<Item = &'a str>,
    ) -> Vec<Ranked> {
        let pattern = Pattern::new(
            query,
            CaseMatching::Smart,
            Normalization::Smart,
            AtomKind::Fuzzy,
        );
        if pattern.atoms.is_empty() {
            return candidates
                .into_iter()
                .enumerate()
                .map(|(index, _)| Ranked {
                    index,
                    score: 0,
                    positions: Vec::new(),
                })
                .collect();
        }
        let mut ranked = Vec::new();
        let mut positions = Vec::new();
        for (index, candidate) in candidates.into_iter().enumerate() {
            // One char per element, so match indices are char indices. (Utf32Str::new would
            // fold grapheme clusters to one element and shift the indices after them.)
            let haystack = if candidate.is_ascii() {
                Utf32Str::Ascii(candidate.as_bytes())
            } else {
                self.chars.clear();
                self.chars.extend(candidate.chars());
                Utf32Str::Unicode(&self.chars)
            };
            positions.clear();
            if let Some(score) = pattern.indices(haystack, &mut self.matcher, &mut positions) {
                positions.sort_unstable();
                positions.dedup();
                ranked.push(Ranked {
                    index,
                    score,
                    positions: positions.clone(),
                });
            }
        }
        // Stable: equal scores stay in candidate order.
        ranked.sort_by_key(|r| std::cmp::Reverse(r.score));
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_char_indices() {
        let mut m = FuzzyMatcher::new();
        let r = m.rank("chen", ["München"]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].positions, [3, 4, 5, 6]);
    }

    #[test]
    fn every_word_must_match() {
        let mut m = FuzzyMatcher::new();
        let r = m.rank("new zork", ["New York", "New Zork"]);
        assert_eq!(r.iter().map(|r| r.index).collect::<Vec<_>>(), [1]);
    }
}
