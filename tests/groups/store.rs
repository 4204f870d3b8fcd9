//! The SQLite store: history, jobs, damage, crashes. One test binary for these files, so CI links fewer.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Each file loads the shared helpers itself, as it would alone.
#![allow(clippy::duplicate_mod)]

#[path = "../history_all.rs"]
mod history_all;
#[path = "../jobs_crash.rs"]
mod jobs_crash;
#[path = "../other_process.rs"]
mod other_process;
#[path = "../settings_restart.rs"]
mod settings_restart;
#[path = "../store_calls_out.rs"]
mod store_calls_out;
#[path = "../store_damage.rs"]
mod store_damage;
#[path = "../store_db.rs"]
mod store_db;
#[path = "../store_health_app.rs"]
mod store_health_app;
#[path = "../store_opening.rs"]
mod store_opening;
#[path = "../store_recover.rs"]
mod store_recover;
#[path = "../store_search.rs"]
mod store_search;
#[path = "../track_readings.rs"]
mod track_readings;
#[path = "../track_travel.rs"]
mod track_travel;
