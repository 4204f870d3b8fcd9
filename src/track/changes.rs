//! What the last run changed, as the lines every view shows (the Track tab, `track trends`,
//! the report). Pure.

use super::diff::RunDiff;
use super::trends::Trends;

/// What a line of the changes is, for the views that mark them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// What the changes are over.
    Headline,
    /// Answers or searches left out of the comparison.
    LeftOut,
    /// A brand's visibility against the run before, with the test's verdict.
    Brand {
        different: bool,
    },
    Gained,
    Lost,
    Other,
}

/// One line of what the last run changed.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangeLine {
    pub kind: ChangeKind,
    /// The brand a `Brand` line is about ("Salomon"), else empty.
    pub brand: String,
    pub text: String,
}

/// The changes of the last run as lines, in the order every view shows them: what they are
/// over, what was left out, each brand against the run before, mentions gained and lost,
/// sources gained and lost, ranks moved.
pub fn change_lines(diff: &RunDiff, trends: Option<&Trends>) -> Vec<ChangeLine> {
    let line = |kind, text: String| ChangeLine {
        kind,
        brand: String::new(),
        text,
    };
    let mut lines = vec![line(ChangeKind::Headline, diff.headline())];
    if let Some(left_out) = diff.not_compared() {
        lines.push(line(ChangeKind::LeftOut, left_out));
    }
    for brand in trends.iter().flat_map(|t| &t.brands) {
        if let Some(change) = brand.change {
            lines.push(ChangeLine {
                kind: ChangeKind::Brand {
                    different: change.different,
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
            ChangeKind::Other,
            format!("sources gained: {}", diff.sources_gained.join(", ")),
        ));
    }
    if !diff.sources_lost.is_empty() {
        lines.push(line(
            ChangeKind::Other,
            format!("sources lost: {}", diff.sources_lost.join(", ")),
        ));
    }
    for m in &diff.ranks_moved {
        let at = |r: Option<u32>| r.map_or("unranked".to_string(), |r| r.to_string());
        lines.push(line(
            ChangeKind::Other,
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
    lines
}
