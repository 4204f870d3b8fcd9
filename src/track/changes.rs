//! What the last run changed, as the lines every view shows (the Track tab, `track trends`,
//! the HTML and Markdown report). One function builds the lines and the sentence over them,
//! and the sentence is read from the lines: it never says "nothing changed" over a line
//! whose count, share or rank moved. Pure.

use super::diff::RunDiff;
use super::trends::Trends;

/// What a line of the changes is, for the views that mark them and for the headline that
/// reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// The sentence over the lines: what moved, over which answers.
    Headline,
    /// Answers or searches left out of the comparison.
    LeftOut,
    /// A brand against the run before: its answers, share of voice and recommendations,
    /// with the test's verdict on its visibility. `moved` when any number it shows moved.
    Brand { different: bool, moved: bool },
    /// Brands whose change the test does not call one, folded into one line (how many of
    /// them moved at all, within chance).
    Unclear(usize),
    /// A brand named at a vantage point where it was not.
    Gained,
    /// A brand no longer named at a vantage point.
    Lost,
    /// Sources cited now and not before (how many the line names).
    SourcesGained(usize),
    /// Sources cited before and not now.
    SourcesLost(usize),
    /// A domain's rank for a search at a place moved.
    Rank,
}

/// One line of what the last run changed.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangeLine {
    pub kind: ChangeKind,
    /// The brand a `Brand` line is about ("Salomon"), else empty.
    pub brand: String,
    pub text: String,
}

/// The changes of the last run as lines, in the order every view shows them: the headline,
/// what was left out, each brand whose change the test calls one (the rest folded into one
/// line, with what it would take to tell a change when the cells are too few), mentions
/// gained and lost at a vantage point for those brands, sources gained and lost, ranks
/// moved. The headline is [`headline`] of the lines under it.
pub fn change_lines(diff: &RunDiff, trends: &Trends) -> Vec<ChangeLine> {
    let line = |kind, text: String| ChangeLine {
        kind,
        brand: String::new(),
        text,
    };
    let mut lines = Vec::new();
    if let Some(left_out) = diff.not_compared() {
        lines.push(line(ChangeKind::LeftOut, left_out));
    }
    let mut clear: Vec<&str> = Vec::new();
    let mut unclear: Vec<&str> = Vec::new();
    let mut cells = 0u32;
    let mut unclear_moved = 0usize;
    for brand in &trends.brands {
        let Some(change) = brand.change else { continue };
        cells = cells.max(change.cells);
        if change.different {
            clear.push(&brand.brand);
            lines.push(ChangeLine {
                kind: ChangeKind::Brand {
                    different: true,
                    moved: true,
                },
                brand: brand.brand.clone(),
                text: change.text(),
            });
        } else {
            unclear.push(&brand.brand);
            unclear_moved += usize::from(change.moved());
        }
    }
    // A vantage point's gain or loss of a brand the test does not call changed is one of
    // its chance moves: counted in the folded line, not listed as a change.
    let (mut chance_gained, mut chance_lost) = (0usize, 0usize);
    for (kind, changes) in [
        (ChangeKind::Gained, &diff.mentions_gained),
        (ChangeKind::Lost, &diff.mentions_lost),
    ] {
        for c in changes {
            let told = clear.contains(&c.brand.as_str())
                || trends
                    .brands
                    .iter()
                    .all(|b| b.brand != c.brand || b.change.is_none());
            if !told {
                match kind {
                    ChangeKind::Gained => chance_gained += 1,
                    _ => chance_lost += 1,
                }
                continue;
            }
            lines.push(line(
                kind,
                format!(
                    "{} named by {} at {} for \"{}\"{}",
                    c.brand,
                    c.model,
                    c.location,
                    c.query,
                    c.counts_text()
                ),
            ));
        }
    }
    if !unclear.is_empty() {
        let mut text = format!(
            "{}: no clear difference in {} ({})",
            crate::plural::count(unclear.len() as u64, "brand", "brands"),
            crate::plural::count(u64::from(cells), "paired cell", "paired cells"),
            unclear.join(", ")
        );
        if chance_gained + chance_lost > 0 {
            text.push_str(&format!(
                "; {chance_gained} named where they were not and {chance_lost} no longer, within chance"
            ));
        }
        if let Some(too_few) = crate::analysis::significance::too_few(cells as usize) {
            text.push_str(&format!("; {too_few}"));
        }
        let at = lines
            .iter()
            .position(|l| matches!(l.kind, ChangeKind::Gained | ChangeKind::Lost))
            .unwrap_or(lines.len());
        lines.insert(at, line(ChangeKind::Unclear(unclear_moved), text));
    }
    if !diff.sources_gained.is_empty() {
        lines.push(line(
            ChangeKind::SourcesGained(diff.sources_gained.len()),
            format!("sources gained: {}", diff.sources_gained.join(", ")),
        ));
    }
    if !diff.sources_lost.is_empty() {
        lines.push(line(
            ChangeKind::SourcesLost(diff.sources_lost.len()),
            format!("sources lost: {}", diff.sources_lost.join(", ")),
        ));
    }
    for m in &diff.ranks_moved {
        let at = |r: Option<u32>| r.map_or("unranked".to_string(), |r| r.to_string());
        lines.push(line(
            ChangeKind::Rank,
            format!(
                "{} for \"{}\" at {}: {} → {}",
                m.domain,
                m.terms,
                m.location,
                at(m.from),
                at(m.to)
            ),
        ));
    }
    let headline = line(ChangeKind::Headline, headline(diff, &lines));
    lines.insert(0, headline);
    lines
}

