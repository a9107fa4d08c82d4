//! The daily challenge: today's challenge, its start, a day's leaderboard, and a daily game's
//! standing with par.

use sagani_core::Variant;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `GET /api/daily`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Today {
    /// Today, by UTC: `YYYY-MM-DD`.
    pub day: String,
    /// When today's challenge ends and the next one begins (midnight UTC, milliseconds since
    /// the Unix epoch).
    pub ends_at_ms: i64,
    /// The server's time when it answered.
    pub now_ms: i64,
    /// The two variants: `solo` and `solo-all`.
    pub variants: Vec<VariantToday>,
    /// The logged-in account's name; absent for a guest (a guest's attempts are unranked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// The account's streak: UTC days in a row, up to today (or yesterday, while today's is
    /// still to be played), with a finished daily game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streak: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct VariantToday {
    /// `solo` (reach 75 with as few tiles as you can) or `solo-all` (all 72 tiles).
    #[schema(value_type = crate::schema::VariantName)]
    pub variant: Variant,
    /// Where to start it: `POST` with `{}` (or `{"name": …}`, a guest's display name).
    pub start: String,
    /// Today's leaderboard in this variant.
    pub leaderboard: String,
    /// Accounts that finished it today.
    pub players: u32,
    /// The account's attempt today, once it started one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt: Option<Attempt>,
}

/// An account's attempt of the day.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Attempt {
    pub game: String,
    /// The table.
    pub url: String,
    /// Its result, once it is over by its rules (a resigned attempt has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultInfo>,
    /// Its rank on the day's leaderboard, once it has a result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
}

/// A daily game's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ResultInfo {
    /// Tiles placed (72 in solo-all).
    pub tiles: u8,
    /// The score; in solo-all the final score (the score less the discs left).
    pub score: i64,
    /// The score reached 75 (solo; always true in solo-all).
    pub reached: bool,
    /// Solo: 75 in 25 tiles or fewer.
    pub symphony: bool,
}

/// A place on a day's leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BoardEntry {
    /// 1 for the best; equal results share a rank.
    pub rank: u32,
    /// The account's name.
    pub name: String,
    #[serde(flatten)]
    pub result: ResultInfo,
    /// The game, to replay it: only once the day is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// Par: the bot's result on the same deck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ParInfo {
    /// The bot (`greedy`: one ply, the best immediate move).
    pub bot: String,
    #[serde(flatten)]
    pub result: ResultInfo,
    /// The bot's game, to replay it: only once the day is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// `GET /api/daily/{variant}/leaderboard`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Board {
    pub day: String,
    #[schema(value_type = crate::schema::VariantName)]
    pub variant: Variant,
    /// The day is over: the games may be replayed, and par is shown to everyone.
    pub over: bool,
    /// Accounts that finished the day's challenge in this variant.
    pub players: u32,
    /// The best 100, best first.
    pub entries: Vec<BoardEntry>,
    /// The logged-in account's own place, once it finished that day's attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<BoardEntry>,
    /// The bot's result on the same deck: once the day is over, or for an account that
    /// finished that day's attempt (and once the bot has played it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub par: Option<ParInfo>,
}

/// `GET /api/games/{id}/daily`: a daily game's standing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Card {
    pub day: String,
    #[schema(value_type = crate::schema::VariantName)]
    pub variant: Variant,
    /// An account's attempt (on the leaderboard); a guest's is unranked, on a deck of its own.
    pub ranked: bool,
    /// The game is over.
    pub over: bool,
    /// The day (UTC) is over.
    pub day_over: bool,
    /// Its result, once it is over by its rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultInfo>,
    /// Its rank on the day's leaderboard (a ranked attempt with a result).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
    /// Where its result stands among the ranked ones (none for a guest's: another deck).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<u32>,
    /// Accounts that finished the day's challenge in this variant.
    pub players: u32,
    /// The bot's result on the same deck, once this ranked attempt has its result (and the bot
    /// has played), or the day is over; never for a guest's game (another deck).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub par: Option<ParInfo>,
    /// The game is over but the bot has not finished its game yet: ask again shortly.
    pub par_pending: bool,
    /// The best 10 of the day, once this game is over.
    pub leaderboard: Vec<BoardEntry>,
    /// The account's streak, for a ranked attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streak: Option<u32>,
}

/// `POST /api/daily/{variant}/start`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartDaily {
    /// A guest's display name (1–24 characters); ignored with an account's session cookie.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 24)]
    pub name: Option<String>,
}

/// The answer to a start: the game and the seat's token (as a claim answers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DailyStarted {
    pub game: String,
    pub seat: u8,
    /// Secret: the seat's token (`Authorization: Bearer …`).
    pub token: String,
    /// The seat's invite code, which claims it again (absent when an account's attempt is
    /// taken up again: the account takes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The game's API resource and its table.
    pub url: String,
    pub watch_url: String,
    pub day: String,
    #[schema(value_type = crate::schema::VariantName)]
    pub variant: Variant,
    /// An account's attempt on the day's deck, on the leaderboard; a guest's is on a deck of
    /// its own (nobody plays the day's deck before their ranked attempt).
    pub ranked: bool,
    /// The account had started today's attempt already: this is it (its old token no longer
    /// works).
    pub again: bool,
}
