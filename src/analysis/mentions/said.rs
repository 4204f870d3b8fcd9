//! What is said where a brand is named, in the answer's shape: by the words around it (its
//! clause, its sentence without other brands' clauses, an item's own sentences), by the list
//! it heads, or nothing; where the mention stands (an item's subject, an aside, prose); and
//! the sentence quoted for it.

use super::super::outline::{ItemKind, Outline};
use super::super::stance::{self, Stance};
use super::{SENTENCE_MAX_CHARS, sentence_around, sentence_bounds};

/// What is said where a brand is named: by the words around it, by the list it heads, or
/// nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Said {
    Words(Stance),
    /// The list's heading, lead-in or question: an item of a list of picks. `row` for a
    /// table's row, which counts only for a brand no list puts forward.
    List {
        stance: Stance,
        row: bool,
    },
    Nothing,
}

impl Said {
    pub(super) fn stance(self) -> Stance {
        match self {
            Said::Words(stance) | Said::List { stance, .. } => stance,
            Said::Nothing => Stance::Listed,
        }
    }
}

/// Where a mention stands in the answer's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spot {
    /// The subject of this item (by its index in the outline).
    Subject(usize),
    /// Inside an item about something else.
    Aside,
    Prose,
}

impl Spot {
    pub(super) fn item(self) -> Option<usize> {
        match self {
            Spot::Subject(item) => Some(item),
            _ => None,
        }
    }
}

/// What is said at the mention at bytes `start..end`, and where it stands.
pub(super) fn said_at(
    outline: &Outline,
    start: usize,
    end: usize,
    others_in: impl Fn(&std::ops::Range<usize>) -> Vec<(usize, usize)>,
) -> (Said, Spot) {
    let text = outline.text.as_str();
    let names_another = |range: &std::ops::Range<usize>| !others_in(range).is_empty();
    let cue = || words_at(text, start, end, &others_in);
    let Some(index) = outline.item_at(start) else {
        return (cue().map_or(Said::Nothing, Said::Words), Spot::Prose);
    };
    let item = &outline.items[index];
    let (clause, sentence) = stance::clause_and_sentence(text, start, end);
    let compared = stance::is_compared(&text[clause.start..start]);
    let in_subject = item.subject.start <= start && end <= item.subject.end;
    // A name in the subject's own clause, not compared to it, is the item's too ("**Pixel
    // 10 Pro** by Google").
    let beside_subject = !compared
        && !item.subject.is_empty()
        && clause.start <= item.subject.start
        && item.subject.start < clause.end;
    if !in_subject && !beside_subject {
        // An aside: its clause, or its sentence when that is not also about the item's subject.
        let sentence_about_subject =
            sentence.start < item.subject.end && item.subject.start < sentence.end;
        let words = match compared || sentence_about_subject {
            true => (!compared).then(|| stance::read(&text[clause])).flatten(),
            false => cue(),
        };
        return (words.map_or(Said::Nothing, Said::Words), Spot::Aside);
    }
    let words = cue().or_else(|| item_words(outline, index, &names_another));
    let said = match (words, item.context) {
        (Some(stance), _) => Said::Words(stance),
        (None, Some(stance)) => Said::List {
            stance,
            row: item.kind == ItemKind::Row,
        },
        (None, None) => Said::Nothing,
    };
    (said, Spot::Subject(index))
}

/// What the words around a mention say ([`stance::cue_at`]), the sentence read without the
/// clauses that name another brand: "I'd recommend Merrell; hikers prefer Salomon" does not
/// recommend Salomon.
fn words_at(
    text: &str,
    start: usize,
    end: usize,
    others_in: &impl Fn(&std::ops::Range<usize>) -> Vec<(usize, usize)>,
) -> Option<Stance> {
    let (clause, sentence) = stance::clause_and_sentence(text, start, end);
    // The first few other brands of the sentence are enough to leave their clauses out.
    let mut others = others_in(&sentence);
    others.truncate(OTHERS_READ);
    if others.is_empty() {
        return stance::cue_at(text, start, end);
    }
    if stance::is_compared(&text[clause.start..start]) {
        return None;
    }
    if let Some(stance) = stance::read(&text[clause.clone()]) {
        return Some(stance);
    }
    if stance::is_condition(&text[clause.clone()]) {
        return None;
    }
    // The sentence without the other brands' clauses.
    let mut kept = String::new();
    let mut at = sentence.start;
    let mut cut: Vec<std::ops::Range<usize>> = others
        .iter()
        .map(|&(s, e)| stance::clause_and_sentence(text, s, e).0)
        .filter(|other| *other != clause)
        .collect();
    cut.sort_by_key(|r| r.start);
    for range in cut {
        if range.start > at {
            kept.push_str(&text[at..range.start]);
            kept.push(' ');
        }
        at = at.max(range.end);
    }
    kept.push_str(&text[at.min(sentence.end)..sentence.end]);
    stance::read(&kept)
}

