//! What a store says when a write or a read does not happen: typed, so the server can tell a
//! lost race (409) from a missing game (404) from a database that is down (503).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The write was refused: the stored state is not what the caller assumed. Nothing changed.
    Conflict(Conflict),
    /// There is no such game.
    NotFound,
    /// The game is stored but cannot be read back (a damaged row): it is left alone.
    Damaged { game: String, reason: String },
    /// The store could not be reached or failed; a write may or may not have happened.
    Unavailable(String),
    /// The database is not one this server can use (another program's, a newer schema, or a
    /// SQLite file already served by another process).
    Unusable(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// The game has `current` moves, not the `n` the move was made for.
    StaleVersion { current: u64 },
    /// The seat's token is no longer the caller's (a re-claim revoked it).
    NotYourSeat,
    /// The seat is no longer as the caller saw it (someone claimed it first), or it is a bot's.
    SeatTaken,
    /// A game with this id exists.
    Exists,
    /// The creator already has `open` games that are not over.
    TooManyGames { open: u64 },
    /// The game changed since the caller read it (at another `rev`).
    Changed,
    /// The account has an attempt at this daily challenge (day and variant) already.
    Played,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict(c) => write!(f, "conflict: {c}"),
            StoreError::NotFound => write!(f, "no such game"),
            StoreError::Damaged { game, reason } => {
                write!(f, "game {game} is damaged in the store: {reason}")
            }
            StoreError::Unavailable(why) => write!(f, "the store is unavailable: {why}"),
            StoreError::Unusable(why) => write!(f, "{why}"),
        }
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Conflict::StaleVersion { current } => write!(f, "the game is at version {current}"),
            Conflict::NotYourSeat => write!(f, "the token no longer holds the seat"),
            Conflict::SeatTaken => write!(f, "the seat was taken"),
            Conflict::Exists => write!(f, "the game exists"),
            Conflict::TooManyGames { open } => write!(f, "{open} games are open"),
            Conflict::Changed => write!(f, "the game changed meanwhile"),
            Conflict::Played => write!(f, "the daily challenge was played already"),
        }
    }
}

impl std::error::Error for StoreError {}

impl StoreError {
    pub fn unavailable(e: impl fmt::Display) -> StoreError {
        StoreError::Unavailable(e.to_string())
    }

    pub fn damaged(game: &str, reason: impl fmt::Display) -> StoreError {
        StoreError::Damaged {
            game: game.to_string(),
            reason: reason.to_string(),
        }
    }
}
