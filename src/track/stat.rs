//! The numbers of one brand in one run (or one model's or place's part of it) — visibility,
//! position, share of voice, recommended share — and of a brand from one run to the next.
//! Every view, the alerts and the report read a brand through these, so they agree. Pure.

use serde::Serialize;

use crate::analysis::{samples, significance};

use super::trends::AnswerObservation;

/// A brand over some answers of a run. As JSON it also carries its visibility with the
/// 95 % Wilson interval, its average position, its share of voice and its recommended share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStat {
    pub answers: u32,
    /// Answers that name it.
    pub named: u32,
    pub position_sum: u64,
    /// Times it is named over these answers.
    pub mentions: u64,
    /// Times any watched brand is named over these answers: what share of voice divides by.
    pub all_mentions: u64,
    /// Answers that recommend it.
    pub recommended: u32,
}

impl RunStat {
    /// The brand `b` (an index into the watched brands) over `answers`.
    pub fn over<'a>(answers: impl IntoIterator<Item = &'a AnswerObservation>, b: usize) -> Self {
        let mut stat = RunStat::default();
        for answer in answers {
            stat.add(answer, b);
        }
        stat
    }

    /// One more answer, read for the brand `b`.
    pub(crate) fn add(&mut self, answer: &AnswerObservation, b: usize) {
        let seen = answer.seen(b);
        self.answers += 1;
        self.all_mentions += answer.all_mentions();
        self.mentions += u64::from(seen.count);
        if let Some(p) = seen.position {
            self.named += 1;
            self.position_sum += u64::from(p);
        }
        if seen.recommends() {
            self.recommended += 1;
        }
    }

    /// Percent of answers naming the brand; none when the run had no answers here.
    pub fn visibility(&self) -> Option<f64> {
        (self.answers > 0).then(|| f64::from(self.named) * 100.0 / f64::from(self.answers))
    }

    /// The brand's average position among the brands named, when it was named.
    pub fn average_position(&self) -> Option<f64> {
        (self.named > 0).then(|| self.position_sum as f64 / f64::from(self.named))
    }

    /// The 95 % Wilson interval of its visibility, in percent; none without answers.
    pub fn interval(&self) -> Option<(f64, f64)> {
        (self.answers > 0).then(|| samples::wilson(self.named as usize, self.answers as usize))
    }

    /// Its mentions over every watched brand's mentions, in percent (0 when no watched brand
    /// was named); none without answers. As the comparison's matrix counts it.
    pub fn share_of_voice(&self) -> Option<f64> {
        (self.answers > 0).then(|| {
            if self.all_mentions == 0 {
                0.0
            } else {
                self.mentions as f64 * 100.0 / self.all_mentions as f64
            }
        })
    }

    /// Percent of answers recommending the brand; none without answers.
    pub fn recommended_share(&self) -> Option<f64> {
        (self.answers > 0).then(|| f64::from(self.recommended) * 100.0 / f64::from(self.answers))
    }
}

impl Serialize for RunStat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("RunStat", 12)?;
        out.serialize_field("answers", &self.answers)?;
        out.serialize_field("named", &self.named)?;
        out.serialize_field("position_sum", &self.position_sum)?;
        out.serialize_field("mentions", &self.mentions)?;
        out.serialize_field("all_mentions", &self.all_mentions)?;
        out.serialize_field("recommended", &self.recommended)?;
        out.serialize_field("visibility", &self.visibility())?;
        out.serialize_field("low", &self.interval().map(|i| i.0))?;
        out.serialize_field("high", &self.interval().map(|i| i.1))?;
        out.serialize_field("average_position", &self.average_position())?;
        out.serialize_field("share_of_voice", &self.share_of_voice())?;
        out.serialize_field("recommended_share", &self.recommended_share())?;
        out.end()
    }
}

/// The percent a chart of the brands over the runs draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Share {
    /// Of the answers, those that name the brand.
    #[default]
    Visibility,
    /// Of every watched brand's mentions, the brand's.
    ShareOfVoice,
    /// Of the answers, those that recommend the brand.
    Recommended,
}

impl Share {
    pub const ALL: [Share; 3] = [Share::Visibility, Share::ShareOfVoice, Share::Recommended];

    /// The brand's percent in `stat`; none without answers.
    pub fn of(self, stat: &RunStat) -> Option<f64> {
        match self {
            Share::Visibility => stat.visibility(),
            Share::ShareOfVoice => stat.share_of_voice(),
            Share::Recommended => stat.recommended_share(),
        }
    }

