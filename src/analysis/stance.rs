//! What an answer says of a brand it names, read from the words around each mention by the
//! rules of one table ([`RULES`]): no model, the same reading every time. A mention is read
//! in its clause (the part of its sentence between commas, semicolons and words like "but"),
//! and in its whole sentence when the clause says nothing.

use std::sync::{Mutex, OnceLock};

use aho_corasick::AhoCorasick;
use serde::{Deserialize, Serialize};

use super::mentions::sentence_bounds;

/// How an answer speaks of a brand where it names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stance {
    /// Put forward: a top pick, the best, recommended.
    Recommended,
    /// Named without a judgement.
    #[default]
    Listed,
    /// Named with a warning: avoid, overpriced, issues, a recall, discontinued.
    Cautioned,
    /// Named only to say nothing is known of it: not a mention at all.
    NotFound,
}

impl Stance {
    pub fn label(self) -> &'static str {
        match self {
            Stance::Recommended => "recommended",
            Stance::Listed => "listed",
            Stance::Cautioned => "cautioned",
            Stance::NotFound => "not found",
        }
    }

    /// A one-character mark for tables and the answer.
    pub fn mark(self) -> &'static str {
        match self {
            Stance::Recommended => "+",
            Stance::Listed => "",
            Stance::Cautioned => "!",
            Stance::NotFound => "?",
        }
    }
}

/// The cues of each stance, lower case, matched as whole words; tried in this order, the
/// first stance with a cue in the text wins ("do not recommend" is a caution before it is a
/// recommendation, "could not find" says nothing was found before anything else).
pub const RULES: &[(Stance, &[&str])] = &[
    (
        Stance::NotFound,
        &[
            "could not find",
            "couldn't find",
            "cannot find",
            "can't find",
            "unable to find",
            "did not find",
            "didn't find",
            "no information",
            "no reliable information",
            "no specific information",
            "not aware of",
            "not familiar with",
            "don't have information",
            "do not have information",
            "don't have any information",
            "do not have any information",
            "no data on",
            "no record of",
            "not find any",
            "unknown to me",
        ],
    ),
    (
        Stance::Cautioned,
        &[
            "avoid",
            "overpriced",
            "over-priced",
            "issues",
            "problems",
            "recall",
            "recalled",
            "discontinued",
            "no longer made",
            "no longer available",
            "complaints",
            "not recommend",
            "don't recommend",
            "wouldn't recommend",
            "would not recommend",
            "can't recommend",
            "cannot recommend",
            "poor",
            "falls apart",
            "fell apart",
            "wears fast",
            "wears out",
            "wear out",
            "worse",
            "downside",
            "drawback",
            "drawbacks",
            "skip",
            "too expensive",
            "not worth",
            "cheaply made",
            "defect",
            "defects",
            "defective",
            "lawsuit",
            "not recommended",
            "caution",
            "breach",
            "breaches",
            "fall apart",
            "beware",
            "disappointing",
            "disappointed",
            "unreliable",
            "durability concerns",
        ],
    ),
    (
        Stance::Recommended,
        &[
            "top pick",
            "top picks",
            "best",
            "we recommend",
            "i recommend",
            "i'd recommend",
            "highly recommend",
            "recommended",
            "highly rated",
            "top-rated",
            "top rated",
            "favorite",
            "favourite",
            "standout",
            "go-to",
            "winner",
            "excellent",
            "our pick",
            "editor's choice",
            "top choice",
            "first choice",
            "great choice",
            "worth it",
            "worth the money",
            "can't go wrong",
            "stands out",
            "leader",
            "worth trying",
            "worth a try",
            "worth a look",
            "worth considering",
            "safe bet",
            "safest bet",
            "best bet",
            "solid choice",
            "good choice",
            "strong choice",
            "great option",
            "rate highly",
            "rated highly",
            "rate it highly",
            "highly regarded",
            "honorable mention",
            "honorable mentions",
            "honourable mention",
            "honourable mentions",
            "my pick",
            "i'd pick",
            "i would pick",
            "obvious pick",
            "obvious choice",
            "strongest choice",
        ],
    ),
];

/// Phrases that look like a cue and are not one; they are taken out before the cues are
/// looked for ("no issues" is not a caution, "helps you avoid blisters" warns of nothing).
const NOT_CUES: &[&str] = &[
    "no issues",
    "without issues",
    "few issues",
    "no problems",
    "without problems",
    "few problems",
    "help avoid",
    "helps avoid",
    "helps you avoid",
    "help you avoid",
    "how to avoid",
    "ways to avoid",
    "helps to avoid",
    "help to avoid",
    "avoid blisters",
    "avoid slipping",
    "avoid injury",
    "avoid injuries",
    "no downside",
    "not poor",
];

