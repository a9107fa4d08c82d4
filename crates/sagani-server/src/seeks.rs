//! Play now over HTTP: a seek made, read, cancelled, given bots; the pools' counts; and the
//! seek's WebSocket, which says when it is paired and cancels it when it closes.

use crate::api::{BotsInstead, SeekCreated, SeekPools, SeekRequest, SeekState, SeekStatusName};
use crate::app::seeks::{seek_channel, SEEN_WITHIN_MS};
use crate::app::App;
use crate::client_addr::ClientAddr;
use crate::error::{ApiError, Body, ErrorBody, ErrorCode, Params};
use crate::http::Stopping;
use crate::ws::{close, send, small_buffers, upgraded, OpenSockets, SocketOpen};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use futures_util::StreamExt;
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;

type AppState = State<Arc<App>>;

fn seek_token(headers: &HeaderMap) -> Result<String, ApiError> {
    crate::asker::bearer(headers)?.ok_or_else(|| {
        ApiError::new(
            ErrorCode::MissingToken,
            "a seek is read with its token (Authorization: Bearer <token>)",
        )
    })
}

/// Seeks a game now: it waits for partners with the same players, clock and `rated`, and is
/// paired as soon as enough wait (a rated one by rating, within a window that widens as it
/// waits). Keep it by polling `GET /api/seeks/{id}` or holding its WebSocket open: a seek
/// neither polled nor watched for a minute is dropped.
#[utoipa::path(post, path = "/api/seeks", request_body = SeekRequest,
    responses((status = 201, body = SeekCreated),
              (status = 400, body = ErrorBody, description = "players out of 2–4, a clock out of bounds or none (`bad_request`, its `detail` says which), `bots_after_s` with a rated seek or out of 10–3600"),
              (status = 403, body = ErrorBody, description = "a rated seek without an account (`account_needed`); the cookie from another site (`wrong_origin`)"),
              (status = 409, body = ErrorBody, description = "a guest's display name that looks like an account's (`name_taken`)"),
              (status = 429, body = ErrorBody, description = "too many seeks and claims from this address (`rate_limited`)")))]
pub async fn create(
    State(app): AppState,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(req): Body<SeekRequest>,
) -> Result<(StatusCode, Json<SeekCreated>), ApiError> {
    app.limiters.check_claim(&addr)?;
    let who = crate::accounts::claimer(&app, &headers, req.name.as_deref()).await?;
    let created = app.seek(req, who).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// How many seekers wait in each pool (players, clock, rated) that has one waiting.
#[utoipa::path(get, path = "/api/seeks", responses((status = 200, body = SeekPools)))]
pub async fn pools(State(app): AppState) -> Result<Json<SeekPools>, ApiError> {
    Ok(Json(app.seek_pools().await?))
}

/// Where the seek stands. A poll keeps a waiting seek; once paired, the answer holds the game
/// and the seat's token (the seek's token).
#[utoipa::path(get, path = "/api/seeks/{id}",
    params(("id" = String, Path, description = "seek id")),
    security(("seat_token" = [])),
    responses((status = 200, body = SeekState),
              (status = 401, body = ErrorBody, description = "no token (`missing_token`)"),
              (status = 403, body = ErrorBody, description = "not the seek's token (`wrong_token`)"),
              (status = 404, body = ErrorBody, description = "no such seek (`not_found`)")))]
pub async fn state(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<SeekState>, ApiError> {
    let token = seek_token(&headers)?;
    Ok(Json(app.seek_state(&id, &token).await?))
}

/// Cancels a seek that waits; a paired seek stays paired (its game is played). Answers where
/// it stands.
#[utoipa::path(delete, path = "/api/seeks/{id}",
    params(("id" = String, Path, description = "seek id")),
    security(("seat_token" = [])),
    responses((status = 200, body = SeekState),
              (status = 401, body = ErrorBody, description = "no token (`missing_token`)"),
              (status = 403, body = ErrorBody, description = "not the seek's token (`wrong_token`)"),
              (status = 404, body = ErrorBody, description = "no such seek (`not_found`)")))]
pub async fn cancel(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<SeekState>, ApiError> {
    let token = seek_token(&headers)?;
    Ok(Json(app.cancel_seek(&id, &token).await?))
}

/// Starts the seek's game with bots in the other seats, once its state offers them
/// (`bots_offered`: an unrated seek that waited `bots_after_s`).
#[utoipa::path(post, path = "/api/seeks/{id}/bots", request_body = BotsInstead,
    params(("id" = String, Path, description = "seek id")),
    security(("seat_token" = [])),
    responses((status = 200, body = SeekState, description = "paired: with the bots, or with people who came first"),
              (status = 400, body = ErrorBody, description = "bots not offered (yet, or ever: a rated seek), or a level out of 1–8 (`bad_request`)"),
              (status = 401, body = ErrorBody, description = "no token (`missing_token`)"),
              (status = 403, body = ErrorBody, description = "not the seek's token (`wrong_token`)"),
              (status = 404, body = ErrorBody, description = "no such seek (`not_found`)")))]
