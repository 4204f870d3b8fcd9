//! Sizes and durations as every view and command writes them: one way each, so an answer
//! reads `7.6 kB` in Chat, Jobs, History and the command line alike.

use std::time::Duration;

/// Bytes in decimal units: "812 B", "7.6 kB", "2.3 MB".
pub fn size(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} kB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// A time taken, short enough for a column: "0.4 s", "23.4 s", "1m 35s", "2h 05m".
pub fn duration(taken: Duration) -> String {
    let secs = taken.as_secs();
    match secs {
        0..60 => format!("{:.1} s", taken.as_secs_f64()),
        60..3_600 => format!("{}m {:02}s", secs / 60, secs % 60),
        _ => format!("{}h {:02}m", secs / 3_600, secs % 3_600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_decimal_and_read_the_same_everywhere() {
        assert_eq!(size(812), "812 B");
        assert_eq!(size(7_590), "7.6 kB");
        assert_eq!(size(999_949), "999.9 kB");
        assert_eq!(size(2_300_000), "2.3 MB");
    }

    #[test]
    fn durations_past_a_minute_say_minutes() {
        assert_eq!(duration(Duration::from_millis(400)), "0.4 s");
        assert_eq!(duration(Duration::from_millis(23_400)), "23.4 s");
        assert_eq!(duration(Duration::from_secs(95)), "1m 35s");
        assert_eq!(duration(Duration::from_secs(2 * 3_600 + 5 * 60)), "2h 05m");
    }
}
