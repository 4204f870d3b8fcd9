//! `--samples N|auto`, `--precision` and `--most`: how often a run asks each answer, read
//! once by the one check of samples (`analysis::samples`) and of an automatic plan
//! (`analysis::adaptive::Plan::checked`), whatever the command.

use clap::Args;

use crate::analysis::adaptive::{DEFAULT_MOST, DEFAULT_PRECISION, Plan};
use crate::analysis::samples;
use crate::analysis::workspace::TrackSet;

#[derive(Debug, Clone, Default, Args)]
pub struct SamplingFlags {
    /// Ask each answer N times afresh, or `auto`: 3 times first, then again where its answers
    /// split, until every brand's visibility by model and by place is within --precision
    /// (overrides the set's `samples`)
    #[arg(long, value_name = "N|auto")]
    pub samples: Option<String>,
    /// With --samples auto: the ± percentage points every pooled visibility is brought
    /// within (default 10)
    #[arg(long, value_name = "POINTS", requires = "samples")]
    pub precision: Option<i64>,
    /// With --samples auto: the most times one cell is asked (default 10)
    #[arg(long, value_name = "N", requires = "samples")]
    pub most: Option<usize>,
}

/// How often each answer is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    Fixed(usize),
    Auto(Plan),
}

impl SamplingFlags {
    /// The sampling asked for, if any; the sentence of what is wrong with it.
    pub fn read(&self) -> Result<Option<Sampling>, String> {
        let Some(samples) = self.samples.as_deref().map(str::trim) else {
            return Ok(None);
        };
        if samples.eq_ignore_ascii_case("auto") {
            let precision = self.precision.unwrap_or(i64::from(DEFAULT_PRECISION));
            let most = self.most.unwrap_or(DEFAULT_MOST);
            return Plan::checked(precision, most)
                .map(|plan| Some(Sampling::Auto(plan)))
                .map_err(|problem| format!("Nothing was sent: {problem}."));
        }
        if self.precision.is_some() || self.most.is_some() {
            return Err(
                "Nothing was sent: --precision and --most go with --samples auto.".to_string(),
            );
        }
        let n: usize = samples.parse().map_err(|_| {
            format!(
                "Nothing was sent: --samples takes a number of samples or auto, not {}.",
                crate::sanitize::one_line(samples)
            )
        })?;
        samples::check_samples(n).map_err(|problem| format!("Nothing was sent: {problem}"))?;
        Ok(Some(Sampling::Fixed(n)))
    }
}

impl Sampling {
    /// The set asked this way for this run.
    pub fn apply(self, set: &mut TrackSet) {
        match self {
            Sampling::Fixed(n) => {
                set.samples = n;
                set.auto = None;
            }
            Sampling::Auto(plan) => {
                set.samples = plan.first;
                set.auto = Some(plan);
            }
        }
    }
}
