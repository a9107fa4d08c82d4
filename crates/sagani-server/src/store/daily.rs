//! The part of the store contract that keeps the daily challenge: the server's secrets (the
//! daily decks are derived from one), the daily games with their results, and what the
//! leaderboards and streaks are read from. Every server sharing a database sees the same.

use super::StoreError;
use async_trait::async_trait;
use sagani_core::Variant;

/// A game's place in the daily challenge, stored with the game (`SavedGame::daily`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyTag {
    /// The UTC day it belongs to, `YYYY-MM-DD`.
    pub day: String,
    /// The bot's game on the day's deck (par), not a person's attempt.
    pub par: bool,
    /// Its result, once it is over by its rules.
    pub result: Option<SoloResult>,
}

/// A solo game's result as the daily leaderboards order it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoloResult {
    /// Tiles placed (72 in solo-all).
    pub tiles: u8,
    /// The score (the final score in solo-all: the score less the discs left).
    pub score: i64,
    /// The score got to 75 (always true in solo-all, which has no goal to miss).
    pub reached: bool,
    /// When it ended, in milliseconds.
    pub at_ms: i64,
}

/// A daily game as the leaderboards and the player's own page read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyEntry {
    pub game: String,
    pub day: String,
    pub variant: Variant,
    /// The account that plays it (ranked); none for a guest and for par.
    pub player: Option<String>,
    /// The account's name; none for a guest, par, and a deleted account.
    pub name: Option<String>,
    pub par: bool,
    pub result: Option<SoloResult>,
}

#[async_trait]
pub trait Daily: Send + Sync {
    /// The server's secret called `name`: the one stored, or else `fresh`, stored now. Whichever
    /// handle stores one first wins; every handle answers that one from then on.
    async fn server_secret(&self, name: &str, fresh: &str) -> Result<String, StoreError>;

    /// The account's daily games of `day` (both variants).
    async fn daily_of(&self, player: &str, day: &str) -> Result<Vec<DailyEntry>, StoreError>;

    /// The finished ranked attempts of `day` in `variant`, and its par game (finished or not),
    /// in no particular order.
    async fn daily_board(&self, day: &str, variant: Variant)
        -> Result<Vec<DailyEntry>, StoreError>;

    /// The days on which the account finished a daily game, newest first, at most `limit`.
    async fn daily_days(&self, player: &str, limit: u32) -> Result<Vec<String>, StoreError>;
}
