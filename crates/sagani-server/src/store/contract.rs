//! What every store does, whichever database it is written over.

use super::{
    Accounts, BotTurn, Catchup, Challenges, Change, ChatLine, ChatWrite, ClaimWrite, Counts, Daily,
    IdleSweep, LeaveWrite, Live, Mail, MoveWrite, Notices, Progress, SavedGame, Seeks, StoreError,
    Summary, Value,
};
use async_trait::async_trait;
use std::collections::HashMap;
use tokio::sync::broadcast;

/// What a server asks of its store. One implementation, `SqlStore`, over SQLite or PostgreSQL;
/// tests wrap it to inject faults.
#[async_trait]
pub trait Store:
    Accounts + Challenges + Daily + Live + Mail + Notices + Seeks + Send + Sync + 'static
{
    /// Stores a new game (without moves); returns every game whose `rev` changed. `rematch_of`
    /// names the finished game it follows and the `rev` the caller read its seats at; it then
    /// names the new game as its rematch. `Conflict::Exists` if the id is taken;
    /// `Conflict::TooManyGames` if `creator` already has `max_open` games that are not over;
    /// `Conflict::Changed` if the old game is no longer at that `rev` (a seat was claimed again,
    /// and the seats to copy are not those).
    async fn create(
        &self,
        game: &SavedGame,
        after: Progress,
        max_open: Option<u64>,
        rematch_of: Option<(&str, u64)>,
    ) -> Result<Vec<(String, u64)>, StoreError>;

    /// A stored game with its moves; `NotFound` if there is none.
    async fn game(&self, id: &str) -> Result<SavedGame, StoreError>;

    /// The game's `rev`, to check a cached copy cheaply.
    async fn rev(&self, id: &str) -> Result<u64, StoreError>;

    /// What a copy of the game with `from` moves needs to catch up: the seats, the rematch and
    /// the `rev` now, and the moves from number `from` on.
    async fn since(&self, id: &str, from: u64) -> Result<Catchup, StoreError>;

    /// Stores a move; returns the game's new `rev`. `Conflict::StaleVersion` if the game does
    /// not have exactly `n` moves, `Conflict::NotYourSeat` if the token no longer holds the
    /// seat.
    async fn append_move(&self, w: &MoveWrite) -> Result<u64, StoreError>;

    /// Claims a seat; returns every game whose `rev` changed, with its new `rev` (the game, and
    /// its rematches that held the replaced token: a re-claim revokes it there too).
    /// `Conflict::SeatTaken` if the seat is no longer as `seen`.
    async fn claim(&self, w: &ClaimWrite) -> Result<Vec<(String, u64)>, StoreError>;

    /// Public games that are not over, newest first.
    async fn lobby(&self, limit: u32) -> Result<Vec<Summary>, StoreError>;

    async fn counts(&self) -> Result<Counts, StoreError>;

    /// Bot turns that no server holds a live lease on, oldest first.
    async fn bot_turns(&self, now_ms: i64, limit: u32) -> Result<Vec<BotTurn>, StoreError>;

    /// Takes (or renews) the lease on `game`'s bot turn at `version` for `holder` until
    /// `until_ms`. False if another holder has a live lease, or the game moved on.
    async fn lease(
        &self,
        game: &str,
        version: u64,
        holder: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError>;

    /// Gives a lease back (after the move is stored, or when it could not be).
    async fn release(&self, game: &str, holder: &str) -> Result<(), StoreError>;

    /// A bot takes over a person's seat (a time-out, a resignation); returns the game's new
    /// `rev`. `Conflict::StaleVersion` if the game has moved on, `Conflict::Changed` if the seat
    /// was taken over already or the game is over.
    async fn leave(&self, w: &LeaveWrite) -> Result<u64, StoreError>;

    /// Games whose running clock ran out by `now_ms` (by the deadline stored with their last
    /// change), oldest deadline first; then running clocks with no deadline stored (a claim and
    /// a move that raced on two servers).
    async fn due_clocks(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError>;

    /// Stores where the game stands (its deadline, whether a bot is to act) as its table worked
    /// it out, if it still has exactly `n` moves and is not over: it repairs what a race between
    /// servers left stale. False if the game moved on.
    async fn repair(&self, game: &str, n: u64, after: Progress) -> Result<bool, StoreError>;

    /// Ends abandoned games and closes unstarted ones (`IdleSweep`); returns those it ended,
    /// with their new `rev`. Each game is ended once, whichever server sweeps.
    async fn end_idle(&self, sweep: IdleSweep) -> Result<Vec<(String, u64)>, StoreError>;

    /// Cancels a game by its creator, whose seat `token_hash` holds, while no other person
    /// has claimed a seat; returns its new `rev`. `Conflict::Changed` if someone joined or it
    /// is over, `Conflict::NotYourSeat` if the token holds no seat.
    async fn cancel(&self, game: &str, token_hash: &str, at_ms: i64) -> Result<u64, StoreError>;

    /// Stores a chat line; returns its number and the game's new `rev`. `Conflict::Changed`
    /// once the game holds `max_lines` lines.
    async fn post_chat(&self, w: &ChatWrite) -> Result<(u64, u64), StoreError>;

    /// Up to `limit` chat lines of a game, from number `from` on.
    async fn chat(&self, game: &str, from: u64, limit: u32) -> Result<Vec<ChatLine>, StoreError>;

    /// Whether the store answers (for `/readyz`).
    async fn ping(&self) -> Result<(), StoreError>;

    /// Up to `limit` game ids after `after`, in id order (to walk every game: `db copy`).
    async fn game_ids(&self, after: Option<&str>, limit: u32) -> Result<Vec<String>, StoreError>;

    /// Stores a whole game with its moves in one transaction (`db copy`). `Conflict::Exists` if
    /// the id is taken.
    async fn import(&self, game: &SavedGame, after: Progress) -> Result<(), StoreError>;

    /// The number of moves stored per game, for the games named (the load test's check).
    async fn move_counts(&self, games: &[String]) -> Result<HashMap<String, u64>, StoreError>;

    /// Changes made by any server, as they are committed; `None` if this store has one server
    /// only (then the server's own changes are all there are).
    fn changes(&self) -> Option<broadcast::Receiver<Change>>;

    /// True when this server is the store's only writer, so a cached game is always current.
    fn exclusive(&self) -> bool;

    // Whole tables, for `db copy` (`copy.rs`, which names them from `tables.rs`). A store that
    // wraps another for a test need not copy: these say so unless it passes them on.

    /// The tables of the database's schema, by name.
    async fn tables(&self) -> Result<Vec<String>, StoreError> {
        Err(cannot_copy())
    }

    /// The columns of `table`, in the schema's order.
    async fn columns(&self, _table: &str) -> Result<Vec<String>, StoreError> {
        Err(cannot_copy())
    }

    /// The number of rows in `table`.
    async fn row_count(&self, _table: &str) -> Result<u64, StoreError> {
        Err(cannot_copy())
    }

    /// Up to `limit` rows of `table` (the values of `columns`, in that order), in the order of
    /// its key `key`, after the row whose key is `after`.
    async fn rows(
        &self,
        _table: &str,
        _columns: &[String],
        _key: &[&str],
        _after: Option<&[Value]>,
        _limit: u32,
    ) -> Result<Vec<Vec<Value>>, StoreError> {
        Err(cannot_copy())
    }

    /// Writes `rows` (values of `columns`, in that order) into `table` as they are, all or none.
    async fn put_rows(
        &self,
        _table: &str,
        _columns: &[String],
        _rows: &[Vec<Value>],
    ) -> Result<(), StoreError> {
        Err(cannot_copy())
    }
}

fn cannot_copy() -> StoreError {
    StoreError::unusable("this store cannot be copied table by table")
}
