//! One cell of a set — a prompt asked of one model from one place — over its runs: what the
//! answer said each time and what changed between two runs (the brands named, their order
//! and stance, the sites cited, the words). Pure: the runs' readings and texts come from
//! `track::answers_read`, and every view (the CLI, the Track tab, the report) reads the
//! changes from [`compare`] and says them with [`CellChanges::lines`].

use std::collections::BTreeSet;

use serde::Serialize;

use crate::analysis::diff::{self, Change, Piece, WordDiff};
use crate::analysis::overview::AI_OVERVIEW;
use crate::analysis::workspace::TrackSet;
use crate::jobs::JobState;
use crate::present::compare::overview::is_overview_request;
use crate::present::compare::summary::location_label;
use crate::store::RequestParams;
use crate::store::readings::StoredBrand;

/// A prompt × model × place of a set, as its readings name them: the model as the service
/// writes it (`chatgpt`, `ai-overview`), the place as [`location_label`] writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Cell {
    pub prompt: String,
    pub model: String,
    pub place: String,
}

impl Cell {
    /// The cell a call of a run answers; none for a plain search, which has no answer.
    pub fn of(request: &RequestParams) -> Option<Cell> {
        match request {
            RequestParams::Ai(ai) => Some(Cell {
                prompt: ai.prompt.clone(),
                model: ai.effective_model().as_str().to_string(),
                place: location_label(&ai.location),
            }),
            RequestParams::Search(search) if is_overview_request(search) => Some(Cell {
                prompt: search.terms.clone(),
                model: AI_OVERVIEW.to_string(),
                place: location_label(&search.location),
            }),
            _ => None,
        }
    }

    /// "chatgpt · US/NY/New York", for a row of a list.
    pub fn vantage(&self) -> String {
        format!("{} · {}", self.model, self.place)
    }
}

/// A run's start to the second, "2026-11-27 21:23:26Z": several runs of a day, even of a
/// minute, are told apart.
pub fn run_time(started_at: i64) -> String {
    let stamp = super::report::timestamp(started_at);
    match (stamp.get(..10), stamp.get(11..19)) {
        (Some(day), Some(time)) => format!("{day} {time}Z"),
        _ => stamp,
    }
}

/// The set's cells in the order a run asks them (each once, whatever its samples and
/// devices); empty when the set cannot run.
pub fn cells_of(set: &TrackSet) -> Vec<Cell> {
    let calls = crate::track::plan::expand(set).unwrap_or_default();
    let mut seen = BTreeSet::new();
    calls
        .iter()
        .filter_map(Cell::of)
        .filter(|cell| seen.insert(cell.clone()))
        .collect()
}

/// Where the cell stood in one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CellStatus {
    /// Answered, and the answer was read.
    Answered,
    /// The job ended with a body that holds no answer to read.
    Unreadable,
    /// Still waiting for the service (or not sent yet).
    Pending,
    /// The service failed the job, or no longer knows it.
    Failed,
    /// The service refused the call.
    Refused,
    /// The run did not ask it (the set changed since).
    NotAsked,
}

impl CellStatus {
    pub fn label(self) -> &'static str {
        match self {
            CellStatus::Answered => "answered",
            CellStatus::Unreadable => "no answer to read",
            CellStatus::Pending => "pending",
            CellStatus::Failed => "failed",
            CellStatus::Refused => "refused",
            CellStatus::NotAsked => "not asked",
        }
    }

    /// A call's status from what its run holds of it.
    pub fn of_call(state: Option<JobState>, refused: bool, answered: bool) -> CellStatus {
        match state {
            _ if answered => CellStatus::Answered,
            _ if refused => CellStatus::Refused,
            Some(JobState::Done) => CellStatus::Unreadable,
            Some(JobState::Failed | JobState::Expired) => CellStatus::Failed,
            Some(JobState::Pending | JobState::Error) | None => CellStatus::Pending,
        }
    }
}

