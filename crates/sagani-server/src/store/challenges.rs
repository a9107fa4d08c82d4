//! The part of the store contract that keeps challenges and follows between accounts: a
//! challenge stored with its notice, accepted once (with its game, in one transaction), declined
//! or withdrawn; whom an account follows, whom it takes challenges from, and when it was last
//! seen (for "online now").

use super::{NewNotice, Progress, SavedGame, StoreError};
use crate::time_control::TimeControl;
use async_trait::async_trait;
use sagani_core::Variant;

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeStatus {
    /// Waiting for the challenged account (until it expires).
    Open,
    /// Accepted: it names its game.
    Accepted,
    /// Declined by the challenged account.
    Declined,
    /// Withdrawn by the challenger.
    Withdrawn,
}

impl ChallengeStatus {
    pub const ALL: [ChallengeStatus; 4] = [
        ChallengeStatus::Open,
        ChallengeStatus::Accepted,
        ChallengeStatus::Declined,
        ChallengeStatus::Withdrawn,
    ];

    /// Its name in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Withdrawn => "withdrawn",
        }
    }

    pub fn parse(s: &str) -> Option<ChallengeStatus> {
        ChallengeStatus::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A challenge to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    pub id: String,
    /// The challenger's account.
    pub from: String,
    /// The challenged account.
    pub to: String,
    pub variant: Variant,
    pub clock: TimeControl,
    pub rated: bool,
    pub at_ms: i64,
    /// When it stops being open, unless answered before.
    pub expires_ms: i64,
}

/// A stored challenge, with both accounts' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub id: String,
    pub from: String,
    pub from_name: String,
    pub to: String,
    pub to_name: String,
    pub variant: Variant,
    pub clock: TimeControl,
    pub rated: bool,
    pub status: ChallengeStatus,
    /// Its game, once accepted.
    pub game: Option<String>,
    pub at_ms: i64,
    pub expires_ms: i64,
    /// When it was accepted, declined or withdrawn.
    pub decided_ms: Option<i64>,
}

impl Challenge {
    /// Open and not expired at `now_ms`.
    pub fn open_at(&self, now_ms: i64) -> bool {
        self.status == ChallengeStatus::Open && now_ms < self.expires_ms
    }
}

/// How an open challenge is closed without a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closing {
    /// By the challenged account.
    Decline,
    /// By the challenger.
    Withdraw,
}

/// An account someone follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Followed {
    pub name: String,
    /// When it last made a request with its session cookie (in milliseconds).
    pub last_seen: Option<i64>,
}

#[async_trait]
pub trait Challenges: Send + Sync {
    /// Stores a challenge and raises `notice` for the challenged account, in one transaction.
    /// `Conflict::TooManyChallenges` if the challenger has `max_open` challenges open at
    /// `c.at_ms` already; `Conflict::NotFollowed` if the challenged account takes challenges
    /// only from accounts it follows and does not follow the challenger; `NotFound` if either
    /// account is missing or deleted.
    async fn challenge(
        &self,
        c: &NewChallenge,
        notice: &NewNotice,
        max_open: u64,
    ) -> Result<(), StoreError>;

    /// A challenge by its id; `NotFound` if there is none.
    async fn challenge_by_id(&self, id: &str) -> Result<Challenge, StoreError>;

    /// The account's challenges, sent and received, open at `now_ms` or decided since
    /// `since_ms`, newest first, at most `limit`.
    async fn challenges_of(
        &self,
        player: &str,
        now_ms: i64,
        since_ms: i64,
        limit: u32,
    ) -> Result<Vec<Challenge>, StoreError>;

    /// Accepts challenge `id` for the challenged account `player` at `now_ms` and stores its
    /// `game`, in one transaction (as `Store::create`, unlimited); returns every game whose
    /// `rev` changed. `Conflict::Changed` if it is no longer open (accepted meanwhile on any
    /// server, declined, withdrawn, expired); `NotFound` if it is not `player`'s to accept.
    async fn accept_challenge(
        &self,
        id: &str,
        player: &str,
        game: &SavedGame,
        after: Progress,
        now_ms: i64,
    ) -> Result<Vec<(String, u64)>, StoreError>;

    /// Declines (by the challenged account) or withdraws (by the challenger) an open challenge.
    /// `Conflict::Changed` if it is no longer open; `NotFound` if it is not `player`'s to close
    /// so.
    async fn close_challenge(
        &self,
        id: &str,
        player: &str,
        how: Closing,
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// `follower` follows `followed` from `at_ms` on (again: nothing changes).
    async fn follow(&self, follower: &str, followed: &str, at_ms: i64) -> Result<(), StoreError>;

    /// `follower` no longer follows `followed`; false if it did not.
    async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError>;

    /// The accounts `follower` follows (not deleted ones), by name.
    async fn follows(&self, follower: &str) -> Result<Vec<Followed>, StoreError>;

    /// Whether `follower` follows `followed`.
    async fn is_following(&self, follower: &str, followed: &str) -> Result<bool, StoreError>;

    /// Whether the account takes challenges only from accounts it follows.
    async fn followed_only(&self, player: &str) -> Result<bool, StoreError>;

    /// Sets whom the account takes challenges from.
    async fn set_followed_only(&self, player: &str, only: bool) -> Result<(), StoreError>;

    /// Notes that the account made a request at `now_ms`, unless it was noted after
    /// `now_ms - every_ms` already (so an account costs one write a minute at most, across
    /// servers); true if it wrote.
    async fn seen(&self, player: &str, now_ms: i64, every_ms: i64) -> Result<bool, StoreError>;
}
