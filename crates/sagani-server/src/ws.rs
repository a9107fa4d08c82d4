//! Live updates: a WebSocket per game and watcher. It sends the full state for the watcher's
//! seat (or as a spectator) on connect and after every change, so a reconnect needs nothing
//! else. A socket becomes a seat's by `?token=` or by an `auth` message (the token then never
//! appears in a URL).

use crate::api::{ClientMessage, ServerMessage, Update, WsError};
use crate::app::App;
use crate::client_addr::ClientAddr;
use crate::error::{ApiError, ErrorCode, Params};
use crate::http::Stopping;
use crate::metrics::Metrics;
use crate::per_address::{PerAddress, Slot};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, State};
use axum::response::Response;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// The longest a close frame may take to leave when the server stops.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// The close code of a socket whose seat was claimed again (by its invite, or by the account on
/// another device): the token it spoke for holds no seat any more. Codes 4000 to 4999 are the
/// application's own (RFC 6455, 7.4.2); a client should not reconnect with that token.
pub const SEAT_CLAIMED_AGAIN: u16 = 4001;

#[derive(Deserialize)]
pub struct WsQuery {
    /// The seat token; without it the socket watches as a spectator.
    token: Option<String>,
}

/// Live updates for a seat or a spectator. Every message is `Update` JSON.
/// A WebSocket (RFC 6455), not a plain GET: the request must ask for the upgrade. The server
/// sends an `Update` (JSON text) on connecting and after every change. A client may send
/// `{"type":"auth","token":…}` (a `ClientMessage`) to watch as that seat: a state for the seat
/// follows at once, or, for a token that holds no seat here, a `WsError` (`wrong_token`) and
/// the socket closes (1008). `?token=` does the same before the upgrade (403 if wrong). Other
/// client messages are ignored. Every close by the server has a code and a reason saying why:
/// 4001 when the seat was claimed again elsewhere (the token is revoked), 1008 for a wrong
/// token, 1011 when the game could not be read (reconnect), 1001 when the server stops.
#[utoipa::path(get, path = "/api/games/{id}/ws",
    params(("id" = String, Path, description = "game id"),
           ("token" = Option<String>, Query, description = "the seat token; absent for a spectator"),
           ("Upgrade" = String, Header, description = "`websocket`"),
           ("Connection" = String, Header, description = "`Upgrade`"),
           ("Sec-WebSocket-Key" = String, Header, description = "the client's key (RFC 6455)"),
           ("Sec-WebSocket-Version" = String, Header, description = "`13`")),
    responses((status = 101, description = "Switching Protocols: the WebSocket; each message is an Update (or a WsError before the server closes it)", body = crate::api::Update),
              (status = 400, body = crate::error::ErrorBody, description = "a malformed query (`bad_request`)"),
              (status = 403, body = crate::error::ErrorBody, description = "a token that holds no seat here (`wrong_token`)"),
              (status = 426, body = crate::error::ErrorBody, description = "a plain request, without the WebSocket upgrade (`not_a_websocket`)"),
              (status = 429, body = crate::error::ErrorBody, description = "too many WebSockets open from this address (`rate_limited`)")))]
pub async fn connect(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ClientAddr(addr): ClientAddr,
    Extension(OpenSockets(sockets)): Extension<OpenSockets>,
    stopping: Option<Extension<Stopping>>,
    Params(q): Params<WsQuery>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgraded(upgrade)?;
    let seat = {
        let (_, st) = app.fresh(&id, None).await?;
        st.who(q.token.as_deref())?
    };
    let open = SocketOpen::take(&app, &sockets, &addr)?;
    let watcher = Watcher {
        app: app.clone(),
        seat: seat.map(|s| (s, crate::secret::hash(q.token.as_deref().unwrap_or("")))),
        spectating: None,
        id,
        sent: None,
    };
    let stopping = stopping.map(|Extension(s)| s).unwrap_or_default();
    Ok(small_buffers(upgrade).on_upgrade(move |socket| async move {
        watch(watcher, socket, stopping).await;
        drop(open);
    }))
}

