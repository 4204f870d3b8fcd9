//! A results page on screen: the view, the selection and the filter over it.

use std::collections::HashMap;

use crate::fuzzy::FuzzyMatcher;

use crate::present::search_page::{EntryKind, PreparedSearch, SearchView};

/// Results per page when neither the service nor the request says (the service's default).
const DEFAULT_PAGE_SIZE: u32 = 10;

/// nucleo gives 16 a matched letter before bonuses and gap penalties.
const FILTER_SCORE_PER_LETTER: u32 = 16;

/// A page of results on screen: the view, the selection, the filter.
#[derive(Debug)]
pub struct PageState {
    pub prepared: Box<PreparedSearch>,
    pub view: SearchView,
    /// Indices into `prepared.entries` that the filter lets through, in order.
    pub visible: Vec<usize>,
    /// The first screen row of each visible entry, and the total after the last.
    pub offsets: Vec<u32>,
    /// The selected position in `visible`.
    pub selected: usize,
    /// The first row shown.
    pub scroll: usize,
    pub filter: String,
    pub filter_edit: crate::app::input::EditState,
    pub filtering: bool,
    /// Scroll of the text views, and selection of the Links view.
    pub text_scroll: HashMap<SearchView, usize>,
    pub link_selected: usize,
    /// How far the detail pane is scrolled; back to the top when the selection moves.
    pub detail_scroll: usize,
    /// The AI overview pane above the results.
    pub overview: super::overview::OverviewState,
}

impl PageState {
    pub fn new(prepared: Box<PreparedSearch>) -> PageState {
        let view = prepared.views[0];
        let overview = super::overview::OverviewState::for_page(&prepared);
        let mut state = PageState {
            overview,
            visible: Vec::new(),
            offsets: Vec::new(),
            prepared,
            view,
            selected: 0,
            scroll: 0,
            filter: String::new(),
            filter_edit: Default::default(),
            filtering: false,
            text_scroll: HashMap::new(),
            link_selected: 0,
            detail_scroll: 0,
        };
        state.apply_filter(&mut FuzzyMatcher::new());
        state
    }

    /// Recomputes which entries show: results matching the filter, with their sitelinks and
    /// images, and the headers of the groups they are in.
    pub fn apply_filter(&mut self, matcher: &mut FuzzyMatcher) {
        let prepared = &self.prepared;
        let matched: Option<Vec<bool>> = (!self.filter.trim().is_empty()).then(|| {
            let mut hits = vec![false; prepared.results.len()];
            // Long snippets hold almost any letters somewhere; a match must score about as
            // well as the query's letters appearing close together to count.
            let letters = self.filter.chars().filter(|c| !c.is_whitespace()).count() as u32;
            let min_score = FILTER_SCORE_PER_LETTER * letters;
            let haystacks = prepared.haystacks.iter().map(String::as_str);
            for ranked in matcher.rank(&self.filter, haystacks) {
                if ranked.score >= min_score {
                    hits[ranked.index] = true;
                }
            }
            hits
        });
        let keep_result = |r: usize| matched.as_ref().is_none_or(|m| m[r]);
        let mut visible = Vec::with_capacity(prepared.entries.len());
        let mut pending_headers: Vec<usize> = Vec::new();
        for (i, entry) in prepared.entries.iter().enumerate() {
            match entry.kind {
                EntryKind::Page(_) => {
                    pending_headers.clear();
                    pending_headers.push(i);
                }
                EntryKind::Section(_) => {
                    pending_headers
                        .retain(|h| matches!(prepared.entries[*h].kind, EntryKind::Page(_)));
                    pending_headers.push(i);
                }
                _ => {
                    if entry.result().is_some_and(keep_result) {
                        visible.append(&mut pending_headers);
                        visible.push(i);
                    }
                }
            }
        }
        let mut offsets = Vec::with_capacity(visible.len() + 1);
        let mut row = 0u32;
        for &i in &visible {
            offsets.push(row);
            row += u32::from(prepared.entries[i].height);
        }
        offsets.push(row);
        self.visible = visible;
        self.offsets = offsets;
        self.selected = self.first_selectable_from(0, 1).unwrap_or(0);
        self.scroll = 0;
    }

    /// How many results the filter lets through, of how many.
    pub fn shown_of_total(&self) -> (usize, usize) {
        let shown = self
            .visible
            .iter()
            .filter(|i| matches!(self.prepared.entries[**i].kind, EntryKind::Result(_)))
            .count();
        (shown, self.prepared.results.len())
    }

    pub fn total_rows(&self) -> usize {
        self.offsets.last().copied().unwrap_or(0) as usize
    }

