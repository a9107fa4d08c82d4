//! The HTTP API: thin handlers that read the request, ask `App`, and answer JSON.

use crate::api::{
    ChatLineInfo, ChatLines, ChatQuery, ChatRequest, ChatSchema, CreateGame, Created, GameState,
    Health, JoinRequest, Joined, Lobby, LobbyEntry, MoveList, MoveRequest, MoveResult,
    PreviewRequest, PreviewResult, Ready, TileArrow, TileInfo, Tiles,
};
use crate::app::chat::Say;
use crate::app::history::{self, History};
use crate::app::{store_refusal, App};
use crate::client_addr::ClientAddr;
use crate::daily;
use crate::error::{ApiError, Body, ErrorBody, ErrorCode, Params};
use crate::secret;
use crate::table::seat_infos;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::sync::Arc;

type AppState = State<Arc<App>>;

/// The bearer token that `what` needs.
fn seat_token(headers: &HeaderMap, what: &str) -> Result<String, ApiError> {
    crate::asker::bearer(headers)?.ok_or_else(|| {
        ApiError::new(
            ErrorCode::MissingToken,
            format!("{what} needs the seat's token (Authorization: Bearer <token>)"),
        )
    })
}

/// The server is up; with the number of stored games and of those not over, as last counted
/// in the background (the answer never waits for the database).
#[utoipa::path(get, path = "/healthz", responses((status = 200, body = Health)))]
pub async fn healthz(State(app): AppState) -> Json<Health> {
    // From memory: a health check must cost the same whatever the number of stored games.
    let counts = app.census();
    Json(Health {
        status: "ok".into(),
        games: counts.map(|c| c.games),
        open: counts.map(|c| c.open),
    })
}

/// Ready for traffic: the database answers.
#[utoipa::path(get, path = "/readyz", responses((status = 200, body = Ready)))]
pub async fn readyz(State(app): AppState) -> Result<Json<Ready>, ApiError> {
    app.store.ping().await.map_err(store_refusal)?;
    Ok(Json(Ready {
        status: "ready".into(),
    }))
}

/// The 72 tiles as printed, from the engine's table.
#[utoipa::path(get, path = "/api/tiles", responses((status = 200, body = Tiles)))]
pub async fn tiles() -> Json<Tiles> {
    Json(tile_table())
}

/// The tile table `/api/tiles` answers (the page's shell carries it too: `install.rs`).
pub(crate) fn tile_table() -> Tiles {
    Tiles {
        tiles: sagani_core::TILES
            .iter()
            .map(|t| {
                let arrows = |rot| {
                    t.placed_arrows(rot)
                        .map(|(d, e)| TileArrow {
                            direction: d,
                            element: e,
                        })
                        .collect()
                };
                TileInfo {
                    id: t.id,
                    element: t.element,
                    value: t.value(),
                    arrows: arrows(0),
                    rotations: (0..4).map(arrows).collect(),
                }
            })
            .collect(),
    }
}

/// Public games that are not over, newest first (at most 100).
#[utoipa::path(get, path = "/api/games", responses((status = 200, body = Lobby)))]
pub async fn lobby(State(app): AppState) -> Result<Json<Lobby>, ApiError> {
    let listed = app.store.lobby(100).await.map_err(store_refusal)?;
    let games = listed
        .into_iter()
        .map(|g| LobbyEntry {
            game: g.id,
            variant: g.variant,
            players: g.seats.len() as u8,
            status: g.status.into(),
            version: g.version,
            seats: seat_infos(&g.seats),
            created_at: g.created_at,
            host: g.host,
            rated: g.rated,
            clock: g.clock,
        })
        .collect();
    Ok(Json(Lobby { games }))
}

/// Creates a game; the answer holds one invite per human seat.
#[utoipa::path(post, path = "/api/games", request_body = CreateGame,
    responses((status = 201, body = Created),
              (status = 409, body = ErrorBody, description = "a display name that looks like an account's (`name_taken`)"),
              (status = 429, body = ErrorBody, description = "this address has too many games that are not over (`too_many_games`)")))]
