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
    /// The challenged account takes challenges only from players it follows.
    ChallengeRefused,
    /// The account has as many open challenges as it may: withdraw one, or wait for answers.
    TooManyChallenges,
    /// The challenge is no longer open (accepted, declined, withdrawn or expired).
    ChallengeClosed,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 34] = [
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
        ErrorCode::ChallengeRefused,
        ErrorCode::TooManyChallenges,
        ErrorCode::ChallengeClosed,
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
    /// With `bad_request`: what exactly a person got wrong (a name, a password, a chat line, a
    /// clock), for a client to put in its own words (the `message` is the server's English).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<RefusalDetail>,
}

/// Account names: this many characters (after NFKC), letters, marks and digits of any script,
/// `_` and `-`.
pub const NAME_MIN: u32 = 3;
pub const NAME_MAX: u32 = 20;
/// A guest's display name: this many characters, spaces collapsed.
pub const DISPLAY_NAME_MIN: u32 = 1;
pub const DISPLAY_NAME_MAX: u32 = 24;
pub const PASSWORD_MIN: u32 = 8;
pub const PASSWORD_MAX: u32 = 200;
/// A chat line's most characters.
pub const CHAT_MAX: u32 = 300;
/// Combining marks one character may carry: enough for any script's accents and vowel signs,
/// too few to pile marks above and below the line ("Zalgo" text).
pub const MAX_MARKS: u32 = 3;

/// What a person got wrong in a request the page lets them make, one kind per refusal, with
/// the numbers a client needs to word it. `code_point` is `U+` and 4 to 6 hex digits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RefusalDetail {
    /// An account's name has `min` to `max` characters (after NFKC); this one has `len`.
    NameLength { min: u32, max: u32, len: u32 },
    /// An account's name has letters, digits, `_` and `-` only (marks only after a letter):
    /// `code_point` is none of these. `character` is it as shown, when it can be seen.
    NameCharacter {
        code_point: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        character: Option<String>,
    },
    /// A name (an account's or a guest's) that would pass for a bot, the site or its staff.
    NameReserved,
    /// A guest's display name has `min` to `max` characters (spaces collapsed); this one has
    /// `len`.
    DisplayNameLength { min: u32, max: u32, len: u32 },
    /// A display name or a chat line holds a character that is not seen, or that changes how
    /// the text around it is laid out.
    Unseen { what: Unseen, code_point: String },
    /// More than `max` combining marks on one character (at `code_point`).
    TooManyMarks { max: u32, code_point: String },
    /// A password has `min` to `max` characters.
    PasswordLength { min: u32, max: u32 },
    /// The password is the account's name.
    PasswordIsName,
    /// A chat line with no visible text.
    ChatEmpty,
    /// A chat line has at most `max` characters; this one has `len`.
    ChatTooLong { max: u32, len: u32 },
    /// A real-time clock's time for the whole game is `min` to `max` seconds, not `value`.
    ClockInitial { min: u32, max: u32, value: u32 },
    /// A real-time clock's increment is at most `max` seconds, not `value`.
    ClockIncrement { max: u32, value: u32 },
    /// A turn-based clock gives 1, 2, 3 or 7 days per decision, not `value`.
    ClockDays { value: u32 },
    /// A public game needs a clock (a seat whose player never moves must time out).
    PublicNeedsClock,
    /// A record file (RECORD.md) whose header or shape cannot be read.
    RecordUnreadable,
    /// A record file whose move `index` (counted from 0, as RECORD.md counts) cannot be read
    /// or breaks the rules; the message says why, in English.
    RecordMove { index: u32 },
    /// A challenge to one's own account.
    ChallengeYourself,
    /// This server sends no mail (it was started without `--smtp`).
    MailOff,
    /// Not an e-mail address this server can write to (at most 254 characters, `name@domain`).
    MailAddress,
    /// The mail with the link could not be sent just now (the mail server refused or did not
    /// answer): try again later.
    MailUnsent,
}

/// Why a character is not shown as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unseen {
    Control,
    LineSeparator,
    /// A control of the writing direction (Trojan Source).
    Direction,
    Invisible,
    Formatting,
    PrivateUse,
    Unassigned,
}

impl Unseen {
    pub const ALL: [Unseen; 7] = [
        Unseen::Control,
        Unseen::LineSeparator,
        Unseen::Direction,
        Unseen::Invisible,
        Unseen::Formatting,
        Unseen::PrivateUse,
        Unseen::Unassigned,
    ];

