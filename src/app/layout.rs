//! Where things are on screen. The views draw into these areas and `update` hit-tests mouse
//! clicks against the same ones, so the two never disagree.

use ratatui::layout::{Constraint, Layout, Rect};
use unicode_width::UnicodeWidthStr;

use super::Tab;

pub struct FrameAreas {
    pub tabs: Rect,
    /// A warning across the top (no token, no credits), when there is one.
    pub banner: Rect,
    pub body: Rect,
    pub status: Rect,
}

/// The whole screen: tabs on top, an optional banner, the tab's body, the status bar (two
/// lines when a long message needs them).
pub(crate) fn frame_with_banner(area: Rect, banner_lines: u16, status_lines: u16) -> FrameAreas {
    let [tabs, banner, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(banner_lines),
        Constraint::Min(0),
        Constraint::Length(status_lines),
    ])
    .areas(area);
    FrameAreas {
        tabs,
        banner,
        body,
        status,
    }
}

/// The label each tab shows: its number and name.
pub(crate) fn tab_label(index: usize, tab: Tab) -> String {
    format!(" {} {} ", index + 1, tab.title())
}

/// The first column of the tab labels (after the app's name).
pub(crate) const TABS_START: u16 = 9;

/// Where the tab labels start on a row this wide: after the app's name, or at the left edge
/// when the name and every label would not fit (80 columns with seven tabs).
pub(crate) fn tabs_start(width: u16) -> u16 {
    let labels: usize = Tab::ALL
        .iter()
        .enumerate()
        .map(|(i, tab)| tab_label(i, *tab).width() + 1)
        .sum();
    if usize::from(TABS_START) + 1 + labels <= usize::from(width) + 1 {
        TABS_START
    } else {
        0
    }
}

/// The tab under column `x` of the tab row.
pub(crate) fn tab_at(tabs: Rect, x: u16) -> Option<Tab> {
    let mut left = tabs.x + tabs_start(tabs.width);
    for (i, tab) in Tab::ALL.iter().enumerate() {
        let width = tab_label(i, *tab).width() as u16;
        if (left..left + width).contains(&x) {
            return Some(*tab);
        }
        left += width + 1;
    }
    None
}

/// A tab's body shorter than this is compact: settings rows and setup boxes fold to one line
/// while the results or answers have the focus, so those get most rows (80×24 has 22).
pub(crate) const COMPACT_BELOW: u16 = 30;

pub(crate) struct ChatAreas {
    pub prompt: Rect,
    pub settings: Rect,
    pub answer: Rect,
}

/// The prompt grows with its text, from 1 to 6 lines inside its border.
pub(crate) fn chat(body: Rect, prompt_lines: usize, settings_rows: u16) -> ChatAreas {
    let prompt_height = (prompt_lines.clamp(1, 6) as u16) + 2;
    let [prompt, settings, answer] = Layout::vertical([
        Constraint::Length(prompt_height),
        Constraint::Length(settings_rows),
        Constraint::Min(3),
    ])
    .areas(body);
    ChatAreas {
        prompt,
        settings,
        answer,
    }
}

/// Lays cells of the given widths left to right, wrapping to new rows; a cell wider than
/// the row is cut to it. Returns each cell's area relative to (0, 0).
pub(crate) fn flow(width: u16, widths: &[u16], gap: u16) -> Vec<Rect> {
    let mut out = Vec::with_capacity(widths.len());
    let (mut x, mut y) = (0u16, 0u16);
    for &w in widths {
        let w = w.min(width.max(1));
        if x > 0 && x + w > width {
            x = 0;
            y += 1;
        }
        out.push(Rect::new(x, y, w, 1));
        x = x.saturating_add(w + gap);
    }
    out
}

/// One setting of a form's settings row: a label and its value as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub label: &'static str,
    pub value: String,
}

impl Cell {
    /// " label value " with a space of padding on each side.
    pub fn width(&self) -> u16 {
        (self.label.width() + self.value.width() + 3) as u16
    }
}

/// The widths of a settings row's cells, for `flow`.
pub(crate) fn cell_widths(cells: &[Cell]) -> Vec<u16> {
    cells.iter().map(Cell::width).collect()
}

/// How many rows `flow` needs.
pub(crate) fn flow_rows(width: u16, widths: &[u16], gap: u16) -> u16 {
    flow(width, widths, gap).last().map_or(1, |last| last.y + 1)
}

/// How many rows lines of text take when wrapped at `width` (a close estimate: one more
/// column per line for the cursor at its end).
pub(crate) fn wrapped_rows<S: AsRef<str>>(lines: &[S], width: u16) -> usize {
    let width = usize::from(width.max(1));
    lines
        .iter()
        .map(|l| (l.as_ref().width() + 1).div_ceil(width).max(1))
        .sum()
}

/// A centred popup of at most `width` × `height`, inside `area`.
pub(crate) fn popup(area: Rect, width: u16, height: u16) -> Rect {
    let w = width
        .min(area.width.saturating_sub(2))
        .max(10.min(area.width));
    let h = height
        .min(area.height.saturating_sub(2))
        .max(3.min(area.height));
    Rect::new(
        area.x + (area.width.saturating_sub(w)) / 2,
        area.y + (area.height.saturating_sub(h)) / 2,
        w,
        h,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_flow_onto_new_rows() {
        let cells = flow(20, &[8, 8, 8], 1);
        assert_eq!(cells[0], Rect::new(0, 0, 8, 1));
        assert_eq!(cells[1], Rect::new(9, 0, 8, 1));
        assert_eq!(cells[2], Rect::new(0, 1, 8, 1));
        assert_eq!(flow_rows(20, &[8, 8, 8], 1), 2);
    }

    #[test]
    fn tabs_are_hit_by_their_columns() {
        let tabs = Rect::new(0, 0, 100, 1);
        assert_eq!(tab_at(tabs, TABS_START), Some(Tab::Chat));
        assert_eq!(tab_at(tabs, 0), None);
        // At 80 columns the app's name gives way, so every tab fits.
        let narrow = Rect::new(0, 0, 80, 1);
        assert_eq!(tabs_start(80), 0);
        assert_eq!(tab_at(narrow, 0), Some(Tab::Chat));
        assert_eq!(tab_at(narrow, 70), Some(Tab::Track));
    }
}
