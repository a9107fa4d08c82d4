//! The few fields of the server's JSON that the load generator reads (docs/server-api.md).
//! Everything else in the answers is ignored, and moves are sent back as they came.

use serde::Deserialize;
use serde_json::Value;

/// The answer to `POST /api/games`.
#[derive(Debug, Deserialize)]
pub struct Created {
    pub game: String,
    pub invites: Vec<Invite>,
}

#[derive(Debug, Deserialize)]
pub struct Invite {
    pub code: String,
}

/// The answer to `POST /api/games/{id}/join`.
#[derive(Debug, Deserialize)]
pub struct Joined {
    pub token: String,
}

/// `GET /api/games/{id}`: a game as one seat sees it.
#[derive(Debug, Deserialize)]
pub struct GameState {
    pub version: u64,
    #[serde(default)]
    pub you: Option<u8>,
    pub view: View,
    /// Kept as JSON: a random player only picks one and posts it back.
    #[serde(default)]
    pub legal: Vec<Value>,
}

#[derive(Debug, Deserialize)]
pub struct View {
    pub over: bool,
    #[serde(default)]
    pub next: Option<Next>,
}

#[derive(Debug, Deserialize)]
pub struct Next {
    pub player: u8,
}

/// The answer to `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize)]
pub struct MoveResult {
    pub state: GameState,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_reads_from_the_servers_json_and_ignores_the_rest() {
        let s: GameState = serde_json::from_value(serde_json::json!({
            "game": "g1", "version": 3, "status": "playing", "you": 1, "seats": [],
            "view": {"over": false, "next": {"player": 1, "expects": "place"}, "offer": [4]},
            "legal": [{"action": "pass"}]
        }))
        .unwrap();
        assert_eq!(s.version, 3);
        assert_eq!(s.you, Some(1));
        assert_eq!(s.view.next.unwrap().player, 1);
        assert_eq!(s.legal, vec![serde_json::json!({"action": "pass"})]);
    }
}
