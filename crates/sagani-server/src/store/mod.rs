//! Durable storage, the source of truth: a game's setup and seats, then its moves appended in
//! order. Every write is conditional (a move is stored only as move `n`, a claim only if the
//! seat is as the caller saw it), so any number of servers can share one database.
//!
//! Two stores implement the one `Store` contract and pass the one conformance suite
//! (`conformance`): SQLite (embedded, one server process) and PostgreSQL (several).

mod accounts;
pub mod conformance;
mod copy;
mod daily;
mod error;
mod postgres;
pub mod replay;
mod sqlite;

pub use accounts::{Accounts, NewPlayer, PlayedGame, Player, Ranked, Rating, RatingPoint};
pub use copy::{copy, CopyReport};
pub use daily::{Daily, DailyEntry, DailyTag, SoloResult};
pub use error::{Conflict, StoreError};
pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

use crate::time_control::TimeControl;
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
    /// A practice game: solo, with the engine's hints while it is played; unrated, and in no
    /// account's records, profile or games.
    pub practice: bool,
    pub seats: Vec<SavedSeat>,
    pub moves: Vec<SavedMove>,
    /// Counts every stored change to the game (moves, claims, a rematch): a cached copy with
    /// the same `rev` is up to date.
    pub rev: u64,
    /// The game's rematch, once one was created.
    pub rematch: Option<String>,
    /// Its time control (chosen at creation).
    pub clock: TimeControl,
    /// When every seat was first claimed, in milliseconds: the clocks started then.
    pub started_ms: Option<i64>,
    /// Why it ended, when its rules did not end it.
    pub ended: Option<Ended>,
    /// Chat lines written at the table so far.
    pub chats: u64,
    /// A game of the daily challenge: its day, and its result once over.
    pub daily: Option<DailyTag>,
}

/// How a game ended other than by its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The solo player resigned.
    Resigned,
    /// The solo player's time ran out.
    TimedOut,
    /// Nobody moved for `--abandon-after-days`.
    Abandoned,
    /// Its seats were not all claimed within `--expire-unstarted-days`.
    Closed,
    /// Its creator cancelled it before anyone else joined.
    Cancelled,
}

impl Ended {
    pub fn name(self) -> &'static str {
        match self {
            Ended::Resigned => "resigned",
            Ended::TimedOut => "timeout",
            Ended::Abandoned => "abandoned",
            Ended::Closed => "closed",
            Ended::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<Ended> {
        [
            Ended::Resigned,
            Ended::TimedOut,
            Ended::Abandoned,
            Ended::Closed,
            Ended::Cancelled,
        ]
        .into_iter()
        .find(|e| e.name() == s)
    }
}

/// Why a bot plays a person's seat now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftReason {
    TimedOut,
    Resigned,
}

impl LeftReason {
    pub fn name(self) -> &'static str {
        match self {
            LeftReason::TimedOut => "timeout",
            LeftReason::Resigned => "resigned",
        }
    }

    pub fn parse(s: &str) -> Option<LeftReason> {
        match s {
            "timeout" => Some(LeftReason::TimedOut),
            "resigned" => Some(LeftReason::Resigned),
            _ => None,
        }
    }
}

/// A person's seat that a bot took over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Left {
    pub reason: LeftReason,
    /// The game's version (moves played) when it happened.
    pub version: u64,
    /// When, in milliseconds.
    pub at_ms: i64,
    pub bot: String,
    pub level: u8,
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
        /// Set once the person timed out or resigned: a bot plays the seat from then on.
        left: Option<Left>,
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
    pub left_reason: Option<String>,
    pub left_version: Option<i64>,
    pub left_at: Option<i64>,
    pub left_bot: Option<String>,
    pub left_level: Option<u8>,
}

impl SavedSeat {
    /// A person's seat, not claimed yet, with the invite whose hash is `invite_hash`.
    pub fn human(invite_hash: String) -> SavedSeat {
        SavedSeat::Human {
            invite_hash,
            token_hash: None,
            name: None,
            player: None,
            left: None,
        }
    }

    /// Played by a bot: a bot's seat, or a person's a bot took over.
    pub fn is_bot(&self) -> bool {
        self.bot().is_some()
    }

    /// The bot that plays the seat now, with its level.
    pub fn bot(&self) -> Option<(&str, u8)> {
        match self {
            SavedSeat::Bot { bot, level } => Some((bot, *level)),
            SavedSeat::Human {
                left: Some(left), ..
            } => Some((&left.bot, left.level)),
            SavedSeat::Human { .. } => None,
        }
    }

    /// How the person left the seat, if they did.
    pub fn left(&self) -> Option<&Left> {
        match self {
            SavedSeat::Human { left, .. } => left.as_ref(),
            SavedSeat::Bot { .. } => None,
        }
    }

