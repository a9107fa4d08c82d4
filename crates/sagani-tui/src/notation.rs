//! The log's notation: a move in a few characters, and what it did with its cell, for the
//! moves list of the game and of the record viewer.

use crate::style::tile_name;
use sagani_core::{Game, Move, Preview};

/// A move in a few characters, for the log.
pub fn short(mv: Move) -> String {
    match mv {
        Move::Place { tile, x, y, rot } => {
            format!("{} ({x},{y}) r{rot}", tile_name(tile))
        }
        Move::Intermezzo { tile } => format!("intermezzo {}", tile_name(tile)),
        Move::Pass => "pass".to_string(),
    }
}

/// What a move did, in words, from the game before it.
pub fn describe(game: &Game, who: &str, mv: Move) -> String {
    describe_effect(who, mv, game.preview(mv).ok().as_ref())
}

/// What a move did, in words, from what the engine said it did (a placement's preview).
pub fn describe_effect(who: &str, mv: Move, effect: Option<&Preview>) -> String {
    match mv {
        Move::Place { tile, x, y, .. } => {
            let mut s = format!("{who} placed {} on ({x},{y})", tile_name(tile));
            if let Some(pv) = effect {
                s.push_str(&format!(": {} covered", pv.covered.len()));
                if !pv.completed.is_empty() {
                    s.push_str(&format!(
                        ", {} completed (+{})",
                        pv.completed.len(),
                        pv.points
                    ));
                }
                if pv.cacophony > 0 {
                    s.push_str(&format!(
                        ", Cacophony {} (−{})",
                        pv.cacophony,
                        2 * pv.cacophony
                    ));
                }
                s.push_str(&format!(", score {}", pv.score_after));
            }
            s
        }
        Move::Intermezzo { tile } => format!(
            "{who} stored {} for the intermezzo and drew a tile",
            tile_name(tile)
        ),
        Move::Pass => format!("{who} passed"),
    }
}
