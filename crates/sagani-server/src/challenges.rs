//! The routes of challenges and follows between accounts: challenging an account by name, the
//! account's challenges, accepting, declining and withdrawing one; following and unfollowing,
//! the follows list with who is online, and whom the account takes challenges from. Every one
//! needs the session cookie (and one that changes something, a page of this site).

use crate::accounts::{current, logged_in};
use crate::app::App;
use crate::client_addr::ClientAddr;
use crate::error::{ApiError, Body, ErrorBody, ErrorCode};
use crate::store::{Closing, Player};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use std::sync::Arc;

pub use sagani_protocol::challenges::{
    ChallengeAccepted, ChallengeInfo, ChallengeList, ChallengeRequest, ChallengeSetting, FollowList,
};

type AppState = State<Arc<App>>;

/// The logged-in account of a request that only reads.
async fn reader(app: &App, headers: &HeaderMap) -> Result<Player, ApiError> {
    current(app, headers)
        .await?
        .map(|(p, _)| p)
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "this needs you to be logged in"))
}

/// The logged-in account of a request that changes something (its origin checked).
async fn writer(app: &App, headers: &HeaderMap) -> Result<Player, ApiError> {
    Ok(logged_in(app, headers).await?.0)
}

/// Challenges an account by name to a game of two. The challenged account gets a notice; the
/// challenge is open a day (a week with a turn-based clock) unless answered before.
#[utoipa::path(post, path = "/api/challenges", request_body = ChallengeRequest,
    responses((status = 201, body = ChallengeInfo, description = "the challenge is sent"),
              (status = 400, body = ErrorBody, description = "a clock out of bounds, a variant for one, or yourself (`bad_request`, its `detail` says which)"),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "the player takes challenges only from players they follow (`challenge_refused`); from a page of another site (`wrong_origin`)"),
              (status = 404, body = ErrorBody, description = "no player has that name (`not_found`)"),
              (status = 429, body = ErrorBody, description = "20 challenges of yours are open (`too_many_challenges`)")))]
pub async fn send(
    State(app): AppState,
    headers: HeaderMap,
    Body(req): Body<ChallengeRequest>,
) -> Result<(StatusCode, Json<ChallengeInfo>), ApiError> {
    let player = writer(&app, &headers).await?;
    let sent = app.send_challenge(&player, req).await?;
    Ok((StatusCode::CREATED, Json(sent)))
}

/// The account's open challenges to it (`incoming`) and its own (`outgoing`: open ones, and
/// those answered in the last day, an accepted one with its game and the account's seat).
#[utoipa::path(get, path = "/api/challenges",
    responses((status = 200, body = ChallengeList),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)")))]
pub async fn list(
    State(app): AppState,
    headers: HeaderMap,
) -> Result<Json<ChallengeList>, ApiError> {
    let player = reader(&app, &headers).await?;
    Ok(Json(app.challenge_list(&player).await?))
}

/// Accepts a challenge to the account: the game is made with both accounts in their seats
/// (one game, whichever server accepts); the answer is the accepter's seat and its token. The
/// challenger takes their seat with `POST /api/games/{game}/join {"seat": 0}` and the cookie.
#[utoipa::path(post, path = "/api/challenges/{id}/accept",
    params(("id" = String, Path, description = "challenge id")),
    responses((status = 200, body = ChallengeAccepted),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)"),
              (status = 404, body = ErrorBody, description = "no challenge to this account has that id (`not_found`)"),
              (status = 409, body = ErrorBody, description = "it was declined, withdrawn or expired (`challenge_closed`)")))]
pub async fn accept(
    State(app): AppState,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ChallengeAccepted>, ApiError> {
    let player = writer(&app, &headers).await?;
    Ok(Json(app.accept_challenge(&id, player, addr).await?))
}

/// Declines a challenge to the account.
#[utoipa::path(post, path = "/api/challenges/{id}/decline",
    params(("id" = String, Path, description = "challenge id")),
    responses((status = 200, body = ChallengeInfo, description = "declined"),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)"),
              (status = 404, body = ErrorBody, description = "no challenge to this account has that id (`not_found`)"),
              (status = 409, body = ErrorBody, description = "it is no longer open (`challenge_closed`)")))]
pub async fn decline(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ChallengeInfo>, ApiError> {
    let player = writer(&app, &headers).await?;
    Ok(Json(
        app.close_challenge(&id, &player, Closing::Decline).await?,
    ))
}

/// Withdraws a challenge of the account's.
#[utoipa::path(delete, path = "/api/challenges/{id}",
    params(("id" = String, Path, description = "challenge id")),
    responses((status = 200, body = ChallengeInfo, description = "withdrawn"),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)"),
              (status = 404, body = ErrorBody, description = "no challenge of this account has that id (`not_found`)"),
              (status = 409, body = ErrorBody, description = "it is no longer open (`challenge_closed`)")))]
pub async fn withdraw(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ChallengeInfo>, ApiError> {
    let player = writer(&app, &headers).await?;
    Ok(Json(
        app.close_challenge(&id, &player, Closing::Withdraw).await?,
    ))
}

/// Follows a player (again: nothing changes).
#[utoipa::path(put, path = "/api/follows/{name}",
    params(("name" = String, Path, description = "the account's name, in any case")),
    responses((status = 200, body = FollowList, description = "followed: whom the account follows now"),
              (status = 400, body = ErrorBody, description = "yourself (`bad_request`)"),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)"),
              (status = 404, body = ErrorBody, description = "no player has that name (`not_found`)")))]
pub async fn follow(
    State(app): AppState,
    ClientAddr(addr): ClientAddr,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<FollowList>, ApiError> {
    app.limiters.check_lookup(&addr)?;
    let player = writer(&app, &headers).await?;
    app.follow(&player, &name).await?;
    Ok(Json(app.follow_list(&player).await?))
}

/// Stops following a player.
#[utoipa::path(delete, path = "/api/follows/{name}",
    params(("name" = String, Path, description = "the account's name, in any case")),
    responses((status = 200, body = FollowList, description = "not followed (any more): whom the account follows now"),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)"),
              (status = 404, body = ErrorBody, description = "no player has that name (`not_found`)")))]
pub async fn unfollow(
    State(app): AppState,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<FollowList>, ApiError> {
    let player = writer(&app, &headers).await?;
    app.unfollow(&player, &name).await?;
    Ok(Json(app.follow_list(&player).await?))
}

/// Whom the account follows, each with whether it is online now (a request, logged in, in
/// the last two minutes), and whom it takes challenges from.
#[utoipa::path(get, path = "/api/follows",
    responses((status = 200, body = FollowList),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)")))]
pub async fn follows(
    State(app): AppState,
    headers: HeaderMap,
) -> Result<Json<FollowList>, ApiError> {
    let player = reader(&app, &headers).await?;
    Ok(Json(app.follow_list(&player).await?))
}

/// Whom the account takes challenges from: `everyone` (the default) or `followed` (players it
/// follows; a challenge from anyone else is refused with `challenge_refused`).
#[utoipa::path(put, path = "/api/me/challenges", request_body = ChallengeSetting,
    responses((status = 200, body = ChallengeSetting),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 403, body = ErrorBody, description = "from a page of another site (`wrong_origin`)")))]
pub async fn set_from(
    State(app): AppState,
    headers: HeaderMap,
    Body(req): Body<ChallengeSetting>,
) -> Result<Json<ChallengeSetting>, ApiError> {
    let player = writer(&app, &headers).await?;
    app.set_challenges_from(&player, req.from).await?;
    Ok(Json(req))
}
