//! The JSON shapes of the API (what `docs/server-api.md` and `/api/openapi.json` describe).
//! Views, moves and previews are the engine's own JSON (RECORD.md, `sagani_core::view`).

use sagani_core::view::View;
use sagani_core::{Move, Outcome, Preview};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The shape of a move (`sagani_core::Move`'s JSON, RECORD.md), for the OpenAPI document.
#[derive(ToSchema)]
#[schema(as = Move)]
#[serde(tag = "action", rename_all = "kebab-case")]
#[allow(dead_code)]
pub enum MoveSchema {
    /// Place `tile` on cell (`x`, `y`) of your display, turned `rot` quarter turns clockwise.
    Place {
        #[schema(minimum = 1, maximum = 72)]
        tile: u8,
        x: i32,
        y: i32,
        #[schema(minimum = 0, maximum = 3)]
        rot: u8,
    },
    /// Put the last tile of the offer display on the intermezzo storage.
    Intermezzo {
        #[schema(minimum = 1, maximum = 72)]
        tile: u8,
    },
    /// Take no tile during an intermezzo.
    Pass,
}

/// The variants, for the OpenAPI document (`CreateGame::variant`).
#[derive(ToSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)]
pub enum VariantName {
    Standard,
    Solo,
    SoloAll,
}

/// `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// 1 to 4 seats, in seat order, at least one of them human.
    #[schema(min_items = 1, max_items = 4)]
    pub seats: Vec<SeatRequest>,
    /// `standard` (2–4 players), `solo` or `solo-all` (1 player). Default: `standard` for 2–4
    /// seats, `solo` for 1.
    #[serde(default)]
    #[schema(value_type = Option<VariantName>)]
    pub variant: Option<String>,
    /// List the game in the lobby (`GET /api/games`); anyone may then claim a free seat without
    /// an invite.
    #[serde(default)]
    pub public: bool,
    /// The interactive tutorial: a solo game (one human seat, variant `solo` or none) dealt the
    /// tutorial's fixed deck (`web/tutorial.json`).
    #[serde(default)]
    pub tutorial: bool,
    /// A rated game: 2 to 4 seats, every one of them human, claimed only by accounts (logged
    /// in with the session cookie); its end updates their ratings.
    #[serde(default)]
    pub rated: bool,
    /// A practice game: one human seat, variant `solo` or `solo-all`. Its player may ask for
    /// the engine's hints while it is played (`POST /api/analysis` with the seat's token); it
    /// is unrated, and in no account's records, profile or games.
    #[serde(default)]
    pub practice: bool,
    /// The creator's name, as the lobby shows it (a guest's display name; a logged-in
    /// creator is shown by their account's name instead).
    #[serde(default)]
    #[schema(max_length = 24)]
    pub name: Option<String>,
    /// The time control: `{"kind":"none"}` (no clock), `{"kind":"realtime","initial_s":300,
    /// "increment_s":5}` (Fischer: `initial_s` 10–10800, `increment_s` 0–600) or
    /// `{"kind":"turn","days":1}` (1, 2, 3 or 7 days per decision). Default: none, or 10+10
    /// minutes+seconds for a public game (a public game must have a clock).
    #[serde(default)]
    pub clock: Option<crate::time_control::TimeControl>,
}

/// The server's bots, for the OpenAPI document (`SeatRequest::Bot`).
#[derive(ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum BotName {
    Random,
    Greedy,
    Mcts,
}

/// Who plays a seat.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatRequest {
    /// A person, who claims the seat with its invite.
    Human,
    /// A bot played by the server: `random`, `greedy` or `mcts`; `level` 1–8 (mcts only,
    /// default 4) is its level on the ladder, from a newcomer's play to the strongest search
    /// (`docs/bots.md`).
    Bot {
        #[schema(value_type = BotName)]
        bot: String,
        #[serde(default)]
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
    #[serde(default)]
    pub invite: Option<String>,
    /// A seat of a public game, counted from 0. Also: the seat of a game your account holds
    /// already (with the session cookie), to play it on this device (the seat's old token
    /// stops working).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 3)]
    pub seat: Option<u8>,
    /// A guest's display name (1–24 characters, not unique), shown at the table. Ignored when
    /// the request carries an account's session cookie: the seat then belongs to the account
    /// and shows its name.
    #[serde(default)]
    #[schema(max_length = 24)]
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

/// A seat as everybody may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeatInfo {
    pub seat: u8,
    /// `human` or `bot`.
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// A bot seat is always claimed; a human seat once its invite was used.
    pub claimed: bool,
    /// Who plays a claimed human seat: a guest's display name or an account's name (absent
    /// when none was given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The name is an account's (`GET /api/players/{name}`), not a guest's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub account: bool,
    /// The seat's account was deleted since ("a deleted player").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// Set when a bot plays this person's seat now: they timed out or resigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<Replaced>,
}

