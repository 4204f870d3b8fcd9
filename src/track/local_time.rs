//! Times as a report's reader reads them: the generating machine's local date and time, to
//! the minute, with its offset ("27 Nov 2026, 07:37 (UTC+01:00)"). The report runs no
//! script, so the time is written in the zone where it is made. `local_stamp` looks the
//! zone up (the system's time zone, `TZ` first); `reader_time` is pure.

use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

/// The instant `unix_ms` as RFC 3339 in the machine's zone, to the second (no fraction):
/// what a report's labels carry, so every time it writes is local.
pub fn local_stamp(unix_ms: i64) -> String {
    let offset = jiff::Timestamp::from_millisecond(unix_ms)
        .map(|at| jiff::tz::TimeZone::system().to_offset(at).seconds())
        .unwrap_or(0);
    stamp_at(unix_ms, offset)
}

/// The instant `unix_ms` as RFC 3339 at `offset` seconds east of UTC, to the second.
pub fn stamp_at(unix_ms: i64, offset: i32) -> String {
    let offset = UtcOffset::from_whole_seconds(offset).unwrap_or(UtcOffset::UTC);
    OffsetDateTime::from_unix_timestamp(unix_ms.div_euclid(1000))
        .ok()
        .and_then(|t| t.to_offset(offset).format(&Rfc3339).ok())
        .unwrap_or_else(|| unix_ms.to_string())
}

/// An RFC 3339 time as a reader reads it: "27 Nov 2026, 07:37 (UTC+01:00)", in the offset
/// it carries. Anything else is kept as it is.
pub fn reader_time(stamp: &str) -> String {
    let Ok(t) = OffsetDateTime::parse(stamp, &Rfc3339) else {
        return stamp.to_string();
    };
    let month: String = t.month().to_string().chars().take(3).collect();
    let offset = t.offset();
    let sign = if offset.is_negative() { '-' } else { '+' };
    format!(
        "{} {month} {}, {:02}:{:02} (UTC{sign}{:02}:{:02})",
        t.day(),
        t.year(),
        t.hour(),
        t.minute(),
        offset.whole_hours().unsigned_abs(),
        offset.minutes_past_hour().unsigned_abs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_reads_the_local_minute_and_its_offset() {
        // 2026-11-27T06:37:38.528Z, written an hour east of UTC.
        let stamp = stamp_at(1_795_761_458_528, 3600);
        assert_eq!(stamp, "2026-11-27T07:37:38+01:00");
        assert_eq!(reader_time(&stamp), "27 Nov 2026, 07:37 (UTC+01:00)");
        assert_eq!(
            reader_time(&stamp_at(1_795_761_458_528, -(3 * 3600 + 1800))),
            "27 Nov 2026, 03:07 (UTC-03:30)"
        );
        assert_eq!(reader_time("day 1"), "day 1");
        // Whatever the machine's zone, no fraction of a second.
        assert!(!local_stamp(1_795_761_458_528).contains('.'));
    }
}
