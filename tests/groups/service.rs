//! The client against the simulator over loopback, and the contract. One test binary for these files, so CI links fewer.

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// Each file loads the shared helpers itself, as it would alone.
#![allow(clippy::duplicate_mod)]

#[path = "../answer_shapes.rs"]
mod answer_shapes;
#[path = "../brand_suggestions.rs"]
mod brand_suggestions;
#[path = "../client_sim.rs"]
mod client_sim;
#[path = "../contract.rs"]
mod contract;
#[path = "../corpus.rs"]
mod corpus;
#[path = "../grouping.rs"]
mod grouping;
#[path = "../hostile_webhooks.rs"]
mod hostile_webhooks;
#[path = "../invalid_inputs.rs"]
mod invalid_inputs;
#[path = "../overview.rs"]
mod overview;
#[path = "../proxy_access.rs"]
mod proxy_access;
#[path = "../proxy_username.rs"]
mod proxy_username;
#[path = "../retry_deadline.rs"]
mod retry_deadline;
#[path = "../rooms.rs"]
mod rooms;
#[path = "../sim_as_live.rs"]
mod sim_as_live;
#[path = "../sim_conformance.rs"]
mod sim_conformance;
#[path = "../sim_http.rs"]
mod sim_http;
#[path = "../sim_lasting.rs"]
mod sim_lasting;
#[path = "../sim_live_paths.rs"]
mod sim_live_paths;
#[path = "../sim_validation.rs"]
mod sim_validation;
#[path = "../stance.rs"]
mod stance;
#[path = "../unasked_bodies.rs"]
mod unasked_bodies;
