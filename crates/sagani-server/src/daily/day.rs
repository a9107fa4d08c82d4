//! Days of the UTC calendar, as the daily challenge counts them: a day is its number since
//! 1970-01-01, written `YYYY-MM-DD`.

use std::fmt;

const DAY_MS: i64 = 86_400_000;

/// A UTC day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i64);

impl Day {
    /// The day `ms` (milliseconds since the Unix epoch) falls on.
    pub fn of_ms(ms: i64) -> Day {
        Day(ms.div_euclid(DAY_MS))
    }

    /// When the day starts (midnight UTC), in milliseconds.
    pub fn start_ms(self) -> i64 {
        self.0 * DAY_MS
    }

    /// When the day is over: the next one starts.
    pub fn end_ms(self) -> i64 {
        self.next().start_ms()
    }

    pub fn next(self) -> Day {
        Day(self.0 + 1)
    }

    pub fn prev(self) -> Day {
        Day(self.0 - 1)
    }

    /// `YYYY-MM-DD` (a real date of the years 1970 to 9999), or `None`.
    pub fn parse(text: &str) -> Option<Day> {
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let number = |range: std::ops::Range<usize>| -> Option<i64> {
            let part = &text[range];
            part.bytes()
                .all(|c| c.is_ascii_digit())
                .then(|| part.parse().ok())?
        };
        let (y, m, d) = (number(0..4)?, number(5..7)?, number(8..10)?);
        if y < 1970 || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
            return None;
        }
        let day = Day(days_from_civil(y, m, d));
        // 2026-02-30 is no day: it must read back as written.
        (day.civil() == (y, m, d)).then_some(day)
    }

    /// Year, month (1–12) and day of the month.
    pub fn civil(self) -> (i64, i64, i64) {
        civil_from_days(self.0)
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.civil();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01 (Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_utc_dates() {
        assert_eq!(Day::of_ms(0).to_string(), "1970-01-01");
        // 2026-12-03T00:00:00Z is 1_796_256_000 s after the epoch.
        let start = 1_796_256_000_000;
        assert_eq!(Day::of_ms(start).to_string(), "2026-12-03");
        assert_eq!(Day::of_ms(start - 1).to_string(), "2026-12-02");
        assert_eq!(Day::of_ms(start + DAY_MS - 1).to_string(), "2026-12-03");
        assert_eq!(Day::parse("2026-12-03").unwrap().start_ms(), start);
        assert_eq!(Day::parse("2026-12-03").unwrap().end_ms(), start + DAY_MS);
        assert_eq!(
            Day::parse("2024-02-29").unwrap().next().to_string(),
            "2024-03-01"
        );
        assert_eq!(
            Day::parse("2027-01-01").unwrap().prev().to_string(),
            "2026-12-31"
        );
    }

    #[test]
    fn every_day_reads_back_as_written() {
        for n in 0..200_000 {
            let day = Day(n);
            assert_eq!(Day::parse(&day.to_string()), Some(day), "{day}");
        }
    }

    #[test]
    fn what_is_no_day_is_refused() {
        for bad in [
            "2026-02-30",
            "2025-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-1-01",
            "20261203",
            "1969-12-31",
            "2026-12-3x",
            "+026-12-03",
            "",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }
}
