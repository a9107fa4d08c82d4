//! A game as the store keeps it: its setup, seats and moves, and the summaries queries give.

use super::DailyTag;
use crate::time_control::TimeControl;
use sagani_core::{Move, TileId, Variant};

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
    /// A rated game's rating changes, once it is over: one per seat its end rated (none when
    /// it ended too early to count). Read from the rating history; never written from here.
    pub ratings: Vec<RatingStep>,
}

/// One seat's rating before and after a rated game (Weng-Lin `mu` and `sigma`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingStep {
    pub seat: u8,
    /// Before the game: the player's previous entry in the history, else a newcomer's.
    pub before: (f64, f64),
    pub after: (f64, f64),
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedMove {
    pub seat: u8,
    pub mv: Move,
    /// When it was stored, in milliseconds (0 for moves stored before clocks were).
    pub at_ms: i64,
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

/// The id of game `id`'s rematch. It is derived from `id`, so asking twice (on any server) finds
/// the same game.
pub fn rematch_id(id: &str) -> String {
    crate::secret::hash(&format!("rematch of {id}"))[..16].to_string()
}

// The wire's names for the stored states (the protocol declares what clients read).

impl From<Status> for sagani_protocol::GameStatus {
    fn from(s: Status) -> Self {
        match s {
            Status::Waiting => Self::Waiting,
            Status::Playing => Self::Playing,
            Status::Over => Self::Over,
        }
    }
}

impl From<Ended> for sagani_protocol::EndReason {
    fn from(e: Ended) -> Self {
        match e {
            Ended::Resigned => Self::Resigned,
            Ended::TimedOut => Self::Timeout,
            Ended::Abandoned => Self::Abandoned,
            Ended::Closed => Self::Closed,
            Ended::Cancelled => Self::Cancelled,
        }
    }
}

impl From<LeftReason> for sagani_protocol::LeaveReason {
    fn from(r: LeftReason) -> Self {
        match r {
            LeftReason::TimedOut => Self::Timeout,
            LeftReason::Resigned => Self::Resigned,
        }
    }
}
