//! A list with a fuzzy filter and a selection, shared by the Jobs and History tabs: the
//! items live with their tab; this keeps which of them show, in what order, and which one is
//! selected.

use crossterm::event::KeyEvent;

use crate::fuzzy::FuzzyMatcher;

use super::keymap::Action;

/// What a key did to a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListKey {
    Handled,
    /// The filter was dropped: the tab ranks its items again.
    FilterDropped,
    /// Not a list key: the tab handles it.
    NotMine,
}

#[derive(Clone, Debug, Default)]
pub struct FilteredList {
    pub filter: String,
    /// The filter's cursor and undo.
    pub edit: super::input::EditState,
    /// True while the filter is being typed.
    pub filtering: bool,
    /// Indices of the items that match, in the order shown.
    pub shown: Vec<usize>,
    /// Per item (by index), the char positions the filter matched in its haystack, for
    /// highlighting; empty without a filter.
    pub matched: std::collections::HashMap<usize, Vec<u32>>,
    /// Index into `shown`.
    pub selected: usize,
    /// How many items there are in all.
    pub total: usize,
}

impl FilteredList {
    /// "3 of 10" while a filter narrows the list, so a title says the list is not whole.
    pub fn count_label(&self, noun: &str) -> String {
        if self.filter.is_empty() {
            format!("{} {noun}", self.total)
        } else {
            format!("{} of {} {noun}", self.shown.len(), self.total)
        }
    }

    /// Where the filter matched within the first `len` chars of item `index`'s haystack.
    pub fn matched_in(&self, index: usize, len: usize) -> Vec<u32> {
        self.matched
            .get(&index)
            .map(|p| p.iter().copied().filter(|p| (*p as usize) < len).collect())
            .unwrap_or_default()
    }
}

impl FilteredList {
    /// Ranks the items against the filter again (after the items or the filter changed).
    /// With no filter the items keep their order. The selection stays on the same item
    /// when it still shows.
    pub fn refresh<'a>(
        &mut self,
        haystacks: impl IntoIterator<Item = &'a str>,
        matcher: &mut FuzzyMatcher,
    ) {
        let before = self.selected_index();
        let ranked = matcher.rank(&self.filter, haystacks);
        self.shown = ranked.iter().map(|r| r.index).collect();
        self.matched = ranked
            .into_iter()
            .filter(|r| !r.positions.is_empty())
            .map(|r| (r.index, r.positions))
            .collect();
        self.total = self.total.max(self.shown.len());
        if let Some(before) = before
            && let Some(at) = self.shown.iter().position(|i| *i == before)
        {
            self.selected = at;
        }
        self.clamp();
    }

    /// Sets how many items there are (the filter's "n of total").
    pub fn set_total(&mut self, total: usize) {
        self.total = total;
    }

    /// The item under the selection.
    pub fn selected_index(&self) -> Option<usize> {
        self.shown.get(self.selected).copied()
    }

    pub fn move_by(&mut self, delta: isize) {
        if self.shown.is_empty() {
            self.selected = 0;
            return;
        }
        let last = self.shown.len() as isize - 1;
        self.selected = (self.selected as isize)
            .saturating_add(delta)
            .clamp(0, last) as usize;
    }

    fn clamp(&mut self) {
        self.selected = self.selected.min(self.shown.len().saturating_sub(1));
    }

    /// Types into the filter; true when the key changed it (the caller then refreshes).
    pub fn edit(&mut self, key: KeyEvent) -> bool {
        let changed = super::input::edit_line(&mut self.filter, &mut self.edit, key);
        if changed {
            self.selected = 0;
        }
        changed
    }

    /// The keys every list answers the same way: moving, paging, the filter.
    pub fn on_action(&mut self, action: Action) -> ListKey {
        match action {
            Action::Up => self.move_by(-1),
            Action::Down => self.move_by(1),
            Action::PageUp => self.move_by(-10),
            Action::PageDown => self.move_by(10),
            Action::Top => self.move_by(isize::MIN / 2),
            Action::Bottom => self.move_by(isize::MAX / 2),
            Action::Filter => self.filtering = true,
            Action::Send => {
                self.stop_filtering(true);
            }
            Action::Back => {
                return if self.stop_filtering(false) {
                    ListKey::FilterDropped
                } else {
                    ListKey::Handled
                };
            }
            _ => return ListKey::NotMine,
        }
        ListKey::Handled
    }

    /// Leaves the filter; `keep` false drops what was typed. True when the filter changed.
    pub fn stop_filtering(&mut self, keep: bool) -> bool {
        self.filtering = false;
        if keep || self.filter.is_empty() {
            return false;
        }
        self.filter.clear();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selection_follows_its_item_through_a_refresh() {
        let mut matcher = FuzzyMatcher::new();
        let mut list = FilteredList::default();
        let items = ["alpha", "beta", "gamma"];
        list.refresh(items, &mut matcher);
        list.move_by(2);
        assert_eq!(list.selected_index(), Some(2));
        list.filter = "gam".into();
        list.refresh(items, &mut matcher);
        assert_eq!(list.shown, vec![2]);
        assert_eq!(list.selected_index(), Some(2));
        list.filter = "zzz".into();
        list.refresh(items, &mut matcher);
        assert_eq!(list.selected_index(), None);
    }
}
