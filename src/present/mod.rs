//! Responses made ready to show, once, when they land: the prepared answer, the search page,
//! the text bodies that re-wrap per width, and the comparison's summary. Both the app and
//! the CLI show them, so they live here rather than in either. Pure: no I/O, no terminal.

pub mod answer;
pub mod compare;
pub mod discover;
pub mod fanouts;
pub mod html_page;
pub mod page;
pub mod prompts;
pub mod reading;
pub mod search_page;
pub mod text;
pub mod usage;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when a response being prepared is no longer wanted (the user cancelled it or asked
/// again): a preparation looks between its steps and skips the rest, so a page the user has
/// left does not keep a core busy. What it made by then is dropped.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
