//! Who may read a game's history. A daily game's deck is the day's deck for everyone, so its
//! history stays its player's until the UTC day is over.

use super::Day;
use crate::error::ApiError;
use crate::store::DailyTag;
use crate::table::TableState;

/// Whether the game's history may be shown to the holder of `seat` (none: a spectator) at
/// `now_ms`, without asking who an account is: every game's may, but a daily game's only to
/// its seat until its day is over.
pub fn history_open(st: &TableState, seat: Option<u8>, now_ms: i64) -> bool {
    match &st.daily {
        None => true,
        Some(d) => seat.is_some() || day_over(d, now_ms),
    }
}

/// Whether the daily game's day (UTC) is over at `now_ms` (a day that cannot be read: yes).
pub fn day_over(d: &DailyTag, now_ms: i64) -> bool {
    Day::parse(&d.day).is_none_or(|day| now_ms >= day.end_ms())
}

/// The refusal for a history that is not the asker's to read (yet).
pub fn hidden() -> ApiError {
    ApiError::new(
        crate::error::ErrorCode::HistoryHidden,
        "this is a daily challenge's game: it is its player's alone until the day (UTC) is over",
    )
}
