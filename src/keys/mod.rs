//! The keymap: the built-in table of bindings, the bindings in effect, and `keys.toml` that
//! moves them. Pure data and checks, shared by the app (which looks keys up and shows them)
//! and the CLI (`vantage keys`, `vantage schema keys`).

pub mod file;
pub mod keymap;
