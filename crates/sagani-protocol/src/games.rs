//! Creating and joining games, and the lobby.

use crate::schema::{BotName, VariantName};
use crate::state::{GameStatus, SeatInfo};
use crate::time_control::TimeControl;
use sagani_core::Variant;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// 1 to 4 seats, in seat order, at least one of them human.
    #[schema(min_items = 1, max_items = 4)]
    pub seats: Vec<SeatRequest>,
    /// `standard` (2–4 players), `solo` or `solo-all` (1 player). Default: `standard` for 2–4
    /// seats, `solo` for 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<VariantName>)]
    pub variant: Option<Variant>,
    /// List the game in the lobby (`GET /api/games`); anyone may then claim a free seat without
    /// an invite.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub public: bool,
    /// The interactive tutorial: a solo game (one human seat, variant `solo` or none) dealt the
    /// tutorial's fixed deck (`web/tutorial.json`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tutorial: bool,
    /// A rated game: 2 to 4 seats, every one of them human, claimed only by accounts (logged
    /// in with the session cookie); its end updates their ratings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// A practice game: one human seat, variant `solo` or `solo-all`. Its player may ask for
    /// the engine's hints while it is played (`POST /api/analysis` with the seat's token); it
    /// is unrated, and in no account's records, profile or games.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// The creator's name, as the lobby shows it (a guest's display name; a logged-in
    /// creator is shown by their account's name instead). The same rule as `JoinRequest::name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 24, pattern = r"\S")]
    pub name: Option<String>,
    /// The time control: `{"kind":"none"}` (no clock), `{"kind":"realtime","initial_s":300,
    /// "increment_s":5}` (Fischer: `initial_s` 10–10800, `increment_s` 0–600) or
    /// `{"kind":"turn","days":1}` (1, 2, 3 or 7 days per decision). Default: none, or 10+10
    /// minutes+seconds for a public game (a public game must have a clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
}

/// Who plays a seat.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatRequest {
    /// A person, who claims the seat with its invite.
    Human,
    /// A bot played by the server: `random`, `greedy` or `mcts`; `level` 1–8 (mcts only,
    /// default 2) is its level on the ladder, from a newcomer's play to the strongest search
    /// (`docs/bots.md`).
    Bot {
        #[schema(value_type = BotName)]
        bot: String,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "crate::whole::option"
        )]
        #[schema(minimum = 1, maximum = 8)]
        level: Option<u8>,
    },
}

/// The answer to `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Created {
    pub game: String,
    /// The game's API resource.
    pub url: String,
    /// The link for spectators.
    pub watch_url: String,
    /// One per human seat: hand each to whoever plays it.
    pub invites: Vec<Invite>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Invite {
    pub seat: u8,
    /// Secret: whoever holds it can claim the seat (once).
    pub code: String,
    /// The invite link (`/games/{id}/join/{code}`).
    pub url: String,
}

/// `POST /api/games/{id}/join`: an invite code, or a free seat of a public game.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// A seat of a public game, counted from 0. Also: the seat of a game your account holds
    /// already (with the session cookie), to play it on this device (the seat's old token
    /// stops working).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::whole::option"
    )]
    #[schema(minimum = 0, maximum = 3)]
    pub seat: Option<u8>,
    /// A guest's display name (1–24 characters after NFKC, spaces collapsed; not unique),
    /// shown at the table. Nothing invisible, no controls of the writing direction, one line.
    /// A refusal is `bad_request` with `detail` `display_name_length`, `unseen`,
    /// `too_many_marks` or `name_reserved`; a name that looks like an account's is
    /// `name_taken`. Ignored when the request carries an account's session cookie: the seat
    /// then belongs to the account and shows its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 24, pattern = r"\S")]
    pub name: Option<String>,
}

/// The answer to a claim: the seat's token. Send it as `Authorization: Bearer <token>`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Joined {
    pub game: String,
    pub seat: u8,
    /// Secret, 256 random bits in hex; it is the only way to act for this seat.
    pub token: String,
}

/// A game listed in the lobby.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct LobbyEntry {
    pub game: String,
    #[schema(value_type = VariantName)]
    pub variant: Variant,
    pub players: u8,
    pub status: GameStatus,
    pub version: u64,
    pub seats: Vec<SeatInfo>,
    /// Seconds since the Unix epoch.
    pub created_at: i64,
    /// The creator's name, if one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The time control (every listed game has one).
    #[schema(value_type = Object)]
    pub clock: TimeControl,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Lobby {
    pub games: Vec<LobbyEntry>,
}
