//! Responses made ready to show, once, when they land: the prepared answer, the search page,
//! the text bodies that re-wrap per width, and the comparison's summary. Both the app and
//! the CLI show them, so they live here rather than in either. Pure: no I/O, no terminal.

pub mod answer;
pub mod compare;
pub mod page;
pub mod search_page;
pub mod text;
pub mod usage;
