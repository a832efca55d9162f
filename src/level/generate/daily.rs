//! The daily kitchen: one generated kitchen per UTC day, the same for everyone. Its seed is
//! the date written as the number YYYYMMDD and its options are fixed, so `level generate
//! --seed 20261206 --size m` draws the same file as the daily kitchen of 6 December 2026.
//!
//! Nothing here reads a clock: the CLI, the menu and the host read the wall clock at their
//! edge and pass the day in ([`Date::from_unix_days`]).

use std::fmt;

use super::options::{GenerateOptions, HazardKind, Size};

/// The daily kitchen's size.
pub const DAILY_SIZE: Size = Size::M;
/// The daily kitchen's hazards: a spill on the walkway, so the day's crossings are planned.
pub const DAILY_HAZARDS: [HazardKind; 1] = [HazardKind::Spill];

/// A day of the proleptic Gregorian calendar, years 1970 to 9999.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

/// Why a date was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DateError {
    /// Not `YYYY-MM-DD`.
    Malformed(String),
    /// A month or day that does not exist, or a year outside 1970..=9999.
    NoSuchDay(String),
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DateError::Malformed(t) => write!(f, "BAD_DATE: {t:?} is not YYYY-MM-DD"),
            DateError::NoSuchDay(t) => {
                write!(f, "BAD_DATE: {t:?} is no day of the years 1970 to 9999")
            }
        }
    }
}

impl std::error::Error for DateError {}

fn leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Date {
    /// The day, if it exists.
    pub fn new(year: i64, month: i64, day: i64) -> Option<Date> {
        let valid = (1970..=9999).contains(&year)
            && (1..=12).contains(&month)
            && (1..=days_in_month(year, month)).contains(&day);
        valid.then_some(Date { year: year as u16, month: month as u8, day: day as u8 })
    }

    /// Reads `YYYY-MM-DD`.
    pub fn parse(text: &str) -> Result<Date, DateError> {
        let malformed = || DateError::Malformed(text.to_string());
        let parts: Vec<&str> = text.split('-').collect();
        let [y, m, d] = parts.as_slice() else { return Err(malformed()) };
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return Err(malformed());
        }
        let num = |s: &str| -> Result<i64, DateError> {
            if s.bytes().all(|b| b.is_ascii_digit()) {
                s.parse().map_err(|_| malformed())
            } else {
                Err(malformed())
            }
        };
        let (y, m, d) = (num(y)?, num(m)?, num(d)?);
        Date::new(y, m, d).ok_or_else(|| DateError::NoSuchDay(text.to_string()))
    }

    /// The UTC day `days` after 1 January 1970 (H. Hinnant's `civil_from_days`, integers only).
    pub fn from_unix_days(days: i64) -> Option<Date> {
        let z = days.checked_add(719_468)?;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date::new(year, month, day)
    }

    /// The UTC day of a moment given in whole seconds since the Unix epoch.
    pub fn from_unix_seconds(seconds: i64) -> Option<Date> {
        Date::from_unix_days(seconds.div_euclid(86_400))
    }

    /// The daily seed: the date as the number YYYYMMDD.
    pub fn seed(self) -> u64 {
        u64::from(self.year) * 10_000 + u64::from(self.month) * 100 + u64::from(self.day)
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// The fixed options of `date`'s daily kitchen.
pub fn daily_options(date: Date) -> GenerateOptions {
    GenerateOptions {
        seed: date.seed(),
        size: DAILY_SIZE,
        dishes: Vec::new(),
        hazards: DAILY_HAZARDS.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_and_refuse_by_name() {
        let d = Date::parse("2026-12-06").expect("a day");
        assert_eq!(d.seed(), 20_261_206);
        assert_eq!(d.to_string(), "2026-12-06");
        assert_eq!(Date::parse("2024-02-29").map(Date::seed), Ok(20_240_229));
        assert!(matches!(Date::parse("2025-02-29"), Err(DateError::NoSuchDay(_))));
        assert!(matches!(Date::parse("2025-13-01"), Err(DateError::NoSuchDay(_))));
        assert!(matches!(Date::parse("1969-12-31"), Err(DateError::NoSuchDay(_))));
        for bad in ["2026-1-06", "20261206", "2026-12-0x", "+026-12-06", "2026-12-06-"] {
            assert!(matches!(Date::parse(bad), Err(DateError::Malformed(_))), "{bad}");
        }
    }

    #[test]
    fn unix_days_count_from_1970_through_leap_years() {
        assert_eq!(Date::from_unix_days(0), Date::new(1970, 1, 1));
        assert_eq!(Date::from_unix_days(59), Date::new(1970, 3, 1));
        // 2000-02-29 is day 11016; 2026-12-06 is day 20793.
        assert_eq!(Date::from_unix_days(11_016), Date::new(2000, 2, 29));
        assert_eq!(Date::from_unix_days(20_793), Date::new(2026, 12, 6));
        assert_eq!(Date::from_unix_seconds(20_793 * 86_400 + 86_399), Date::new(2026, 12, 6));
        assert_eq!(Date::from_unix_days(-1), None);
        // Every day from 1970 to 2100 follows the one before.
        let mut last = Date::new(1970, 1, 1).expect("a day");
        for days in 1..47_847 {
            let next = Date::from_unix_days(days).expect("in range");
            assert!(next > last, "{next} after {last}");
            last = next;
        }
        assert_eq!(last, Date::new(2100, 12, 31).expect("a day"));
    }
}
