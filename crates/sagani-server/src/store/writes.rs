//! The conditional writes the store takes: each is valid only if the stored game is as the
//! caller saw it.

use super::{ChatText, Ended, Left, NewNotice, Progress, SoloResult};
use sagani_core::Move;

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
    /// The notices this move raises ("your turn", "game over"), stored with it.
    pub notices: Vec<NewNotice>,
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
    /// How fast one seat may write, counted from the lines stored (so every server counts the
    /// same lines); each must hold. None: no limit.
    pub rates: Vec<ChatRate>,
}

/// At most `lines` lines of one seat in any `window_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatRate {
    pub lines: u64,
    pub window_ms: i64,
}
