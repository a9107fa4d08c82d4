//! Durable storage, event-sourced: a game's setup and seats, then its moves, appended in order.
//! The API layer sees only the `Store` trait; SQLite is the default, PostgreSQL can follow.

mod sqlite;

pub use sqlite::{count_moves, moves_per_game, SqliteStore};

use sagani_core::{Move, TileId, Variant};
use std::fmt;
use tokio::sync::oneshot;

/// A game as stored: enough to rebuild it by replaying `moves` on its deck.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedGame {
    pub id: String,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
    pub variant: Variant,
    /// The draw pile, top first, shuffled with the operating system's randomness: secret until
    /// the game is over. (No seed: a 64-bit seed could be searched for from the first offer.)
    pub deck: Vec<TileId>,
    pub start_player: u8,
    pub public: bool,
    /// The address that created the game (for the open-games limit).
    pub creator: String,
    pub seats: Vec<SavedSeat>,
    /// Filled in by `load`; empty in a `Created` event.
    pub moves: Vec<SavedMove>,
}

/// Who plays a seat. Secrets are kept only as SHA-256 hashes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SavedSeat {
    Human {
        invite_hash: String,
        /// Set once the seat is claimed.
        token_hash: Option<String>,
    },
    Bot {
        bot: String,
        level: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedMove {
    pub seat: u8,
    pub mv: Move,
}

/// One change to the stored state. `write` returns once it is durable (or failed).
#[derive(Clone, Debug)]
pub enum Event {
    Created(SavedGame),
    /// A human seat got a token (replacing any earlier one). Claimed by number (in a public
    /// game) rather than by its invite, the seat's invite stops working.
    Claimed {
        game: String,
        seat: u8,
        token_hash: String,
        by_invite: bool,
    },
    /// Move number `n` (0-based) of `game`.
    Moved {
        game: String,
        n: u64,
        seat: u8,
        mv: Move,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "storage: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

/// Resolves when the event is committed to durable storage, or with why it is not.
pub type Pending = oneshot::Receiver<Result<(), StoreError>>;

pub trait Store: Send + Sync + 'static {
    /// Every stored game with its moves in order (at start-up).
    fn load(&self) -> Result<Vec<SavedGame>, StoreError>;

    /// One stored game with its moves (to resynchronise after a write whose outcome is not
    /// known). Blocking.
    fn load_game(&self, id: &str) -> Result<Option<SavedGame>, StoreError>;

    /// Queues `event`; the returned receiver resolves once it is committed. An error means
    /// it may or may not be stored: reload with `load_game` to know.
    fn write(&self, event: Event) -> Pending;
}
