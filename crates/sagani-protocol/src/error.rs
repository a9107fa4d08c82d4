//! Refusals: every error code the server sends, and the JSON body it comes in.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Every refusal the server can send, each with its one HTTP status. The OpenAPI document lists
/// exactly these (`ErrorBody::error`), and the tests check every answer against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A malformed request: bad JSON, a wrong field, a value out of range.
    BadRequest,
    /// A body that is not `application/json`.
    BadContentType,
    BodyTooLarge,
    /// No such game, route or asset.
    NotFound,
    MethodNotAllowed,
    /// The route needs a seat's token, or the `Authorization` header is malformed.
    MissingToken,
    /// A token that holds no seat at this game (perhaps revoked by a re-claim).
    WrongToken,
    /// An invite code that claims no seat of this game, or a seat number in a private game.
    WrongInvite,
    SeatTaken,
    /// The game moved on since the version the move was made for.
    StaleVersion,
    NotYourTurn,
    GameOver,
    GameInProgress,
    /// A move the rules refuse; the message is the engine's reason.
    IllegalMove,
    /// A WebSocket route asked for without a WebSocket upgrade.
    NotAWebsocket,
    TooManyGames,
    RateLimited,
    /// The server failed on the request (a bug, or a game damaged in the database).
    Internal,
    /// The database could not be reached; try again.
    Storage,
    /// The request took longer than the server allows.
    Timeout,
    /// A name for an account that is taken (in any case).
    NameTaken,
    /// A wrong account name or password (one answer for both).
    WrongLogin,
    /// The route needs a logged-in account (the session cookie).
    NotLoggedIn,
    /// A request with the session cookie that changes something, from a page of another origin
    /// (or without an `Origin` header).
    WrongOrigin,
    /// A rated game's seat, claimed without being logged in to an account.
    AccountNeeded,
    /// The seat's time ran out: a bot plays it now.
    TimeUp,
    /// The seat's player resigned or timed out: a bot plays it now.
    SeatLeft,
    /// Cancelling a game someone else has joined.
    GameStarted,
    /// A daily challenge's game, asked for by someone other than its player before its day is
    /// over.
    HistoryHidden,
    /// The server is too busy for this request now (its password checks are all taken): try
    /// again after `Retry-After`.
    Busy,
    /// This address holds as many connections as one address may: close one first.
    TooManyConnections,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 31] = [
        ErrorCode::BadRequest,
        ErrorCode::BadContentType,
        ErrorCode::BodyTooLarge,
        ErrorCode::NotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::MissingToken,
        ErrorCode::WrongToken,
        ErrorCode::WrongInvite,
        ErrorCode::SeatTaken,
        ErrorCode::StaleVersion,
        ErrorCode::NotYourTurn,
        ErrorCode::GameOver,
        ErrorCode::GameInProgress,
        ErrorCode::IllegalMove,
        ErrorCode::NotAWebsocket,
        ErrorCode::TooManyGames,
        ErrorCode::RateLimited,
        ErrorCode::Internal,
        ErrorCode::Storage,
        ErrorCode::Timeout,
        ErrorCode::NameTaken,
        ErrorCode::WrongLogin,
        ErrorCode::NotLoggedIn,
        ErrorCode::WrongOrigin,
        ErrorCode::AccountNeeded,
        ErrorCode::TimeUp,
        ErrorCode::SeatLeft,
        ErrorCode::GameStarted,
        ErrorCode::HistoryHidden,
        ErrorCode::Busy,
        ErrorCode::TooManyConnections,
    ];

    /// The name in the JSON body.
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// The JSON body of every error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// Machine-readable: what went wrong (the HTTP status follows from it).
    pub error: ErrorCode,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// With `illegal_move`: why, for a client to put in its own words (the `message` is the
    /// engine's English).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<IllegalReason>,
}

/// A cell of a display: `x` grows to the right, `y` downwards; the first tile is at (0, 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CellXY {
    pub x: i32,
    pub y: i32,
}

impl From<sagani_core::Cell> for CellXY {
    fn from(c: sagani_core::Cell) -> CellXY {
        CellXY { x: c.x, y: c.y }
    }
}

/// Why the engine refused a move, one kind per refusal, with what a client needs to word it.
/// `player` is the seat whose display it is (the seat to act).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IllegalReason {
    GameOver,
    /// Tiles are 1 to 72.
    UnknownTile {
        tile: u8,
    },
    /// Rotations are 0 to 3.
    BadRotation {
        rot: u8,
    },
    NotInOffer {
        tile: u8,
    },
    NotInStorage {
        tile: u8,
    },
    /// The revealed tile (after an intermezzo choice, or in solo) must be placed, and only it.
    MustPlaceRevealed {
        revealed: u8,
    },
    /// The first tile of a display goes on (0, 0).
    FirstTileNotAtOrigin {
        cell: CellXY,
        player: u8,
    },
    /// The cell holds `tile` already.
    CellTaken {
        cell: CellXY,
        player: u8,
        tile: u8,
    },
    /// The cell is not orthogonally next to a tile of the display.
    CellNotAdjacent {
        cell: CellXY,
        player: u8,
    },
    /// The intermezzo choice needs exactly one tile in the offer; it holds `offer_len`.
    IntermezzoNeedsLastOfferTile {
        offer_len: u8,
    },
    /// The intermezzo choice names `tile`, but the offer's last tile is `offer`.
    IntermezzoWrongTile {
        tile: u8,
        offer: u8,
    },
    /// The intermezzo choice needs a tile in the draw pile.
    IntermezzoEmptyPile,
    /// The intermezzo choice is only possible on a turn.
    IntermezzoNotNow,
    /// Passing is only possible during an intermezzo.
    PassNotNow,
    /// Only a placement can be previewed.
    NotAPlacement,
}

impl From<&sagani_core::IllegalMove> for IllegalReason {
    fn from(e: &sagani_core::IllegalMove) -> IllegalReason {
        use sagani_core::IllegalMove as I;
        use IllegalReason as R;
        match *e {
            I::GameOver => R::GameOver,
            I::UnknownTile { tile } => R::UnknownTile { tile },
            I::BadRotation { rot } => R::BadRotation { rot },
            I::NotInOffer { tile } => R::NotInOffer { tile },
            I::NotInStorage { tile } => R::NotInStorage { tile },
            I::MustPlaceRevealed { revealed } => R::MustPlaceRevealed { revealed },
            I::FirstTileNotAtOrigin { cell, player } => R::FirstTileNotAtOrigin {
                cell: cell.into(),
                player,
            },
            I::CellTaken { cell, player, tile } => R::CellTaken {
                cell: cell.into(),
                player,
                tile,
            },
            I::CellNotAdjacent { cell, player } => R::CellNotAdjacent {
                cell: cell.into(),
                player,
            },
            I::IntermezzoNeedsLastOfferTile { offer_len } => R::IntermezzoNeedsLastOfferTile {
                offer_len: offer_len.min(u8::MAX as usize) as u8,
            },
            I::IntermezzoWrongTile { tile, offer } => R::IntermezzoWrongTile { tile, offer },
            I::IntermezzoEmptyPile => R::IntermezzoEmptyPile,
            I::IntermezzoNotNow => R::IntermezzoNotNow,
            I::PassNotNow => R::PassNotNow,
            I::NotAPlacement => R::NotAPlacement,
        }
    }
}
