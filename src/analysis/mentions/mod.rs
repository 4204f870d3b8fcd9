//! Which tracked brands an answer names, in what order, how often, and whether it cites
//! them; and, over a comparison, each brand's visibility, average position and share of
//! voice. Pure: text and URLs in, numbers out.
//!
//! Matching ignores case and diacritics (`Löwa` finds `Lowa`) and takes whole words only
//! (`Lowa` is not found in `Lowang`). A brand is found by its name or any of its aliases.

/// What every view and command says of a tracked brand an answer does not name: one
/// wording, so the app and a script read the same.
pub const NOT_NAMED: &str = "not named";

use serde::{Deserialize, Serialize};
use unicode_normalization::char::{decompose_canonical, is_combining_mark};

mod said;

use said::{Said, Spot, quote, said_at};

use super::outline::{ItemKind, Outline};
use super::stance::Stance;

/// A brand to look for: its name, other names it goes by, and the domains that are its own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Brand {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<String>,
}

impl Brand {
    pub fn named(name: &str) -> Brand {
        Brand {
            name: name.trim().to_string(),
            ..Brand::default()
        }
    }
}

/// How one answer mentions one brand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mention {
    pub brand: String,
    /// 1 for the brand the answer puts first among the tracked brands; none when not named.
    /// A brand is placed where the first item about it stands (its heading, bold lead or
    /// first cell names it), else at its first mention in prose, else at its first mention
    /// inside an item about something else: a list's brands come in the list's order, and an
    /// aside ("more proactive than Copilot") does not move a brand ahead.
    pub position: Option<usize>,
    /// The number of the first item of the answer's lists that is about the brand (its
    /// heading, bold lead or first cell names it): 4 for "4. GitHub Copilot"; none when the
    /// answer names it only in prose or in passing.
    #[serde(default)]
    pub rank: Option<usize>,
    pub count: usize,
    /// The sentence around the first mention, on one line.
    pub sentence: Option<String>,
    /// Whether a cited source is on one of the brand's domains.
    pub cited: bool,
    /// What the answer says of it ([`super::stance`]): recommended if any of its mentions
    /// recommends it, else cautioned if any warns of it, else listed; `NotFound` when the
    /// answer names it only to say it knows nothing of it (then it is not counted).
    #[serde(default)]
    pub stance: Stance,
}

/// Sentences longer than this are cut around the mention.
const SENTENCE_MAX_CHARS: usize = 240;

/// Mentions of one brand read for stance and place, at most: counts take every one, and the
/// work stays bounded whatever the answer.
const READ_AT_MOST: usize = 64;

/// The text folded for matching, with the original byte offset of every folded byte.
struct Folded {
    text: String,
    origin: Vec<usize>,
}

/// Lower case without diacritics. Most answers are ASCII, which takes the fast path.
fn fold(text: &str) -> Folded {
    let mut folded = String::with_capacity(text.len());
    let mut origin = Vec::with_capacity(text.len() + 1);
    for (at, c) in text.char_indices() {
        if c.is_ascii() {
            folded.push(c.to_ascii_lowercase());
            origin.push(at);
            continue;
        }
        decompose_canonical(c, |part| {
            if is_combining_mark(part) {
                return;
            }
            for lower in part.to_lowercase() {
                let before = folded.len();
                folded.push(lower);
                origin.extend(std::iter::repeat_n(at, folded.len() - before));
            }
        });
    }
    origin.push(text.len());
    Folded {
        text: folded,
        origin,
    }
}

