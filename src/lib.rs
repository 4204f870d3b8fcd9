//! vantage: explore what AI chatbots answer and what search engines rank, as seen from a
//! chosen model, device and location, and compare those vantage points side by side.
//!
//! One library with a thin binary. Rooms, and what may touch what: `api` (the service) and
//! `render` (HTML to text) know nothing of the others; `sim` serves the contract with its own
//! code; `app` holds state and returns effects, doing no I/O; `ui` draws from `app`'s state;
//! `tui` owns the terminal, the tasks and the channels; `cli` runs the scripting commands;
//! `store` keeps history and queued jobs in SQLite; `jobs` decides, without I/O, which
//! queued jobs to poll when; `present` makes responses ready to show for the app and the CLI;
//! `analysis` reads answers and pages (mentions, the AI Overview) as pure functions;
//! `discovery` keeps the names stored answers put forward and counts them;
//! `html_cost` is the one linear look that decides whether a page may be parsed at all.

pub mod analysis;
pub mod api;
pub mod app;
pub mod bounds;
pub mod cli;
pub mod config;
pub mod devices;
pub mod discovery;
pub mod exit;
pub mod fuzzy;
pub mod geo;
pub mod html_cost;
pub mod jobs;
pub mod keys;
pub mod markup;
pub mod measure;
pub mod plural;
pub mod present;
pub mod price;
pub mod render;
pub mod runtime;
pub mod safe_file;
pub mod sanitize;
pub mod shareable;
pub mod sim;
pub mod store;
pub mod theme;
pub mod track;
pub mod tui;
pub mod ui;
pub mod user_file;
