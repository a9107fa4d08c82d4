//! Durable storage, the source of truth: a game's setup and seats, then its moves appended in
//! order. Every write is conditional (a move is stored only as move `n`, a claim only if the
//! seat is as the caller saw it), so any number of servers can share one database.
//!
//! Two stores implement the one `Store` contract and pass the one conformance suite
//! (`conformance`): SQLite (embedded, one server process) and PostgreSQL (several).

mod accounts;
pub mod conformance;
mod copy;
mod error;
mod postgres;
pub mod replay;
mod sqlite;

pub use accounts::{Accounts, NewPlayer, PlayedGame, Player, Ranked, Rating, RatingPoint};
pub use copy::{copy, CopyReport};
pub use error::{Conflict, StoreError};
pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

use async_trait::async_trait;
use sagani_core::{Move, TileId, Variant};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::broadcast;

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
    /// The name of whoever created it, as the lobby shows it (absent for API clients that
    /// gave none).
    pub host: Option<String>,
    /// A rated game: every seat is a person's, claimed by an account; its end updates their
    /// ratings.
    pub rated: bool,
    pub seats: Vec<SavedSeat>,
    pub moves: Vec<SavedMove>,
    /// Counts every stored change to the game (moves, claims, a rematch): a cached copy with
    /// the same `rev` is up to date.
    pub rev: u64,
    /// The game's rematch, once one was created.
    pub rematch: Option<String>,
}

/// Who plays a seat. Secrets are kept only as SHA-256 hashes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SavedSeat {
    Human {
        /// Empty once the seat was taken by number in a public game (the invite is spent).
        invite_hash: String,
        /// Set once the seat is claimed.
        token_hash: Option<String>,
        /// Who claimed it, as the table shows them: a guest's display name or an account's
        /// name; `None` if none was given, or the account was deleted since.
        name: Option<String>,
        /// The account that claimed it (its id), if one did.
        player: Option<String>,
    },
    Bot {
        bot: String,
        level: u8,
    },
}

/// A seat's stored columns, the same in both stores.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeatColumns {
    pub kind: String,
    pub bot: Option<String>,
    pub level: Option<u8>,
    /// None once spent.
    pub invite: Option<String>,
    pub token: Option<String>,
    pub name: Option<String>,
    pub player: Option<String>,
}

impl SavedSeat {
    /// A person's seat, not claimed yet, with the invite whose hash is `invite_hash`.
    pub fn human(invite_hash: String) -> SavedSeat {
        SavedSeat::Human {
            invite_hash,
            token_hash: None,
            name: None,
            player: None,
        }
    }

    pub fn is_bot(&self) -> bool {
        matches!(self, SavedSeat::Bot { .. })
    }

    /// The account holding the seat, if one does.
    pub fn player(&self) -> Option<&str> {
        match self {
            SavedSeat::Human { player, .. } => player.as_deref(),
            SavedSeat::Bot { .. } => None,
        }
    }

    pub(crate) fn columns(&self) -> SeatColumns {
        match self {
            SavedSeat::Human {
                invite_hash,
                token_hash,
                name,
                player,
            } => SeatColumns {
                kind: "human".into(),
                invite: (!invite_hash.is_empty()).then(|| invite_hash.clone()),
                token: token_hash.clone(),
                name: name.clone(),
                player: player.clone(),
                ..SeatColumns::default()
            },
            SavedSeat::Bot { bot, level } => SeatColumns {
                kind: "bot".into(),
                bot: Some(bot.clone()),
                level: Some(*level),
                ..SeatColumns::default()
            },
        }
    }

    /// A seat from its stored columns.
    pub(crate) fn from_columns(game: &str, c: SeatColumns) -> Result<SavedSeat, StoreError> {
        match c.kind.as_str() {
            "human" => Ok(SavedSeat::Human {
                invite_hash: c.invite.unwrap_or_default(),
                token_hash: c.token,
                name: c.name,
                player: c.player,
            }),
            "bot" => Ok(SavedSeat::Bot {
                bot: c.bot.unwrap_or_default(),
                level: c.level.unwrap_or(1),
            }),
            other => Err(StoreError::damaged(game, format!("seat kind {other:?}"))),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedMove {
    pub seat: u8,
    pub mv: Move,
}

/// Moves as stored (`n`, seat, JSON), which must be numbers `from`, `from + 1`, … in order.
fn decode_moves<'a>(
    game: &str,
    from: u64,
    rows: impl IntoIterator<Item = (i64, u8, &'a str)>,
) -> Result<Vec<SavedMove>, StoreError> {
    let mut moves = Vec::new();
    for (n, seat, text) in rows {
        if n as u64 != from + moves.len() as u64 {
            return Err(StoreError::damaged(game, format!("move {n} out of order")));
        }
        let mv = serde_json::from_str(text)
            .map_err(|e| StoreError::damaged(game, format!("move {n}: {e}")))?;
        moves.push(SavedMove { seat, mv });
    }
    Ok(moves)
}

/// Where a game stands, as the lobby and the limits count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A human seat is not claimed yet.
    Waiting,
    Playing,
    Over,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Over => "over",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "waiting" => Some(Status::Waiting),
            "playing" => Some(Status::Playing),
            "over" => Some(Status::Over),
            _ => None,
        }
    }
}