/// What one answer of the cell said: the brands it names in its own order, the domains it
/// cites, and its words.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CellAnswer {
    /// Named brands, first named first.
    pub brands: Vec<NamedBrand>,
    /// Cited domains, each once, in the answer's order.
    pub sources: Vec<String>,
    /// The answer's words as Compare reads them (the outline's text).
    pub text: String,
    /// Whether `text` was read: a view reads the words of the runs it shows or compares only.
    #[serde(skip)]
    pub text_read: bool,
    /// The call of the run that answered (its first sample), to read its words later.
    #[serde(skip)]
    pub seq: u32,
}

/// A brand in one answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedBrand {
    pub brand: String,
    /// 1 for the first brand the answer names.
    pub position: Option<u32>,
    pub stance: String,
    pub count: u32,
    pub cited: bool,
}

impl CellAnswer {
    /// From a stored reading's brands and cited domains; the text is set apart.
    pub fn from_reading(brands: &[StoredBrand], sources: Vec<String>, text: String) -> CellAnswer {
        let mut named: Vec<NamedBrand> = brands
            .iter()
            .filter(|b| b.position.is_some() || b.count > 0)
            .map(|b| NamedBrand {
                brand: b.brand.clone(),
                position: b.position,
                stance: b.stance.clone(),
                count: b.count,
                cited: b.cited,
            })
            .collect();
        named.sort_by_key(|b| (b.position.unwrap_or(u32::MAX), b.brand.clone()));
        CellAnswer {
            brands: named,
            sources,
            text,
            text_read: true,
            seq: 0,
        }
    }

    fn brand(&self, name: &str) -> Option<&NamedBrand> {
        self.brands.iter().find(|b| b.brand == name)
    }
}

/// The cell in one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellRun {
    pub run: String,
    /// The run's start, Unix milliseconds.
    pub started_at: i64,
    pub status: CellStatus,
    /// Present when answered.
    pub answer: Option<CellAnswer>,
}

/// Whose words a read of a cell's runs reads (what each answer names and cites is always
/// read, from the kept readings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextsOf {
    /// Every run's (the CLI prints them all).
    All,
    /// These runs' (ids), and the newest two answered: what a view shows and compares.
    These(Vec<String>),
}

/// A cell's runs, newest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CellHistory {
    pub set: String,
    pub cell: Cell,
    pub runs: Vec<CellRun>,
}

impl CellHistory {
    /// The two answered runs compared by default: the newest two (older, newer), as
    /// indices into `runs`.
    pub fn newest_pair(&self) -> Option<(usize, usize)> {
        let mut answered = self
            .runs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.answer.is_some())
            .map(|(i, _)| i);
        let newer = answered.next()?;
        let older = answered.next()?;
        Some((older, newer))
    }

    /// The changes from run `older` to run `newer` (indices into `runs`); none unless
    /// both were answered.
    pub fn changes(&self, older: usize, newer: usize) -> Option<CellChanges> {
        let (a, b) = (self.runs.get(older)?, self.runs.get(newer)?);
        let mut changes = compare(a.answer.as_ref()?, b.answer.as_ref()?, true);
        changes.from = a.run.clone();
        changes.to = b.run.clone();
        Some(changes)
    }
}

/// A brand named in both answers at another place in their order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Moved {
    pub brand: String,
    pub from: u32,
    pub to: u32,
}

/// A brand named in both answers with another stance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StanceChange {
    pub brand: String,
    pub from: String,
    pub to: String,
}

/// What changed from one answer of a cell to another.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CellChanges {
    /// The runs compared (ids), when known.
    pub from: String,
    pub to: String,
    pub brands_added: Vec<String>,
    pub brands_dropped: Vec<String>,
    pub moved: Vec<Moved>,
    pub stance: Vec<StanceChange>,
    pub sources_added: Vec<String>,
    pub sources_dropped: Vec<String>,
    /// The word diff of the two texts (the one Compare shows); none when not asked for.
    pub words: Option<WordDiff>,
    /// With samples: each brand whose answers naming it changed by more than chance, its
    /// counts in each run (a cell asked several times is read by its counts, not by one
    /// answer's words).
    pub counted: Vec<CountMove>,
}

