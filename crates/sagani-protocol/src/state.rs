//! A game as one seat (or a spectator) sees it: its seats, clocks, last move and end.

use crate::schema::{Effect, MoveSchema};
use crate::time_control::TimeControl;
use sagani_core::view::View;
use sagani_core::{Move, Outcome, Preview, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// A human seat is not claimed yet.
    Waiting,
    Playing,
    Over,
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    Human,
    Bot,
}

/// Why a person's seat went to a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LeaveReason {
    /// The seat's time ran out.
    Timeout,
    Resigned,
}

/// Why a game ended when its rules did not end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EndReason {
    /// The solo player resigned.
    Resigned,
    /// The solo player's time ran out.
    Timeout,
    /// Nobody moved for too long.
    Abandoned,
    /// Not every seat was claimed in time.
    Closed,
    /// Its creator cancelled it before anyone joined.
    Cancelled,
}

/// A seat as everybody may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeatInfo {
    pub seat: u8,
    pub kind: SeatKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// A bot seat is always claimed; a human seat once its invite was used.
    pub claimed: bool,
    /// Who plays a claimed human seat: a guest's display name or an account's name (absent
    /// when none was given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The name is an account's (`GET /api/players/{name}`), not a guest's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub account: bool,
    /// The seat's account was deleted since ("a deleted player").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// Set when a bot plays this person's seat now: they timed out or resigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<Replaced>,
}

/// A person's seat a bot took over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Replaced {
    pub reason: LeaveReason,
    /// The version (moves played) when it happened.
    pub version: u64,
    /// The bot that plays the seat from then on.
    pub bot: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}

/// The seats' clocks as the server counted them at `now_ms`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ClockState {
    #[schema(value_type = Object)]
    pub control: TimeControl,
    /// Each seat's time left in milliseconds at `now_ms` (`null` for a seat a bot plays).
    pub left_ms: Vec<Option<i64>>,
    /// The seat whose clock is running (absent before every seat is claimed, when a bot is to
    /// act, and once the game is over). Its time left goes down from `now_ms` on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<u8>,
    /// The server's time (milliseconds since the Unix epoch) when the state was made.
    pub now_ms: i64,
}

/// A game as one seat (or a spectator) sees it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameState {
    pub game: String,
    /// The number of moves played; a move is made against this version.
    pub version: u64,
    pub status: GameStatus,
    /// The seat this state is for; absent for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<u8>,
    pub seats: Vec<SeatInfo>,
    /// The engine's view for `you` (or a spectator): everything on the table, never the draw
    /// pile's order.
    #[schema(value_type = Object)]
    pub view: View,
    /// Your legal moves when you must act, else empty.
    #[schema(value_type = Vec<MoveSchema>)]
    pub legal: Vec<Move>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_move: Option<PlayedMove>,
    /// Once the game is over, the engine's outcome: `{"kind":"ranking",ranking,scores}`,
    /// `{"kind":"solo",tiles_used,score,reached,symphony}` or
    /// `{"kind":"solo-all",score,discs_left,final_score}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Outcome>,
    /// Once a game of 2 to 4 players is over, its seats from first to last: the engine's
    /// ranking, with the seats whose player left (timed out or resigned) after all the others
    /// whatever their score. This is who won; show it as it is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standings: Vec<u8>,
    /// The id of this game's rematch, once a player asked for one (`POST …/rematch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// A rated game (its end changes its players' ratings).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// A rated game that changes no rating, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_rated: Option<NotRated>,
    /// Once a rated game is over, each rated seat's rating before and after it (empty when it
    /// changed no rating).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<RatingChange>,
    /// A practice game: its player may ask for hints (`POST /api/analysis`) while it is played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// The clocks, when the game has a time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockState>,
    /// Why the game ended when its rules did not end it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<EndReason>,
    /// Chat lines written at the table so far (`GET /api/games/{id}/chat`).
    #[serde(default)]
    pub chats: u64,
    /// A game of the daily challenge (`GET /api/games/{id}/daily` has its result, par and
    /// the day's leaderboard once it is over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<DailyMark>,
}

/// Why a rated game changes no rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NotRated {
    /// A player resigned or timed out before every seat had moved: aborted for ratings, as
    /// chess sites abort such games (the others may play it out).
    TooEarly,
}

/// One seat's rating before and after a rated game, as profiles show ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RatingChange {
    pub seat: u8,
    pub before: i64,
    pub after: i64,
}

/// A daily challenge's game: which day and variant, and whether it counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DailyMark {
    /// The UTC day, `YYYY-MM-DD`.
    pub day: String,
    /// `solo` or `solo-all`.
    #[schema(value_type = String)]
    pub variant: Variant,
    /// An account's attempt, on the day's leaderboard; a guest's is unranked, on a deck of its
    /// own.
    pub ranked: bool,
    /// The bot's game on the day's deck (par).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub par: bool,
}

/// A move that was played: `version` is the version it was made against, `effect` what it
/// did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayedMove {
    pub version: u64,
    pub seat: u8,
    #[serde(rename = "move")]
    #[schema(value_type = MoveSchema)]
    pub mv: Move,
    /// For a placement, what it did, as the engine worked it out when it was played (the same
    /// shape as a preview); absent for the intermezzo choice and a pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Effect>)]
    pub effect: Option<Preview>,
}