/// What the engine says of a game after a change; the store keeps it so that queries (the
/// lobby, the limits, the bot scheduler) need not replay games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub over: bool,
    /// The seat to act is a bot's.
    pub bot_to_act: bool,
}

/// "Store move `n` of `game`", valid only if the game has exactly `n` moves and, for a person,
/// `token_hash` still holds `seat`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveWrite {
    pub game: String,
    pub n: u64,
    pub seat: u8,
    pub mv: Move,
    /// `None` for a bot's move.
    pub token_hash: Option<String>,
    pub after: Progress,
    /// Set when this move ends the game: stored with it, in the same transaction, with the
    /// ratings of a rated game.
    pub end: Option<GameEnd>,
}

/// How a game ended, stored with its last move.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEnd {
    /// Seconds since the Unix epoch.
    pub at: i64,
    /// The engine's outcome as JSON (RECORD.md): profiles count results from it.
    pub outcome: String,
    /// Each seat's place, 1 for the first; tied seats share a place.
    pub places: Vec<u8>,
}

/// "Give human seat `seat` of `game` the token `token_hash`", valid only if the seat's token is
/// still `seen` (what the caller saw: `None` for a free seat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimWrite {
    pub game: String,
    pub seat: u8,
    pub seen: Option<String>,
    pub token_hash: String,
    /// Claimed by number in a public game: the seat's invite is spent.
    pub by_number: bool,
    /// The claimer's name (a guest's display name or the account's name).
    pub name: Option<String>,
    /// The claiming account's id.
    pub player: Option<String>,
}

/// A game as the lobby lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub id: String,
    pub created_at: i64,
    pub host: Option<String>,
    pub rated: bool,
    pub variant: Variant,
    pub version: u64,
    pub status: Status,
    pub seats: Vec<SavedSeat>,
}

/// One change, heard from any server sharing the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// `game` is now at `rev`.
    Game { game: String, rev: u64 },
    /// Notifications may have been missed (a lost connection): everything may have changed.
    Resync,
}

/// What changed in a game since a cached copy of it: its seats and rematch as they are now,
/// and the moves from the copy's version on.
#[derive(Clone, Debug, PartialEq)]
pub struct Catchup {
    pub rev: u64,
    pub seats: Vec<SavedSeat>,
    pub rematch: Option<String>,
    /// Moves number `from`, `from + 1`, … (what `since` asked from).
    pub moves: Vec<SavedMove>,
}

/// Counts for `/healthz`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    /// Games that are not over.
    pub open: u64,
}

/// A bot's turn waiting to be played: game `game` at `version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotTurn {
    pub game: String,
    pub version: u64,
    pub creator: String,
}

#[async_trait]
pub trait Store: Accounts + Send + Sync + 'static {
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
}

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
            .map_err(|e| StoreError::Unavailable(e.to_string()))??;
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
pub async fn move_counts(db: &str, games: &[String]) -> Result<HashMap<String, u64>, String> {
    let store = open(db, false).await.map_err(|e| e.to_string())?;
    store.move_counts(games).await.map_err(|e| e.to_string())
}

/// The new ratings of a rated game's players, from each seat's account with its rating before
/// (`None` before the first rated game) and each seat's place.
pub(crate) fn rated(
    game: &str,
    before: Vec<(Option<String>, Option<Rating>)>,
    places: &[u8],
) -> Result<Vec<(String, Rating)>, StoreError> {
    if before.len() != places.len() || before.iter().any(|(p, _)| p.is_none()) {
        // Refused at creation and at every claim: a store that holds one is damaged.
        return Err(StoreError::damaged(
            game,
            "a rated game with a seat no account holds",
        ));
    }
    let players: Vec<(Rating, u8)> = before
        .iter()
        .zip(places)
        .map(|((_, r), place)| (r.unwrap_or_else(crate::rating::initial), *place))
        .collect();
    Ok(before
        .into_iter()
        .zip(crate::rating::update(&players))
        .map(|((p, _), r)| (p.unwrap_or_default(), r))
        .collect())
}

/// The id of game `id`'s rematch. It is derived from `id`, so asking twice (on any server) finds
/// the same game.
pub fn rematch_id(id: &str) -> String {
    crate::secret::hash(&format!("rematch of {id}"))[..16].to_string()
}
