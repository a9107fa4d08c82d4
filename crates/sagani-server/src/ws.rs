//! Live updates: a WebSocket per game and watcher. It sends the full state for the watcher's
//! seat (or as a spectator) on connect and after every change, so a reconnect needs nothing
//! else.

use crate::api::Update;
use crate::app::App;
use crate::error::ApiError;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

#[derive(Deserialize)]
pub struct WsQuery {
    /// The seat token; without it the socket watches as a spectator.
    token: Option<String>,
}

/// Live updates for a seat (`?token=`) or a spectator. Every message is `Update` JSON.
#[utoipa::path(get, path = "/api/games/{id}/ws",
    params(("id" = String, Path, description = "game id"),
           ("token" = Option<String>, Query, description = "the seat token; absent for a spectator")),
    responses((status = 101, description = "WebSocket; each message is an Update", body = crate::api::Update),
              (status = 403, body = crate::error::ErrorBody)))]
pub async fn connect(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<WsQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let upgrade = upgrade.map_err(|e| {
        ApiError::new(
            e.status(),
            "bad_request",
            format!("{}: this route is a WebSocket", e.body_text()),
        )
    })?;
    let seat = {
        let (_, st) = app.fresh(&id, None).await?;
        st.who(q.token.as_deref())?
    };
    let watcher = Watcher {
        app: app.clone(),
        id,
        seat: seat.map(|s| (s, crate::secret::hash(q.token.as_deref().unwrap_or("")))),
        sent: None,
    };
    Ok(upgrade
        // Clients have nothing to send but pongs and closes.
        .max_frame_size(4096)
        .max_message_size(4096)
        .on_upgrade(move |socket| watch(watcher, socket)))
}

struct Watcher {
    app: Arc<App>,
    id: String,
    /// The seat and its token's hash; `None` for a spectator.
    seat: Option<(u8, String)>,
    /// The version and `rev` of the last message sent.
    sent: Option<(u64, u64)>,
}

/// What a watcher does next.
enum Next {
    Send(Message),
    /// Nothing new since the last message.
    Nothing,
    /// The seat's token was revoked by a re-claim: this socket no longer speaks for it.
    Revoked,
}

impl Watcher {
    /// The state now (at least at `rev`, if a notification named it), with the moves since
    /// the last message (none in the first).
    async fn message(&mut self, rev: Option<u64>) -> Next {
        let st = match self.app.fresh(&self.id, rev).await {
            Ok((_, st)) => st,
            // The store is down for a moment: the next change or reconnect tells the rest.
            Err(_) => return Next::Nothing,
        };
        if let Some((seat, hash)) = &self.seat {
            if st.seat_of_hash(hash) != Some(*seat) {
                return Next::Revoked;
            }
        }
        if self.sent.is_some_and(|(_, r)| r == st.rev) {
            return Next::Nothing;
        }
        let update = Update {
            kind: "state".into(),
            state: st.state_for(&self.id, self.seat.as_ref().map(|s| s.0)),
            moves: self
                .sent
                .map_or_else(Vec::new, |(v, _)| st.moves_since(v)),
        };
        self.sent = Some((st.version(), st.rev));
        Next::Send(Message::Text(
            serde_json::to_string(&update)
                .expect("states serialise")
                .into(),
        ))
    }
}

async fn watch(mut watcher: Watcher, socket: WebSocket) {
    let (mut tx, mut rx) = socket.split();
    // Subscribe before the first state, so no change can fall between the two.
    let mut updates = watcher.app.hub.subscribe(&watcher.id);
    let Next::Send(first) = watcher.message(None).await else {
        return;
    };
    if tx.send(first).await.is_err() {
        return;
    }
    let mut keepalive = tokio::time::interval(Duration::from_secs(30));
    keepalive.tick().await;
    loop {
        tokio::select! {
            incoming = rx.next() => match incoming {
                // Clients have nothing to say here; moves go over HTTP.
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            update = updates.recv() => {
                let rev = match update {
                    Ok(rev) => rev,
                    // A watcher that fell behind gets the current state, which says it all.
                    Err(RecvError::Lagged(_)) => None,
                    Err(RecvError::Closed) => break,
                };
                match watcher.message(rev).await {
                    Next::Send(m) => {
                        if tx.send(m).await.is_err() {
                            break;
                        }
                    }
                    Next::Nothing => {}
                    Next::Revoked => {
                        let _ = tx.send(Message::Close(None)).await;
                        break;
                    }
                }
            },
            _ = keepalive.tick() => {
                if tx.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break;
                }
            }
        }
    }
}
