//! Who asks: a request's seat token and the account it is logged in to, and whether they may
//! read a game's history.

use crate::app::history::Viewer;
use crate::app::App;
use crate::error::{ApiError, ErrorCode};
use crate::table::TableState;
use axum::http::{header, HeaderMap};

/// The bearer token of a request, if it has one.
pub fn bearer(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or("").trim();
    // The scheme's name is case-insensitive (RFC 9110).
    let token = match text.split_once(' ') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => rest.trim(),
        _ => "",
    };
    match token {
        t if !t.is_empty() => Ok(Some(t.to_string())),
        _ => Err(ApiError::new(
            ErrorCode::MissingToken,
            "the Authorization header must be `Bearer <token>`",
        )),
    }
}

/// Who asks: a seat token (the header, else the body's), and the account logged in.
pub async fn viewer(
    app: &App,
    headers: &HeaderMap,
    token: Option<&str>,
) -> Result<Viewer, ApiError> {
    let bearer = bearer(headers)?;
    let token = bearer.as_deref().or(token);
    let player = crate::accounts::current(app, headers)
        .await?
        .map(|(p, _)| p.id);
    Ok(Viewer::new(token, player))
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
    let token = bearer(headers)?;
    let seat = token.and_then(|t| st.seat_of_hash(&crate::secret::hash(&t)));
    if crate::daily::history_open(st, seat, app.now_ms()) {
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
