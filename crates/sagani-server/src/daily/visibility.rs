//! Who may read a game's history. A daily game's deck is the day's deck for everyone, so its
//! history stays its player's until the UTC day is over.

use super::Day;
use crate::app::App;
use crate::error::ApiError;
use crate::store::DailyTag;
use crate::table::TableState;
use axum::http::HeaderMap;

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

/// Whether whoever sent `headers` may read the history of the game `st` is: its record, its
/// moves, its position as a spectator sees it, previews and analysis of it. Every game's
/// history is public, but a daily challenge's game is its player's alone until its UTC day is
/// over (then everyone's). Its player is whoever holds its seat: by the seat's token
/// (`Authorization: Bearer`) or by the account's session cookie. A token that holds no seat
/// here counts as none.
pub async fn history_visible(
    app: &App,
    headers: &HeaderMap,
    st: &TableState,
) -> Result<bool, ApiError> {
    let token = crate::routes::bearer(headers)?;
    let seat = token.and_then(|t| st.seat_of_hash(&crate::secret::hash(&t)));
    if history_open(st, seat, app.now_ms()) {
        return Ok(true);
    }
    // Only then is the account asked for (a query of the store).
    let Some((player, _)) = crate::accounts::current(app, headers).await? else {
        return Ok(false);
    };
    Ok(st
        .seats
        .iter()
        .any(|s| s.player() == Some(player.id.as_str())))
}

/// The refusal for a history that is not the asker's to read (yet).
pub fn hidden() -> ApiError {
    ApiError::new(
        crate::error::ErrorCode::HistoryHidden,
        "this is a daily challenge's game: it is its player's alone until the day (UTC) is over",
    )
}
