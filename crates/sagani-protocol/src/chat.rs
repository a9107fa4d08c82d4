//! Chat at the table.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /api/games/{id}/chat`: `text` or `phrase`, not both (its schema: `ChatSchema`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    /// 1 to 300 characters of visible text, one line (a refusal's `detail`: `chat_empty`,
    /// `chat_too_long`, `unseen` or `too_many_marks`).
    #[serde(default)]
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

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ChatLines {
    pub lines: Vec<ChatLineInfo>,
}
