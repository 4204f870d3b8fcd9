//! vantage: explore what AI chatbots answer and what search engines rank, as seen from a
//! chosen model, device and location, and compare those vantage points side by side.
//!
//! The crate is one library with a thin binary. Rooms, and what may touch what, are laid out
//! in the README; in short: `api` (the service) and `render` (HTML to text) know nothing of
//! the others, `sim` serves the contract with its own code, `app` holds state and does no I/O,
//! `ui` draws from state, `tui` owns the terminal and the tasks.

pub mod api;
pub mod fuzzy;
pub mod geo;
pub mod render;
pub mod sim;
