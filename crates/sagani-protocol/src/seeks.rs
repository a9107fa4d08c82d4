//! Play now: a seek for a game with strangers, its state as it waits, and how many wait in each
//! pool.

use crate::time_control::TimeControl;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /api/seeks`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// The game's players, 2 to 4: seeks are paired with seeks of the same players, clock and
    /// `rated`.
    #[serde(deserialize_with = "crate::whole::number")]
    #[schema(minimum = 2, maximum = 4)]
    pub players: u8,
    /// The time control, as for `POST /api/games` (every clock but none).
    pub clock: TimeControl,
    /// A rated game: needs an account (logged in with the session cookie). Rated seeks are
    /// paired by rating, within a window that widens as they wait (`docs/server-api.md`).
    #[serde(default)]
    pub rated: bool,
    /// A guest's display name at the table (a logged-in seeker is shown by the account's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 24, pattern = r"\S")]
    pub name: Option<String>,
    /// After this many seconds without partners, the seek's state offers bots for the other
    /// seats (`POST /api/seeks/{id}/bots`). Unrated seeks only; 10 to 3600.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::whole::option"
    )]
    #[schema(minimum = 10, maximum = 3600)]
    pub bots_after_s: Option<u32>,
}

/// The answer to `POST /api/seeks`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeekCreated {
    pub seek: String,
    /// The seek's token (`Authorization: Bearer <token>`): it reads, cancels and keeps the seek,
    /// and becomes the seat's token once the seek is paired.
    pub token: String,
    /// The seek's resource.
    pub url: String,
    /// A WebSocket that sends the seek's state now and whenever it changes; closing it cancels
    /// a seek that still waits.
    pub ws_url: String,
}

/// Where a seek stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeekStatusName {
    Waiting,
    Paired,
    /// Cancelled by its seeker, or dropped because the seeker went away (no poll and no open
    /// socket for a minute).
    Cancelled,
}

/// `GET /api/seeks/{id}`, and each message of its WebSocket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeekState {
    pub seek: String,
    pub status: SeekStatusName,
    pub players: u8,
    pub clock: TimeControl,
    pub rated: bool,
    /// Seconds waited so far (until paired or cancelled).
    pub waited_s: u64,
    /// Others waiting in the same pool now (not this seek).
    pub others_waiting: u32,
    /// Once paired: the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Once paired: the seeker's seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// Once paired: the seat's token (the seek's token).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat_token: Option<String>,
    /// True once an unrated seek waited `bots_after_s`: `POST /api/seeks/{id}/bots` starts the
    /// game with bots in the other seats.
    pub bots_offered: bool,
}

/// `POST /api/seeks/{id}/bots`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BotsInstead {
    /// The bots' level, 1–8 (default: the default level of `docs/bots.md`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::whole::option"
    )]
    #[schema(minimum = 1, maximum = 8)]
    pub level: Option<u8>,
}

/// `GET /api/seeks`: how many wait in each pool that has a seek waiting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeekPools {
    pub pools: Vec<SeekPool>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeekPool {
    pub players: u8,
    pub clock: TimeControl,
    pub rated: bool,
    pub waiting: u32,
}