/// A person's seat a bot took over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Replaced {
    /// `timeout` (the seat's time ran out) or `resigned`.
    pub reason: String,
    /// The version (moves played) when it happened.
    pub version: u64,
    /// The bot that plays the seat from then on.
    pub bot: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}

/// The seats' clocks as the server counted them at `now_ms`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ClockState {
    #[schema(value_type = Object)]
    pub control: crate::time_control::TimeControl,
    /// Each seat's time left in milliseconds at `now_ms` (`null` for a seat a bot plays).
    pub left_ms: Vec<Option<i64>>,
    /// The seat whose clock is running (absent before every seat is claimed, when a bot is to
    /// act, and once the game is over). Its time left goes down from `now_ms` on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<u8>,
    /// The server's time (milliseconds since the Unix epoch) when the state was made.
    pub now_ms: i64,
}

/// A game as one seat (or a spectator) sees it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameState {
    pub game: String,
    /// The number of moves played; a move is made against this version.
    pub version: u64,
    /// `waiting` (a human seat is not claimed yet), `playing` or `over`.
    pub status: String,
    /// The seat this state is for; absent for a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<u8>,
    pub seats: Vec<SeatInfo>,
    /// The engine's view for `you` (or a spectator): everything on the table, never the draw
    /// pile's order.
    #[schema(value_type = Object)]
    pub view: View,
    /// Your legal moves when you must act, else empty.
    #[schema(value_type = Vec<MoveSchema>)]
    pub legal: Vec<Move>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_move: Option<PlayedMove>,
    /// Once the game is over, the engine's outcome: `{"kind":"ranking",ranking,scores}`,
    /// `{"kind":"solo",tiles_used,score,reached,symphony}` or
    /// `{"kind":"solo-all",score,discs_left,final_score}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Outcome>,
    /// The id of this game's rematch, once a player asked for one (`POST …/rematch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// A rated game (its end changes its players' ratings).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// A practice game: its player may ask for hints (`POST /api/analysis`) while it is played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// The clocks, when the game has a time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockState>,
    /// Why the game ended when its rules did not end it: `resigned` or `timeout` (solo),
    /// `abandoned`, `closed` (not all seats claimed in time) or `cancelled` (by its creator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// Chat lines written at the table so far (`GET /api/games/{id}/chat`).
    #[serde(default)]
    pub chats: u64,
    /// A game of the daily challenge (`GET /api/games/{id}/daily` has its result, par and
    /// the day's leaderboard once it is over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<DailyMark>,
}

/// A daily challenge's game: which day and variant, and whether it counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DailyMark {
    /// The UTC day, `YYYY-MM-DD`.
    pub day: String,
    /// `solo` or `solo-all`.
    pub variant: String,
    /// An account's attempt, on the day's leaderboard; a guest's is unranked.
    pub ranked: bool,
    /// The bot's game on the day's deck (par).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub par: bool,
}

/// A move that was played: `version` is the version it was made against, `effect` what it
/// did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayedMove {
    pub version: u64,
    pub seat: u8,
    #[serde(rename = "move")]
    #[schema(value_type = MoveSchema)]
    pub mv: Move,
    /// For a placement, what it did, as the engine worked it out when it was played (the same
    /// shape as a preview); absent for the intermezzo choice and a pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Effect>)]
    pub effect: Option<Preview>,
}

/// What a placement does (`sagani_core::Preview`'s JSON), for the OpenAPI document: a
/// preview's answer, and a played placement's `effect`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct Effect {
    /// The seat that places.
    pub player: u8,
    #[schema(minimum = 1, maximum = 72)]
    pub tile: u8,
    pub x: i32,
    pub y: i32,
    #[schema(minimum = 0, maximum = 3)]
    pub rot: u8,
    /// Arrows that get a disc: those of earlier tiles first, then the new tile's own.
    pub covered: Vec<CoveredSchema>,
    /// Tiles that flip, earlier ones first, then the new tile if it completes at once.
    pub completed: Vec<u8>,
    /// Values of the completed tiles.
    pub points: i16,
    /// Cacophony discs taken, 2 points each.
    pub cacophony: u16,
    /// `points - 2 * cacophony`.
    pub score_change: i16,
    pub score_after: i16,
    pub supply_after: u16,
    /// The placement brings the score up to the target (75/60/45, or 75 in solo).
    pub reaches_target: bool,
}

/// An arrow a placement covers: on which tile, where it points as placed (`N` … `NW`), its
/// element (`fire`, `water`, `earth`, `air`).
#[derive(ToSchema)]
#[schema(as = CoveredArrow)]
#[allow(dead_code)]
pub struct CoveredSchema {
    pub tile: u8,
    pub direction: String,
    pub element: String,
}

