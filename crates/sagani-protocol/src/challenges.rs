//! Challenges and follows between accounts: challenging an account by name, the challenges an
//! account sent and received, answering one; whom an account follows, and whom it takes
//! challenges from.

use crate::schema::VariantName;
use crate::time_control::TimeControl;
use sagani_core::Variant;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /api/challenges`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The challenged account's name, in any case or normal form (as a log-in takes it).
    pub to: String,
    /// The time control, as for `POST /api/games` (default: no clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    /// A rated game: its end updates both ratings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// `standard` (the default): a challenge is a game of two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<VariantName>)]
    pub variant: Option<Variant>,
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    /// Waiting for the challenged account's answer.
    Open,
    /// Accepted: `game` is its game.
    Accepted,
    Declined,
    Withdrawn,
    /// Not answered in time.
    Expired,
}

/// A challenge as its two accounts see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChallengeInfo {
    pub challenge: String,
    /// The challenger's name.
    pub from: String,
    /// The challenged account's name.
    pub to: String,
    #[schema(value_type = VariantName)]
    pub variant: Variant,
    pub clock: TimeControl,
    pub rated: bool,
    pub status: ChallengeStatus,
    /// The game, once accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The game's page, once accepted (the challenger takes their seat there, logged in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_url: Option<String>,
    /// The viewer's seat in the game, once accepted (counted from 0): the challenger takes it
    /// with `POST /api/games/{game}/join {"seat": …}` and the session cookie.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// When it was sent and when it expires unanswered, in milliseconds since the epoch.
    pub at_ms: i64,
    pub expires_ms: i64,
}

/// `GET /api/challenges`: the account's challenges, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChallengeList {
    /// Open challenges to the account.
    pub incoming: Vec<ChallengeInfo>,
    /// The account's challenges: open ones, and those answered in the last day.
    pub outgoing: Vec<ChallengeInfo>,
}

/// The answer to `POST /api/challenges/{id}/accept`: the game, and the accepter's seat in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChallengeAccepted {
    pub challenge: String,
    pub game: String,
    /// The accepter's seat (counted from 0) and its token.
    pub seat: u8,
    pub token: String,
    /// The game's page.
    pub url: String,
}

/// Whom an account takes challenges from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengesFrom {
    #[default]
    Everyone,
    /// Only accounts it follows.
    Followed,
}

/// `PUT /api/me/challenges`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeSetting {
    pub from: ChallengesFrom,
}

/// An account the player follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FollowEntry {
    pub name: String,
    /// It made a request, logged in, in the last two minutes.
    pub online: bool,
}

/// `GET /api/follows`: whom the account follows (by name), and whom it takes challenges from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FollowList {
    pub follows: Vec<FollowEntry>,
    pub challenges_from: ChallengesFrom,
}
