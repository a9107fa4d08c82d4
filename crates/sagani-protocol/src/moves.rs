//! Moves sent, previews asked for, and the moves of a game listed.

use crate::schema::{Effect, MoveSchema};
use crate::state::{GameState, PlayedMove};
use sagani_core::{Move, Preview};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /api/games/{id}/moves`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The version of the state the move was chosen in.
    #[serde(deserialize_with = "crate::whole::number")]
    pub version: u64,
    /// A move as in RECORD.md: `{"action":"place","tile":7,"x":1,"y":0,"rot":2}`,
    /// `{"action":"intermezzo","tile":31}` or `{"action":"pass"}`.
    #[serde(rename = "move", deserialize_with = "crate::whole::within")]
    #[schema(value_type = MoveSchema)]
    pub mv: Move,
}

/// The answer to a move: `applied` is false when it repeats a move already applied (a retry).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveResult {
    pub applied: bool,
    pub state: GameState,
}

/// `POST /api/games/{id}/preview`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PreviewRequest {
    /// A placement for the player who must act.
    #[serde(rename = "move", deserialize_with = "crate::whole::within")]
    #[schema(value_type = MoveSchema)]
    pub mv: Move,
}

/// What a placement would do (the engine's `preview`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PreviewResult {
    #[schema(value_type = Effect)]
    pub preview: Preview,
}

/// `GET /api/games/{id}/moves`: the moves played so far. Every move is public (the table shows
/// them all); the deck is not in it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveList {
    pub moves: Vec<PlayedMove>,
}
