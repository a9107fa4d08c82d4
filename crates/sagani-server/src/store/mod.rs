//! Durable storage, the source of truth: a game's setup and seats, then its moves appended in
//! order. Every write is conditional (a move is stored only as move `n`, a claim only if the
//! seat is as the caller saw it), so any number of servers can share one database.
//!
//! The logic is written once (`sql/`) over a small database interface (`db.rs`), which SQLite
//! (embedded, one server process, writes committed in groups) and PostgreSQL (several servers,
//! changes announced with `NOTIFY`) implement. Both pass one conformance suite (`conformance`,
//! with the `test-util` feature).

mod accounts;
#[cfg(feature = "test-util")]
pub mod conformance;
mod contract;
mod copy;
mod daily;
pub(crate) mod db;
mod error;
mod game;
mod postgres;
pub mod replay;
mod sql;
mod sqlite;
mod writes;

pub use accounts::{Accounts, LoginCount, NewPlayer, PlayedGame, Player, Ranked, RatingPoint};
pub use contract::Store;
pub use copy::{copy, CopyError, CopyReport};
pub use daily::{Daily, DailyEntry, DailyTag, SoloResult};
pub use error::{Conflict, StoreError};
pub use game::{
    rematch_id, BotTurn, Catchup, Change, ChatLine, ChatText, Counts, Ended, Left, LeftReason,
    Progress, SavedGame, SavedMove, SavedSeat, Status, Summary,
};
pub use postgres::{Postgres, PostgresStore};
pub use sql::SqlStore;
pub use sqlite::{Sqlite, SqliteStore};
pub use writes::{ChatWrite, ClaimWrite, GameEnd, IdleSweep, LeaveWrite, MoveWrite};

pub use crate::rating::Rating;

use std::collections::HashMap;
use std::sync::Arc;

/// Opens the store `db` names: a `postgres://` (or `postgresql://`) URL, or a SQLite file
/// (created if missing). A SQLite file is served by one process: `exclusive` takes a lock on it
/// that a second server is refused.
pub async fn open(db: &str, exclusive: bool) -> Result<Arc<dyn Store>, StoreError> {
    if is_postgres(db) {
        Ok(Arc::new(PostgresStore::open(db).await?))
    } else {
        let path = std::path::PathBuf::from(db);
        let store = tokio::task::spawn_blocking(move || SqliteStore::open_with(&path, exclusive))
            .await
            .map_err(StoreError::unavailable)??;
        Ok(Arc::new(store))
    }
}

/// `db` as it may be shown: a PostgreSQL URL without its password.
pub fn shown(db: &str) -> String {
    if is_postgres(db) {
        postgres::shown(db)
    } else {
        db.to_string()
    }
}

pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// The number of moves stored per game for `games` in the store `db` names (the load test's
/// durability check).
pub async fn move_counts(db: &str, games: &[String]) -> Result<HashMap<String, u64>, StoreError> {
    open(db, false).await?.move_counts(games).await
}