/// "1 mention", "3 mentions".
fn counted(n: usize, one: &str, many: &str) -> String {
    crate::plural::count(n as u64, one, many)
}

/// The sentence over `lines`, read from them: what moved by a test's verdict (brands by
/// name, their mentions gained and lost, sources, ranks) over the cells both runs answered;
/// brands that moved within chance are "no clear change", never counted as moved.
pub fn headline(diff: &RunDiff, lines: &[ChangeLine]) -> String {
    let mut moved_brands: Vec<&str> = Vec::new();
    let mut unclear = 0;
    let (mut gained, mut lost, mut sources_gained, mut sources_lost, mut ranks) = (0, 0, 0, 0, 0);
    for line in lines {
        match line.kind {
            ChangeKind::Brand {
                different: true, ..
            } => moved_brands.push(&line.brand),
            ChangeKind::Unclear(n) => unclear += n,
            ChangeKind::Gained => gained += 1,
            ChangeKind::Lost => lost += 1,
            ChangeKind::SourcesGained(n) => sources_gained += n,
            ChangeKind::SourcesLost(n) => sources_lost += n,
            ChangeKind::Rank => ranks += 1,
            ChangeKind::Headline | ChangeKind::LeftOut | ChangeKind::Brand { .. } => {}
        }
    }
    let mut moves = Vec::new();
    match moved_brands.as_slice() {
        [] => {}
        [name] => moves.push(format!("{name} moved clearly")),
        [a, b] => moves.push(format!("{a} and {b} moved clearly")),
        many => moves.push(format!("{} brands moved clearly", many.len())),
    }
    for (gained, lost, one, many) in [
        (gained, lost, "mention", "mentions"),
        (sources_gained, sources_lost, "source", "sources"),
    ] {
        match (gained, lost) {
            (0, 0) => {}
            (0, lost) => moves.push(format!("{} lost", counted(lost, one, many))),
            (gained, 0) => moves.push(format!("{} gained", counted(gained, one, many))),
            (gained, lost) => moves.push(format!(
                "{} gained, {lost} lost",
                counted(gained, one, many)
            )),
        }
    }
    if ranks > 0 {
        moves.push(format!("{} moved", counted(ranks, "rank", "ranks")));
    }
    let over = match (diff.answers_compared, diff.searches_compared) {
        (0, 0) => None,
        (answers, 0) => Some(counted(answers, "cell", "cells")),
        (0, searches) => Some(counted(searches, "search", "searches")),
        (answers, searches) => Some(format!(
            "{} and {}",
            counted(answers, "cell", "cells"),
            counted(searches, "search", "searches")
        )),
    };
    let over = over.map(|over| format!("the {over} both runs answered"));
    let within_chance = match unclear {
        0 => String::new(),
        n => format!(
            " ({} within chance)",
            crate::plural::count(n as u64, "brand moved", "brands moved")
        ),
    };
    match (over, moves.is_empty()) {
        (None, true) => "nothing compared: no vantage point answered in both runs".to_string(),
        (None, false) => format!(
            "no vantage point answered in both runs; over all answers: {}",
            moves.join(", ")
        ),
        (Some(over), true) if unclear > 0 => format!("no clear change in {over}{within_chance}"),
        (Some(over), true) => format!("nothing changed in {over}"),
        (Some(over), false) => format!("changes in {over}: {}{within_chance}", moves.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::stance::Stance;
    use crate::track::diff::diff;
    use crate::track::trends::tests::{answer, brands, result, two_runs};
    use crate::track::trends::{RunObservations, Seen, trends};

    fn lines_of(runs: &[RunObservations], brands: &[String]) -> Vec<ChangeLine> {
        let d = diff(&runs[runs.len() - 2], &runs[runs.len() - 1], brands);
        change_lines(&d, &trends(runs, brands))
    }

    #[test]
    fn the_headline_counts_only_what_a_test_calls_a_change() {
        let lines = lines_of(&two_runs(), &brands());
        assert_eq!(lines[0].kind, ChangeKind::Headline);
        assert_eq!(
            lines[0].text,
            "changes in the 3 cells and 2 searches both runs answered: 1 source gained, 1 lost, \
             2 ranks moved (2 brands moved within chance)"
        );
        assert_eq!(lines[1].kind, ChangeKind::LeftOut);
        // Three paired cells can tell no change: the folded line says so, and what would.
        assert_eq!(lines[2].kind, ChangeKind::Unclear(2));
        assert!(
            lines[2]
                .text
                .starts_with("2 brands: no clear difference in 3 paired cells (Merrell, Salomon); 1 named where they were not and 1 no longer, within chance; 3 paired cells are too few"),
            "{}",
            lines[2].text
        );
        // A vantage point's move of a brand within chance is not listed as a change.
        assert!(
            lines
                .iter()
                .all(|l| !matches!(l.kind, ChangeKind::Gained | ChangeKind::Lost)),
            "{lines:?}"
        );
        let same = lines_of(&[two_runs()[1].clone(), two_runs()[1].clone()], &brands());
        assert_eq!(
            same[0].text,
            "nothing changed in the 3 cells and 2 searches both runs answered"
        );
        assert!(
            same.iter()
                .all(|l| !matches!(l.kind, ChangeKind::Brand { moved: true, .. })),
            "{same:?}"
        );
    }

    /// A brand that moved in 12 of 20 paired cells is a change, with its p-value, and its
    /// vantage points are listed; one that moved in 2 is folded with the unmoved.
    #[test]
    fn a_clear_change_is_printed_with_its_p_value_and_the_rest_folded() {
        let names = vec!["Keen".to_string(), "Lowa".to_string()];
        let run = |keen: &dyn Fn(usize) -> bool, lowa: &dyn Fn(usize) -> bool| RunObservations {
            label: String::new(),
            answers: (0..20)
                .map(|i| {
                    let mut a = answer("chatgpt", &format!("P{i}"), &[], &[]);
                    a.brands = vec![
                        Seen::at(keen(i).then_some(1)),
                        Seen::at(lowa(i).then_some(2)),
                    ];
                    a
                })
                .collect(),
            results: Vec::new(),
        };
        let before = run(&|i| i < 4, &|i| i < 10);
        let after = run(&|i| i < 16, &|i| i < 12);
        let d = diff(&before, &after, &names);
        let lines = change_lines(&d, &trends(&[before, after], &names));
        let text: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            text[0],
            "changes in the 20 cells both runs answered: Keen moved clearly, 12 mentions gained (1 brand moved within chance)",
            "{text:#?}"
        );
        assert_eq!(lines[1].brand, "Keen");
        assert!(
            text[1].starts_with("named in 4 of 20 (8–42 %) → 16 of 20 (58–92 %) of the same cells, 0 lost, 12 gained: different (p < 0.001)"),
            "{}",
            text[1]
        );
        assert_eq!(
            text[2],
            "1 brand: no clear difference in 20 paired cells (Lowa); 2 named where they were not and 0 no longer, within chance"
        );
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.kind == ChangeKind::Gained)
                .count(),
            12
        );
    }

    /// One vantage point asked 32 times in each run: Keen named in 7, then 11, and named
    /// three times an answer in the second, so its share of voice moves. No test calls that
    /// a difference: the headline says no clear change, never "nothing changed".
    #[test]
    fn counts_and_shares_that_move_within_chance_are_no_clear_change() {
        let names = vec!["Keen".to_string(), "Merrell".to_string()];
        let run = |label: &str, keen: usize, keen_count: u32, merrell: usize| RunObservations {
            label: label.to_string(),
            answers: (0..32)
                .map(|i| {
                    let mut a = answer("chatgpt", "US", &[], &["rei.com"]);
                    let keen = (i < keen).then_some(Seen {
                        position: Some(1),
                        count: keen_count,
                        stance: Stance::Listed,
                    });
                    a.brands = vec![
                        keen.unwrap_or_default(),
                        Seen::at((i >= 32 - merrell).then_some(2)),
                    ];
                    a
                })
                .collect(),
            results: Vec::new(),
        };
        let runs = [run("day 1", 7, 1, 25), run("day 2", 11, 3, 24)];
        let d = diff(&runs[0], &runs[1], &names);
        assert!(
            d.is_empty(),
            "no vantage point's change is a clear one: {d:?}"
        );
        let lines = change_lines(&d, &trends(&runs, &names));
        let text: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            text[0],
            "no clear change in the 32 cells both runs answered (2 brands moved within chance)",
            "{text:#?}"
        );
        assert!(!text[0].contains("nothing changed"));
        assert_eq!(
            text[1],
            "2 brands: no clear difference in 32 paired cells (Keen, Merrell)"
        );
    }

    #[test]
    fn recommendations_that_move_in_one_cell_are_within_chance() {
        let names = vec!["Keen".to_string()];
        let run = |recommended: bool| {
            let mut a = answer("chatgpt", "US", &[], &[]);
            a.brands = vec![Seen {
                position: Some(1),
                count: 1,
                stance: if recommended {
                    Stance::Recommended
                } else {
                    Stance::Listed
                },
            }];
            RunObservations {
                label: String::new(),
                answers: vec![a],
                results: Vec::new(),
            }
        };
        let lines = lines_of(&[run(false), run(true)], &names);
        assert_eq!(
            lines[0].text,
            "no clear change in the 1 cell both runs answered (1 brand moved within chance)"
        );
        assert!(
            lines[1].text.starts_with(
                "1 brand: no clear difference in 1 paired cell (Keen); 1 paired cell is too few"
            ),
            "{}",
            lines[1].text
        );
    }

    #[test]
    fn ranks_moved_in_a_set_of_searches_only_are_changes_not_nothing_compared() {
        let run = |rank: u32| RunObservations {
            label: String::new(),
            answers: Vec::new(),
            results: vec![result("US", rank, "rei.com")],
        };
        let lines = lines_of(&[run(3), run(1)], &brands());
        assert_eq!(
            lines[0].text,
            "changes in the 1 search both runs answered: 1 rank moved"
        );
        assert_eq!(lines[1].kind, ChangeKind::Rank);
        let still = lines_of(&[run(3), run(3)], &brands());
        assert_eq!(
            still[0].text,
            "nothing changed in the 1 search both runs answered"
        );
        let none = lines_of(
            &[
                run(3),
                RunObservations {
                    results: Vec::new(),
                    ..run(3)
                },
            ],
            &brands(),
        );
        assert_eq!(
            none[0].text,
            "nothing compared: no vantage point answered in both runs"
        );
    }
}
