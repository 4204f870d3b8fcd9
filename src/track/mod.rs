//! Tracking over time: a set of the workspace file (prompts and search terms × models ×
//! devices × locations) expanded into calls, run through the service's queue, and read
//! back as trends over runs.
//!
//! - [`plan`] expands a set into its calls (pure).
//! - [`submit`] is the one interface runs submit through ([`submit::Submitter`]), with
//!   per-request async jobs behind it now; the service's batch endpoints can slot in later.
//! - [`run`] records a run and its calls before sending anything, then sends what is not
//!   sent yet, storing each job id the moment it arrives: a run killed midway resumes.
//! - [`lock`] keeps two runs of one set from overlapping.
//! - [`map`] places a set's vantage points on a world map, banded by a brand's visibility.
//! - [`observe`] reads a stored result as the numbers trends need; [`trends`] computes
//!   visibility, positions, source shares and ranks (pure); [`diff`] what changed from one
//!   run to the next and [`changes`] its lines, the same in every view (pure);
//!   [`report`] writes runs as CSV or JSON Lines; [`readings`] reads a run for the kinds
//!   of the sites cited and the gaps of the own brand.
//! - [`answers`] compares one cell's answers (prompt × model × place) across runs (pure);
//!   [`answers_read`] reads them from the readings and the stored answers.

pub mod alerts;
pub mod answers;
pub mod answers_read;
pub mod auto;
pub mod changes;
pub mod chart_scale;
pub mod diff;
pub mod local_time;
pub mod lock;
pub mod map;
pub mod observe;
pub mod paired;
pub mod plan;
pub mod readings;
pub mod reask;
pub mod report;
pub mod report_answers;
pub mod report_charts;
pub mod report_page;
pub mod report_roll_up;
pub mod run;
pub mod stat;
pub mod stored;
pub mod submit;
pub mod tally;
pub mod trends;
pub mod view;
