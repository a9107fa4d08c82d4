//! Accounts: signing up with a unique name and a password, logging in with a session cookie,
//! logging out (here or everywhere), who the cookie is, a new password, deleting an account.
//! Seat tokens are untouched: API clients and engines play exactly as before.
//!
//! Sessions and log-in attempts are in the database, so every server behind a balancer knows
//! them. Passwords are hashed with argon2id in the bounded pool (`passwords`) and never logged.
//! Ending an account's sessions (everywhere, a new password, deleting it) revokes its seats'
//! tokens too: every device it was logged in on stops playing.

use crate::app::{store_refusal, App, Claimer};
use crate::client_addr::ClientAddr;
use crate::error::RefusalDetail;
use crate::error::{ApiError, Body, ErrorBody, ErrorCode};
use crate::names;
use crate::secret;
use crate::store::{LoginCount, NewPlayer, Player, StoreError};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use sagani_protocol::error::{NAME_MAX, PASSWORD_MAX, PASSWORD_MIN};
use std::sync::Arc;

pub use sagani_protocol::accounts::{Confirmation, Credentials, Me, PasswordChange};

/// The session cookie's name.
pub const COOKIE: &str = "sagani_session";
/// How long a log-in lasts.
const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;
/// Log-in attempts are counted over this window …
const ATTEMPT_WINDOW_MS: i64 = 15 * 60 * 1000;
/// … at most this many for one name from one address, and for one address. Not for a name
/// alone: then anyone could lock its owner out by failing from elsewhere. A right password
/// takes its attempt back, so only failures (and refused attempts) add up.
const ATTEMPTS_PER_NAME_AT_ADDRESS: u64 = 10;
const ATTEMPTS_PER_ADDRESS: u64 = 30;
/// No account has a longer name (in NFKC): such a log-in is refused at once, uncounted.
const LONGEST_NAME: usize = NAME_MAX as usize;
/// A name typed decomposed ("u" and a mark for "ü") is longer before NFKC; more than this many
/// characters is no account's name in any form (and is not worth folding).
const LONGEST_TYPED_NAME: usize = 4 * LONGEST_NAME;

/// Who a request is, for claiming a seat or creating a game: the logged-in account (a request
/// the cookie makes count for it must come from this site), else a guest with the display
/// name given.
pub async fn claimer(
    app: &App,
    headers: &HeaderMap,
    guest_name: Option<&str>,
) -> Result<Claimer, ApiError> {
    if let Some((player, _)) = current(app, headers).await? {
        check_origin(headers)?;
        return Ok(Claimer {
            name: Some(player.name),
            player: Some(player.id),
        });
    }
    Ok(Claimer {
        name: match guest_name {
            Some(name) => Some(guest_display_name(app, name).await?),
            None => None,
        },
        player: None,
    })
}

/// A guest's display name (`names::check_display_name`), refused if it looks like an account's
/// name: a guest must not pass for an account's player.
async fn guest_display_name(app: &App, name: &str) -> Result<String, ApiError> {
    let name = names::check_display_name(name)?;
    // Look-alikes ("B0b"), and names equal but for case ("ian" for "Ian"), which the skeleton
    // may tell apart.
    let like = app
        .store
        .name_like(&names::skeleton(&name))
        .await
        .map_err(store_refusal)?;
    let same = like
        || app
            .store
            .player_named(&name.to_lowercase())
            .await
            .map_err(store_refusal)?
            .is_some();
    if same {
        // Taken, as an account's name would be: the request was fine, the name is not free.
        return Err(ApiError::new(
            ErrorCode::NameTaken,
            format!("{name:?} looks like the name of an account: choose another name, or log in"),
        ));
    }
    Ok(name)
}

fn check_password(password: &str, name: &str) -> Result<(), ApiError> {
    let len = password.chars().count() as u32;
    if !(PASSWORD_MIN..=PASSWORD_MAX).contains(&len) {
        return Err(ApiError::refused(RefusalDetail::PasswordLength {
            min: PASSWORD_MIN,
            max: PASSWORD_MAX,
        }));
    }
    if names::key(password) == names::key(name) {
        return Err(ApiError::refused(RefusalDetail::PasswordIsName));
    }
    Ok(())
}

/// The subjects one log-in attempt counts for: the name at the address, and the address.
fn attempt_subjects(name: &str, addr: &str) -> Vec<String> {
    vec![
        format!("name {} at {addr}", names::key(name)),
        format!("address {addr}"),
    ]
}