/// A brand named in `before` of `asked_before` answers of a cell, then `after` of
/// `asked_after`, with Fisher's exact test's p.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CountMove {
    pub brand: String,
    pub before: usize,
    pub asked_before: usize,
    pub after: usize,
    pub asked_after: usize,
    pub p: f64,
}

/// The brands whose counts differ between a cell's sampled answers of two runs, by
/// Fisher's exact test at 95 % (each answer a list of the brands it names).
pub fn counted_moves(before: &[Vec<String>], after: &[Vec<String>]) -> Vec<CountMove> {
    let mut brands: Vec<&String> = before.iter().chain(after).flatten().collect();
    brands.sort();
    brands.dedup();
    let count = |answers: &[Vec<String>], brand: &String| {
        answers.iter().filter(|a| a.contains(brand)).count()
    };
    brands
        .into_iter()
        .filter_map(|brand| {
            let (was, is) = (count(before, brand), count(after, brand));
            let p = crate::analysis::samples::differ((was, before.len()), (is, after.len()), 1)?;
            Some(CountMove {
                brand: brand.clone(),
                before: was,
                asked_before: before.len(),
                after: is,
                asked_after: after.len(),
                p,
            })
        })
        .collect()
}

impl CellChanges {
    /// Nothing changed in what the answers name and cite (the words may still differ).
    pub fn same_readings(&self) -> bool {
        self.counted.is_empty()
            && self.brands_added.is_empty()
            && self.brands_dropped.is_empty()
            && self.moved.is_empty()
            && self.stance.is_empty()
            && self.sources_added.is_empty()
            && self.sources_dropped.is_empty()
    }

    /// The changes as sentences, the same in every view: brands, order, stance, sources,
    /// then the count of words.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let list = |names: &[String]| names.join(", ");
        if !self.brands_added.is_empty() {
            lines.push(format!("Now named: {}", list(&self.brands_added)));
        }
        if !self.brands_dropped.is_empty() {
            lines.push(format!("No longer named: {}", list(&self.brands_dropped)));
        }
        for m in &self.moved {
            let way = if m.to < m.from { "up" } else { "down" };
            lines.push(format!("{} moved {way}: #{} → #{}", m.brand, m.from, m.to));
        }
        for s in &self.stance {
            lines.push(format!("{}: {} → {}", s.brand, s.from, s.to));
        }
        if !self.sources_added.is_empty() {
            lines.push(format!("Sources cited now: {}", list(&self.sources_added)));
        }
        if !self.sources_dropped.is_empty() {
            lines.push(format!(
                "Sources no longer cited: {}",
                list(&self.sources_dropped)
            ));
        }
        for c in &self.counted {
            let way = if c.after * c.asked_before > c.before * c.asked_after {
                "more often"
            } else {
                "less often"
            };
            lines.push(format!(
                "{} named {way}: in {} of {} answers → {} of {} (p = {:.3})",
                c.brand, c.before, c.asked_before, c.after, c.asked_after, c.p
            ));
        }
        if self.same_readings() {
            lines.push("The same brands, order, stances and sources.".to_string());
        }
        if let Some(words) = &self.words {
            lines.push(words_line(words));
        }
        lines
    }
}

/// "12 words removed · 15 added · 140 shared · 85% alike", as Compare's Diff heads it.
pub fn words_line(words: &WordDiff) -> String {
    if words.removed_words == 0 && words.added_words == 0 {
        return "The words are the same.".to_string();
    }
    format!(
        "{} words removed · {} added · {} shared · {:.0}% alike",
        words.removed_words,
        words.added_words,
        words.same_words,
        words.similarity()
    )
}

