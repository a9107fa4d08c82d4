//! The part of the store contract that pairs players who want a game now: seeks wait in a pool
//! (players, clock, rated), and a group of them becomes one game in one write that pairs each
//! seek only if it still waits, so two servers pairing the same seeks make one game.

use super::{Progress, SavedGame, StoreError};
use crate::time_control::TimeControl;
use async_trait::async_trait;

/// Where a seek stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekStatus {
    Waiting,
    Paired,
    /// Withdrawn by its seeker, or dropped when the seeker went away.
    Cancelled,
}

impl SeekStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SeekStatus::Waiting => "waiting",
            SeekStatus::Paired => "paired",
            SeekStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<SeekStatus> {
        [
            SeekStatus::Waiting,
            SeekStatus::Paired,
            SeekStatus::Cancelled,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

/// What a seek asks for; seeks with the same pool are paired with each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool {
    pub players: u8,
    pub clock: TimeControl,
    pub rated: bool,
}

impl Pool {
    /// Its key in the database: one text per pool.
    pub fn key(&self) -> String {
        format!(
            "{}|{}|{}",
            self.players,
            self.clock.stored().unwrap_or_else(|| "none".into()),
            if self.rated { "rated" } else { "casual" }
        )
    }
}

/// A seek as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Seek {
    pub id: String,
    pub token_hash: String,
    pub pool: Pool,
    /// The seeker's account, if logged in.
    pub player: Option<String>,
    /// The name the table shows: the account's, or a guest's display name.
    pub name: Option<String>,
    /// A rated seek's rating (as shown) when it was made.
    pub rating: Option<f64>,
    /// After this long without a partner, a bot may take the other seats (unrated only).
    pub bot_after_s: Option<u32>,
    pub created_ms: i64,
    /// The last sign that the seeker is still there (a poll, its open socket).
    pub seen_ms: i64,
    pub status: SeekStatus,
    /// Once paired: the game and the seeker's seat in it.
    pub game: Option<String>,
    pub seat: Option<u8>,
    /// When it was paired or cancelled.
    pub ended_ms: Option<i64>,
}

/// A group of seeks made one game: each seek takes the seat given; `game`'s seats already hold
/// the seekers (each with its seek's token hash).
#[derive(Clone, Debug)]
pub struct Pairing {
    pub seats: Vec<(String, u8)>,
    pub game: SavedGame,
    pub after: Progress,
    pub at_ms: i64,
    /// The notices to raise for the seekers with accounts (`seek_paired`), ids fresh.
    pub notices: Vec<super::NewNotice>,
}

#[async_trait]
pub trait Seeks: Send + Sync {
    /// Stores a new waiting seek.
    async fn add_seek(&self, seek: &Seek) -> Result<(), StoreError>;

    /// A seek by its id, whatever its status.
    async fn seek(&self, id: &str) -> Result<Option<Seek>, StoreError>;

    /// Waiting seeks, oldest first, at most `limit`.
    async fn waiting_seeks(&self, limit: u32) -> Result<Vec<Seek>, StoreError>;

    /// How many seeks wait in each pool that has one waiting.
    async fn waiting_counts(&self) -> Result<Vec<(Pool, u32)>, StoreError>;

    /// Notes that the seeker of a waiting seek is still there. False if it no longer waits.
    async fn touch_seek(&self, id: &str, now_ms: i64) -> Result<bool, StoreError>;

    /// Cancels a waiting seek. False if it no longer waits (paired meanwhile, or gone).
    async fn cancel_seek(&self, id: &str, now_ms: i64) -> Result<bool, StoreError>;

    /// Cancels every waiting seek last seen before `seen_before_ms`; returns their ids.
    async fn drop_unseen_seeks(
        &self,
        seen_before_ms: i64,
        now_ms: i64,
    ) -> Result<Vec<String>, StoreError>;

    /// Pairs the seeks into the game, all or none: `Conflict::Changed` if any of them no longer
    /// waits. Returns the games whose `rev` changed (the new one).
    async fn pair(&self, pairing: &Pairing) -> Result<Vec<(String, u64)>, StoreError>;
}