    /// "Visibility", "Share of voice", "Recommended share": a chart's title starts with it.
    pub fn title(self) -> &'static str {
        match self {
            Share::Visibility => "Visibility",
            Share::ShareOfVoice => "Share of voice",
            Share::Recommended => "Recommended share",
        }
    }

    /// In a sentence: "visibility", "share of voice", "recommended share".
    pub fn label(self) -> &'static str {
        match self {
            Share::Visibility => "visibility",
            Share::ShareOfVoice => "share of voice",
            Share::Recommended => "recommended share",
        }
    }

    /// What the percent is of, for a chart's caption.
    pub fn meaning(self) -> &'static str {
        match self {
            Share::Visibility => "the share of answers that name each brand",
            Share::ShareOfVoice => "each brand's mentions over every watched brand's mentions",
            Share::Recommended => "the share of answers that recommend each brand",
        }
    }

    /// For file and element names: "visibility", "share-of-voice", "recommended".
    pub fn slug(self) -> &'static str {
        match self {
            Share::Visibility => "visibility",
            Share::ShareOfVoice => "share-of-voice",
            Share::Recommended => "recommended",
        }
    }

    pub fn next(self) -> Share {
        let at = Share::ALL.iter().position(|s| *s == self).unwrap_or(0);
        Share::ALL[(at + 1) % Share::ALL.len()]
    }
}

/// A brand in the last run against the run before, over the cells both runs answered, and
/// whether McNemar's exact test calls the change in its visibility a difference at 95 %.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RunChange {
    pub before: RunStat,
    pub after: RunStat,
    /// The paired cells both are over.
    pub cells: u32,
    /// Of those, the cells that stopped naming the brand and those that started.
    pub lost: u32,
    pub gained: u32,
    pub p: f64,
    pub different: bool,
}

/// A percent as a change line shows it: "22 %".
fn percent(value: Option<f64>) -> String {
    value.map_or("–".to_string(), |v| format!("{v:.0} %"))
}

/// "p = 0.027", "p < 0.001".
pub fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    }
}

impl RunChange {
    /// The brand over paired cells: `before` and `after` are over the same cells, of which
    /// `lost` stopped naming it and `gained` started.
    pub(crate) fn paired(before: RunStat, after: RunStat, lost: usize, gained: usize) -> Self {
        let p = significance::mcnemar(lost, gained);
        let as_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        RunChange {
            before,
            after,
            cells: after.answers,
            lost: as_u32(lost),
            gained: as_u32(gained),
            p,
            different: p <= samples::ALPHA,
        }
    }

    /// Whether its share of voice moved, as [`RunChange::text`] shows it.
    fn voice_moved(&self) -> bool {
        percent(self.before.share_of_voice()) != percent(self.after.share_of_voice())
    }

    fn recommended_moved(&self) -> bool {
        (self.before.recommended, self.before.answers)
            != (self.after.recommended, self.after.answers)
            && (self.before.recommended, self.after.recommended) != (0, 0)
    }

    /// Whether any number [`RunChange::text`] shows moved: the answers naming the brand (or
    /// the answers they are of), its share of voice, the answers recommending it.
    pub fn moved(&self) -> bool {
        self.lost + self.gained > 0
            || (self.before.named, self.before.answers) != (self.after.named, self.after.answers)
            || self.voice_moved()
            || self.recommended_moved()
    }

    /// "named in 13 of 20 (43–82 %) → 6 of 20 (14–52 %) of the same cells, 7 lost, 0
    /// gained: different (p = 0.016)", then its share of voice and the answers recommending
    /// it where they moved: "; share of voice 22 % → 35 %; recommended in 1 of 20 → 4 of 20".
    pub fn text(&self) -> String {
        let count = |s: &RunStat| samples::count_text(s.named as usize, s.answers as usize);
        let verdict = if self.different {
            format!("different ({})", p_text(self.p))
        } else {
            "no clear difference".to_string()
        };
        let mut text = format!(
            "named in {} → {} of the same cells, {} lost, {} gained: {verdict}",
            count(&self.before),
            count(&self.after),
            self.lost,
            self.gained
        );
        if self.voice_moved() {
            text.push_str(&format!(
                "; share of voice {} → {}",
                percent(self.before.share_of_voice()),
                percent(self.after.share_of_voice())
            ));
        }
        if self.recommended_moved() {
            text.push_str(&format!(
                "; recommended in {} of {} → {} of {}",
                self.before.recommended,
                self.before.answers,
                self.after.recommended,
                self.after.answers
            ));
        }
        text
    }
}
