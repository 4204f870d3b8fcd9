//! The command line, run as a user would. One test binary for these files, so CI links fewer.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Each file loads the shared helpers itself, as it would alone.
#![allow(clippy::duplicate_mod)]

#[path = "../ai_reading_cli.rs"]
mod ai_reading_cli;
#[path = "../cli.rs"]
mod cli;
#[path = "../cli_manual.rs"]
mod cli_manual;
#[path = "../cli_schemas.rs"]
mod cli_schemas;
#[path = "../compare_cli.rs"]
mod compare_cli;
#[path = "../compare_grid.rs"]
mod compare_grid;
#[path = "../demo_apart.rs"]
mod demo_apart;
#[path = "../demo_together.rs"]
mod demo_together;
#[path = "../devices_checked.rs"]
mod devices_checked;
#[path = "../discover_cli.rs"]
mod discover_cli;
#[path = "../docs_reference.rs"]
mod docs_reference;
#[path = "../exit_codes.rs"]
mod exit_codes;
#[path = "../fanouts_cli.rs"]
mod fanouts_cli;
#[path = "../hardening.rs"]
mod hardening;
#[path = "../heavy_pages.rs"]
mod heavy_pages;
#[path = "../history_cli.rs"]
mod history_cli;
#[path = "../hostile_answers.rs"]
mod hostile_answers;
#[path = "../hostile_commands.rs"]
mod hostile_commands;
#[path = "../hostile_imports.rs"]
mod hostile_imports;
#[path = "../hostile_output.rs"]
mod hostile_output;
#[path = "../hostile_reading.rs"]
mod hostile_reading;
#[path = "../jobs_cli.rs"]
mod jobs_cli;
#[path = "../jobs_resubmit_cli.rs"]
mod jobs_resubmit_cli;
#[path = "../live_names_cli.rs"]
mod live_names_cli;
#[path = "../mentions_cli.rs"]
mod mentions_cli;
#[path = "../network_edges.rs"]
mod network_edges;
#[path = "../page_usage.rs"]
mod page_usage;
#[path = "../places_cli.rs"]
mod places_cli;
#[path = "../planted_files.rs"]
mod planted_files;
#[path = "../prices.rs"]
mod prices;
#[path = "../proxy_cli.rs"]
mod proxy_cli;
#[path = "../refused_input_cli.rs"]
mod refused_input_cli;
#[path = "../samples_auto.rs"]
mod samples_auto;
#[path = "../secrets_kept.rs"]
mod secrets_kept;
#[path = "../stance_cli.rs"]
mod stance_cli;
#[path = "../track_answers_cli.rs"]
mod track_answers_cli;
#[path = "../track_changes.rs"]
mod track_changes;
#[path = "../track_like_with_like.rs"]
mod track_like_with_like;
#[path = "../track_truth.rs"]
mod track_truth;
#[path = "../workspace_paths.rs"]
mod workspace_paths;