/// Words that end a clause inside a sentence.
const CLAUSE_WORDS: &[&str] = &[
    " but ",
    " while ",
    " whereas ",
    " although ",
    " though ",
    " however ",
];

/// Cues of a list's heading or lead-in ("Top picks", "Options worth a look", "Here are the
/// top 10 …") that make its items picks, beyond the cues of [`RULES`] (read first, so "Brands
/// to avoid" makes its items cautioned and "Best for …" its items recommended).
pub const LIST_CUES: &[&str] = &[
    "top",
    "picks",
    "recommend",
    "recommendations",
    "suggestions",
    "alternatives",
    "options",
    "to consider",
    "shortlist",
    "contenders",
    "favorites",
    "favourites",
    "our choices",
    "i'd go with",
    "i would go with",
];

/// Words of a question that asks for picks ("best hiking boots", "which should I buy", "top
/// 10 …"), in the languages the service is asked in most; a list answering it lists picks.
pub const PICK_QUESTIONS: &[&str] = &[
    "best",
    "top",
    "recommend",
    "recommended",
    "recommendations",
    "which should",
    "which one should",
    "should i buy",
    "should i get",
    "should i use",
    "should i choose",
    "should i pick",
    "good",
    "worth buying",
    "favorite",
    "favourite",
    "beste",
    "besten",
    "bester",
    "empfehlung",
    "empfehlungen",
    "meilleur",
    "meilleure",
    "meilleurs",
    "meilleures",
    "mejor",
    "mejores",
    "migliore",
    "migliori",
    "melhor",
    "melhores",
    "bästa",
    "najlepsze",
    "najlepszy",
    "terbaik",
];

/// Words that make what follows them in a clause a comparison ("more proactive than
/// Copilot", "unlike Salomon"): a brand there is compared, and what the clause says is said
/// of the other side.
pub const COMPARISONS: &[&str] = &[
    "than",
    "unlike",
    "compared to",
    "compared with",
    "versus",
    "vs",
    "instead of",
    "alternative to",
];

/// Words that open a clause that only sets a condition ("If Cursor's pricing bothers you,
/// …"): a brand there does not take what the rest of the sentence says.
const CONDITIONS: &[&str] = &[
    "if", "when", "while", "although", "though", "unless", "since", "because", "whereas",
];

/// Whether a comparison word stands in `text` (the clause before a mention).
pub fn is_compared(clause_before: &str) -> bool {
    has_cue(clause_before, COMPARISONS)
}

/// Whether `clause` opens with a condition.
pub fn is_condition(clause: &str) -> bool {
    let folded = normalize(clause);
    let first = folded.split(' ').next().unwrap_or_default();
    CONDITIONS.contains(&first)
}

/// The stance of the mention at bytes `start..end` of `text`.
pub fn stance_at(text: &str, start: usize, end: usize) -> Stance {
    cue_at(text, start, end).unwrap_or(Stance::Listed)
}

/// The stance the words around bytes `start..end` of `text` state: its clause's cue, else
/// its sentence's; none when neither has a cue, or when the mention is compared ("more
/// proactive than Copilot"). A clause that only sets a condition ("If Cursor's pricing
/// bothers you, …") does not take the sentence's cue.
pub fn cue_at(text: &str, start: usize, end: usize) -> Option<Stance> {
    let (clause, sentence) = clause_and_sentence(text, start, end);
    if is_compared(&text[clause.start..start]) {
        return None;
    }
    read(&text[clause.clone()]).or_else(|| {
        (!is_condition(&text[clause]))
            .then(|| read(&text[sentence]))
            .flatten()
    })
}

/// The clause and the sentence of `text` around bytes `start..end`, as byte ranges of `text`.
pub fn clause_and_sentence(
    text: &str,
    start: usize,
    end: usize,
) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let (sentence_start, sentence_end) = sentence_bounds(text, start, end);
    let sentence = &text[sentence_start..sentence_end];
    let (clause_start, clause_end) =
        clause_bounds(sentence, start - sentence_start, end - sentence_start);
    (
        sentence_start + clause_start..sentence_start + clause_end,
        sentence_start..sentence_end,
    )
}

/// What a list's heading and lead-in say of its items: a stance of [`RULES`], else
/// recommended for a cue of [`LIST_CUES`], else recommended when the question asks for picks
/// ([`PICK_QUESTIONS`]); none when nothing says so.
pub fn list_context(heading_and_lead_in: &str, question: &str) -> Option<Stance> {
    if let Some(stance) = read(heading_and_lead_in) {
        return Some(stance);
    }
    if has_cue(heading_and_lead_in, LIST_CUES) || has_cue(question, PICK_QUESTIONS) {
        return Some(Stance::Recommended);
    }
    None
}

