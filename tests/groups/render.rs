//! HTML to text: fixtures, properties, snapshots; and the files written for sharing. One test
//! binary for these files, so CI links fewer.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Each file loads the shared helpers itself, as it would alone.
#![allow(clippy::duplicate_mod)]

#[path = "../render_dump.rs"]
mod render_dump;
#[path = "../render_fixtures.rs"]
mod render_fixtures;
#[path = "../render_props.rs"]
mod render_props;
#[path = "../render_snapshots.rs"]
mod render_snapshots;
#[path = "../report_layout.rs"]
mod report_layout;
#[path = "../shared_files.rs"]
mod shared_files;
#[path = "../source_cards.rs"]
mod source_cards;
