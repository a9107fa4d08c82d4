//! What goes wrong in a load run: a bad setting, a server that is not there, a request that
//! fails. A failed request is counted and the run goes on; the others end it.

use std::fmt;

/// Why a load run cannot start or went wrong.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("need at least one game and a positive rate")]
    Settings,
    #[error("need at least one server URL")]
    NoServer,
    #[error("the HTTP client: {0}")]
    Client(#[source] reqwest::Error),
    #[error("no server at {url}: {source}")]
    Absent {
        url: String,
        #[source]
        source: reqwest::Error,
    },
    /// A player's task failed (a panic).
    #[error("a player: {0}")]
    Player(#[from] tokio::task::JoinError),
}

/// A request to one server that failed: how, and at which server.
#[derive(Debug)]
pub struct RequestError {
    pub server: String,
    pub failure: Failure,
}

#[derive(Debug)]
pub enum Failure {
    /// Sending or reading.
    Http(reqwest::Error),
    /// An answer other than success, with its body.
    Status(reqwest::StatusCode, String),
    /// An answer that is not the protocol's JSON.
    Json(serde_json::Error),
    /// A state without the seat it was asked for.
    NoSeat,
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let server = &self.server;
        match &self.failure {
            Failure::Http(e) => write!(f, "{server}: {e}"),
            Failure::Status(status, body) => write!(f, "{server}: {status}: {body}"),
            Failure::Json(e) => write!(f, "{server}: {e}"),
            Failure::NoSeat => write!(f, "{server}: a state without a seat"),
        }
    }
}

impl std::error::Error for RequestError {}