/// Other brands of a sentence whose clauses are left out of a mention's reading, at most.
const OTHERS_READ: usize = 4;

/// Lines of a section read for what it says of its heading: the heading and the two after
/// it ("Best for: …"), not the whole section.
const SECTION_LINES: usize = 3;

/// Sentences of an item read for what it says of its subject, at most.
const ITEM_SENTENCES: usize = 12;

/// What an item's own sentences say of its subject: those outside its sub-items that name no
/// other brand (a section's first lines only), the strongest of their cues (nothing found,
/// then a caution, then a recommendation).
fn item_words(
    outline: &Outline,
    index: usize,
    names_another: &impl Fn(&std::ops::Range<usize>) -> bool,
) -> Option<Stance> {
    let text = outline.text.as_str();
    let item = &outline.items[index];
    let mut span_end = item.span.end;
    if item.kind == ItemKind::Section {
        let lines = text[item.span.clone()]
            .match_indices('\n')
            .nth(SECTION_LINES - 1);
        if let Some((at, _)) = lines {
            span_end = item.span.start + at;
        }
    }
    // The item's sub-items: another list's items inside it.
    let nested: Vec<std::ops::Range<usize>> = outline.items[index + 1..]
        .iter()
        .take_while(|other| other.span.start < item.span.end)
        .filter(|other| other.span.end <= item.span.end)
        .map(|other| other.span.clone())
        .collect();
    let mut best: Option<Stance> = None;
    let mut at = item.span.start;
    let mut read = 0;
    while at < span_end && read < ITEM_SENTENCES {
        read += 1;
        let (from, to) = sentence_bounds(text, at, at);
        let to = to.min(span_end).max(at + 1);
        let sentence = from.max(item.span.start)..to;
        let in_sub_item = nested.iter().any(|n| n.contains(&sentence.start));
        if let Some(stance) = text
            .get(sentence.clone())
            .filter(|_| !in_sub_item && !names_another(&sentence))
            .and_then(stance::read)
        {
            let strength = |s: Stance| match s {
                Stance::NotFound => 3,
                Stance::Cautioned => 2,
                Stance::Recommended => 1,
                Stance::Listed => 0,
            };
            if best.is_none_or(|b| strength(stance) > strength(b)) {
                best = Some(stance);
            }
        }
        at = to;
        while at < span_end && !text.is_char_boundary(at) {
            at += 1;
        }
    }
    best
}

/// The sentence quoted for a mention; for the short subject of an item ("4. GitHub
/// Copilot"), with the item's sentence that says what the item says of it, else its next
/// ("4. GitHub Copilot — Best for: Ecosystem integration and enterprise security.").
pub(super) fn quote(
    outline: &Outline,
    start: usize,
    end: usize,
    item: Option<usize>,
    stance: Stance,
) -> String {
    let text = outline.text.as_str();
    let sentence = sentence_around(text, start, end);
    let Some(item) = item.map(|i| &outline.items[i]) else {
        return sentence;
    };
    let (_, line_end) = sentence_bounds(text, start, end);
    // Only a subject standing alone ("4. GitHub Copilot", "Scarpa Rush Trek") takes the
    // sentence after it.
    let alone = sentence.chars().count() <= outline.subject_of(item).chars().count() + 6;
    if !alone || line_end >= item.span.end {
        return sentence;
    }
    // The item's sentences after the subject's, at most a few.
    let mut sentences: Vec<String> = Vec::new();
    let mut at = line_end;
    while at < item.span.end && sentences.len() < 8 {
        let rest = &text[at..item.span.end];
        let skipped = rest.len() - rest.trim_start().len();
        at += skipped;
        if at >= item.span.end {
            break;
        }
        let (_, to) = sentence_bounds(text, at, at);
        let to = to.min(item.span.end).max(at + 1);
        sentences.push(sentence_around(text, at, at));
        at = to;
        while at < item.span.end && !text.is_char_boundary(at) {
            at += 1;
        }
    }
    let Some(following) = sentences
        .iter()
        .find(|s| stance != Stance::Listed && stance::read(s) == Some(stance))
        .or(sentences.first())
    else {
        return sentence;
    };
    let joined = format!("{} — {following}", sentence.trim_end_matches([':', ' ']));
    match joined.chars().count() <= SENTENCE_MAX_CHARS {
        true => joined,
        false => {
            let mut cut: String = joined.chars().take(SENTENCE_MAX_CHARS - 1).collect();
            cut.push('…');
            cut
        }
    }
}