/// Counts a log-in attempt (before its password is checked, so attempts at once on any server
/// cannot pass the limit together), or refuses it when a limit is reached.
async fn count_attempt(app: &App, subjects: &[String]) -> Result<(), ApiError> {
    let now = app.config.clock.now_ms();
    let counts = app
        .store
        .count_login(subjects, now, ATTEMPT_WINDOW_MS)
        .await
        .map_err(store_refusal)?;
    let over = counts
        .iter()
        .zip([ATTEMPTS_PER_NAME_AT_ADDRESS, ATTEMPTS_PER_ADDRESS])
        .filter(|(c, most)| c.attempts > *most)
        .map(|(c, _)| c)
        .max_by_key(|c| c.since);
    if let Some(LoginCount { since, .. }) = over {
        let wait_ms = (since + ATTEMPT_WINDOW_MS - now).max(1000);
        return Err(ApiError {
            retry_after: Some(((wait_ms + 999) / 1000) as u64),
            ..ApiError::new(
                ErrorCode::RateLimited,
                "too many failed log-ins from this address: wait a quarter of an hour",
            )
        });
    }
    Ok(())
}

/// Checks a password in the pool, the attempt counted first: a right one takes its attempt
/// back, and so does one the pool was too busy to check.
async fn check_attempt(
    app: &App,
    subjects: &[String],
    password: String,
    stored: Option<String>,
) -> Result<bool, ApiError> {
    count_attempt(app, subjects).await?;
    let checked = app.config.passwords.verify(password, stored).await;
    if !matches!(checked, Ok(false)) {
        app.store
            .uncount_login(subjects)
            .await
            .map_err(store_refusal)?;
    }
    checked
}

/// The session cookie's value, if the request has one.
fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// A request that changes something on the strength of a cookie must come from a page of this
/// site: its `Origin` names the scheme and host this request reached (a browser always sends
/// it with such a request). The scheme is `X-Forwarded-Proto` as `client_addr::forwarded_proto`
/// set it (a page over plain http must not act for the https site).
pub fn check_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    let refuse = |why: &str| ApiError::new(ErrorCode::WrongOrigin, why.to_string());
    let origin = headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| refuse("a request with the session cookie needs an Origin header"))?;
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let scheme = headers
        .get(crate::client_addr::FORWARDED_PROTO)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("http");
    if host.is_empty() || !origin.eq_ignore_ascii_case(&format!("{scheme}://{host}")) {
        return Err(refuse(&format!(
            "the request comes from a page of another site, not from {scheme}://{host}"
        )));
    }
    Ok(())
}

/// The account a request's session cookie logs in, with the session's hash.
pub async fn current(app: &App, headers: &HeaderMap) -> Result<Option<(Player, String)>, ApiError> {
    let Some(token) = cookie(headers) else {
        return Ok(None);
    };
    let hash = secret::hash(&token);
    let since = app.config.clock.now_ms() - SESSION_MS;
    let player = app
        .store
        .session(&hash, since)
        .await
        .map_err(store_refusal)?;
    if let Some(p) = &player {
        app.note_seen(&p.id).await;
    }
    Ok(player.map(|p| (p, hash)))
}

/// A request that opens a session (signing up, logging in): counted per address, and refused
/// if it names another site as its origin (a page there must not log a player into an account
/// of its choosing).
fn opening(app: &App, addr: &str, headers: &HeaderMap) -> Result<(), ApiError> {
    app.limiters.check_account(addr)?;
    if headers.contains_key(header::ORIGIN) {
        check_origin(headers)?;
    }
    Ok(())
}

/// The logged-in account of a request that its password confirms (a new password, deleting
/// the account): counted per address, its origin checked.
async fn confirmed(
    app: &App,
    addr: &str,
    headers: &HeaderMap,
    password: String,
) -> Result<Player, ApiError> {
    app.limiters.check_account(addr)?;
    let (player, _) = logged_in(app, headers).await?;
    let subjects = attempt_subjects(&player.name, addr);
    if !check_attempt(app, &subjects, password, Some(player.password.clone())).await? {
        return Err(ApiError::new(ErrorCode::WrongLogin, "wrong password"));
    }
    Ok(player)
}

