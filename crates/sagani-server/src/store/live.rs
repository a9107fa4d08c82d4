//! The part of the store contract behind the games to watch: games in progress between people,
//! strongest first, and how many watch each, added up over every server's own count.

use super::{Rating, SavedSeat, StoreError};
use crate::time_control::TimeControl;
use async_trait::async_trait;
use sagani_core::Variant;
use std::collections::HashMap;

/// A game in progress between people, as the games-to-watch list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveGame {
    pub id: String,
    pub variant: Variant,
    /// Moves played.
    pub version: u64,
    pub rated: bool,
    pub clock: TimeControl,
    /// When its clocks started (milliseconds), if they did.
    pub started_ms: Option<i64>,
    /// When it was created (seconds).
    pub created_at: i64,
    pub seats: Vec<SavedSeat>,
    /// The ratings of the seats' accounts that have played a rated game, by account id.
    pub ratings: HashMap<String, Rating>,
    /// Spectators, added up over the servers whose count is fresh.
    pub spectators: u64,
}

#[async_trait]
pub trait Live: Send + Sync {
    /// Up to `limit` games that are not over, public or rated, neither practice nor daily, in
    /// which at least two seats are held by people who have not left; strongest first (the
    /// mean of those people's `mu - 3 sigma`, a guest's or a newcomer's counted as a new
    /// account's), then the most recently started. `spectators` adds up the counts stamped at
    /// or after `fresh_since_ms`.
    async fn live_games(
        &self,
        limit: u32,
        fresh_since_ms: i64,
    ) -> Result<Vec<LiveGame>, StoreError>;

    /// Server `server` now has `counts` spectators at these games (0: none; its row goes),
    /// stamped `now_ms`. The server's other games are left as they were.
    async fn put_spectators(
        &self,
        server: &str,
        counts: &[(String, u64)],
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// Server `server`'s whole count, stamped `now_ms`, replaces its rows; rows of any server
    /// stamped before `forget_before_ms` go too (a server that stopped without saying so).
    async fn refresh_spectators(
        &self,
        server: &str,
        counts: &[(String, u64)],
        now_ms: i64,
        forget_before_ms: i64,
    ) -> Result<(), StoreError>;

    /// Spectators of `game`, added up over the counts stamped at or after `fresh_since_ms`.
    async fn spectators(&self, game: &str, fresh_since_ms: i64) -> Result<u64, StoreError>;

    /// Server `server` stops: its rows go.
    async fn drop_spectators(&self, server: &str) -> Result<(), StoreError>;
}