pub(super) fn fold_term(term: &str) -> String {
    fold(term.trim()).text
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// Byte spans (in the folded text) where `term` stands as a whole word.
fn word_spans(haystack: &str, term: &str, spans: &mut Vec<(usize, usize)>) {
    if term.is_empty() {
        return;
    }
    let starts_word = term.chars().next().is_some_and(is_word_char);
    let ends_word = term.chars().next_back().is_some_and(is_word_char);
    for (start, found) in haystack.match_indices(term) {
        let end = start + found.len();
        let before_ok = !starts_word
            || !haystack[..start]
                .chars()
                .next_back()
                .is_some_and(is_word_char);
        let after_ok = !ends_word || !haystack[end..].chars().next().is_some_and(is_word_char);
        if before_ok && after_ok {
            spans.push((start, end));
        }
    }
}

/// The host of a URL (or a bare domain), lower case, without `www.` or a trailing dot.
pub fn host_of(url_or_domain: &str) -> String {
    let text = url_or_domain.trim();
    let host = match url::Url::parse(text) {
        Ok(url) if url.has_host() => url.host_str().unwrap_or_default().to_string(),
        // A bare domain, perhaps with a path: what comes before the first slash.
        _ => text
            .split(['/', '?', '#'])
            .next()
            .unwrap_or_default()
            .to_string(),
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host.strip_prefix("www.")
        .map(str::to_string)
        .unwrap_or(host)
}

/// Whether `url` is on `domain` or one of its sub-domains (`www.` ignored on both).
pub fn on_domain(url: &str, domain: &str) -> bool {
    let host = host_of(url);
    let domain = host_of(domain);
    !domain.is_empty()
        && (host == domain
            || host
                .strip_suffix(&domain)
                .is_some_and(|rest| rest.ends_with('.')))
}

/// How far a sentence is looked for on each side of a mention, in bytes: text without a
/// stop for longer (a page's markup, a run-on list) is cut there, so reading a mention costs
/// the same whatever surrounds it.
const SENTENCE_REACH: usize = 500;

/// The sentence of `text` around the byte range `start..end`: from after the last stop
/// before it to its next stop, included, at most [`SENTENCE_REACH`] bytes on each side.
pub(super) fn sentence_bounds(text: &str, start: usize, end: usize) -> (usize, usize) {
    let is_stop = |c: char| matches!(c, '.' | '!' | '?' | '\n');
    let mut floor = start.saturating_sub(SENTENCE_REACH);
    while !text.is_char_boundary(floor) {
        floor += 1;
    }
    let mut ceiling = end.saturating_add(SENTENCE_REACH).min(text.len());
    while !text.is_char_boundary(ceiling) {
        ceiling -= 1;
    }
    let mut from = floor;
    for (at, c) in text[floor..start].char_indices().rev() {
        let at = floor + at;
        // A stop followed by a space ends a sentence; "v2.0" or "e.g" does not.
        let next = text[at + c.len_utf8()..].chars().next();
        if c == '\n' || (is_stop(c) && next.is_some_and(char::is_whitespace)) {
            from = at + c.len_utf8();
            break;
        }
    }
    let mut to = ceiling.max(end);
    for (at, c) in text[end..to].char_indices() {
        if c == '\n' {
            to = end + at;
            break;
        }
        let after = text[end + at + c.len_utf8()..].chars().next();
        if is_stop(c) && after.is_none_or(char::is_whitespace) {
            to = end + at + c.len_utf8();
            break;
        }
    }
    (from, to)
}

/// The sentence of `text` around the byte range `start..end`, on one line.
fn sentence_around(text: &str, start: usize, end: usize) -> String {
    let (from, to) = sentence_bounds(text, start, end);
    // Markdown's bold marks and list bullets are noise in a quoted sentence.
    let sentence: Vec<&str> = text[from..to].split_whitespace().collect();
    let sentence = sentence.join(" ").replace("**", "");
    let sentence = sentence.trim_start_matches(['-', '*', '#', '>', '•', ' ']);
    if sentence.chars().count() <= SENTENCE_MAX_CHARS {
        return sentence.to_string();
    }
    let mut cut: String = sentence.chars().take(SENTENCE_MAX_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// Company forms a brand's name may carry in the workspace and an answer leaves out
/// (`Lowa GmbH` is named `Lowa`).
const COMPANY_SUFFIXES: &[&str] = &[
    " gmbh",
    " ag",
    " inc",
    " inc.",
    " llc",
    " ltd",
    " ltd.",
    " plc",
    " corp",
    " corp.",
    " corporation",
    " co.",
    " s.a.",
    " sa",
    " s.p.a.",
    " b.v.",
    " bv",
    " oy",
    " ab",
    " as",
    " kg",
    " limited",
    " company",
];

/// A term and, when it ends in a company form, the term without it.
fn with_bare_name(term: &str) -> Vec<String> {
    let folded = fold_term(term);
    let mut terms = vec![folded.clone()];
    let bare = folded.trim_end_matches(',');
    if let Some(name) = COMPANY_SUFFIXES
        .iter()
        .find_map(|suffix| bare.strip_suffix(suffix))
        .map(|name| name.trim_end_matches([',', ' ']))
        .filter(|name| !name.is_empty())
    {
        terms.push(name.to_string());
    }
    terms
}

/// The spans of one brand (name and aliases), overlaps merged, in order. A possessive
/// (`Salomon's`) is found as the name, since `'` ends the word.
fn brand_spans(folded: &str, brand: &Brand) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for term in std::iter::once(&brand.name).chain(&brand.aliases) {
        for term in with_bare_name(term) {
            word_spans(folded, &term, &mut spans);
        }
    }
    spans.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (start, end) in spans {
        match merged.last_mut() {
            Some(last) if start < last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// How `text`, read as prose, mentions each of `brands` (in the brands' order), given the URLs
/// the answer cites. Positions rank the brands by where each is first named.
pub fn mentions(text: &str, cited_urls: &[&str], brands: &[Brand]) -> Vec<Mention> {
    read(&Outline::prose(text), cited_urls, brands)
}

/// How an answer, read in its shape ([`Outline`]), mentions each of `brands` (in the brands'
/// order), given the URLs it cites. A mention is the subject of an item (its heading, bold
/// lead, label or first cell names the brand), an aside inside an item about something
/// else, or prose. Its stance is what the words around it say (the clause, else the
/// sentence; for an item's subject, else the item's sentences that name no other brand),
/// else, for a subject, what its list's heading, lead-in or the question says (a list of
/// picks recommends its subjects). A brand is recommended when words recommend it, else
/// cautioned when words or a list warn of it, else recommended when a list puts it forward
/// (a table's row only when no list does), else listed.
pub fn read(outline: &Outline, cited_urls: &[&str], brands: &[Brand]) -> Vec<Mention> {
    let text = outline.text.as_str();
    let folded = fold(text);
    let hosts: Vec<String> = cited_urls.iter().map(|u| host_of(u)).collect();
    let spans: Vec<Vec<(usize, usize)>> = brands
        .iter()
        .map(|brand| {
            brand_spans(&folded.text, brand)
                .into_iter()
                .map(|(start, end)| (folded.origin[start], folded.origin[end]))
                .collect()
        })
        .collect();
    // Where brands other than `brand` are named in `range`.
    let others_in = |brand: usize, range: &std::ops::Range<usize>| -> Vec<(usize, usize)> {
        spans
            .iter()
            .enumerate()
            .filter(|(other, _)| *other != brand)
            .flat_map(|(_, found)| {
                let at = found.partition_point(|&(start, _)| start < range.start);
                found[at..]
                    .iter()
                    .take_while(|&&(start, _)| start < range.end)
                    .copied()
            })
            .collect()
    };
    let mut found: Vec<Mention> = Vec::with_capacity(brands.len());
    let mut order: Vec<((usize, usize), usize)> = Vec::new();
    for (index, brand) in brands.iter().enumerate() {
        let brand_spans = &spans[index];
        let read_spans = &brand_spans[..brand_spans.len().min(READ_AT_MOST)];
        let said: Vec<(Said, Spot)> = read_spans
            .iter()
            .map(|&(start, end)| said_at(outline, start, end, |range| others_in(index, range)))
            .collect();
        let not_found = |s: &Said| s.stance() == Stance::NotFound;
        let counted = read_spans.len() - said.iter().filter(|(s, _)| not_found(s)).count()
            + (brand_spans.len() - read_spans.len());
        // Where the answer puts it: the first item about it, else its first mention in prose;
        // a brand named only inside items about something else comes after those.
        let first = |wanted: fn(Spot) -> bool| {
            said.iter()
                .zip(read_spans)
                .find(|((s, spot), _)| !not_found(s) && wanted(*spot))
                .map(|((_, spot), &(start, _))| (*spot, start))
        };
        let placed_at = first(|spot| spot.item().is_some());
        let placed = placed_at.and_then(|(spot, _)| spot.item());
        if counted > 0 {
            let key = match placed_at {
                Some((Spot::Subject(item), at)) => (outline.items[item].span.start, at),
                _ => match first(|spot| spot == Spot::Prose) {
                    Some((_, at)) => (at, at),
                    None => first(|_| true).map_or((usize::MAX, usize::MAX), |(_, at)| {
                        (usize::MAX / 2 + at, at)
                    }),
                },
            };
            order.push((key, index));
        }
        let listed_by_a_list = said.iter().any(|(s, spot)| {
            spot.item()
                .is_some_and(|i| outline.items[i].kind != ItemKind::Row)
                && !not_found(s)
        });
        let stance = if brand_spans.is_empty() {
            Stance::Listed
        } else if counted == 0 {
            Stance::NotFound
        } else if said.iter().any(|(s, _)| *s == Said::Words(Stance::Recommended)) {
            Stance::Recommended
        } else if said.iter().any(|(s, _)| s.stance() == Stance::Cautioned) {
            Stance::Cautioned
        } else if said.iter().any(|(s, _)| {
            matches!(s, Said::List { stance: Stance::Recommended, row } if !row || !listed_by_a_list)
        }) {
            Stance::Recommended
        } else {
            Stance::Listed
        };
        // The sentence that says it: the first with the brand's stance (the first mention
        // when it is only listed; the one saying nothing was found when that is all).
        let sentence = said
            .iter()
            .zip(read_spans)
            .find(|((s, _), _)| s.stance() == stance)
            .or_else(|| said.iter().zip(read_spans).next())
            .map(|((_, spot), &(start, end))| quote(outline, start, end, spot.item(), stance));
        let cited = brand
            .domains
            .iter()
            .any(|domain| hosts.iter().any(|host| on_domain(host, domain)));
        found.push(Mention {
            brand: brand.name.clone(),
            position: None,
            rank: placed.map(|item| outline.items[item].rank),
            count: counted,
            sentence,
            cited,
            stance,
        });
    }
    order.sort_unstable();
    for (rank, (_, index)) in order.into_iter().enumerate() {
        found[index].position = Some(rank + 1);
    }
    found
}

/// One brand over a comparison: its mention in each column (none where the column has no
/// answer) and the measures over the columns that answered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BrandSummary {
    pub brand: String,
    pub columns: Vec<Option<Mention>>,
    /// Share of the answered columns that name the brand, 0 to 100.
    pub visibility: f64,
    /// Mean position over the columns that name it.
    pub average_position: Option<f64>,
    /// The brand's mentions over all tracked brands' mentions, 0 to 100.
    pub share_of_voice: f64,
}

/// The measures per brand, from each column's [`mentions`] (none for a column that failed),
/// in the order of the brands in the first answered column.
pub fn summarize(columns: &[Option<Vec<Mention>>]) -> Vec<BrandSummary> {
    let Some(brands) = columns.iter().flatten().next() else {
        return Vec::new();
    };
    let answered = columns.iter().flatten().count();
    let all_mentions: usize = columns.iter().flatten().flatten().map(|m| m.count).sum();
    brands
        .iter()
        .enumerate()
        .map(|(index, brand)| {
            let cells: Vec<Option<Mention>> = columns
                .iter()
                .map(|column| column.as_ref().and_then(|c| c.get(index)).cloned())
                .collect();
            let positions: Vec<usize> = cells.iter().flatten().filter_map(|m| m.position).collect();
            let count: usize = cells.iter().flatten().map(|m| m.count).sum();
            BrandSummary {
                brand: brand.brand.clone(),
                visibility: percent(positions.len(), answered),
                average_position: (!positions.is_empty())
                    .then(|| positions.iter().sum::<usize>() as f64 / positions.len() as f64),
                share_of_voice: percent(count, all_mentions),
                columns: cells,
            }
        })
        .collect()
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brand(name: &str, aliases: &[&str], domains: &[&str]) -> Brand {
        Brand {
            name: name.to_string(),
            aliases: aliases.iter().map(|s| s.to_string()).collect(),
            domains: domains.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn positions_follow_first_mention_and_counts_every_one() {
        let text = "For rocky trails, Merrell is solid. Salomon fits narrow feet. Merrell again.";
        let brands = [
            brand("Salomon", &[], &[]),
            brand("Merrell", &[], &[]),
            brand("Lowa", &[], &[]),
        ];
        let found = mentions(text, &[], &brands);
        assert_eq!(found[0].position, Some(2));
        assert_eq!(found[0].count, 1);
        assert_eq!(found[1].position, Some(1));
        assert_eq!(found[1].count, 2);
        assert_eq!(found[2].position, None);
        assert_eq!(found[2].count, 0);
        assert_eq!(found[2].sentence, None);
        assert_eq!(
            found[0].sentence.as_deref(),
            Some("Salomon fits narrow feet.")
        );
        assert_eq!(
            found[1].sentence.as_deref(),
            Some("For rocky trails, Merrell is solid.")
        );
    }

    #[test]
    fn case_and_diacritics_are_ignored_both_ways() {
        let brands = [brand("Löwa", &[], &[])];
        assert_eq!(mentions("Try LOWA Renegade.", &[], &brands)[0].count, 1);
        let brands = [brand("Lowa", &[], &[])];
        let found = mentions("Die Löwa-Stiefel und lowa.", &[], &brands);
        assert_eq!(found[0].count, 2);
        assert_eq!(
            found[0].sentence.as_deref(),
            Some("Die Löwa-Stiefel und lowa.")
        );
    }

    #[test]
    fn whole_words_only() {
        let brands = [brand("Lowa", &[], &[]), brand("On", &[], &[])];
        let found = mentions(
            "Lowang and Slowa are not brands; neither is Onward or Ongoing.",
            &[],
            &brands,
        );
        assert_eq!(found[0].count, 0);
        assert_eq!(found[1].count, 0);
        let found = mentions("Shoes by On (the Swiss brand), On's Cloud.", &[], &brands);
        assert_eq!(found[1].count, 2);
    }

    #[test]
    fn aliases_count_for_their_brand_and_overlaps_once() {
        let brands = [brand("The North Face", &["TNF", "North Face"], &[])];
        let found = mentions(
            "The North Face, or TNF, makes boots. North Face again.",
            &[],
            &brands,
        );
        assert_eq!(found[0].count, 3);
        assert_eq!(found[0].position, Some(1));
    }

    #[test]
    fn cited_through_www_and_sub_domains_only() {
        let brands = [
            brand("Merrell", &[], &["merrell.com"]),
            brand("Salomon", &[], &["www.salomon.com"]),
        ];
        let urls = [
            "https://www.merrell.com/US/en/moab",
            "https://shop.salomon.com/x",
        ];
        let found = mentions("", &urls, &brands);
        assert!(found[0].cited && found[1].cited);
        let urls = ["https://notmerrell.com/", "https://salomon.com.evil.net/"];
        let found = mentions("", &urls, &brands);
        assert!(!found[0].cited && !found[1].cited);
        assert!(on_domain("HTTPS://Merrell.com./a", "https://merrell.com/"));
    }

    #[test]
    fn long_sentences_are_cut_and_list_marks_dropped() {
        let text = format!("- **Salomon** {}\n", "very ".repeat(100));
        let found = mentions(&text, &[], &[brand("Salomon", &[], &[])]);
        let sentence = found[0].sentence.clone().unwrap_or_default();
        assert!(sentence.starts_with("Salomon very"), "{sentence}");
        assert_eq!(sentence.chars().count(), SENTENCE_MAX_CHARS);
        assert!(sentence.ends_with('…'));
    }

    #[test]
    fn share_of_voice_visibility_and_average_position() {
        let brands = [brand("Salomon", &[], &[]), brand("Merrell", &[], &[])];
        let columns = vec![
            Some(mentions("Salomon, Salomon, Merrell.", &[], &brands)),
            Some(mentions("Merrell then Salomon.", &[], &brands)),
            None,
            Some(mentions("Nothing here.", &[], &brands)),
        ];
        let summary = summarize(&columns);
        assert_eq!(summary.len(), 2);
        // Salomon: 3 of 5 mentions; named in 2 of 3 answers, at 1 and 2.
        assert!((summary[0].share_of_voice - 60.0).abs() < 1e-9);
        assert!((summary[0].visibility - 200.0 / 3.0).abs() < 1e-9);
        assert_eq!(summary[0].average_position, Some(1.5));
        assert!((summary[1].share_of_voice - 40.0).abs() < 1e-9);
        assert_eq!(summary[1].average_position, Some(1.5));
        assert_eq!(summary[0].columns[2], None);
        assert_eq!(summary[0].columns[3].as_ref().map(|m| m.count), Some(0));
        let empty = summarize(&[Some(mentions("", &[], &brands))]);
        assert_eq!(empty[0].share_of_voice, 0.0);
        assert_eq!(empty[0].average_position, None);
    }
}