    fn first_selectable_from(&self, start: usize, step: isize) -> Option<usize> {
        let mut i = start as isize;
        while i >= 0 && (i as usize) < self.visible.len() {
            if self.prepared.entries[self.visible[i as usize]].selectable() {
                return Some(i as usize);
            }
            i += step;
        }
        None
    }

    /// The entry under the selection.
    pub fn selected_entry(&self) -> Option<&crate::present::search_page::Entry> {
        self.visible
            .get(self.selected)
            .map(|i| &self.prepared.entries[*i])
    }

    /// Moves the selection by `steps` selectable entries.
    pub fn move_selection(&mut self, steps: isize, height: usize) {
        let step = steps.signum();
        let mut at = self.selected;
        for _ in 0..steps.unsigned_abs() {
            let next = at as isize + step;
            if next < 0 {
                break;
            }
            match self.first_selectable_from(next as usize, step) {
                Some(found) => at = found,
                None => break,
            }
        }
        self.selected = at;
        self.keep_selection_in_view(height);
    }

    /// Jumps to the first result of the next (or previous) page group; false when there is
    /// no such group loaded.
    pub fn jump_page(&mut self, forward: bool, height: usize) -> bool {
        let current_page = self.selected_entry().map(|e| e.page);
        let found = if forward {
            (self.selected + 1..self.visible.len()).find(|&i| {
                let e = &self.prepared.entries[self.visible[i]];
                Some(e.page) != current_page && e.selectable()
            })
        } else {
            // The first selectable entry of the page before the current one.
            let before = (0..self.selected).rev().find(|&i| {
                let e = &self.prepared.entries[self.visible[i]];
                Some(e.page) != current_page && e.selectable()
            });
            before.map(|b| {
                let page = self.prepared.entries[self.visible[b]].page;
                (0..=b)
                    .find(|&i| {
                        let e = &self.prepared.entries[self.visible[i]];
                        e.page == page && e.selectable()
                    })
                    .unwrap_or(b)
            })
        };
        if let Some(i) = found {
            self.selected = i;
            // Show the page's header above the result.
            let header_row = self.offsets[i].saturating_sub(2) as usize;
            self.scroll = header_row;
            self.keep_selection_in_view(height);
        }
        found.is_some()
    }

    /// The request for the results after the loaded pages: the same search, offset past
    /// them. None when the service's offset limit is reached.
    pub fn next_pages_request(&self) -> Option<crate::api::SearchRequest> {
        let request = &self.prepared.request;
        let header = &self.prepared.header;
        let pages = header.page_count.or(request.serps).unwrap_or(1).max(1);
        let size = header
            .page_size
            .or(request.size)
            .unwrap_or(DEFAULT_PAGE_SIZE);
        let offset = request.offset.unwrap_or(0) + pages * size;
        if !crate::api::request::OFFSET_RANGE.contains(&offset) || size == 0 {
            return None;
        }
        let mut next = request.clone();
        next.offset = Some(offset);
        Some(next)
    }

    /// Scrolls the least needed so the selected entry is on screen.
    pub fn keep_selection_in_view(&mut self, height: usize) {
        let Some(&top) = self.offsets.get(self.selected) else {
            return;
        };
        let top = top as usize;
        let bottom = self.offsets.get(self.selected + 1).copied().unwrap_or(0) as usize;
        if top < self.scroll {
            self.scroll = top;
        } else if bottom > self.scroll + height {
            self.scroll = bottom.saturating_sub(height);
        }
    }

    /// The URL of the selection: a sitelink's, else its result's.
    pub fn selected_url(&self) -> Option<String> {
        if self.view == SearchView::Links {
            return self
                .prepared
                .html
                .as_ref()
                .and_then(|h| h.links.get(self.link_selected))
                .map(|l| l.url.clone());
        }
        let entry = self.selected_entry()?;
        let url = match entry.kind {
            EntryKind::Sitelink { result, link } => {
                self.prepared.results[result].sitelinks[link].url.clone()
            }
            EntryKind::Result(r) => self.prepared.results[r].target_url().to_string(),
            _ => return None,
        };
        (!url.is_empty()).then_some(url)
    }
}

/// The text body behind a text view of a search answer.
pub fn text_of(
    prepared: &PreparedSearch,
    view: SearchView,
) -> Option<&crate::present::text::TextBody> {
    match view {
        SearchView::Page => prepared.html.as_ref().map(|h| &h.text),
        SearchView::Html => prepared.html.as_ref().map(|h| &h.raw),
        SearchView::Json => prepared.json.as_ref(),
        SearchView::Results | SearchView::Links => None,
    }
}
