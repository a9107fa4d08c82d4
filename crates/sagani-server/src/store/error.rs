//! What a store says when a write or a read does not happen: typed, so the server can tell a
//! lost race (409) from a missing game (404) from a database that is down (503).

use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
    /// The write was refused: the stored state is not what the caller assumed. Nothing changed.
    #[error("conflict: {0}")]
    Conflict(Conflict),
    /// There is no such game.
    #[error("no such game")]
    NotFound,
    /// The game is stored but cannot be read back (a damaged row): it is left alone.
    #[error("game {game} is damaged in the store: {reason}")]
    Damaged { game: String, reason: String },
    /// The store could not be reached or failed; a write may or may not have happened.
    #[error("the store is unavailable: {0}")]
    Unavailable(#[source] Cause),
    /// The database is not one this server can use (another program's, a newer schema, or a
    /// SQLite file already served by another process), or cannot be opened.
    #[error("{what}")]
    Unusable {
        what: String,
        #[source]
        cause: Option<Cause>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    /// The game has `current` moves, not the `n` the move was made for.
    #[error("the game is at version {current}")]
    StaleVersion { current: u64 },
    /// The seat's token is no longer the caller's (a re-claim revoked it).
    #[error("the token no longer holds the seat")]
    NotYourSeat,
    /// The seat is no longer as the caller saw it (someone claimed it first), or it is a bot's.
    #[error("the seat was taken")]
    SeatTaken,
    /// A game with this id exists.
    #[error("the game exists")]
    Exists,
    /// The creator already has `open` games that are not over.
    #[error("{open} games are open")]
    TooManyGames { open: u64 },
    /// The game changed since the caller read it (at another `rev`).
    #[error("the game changed meanwhile")]
    Changed,
    /// The account has an attempt at this daily challenge (day and variant) already.
    #[error("the daily challenge was played already")]
    Played,
    /// The seat wrote as many chat lines as it may for now; one more in `wait_ms`.
    #[error("the seat writes too fast; wait {wait_ms} ms")]
    TooFast { wait_ms: u64 },
    /// The challenger has `open` challenges open already.
    #[error("{open} challenges are open")]
    TooManyChallenges { open: u64 },
    /// The challenged account takes challenges only from accounts it follows.
    #[error("the challenged account does not follow the challenger")]
    NotFollowed,
}

/// Errors are equal when they say the same (a cause is compared by its message).
impl PartialEq for StoreError {
    fn eq(&self, other: &StoreError) -> bool {
        use StoreError::*;
        match (self, other) {
            (Conflict(a), Conflict(b)) => a == b,
            (NotFound, NotFound) => true,
            (Damaged { .. }, Damaged { .. })
            | (Unavailable(_), Unavailable(_))
            | (Unusable { .. }, Unusable { .. }) => self.to_string() == other.to_string(),
            _ => false,
        }
    }
}

/// A cause that is only words.
#[derive(Debug)]
struct Said(String);

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Said {}

impl StoreError {
    /// The store failed with `e`, kept as the cause.
    pub fn unavailable(e: impl std::error::Error + Send + Sync + 'static) -> StoreError {
        StoreError::Unavailable(Arc::new(e))
    }

    /// The store failed for a reason that has no error value of its own.
    pub fn unavailable_because(why: impl fmt::Display) -> StoreError {
        StoreError::Unavailable(Arc::new(Said(why.to_string())))
    }

    /// The database cannot be used, for the reason `what` says.
    pub fn unusable(what: impl fmt::Display) -> StoreError {
        StoreError::Unusable {
            what: what.to_string(),
            cause: None,
        }
    }

    /// The database cannot be used: `what` and the error that says why (shown after a colon).
    pub fn unusable_by(
        what: impl fmt::Display,
        cause: impl std::error::Error + Send + Sync + 'static,
    ) -> StoreError {
        StoreError::Unusable {
            what: format!("{what}: {cause}"),
            cause: Some(Arc::new(cause)),
        }
    }

    pub fn damaged(game: &str, reason: impl fmt::Display) -> StoreError {
        StoreError::Damaged {
            game: game.to_string(),
            reason: reason.to_string(),
        }
    }
}

/// An error's cause, shared (store errors are cloned to every write of a failed group).
pub type Cause = Arc<dyn std::error::Error + Send + Sync>;
