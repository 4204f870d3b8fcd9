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

/// The app's name at the left of the tab row, when the row has room for it.
pub(crate) const APP_NAME: &str = " vantage ";

/// How the tab row is laid out at a width: the app's name and a space between labels while
/// they fit, else the labels alone, else the labels side by side (their own padding parts them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TabRow {
    pub show_name: bool,
    pub gap: u16,
}

impl TabRow {
    pub(crate) fn for_width(width: u16) -> TabRow {
        let labels: u16 = Tab::ALL
            .iter()
            .enumerate()
            .map(|(i, tab)| tab_label(i, *tab).width() as u16)
            .sum();
        let gaps = Tab::ALL.len() as u16 - 1;
        let name = APP_NAME.width() as u16 + 1;
        if name + labels + gaps < width {
            TabRow {
                show_name: true,
                gap: 1,
            }
        } else if labels + gaps < width {
            TabRow {
                show_name: false,
                gap: 1,
            }
        } else {
            TabRow {
                show_name: false,
                gap: 0,
            }
        }
    }

    /// Each tab with its label and first column, left to right.
    pub(crate) fn labels(self, row: Rect) -> impl Iterator<Item = (Tab, String, u16)> {
        let mut left = row.x
            + if self.show_name {
                APP_NAME.width() as u16 + 1
            } else {
                0
            };
        Tab::ALL.iter().enumerate().map(move |(i, tab)| {
            let label = tab_label(i, *tab);
            let start = left;
            left = left.saturating_add(label.width() as u16 + self.gap);
            (*tab, label, start)
        })
    }
}

/// The tab under column `x` of the tab row.
pub(crate) fn tab_at(tabs: Rect, x: u16) -> Option<Tab> {
    TabRow::for_width(tabs.width)
        .labels(tabs)
        .find(|(_, label, start)| (*start..start + label.width() as u16).contains(&x))
        .map(|(tab, _, _)| tab)
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

/// The settings cell under a click in a row drawn in `area`.
pub(crate) fn cell_at(area: Rect, cells: &[Cell], at: ratatui::layout::Position) -> Option<usize> {
    flow(area.width, &cell_widths(cells), 1)
        .iter()
        .position(|c| Rect::new(area.x + c.x, area.y + c.y, c.width, 1).contains(at))
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

/// How many rows a sentence takes wrapped at words (as `ui::fit` wraps it) in `width`.
pub(crate) fn word_wrapped_rows(text: &str, width: u16) -> usize {
    let width = usize::from(width.max(1));
    let (mut rows, mut used) = (1, 0);
    for word in text.split_whitespace() {
        let w = word.width();
        if used > 0 && used + 1 + w > width {
            rows += 1 + (w.saturating_sub(1) / width);
            used = w % width;
        } else {
            used += usize::from(used > 0) + w;
        }
    }
    rows
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
        let wide = Rect::new(0, 0, 140, 1);
        let name = APP_NAME.width() as u16 + 1;
        assert_eq!(tab_at(wide, name), Some(Tab::Chat));
        assert_eq!(tab_at(wide, 0), None);
        let last = *Tab::ALL.last().unwrap();
        let (_, label, start) = TabRow::for_width(140).labels(wide).last().unwrap();
        assert_eq!(tab_at(wide, start + label.width() as u16 - 1), Some(last));
    }

    #[test]
    fn a_narrow_row_drops_the_name_then_the_gaps_and_every_tab_still_fits() {
        for width in [60u16, 74, 80, 90, 140] {
            let row = Rect::new(0, 0, width, 1);
            let layout = TabRow::for_width(width);
            let (_, label, start) = layout.labels(row).last().unwrap();
            let end = start + label.width() as u16;
            if width >= 80 {
                assert!(end < width, "{width}: the last tab ends at {end}");
            }
            assert_eq!(
                tab_at(row, start),
                Some(*Tab::ALL.last().unwrap()),
                "{width}"
            );
        }
        assert!(!TabRow::for_width(80).show_name);
        assert!(TabRow::for_width(140).show_name);
    }
}
