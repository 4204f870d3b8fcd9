//! Runs of headings read as lists: numbered headings ("1. Claude Code"), or two or more
//! unnumbered sibling headings, are items whose sections run to the next heading of their
//! level or above, or a rule. Linear in the headings: each looks back and forward through
//! one slot per level.

use super::super::stance;
use super::subject::strip_number;
use super::walk::Walker;
use super::{Item, ItemKind};

/// Heading levels: h1 to h6, and 7 for a paragraph led by a bold number.
const LEVELS: usize = 8;

/// The longest heading or lead-in read for what a list's items are.
const CONTEXT_BYTES: usize = 300;

impl Walker {
    /// Runs of headings of one level under one parent — numbered ones ("1. Claude Code"), or
    /// two or more unnumbered siblings — are lists whose items are their sections.
    pub(super) fn sections(&mut self, question: &str) {
        let headings = std::mem::take(&mut self.headings);
        let level = |index: usize| usize::from(headings[index].level).min(LEVELS - 1);
        // Each heading's parent: the last heading before it of a higher level.
        let mut last_at: [Option<usize>; LEVELS] = [None; LEVELS];
        let mut parents: Vec<Option<usize>> = Vec::with_capacity(headings.len());
        for index in 0..headings.len() {
            parents.push(last_at[..level(index)].iter().flatten().max().copied());
            last_at[level(index)] = Some(index);
        }
        // Each heading's next heading of its level or above.
        let mut next_at: [Option<usize>; LEVELS] = [None; LEVELS];
        let mut next: Vec<Option<usize>> = vec![None; headings.len()];
        for index in (0..headings.len()).rev() {
            next[index] = next_at[..=level(index)].iter().flatten().min().copied();
            next_at[level(index)] = Some(index);
        }
        // The runs: consecutive headings of one level, one parent, numbered or not.
        let mut runs: Vec<Vec<usize>> = Vec::new();
        let mut current: [Option<(Option<usize>, bool, usize)>; LEVELS] = [None; LEVELS];
        for index in 0..headings.len() {
            let at = level(index);
            // A heading ends the runs below its level.
            for slot in current.iter_mut().skip(at + 1) {
                *slot = None;
            }
            let key = (parents[index], headings[index].number.is_some());
            match current[at] {
                Some((parent, numbered, run)) if (parent, numbered) == key => runs[run].push(index),
                _ => {
                    current[at] = Some((key.0, key.1, runs.len()));
                    runs.push(vec![index]);
                }
            }
        }
        let text_end = self.text.len();
        for run in runs {
            let first = &headings[run[0]];
            if run.len() < 2 && first.number.is_none() {
                continue;
            }
            let parent = parents[run[0]]
                .map(|p| bounded(&self.text[headings[p].range.clone()]).to_string())
                .unwrap_or_default();
            let before = self.text[..first.range.start].trim_end();
            let lead_in = bounded(before.rsplit('\n').next().unwrap_or_default());
            let context = stance::list_context(&format!("{parent}\n{lead_in}"), question);
            let list = self.next_list;
            self.next_list += 1;
            for (k, &index) in run.iter().enumerate() {
                let heading = &headings[index];
                let start = heading.range.start;
                let next_heading = next[index].map_or(text_end, |n| headings[n].range.start);
                let after = self.rules.partition_point(|&r| r <= heading.range.end);
                let next_rule = self.rules.get(after).copied().unwrap_or(text_end);
                let end = self.text[..next_heading.min(next_rule).min(text_end)]
                    .trim_end()
                    .len();
                self.done.push(Item {
                    kind: ItemKind::Section,
                    list,
                    rank: heading.number.unwrap_or(k + 1),
                    subject: strip_number(&self.text, heading.range.clone()),
                    span: start..end.max(heading.range.end),
                    context,
                });
            }
        }
    }
}

/// The last [`CONTEXT_BYTES`] of `text`, cut on a character boundary.
pub(super) fn bounded(text: &str) -> &str {
    let mut from = text.len().saturating_sub(CONTEXT_BYTES);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    &text[from..]
}