pub async fn create(
    State(app): AppState,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(req): Body<CreateGame>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let host = crate::accounts::claimer(&app, &headers, req.name.as_deref())
        .await?
        .name;
    let created = app.create(req, addr, host).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Claims a seat with its invite code (or a free seat of a public game). With the session
/// cookie, the seat belongs to the account (and the request must come from this site).
#[utoipa::path(post, path = "/api/games/{id}/join", request_body = JoinRequest,
    params(("id" = String, Path, description = "game id")),
    responses((status = 200, body = Joined),
              (status = 400, body = ErrorBody, description = "a display name out of bounds (`bad_request`)"),
              (status = 403, body = ErrorBody, description = "an invite of no seat here, or a seat number in a private game (`wrong_invite`); a rated game's seat without an account (`account_needed`); the cookie from another site (`wrong_origin`)"),
              (status = 409, body = ErrorBody, description = "the seat is claimed or a bot's (`seat_taken`); a display name that looks like an account's (`name_taken`)"),
              (status = 429, body = ErrorBody, description = "too many claims from this address (`rate_limited`)")))]
pub async fn join(
    State(app): AppState,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<JoinRequest>,
) -> Result<Json<Joined>, ApiError> {
    app.limiters.check_claim(&addr)?;
    let who = crate::accounts::claimer(&app, &headers, req.name.as_deref()).await?;
    Ok(Json(app.join(&id, req, who).await?))
}

/// The game as the token's seat sees it (as a spectator without a token).
#[utoipa::path(get, path = "/api/games/{id}",
    params(("id" = String, Path, description = "game id")),
    security((), ("seat_token" = [])),
    responses((status = 200, body = GameState),
              (status = 401, body = ErrorBody, description = "a malformed Authorization header (`missing_token`)"),
              (status = 403, body = ErrorBody, description = "a token that holds no seat here (`wrong_token`); a spectator of someone else's daily game before its day is over (`history_hidden`)")))]
pub async fn state(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    let token = crate::asker::bearer(&headers)?;
    let (table, st) = app.fresh(&id, None).await?;
    let you = st.who(token.as_deref())?;
    if you.is_none() && !crate::asker::history_visible(&app, &headers, &st).await? {
        return Err(daily::hidden());
    }
    Ok(Json(st.state_for(&table.id, you, app.now_ms())))
}

/// Plays a move for the token's seat.
#[utoipa::path(post, path = "/api/games/{id}/moves", request_body = MoveRequest,
    params(("id" = String, Path, description = "game id")),
    security(("seat_token" = [])),
    responses((status = 200, body = MoveResult),
              (status = 401, body = ErrorBody, description = "no token (`missing_token`)"),
              (status = 403, body = ErrorBody, description = "a token that holds no seat here (`wrong_token`)"),
              (status = 409, body = ErrorBody, description = "`stale_version`, `not_your_turn`, `game_over`"),
              (status = 422, body = ErrorBody, description = "an illegal move, with the engine's reason (`illegal_move`)"),
              (status = 429, body = ErrorBody, description = "too many moves per second (`rate_limited`)")))]
pub async fn play(
    State(app): AppState,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<MoveRequest>,
) -> Result<Json<MoveResult>, ApiError> {
    let token = seat_token(&headers, "a move")?;
    let token_hash = secret::hash(&token);
    app.limiters.check_move(&token_hash, &addr)?;
    let played = app.play(&id, token_hash, req.version, req.mv).await?;
    Ok(Json(MoveResult {
        applied: played.applied,
        state: played.state,
    }))
}

/// A new game with the same seats, once this one is over: the same bots, each person in the
/// same seat with the same token. Asking again gives the same game; the old game's state names
/// it (`rematch`) for everyone.
#[utoipa::path(post, path = "/api/games/{id}/rematch",
    params(("id" = String, Path, description = "the finished game's id")),
    security(("seat_token" = [])),
    responses((status = 200, body = Created, description = "the rematch (invites only for seats nobody had claimed)"),
              (status = 401, body = ErrorBody, description = "no token (`missing_token`)"),
              (status = 403, body = ErrorBody, description = "a token that holds no seat here (`wrong_token`)"),
              (status = 409, body = ErrorBody, description = "the game is not over (`game_in_progress`)"),
              (status = 429, body = ErrorBody, description = "this address has too many games that are not over (`too_many_games`)")))]
pub async fn rematch(
    State(app): AppState,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Created>, ApiError> {
    let token = seat_token(&headers, "a rematch")?;
    Ok(Json(app.rematch(&id, secret::hash(&token), addr).await?))
}

/// What a placement by the player to act would do.
#[utoipa::path(post, path = "/api/games/{id}/preview", request_body = PreviewRequest,
    params(("id" = String, Path, description = "game id")),
    security((), ("seat_token" = [])),
    responses((status = 200, body = PreviewResult),
              (status = 403, body = ErrorBody, description = "someone else's daily game before its day is over (`history_hidden`)"),
              (status = 422, body = ErrorBody, description = "not a placement the player to act may make (`illegal_move`)")))]
