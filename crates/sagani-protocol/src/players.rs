//! Players as everyone may see them: profiles, the leaderboard, an account's games.

use crate::state::{GameStatus, SeatInfo};
use sagani_core::Variant;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Profile {
    pub name: String,
    /// On the displayed scale (1000 for a newcomer): `1000 + 40 × (mu − 3 sigma)` of the
    /// Weng-Lin rating. Absent before the first rated game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    /// Fewer than 10 rated games: the rating may still move a lot.
    pub provisional: bool,
    pub rated_games: u32,
    /// Finished games (of every kind).
    pub games: u32,
    /// Finished games of 2–4 players won.
    pub wins: u32,
    pub solo: SoloRecords,
    /// The rating after each rated game, oldest first (the last 200).
    pub history: Vec<RatingEntry>,
    /// The latest games, newest first (at most 50).
    pub recent: Vec<GameEntry>,
    /// Whether the logged-in viewer follows this player (absent for a guest and on one's own
    /// profile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub following: Option<bool>,
}

/// Solo results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SoloRecords {
    /// Finished solo games (both variants).
    pub games: u32,
    /// Fewest tiles used to reach 75 points in solo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_tiles: Option<u8>,
    /// Solo games that ended in a symphony.
    pub symphonies: u32,
    /// Best final score in solo with all 72 tiles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_solo_all: Option<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RatingEntry {
    pub game: String,
    /// Seconds since the Unix epoch.
    pub at: i64,
    pub rating: i64,
}

/// A game on a profile or in "my games".
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameEntry {
    pub game: String,
    #[schema(value_type = crate::VariantName)]
    pub variant: Variant,
    /// `waiting`, `playing` or `over`.
    pub status: GameStatus,
    pub rated: bool,
    /// A rated game that changes no rating, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_rated: Option<crate::state::NotRated>,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<i64>,
    /// The player's seat.
    pub seat: u8,
    pub seats: Vec<SeatInfo>,
    /// Once over, with 2–4 players: the player's place (1 for the winner).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<u8>,
    /// Once over: the player's score (the final score in solo with all tiles).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    /// The table (to watch, or to look back at).
    pub url: String,
    /// The game record (RECORD.md), once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_url: Option<String>,
    /// In "my games", while it is played: the player's seat is to decide now.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub your_turn: bool,
    /// In "my games", while it is played with a clock: the player's time left, in
    /// milliseconds, as of this answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_ms: Option<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Leaderboard {
    pub players: Vec<Leader>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Leader {
    /// 1 for the best.
    pub rank: u32,
    pub name: String,
    pub rating: i64,
    pub rated_games: u32,
    pub provisional: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MyGames {
    pub games: Vec<GameEntry>,
}
