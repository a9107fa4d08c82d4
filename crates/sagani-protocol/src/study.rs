//! Looking back: the engine's analysis of a position and the replay of a game or a record.

use crate::state::{PlayedMove, SeatInfo};
use sagani_core::view::View;
use sagani_core::{Move, Outcome, Preview, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /api/analysis`: a position of a stored game, or of a record.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// A stored game's id (not with `record`).
    #[serde(default)]
    pub game: Option<String>,
    /// A game record as `GET /api/games/{id}/record` gives it (RECORD.md; not with `game`).
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub record: Option<serde_json::Value>,
    /// The position after this many moves (0 to the number of moves). Default: after all.
    #[serde(default, deserialize_with = "crate::whole::option")]
    pub at: Option<u64>,
    /// The seat's token (also `Authorization: Bearer`): a practice game's player may ask while
    /// it is played.
    #[serde(default)]
    pub token: Option<String>,
}

/// The engine's best moves for the seat that acts after `at` moves, best first.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct AnalysisAnswer {
    pub at: u64,
    /// The seat that acts.
    pub seat: u8,
    /// What it must decide: `turn`, `place-drawn`, `intermezzo-pick` or `place-revealed`.
    pub decision: String,
    /// At most 5, best first.
    pub moves: Vec<RatedMove>,
    /// The longest the search could take, in milliseconds.
    pub budget_ms: u64,
    /// The search's iterations (playouts).
    pub iterations: u64,
}

/// A move as the engine rates it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RatedMove {
    #[serde(rename = "move")]
    #[schema(value_type = crate::MoveSchema)]
    pub mv: Move,
    /// The engine's estimate for the acting seat, 0 to 1, higher is better (the chance of
    /// winning, a little more for a wider margin; in solo, reaching 75 in fewer tiles).
    pub value: f64,
    /// The search's playouts through this move.
    pub visits: u64,
    /// What a placement does at once (as each move's `effect` in `GET …/moves`); absent for
    /// the intermezzo choice and a pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::Effect>)]
    pub effect: Option<Preview>,
    /// Why, in one line of English.
    pub reason: String,
}

/// `POST /api/replay`: a record file's positions.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    /// A game record (RECORD.md), as `GET /api/games/{id}/record` gives it or `sagani` writes
    /// it.
    #[schema(value_type = Object)]
    pub record: serde_json::Value,
}

/// A game from its first position to its last, as the table showed it to everyone.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ReplayAnswer {
    /// The stored game's id (absent for a record file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    pub players: u8,
    /// `standard`, `solo` or `solo-all`.
    #[schema(value_type = crate::VariantName)]
    pub variant: Variant,
    pub start_player: u8,
    /// A stored game's seats, as its table shows them (absent for a record file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<SeatInfo>>,
    /// Who played each seat, as records name them (RECORD.md `names`; `null` where unknown).
    pub names: Vec<Option<String>>,
    /// `positions[k]`: the table after `k` moves, as a spectator's view (the draw pile's size,
    /// the back of its top tile and its tiles sorted, never their order), from 0 to every move.
    #[schema(value_type = Vec<Object>)]
    pub positions: Vec<View>,
    /// `moves[k]`: the move from position `k` to `k + 1`, with what it did.
    pub moves: Vec<PlayedMove>,
    /// `scores[k]`: each seat's score at position `k` (for the graph).
    pub scores: Vec<Vec<i16>>,
    /// The engine's outcome, if the last position is the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Outcome>,
    /// The seats from first to last once a game of 2 to 4 players is over (as
    /// `GameState.standings`: who left is last).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standings: Vec<u8>,
    /// Why the game ended when its rules did not end it (as `GameState.ended`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
}
