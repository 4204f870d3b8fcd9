//! The History tab: every request sent from the app, newest first, read from the store off
//! the UI task. `Enter` re-opens the stored response in its viewer without a new call; `r`
//! loads the request back into its form.

use crate::app::StoreEffect;
use crate::store::{HistoryItem, RequestParams};

use super::chat::ChatFocus;
use super::keymap::{Action, Context};
use super::list::{FilteredList, ListKey};
use super::search::SearchFocus;
use super::{App, Confirm, Effect, Popup, Tab};

/// How many entries the tab reads (the store's cap bounds the rest).
pub(crate) const SHOWN_ENTRIES: usize = 2_000;

#[derive(Default)]
pub struct HistoryState {
    pub items: Vec<HistoryItem>,
    pub list: FilteredList,
    /// True once the first read answered.
    pub loaded: bool,
}

impl HistoryState {
    pub fn editing(&self) -> bool {
        self.list.filtering
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        vec![Context::History, Context::Viewer]
    }

    pub fn selected(&self) -> Option<&HistoryItem> {
        self.list.selected_index().and_then(|i| self.items.get(i))
    }

    pub fn refresh(&mut self, matcher: &mut crate::fuzzy::FuzzyMatcher) {
        let haystacks: Vec<String> = self
            .items
            .iter()
            // The summary first, so matched positions in it are its own (for highlighting).
            .map(|i| format!("{} {}", i.summary, i.kind))
            .collect();
        self.list.set_total(self.items.len());
        self.list
            .refresh(haystacks.iter().map(String::as_str), matcher);
    }
}

pub(crate) fn on_loaded(app: &mut App, result: Result<Vec<HistoryItem>, String>) {
    match result {
        Ok(items) => {
            app.history.items = items;
            app.history.loaded = true;
            app.history.refresh(&mut app.matcher);
        }
        Err(e) => app.flash_error(format!("The history could not be read: {e}")),
    }
}

/// A stored request to run again: it goes into its form, ready to edit.
pub(crate) fn on_rerun(app: &mut App, result: Result<RequestParams, String>) {
    match result {
        Ok(RequestParams::Ai(request)) => {
            app.chat.load_request(&request);
            app.chat.focus = ChatFocus::Prompt;
            app.tab = Tab::Chat;
            app.flash_info("The request is back in the form: edit it, then Enter sends it.");
        }
        Ok(RequestParams::Search(request)) => {
            app.search.load_request(&request);
            app.search.focus = SearchFocus::Terms;
            app.tab = Tab::Search;
            app.flash_info("The search is back in the form: edit it, then Enter sends it.");
        }
        Ok(other) => app.flash_info(format!(
            "A {} request is not re-run from here.",
            other.kind()
        )),
        Err(e) => app.flash_error(format!("The request could not be read back: {e}")),
    }
}

pub(crate) fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    match app.history.list.on_action(action) {
        ListKey::Handled => return Vec::new(),
        ListKey::FilterDropped => {
            app.history.refresh(&mut app.matcher);
            return Vec::new();
        }
        ListKey::NotMine => {}
    }
    match action {
        Action::Accept => {
            let Some(item) = app.history.selected() else {
                app.flash_info(
                    "The history is empty: what you send from Chat and Search shows here.",
                );
                return Vec::new();
            };
            if item.status.is_none() {
                app.flash_info(
                    "No response was stored for this request; r puts it back in its form.",
                );
                return Vec::new();
            }
            return vec![Effect::Store(StoreEffect::OpenHistory(item.id.clone()))];
        }
        Action::Rerun => {
            if let Some(item) = app.history.selected() {
                return vec![Effect::Store(StoreEffect::LoadRerun(item.id.clone()))];
            }
        }
        Action::Delete => {
            let Some(item) = app.history.selected() else {
                return Vec::new();
            };
            app.popup = Some(Popup::Confirm(Confirm::DeleteHistory {
                id: item.id.clone(),
                summary: item.summary.clone(),
            }));
        }
        _ => {}
    }
    Vec::new()
}

pub(crate) fn edit(app: &mut App, key: crossterm::event::KeyEvent) {
    if app.history.list.edit(key) {
        app.history.refresh(&mut app.matcher);
    }
}
