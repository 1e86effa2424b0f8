//! Recording times as events carry them: UTC, ISO 8601 with milliseconds
//! (`2026-11-25T10:00:00.123Z`). Pure: the clock is read at the edge and its reading handed in.
//!
//! A time from a file is checked before it is kept (it is shown, and it decides which of two
//! concurrent branch choices counts): the shape above (seconds with or without a fraction of
//! up to nine digits), a real calendar date, and a year from [`EARLIEST_YEAR`] to
//! [`LATEST_YEAR`]. The range is fixed rather than taken from the clock, so every machine
//! accepts the same events whenever it reads them.

/// No campaign event is older than this.
pub const EARLIEST_YEAR: i64 = 2000;
/// Nor newer than this.
pub const LATEST_YEAR: i64 = 2099;

/// Days from 1970-01-01 to `year-month-day` (proleptic Gregorian), Howard Hinnant's
/// `days_from_civil`.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day counted from 1970-01-01, `civil_from_days`; month and day count from 1.
pub(crate) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Milliseconds since 1970-01-01 UTC as an event's recording time.
pub fn format_millis(millis: i64) -> String {
    let days = millis.div_euclid(86_400_000);
    let rest = millis.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000
    )
}

/// Milliseconds since 1970-01-01 UTC of a recording time, if it is one.
///
/// # Errors
/// What is wrong with it, in words.
pub fn parse_millis(text: &str) -> Result<i64, String> {
    let bytes = text.as_bytes();
    let digits = |from: usize, len: usize| -> Option<i64> {
        let part = text.get(from..from + len)?;
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let shape = || format!("{:?}: not a time like 2026-11-25T10:00:00.000Z", cut(text));
    if bytes.len() < 20
        || bytes.get(4) != Some(&b'-')
        || bytes.get(7) != Some(&b'-')
        || bytes.get(10) != Some(&b'T')
        || bytes.get(13) != Some(&b':')
        || bytes.get(16) != Some(&b':')
        || bytes.last() != Some(&b'Z')
    {
        return Err(shape());
    }
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        digits(0, 4),
        digits(5, 2),
        digits(8, 2),
        digits(11, 2),
        digits(14, 2),
        digits(17, 2),
    ) else {
        return Err(shape());
    };
    let fraction = &text[19..text.len() - 1];
    let millis = match fraction.strip_prefix('.') {
        None if fraction.is_empty() => 0,
        Some(f) if (1..=9).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit()) => {
            let padded = format!("{f:0<3}");
            padded[..3].parse::<i64>().map_err(|_| shape())?
        }
        _ => return Err(shape()),
    };
    if !(EARLIEST_YEAR..=LATEST_YEAR).contains(&year) {
        return Err(format!(
            "{}: the year must be from {EARLIEST_YEAR} to {LATEST_YEAR}",
            cut(text)
        ));
    }
    let days = days_from_civil(year, month, day);
    if !(1..=12).contains(&month)
        || civil_from_days(days) != (year, month, day)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return Err(format!("{}: no such date or time", cut(text)));
    }
    Ok(days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + millis)
}

/// Whether `millis` (since 1970 UTC) falls in the years events can have: what a computer's
/// clock must show for an event to be recorded at its reading.
pub fn in_range(millis: i64) -> bool {
    let first = earliest_millis();
    let after_last = days_from_civil(LATEST_YEAR + 1, 1, 1) * 86_400_000;
    (first..after_last).contains(&millis)
}

/// The first millisecond of [`EARLIEST_YEAR`].
pub fn earliest_millis() -> i64 {
    days_from_civil(EARLIEST_YEAR, 1, 1) * 86_400_000
}

/// A value shown in a message, cut to a readable length.
fn cut(text: &str) -> String {
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(39).collect::<String>())
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip_and_match_known_dates() {
        // 2026-11-25T10:00:00Z is 1,795,600,800 s after the epoch (20,782 days and 10 h).
        let t = 20_782 * 86_400_000 + 10 * 3_600_000 + 123;
        assert_eq!(t, 1_795_600_800_123);
        assert_eq!(format_millis(t), "2026-11-25T10:00:00.123Z");
        assert_eq!(parse_millis("2026-11-25T10:00:00.123Z"), Ok(t));
        assert_eq!(parse_millis("2026-11-25T10:00:00Z"), Ok(t - 123));
        assert_eq!(parse_millis("2026-11-25T10:00:00.123456Z"), Ok(t));
        assert_eq!(format_millis(951_782_400_000), "2000-02-29T00:00:00.000Z");
        for millis in [0, 951_782_400_000, t, 4_102_444_799_999] {
            let text = format_millis(millis);
            if text.starts_with("19") {
                continue;
            }
            assert_eq!(parse_millis(&text), Ok(millis), "{text}");
        }
    }

    #[test]
    fn junk_and_out_of_range_times_are_refused() {
        for bad in [
            "",
            "yesterday",
            "9999-01-01T00:00:00.000Z",
            "1999-12-31T23:59:59.999Z",
            "2026-02-30T10:00:00.000Z",
            "2026-11-25T24:00:00.000Z",
            "2026-11-25T10:00:00.000",
            "2026-11-25 10:00:00.000Z",
            "2026-11-25T10:00:00.Z",
            "2026-11-25T10:00:00.1234567890Z",
            "２026-11-25T10:00:00.000Z",
        ] {
            assert!(parse_millis(bad).is_err(), "{bad:?} accepted");
        }
    }
}
