//! Why a seat at a server's table could not be had: a link or address that is not one, a
//! refusal, an answer that is not what the protocol says.

use serde_json::Value;

#[derive(Debug, thiserror::Error)]
pub enum OnlineError {
    #[error("{link:?} is not an invite link ({why}); it looks like http://HOST:PORT/games/GAME/join/CODE")]
    NotAnInvite { link: String, why: String },
    #[error("{0}: this build of sagani speaks plain http only; use the server's http address")]
    HttpsOnly(String),
    #[error("{0:?} is not a server's address: give it as http://HOST:PORT")]
    NotAServer(String),
    #[error("the server's view of game {game} is not a game: {why}")]
    NotAGame { game: String, why: String },
    #[error("cannot make an HTTP client: {0}")]
    Client(#[source] reqwest::Error),
    #[error("{link}: the invite was refused: {refusal}")]
    InviteRefused { link: String, refusal: Refusal },
    #[error("{server}: today's challenge did not start: {refusal}")]
    DailyRefused { server: String, refusal: Refusal },
    #[error("{server}: the game was not made: {refusal}")]
    NotMade { server: String, refusal: Refusal },
    #[error("{url}: the server's answer holds no seat: {answer}")]
    NoSeat { url: String, answer: Value },
    #[error("{url}: the new game has no invite for the first seat: {answer}")]
    NoInvite { url: String, answer: Value },
}

/// A refusal by the server: its code (`illegal_move`, `stale_version`, …) and message.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub code: String,
    pub message: String,
}

impl std::error::Error for Refusal {}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
