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
/// what was left out, each brand against the run before, mentions gained and lost, sources
/// gained and lost, ranks moved. The headline is [`headline`] of the lines under it.
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
    for brand in &trends.brands {
        if let Some(change) = brand.change {
            lines.push(ChangeLine {
                kind: ChangeKind::Brand {
                    different: change.different,
                    moved: change.moved(),
                },
                brand: brand.brand.clone(),
                text: change.text(),
            });
        }
    }
    for (kind, changes) in [
        (ChangeKind::Gained, &diff.mentions_gained),
        (ChangeKind::Lost, &diff.mentions_lost),
    ] {
        for c in changes {
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
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The sentence over `lines`, read from them: what moved (brands by name, mentions gained
/// and lost, sources, ranks) over the answers and searches both runs have; "nothing
/// changed" only when no line shows a number that moved.
pub fn headline(diff: &RunDiff, lines: &[ChangeLine]) -> String {
    let mut moved_brands: Vec<(&str, bool)> = Vec::new();
    let (mut gained, mut lost, mut sources_gained, mut sources_lost, mut ranks) = (0, 0, 0, 0, 0);
    for line in lines {
        match line.kind {
            ChangeKind::Brand {
                moved: true,
                different,
            } => moved_brands.push((&line.brand, different)),
            ChangeKind::Gained => gained += 1,
            ChangeKind::Lost => lost += 1,
            ChangeKind::SourcesGained(n) => sources_gained += n,
            ChangeKind::SourcesLost(n) => sources_lost += n,
            ChangeKind::Rank => ranks += 1,
            ChangeKind::Headline | ChangeKind::LeftOut | ChangeKind::Brand { .. } => {}
        }
    }
    let mut moves = Vec::new();
    let clear: Vec<&str> = moved_brands
        .iter()
        .filter(|(_, different)| *different)
        .map(|(name, _)| *name)
        .collect();
    match moved_brands.as_slice() {
        [] => {}
        [(name, different)] => moves.push(if *different {
            format!("{name} moved clearly")
        } else {
            format!("{name} moved")
        }),
        [(a, _), (b, _)] => moves.push(match clear.as_slice() {
            [] => format!("{a} and {b} moved"),
            [one] => format!("{a} and {b} moved ({one} clearly)"),
            _ => format!("{a} and {b} moved clearly"),
        }),
        many => moves.push(match clear.len() {
            0 => format!("{} brands moved", many.len()),
            n => format!("{} brands moved ({n} clearly)", many.len()),
        }),
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
        (answers, 0) => Some(counted(answers, "answer", "answers")),
        (0, searches) => Some(counted(searches, "search", "searches")),
        (answers, searches) => Some(format!(
            "{} and {}",
            counted(answers, "answer", "answers"),
            counted(searches, "search", "searches")
        )),
    };
    let over = over.map(|over| format!("the {over} both runs have"));
    match (over, moves.is_empty()) {
        (None, true) => "nothing compared: no vantage point answered in both runs".to_string(),
        (None, false) => format!(
            "no vantage point answered in both runs; over all answers: {}",
            moves.join(", ")
        ),
        (Some(over), true) => format!("nothing changed in {over}"),
        (Some(over), false) => format!("changes in {over}: {}", moves.join(", ")),
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
    fn the_headline_names_what_the_lines_under_it_show_moved() {
        let lines = lines_of(&two_runs(), &brands());
        assert_eq!(lines[0].kind, ChangeKind::Headline);
        assert_eq!(
            lines[0].text,
            "changes in the 3 answers and 2 searches both runs have: Merrell and Salomon moved, \
             1 mention gained, 1 lost, 1 source gained, 1 lost, 2 ranks moved"
        );
        assert_eq!(lines[1].kind, ChangeKind::LeftOut);
        assert_eq!(lines[2].brand, "Merrell");
        assert!(
            lines[2]
                .text
                .starts_with("named in 2 of 4 (15–85 %) → 3 of 3"),
            "{}",
            lines[2].text
        );
        let same = lines_of(&[two_runs()[1].clone(), two_runs()[1].clone()], &brands());
        assert_eq!(
            same[0].text,
            "nothing changed in the 3 answers and 2 searches both runs have"
        );
        assert!(
            same.iter()
                .all(|l| !matches!(l.kind, ChangeKind::Brand { moved: true, .. })),
            "{same:?}"
        );
    }

    /// One vantage point asked 32 times in each run: Keen named in 7, then 11 (no test calls
    /// that a difference, so no mention is gained there), and named three times an answer in
    /// the second, so its share of voice moves. The headline said "nothing changed".
    #[test]
    fn counts_and_shares_that_move_without_a_clear_difference_are_changes() {
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
            text[0], "changes in the 32 answers both runs have: Keen and Merrell moved",
            "{text:#?}"
        );
        assert!(!text[0].contains("nothing changed"));
        assert_eq!(lines[1].brand, "Keen");
        assert!(
            text[1].starts_with("named in 7 of 32 (11–39 %) → 11 of 32 (20–52 %): no clear difference; share of voice 22 % → 58 %"),
            "{}",
            text[1]
        );
        // Nothing recommended it in either run: recommendations are not said.
        assert!(!text[1].contains("recommended"), "{}", text[1]);
    }

    #[test]
    fn recommendations_that_move_are_said_and_read_by_the_headline() {
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
            "changes in the 1 answer both runs have: Keen moved"
        );
        assert!(
            lines[1]
                .text
                .ends_with("no clear difference; recommended in 0 of 1 → 1 of 1"),
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
            "changes in the 1 search both runs have: 1 rank moved"
        );
        assert_eq!(lines[1].kind, ChangeKind::Rank);
        let still = lines_of(&[run(3), run(3)], &brands());
        assert_eq!(
            still[0].text,
            "nothing changed in the 1 search both runs have"
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
