//! Ranking for pickers and filters: each word of the query must appear in a candidate, either
//! as it is typed (contiguous: "rei.com", "franc") or as the starts of consecutive words
//! ("nyc" for New York City, "sfran" for San Francisco). Letters scattered through a long text
//! do not count: they made "rei" match most of a results page.
//!
//! Contiguous beats initials, a word start beats the middle of a word, the start of the
//! candidate beats both. Case is smart (a word with an upper-case letter matches case
//! exactly) and so are diacritics (a plain-ASCII word matches accented letters: "munchen"
//! finds "München"; a word with accents matches them exactly). No search syntax: `^`, `$`,
//! `!` and `'` are ordinary characters. Folding comes from `nucleo-matcher`'s tables.

use nucleo_matcher::chars::{normalize, to_lower_case};

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

/// Per matched character: contiguous text, and the starts of words typed as initials.
const CONTIGUOUS_PER_CHAR: u32 = 24;
const INITIALS_PER_CHAR: u32 = 20;
/// A contiguous match that begins a word, and one that begins the candidate.
const WORD_START_BONUS: u32 = 16;
const CANDIDATE_START_BONUS: u32 = 8;

/// Ranks candidates against a query. Owns buffers reused between calls.
#[derive(Debug, Default)]
pub struct FuzzyMatcher {
    chars: Vec<char>,
    word_starts: Vec<usize>,
}

/// One word of the query, with how it compares.
struct Word {
    chars: Vec<char>,
    exact_case: bool,
    exact_accents: bool,
}

impl Word {
    fn new(text: &str) -> Word {
        let exact_case = text.chars().any(|c| c.is_uppercase());
        Word {
            chars: text
                .chars()
                .map(|c| if exact_case { c } else { to_lower_case(c) })
                .collect(),
            exact_case,
            exact_accents: !text.is_ascii(),
        }
    }

    fn same(&self, typed: char, candidate: char) -> bool {
        let candidate = if self.exact_accents {
            candidate
        } else {
            normalize(candidate)
        };
        let candidate = if self.exact_case {
            candidate
        } else {
            to_lower_case(candidate)
        };
        typed == candidate
    }
}

impl FuzzyMatcher {
    pub fn new() -> Self {
        Self::default()
    }

    /// Ranks candidates against a query: best first, ties keep the original order.
    /// An empty (or all-whitespace) query returns every candidate in the original order,
    /// with score 0 and no positions.
    pub fn rank<'a>(
        &mut self,
        query: &str,
        candidates: impl IntoIterator<Item = &'a str>,
    ) -> Vec<Ranked> {
        let words: Vec<Word> = query.split_whitespace().map(Word::new).collect();
        if words.is_empty() {
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
        for (index, candidate) in candidates.into_iter().enumerate() {
            if let Some((score, positions)) = self.score(&words, candidate) {
                ranked.push(Ranked {
                    index,
                    score,
                    positions,
                });
            }
        }
        // Stable: equal scores stay in candidate order.
        ranked.sort_by_key(|r| std::cmp::Reverse(r.score));
        ranked
    }

    /// The score and matched positions when every word matches the candidate.
    fn score(&mut self, words: &[Word], candidate: &str) -> Option<(u32, Vec<u32>)> {
        self.chars.clear();
        self.chars.extend(candidate.chars());
        self.word_starts.clear();
        let chars = &self.chars;
        self.word_starts
            .extend((0..chars.len()).filter(|&i| is_word_start(chars, i)));
        let mut total = 0;
        let mut positions = Vec::new();
        for word in words {
            let (score, at) = contiguous(word, chars, &self.word_starts)
                .or_else(|| initials(word, chars, &self.word_starts))?;
            total += score;
            positions.extend(at.into_iter().map(|p| p as u32));
        }
        positions.sort_unstable();
        positions.dedup();
        Some((total, positions))
    }
}

fn is_word_start(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    if !c.is_alphanumeric() {
        return false;
    }
    match i.checked_sub(1).map(|p| chars[p]) {
        None => true,
        Some(before) => !before.is_alphanumeric() || (c.is_uppercase() && before.is_lowercase()),
    }
}