pub async fn bots(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<BotsInstead>,
) -> Result<Json<SeekState>, ApiError> {
    let token = seek_token(&headers)?;
    Ok(Json(app.bots_instead(&id, &token, req.level).await?))
}

#[derive(Deserialize)]
pub struct SeekQuery {
    /// The seek's token.
    token: String,
}

/// The seek's state now and whenever it changes (paired, cancelled, dropped), as `SeekState`
/// JSON; the server closes the socket (1000) once the seek no longer waits. While it is open
/// the seek is kept; closing it cancels a seek that still waits.
#[utoipa::path(get, path = "/api/seeks/{id}/ws",
    params(("id" = String, Path, description = "seek id"),
           ("token" = String, Query, description = "the seek's token"),
           ("Upgrade" = String, Header, description = "`websocket`"),
           ("Connection" = String, Header, description = "`Upgrade`"),
           ("Sec-WebSocket-Key" = String, Header, description = "the client's key (RFC 6455)"),
           ("Sec-WebSocket-Version" = String, Header, description = "`13`")),
    responses((status = 101, description = "Switching Protocols: the WebSocket; each message is a SeekState", body = SeekState),
              (status = 400, body = ErrorBody, description = "a malformed query (`bad_request`)"),
              (status = 403, body = ErrorBody, description = "not the seek's token (`wrong_token`)"),
              (status = 404, body = ErrorBody, description = "no such seek (`not_found`)"),
              (status = 426, body = ErrorBody, description = "a plain request, without the WebSocket upgrade (`not_a_websocket`)"),
              (status = 429, body = ErrorBody, description = "too many WebSockets open from this address (`rate_limited`)")))]
pub async fn socket(
    State(app): AppState,
    Path(id): Path<String>,
    ClientAddr(addr): ClientAddr,
    Extension(OpenSockets(sockets)): Extension<OpenSockets>,
    stopping: Option<Extension<Stopping>>,
    Params(q): Params<SeekQuery>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgraded(upgrade)?;
    app.own_seek(&id, &q.token).await?;
    let open = SocketOpen::take(&app, &sockets, &addr)?;
    let stopping = stopping.map(|Extension(s)| s).unwrap_or_default();
    Ok(small_buffers(upgrade).on_upgrade(move |socket| async move {
        wait(app, id, q.token, socket, stopping).await;
        drop(open);
    }))
}

/// How often an open socket looks at its seek without being told (a notification missed) and
/// keeps it.
const LOOK_AGAIN: Duration = Duration::from_secs(2);

async fn wait(app: Arc<App>, id: String, token: String, socket: WebSocket, stopping: Stopping) {
    let (mut tx, mut rx) = socket.split();
    // Subscribe before the first state, so no pairing can fall between the two.
    let mut heard = app.hub.subscribe(&seek_channel(&id));
    let mut look = tokio::time::interval(LOOK_AGAIN);
    let mut kept_ms: Option<i64> = None;
    let mut sent = None;
    loop {
        let state = match app.own_seek(&id, &token).await {
            Ok(seek) => {
                // The socket keeps the seek, written at most every third of the drop time.
                let now = app.now_ms();
                if seek.status == crate::store::SeekStatus::Waiting
                    && kept_ms.is_none_or(|k| now - k > SEEN_WITHIN_MS / 3)
                {
                    kept_ms = Some(now);
                    let _ = app.store.touch_seek(&id, now).await;
                }
                app.state_of(&seek, &token).await
            }
            Err(e) => Err(e),
        };
        let Ok(state) = state else {
            close(
                &mut tx,
                close_code::ERROR,
                "the seek could not be read; reconnect",
                &stopping,
            )
            .await;
            return;
        };
        let done = state.status != SeekStatusName::Waiting;
        if sent.as_ref() != Some(&state) {
            let text = serde_json::to_string(&state).expect("seek states serialise");
            if !send(&mut tx, Message::Text(text.into()), &stopping).await {
                break;
            }
            sent = Some(state);
        }
        if done {
            close(
                &mut tx,
                close_code::NORMAL,
                "the seek no longer waits",
                &stopping,
            )
            .await;
            return;
        }
        tokio::select! {
            () = stopping.0.cancelled() => {
                close(&mut tx, close_code::AWAY, "server stopping", &stopping).await;
                // The seeker reconnects elsewhere: the seek stays.
                return;
            }
            incoming = rx.next() => match incoming {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            _ = heard.recv() => {}
            _ = look.tick() => {}
        }
    }
    // The seeker closed the socket: a seek that still waits is cancelled.
    if app
        .store
        .cancel_seek(&id, app.now_ms())
        .await
        .unwrap_or(false)
    {
        app.hub.publish(&seek_channel(&id), None);
    }
}