/// The account of a request that must be logged in, after its origin is checked.
pub(crate) async fn logged_in(
    app: &App,
    headers: &HeaderMap,
) -> Result<(Player, String), ApiError> {
    let who = current(app, headers)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "this needs you to be logged in"))?;
    check_origin(headers)?;
    Ok(who)
}

fn set_cookie(app: &App, value: &str, max_age_s: i64) -> HeaderValue {
    let secure = if app.config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}{secure}"
    ))
    .expect("a cookie of ASCII")
}

/// Opens a session for `player`: the answer's cookie logs this browser in.
async fn log_in(app: &App, player: &Player, status: StatusCode) -> Result<Response, ApiError> {
    let token = secret::random_hex(32);
    let now = app.config.clock.now_ms();
    app.store
        .open_session(&secret::hash(&token), &player.id, now)
        .await
        .map_err(store_refusal)?;
    let mut response = (status, Json(Me::account(&player.name))).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        set_cookie(app, &token, SESSION_MS / 1000),
    );
    Ok(response)
}

fn logged_out(app: &App) -> Response {
    let mut response = Json(Me::guest()).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, set_cookie(app, "", 0));
    response
}

/// Signs up and logs in.
#[utoipa::path(post, path = "/api/players", request_body = Credentials,
    responses((status = 201, body = Me, description = "signed up and logged in: the answer sets the session cookie"),
              (status = 400, body = ErrorBody, description = "the name or the password breaks a rule of `Credentials` (`bad_request`, its `detail` says which)"),
              (status = 409, body = ErrorBody, description = "the name is taken, in any case (`name_taken`)"),
              (status = 429, body = ErrorBody, description = "too many account requests from this address (`rate_limited`)"),
              (status = 503, body = ErrorBody, description = "too many passwords to hash right now: try again after Retry-After (`busy`)")))]
pub async fn sign_up(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(req): Body<Credentials>,
) -> Result<Response, ApiError> {
    opening(&app, &addr, &headers)?;
    let names::AccountName { name, key } = names::check_name(&req.name)?;
    check_password(&req.password, &name)?;
    // A taken name, or one that looks like it, costs no hash (the insert below still settles
    // a race for a free one).
    let taken = || {
        ApiError::new(
            ErrorCode::NameTaken,
            format!("the name {name:?} is taken, or looks like one that is"),
        )
    };
    let skeleton = names::skeleton(&key);
    if app
        .store
        .name_like(&skeleton)
        .await
        .map_err(store_refusal)?
        || app
            .store
            .player_named(&key)
            .await
            .map_err(store_refusal)?
            .is_some()
    {
        return Err(taken());
    }
    let player = Player {
        id: secret::random_hex(12),
        name: name.clone(),
        password: app.config.passwords.hash(req.password.clone()).await?,
        created_at: app.config.clock.now_ms(),
    };
    let new = NewPlayer {
        id: player.id.clone(),
        name: player.name.clone(),
        skeleton,
        key,
        password: player.password.clone(),
        created_at: player.created_at,
    };
    match app.store.sign_up(&new).await {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => return Err(taken()),
        Err(e) => return Err(store_refusal(e)),
    }
    log_in(&app, &player, StatusCode::CREATED).await
}

/// Logs in with a name and a password.
#[utoipa::path(post, path = "/api/session", request_body = Credentials,
    responses((status = 200, body = Me, description = "logged in: the answer sets the session cookie"),
              (status = 401, body = ErrorBody, description = "a wrong name or password, one answer for both (`wrong_login`)"),
              (status = 429, body = ErrorBody, description = "too many failed log-ins for this name from this address, or from this address (`rate_limited`)"),
              (status = 503, body = ErrorBody, description = "too many passwords to check right now: try again after Retry-After (`busy`)")))]
pub async fn session(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(req): Body<Credentials>,
) -> Result<Response, ApiError> {
    opening(&app, &addr, &headers)?;
    let wrong = || ApiError::new(ErrorCode::WrongLogin, "wrong name or password");
    if req.name.chars().count() > LONGEST_TYPED_NAME {
        return Err(wrong());
    }
    let key = names::key(&req.name);
    if key.chars().count() > LONGEST_NAME {
        return Err(wrong());
    }
    let player = app.store.player_named(&key).await.map_err(store_refusal)?;
    // A name no account has is checked against a stand-in hash all the same: the same work,
    // the same time, the same answer as a wrong password.
    let stored = player.as_ref().map(|p| p.password.clone());
    let subjects = attempt_subjects(&key, &addr);
    let right = check_attempt(&app, &subjects, req.password, stored).await?;
    match player {
        Some(p) if right => log_in(&app, &p, StatusCode::OK).await,
        _ => Err(wrong()),
    }
}

