//! Location tables and fuzzy matching. One test binary for these files, so CI links fewer.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Each file loads the shared helpers itself, as it would alone.
#![allow(clippy::duplicate_mod)]

#[path = "../geo_data.rs"]
mod geo_data;
#[path = "../geo_fuzzy.rs"]
mod geo_fuzzy;
