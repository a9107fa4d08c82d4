//! The games to watch: games in progress between people, strongest first, each with its
//! players, its clock, how far it is, and how many watch it.

use crate::state::SeatKind;
use crate::time_control::TimeControl;
use sagani_core::Variant;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `GET /api/live`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LiveGames {
    /// At most 50, strongest first: by the mean rating of the people playing (a guest, and an
    /// account before its first rated game, count as 1000), then the most recently started.
    pub games: Vec<LiveGame>,
}

/// A game in progress between people.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LiveGame {
    pub game: String,
    /// Where to watch it: the table, opened without a seat.
    pub url: String,
    #[schema(value_type = crate::schema::VariantName)]
    pub variant: Variant,
    /// The time control.
    #[schema(value_type = Object)]
    pub clock: TimeControl,
    /// Moves played so far.
    pub moves: u64,
    /// When its clocks started (milliseconds since the Unix epoch); absent before that.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The mean rating of the people playing, as the list orders it.
    pub strength: i64,
    /// People watching it now (WebSockets without a seat, on every server).
    pub spectators: u64,
    /// Every seat, in order.
    pub players: Vec<LivePlayer>,
}

/// A seat of a game to watch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LivePlayer {
    pub seat: u8,
    /// `bot` for a bot's seat, and for a person's seat a bot took over.
    pub kind: SeatKind,
    /// A person's display name or account name (absent if none was given); a bot's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The name is an account's (`GET /api/players/{name}`), not a guest's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub account: bool,
    /// An account's rating on the displayed scale (1000 before its first rated game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    /// Fewer than 10 rated games: the rating may still move a lot.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
    /// A bot's level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}
