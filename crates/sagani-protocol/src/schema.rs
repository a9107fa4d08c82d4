//! Shapes for the OpenAPI document only: the engine's own JSON (a move, a placement's effect)
//! described for readers of `/api/openapi.json`.

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

/// The variants, for the OpenAPI document (`CreateGame::variant`).
#[derive(ToSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)]
pub enum VariantName {
    Standard,
    Solo,
    SoloAll,
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

/// `POST /api/games/{id}/chat`'s body for the OpenAPI document: a line of text, or a quick
/// phrase, never both.
#[derive(ToSchema)]
#[schema(as = ChatRequest)]
#[serde(untagged, deny_unknown_fields)]
#[allow(dead_code)]
pub enum ChatSchema {
    /// 1 to 300 characters, one line, something visible.
    Text {
        #[schema(min_length = 1, max_length = 300, pattern = r"\S")]
        text: String,
    },
    /// A quick phrase, which each reader sees in their language.
    Phrase { phrase: PhraseName },
}

/// The quick phrases of the chat.
#[derive(ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
pub enum PhraseName {
    Hello,
    GoodLuck,
    GoodGame,
    Thanks,
    WellPlayed,
}

/// The variants of the daily challenge (a path's `{variant}`).
#[derive(ToSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)]
pub enum DailyVariantName {
    Solo,
    SoloAll,
}
