//! Alerts of a tracking set, as the workspace file names them (`[[sets.alerts]]`): a brand
//! (or a domain's rank), a measure, a threshold or a drop since the run before, and
//! optional filters by model and place. Read here; evaluated on a run by `track::alerts`.

use std::fmt;

use crate::api::Location;

/// What an alert watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Percent of the answers that name the brand.
    Visibility,
    /// The brand's average first-mention position where named (1 is first).
    Position,
    /// Percent of every watched brand's mentions that are this brand's.
    ShareOfVoice,
    /// The best organic rank of the brand's domains over the set's searches (`best_rank`;
    /// `rank`, as files written before the mean was offered say it).
    BestRank,
    /// The mean, over the set's searches (terms × place) where the brand's domains rank, of
    /// their best rank there: what `track trends` prints beside the best.
    MeanRank,
}

impl Measure {
    pub const NAMES: &'static str = "visibility, position, share_of_voice, best_rank or mean_rank";

    pub fn parse(text: &str) -> Option<Measure> {
        match text.trim().to_ascii_lowercase().as_str() {
            "visibility" => Some(Measure::Visibility),
            "position" => Some(Measure::Position),
            "share_of_voice" => Some(Measure::ShareOfVoice),
            // A rank alert has always compared the best rank.
            "best_rank" | "rank" => Some(Measure::BestRank),
            "mean_rank" => Some(Measure::MeanRank),
            _ => None,
        }
    }

    /// A domain's rank in the set's searches, best or mean: a domain may be watched by it.
    pub fn is_rank(self) -> bool {
        matches!(self, Measure::BestRank | Measure::MeanRank)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Measure::Visibility => "visibility",
            Measure::Position => "position",
            Measure::ShareOfVoice => "share_of_voice",
            Measure::BestRank => "best_rank",
            Measure::MeanRank => "mean_rank",
        }
    }

    /// A percent (visibility, share of voice) rather than a place in a list.
    pub fn is_percent(self) -> bool {
        matches!(self, Measure::Visibility | Measure::ShareOfVoice)
    }

    /// In words, for sentences: "visibility", "share of voice", "best rank".
    pub fn words(self) -> &'static str {
        match self {
            Measure::Visibility => "visibility",
            Measure::Position => "position",
            Measure::ShareOfVoice => "share of voice",
            Measure::BestRank => "best rank",
            Measure::MeanRank => "mean rank",
        }
    }
}

/// When an alert fires. Thresholds are finite and not negative (the file's reading refuses
/// others), so equality is that of their bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Condition {
    Below(f64),
    Above(f64),
    /// Worse by at least this much since the run before: a percent lower, or a position or
    /// rank higher.
    DropsBy(f64),
}

impl Eq for Condition {}

impl Condition {
    pub const KEYS: [&'static str; 3] = ["below", "above", "drops_by"];

    pub fn key(self) -> &'static str {
        match self {
            Condition::Below(_) => "below",
            Condition::Above(_) => "above",
            Condition::DropsBy(_) => "drops_by",
        }
    }

    pub fn threshold(self) -> f64 {
        match self {
            Condition::Below(t) | Condition::Above(t) | Condition::DropsBy(t) => t,
        }
    }

    /// The same kind of condition with another threshold.
    pub fn with_threshold(self, threshold: f64) -> Condition {
        match self {
            Condition::Below(_) => Condition::Below(threshold),
            Condition::Above(_) => Condition::Above(threshold),
            Condition::DropsBy(_) => Condition::DropsBy(threshold),
        }
    }
}

/// One alert of a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alert {
    /// The tracked brand watched; for `rank`, its domains rank.
    pub brand: Option<String>,
    /// For `rank` without a brand: the domain whose rank is watched.
    pub domain: Option<String>,
    pub measure: Measure,
    pub condition: Condition,
    /// Only answers of these models (`chatgpt`, `ai-overview`…); empty: every one.
    pub models: Vec<String>,
    /// Only answers and searches from these places (a country takes its cities); empty:
    /// every one.
    pub locations: Vec<Location>,
}

impl Alert {
    /// What is watched: "Salomon", or "rei.com".
    pub fn subject(&self) -> &str {
        self.brand
            .as_deref()
            .or(self.domain.as_deref())
            .unwrap_or("")
    }
}

/// A number as the file wrote it: "30", "2.5".
pub fn number(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

impl fmt::Display for Alert {
    /// "Salomon visibility below 30 % (chatgpt; US)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.measure.is_percent() { " %" } else { "" };
        let condition = match self.condition {
            Condition::Below(t) => format!("below {}{unit}", number(t)),
            Condition::Above(t) => format!("above {}{unit}", number(t)),
            Condition::DropsBy(t) => {
                let points = if self.measure.is_percent() {
                    " points"
                } else {
                    ""
                };
                format!("drops by {}{points}", number(t))
            }
        };
        write!(f, "{} {} {condition}", self.subject(), self.measure.words())?;
        let places: Vec<String> = self
            .locations
            .iter()
            .map(crate::analysis::workspace::location_spec)
            .collect();
        let scope: Vec<String> = [self.models.join(", "), places.join(", ")]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        if !scope.is_empty() {
            write!(f, " ({})", scope.join("; "))?;
        }
        Ok(())
    }
}
