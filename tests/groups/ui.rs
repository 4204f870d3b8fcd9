//! Views on TestBackend: insta snapshots of every tab. One test binary for these files, so CI links fewer.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Each file loads the shared helpers itself, as it would alone.
#![allow(clippy::duplicate_mod)]

#[path = "../docs_captures.rs"]
mod docs_captures;
#[path = "../readme_picture.rs"]
mod readme_picture;
#[path = "../ui_chat.rs"]
mod ui_chat;
#[path = "../ui_compare.rs"]
mod ui_compare;
#[path = "../ui_compare_grid.rs"]
mod ui_compare_grid;
#[path = "../ui_jobs.rs"]
mod ui_jobs;
#[path = "../ui_keys.rs"]
mod ui_keys;
#[path = "../ui_lists.rs"]
mod ui_lists;
#[path = "../ui_narrow.rs"]
mod ui_narrow;
#[path = "../ui_own_alerts.rs"]
mod ui_own_alerts;
#[path = "../ui_page.rs"]
mod ui_page;
#[path = "../ui_proxy.rs"]
mod ui_proxy;
#[path = "../ui_search.rs"]
mod ui_search;
#[path = "../ui_track.rs"]
mod ui_track;
#[path = "../ui_track_answers.rs"]
mod ui_track_answers;
#[path = "../ui_track_chart.rs"]
mod ui_track_chart;
#[path = "../ui_track_series.rs"]
mod ui_track_series;
#[path = "../ui_user_files.rs"]
mod ui_user_files;