    /// In an English sentence: "has {}".
    pub fn english(self) -> &'static str {
        match self {
            Unseen::Control => "a control character",
            Unseen::LineSeparator => "a line or paragraph separator",
            Unseen::Direction => "a control of the writing direction",
            Unseen::Invisible => "an invisible character",
            Unseen::Formatting => "an invisible formatting character",
            Unseen::PrivateUse => "a private-use character",
            Unseen::Unassigned => "an unassigned character",
        }
    }

    /// The name in the JSON body.
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

impl RefusalDetail {
    /// One refusal of every kind (for tests that every kind has its words in every client).
    pub fn examples() -> Vec<RefusalDetail> {
        let u = || "U+200B".to_string();
        vec![
            RefusalDetail::NameLength {
                min: NAME_MIN,
                max: NAME_MAX,
                len: 2,
            },
            RefusalDetail::NameCharacter {
                code_point: "U+003B".into(),
                character: Some(";".into()),
            },
            RefusalDetail::NameReserved,
            RefusalDetail::DisplayNameLength {
                min: DISPLAY_NAME_MIN,
                max: DISPLAY_NAME_MAX,
                len: 0,
            },
            RefusalDetail::Unseen {
                what: Unseen::Invisible,
                code_point: u(),
            },
            RefusalDetail::TooManyMarks {
                max: MAX_MARKS,
                code_point: "U+0337".into(),
            },
            RefusalDetail::PasswordLength {
                min: PASSWORD_MIN,
                max: PASSWORD_MAX,
            },
            RefusalDetail::PasswordIsName,
            RefusalDetail::ChatEmpty,
            RefusalDetail::ChatTooLong {
                max: CHAT_MAX,
                len: 301,
            },
            RefusalDetail::ClockInitial {
                min: 10,
                max: 10_800,
                value: 5,
            },
            RefusalDetail::ClockIncrement {
                max: 600,
                value: 601,
            },
            RefusalDetail::ClockDays { value: 4 },
            RefusalDetail::PublicNeedsClock,
            RefusalDetail::RecordUnreadable,
            RefusalDetail::RecordMove { index: 2 },
            RefusalDetail::ChallengeYourself,
            RefusalDetail::MailOff,
            RefusalDetail::MailAddress,
            RefusalDetail::MailUnsent,
        ]
    }

    /// Its `kind` in the JSON body.
    pub fn kind(&self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v["kind"].as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// The server's English for each refusal (the body's `message`).
impl std::fmt::Display for RefusalDetail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use RefusalDetail as D;
        match self {
            D::NameLength { min, max, len } => {
                write!(f, "a name has {min} to {max} characters, not {len}")
            }
            D::NameCharacter {
                code_point,
                character,
            } => {
                write!(f, "a name has letters, digits, `_` and `-` only, not ")?;
                match character {
                    Some(c) => write!(f, "{c:?} ({code_point})"),
                    None => write!(f, "{code_point}"),
                }
            }
            D::NameReserved => write!(
                f,
                "this name would pass for a bot or for the site's staff: choose another name"
            ),
            D::DisplayNameLength { min, max, len } => {
                write!(f, "a display name has {min} to {max} characters, not {len}")
            }
            D::Unseen { what, code_point } => {
                write!(f, "this text has {} ({code_point})", what.english())
            }
            D::TooManyMarks { max, code_point } => {
                write!(f, "more than {max} marks on one character ({code_point})")
            }
            D::PasswordLength { min, max } => {
                write!(f, "a password has {min} to {max} characters")
            }
            D::PasswordIsName => write!(f, "the password must not be the name"),
            D::ChatEmpty => write!(f, "text: write something"),
            D::ChatTooLong { max, len } => {
                write!(f, "text: at most {max} characters, not {len}")
            }
            D::ClockInitial { min, max, value } => {
                write!(
                    f,
                    "clock.initial_s must be {min} to {max} seconds, not {value}"
                )
            }
            D::ClockIncrement { max, value } => {
                write!(
                    f,
                    "clock.increment_s must be 0 to {max} seconds, not {value}"
                )
            }
            D::ClockDays { value } => {
                write!(f, "clock.days must be 1, 2, 3 or 7, not {value}")
            }
            D::PublicNeedsClock => write!(
                f,
                "a public game needs a clock (a seat whose player never moves times out): \
                 give clock {{\"kind\":\"realtime\",…}} or {{\"kind\":\"turn\",…}}"
            ),
            D::RecordUnreadable => write!(f, "record: this is not a game record"),
            D::RecordMove { index } => write!(f, "move {index}: it cannot be replayed"),
            D::ChallengeYourself => write!(f, "you cannot challenge yourself"),
            D::MailOff => write!(f, "this server sends no mail"),
            D::MailAddress => write!(f, "address: not an e-mail address"),
            D::MailUnsent => write!(
                f,
                "the mail with the link could not be sent just now: try again later"
            ),
        }
    }
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
