//! Pure analysis of pages the service returns: no I/O, no state, input in and values out.
//!
//! [`overview`] reads a search results page (the live service's or the simulator's, which
//! share the markup) for its AI overview and its related questions.

pub mod overview;
