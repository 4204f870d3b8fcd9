//! Which words of an answer are names worth tracking: the brands, shops and publishers it
//! puts forward, not its headings, measures or the words of the question. A term is put
//! forward by the answer's emphasis (bold, the head of a list item, a link's text), and kept
//! only with evidence that it is a name:
//!
//! - it is the text of a link to its own domain (`Switchback Travel` → switchbacktravel.com,
//!   `rei.com` → rei.com);
//! - it carries a model's marks: a digit, a capital inside a word, a word in capitals or a
//!   lone capital (`Kaha 2`, `OutdoorGearLab`, `REI`, `Targhee IV`, `X Ultra`);
//! - or the answer writes it capitalised in the middle of a sentence (`from the Scarpa Rush
//!   Trek`), where a common word would be in lower case.
//!
//! Terms that open with an article or a question word (`The official SDK`, `How to choose`,
//! `Best for`) and terms made only of the question's words are never names.

use std::collections::{HashMap, HashSet};

use super::outline::Outline;
use super::products::Suggested;

/// Words a name does not begin with: articles, question words, the superlatives of titles.
pub(super) const NOT_A_NAME_START: &[&str] = &[
    "a",
    "an",
    "the",
    "how",
    "what",
    "why",
    "which",
    "when",
    "where",
    "who",
    "best",
    "top",
    "our",
    "your",
    "my",
    "in",
    "for",
    "with",
    "and",
    "or",
    "of",
    "to",
    "on",
    "at",
    "by",
    "if",
    "is",
    "are",
    "this",
    "that",
    "these",
    "those",
    "some",
    "all",
    "more",
    "most",
    "key",
    "step",
    "tip",
    "option",
    "part",
    "pick",
    "pros",
    "cons",
    "verdict",
    "summary",
    "about",
    "around",
    "approx",
    "approximately",
    "from",
    "under",
    "over",
    "up",
    "price",
    "cost",
    "budget",
    "free",
    "note",
];

/// Emphasised terms looked at, at most: the suggestions show a handful, and each term is
/// searched for in the answer's text, so the work stays bounded whatever the answer.
const MAX_CONSIDERED: usize = 200;

/// The longest answer read, in bytes (cut on a character boundary).
const MAX_HTML_BYTES: usize = 2 << 20;

/// An answer's shape ([`Outline`]) and the names it puts forward, products under their
/// brands ([`super::products`]), from one parse of its HTML; `asked` is the prompt,
/// `hidden_label` the tag of the model's unmarked "… said" label. A page too costly to parse
/// has no shape (its rendered text is read as prose) and suggests nothing.
pub fn shape_and_names(
    html: &str,
    asked: &str,
    hidden_label: Option<&'static str>,
) -> (Option<Outline>, Vec<Suggested>) {
    let mut end = html.len().min(MAX_HTML_BYTES);
    while !html.is_char_boundary(end) {
        end -= 1;
    }
    let Some(outline) = Outline::read(&html[..end], asked, hidden_label) else {
        return (None, Vec::new());
    };
    let (names, sites) = candidates_in(&outline, asked);
    let suggested = super::products::by_brand(&names, &outline.text, &sites);
    (Some(outline), suggested)
}

/// Names an answer's HTML puts forward, to suggest as brands to track, in order of first
/// appearance, each once (ignoring case); `asked` is the prompt, whose words are not names.
pub fn candidates(html: &str, asked: &str) -> Vec<String> {
    Outline::read(html, asked, None)
        .map(|outline| candidates_in(&outline, asked).0)
        .unwrap_or_default()
}