/// Logs this browser out.
#[utoipa::path(delete, path = "/api/session",
    responses((status = 200, body = Me, description = "logged out: the answer clears the cookie")))]
pub async fn log_out(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some((_, hash)) = current(&app, &headers).await? {
        check_origin(&headers)?;
        app.store
            .close_session(&hash)
            .await
            .map_err(store_refusal)?;
    }
    Ok(logged_out(&app))
}

/// Logs the account out on every device.
#[utoipa::path(delete, path = "/api/sessions",
    responses((status = 200, body = Me, description = "every session of the account is closed"),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)")))]
pub async fn log_out_everywhere(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (player, _) = logged_in(&app, &headers).await?;
    end_sessions(&app, &player).await?;
    Ok(logged_out(&app))
}

/// Closes every session of the account and revokes its seats' tokens; the games whose seats
/// changed are announced (a socket on a revoked token hears of it, other servers see the
/// new `rev`).
async fn end_sessions(app: &App, player: &Player) -> Result<(), ApiError> {
    let changed = app
        .store
        .close_sessions(&player.id)
        .await
        .map_err(store_refusal)?;
    app.announce(&changed, "").await;
    Ok(())
}

/// Who this browser is: an account, or a guest.
#[utoipa::path(get, path = "/api/me", responses((status = 200, body = Me)))]
pub async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Json<Me>, ApiError> {
    Ok(Json(match current(&app, &headers).await? {
        Some((p, _)) => Me::account(&p.name),
        None => Me::guest(),
    }))
}

/// A new password: every other session is closed, this browser stays logged in.
#[utoipa::path(put, path = "/api/me/password", request_body = PasswordChange,
    responses((status = 200, body = Me, description = "the password is changed; the answer sets a new session cookie"),
              (status = 401, body = ErrorBody, description = "not logged in, or a wrong password (`not_logged_in`, `wrong_login`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)")))]
pub async fn change_password(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(req): Body<PasswordChange>,
) -> Result<Response, ApiError> {
    let player = confirmed(&app, &addr, &headers, req.password).await?;
    check_password(&req.new_password, &player.name)?;
    let hash = app.config.passwords.hash(req.new_password).await?;
    app.store
        .set_password(&player.id, &hash)
        .await
        .map_err(store_refusal)?;
    end_sessions(&app, &player).await?;
    log_in(&app, &player, StatusCode::OK).await
}

/// Deletes the account (its password confirms it): finished games keep a "deleted player".
#[utoipa::path(delete, path = "/api/me", request_body = Confirmation,
    responses((status = 200, body = Me, description = "the account is deleted and this browser logged out"),
              (status = 401, body = ErrorBody, description = "not logged in, or a wrong password (`not_logged_in`, `wrong_login`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)")))]
pub async fn delete_account(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(req): Body<Confirmation>,
) -> Result<Response, ApiError> {
    let player = confirmed(&app, &addr, &headers, req.password).await?;
    let changed = app
        .store
        .delete_player(&player.id, app.config.clock.now_ms())
        .await
        .map_err(store_refusal)?;
    // Its games show a deleted player from now on, and its seats' tokens are revoked (other
    // servers see their new `rev`; this one's sockets hear of it now).
    app.announce(&changed, "").await;
    Ok(logged_out(&app))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_read_among_others() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; sagani_session=abc ; b=2"),
        );
        assert_eq!(cookie(&h).as_deref(), Some("abc"));
        h.insert(header::COOKIE, HeaderValue::from_static("sagani_session="));
        assert_eq!(cookie(&h), None);
    }

    #[test]
    fn origins_must_name_this_host() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("play.example:8080"));
        assert!(check_origin(&h).is_err());
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert!(check_origin(&h).is_err());
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://play.example:8080"),
        );
        assert!(check_origin(&h).is_ok());
        // The scheme counts too: a page over http does not act for the https site.
        h.insert(
            crate::client_addr::FORWARDED_PROTO,
            HeaderValue::from_static("https"),
        );
        assert!(check_origin(&h).is_err());
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://play.example:8080"),
        );
        assert!(check_origin(&h).is_ok());
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://play.example:8080.evil.example"),
        );
        assert!(check_origin(&h).is_err());
    }
}