pub async fn preview(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<PreviewRequest>,
) -> Result<Json<PreviewResult>, ApiError> {
    let (_, st) = app.fresh(&id, None).await?;
    // A daily game's position is its player's: a preview would tell its revealed tile.
    if !crate::asker::history_visible(&app, &headers, &st).await? {
        return Err(daily::hidden());
    }
    let preview = st
        .game
        .game()
        .preview(req.mv)
        .map_err(|e| ApiError::illegal(&e))?;
    Ok(Json(PreviewResult { preview }))
}

/// The moves played so far, in order: all of them public (the record, with the deck, waits for
/// the end), but a daily challenge's, which are its player's until the day is over (the seat's
/// token or the account's session shows them).
#[utoipa::path(get, path = "/api/games/{id}/moves",
    params(("id" = String, Path, description = "game id")),
    security((), ("seat_token" = [])),
    responses((status = 200, body = MoveList),
              (status = 403, body = ErrorBody, description = "someone else's daily game before its day is over (`history_hidden`)")))]
pub async fn moves(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<MoveList>, ApiError> {
    let viewer = crate::asker::viewer(&app, &headers, None).await?;
    let (_, st) = app.fresh(&id, None).await?;
    history::check(&st, &viewer, History::Moves, app.now_ms())?;
    Ok(Json(MoveList {
        moves: st.moves_since(0),
    }))
}

/// The record of a finished game (RECORD.md); refused while it is in progress, and a daily
/// challenge's to anyone but its player until the day is over.
#[utoipa::path(get, path = "/api/games/{id}/record",
    params(("id" = String, Path, description = "game id")),
    security((), ("seat_token" = [])),
    responses((status = 200, description = "the game record (RECORD.md)", content_type = "application/json"),
              (status = 403, body = ErrorBody, description = "someone else's daily game before its day is over (`history_hidden`)"),
              (status = 409, body = ErrorBody, description = "the game is not over (`game_in_progress`)")))]
pub async fn record(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let viewer = crate::asker::viewer(&app, &headers, None).await?;
    let (table, st) = app.fresh(&id, None).await?;
    history::check(&st, &viewer, History::Record, app.now_ms())?;
    // Who played each seat, the clock, who left to a bot, and why a game ended early: notes
    // RECORD.md describes, which readers ignore.
    let names = crate::table::record_names(&st.seats);
    let mut extra = vec![("names", serde_json::json!(names))];
    if !st.clock.is_none() {
        extra.push(("clock", serde_json::json!(st.clock)));
    }
    let left: Vec<serde_json::Value> = st
        .seat_infos()
        .into_iter()
        .filter_map(|s| {
            let r = s.replaced?;
            Some(serde_json::json!({
                "seat": s.seat,
                "reason": r.reason,
                "version": r.version,
                "bot": r.bot,
            }))
        })
        .collect();
    if !left.is_empty() {
        extra.push(("left", serde_json::json!(left)));
    }
    if let Some(ended) = st.ended {
        extra.push(("ended", serde_json::json!(ended.name())));
    }
    if let Some(d) = &st.daily {
        extra.push(("daily", serde_json::json!({ "day": d.day, "par": d.par })));
    }
    let body = st.game.record().to_json_with(&extra);
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"sagani-{}.json\"", table.id),
            ),
        ],
        body,
    )
        .into_response())
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("no such page or API route")
}

pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        ErrorCode::MethodNotAllowed,
        "this route does not take that method (see /api/openapi.json)",
    )
}

/// Who acts for a seat in a request: the seat's token (`Authorization: Bearer`), else an
/// account's session cookie (from a page of this site).
async fn seat_holder(
    app: &App,
    headers: &HeaderMap,
    what: &str,
) -> Result<(Option<String>, Option<String>), ApiError> {
    if let Some(token) = crate::asker::bearer(headers)? {
        return Ok((Some(secret::hash(&token)), None));
    }
    if let Some((player, _)) = crate::accounts::current(app, headers).await? {
        crate::accounts::check_origin(headers)?;
        return Ok((None, Some(player.id)));
    }
    Err(ApiError::new(
        ErrorCode::MissingToken,
        format!("{what} needs the seat's token (Authorization: Bearer <token>) or the account's session"),
    ))
}

