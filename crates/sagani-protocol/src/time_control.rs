//! Time controls: how much time a game gives its seats.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How much time a game gives its seats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum TimeControl {
    /// No clock: friends who wait for each other.
    #[default]
    None,
    /// Fischer: each seat has `initial_s` seconds for the whole game and gains `increment_s`
    /// with every decision it makes.
    Realtime {
        #[schema(minimum = 10, maximum = 10800)]
        #[serde(deserialize_with = "crate::whole::number")]
        initial_s: u32,
        #[schema(minimum = 0, maximum = 600)]
        #[serde(deserialize_with = "crate::whole::number")]
        increment_s: u32,
    },
    /// Turn-based: every decision may take up to `days` days (1, 2, 3 or 7).
    Turn {
        #[serde(deserialize_with = "crate::whole::number")]
        days: u32,
    },
}

/// The real-time controls the page offers (minutes + seconds).
pub const OFFERED: [(u32, u32); 3] = [(180, 2), (300, 5), (600, 10)];

impl TimeControl {
    /// A control the server accepts, or what is wrong with it.
    pub fn check(self) -> Result<TimeControl, TimeControlError> {
        match self {
            TimeControl::Realtime {
                initial_s,
                increment_s,
            } => {
                if !(10..=10_800).contains(&initial_s) {
                    return Err(TimeControlError::Initial(initial_s));
                }
                if increment_s > 600 {
                    return Err(TimeControlError::Increment(increment_s));
                }
            }
            TimeControl::Turn { days } if ![1, 2, 3, 7].contains(&days) => {
                return Err(TimeControlError::Days(days));
            }
            _ => {}
        }
        Ok(self)
    }

    pub fn is_none(self) -> bool {
        self == TimeControl::None
    }

    /// As stored: `None` for no clock, else the JSON of the control.
    pub fn stored(self) -> Option<String> {
        (!self.is_none()).then(|| serde_json::to_string(&self).unwrap_or_default())
    }

    pub fn from_stored(text: Option<&str>) -> Result<TimeControl, StoredClockError> {
        match text {
            None => Ok(TimeControl::None),
            Some(t) => serde_json::from_str(t).map_err(|source| StoredClockError {
                text: t.to_string(),
                source,
            }),
        }
    }
}

/// A time control the server does not offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("clock.initial_s must be 10 to 10800 seconds, not {0}")]
    Initial(u32),
    #[error("clock.increment_s must be 0 to 600 seconds, not {0}")]
    Increment(u32),
    #[error("clock.days must be 1, 2, 3 or 7, not {0}")]
    Days(u32),
}

impl From<TimeControlError> for crate::error::RefusalDetail {
    fn from(e: TimeControlError) -> Self {
        use crate::error::RefusalDetail as D;
        match e {
            TimeControlError::Initial(value) => D::ClockInitial {
                min: 10,
                max: 10_800,
                value,
            },
            TimeControlError::Increment(value) => D::ClockIncrement { max: 600, value },
            TimeControlError::Days(value) => D::ClockDays { value },
        }
    }
}

/// A stored time control that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("clock {text:?}: {source}")]
pub struct StoredClockError {
    pub text: String,
    #[source]
    pub source: serde_json::Error,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_checked_and_stored_as_json() {
        assert!(TimeControl::Realtime {
            initial_s: 300,
            increment_s: 5
        }
        .check()
        .is_ok());
        let short = TimeControl::Realtime {
            initial_s: 9,
            increment_s: 0,
        };
        assert_eq!(short.check(), Err(TimeControlError::Initial(9)));
        assert!(short.check().unwrap_err().to_string().contains("initial_s"));
        assert!(TimeControl::Turn { days: 4 }.check().is_err());
        assert!(TimeControl::Turn { days: 7 }.check().is_ok());
        for c in [
            TimeControl::None,
            TimeControl::Realtime {
                initial_s: 300,
                increment_s: 5,
            },
            TimeControl::Turn { days: 3 },
        ] {
            assert_eq!(TimeControl::from_stored(c.stored().as_deref()).unwrap(), c);
        }
        let parsed: TimeControl =
            serde_json::from_str(r#"{"kind":"realtime","initial_s":10,"increment_s":2}"#).unwrap();
        assert_eq!(
            parsed.check().unwrap(),
            TimeControl::Realtime {
                initial_s: 10,
                increment_s: 2
            }
        );
        assert!(serde_json::from_str::<TimeControl>(r#"{"kind":"blitz"}"#).is_err());
    }

    #[test]
    fn a_stored_clock_that_cannot_be_read_says_which() {
        let e = TimeControl::from_stored(Some("{\"kind\":\"blitz\"}")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("clock \"{\\\"kind\\\":\\\"blitz\\\"}\": "),
            "{e}"
        );
    }
}
