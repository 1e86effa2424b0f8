//! The calendar date an export is stamped with.
//!
//! Exports never read the clock: the caller passes the date (the CLI passes today's), so the
//! same input gives the same PDF and tests can fix the date.

use std::fmt;
use std::str::FromStr;

use super::ExportError;

/// A calendar day, written `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExportDate {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl ExportDate {
    /// The date, if `month` and `day` make a real day of `year`.
    pub fn new(year: u16, month: u8, day: u8) -> Option<Self> {
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if is_leap(year) => 29,
            2 => 28,
            _ => return None,
        };
        (1..=days)
            .contains(&day)
            .then_some(ExportDate { year, month, day })
    }
}

impl ExportDate {
    /// The UTC calendar day of a Unix time in seconds (`None` outside years 0–9999).
    pub fn from_unix_seconds(seconds: i64) -> Option<Self> {
        let (year, month, day) = crate::campaign::time::civil_from_days(seconds.div_euclid(86_400));
        ExportDate::new(
            u16::try_from(year).ok().filter(|y| *y <= 9999)?,
            u8::try_from(month).ok()?,
            u8::try_from(day).ok()?,
        )
    }

    /// Today's UTC date from the system clock — for the command line and UI only; the
    /// layout code takes the date as a parameter so exports stay reproducible.
    pub fn today_utc() -> Option<Self> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        ExportDate::from_unix_seconds(i64::try_from(now.as_secs()).ok()?)
    }
}

fn is_leap(year: u16) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

impl fmt::Display for ExportDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for ExportDate {
    type Err = ExportError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ExportError::Date(s.to_string());
        let mut parts = s.trim().split('-');
        let (Some(y), Some(m), Some(d), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return Err(bad());
        }
        let year = y.parse().map_err(|_| bad())?;
        let month = m.parse().map_err(|_| bad())?;
        let day = d.parse().map_err(|_| bad())?;
        ExportDate::new(year, month, day).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_iso_dates() {
        let date: ExportDate = "2024-02-29".parse().unwrap();
        assert_eq!(date, ExportDate::new(2024, 2, 29).unwrap());
        assert_eq!(date.to_string(), "2024-02-29");
    }

    #[test]
    fn unix_seconds_become_utc_days() {
        assert_eq!(
            ExportDate::from_unix_seconds(0),
            ExportDate::new(1970, 1, 1)
        );
        // 2024-02-29T23:59:59Z and one second later.
        assert_eq!(
            ExportDate::from_unix_seconds(1_709_251_199),
            ExportDate::new(2024, 2, 29)
        );
        assert_eq!(
            ExportDate::from_unix_seconds(1_709_251_200),
            ExportDate::new(2024, 3, 1)
        );
        assert_eq!(
            ExportDate::from_unix_seconds(-86_400),
            ExportDate::new(1969, 12, 31)
        );
        assert!(ExportDate::today_utc().is_some_and(|d| d.year >= 2024));
    }

    #[test]
    fn refuses_impossible_dates_naming_the_value() {
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "2024-1-01",
            "yesterday",
            "2024-01-01-01",
        ] {
            assert_eq!(
                bad.parse::<ExportDate>(),
                Err(ExportError::Date(bad.to_string()))
            );
        }
    }
}