/// The word diff cut short for the report: its changes whole, the unchanged text between
/// them kept to a few words either side ("…" for what is left out), and no more than about
/// `max_chars` in all.
pub fn short_pieces(words: &WordDiff, max_chars: usize) -> Vec<Piece> {
    // A few unchanged words either side of a change say where it is.
    const AROUND: usize = 3;
    let mut out: Vec<Piece> = Vec::new();
    let mut length = 0;
    let last = words.pieces.len().saturating_sub(1);
    for (i, piece) in words.pieces.iter().enumerate() {
        if length >= max_chars {
            out.push(same(" …".to_string()));
            break;
        }
        let text = piece.text.replace('\n', " ");
        let kept = match piece.change {
            Change::Same => {
                let words: Vec<&str> = text.split_whitespace().collect();
                if words.len() <= 2 * AROUND {
                    same(text)
                } else {
                    let mut short = String::new();
                    if i > 0 {
                        short.push_str(&format!(" {}", words[..AROUND].join(" ")));
                    }
                    short.push_str(" …");
                    if i < last {
                        short.push_str(&format!(" {} ", words[words.len() - AROUND..].join(" ")));
                    }
                    same(short)
                }
            }
            _ if piece.is_blank() => same(" ".to_string()),
            change => {
                // The spaces around a change stay outside its marks.
                let core = text.trim();
                let (lead, trail) = (text.len() - text.trim_start().len(), text.trim_end().len());
                if lead > 0 {
                    out.push(same(" ".to_string()));
                }
                length += core.chars().count();
                out.push(Piece {
                    change,
                    text: core.to_string(),
                });
                if trail < text.len() {
                    out.push(same(" ".to_string()));
                }
                continue;
            }
        };
        length += kept.text.chars().count();
        out.push(kept);
    }
    out
}

fn same(text: String) -> Piece {
    Piece {
        change: Change::Same,
        text,
    }
}

/// [`short_pieces`] as text: `[-removed-]{+added+}`, as `git diff --word-diff` writes them.
pub fn short_diff(words: &WordDiff, max_chars: usize) -> String {
    let pieces = short_pieces(words, max_chars);
    let short = WordDiff {
        pieces,
        ..WordDiff::default()
    };
    short.marked_text().trim().to_string()
}

/// The changes from `old` to `new`; the word diff only when `with_words` (it is the costly
/// part, and a report of many cells wants it only where the readings changed).
pub fn compare(old: &CellAnswer, new: &CellAnswer, with_words: bool) -> CellChanges {
    let names =
        |a: &CellAnswer| -> Vec<String> { a.brands.iter().map(|b| b.brand.clone()).collect() };
    let (before, after) = (names(old), names(new));
    let mut changes = CellChanges {
        brands_added: after
            .iter()
            .filter(|b| !before.contains(b))
            .cloned()
            .collect(),
        brands_dropped: before
            .iter()
            .filter(|b| !after.contains(b))
            .cloned()
            .collect(),
        sources_added: only_in(&new.sources, &old.sources),
        sources_dropped: only_in(&old.sources, &new.sources),
        ..CellChanges::default()
    };
    for b in &new.brands {
        let Some(was) = old.brand(&b.brand) else {
            continue;
        };
        if let (Some(from), Some(to)) = (was.position, b.position)
            && from != to
        {
            changes.moved.push(Moved {
                brand: b.brand.clone(),
                from,
                to,
            });
        }
        if was.stance != b.stance {
            changes.stance.push(StanceChange {
                brand: b.brand.clone(),
                from: was.stance.clone(),
                to: b.stance.clone(),
            });
        }
    }
    if with_words {
        changes.words = Some(diff::words(&old.text, &new.text));
    }
    changes
}