    /// A person plays it against the clock: a person's seat no bot took over.
    pub fn timed(&self) -> bool {
        matches!(self, SavedSeat::Human { left: None, .. })
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
                left,
            } => SeatColumns {
                kind: "human".into(),
                invite: (!invite_hash.is_empty()).then(|| invite_hash.clone()),
                token: token_hash.clone(),
                name: name.clone(),
                player: player.clone(),
                left_reason: left.as_ref().map(|l| l.reason.name().to_string()),
                left_version: left.as_ref().map(|l| l.version as i64),
                left_at: left.as_ref().map(|l| l.at_ms),
                left_bot: left.as_ref().map(|l| l.bot.clone()),
                left_level: left.as_ref().map(|l| l.level),
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
                left: match c.left_reason.as_deref() {
                    None => None,
                    Some(r) => Some(Left {
                        reason: LeftReason::parse(r)
                            .ok_or_else(|| StoreError::damaged(game, format!("left for {r:?}")))?,
                        version: c.left_version.unwrap_or(0) as u64,
                        at_ms: c.left_at.unwrap_or(0),
                        bot: c.left_bot.unwrap_or_else(|| "greedy".into()),
                        level: c.left_level.unwrap_or(1),
                    }),
                },
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
    /// When it was stored, in milliseconds (0 for moves stored before clocks were).
    pub at_ms: i64,
}

/// Moves as stored (`n`, seat, JSON, time), which must be numbers `from`, `from + 1`, … in
/// order.
fn decode_moves<'a>(
    game: &str,
    from: u64,
    rows: impl IntoIterator<Item = (i64, u8, &'a str, Option<i64>)>,
) -> Result<Vec<SavedMove>, StoreError> {
    let mut moves = Vec::new();
    for (n, seat, text, at) in rows {
        if n as u64 != from + moves.len() as u64 {
            return Err(StoreError::damaged(game, format!("move {n} out of order")));
        }
        let mv = serde_json::from_str(text)
            .map_err(|e| StoreError::damaged(game, format!("move {n}: {e}")))?;
        moves.push(SavedMove {
            seat,
            mv,
            at_ms: at.unwrap_or(0),
        });
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
    /// When the running clock runs out (the time-out sweep looks then).
    pub deadline_ms: Option<i64>,
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
    /// When it is stored, in milliseconds.
    pub at_ms: i64,
    /// Set when this move starts the clocks (a rematch's first move: its seats were all taken
    /// when it was made).
    pub start_ms: Option<i64>,
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
    /// A solo game's result: a daily game stores it for the leaderboards.
    pub solo: Option<SoloResult>,
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
    /// When, in milliseconds: the clocks start now if this claim is the last one missing.
    pub at_ms: i64,
    /// The running clock's deadline should they start now.
    pub deadline_if_started: Option<i64>,
}

/// "A bot takes over `seat` of `game`", valid only while the game has exactly `n` moves, is
/// not over, and the seat is a person's not yet taken over.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaveWrite {
    pub game: String,
    pub n: u64,
    pub seat: u8,
    pub left: Left,
    pub after: Progress,
    /// Set when leaving ends the game (a solo player resigned).
    pub ended: Option<Ended>,
}

/// Ends games nobody plays: those with no move since `active_before_ms` are abandoned; those
/// created before `created_before_s` whose seats are not all claimed are closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdleSweep {
    pub now_ms: i64,
    pub active_before_ms: i64,
    pub created_before_s: i64,
}

/// A line of chat to store as line number `chats` of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatWrite {
    pub game: String,
    pub seat: u8,
    pub at_ms: i64,
    pub name: Option<String>,
    pub line: ChatText,
    /// The most lines a game keeps.
    pub max_lines: u64,
}

/// What a chat line says: words someone wrote, or a quick phrase's key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatText {
    Text(String),
    Phrase(String),
}

/// A stored chat line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    pub n: u64,
    pub at_ms: i64,
    pub seat: u8,
    pub name: Option<String>,
    pub line: ChatText,
}

impl ChatText {
    pub(crate) fn columns(&self) -> (Option<&str>, Option<&str>) {
        match self {
            ChatText::Text(t) => (Some(t), None),
            ChatText::Phrase(p) => (None, Some(p)),
        }
    }

    pub(crate) fn from_columns(text: Option<String>, phrase: Option<String>) -> ChatText {
        match phrase {
            Some(p) => ChatText::Phrase(p),
            None => ChatText::Text(text.unwrap_or_default()),
        }
    }
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
    pub clock: TimeControl,
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
    pub started_ms: Option<i64>,
    pub ended: Option<Ended>,
    pub chats: u64,
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
pub trait Store: Accounts + Daily + Send + Sync + 'static {
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

/// A game's timing columns, read back.
pub(crate) fn timing_from(
    game: &str,
    clock: Option<String>,
    started_ms: Option<i64>,
    ended: Option<String>,
    chats: i64,
) -> Result<(TimeControl, Option<i64>, Option<Ended>, u64), StoreError> {
    let clock =
        TimeControl::from_stored(clock.as_deref()).map_err(|e| StoreError::damaged(game, e))?;
    let ended = match ended {
        None => None,
        Some(e) => Some(
            Ended::parse(&e).ok_or_else(|| StoreError::damaged(game, format!("ended {e:?}")))?,
        ),
    };
    Ok((clock, started_ms, ended, chats.max(0) as u64))
}

/// When a person last acted in a stored game, in milliseconds: its last move, else when its
/// clocks started, else its creation.
pub(crate) fn active_at(game: &SavedGame, moves: &[SavedMove]) -> i64 {
    moves
        .iter()
        .map(|m| m.at_ms)
        .chain(game.started_ms)
        .max()
        .filter(|&at| at > 0)
        .unwrap_or(game.created_at * 1000)
}

/// Seat numbers as a query lists them ("0,2"); none for `None`.
pub(crate) fn seat_list(list: Option<String>) -> Vec<u8> {
    list.unwrap_or_default()
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect()
}
