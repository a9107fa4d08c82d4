//! Notices and mail: an account's notices (its turn, a challenge, a game over, a seek paired),
//! marking them read, and its e-mail address and choices.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// What a notice tells of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// It is the account's turn in a turn-based game (`game`).
    YourTurn,
    /// Someone challenged the account (`about`: the challenge); challenges are listed on the
    /// home page.
    Challenge,
    /// A game the account played (`game`) is over.
    GameOver,
    /// A seek of the account's was paired into a game (`game`).
    SeekPaired,
}

/// One notice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct NoticeInfo {
    pub id: String,
    pub kind: NoticeKind,
    /// The game it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// What else it names (a challenge).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub about: Option<String>,
    /// When it was raised, in milliseconds since the Unix epoch.
    pub at: i64,
    pub read: bool,
    /// The other people at its game, by name (bots and guests without a name left out).
    pub players: Vec<String>,
}

/// `GET /api/notices`: the account's latest notices, newest first (none with `count=1`), and
/// how many of all its notices are unread.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Notices {
    pub notices: Vec<NoticeInfo>,
    pub unread: u64,
    /// Whether this server sends mail (`--smtp`).
    pub mail: bool,
}

/// `GET /api/notices?count=1`: only the unread count (cheap, for every page).
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NoticesQuery {
    /// `1`: the count only, no list (`0`, or none: the list).
    #[param(minimum = 0, maximum = 1)]
    pub count: Option<u8>,
}

/// `POST /api/notices/read`: marks the account's notices raised at or before `upto` read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadNotices {
    /// Milliseconds since the Unix epoch: the `at` of the newest notice seen.
    pub upto: i64,
}

/// The unread count after marking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Unread {
    pub unread: u64,
}

/// `GET /api/me/email`: the account's address for mail and what it wants mailed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MailSettings {
    /// Whether this server sends mail at all (`--smtp`); if not, nothing is mailed.
    pub mail: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// The address was confirmed by the link mailed to it.
    pub verified: bool,
    /// Mail when it is the account's turn in a turn-based game (at most one a day per game).
    pub your_turn: bool,
    /// Mail when someone challenges the account.
    pub challenges: bool,
}

/// `PUT /api/me/email`: a new address (mailed a link to confirm it; `null` removes it), or the
/// same address with other choices.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetMail {
    #[schema(max_length = 254)]
    pub address: Option<String>,
    /// The page's language (`en`, `de`): the mails are written in it.
    #[serde(default)]
    pub lang: Option<String>,
    #[serde(default)]
    pub your_turn: bool,
    #[serde(default)]
    pub challenges: bool,
}

/// `GET /api/mail/verify?token=` and `/api/mail/stop?token=`.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MailToken {
    /// The link's token.
    pub token: String,
}