/// The best place where the word appears as typed.
fn contiguous(word: &Word, chars: &[char], word_starts: &[usize]) -> Option<(u32, Vec<usize>)> {
    let len = word.chars.len();
    let mut best: Option<(u32, usize)> = None;
    for start in 0..=chars.len().checked_sub(len)? {
        let found = word
            .chars
            .iter()
            .zip(&chars[start..start + len])
            .all(|(typed, c)| word.same(*typed, *c));
        if !found {
            continue;
        }
        let mut score = CONTIGUOUS_PER_CHAR * len as u32;
        if word_starts.binary_search(&start).is_ok() {
            score += WORD_START_BONUS;
        }
        if start == 0 {
            score += CANDIDATE_START_BONUS;
        }
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, start));
        }
    }
    best.map(|(score, start)| (score, (start..start + len).collect()))
}

/// The word typed as the beginnings of consecutive words: "nyc", "sfran". The first way
/// found from the earliest word wins; each piece takes as many letters as it can.
fn initials(word: &Word, chars: &[char], word_starts: &[usize]) -> Option<(u32, Vec<usize>)> {
    let mut at = Vec::with_capacity(word.chars.len());
    for first in 0..word_starts.len() {
        at.clear();
        if pieces(word, 0, chars, word_starts, first, &mut at) {
            let score = (INITIALS_PER_CHAR * word.chars.len() as u32).saturating_sub(
                // Fewer, longer pieces read more like what was meant.
                word_starts.len().min(first + word.chars.len()) as u32 - first as u32,
            );
            return Some((score, at.clone()));
        }
    }
    None
}

/// Matches `word.chars[from..]` as prefixes of the words from `word_starts[next]` on.
fn pieces(
    word: &Word,
    from: usize,
    chars: &[char],
    word_starts: &[usize],
    next: usize,
    at: &mut Vec<usize>,
) -> bool {
    if from == word.chars.len() {
        return true;
    }
    let Some(&start) = word_starts.get(next) else {
        return false;
    };
    let longest = word.chars[from..]
        .iter()
        .zip(&chars[start..])
        .take_while(|(typed, c)| word.same(**typed, **c))
        .count();
    for take in (1..=longest).rev() {
        let kept = at.len();
        at.extend(start..start + take);
        if pieces(word, from + take, chars, word_starts, next + 1, at) {
            return true;
        }
        at.truncate(kept);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(query: &str, candidates: &[&str]) -> Vec<usize> {
        FuzzyMatcher::new()
            .rank(query, candidates.iter().copied())
            .iter()
            .map(|r| r.index)
            .collect()
    }

    #[test]
    fn positions_are_char_indices() {
        let mut m = FuzzyMatcher::new();
        let r = m.rank("chen", ["München"]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].positions, [3, 4, 5, 6]);
    }

    #[test]
    fn every_word_must_match() {
        assert_eq!(matches("new zork", &["New York", "New Zork"]), [1]);
    }

    #[test]
    fn scattered_letters_do_not_match() {
        let page = [
            "REI Co-op trail running shoes rei.com",
            "The best trail running shoes of 2025 nytimes.com reviews",
            "Trail runners: our picks for every terrain",
        ];
        assert_eq!(matches("rei", &page), [0]);
        assert_eq!(matches("rei.com", &page), [0]);
        assert_eq!(
            matches("san franc", &["Farmers Branch", "San Francisco"]),
            [1]
        );
    }

    #[test]
    fn initials_of_consecutive_words_match() {
        assert_eq!(matches("nyc", &["Nyack", "New York City"]), [1]);
        assert_eq!(matches("sfran", &["San Francisco", "Santa Fe"]), [0]);
        // Not words far apart.
        assert!(matches("nyc", &["New house, York street, Cambridge"]).is_empty());
    }

    #[test]
    fn contiguous_and_word_starts_rank_first() {
        let r = FuzzyMatcher::new().rank("port", ["Newport", "Port Arthur", "Portland"]);
        assert_eq!(r.iter().map(|r| r.index).collect::<Vec<_>>(), [1, 2, 0]);
    }
}
