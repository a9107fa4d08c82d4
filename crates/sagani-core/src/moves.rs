//! A decision of the player who must act, and why the engine refuses one.

use crate::geometry::Cell;
use crate::tiles::TileId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What the player who must act does. Who that is comes from the game, not the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Move {
    /// Place `tile` on cell (`x`, `y`) of the acting player's display, turned `rot` quarter turns
    /// clockwise. On a turn the tile comes from the offer display, after an intermezzo choice or
    /// in solo it is the revealed tile, during an intermezzo it comes from the storage.
    Place {
        tile: TileId,
        x: i32,
        y: i32,
        rot: u8,
    },
    /// Put the last tile of the offer display on the intermezzo storage and reveal the top tile
    /// of the draw pile.
    Intermezzo { tile: TileId },
    /// Take no tile during an intermezzo.
    Pass,
}

impl Move {
    pub fn place(tile: TileId, cell: Cell, rot: u8) -> Move {
        Move::Place {
            tile,
            x: cell.x,
            y: cell.y,
            rot,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place { tile, x, y, rot } => {
                write!(f, "place tile {tile} on ({x},{y}) turned {rot}")
            }
            Move::Intermezzo { tile } => write!(f, "put tile {tile} on the intermezzo storage"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move was refused. The game is unchanged when `play` returns one of these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    GameOver,
    UnknownTile {
        tile: TileId,
    },
    BadRotation {
        rot: u8,
    },
    NotInOffer {
        tile: TileId,
    },
    NotInStorage {
        tile: TileId,
    },
    /// A revealed tile (after an intermezzo choice, or in solo) must be placed, and only it.
    MustPlaceRevealed {
        revealed: TileId,
    },
    FirstTileNotAtOrigin {
        cell: Cell,
        player: u8,
    },
    CellTaken {
        cell: Cell,
        player: u8,
        tile: TileId,
    },
    CellNotAdjacent {
        cell: Cell,
        player: u8,
    },
    IntermezzoNeedsLastOfferTile {
        offer_len: usize,
    },
    IntermezzoWrongTile {
        tile: TileId,
        offer: TileId,
    },
    IntermezzoEmptyPile,
    IntermezzoNotNow,
    PassNotNow,
    NotAPlacement,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalMove::*;
        match self {
            GameOver => f.write_str("the game is over"),
            UnknownTile { tile } => write!(f, "tile {tile} does not exist (tiles are 1 to 72)"),
            BadRotation { rot } => write!(f, "rotation {rot} is not 0 to 3"),
            NotInOffer { tile } => write!(f, "tile {tile} is not in the offer display"),
            NotInStorage { tile } => write!(f, "tile {tile} is not on the intermezzo storage"),
            MustPlaceRevealed { revealed } => {
                write!(f, "the revealed tile {revealed} must be placed")
            }
            FirstTileNotAtOrigin { cell, player } => write!(
                f,
                "the first tile of player {player}'s display goes on (0,0), not {cell}"
            ),
            CellTaken { cell, player, tile } => write!(
                f,
                "cell {cell} of player {player}'s display already holds tile {tile}"
            ),
            CellNotAdjacent { cell, player } => {
                write!(f, "cell {cell} is not next to a tile of player {player}")
            }
            IntermezzoNeedsLastOfferTile { offer_len } => write!(
                f,
                "the intermezzo choice needs exactly one tile in the offer display; it holds {offer_len}"
            ),
            IntermezzoWrongTile { tile, offer } => write!(
                f,
                "tile {tile} is not the last tile of the offer display (that is tile {offer})"
            ),
            IntermezzoEmptyPile => {
                f.write_str("the intermezzo choice needs a tile in the draw pile; it is empty")
            }
            IntermezzoNotNow => {
                f.write_str("the intermezzo choice is only possible on a player's turn")
            }
            PassNotNow => f.write_str("pass is only possible during an intermezzo"),
            NotAPlacement => f.write_str("only a placement can be previewed"),
        }
    }
}

impl std::error::Error for IllegalMove {}