/// `POST /api/games/{id}/moves`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The version of the state the move was chosen in.
    pub version: u64,
    /// A move as in RECORD.md: `{"action":"place","tile":7,"x":1,"y":0,"rot":2}`,
    /// `{"action":"intermezzo","tile":31}` or `{"action":"pass"}`.
    #[serde(rename = "move")]
    #[schema(value_type = MoveSchema)]
    pub mv: Move,
}

/// The answer to a move: `applied` is false when it repeats a move already applied (a retry).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveResult {
    pub applied: bool,
    pub state: GameState,
}

/// `POST /api/games/{id}/preview`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PreviewRequest {
    /// A placement for the player who must act.
    #[serde(rename = "move")]
    #[schema(value_type = MoveSchema)]
    pub mv: Move,
}

/// What a placement would do (the engine's `preview`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PreviewResult {
    #[schema(value_type = Effect)]
    pub preview: Preview,
}

/// A game listed in the lobby.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct LobbyEntry {
    pub game: String,
    pub variant: String,
    pub players: u8,
    pub status: String,
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
    pub clock: crate::time_control::TimeControl,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Lobby {
    pub games: Vec<LobbyEntry>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    pub status: String,
    /// Games stored.
    pub games: u64,
    /// Of those, the games that are not over.
    pub open: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Ready {
    /// `ready`.
    pub status: String,
}

/// A WebSocket message from the server: the full state after every change.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Update {
    /// Always `state`.
    #[serde(rename = "type")]
    pub kind: String,
    pub state: GameState,
    /// Every move played since this socket's previous message, in order (empty in the first
    /// message), so a client can show each one even when several came at once.
    pub moves: Vec<PlayedMove>,
}

/// A WebSocket message from a client: `{"type":"auth","token":…}` makes the socket the
/// token's seat (instead of `?token=` in the URL, which browsers may print in their console).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMessage {
    /// The seat's token. The server answers with a state for that seat, or with an `error`
    /// (`wrong_token`) and closes the socket.
    Auth { token: String },
}

/// A WebSocket message from the server when a client's message is refused; the socket closes
/// after it (code 1008).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct WsError {
    /// Always `error`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `wrong_token`: the token of an `auth` message holds no seat at this game.
    pub error: crate::error::ErrorCode,
    pub message: String,
}

/// A tile as printed: `GET /api/tiles` lists all 72, so a client draws them from the engine's
/// own table.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TileInfo {
    #[schema(minimum = 1, maximum = 72)]
    pub id: u8,
    /// The base element: `fire`, `water`, `earth` or `air`.
    pub element: String,
    /// Points when it flips: 1, 3, 6 or 10.
    pub value: u8,
    /// The printed arrows (no rotation): the direction each points (`N`, `NE`, … `NW`) and its
    /// element.
    pub arrows: Vec<TileArrow>,
    /// The arrows once placed with `rot` = 0, 1, 2, 3 quarter turns clockwise.
    pub rotations: Vec<Vec<TileArrow>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TileArrow {
    pub direction: String,
    pub element: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Tiles {
    pub tiles: Vec<TileInfo>,
}

/// `GET /api/games/{id}/moves`: the moves played so far. Every move is public (the table shows
/// them all); the deck is not in it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveList {
    pub moves: Vec<PlayedMove>,
}

/// `POST /api/games/{id}/chat`: `text` or `phrase`, not both.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    /// 1 to 300 characters, one line.
    #[serde(default)]
    #[schema(max_length = 300)]
    pub text: Option<String>,
    /// A quick phrase: `hello`, `good_luck`, `good_game`, `thanks` or `well_played`.
    #[serde(default)]
    pub phrase: Option<String>,
}

/// `GET /api/games/{id}/chat?from=`.
#[derive(Clone, Debug, Deserialize)]
pub struct ChatQuery {
    pub from: Option<u64>,
}

/// A line of a game's chat. Show `text` as text, never as HTML.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ChatLineInfo {
    /// Its number in the game's chat, from 0.
    pub n: u64,
    /// When it was written (milliseconds since the Unix epoch).
    pub at_ms: i64,
    pub seat: u8,
    /// The writer's name as the table showed it then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phrase: Option<String>,
}

impl From<crate::store::ChatLine> for ChatLineInfo {
    fn from(l: crate::store::ChatLine) -> ChatLineInfo {
        let (text, phrase) = match l.line {
            crate::store::ChatText::Text(t) => (Some(t), None),
            crate::store::ChatText::Phrase(p) => (None, Some(p)),
        };
        ChatLineInfo {
            n: l.n,
            at_ms: l.at_ms,
            seat: l.seat,
            name: l.name,
            text,
            phrase,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ChatLines {
    pub lines: Vec<ChatLineInfo>,
}