/// The names of an answer: the subjects of its items (a list item's bold lead or label, a
/// numbered heading, a row's first cell) and its bold and linked words, in document order,
/// each kept only with the evidence of the module's header; and the sites it links to.
fn candidates_in(outline: &Outline, asked: &str) -> (Vec<String>, HashSet<String>) {
    let text = outline.text.as_str();
    // The sites the answer links to, once: their hosts and their names (rei, switchbacktravel).
    let mut sites: HashSet<String> = HashSet::new();
    for host in &outline.linked_hosts {
        sites.insert(host.split('.').next().unwrap_or_default().to_string());
        sites.insert(host.clone());
    }
    let asked: HashSet<String> = words(asked).map(|w| w.to_lowercase()).collect();
    let index = WordIndex::of(text);
    let is_term_a_name = |term: &str| is_name(term, &index, &asked, names_a_site(term, &sites));
    // A list whose items' subjects are mostly names by the evidence makes its other subjects
    // written as names (capitalised) names too: "Scarpa Rush Trek" beside "Hoka Kaha 2".
    let mut lists: HashMap<usize, (usize, usize)> = HashMap::new();
    for item in outline.items.iter().take(MAX_CONSIDERED) {
        let name = subject_name(outline.subject_of(item));
        let (named, all) = lists.entry(item.list).or_default();
        *all += 1;
        *named += usize::from(is_term_a_name(clean(&name)));
    }
    let names_list = |list: usize| {
        lists
            .get(&list)
            .is_some_and(|&(named, all)| named >= 2 && named * 2 >= all)
    };
    let mut terms: Vec<(usize, String, Option<usize>)> = outline
        .items
        .iter()
        .map(|item| {
            let name = subject_name(outline.subject_of(item));
            (item.subject.start, name, Some(item.list))
        })
        .chain(outline.emphasis.iter().map(|range| {
            let words = text.get(range.clone()).unwrap_or_default();
            (
                range.start,
                words.split_whitespace().collect::<Vec<_>>().join(" "),
                None,
            )
        }))
        .collect();
    terms.sort_by_key(|(at, _, _)| *at);
    let mut found: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for (_, term, list) in terms {
        if seen.len() >= MAX_CONSIDERED {
            break;
        }
        let term = clean(&term);
        // A label and its text ("Step 1: Fit") is a heading, not a name.
        if term.chars().count() < 2 || term.split(' ').count() > 5 || term.contains(':') {
            continue;
        }
        if !seen.insert(super::mentions::fold_term(term)) {
            continue;
        }
        let beside_names = list.is_some_and(names_list) && written_as_a_name(term, &asked);
        if beside_names || is_term_a_name(term) {
            found.push(term.to_string());
        }
    }
    (found, sites)
}

/// A term without what is not a letter or digit at its ends.
fn clean(term: &str) -> &str {
    term.trim_matches(|c: char| !c.is_alphanumeric())
}

/// Every word capitalised (or a digit), not opening as a heading does, not only the question's
/// words: how a list writes the names among its items.
fn written_as_a_name(term: &str, asked: &HashSet<String>) -> bool {
    let first = words(term).next().unwrap_or_default();
    !NOT_A_NAME_START.contains(&first.to_lowercase().as_str())
        && !words(term).all(|w| asked.contains(&w.to_lowercase()))
        && words(term).all(|w| w.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()))
}

/// An item's subject as a name: without what it adds in brackets or after a dash ("Claude
/// Code (Anthropic)" → "Claude Code", "Windsurf (formerly Codeium)" → "Windsurf").
fn subject_name(subject: &str) -> String {
    let cut = [" (", " — ", " – ", " - ", ": "]
        .iter()
        .filter_map(|sep| subject.find(sep))
        .min()
        .unwrap_or(subject.len());
    subject[..cut]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
}

/// The evidence rules of the module's header, on one term.
fn is_name(
    term: &str,
    index: &WordIndex<'_>,
    asked: &HashSet<String>,
    linked_to_itself: bool,
) -> bool {
    let first = words(term).next().unwrap_or_default();
    if NOT_A_NAME_START.contains(&first.to_lowercase().as_str()) {
        return false;
    }
    // A price or a measure is not a name.
    if term.contains(['$', '€', '£', '¥', '%']) {
        return false;
    }
    if words(term).all(|w| asked.contains(&w.to_lowercase())) {
        return false;
    }
    if linked_to_itself {
        return true;
    }
    if !first.starts_with(char::is_uppercase) {
        return false;
    }
    // A digit, a capital inside a word, or a lone capital after the first word (X Ultra).
    let marked = words(term).enumerate().any(|(i, w)| {
        w.chars().any(|c| c.is_ascii_digit())
            || w.chars().skip(1).any(char::is_uppercase)
            || (i > 0 && w.chars().count() == 1 && w.starts_with(char::is_uppercase))
    });
    marked || capitalised_mid_sentence(term, index)
}

/// Where each word of a text starts, by the word as written: a name's places are looked up
/// rather than searched for, so reading hundreds of names costs the text about once.
pub(super) struct WordIndex<'a> {
    text: &'a str,
    starts: HashMap<&'a str, Vec<usize>>,
}

/// Places kept per word, at most.
const PLACES_PER_WORD: usize = 256;

