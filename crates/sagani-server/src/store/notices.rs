//! The part of the store contract that keeps an account's notices: raised in the transaction of
//! the event they tell of (`sql::notices::raise`), then listed and marked read by the account.

use super::StoreError;
use async_trait::async_trait;

/// What a notice tells of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    /// It is the account's turn in a turn-based game.
    YourTurn,
    /// Someone challenged the account (`about` names the challenge).
    Challenge,
    /// A game the account played is over.
    GameOver,
    /// A seek of the account's was paired into a game.
    SeekPaired,
}

impl NoticeKind {
    pub const ALL: [NoticeKind; 4] = [
        NoticeKind::YourTurn,
        NoticeKind::Challenge,
        NoticeKind::GameOver,
        NoticeKind::SeekPaired,
    ];

    /// Its name in the database and on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            NoticeKind::YourTurn => "your_turn",
            NoticeKind::Challenge => "challenge",
            NoticeKind::GameOver => "game_over",
            NoticeKind::SeekPaired => "seek_paired",
        }
    }

    pub fn parse(s: &str) -> Option<NoticeKind> {
        NoticeKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A notice as its account reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub id: String,
    pub kind: NoticeKind,
    pub game: Option<String>,
    /// What it names besides a game: a challenger's name, a challenge's id.
    pub about: Option<String>,
    /// When it was raised, in milliseconds.
    pub at_ms: i64,
    pub read: bool,
    /// The other people seated at its game, by name (bots and unnamed guests left out).
    pub others: Vec<String>,
}

/// A notice to raise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewNotice {
    /// A fresh id (`secret::random_hex(8)`).
    pub id: String,
    /// The account it is for.
    pub player: String,
    pub kind: NoticeKind,
    pub game: Option<String>,
    pub about: Option<String>,
    pub at_ms: i64,
}

#[async_trait]
pub trait Notices: Send + Sync {
    /// Raises a notice on its own (most are raised inside another write).
    async fn raise_notice(&self, n: &NewNotice) -> Result<(), StoreError>;

    /// The account's notices, newest first, at most `limit`.
    async fn notices(&self, player: &str, limit: u32) -> Result<Vec<Notice>, StoreError>;

    /// How many of the account's notices are unread.
    async fn unread_notices(&self, player: &str) -> Result<u64, StoreError>;

    /// Marks the account's notices raised at or before `upto_ms` read, at `now_ms`; returns how
    /// many it marked.
    async fn read_notices(
        &self,
        player: &str,
        upto_ms: i64,
        now_ms: i64,
    ) -> Result<u64, StoreError>;
}
