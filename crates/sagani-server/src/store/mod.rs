//! Durable storage, the source of truth: a game's setup and seats, then its moves appended in
//! order. Every write is conditional (a move is stored only as move `n`, a claim only if the
//! seat is as the caller saw it), so any number of servers can share one database.
//!
//! The logic is written once (`sql/`) over a small database interface (`db.rs`), which SQLite
//! (embedded, one server process, writes committed in groups) and PostgreSQL (several servers,
//! changes announced with `NOTIFY`) implement. Both pass one conformance suite (`conformance`,
//! with the `test-util` feature).

mod accounts;
mod challenges;
#[cfg(feature = "test-util")]
pub mod conformance;
mod contract;
mod copy;
mod daily;
pub(crate) mod db;
mod error;
mod game;
mod live;
mod mail;
mod notices;
mod postgres;
pub mod replay;
mod seeks;
mod sql;
mod sqlite;
mod tables;
mod writes;

pub use accounts::{Accounts, LoginCount, NewPlayer, PlayedGame, Player, Ranked, RatingPoint};
pub use challenges::{Challenge, ChallengeStatus, Challenges, Closing, Followed, NewChallenge};
pub use contract::Store;
pub use copy::{copy, CopyError, CopyReport, TableCount};
pub use daily::{Daily, DailyEntry, DailyTag, SoloResult};
pub use db::Value;
pub use error::{Conflict, StoreError};
pub use game::{
    rematch_id, BotTurn, Catchup, Change, ChatLine, ChatText, Counts, Ended, Left, LeftReason,
    Progress, RatingStep, SavedGame, SavedMove, SavedSeat, Status, Summary,
};
pub use live::{Live, LiveGame};
pub use mail::{DueMail, Mail, MailAddress, NewAddress};
pub use notices::{NewNotice, Notice, NoticeKind, Notices};
pub use postgres::{Postgres, PostgresStore};
pub use seeks::{Pairing, Pool, Seek, SeekStatus, Seeks};
pub use sql::SqlStore;
pub use sqlite::{Sqlite, SqliteStore};
pub use tables::{Copied, COPIED, SKIPPED};
pub use writes::{ChatRate, ChatWrite, ClaimWrite, GameEnd, IdleSweep, LeaveWrite, MoveWrite};

pub use crate::rating::Rating;

use std::collections::HashMap;
use std::sync::Arc;

/// Where a `--db` points: a SQLite file, or a PostgreSQL database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

/// What `db` names: a `postgres://` (or `postgresql://`) URL, a `sqlite://` URL, or else a
/// SQLite file's path. Any other scheme is refused (a `mysql://x` is no file name).
pub fn location(db: &str) -> Result<Location, StoreError> {
    if is_postgres(db) {
        return Ok(Location::Postgres(db.to_string()));
    }
    if let Some(path) = db.strip_prefix("sqlite://") {
        if path.is_empty() {
            return Err(StoreError::unusable(
                "sqlite:// names no file: give sqlite://PATH (or the path alone)",
            ));
        }
        return Ok(Location::Sqlite(path.into()));
    }
    match db.split_once("://") {
        // Only the scheme is shown: the rest may hold a password.
        Some((scheme, _)) => Err(StoreError::unusable(format!(
            "{scheme}://… is not a database sagani can use; give a SQLite file (a path, or \
             sqlite://PATH) or a PostgreSQL URL (postgres://… or postgresql://…)"
        ))),
        None => Ok(Location::Sqlite(db.into())),
    }
}

/// Opens the store `db` names (`location`): a PostgreSQL database, or a SQLite file (created
/// if missing). A SQLite file is served by one process: `exclusive` takes a lock on it that a
/// second server is refused.
pub async fn open(db: &str, exclusive: bool) -> Result<Arc<dyn Store>, StoreError> {
    match location(db)? {
        Location::Postgres(url) => Ok(Arc::new(PostgresStore::open(&url).await?)),
        Location::Sqlite(path) => {
            let store =
                tokio::task::spawn_blocking(move || SqliteStore::open_with(&path, exclusive))
                    .await
                    .map_err(StoreError::unavailable)??;
            Ok(Arc::new(store))
        }
    }
}

/// `db` as it may be shown: a URL with its password hidden (host, port, user and database
/// kept), a path as it is.
pub fn shown(db: &str) -> String {
    if db.contains("://") {
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
