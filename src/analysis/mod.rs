//! Pure analysis of what the service returns: no I/O, no state, input in and values out.
//!
//! [`overview`] reads a search results page (the live service's or the simulator's, which
//! share the markup) for its AI overview and its related questions; [`mentions`] finds which
//! tracked brands an answer names, where and citing whom; [`stance`] reads what an answer says of a brand where it names it (recommended, listed,
//! cautioned, or that it found nothing); [`names`] tells which emphasised words of an answer
//! are names worth tracking;
//! [`sources`] tells the kind of each cited site (own, competitor, editorial,
//! user-generated, retailer, reference); [`workspace`] reads and edits the
//! workspace file that lists those brands; [`diff`] compares two answers word by word; [`samples`] reads
//! cells asked several times: counts with their intervals, and the test of a difference.

/// The version of the rules an answer is read by (its shape, mentions, stance, names,
/// sources). Readings kept in the store carry it; moving it has every one made again.
pub const READING_RULES: u32 = 1;

pub mod adaptive;
pub mod alerts;
pub mod diff;
pub mod mentions;
pub mod names;
pub mod outline;
pub mod overview;
pub mod products;
pub mod roll_up;
pub mod samples;
pub mod serp_pages;
pub mod significance;
pub mod sources;
pub mod stance;
pub mod workspace;
