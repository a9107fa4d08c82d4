//! The part of the store contract that keeps players: accounts, their log-in sessions and the
//! log-in attempts the limit counts. Every server sharing a database sees the same accounts and
//! sessions (nothing of them is kept in one server's memory).

use super::{Rating, StoreError};
use async_trait::async_trait;

/// An account as stored. `password` is an argon2id hash in PHC form, never the password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: String,
    /// As signed up (its case kept).
    pub name: String,
    pub password: String,
    pub created_at: i64,
}

/// A new account: `key` is the name in lower case, `skeleton` what it looks like
/// (`names::skeleton`); each is unique among accounts that exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPlayer {
    pub id: String,
    pub name: String,
    pub key: String,
    pub skeleton: String,
    pub password: String,
    pub created_at: i64,
}

/// Log-in attempts of one subject in its current window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoginCount {
    pub attempts: u64,
    /// When the window began (milliseconds).
    pub since: i64,
}

/// A rating as it was after a rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    pub game: String,
    /// Seconds since the Unix epoch.
    pub at: i64,
    pub mu: f64,
    pub sigma: f64,
}

/// An account on the leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    pub name: String,
    pub rating: Rating,
}

/// A game an account played (or plays).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    pub id: String,
    pub created_at: i64,
    /// When it ended, if it did.
    pub ended_at: Option<i64>,
    pub variant: sagani_core::Variant,
    pub rated: bool,
    pub status: super::Status,
    /// The account's seat.
    pub seat: u8,
    /// The engine's outcome as JSON, once it is over.
    pub outcome: Option<String>,
    /// Everyone at the table (empty where the caller asked only for results).
    pub seats: Vec<super::SavedSeat>,
    /// The seats whose player timed out or resigned (a bot played on): ranked last.
    pub left_seats: Vec<u8>,
}

#[async_trait]
pub trait Accounts: Send + Sync {
    /// Stores a new account. `Conflict::Exists` if an account has the name (in any case), or
    /// one that looks the same (the same skeleton).
    async fn sign_up(&self, player: &NewPlayer) -> Result<(), StoreError>;

    /// Whether an account's name has this skeleton (`names::skeleton`).
    async fn name_like(&self, skeleton: &str) -> Result<bool, StoreError>;

    /// Gives accounts made before names had skeletons theirs; the names left without one,
    /// because another account's name looks the same.
    async fn fill_skeletons(&self) -> Result<Vec<String>, StoreError>;

    /// The account named `key` (in lower case), if there is one (a deleted account has none).
    async fn player_named(&self, key: &str) -> Result<Option<Player>, StoreError>;

    /// Opens a session: the cookie whose SHA-256 is `token_hash` logs `player` in.
    async fn open_session(
        &self,
        token_hash: &str,
        player: &str,
        now: i64,
    ) -> Result<(), StoreError>;

    /// The account a session logs in, if the session was opened after `since` and is still
    /// open (and the account not deleted).
    async fn session(&self, token_hash: &str, since: i64) -> Result<Option<Player>, StoreError>;

    /// Closes one session (logging out).
    async fn close_session(&self, token_hash: &str) -> Result<(), StoreError>;

    /// Closes every session of `player` (logging out everywhere) and revokes the tokens of its
    /// seats, so that no device it was logged in on plays on: the seats stay the account's, for
    /// a new session to claim again. The games whose seats changed, at their new `rev`.
    async fn close_sessions(&self, player: &str) -> Result<Vec<(String, u64)>, StoreError>;

    /// Replaces the password hash of `player`.
    async fn set_password(&self, player: &str, password: &str) -> Result<(), StoreError>;

    /// Deletes the account: its name is free again, its password, sessions and seat tokens are
    /// gone; the row stays for the games it played (which then name a deleted player). The
    /// games that changed, at their new `rev`.
    async fn delete_player(&self, player: &str, now: i64)
        -> Result<Vec<(String, u64)>, StoreError>;

    /// Counts one more log-in attempt of each subject (a name at an address, an address) and
    /// gives each subject's count since its window began. A window that began at or before
    /// `now - window_ms` is over: the count starts again at one, from `now`. Each count is one
    /// statement the database runs alone, so attempts on any number of servers at once each
    /// get a count of their own (none is missed between reading and writing it).
    async fn count_login(
        &self,
        subjects: &[String],
        now: i64,
        window_ms: i64,
    ) -> Result<Vec<LoginCount>, StoreError>;

    /// Takes back one attempt of each subject (the password was right, or never checked).
    async fn uncount_login(&self, subjects: &[String]) -> Result<(), StoreError>;

    /// The account's rating, once it played a rated game.
    async fn rating(&self, player: &str) -> Result<Option<Rating>, StoreError>;

    /// The account's last `limit` ratings, oldest first.
    async fn rating_history(
        &self,
        player: &str,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StoreError>;

    /// The account's `limit` latest games, newest first, with everyone at each table.
    async fn games_of(&self, player: &str, limit: u32) -> Result<Vec<PlayedGame>, StoreError>;

    /// Every game the account finished (without the seats), for its results.
    async fn results_of(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError>;

    /// Accounts that played at least `min_games` rated games, best first (by the rating shown:
    /// `mu - 3 sigma`).
    async fn leaderboard(&self, limit: u32, min_games: u32) -> Result<Vec<Ranked>, StoreError>;
}