impl<'a> WordIndex<'a> {
    pub(super) fn of(text: &'a str) -> WordIndex<'a> {
        let mut starts: HashMap<&'a str, Vec<usize>> = HashMap::new();
        let mut word_start: Option<usize> = None;
        for (at, c) in text
            .char_indices()
            .chain(std::iter::once((text.len(), ' ')))
        {
            match (c.is_alphanumeric(), word_start) {
                (true, None) => word_start = Some(at),
                (false, Some(start)) => {
                    let places = starts.entry(&text[start..at]).or_default();
                    if places.len() < PLACES_PER_WORD {
                        places.push(start);
                    }
                    word_start = None;
                }
                _ => {}
            }
        }
        WordIndex { text, starts }
    }

    pub(super) fn text(&self) -> &'a str {
        self.text
    }

    /// Where `term` stands in the text, as cased, starting at a word's start.
    pub(super) fn places(&self, term: &str) -> Vec<usize> {
        let first_end = term
            .char_indices()
            .find(|(_, c)| !c.is_alphanumeric())
            .map_or(term.len(), |(at, _)| at);
        if first_end == 0 {
            return Vec::new();
        }
        self.starts
            .get(&term[..first_end])
            .map(|places| {
                places
                    .iter()
                    .copied()
                    .filter(|&at| self.text[at..].starts_with(term))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// True when the text writes `term`, as cased, after a word in lower case (or a comma): in
/// the middle of a sentence, where only names keep their capitals.
fn capitalised_mid_sentence(term: &str, index: &WordIndex<'_>) -> bool {
    let text = index.text();
    index.places(term).into_iter().any(|at| {
        let after = text[at + term.len()..].chars().next();
        if after.is_some_and(char::is_alphanumeric) {
            return false;
        }
        let before = text[..at].trim_end_matches([' ', '\u{a0}']);
        if before.len() == text[..at].len() {
            return false;
        }
        // The word before: in lower case, letters only (a comma may end it); a line break
        // (a block's end), a full stop or a domain before is no evidence.
        let word = before
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or_default()
            .trim_end_matches(',');
        !word.is_empty() && word.chars().all(|c| c.is_lowercase() && c.is_alphabetic())
    })
}

/// True when `term` names one of the sites the answer links to: its letters are a site's
/// name (`Runner's World` → runnersworld.com), or it is the site's address itself.
pub(super) fn names_a_site(term: &str, sites: &HashSet<String>) -> bool {
    if sites.contains(&term.to_lowercase()) {
        return true;
    }
    let letters: String = term
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    letters.len() >= 3 && sites.contains(&letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_kept_and_headings_measures_and_the_question_are_not() {
        let html = r#"<p>Most testers pick the <strong>Salomon X Ultra</strong>; others go
            for the Scarpa Rush Trek, sold by REI.</p>
            <ul><li><b>Scarpa Rush Trek</b>: roomy</li><li><b>Weight</b>: light is better,
            as weight tires you</li><li>Lowa Renegade - stiff</li>
            <li><b>Ankle support</b>: matters on scree</li></ul>
            <h3><b>How to choose hiking boots</b></h3><p><b>The official guide</b></p>
            <p><b>Hiking Boots</b></p>
            <a href="https://www.switchbacktravel.com/x">Switchback Travel</a>
            <a href="https://rei.com/y">rei.com</a> <a href="https://example.org">Read more</a>"#;
        assert_eq!(
            candidates(html, "best hiking boots"),
            [
                "Salomon X Ultra",
                "Scarpa Rush Trek",
                "Switchback Travel",
                "rei.com"
            ]
        );
    }

    #[test]
    fn a_capital_after_a_full_stop_is_not_evidence() {
        let mid = |term: &str, text: &str| capitalised_mid_sentence(term, &WordIndex::of(text));
        assert!(!mid("Weight", "Light. Weight matters"));
        assert!(mid("Keen", "try the Keen first"));
        assert!(!mid("Keen", "try the Keenest"));
    }

    #[test]
    fn the_terms_looked_at_are_bounded_however_many_the_answer_emphasises() {
        for n in [1_000, 3_000] {
            let html: String = (0..n)
                .map(|i| format!("<p>see the <b>Brand{i} Max</b> at <a href=\"https://s{i}.example/\">S{i}</a></p>"))
                .collect();
            let found = candidates(&html, "");
            assert!(found.len() <= MAX_CONSIDERED, "{n}: {}", found.len());
            assert!(!found.is_empty());
        }
        // Past what a page may cost, it is not parsed and suggests nothing.
        let html = "<p><b>Brand Max</b></p>".repeat(20_000);
        assert!(candidates(&html, "").is_empty());
    }
}