/// Resigns the seat: a bot (greedy unless the server says otherwise) plays it from now on and
/// the others play on; the player is ranked last in a rated game. A solo game ends.
#[utoipa::path(post, path = "/api/games/{id}/resign",
    params(("id" = String, Path, description = "game id")),
    security(("seat_token" = [])),
    responses((status = 200, body = GameState, description = "the game as the seat sees it now"),
              (status = 401, body = ErrorBody, description = "no token nor session (`missing_token`)"),
              (status = 403, body = ErrorBody, description = "a token or account that holds no seat here (`wrong_token`)"),
              (status = 409, body = ErrorBody, description = "the game is over (`game_over`), or a bot plays the seat already (`seat_left`)")))]
pub async fn resign(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    let (token_hash, player) = seat_holder(&app, &headers, "resigning").await?;
    Ok(Json(app.resign(&id, token_hash, player).await?))
}

/// Cancels a game its creator made, while nobody else has joined it: it ends at once and no
/// longer counts against the creator's open games.
#[utoipa::path(post, path = "/api/games/{id}/cancel",
    params(("id" = String, Path, description = "game id")),
    security(("seat_token" = [])),
    responses((status = 200, body = GameState, description = "the game, ended as `cancelled`"),
              (status = 401, body = ErrorBody, description = "no token (`missing_token`)"),
              (status = 403, body = ErrorBody, description = "a token that holds no seat here (`wrong_token`)"),
              (status = 409, body = ErrorBody, description = "someone else joined, or it is over (`game_started`)")))]
pub async fn cancel(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    let token = seat_token(&headers, "cancelling a game")?;
    Ok(Json(app.cancel(&id, secret::hash(&token)).await?))
}

/// Writes a line in the game's chat for the seat (token or account): `text` (1–300
/// characters, one line) or a quick `phrase` (`hello`, `good_luck`, `good_game`, `thanks`,
/// `well_played`), which each reader sees in their language.
#[utoipa::path(post, path = "/api/games/{id}/chat", request_body = ChatSchema,
    params(("id" = String, Path, description = "game id")),
    security(("seat_token" = [])),
    responses((status = 201, body = ChatLineInfo),
              (status = 400, body = ErrorBody, description = "empty, too long, several lines, or an unknown phrase (`bad_request`)"),
              (status = 401, body = ErrorBody, description = "neither a seat's token nor an account's session (`missing_token`)"),
              (status = 403, body = ErrorBody, description = "a token or account that holds no seat here (`wrong_token`)"),
              (status = 429, body = ErrorBody, description = "too many lines (`rate_limited`)")))]
pub async fn say(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<ChatRequest>,
) -> Result<(StatusCode, Json<ChatLineInfo>), ApiError> {
    let (token_hash, player) = seat_holder(&app, &headers, "writing in the chat").await?;
    let say = match (req.text, req.phrase) {
        (Some(t), None) => Say::Text(t),
        (None, Some(p)) => Say::Phrase(p),
        _ => return Err(ApiError::bad_request("give either `text` or `phrase`")),
    };
    let line = app.say(&id, token_hash, player, say).await?;
    Ok((StatusCode::CREATED, Json(ChatLineInfo::from(line))))
}

/// The game's chat, oldest first: up to 200 lines from number `from` (default 0) on.
#[utoipa::path(get, path = "/api/games/{id}/chat",
    params(("id" = String, Path, description = "game id"),
           ("from" = Option<u64>, Query, minimum = 0, description = "the first line's number")),
    responses((status = 200, body = ChatLines)))]
pub async fn chat(
    State(app): AppState,
    Path(id): Path<String>,
    Params(q): Params<ChatQuery>,
) -> Result<Json<ChatLines>, ApiError> {
    let lines = app.chat_lines(&id, q.from.unwrap_or(0), 200).await?;
    Ok(Json(ChatLines {
        lines: lines.into_iter().map(ChatLineInfo::from).collect(),
    }))
}

/// The server's metrics, for Prometheus.
#[utoipa::path(get, path = "/metrics",
    operation_id = "page", responses((status = 200, description = "OpenMetrics text", content_type = "application/openmetrics-text")))]
pub async fn metrics_page(State(app): State<Arc<App>>) -> Response {
    // Gauges of what is in memory now, read as they are asked for.
    app.metrics.set_games_live(app.games_live() as usize);
    app.metrics.bot_queued(app.bot_queue());
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        app.metrics.render(),
    )
        .into_response()
}
