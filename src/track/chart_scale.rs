//! What a chart of percents over runs needs besides its numbers, the same in the Track tab
//! and the report: a y-axis from 0 to a rounded top just above the highest value (so shares
//! of 10–35 % fill the chart rather than its bottom third), the runs' dates at the
//! resolution that tells them apart, and the symbols that tell up to twelve lines apart
//! without colour. Pure.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// A y-axis of percents: from 0 to `top`, a tick every `step`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PercentScale {
    pub top: f64,
    pub step: f64,
}

impl PercentScale {
    /// The axis for values up to `highest` (percent): the smallest round top at or above
    /// it with four or five ticks; 0–100 at most, 0–10 at least.
    pub fn spanning(highest: f64) -> PercentScale {
        let highest = if highest.is_finite() {
            highest.clamp(0.0, 100.0)
        } else {
            100.0
        };
        for step in [2.0, 5.0, 10.0, 20.0, 25.0] {
            let top = ((highest / step).ceil() * step).max(10.0);
            if top / step <= 5.0 && top <= 100.0 {
                return PercentScale { top, step };
            }
        }
        PercentScale {
            top: 100.0,
            step: 25.0,
        }
    }

    /// The axis for every value of `values` (none known: 0–10).
    pub fn of(values: impl IntoIterator<Item = f64>) -> PercentScale {
        PercentScale::spanning(values.into_iter().fold(0.0, f64::max))
    }

    /// The ticks from 0 to the top.
    pub fn ticks(&self) -> Vec<f64> {
        let count = (self.top / self.step).round() as usize;
        (0..=count).map(|i| i as f64 * self.step).collect()
    }
}

/// The runs' labels (RFC 3339 start times, as stored) as a chart's axis names them: "27 Nov",
/// with the time of day ("27 Nov 06:15") when two runs share a date (and the second when
/// they share a minute), and the year when the runs span more than one. A label that is not
/// a time is kept as it is.
pub fn run_dates(labels: &[String]) -> Vec<String> {
    let times: Vec<Option<OffsetDateTime>> = labels
        .iter()
        .map(|l| OffsetDateTime::parse(l, &Rfc3339).ok())
        .collect();
    let known: Vec<OffsetDateTime> = times.iter().flatten().copied().collect();
    let mut dates: Vec<time::Date> = known.iter().map(|t| t.date()).collect();
    dates.sort();
    let shared_date = dates.windows(2).any(|w| w[0] == w[1]);
    let mut minutes: Vec<(time::Date, u8, u8)> = known
        .iter()
        .map(|t| (t.date(), t.hour(), t.minute()))
        .collect();
    minutes.sort();
    let shared_minute = minutes.windows(2).any(|w| w[0] == w[1]);
    let years_differ = dates.first().map(|d| d.year()) != dates.last().map(|d| d.year());
    let dates: Vec<String> = labels
        .iter()
        .zip(&times)
        .map(|(label, time)| match time {
            None => label.clone(),
            Some(t) => {
                let month: String = t.month().to_string().chars().take(3).collect();
                let mut text = format!("{} {month}", t.day());
                if years_differ {
                    text.push_str(&format!(" {}", t.year()));
                }
                if shared_date {
                    text.push_str(&format!(" {:02}:{:02}", t.hour(), t.minute()));
                }
                if shared_minute {
                    text.push_str(&format!(":{:02}", t.second()));
                }
                text
            }
        })
        .collect();
    // Runs started in the same second are told apart by their number.
    let mut sorted = dates.clone();
    sorted.sort();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return dates
            .into_iter()
            .enumerate()
            .map(|(i, date)| format!("#{} {date}", i + 1))
            .collect();
    }
    dates
}

/// The symbols that tell a chart's lines apart without colour, one a line: twelve, so a
/// set of up to twelve brands never draws two lines alike.
pub const MARKERS: [&str; 12] = ["●", "■", "▲", "◆", "▼", "✚", "○", "□", "△", "◇", "▽", "✕"];

/// The symbol of line `i`.
pub fn marker(i: usize) -> &'static str {
    MARKERS[i % MARKERS.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_spans_the_data_with_a_round_top() {
        assert_eq!(
            PercentScale::spanning(35.0),
            PercentScale {
                top: 40.0,
                step: 10.0
            }
        );
        assert_eq!(PercentScale::spanning(100.0).top, 100.0);
        assert_eq!(PercentScale::spanning(0.0).top, 10.0);
        assert_eq!(PercentScale::spanning(61.0).top, 80.0);
        assert_eq!(PercentScale::spanning(7.0).top, 10.0);
        assert_eq!(PercentScale::spanning(f64::NAN).top, 100.0);
        for highest in 0..=100 {
            let scale = PercentScale::spanning(f64::from(highest));
            assert!(scale.top >= f64::from(highest) && scale.top <= 100.0);
            // At least half the height is used by the highest value past 5 %.
            if highest >= 5 {
                assert!(
                    f64::from(highest) / scale.top >= 0.5,
                    "{highest}: {scale:?}"
                );
            }
            assert!(
                (3..=6).contains(&scale.ticks().len()),
                "{highest}: {scale:?}"
            );
        }
        assert_eq!(
            PercentScale::of([12.0, 33.0]).ticks(),
            [0.0, 10.0, 20.0, 30.0, 40.0]
        );
    }

    #[test]
    fn dates_tell_runs_apart() {
        let labels = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            run_dates(&labels(&[
                "2026-11-25T06:15:00Z",
                "2026-11-27T06:37:38.528Z"
            ])),
            ["25 Nov", "27 Nov"]
        );
        assert_eq!(
            run_dates(&labels(&["2026-11-27T06:15:00Z", "2026-11-27T18:02:00Z"])),
            ["27 Nov 06:15", "27 Nov 18:02"]
        );
        assert_eq!(
            run_dates(&labels(&["2025-12-31T23:00:00Z", "2026-01-01T01:00:00Z"])),
            ["31 Dec 2025", "1 Jan 2026"]
        );
        assert_eq!(
            run_dates(&labels(&["2026-11-27T21:54:01Z", "2026-11-27T21:54:35Z"])),
            ["27 Nov 21:54:01", "27 Nov 21:54:35"]
        );
        assert_eq!(
            run_dates(&labels(&[
                "2026-11-27T21:54:35Z",
                "2026-11-27T21:54:35.400Z"
            ])),
            ["#1 27 Nov 21:54:35", "#2 27 Nov 21:54:35"]
        );
        assert_eq!(run_dates(&labels(&["day 1"])), ["day 1"]);
    }

    #[test]
    fn twelve_lines_twelve_markers() {
        let mut seen: Vec<&str> = (0..12).map(marker).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 12);
    }
}
