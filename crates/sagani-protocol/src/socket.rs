//! WebSocket messages, both ways.

use crate::error::ErrorCode;
use crate::state::{GameState, PlayedMove};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A WebSocket message from the server: `{"type":"state",…}` after every change, or
/// `{"type":"error",…}` when a client's message is refused.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    State(Box<Update>),
    Error(WsError),
}

/// The full state after every change (`"type":"state"`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Update {
    pub state: GameState,
    /// Every move played since this socket's previous message, in order (empty in the first
    /// message), so a client can show each one even when several came at once.
    pub moves: Vec<PlayedMove>,
}

/// A WebSocket message from a client: `{"type":"auth","token":…}` makes the socket the
/// token's seat (instead of `?token=` in the URL, which browsers may print in their console).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMessage {
    /// The seat's token. The server answers with a state for that seat, or with an `error`
    /// (`wrong_token`) and closes the socket.
    Auth { token: String },
}

/// A client's message refused (`"type":"error"`); the socket closes after it (code 1008).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct WsError {
    /// `wrong_token`: the token of an `auth` message holds no seat at this game.
    pub error: ErrorCode,
    pub message: String,
}
