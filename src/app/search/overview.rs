//! The AI overview pane above the results: folded or open, scrolled, and the related question
//! picked (Enter searches it).

use crate::analysis::overview::{RelatedQuestion, Source};
use crate::present::search_page::{OverviewPane, PreparedSearch};

/// The pane's state for one results page.
#[derive(Debug, Default)]
pub struct OverviewState {
    pub open: bool,
    /// The first line shown of the pane's text.
    pub scroll: usize,
    /// The source or related question picked, when the pane has the focus.
    pub picked: usize,
}

impl OverviewState {
    /// Open when there is something to read; folded to its one line otherwise.
    pub fn for_page(prepared: &PreparedSearch) -> OverviewState {
        OverviewState {
            open: matches!(prepared.overview, OverviewPane::Found { .. })
                || !prepared.related_questions.is_empty(),
            scroll: 0,
            picked: 0,
        }
    }

    pub fn move_pick(&mut self, delta: isize, count: usize) {
        if count == 0 {
            return;
        }
        self.picked = (self.picked as isize + delta).clamp(0, count as isize - 1) as usize;
    }

    pub fn scroll_by(&mut self, delta: isize, lines: usize) {
        let max = lines.saturating_sub(1) as isize;
        self.scroll = (self.scroll as isize + delta).clamp(0, max.max(0)) as usize;
    }
}

/// The folded pane's one line: what is inside, or why there is no overview.
pub fn summary(prepared: &PreparedSearch) -> String {
    let questions = match prepared.related_questions.len() {
        0 => String::new(),
        1 => " · 1 related question".to_string(),
        n => format!(" · {n} related questions"),
    };
    match &prepared.overview {
        OverviewPane::Found { overview, .. } => {
            let sources = match overview.sources.len() {
                1 => "1 source".to_string(),
                n => format!("{n} sources"),
            };
            format!("AI overview · {sources}{questions}")
        }
        other => format!("{}{questions}", other.reason().unwrap_or_default()),
    }
}

/// What the arrows pick in the open pane: a cited source (Enter or o opens it), then a
/// related question (Enter searches it).
pub enum Picked<'a> {
    Source(&'a Source),
    Question(&'a RelatedQuestion),
}

fn sources(prepared: &PreparedSearch) -> &[Source] {
    match &prepared.overview {
        OverviewPane::Found { overview, .. } => &overview.sources,
        _ => &[],
    }
}

/// How many things the arrows can pick.
pub fn pickable(prepared: &PreparedSearch) -> usize {
    sources(prepared).len() + prepared.related_questions.len()
}

pub fn picked<'a>(prepared: &'a PreparedSearch, state: &OverviewState) -> Option<Picked<'a>> {
    let sources = sources(prepared);
    match sources.get(state.picked) {
        Some(source) => Some(Picked::Source(source)),
        None => prepared
            .related_questions
            .get(state.picked - sources.len())
            .map(Picked::Question),
    }
}

/// Lines of the text part of the open pane: the overview, or the line saying why not.
fn text_lines(prepared: &PreparedSearch, width: u16) -> usize {
    match &prepared.overview {
        OverviewPane::Found { text, .. } => text.lines(width).len(),
        _ => 1,
    }
}

/// Lines of the open pane at this width: the text; a blank line, a heading and a line per
/// source; the same for the related questions (its view draws them so).
pub fn line_count(prepared: &PreparedSearch, width: u16) -> usize {
    let block = |n: usize| if n == 0 { 0 } else { 2 + n };
    text_lines(prepared, width)
        + block(sources(prepared).len())
        + block(prepared.related_questions.len())
}

/// The line the picked item is on, to keep it on screen.
pub fn picked_line(prepared: &PreparedSearch, state: &OverviewState, width: u16) -> usize {
    let text = text_lines(prepared, width);
    let sources = sources(prepared).len();
    if state.picked < sources {
        text + 2 + state.picked
    } else {
        let after_sources = text + if sources == 0 { 0 } else { 2 + sources };
        after_sources + 2 + (state.picked - sources)
    }
}