fn only_in(these: &[String], others: &[String]) -> Vec<String> {
    let others: BTreeSet<&String> = others.iter().collect();
    these
        .iter()
        .filter(|s| !others.contains(s))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brand(name: &str, position: u32, stance: &str) -> NamedBrand {
        NamedBrand {
            brand: name.to_string(),
            position: Some(position),
            stance: stance.to_string(),
            count: 1,
            cited: false,
        }
    }

    fn answer(brands: Vec<NamedBrand>, sources: &[&str], text: &str) -> CellAnswer {
        CellAnswer {
            brands,
            sources: sources.iter().map(|s| s.to_string()).collect(),
            text: text.to_string(),
            text_read: true,
            seq: 0,
        }
    }

    #[test]
    fn brands_order_stance_and_sources_changes_are_each_found() {
        let old = answer(
            vec![
                brand("Acme", 1, "recommended"),
                brand("Bolt", 2, "listed"),
                brand("Core", 3, "listed"),
            ],
            &["a.com", "b.com"],
            "Acme is best. Bolt is fine.",
        );
        let new = answer(
            vec![
                brand("Bolt", 1, "recommended"),
                brand("Acme", 2, "cautioned"),
                brand("Dash", 3, "listed"),
            ],
            &["b.com", "c.com"],
            "Bolt is best. Acme is pricey.",
        );
        let c = compare(&old, &new, true);
        assert_eq!(c.brands_added, ["Dash"]);
        assert_eq!(c.brands_dropped, ["Core"]);
        assert_eq!(
            c.moved,
            [
                Moved {
                    brand: "Bolt".into(),
                    from: 2,
                    to: 1
                },
                Moved {
                    brand: "Acme".into(),
                    from: 1,
                    to: 2
                },
            ]
        );
        assert_eq!(c.stance.len(), 2);
        assert_eq!(c.stance[1].to, "cautioned");
        assert_eq!(c.sources_added, ["c.com"]);
        assert_eq!(c.sources_dropped, ["a.com"]);
        let words = c.words.as_ref().expect("asked for");
        assert!(words.added_words > 0 && words.removed_words > 0);
        let lines = c.lines();
        assert!(lines.contains(&"Now named: Dash".to_string()), "{lines:?}");
        assert!(
            lines.contains(&"Bolt moved up: #2 → #1".to_string()),
            "{lines:?}"
        );
        assert!(lines.contains(&"Acme: recommended → cautioned".to_string()));
    }

    #[test]
    fn the_same_answer_says_so_and_skips_words_unless_asked() {
        let a = answer(vec![brand("Acme", 1, "listed")], &["a.com"], "Same words.");
        let c = compare(&a, &a, false);
        assert!(c.same_readings());
        assert!(c.words.is_none());
        assert_eq!(c.lines(), ["The same brands, order, stances and sources."]);
        let c = compare(&a, &a, true);
        assert_eq!(c.lines()[1], "The words are the same.");
    }

    #[test]
    fn the_newest_pair_skips_runs_without_an_answer() {
        let run = |id: &str, answered: bool| CellRun {
            run: id.to_string(),
            started_at: 0,
            status: if answered {
                CellStatus::Answered
            } else {
                CellStatus::Failed
            },
            answer: answered.then(CellAnswer::default),
        };
        let mut history = CellHistory {
            runs: vec![run("c", true), run("b", false), run("a", true)],
            ..CellHistory::default()
        };
        assert_eq!(history.newest_pair(), Some((2, 0)));
        let changes = history.changes(2, 0).expect("both answered");
        assert_eq!((changes.from.as_str(), changes.to.as_str()), ("a", "c"));
        assert!(history.changes(1, 0).is_none());
        history.runs.truncate(2);
        assert_eq!(history.newest_pair(), None);
    }

    #[test]
    fn a_brand_the_answer_only_says_it_knows_nothing_of_is_not_named() {
        let stored = vec![
            StoredBrand {
                brand: "Zed".into(),
                position: None,
                count: 0,
                stance: "not found".into(),
                cited: false,
                rank: None,
            },
            StoredBrand {
                brand: "Acme".into(),
                position: Some(2),
                count: 3,
                stance: "listed".into(),
                cited: true,
                rank: Some(1),
            },
        ];
        let a = CellAnswer::from_reading(&stored, Vec::new(), String::new());
        assert_eq!(a.brands.len(), 1);
        assert_eq!(a.brands[0].brand, "Acme");
    }

    #[test]
    fn the_short_diff_keeps_changes_and_leaves_out_long_unchanged_runs() {
        let old = "one two three four five six seven eight nine ten old end";
        let new = "one two three four five six seven eight nine ten new end";
        let short = short_diff(&diff::words(old, new), 200);
        assert!(
            short.contains("[-old-]") && short.contains("{+new+}"),
            "{short}"
        );
        assert!(short.contains('…'), "{short}");
        assert!(!short.contains("four five six"), "{short}");
        let spaced = short_diff(
            &diff::words("keep the grip here", "keep the weight here"),
            200,
        );
        assert_eq!(spaced, "keep the [-grip-]{+weight+} here");
    }
}