/// The upgrade a WebSocket route asks for; a plain request is `not_a_websocket`.
pub(crate) fn upgraded(
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<WebSocketUpgrade, ApiError> {
    upgrade.map_err(|e| {
        ApiError::new(
            ErrorCode::NotAWebsocket,
            format!("{}: this route is a WebSocket", e.body_text()),
        )
    })
}

/// Clients have nothing to send but pongs and closes: small read buffers (tungstenite's
/// default is 128 KiB a socket), and messages written out at once, not gathered.
pub(crate) fn small_buffers(upgrade: WebSocketUpgrade) -> WebSocketUpgrade {
    upgrade
        .max_frame_size(4096)
        .max_message_size(4096)
        .read_buffer_size(1024)
        .write_buffer_size(0)
        .max_write_buffer_size(256 * 1024)
}

/// WebSockets open per client address, for `HttpLimits::max_sockets_per_ip`.
#[derive(Clone, Default)]
pub struct OpenSockets(pub Arc<PerAddress>);

/// An upgraded socket: counted in the metrics and against its address until dropped. Also
/// dropped unused if the client never completes the upgrade.
pub(crate) struct SocketOpen {
    metrics: Metrics,
    _slot: Slot,
}

impl SocketOpen {
    /// A place for one more socket of `addr`; `rate_limited` once it holds as many as one
    /// address may.
    pub(crate) fn take(
        app: &App,
        sockets: &Arc<PerAddress>,
        addr: &str,
    ) -> Result<SocketOpen, ApiError> {
        let max = app.config.http.max_sockets_per_ip;
        let slot = sockets.open(addr, max).ok_or_else(|| ApiError {
            retry_after: Some(10),
            ..ApiError::new(
                ErrorCode::RateLimited,
                format!("this address has {max} WebSockets open already; close one first"),
            )
        })?;
        Ok(SocketOpen::new(app.metrics.clone(), slot))
    }

    fn new(metrics: Metrics, slot: Slot) -> SocketOpen {
        metrics.websocket_opened();
        SocketOpen {
            metrics,
            _slot: slot,
        }
    }
}

impl Drop for SocketOpen {
    fn drop(&mut self) {
        self.metrics.websocket_closed();
    }
}

struct Watcher {
    app: Arc<App>,
    id: String,
    /// The seat and its token's hash; `None` for a spectator.
    seat: Option<(u8, String)>,
    /// The version and `rev` of the last message sent.
    sent: Option<(u64, u64)>,
    /// Counted among the game's spectators while the socket has no seat.
    spectating: Option<crate::spectators::Spectating>,
}

/// What a watcher does next.
enum Next {
    Send(Message),
    /// Nothing new since the last message.
    Nothing,
    /// The seat's token was revoked by a re-claim: this socket no longer speaks for it.
    Revoked,
    /// The game could not be read.
    Failed,
    /// A client's message was refused: this, then close.
    Refused(Message),
}

impl Watcher {
    /// The state now (at least at `rev`, if a notification named it), with the moves since
    /// the last message (none in the first); with `again`, even when nothing changed.
    async fn message(&mut self, rev: Option<u64>, again: bool) -> Next {
        let st = match self.app.fresh(&self.id, rev).await {
            Ok((_, st)) => st,
            // The game cannot be read just now: close, and the client's reconnect reads it
            // afresh (waiting for the next change could wait forever).
            Err(_) => return Next::Failed,
        };
        if let Some((seat, hash)) = &self.seat {
            if st.seat_of_hash(hash) != Some(*seat) {
                return Next::Revoked;
            }
        }
        if !again && self.sent.is_some_and(|(_, r)| r == st.rev) {
            return Next::Nothing;
        }
        // A daily game's spectator hears nothing until the day is over (or the socket says
        // whose seat it is).
        let seat = self.seat.as_ref().map(|s| s.0);
        if !crate::daily::history_open(&st, seat, self.app.now_ms()) {
            return Next::Nothing;
        }
        let update = ServerMessage::State(Box::new(Update {
            state: st.state_for(&self.id, self.seat.as_ref().map(|s| s.0), self.app.now_ms()),
            moves: self.sent.map_or_else(Vec::new, |(v, _)| st.moves_since(v)),
        }));
        self.sent = Some((st.version(), st.rev));
        Next::Send(Message::Text(
            serde_json::to_string(&update)
                .expect("states serialise")
                .into(),
        ))
    }

    /// A client's `auth` message: the socket is the token's seat from now on, and a state for
    /// it follows at once; a token that holds no seat here ends the socket.
    async fn auth(&mut self, token: &str) -> Next {
        let hash = crate::secret::hash(token);
        let seat = match self.app.fresh(&self.id, None).await {
            Ok((_, st)) => st.seat_of_hash(&hash),
            Err(_) => return Next::Failed,
        };
        match seat {
            Some(seat) => {
                self.seat = Some((seat, hash));
                self.spectating = None;
                self.message(None, true).await
            }
            None => Next::Refused(Message::Text(
                serde_json::to_string(&ServerMessage::Error(WsError {
                    error: ErrorCode::WrongToken,
                    message: "this token holds no seat at this game".into(),
                }))
                .expect("errors serialise")
                .into(),
            )),
        }
    }
}

async fn watch(mut watcher: Watcher, socket: WebSocket, stopping: Stopping) {
    let (mut tx, mut rx) = socket.split();
    if watcher.seat.is_none() {
        watcher.spectating = Some(watcher.app.spectators.watch(&watcher.id));
    }
    // Subscribe before the first state, so no change can fall between the two.
    let mut updates = watcher.app.hub.subscribe(&watcher.id);
    match watcher.message(None, false).await {
        // A daily game's spectator: nothing yet, but an `auth` message may follow.
        Next::Nothing => {}
        next => {
            if !act(next, &mut tx, &stopping).await {
                return;
            }
        }
    }
    let mut keepalive = tokio::time::interval(Duration::from_secs(30));
    keepalive.tick().await;
    loop {
        tokio::select! {
            () = stopping.0.cancelled() => {
                // The server is stopping: "going away", so the client reconnects elsewhere.
                let close = CloseFrame { code: close_code::AWAY, reason: "server stopping".into() };
                let _ = tokio::time::timeout(SEND_TIMEOUT, tx.send(Message::Close(Some(close)))).await;
                break;
            }
            incoming = rx.next() => {
                let next = match incoming {
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    // The one thing a client may say: whose seat this is. Moves go over HTTP.
                    Some(Ok(Message::Text(text))) => {
                        match serde_json::from_str::<ClientMessage>(&text) {
                            Ok(ClientMessage::Auth { token }) => watcher.auth(&token).await,
                            Err(_) => Next::Nothing,
                        }
                    }
                    Some(Ok(_)) => Next::Nothing,
                };
                if !act(next, &mut tx, &stopping).await {
                    break;
                }
            },
            update = updates.recv() => {
                let rev = match update {
                    Ok(rev) => rev,
                    // A watcher that fell behind gets the current state, which says it all.
                    Err(RecvError::Lagged(_)) => None,
                    // Nothing more would be heard here: the client's reconnect hears again.
                    Err(RecvError::Closed) => {
                        act(Next::Failed, &mut tx, &stopping).await;
                        break;
                    }
                };
                let next = watcher.message(rev, false).await;
                if !act(next, &mut tx, &stopping).await {
                    break;
                }
            },
            _ = keepalive.tick() => {
                if !send(&mut tx, Message::Ping(Vec::new().into()), &stopping).await {
                    break;
                }
            }
        }
    }
}

/// Does what the watcher found; false once the socket is done.
async fn act(next: Next, tx: &mut SplitSink<WebSocket, Message>, stopping: &Stopping) -> bool {
    match next {
        Next::Send(m) => send(tx, m, stopping).await,
        Next::Nothing => true,
        Next::Revoked => {
            let why = "your seat was claimed again elsewhere; this token holds it no more";
            close(tx, SEAT_CLAIMED_AGAIN, why, stopping).await;
            false
        }
        Next::Failed => {
            let why = "the game could not be read; reconnect";
            close(tx, close_code::ERROR, why, stopping).await;
            false
        }
        Next::Refused(m) => {
            if send(tx, m, stopping).await {
                let why = "wrong_token: this token holds no seat at this game";
                close(tx, close_code::POLICY, why, stopping).await;
            }
            false
        }
    }
}

/// Closes the socket with `code` and `why` (at most 123 bytes: a close frame's reason).
pub(crate) async fn close(
    tx: &mut SplitSink<WebSocket, Message>,
    code: u16,
    why: &'static str,
    stopping: &Stopping,
) {
    let frame = CloseFrame {
        code,
        reason: why.into(),
    };
    send(tx, Message::Close(Some(frame)), stopping).await;
}

/// Sends `message`, unless the server stops first (a client that reads nothing must not hold
/// the shutdown); false once the socket is done.
pub(crate) async fn send(
    tx: &mut SplitSink<WebSocket, Message>,
    message: Message,
    stopping: &Stopping,
) -> bool {
    tokio::select! {
        sent = tx.send(message) => sent.is_ok(),
        () = stopping.0.cancelled() => false,
    }
}