/// Whether `text` holds one of `cues` as whole words.
fn has_cue(text: &str, cues: &'static [&'static str]) -> bool {
    let folded = format!(" {} ", normalize(text));
    cue_set(cues)
        .as_ref()
        .is_some_and(|set| set.is_match(&folded))
}

/// The cues of one table as one automaton, each padded with spaces so it matches whole
/// words of a normalized text; built once per table and kept.
fn cue_set(cues: &'static [&'static str]) -> &'static Option<AhoCorasick> {
    type Sets = Vec<(usize, &'static Option<AhoCorasick>)>;
    static SETS: OnceLock<Mutex<Sets>> = OnceLock::new();
    let key = cues.as_ptr() as usize;
    let sets = SETS.get_or_init(|| Mutex::new(Vec::new()));
    let mut sets = sets.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, set)) = sets.iter().find(|(k, _)| *k == key) {
        return set;
    }
    let set: &'static Option<AhoCorasick> = Box::leak(Box::new(padded(cues.iter().copied())));
    sets.push((key, set));
    set
}

/// An automaton of `cues` padded with spaces (all matches, overlapping ones too); none if
/// it could not be built (patterns of plain words always build).
fn padded<'a>(cues: impl Iterator<Item = &'a str>) -> Option<AhoCorasick> {
    let patterns: Vec<String> = cues.map(|cue| format!(" {cue} ")).collect();
    AhoCorasick::new(&patterns).ok()
}

/// The cues of [`RULES`] in one automaton, with the stance of each pattern, and the phrases
/// of [`NOT_CUES`] in another.
struct Rules {
    cues: Option<AhoCorasick>,
    stance_of: Vec<Stance>,
    not_cues: Option<AhoCorasick>,
}

fn rules() -> &'static Rules {
    static RULES_SET: OnceLock<Rules> = OnceLock::new();
    RULES_SET.get_or_init(|| {
        let stance_of: Vec<Stance> = RULES
            .iter()
            .flat_map(|(stance, cues)| cues.iter().map(|_| *stance))
            .collect();
        Rules {
            cues: padded(RULES.iter().flat_map(|(_, cues)| cues.iter().copied())),
            stance_of,
            not_cues: padded(NOT_CUES.iter().copied()),
        }
    })
}

/// The stance a piece of text states, if any cue of [`RULES`] is in it: the first stance of
/// the table with a cue there, once the phrases that only look like cues are taken out.
pub fn read(text: &str) -> Option<Stance> {
    let rules = rules();
    let folded = format!(" {} ", normalize(text));
    let folded = match &rules.not_cues {
        Some(not_cues) => not_cues.replace_all(&folded, &vec![" "; NOT_CUES.len()]),
        None => folded,
    };
    let cues = rules.cues.as_ref()?;
    let mut found: Option<usize> = None;
    for matched in cues.find_overlapping_iter(&folded) {
        let stance = rules.stance_of[matched.pattern().as_usize()];
        let order = RULES
            .iter()
            .position(|(s, _)| *s == stance)
            .unwrap_or(usize::MAX);
        found = Some(found.map_or(order, |f| f.min(order)));
    }
    found
        .and_then(|order| RULES.get(order))
        .map(|(stance, _)| *stance)
}

/// Lower case, curly apostrophes straight, every other non-word character a space, so cues
/// match whole words with one space between them.
fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        let c = match c {
            '\u{2019}' | '\u{2018}' => '\'',
            _ => c,
        };
        if c.is_alphanumeric() || c == '\'' || c == '-' {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(c.to_lowercase());
        } else {
            space = true;
        }
    }
    out
}

/// The clause of `sentence` around `start..end`.
fn clause_bounds(sentence: &str, start: usize, end: usize) -> (usize, usize) {
    let lower = sentence.to_lowercase();
    // Lower case may change lengths outside ASCII; clauses are then the whole sentence.
    if lower.len() != sentence.len() {
        return (0, sentence.len());
    }
    let mut from = 0;
    let mut to = sentence.len();
    for (at, c) in sentence.char_indices() {
        if matches!(c, ',' | ';' | ':' | '(' | ')' | '—' | '–') {
            if at < start {
                from = at + c.len_utf8();
            } else if at >= end && at < to {
                to = at;
            }
        }
    }
    for word in CLAUSE_WORDS {
        for (at, _) in lower.match_indices(word) {
            if at + word.len() <= start {
                from = from.max(at + word.len());
            } else if at >= end {
                to = to.min(at);
            }
        }
    }
    (from, to.max(from))
}
