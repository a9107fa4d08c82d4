//! Why a seat's view and a guessed draw pile describe no game (`Game::from_view`).

use crate::tiles::TileId;

/// Why a view and a pile describe no game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewError {
    Seats {
        players: u8,
        seats: usize,
    },
    TooLarge,
    /// `what` (the pile, the draw pile) names a tile that does not exist.
    NoSuchTile {
        what: &'static str,
        tile: TileId,
    },
    Twice {
        what: &'static str,
        tile: TileId,
    },
    /// The pile given is not the view's draw pile.
    NotTheViewsPile,
    /// The pile given is not the game's draw pile.
    NotTheGamesPile,
    WrongTop {
        tile: TileId,
        element: String,
        value: u8,
    },
    IntermezzoQueue,
    IntermezzoSeats,
    Expectation {
        expects: &'static str,
        revealed: String,
    },
    NoSuchPlayer,
    WrongTile {
        seat: usize,
        tile: TileId,
    },
    Misplaced {
        seat: usize,
        tile: TileId,
        x: i32,
        y: i32,
    },
    TwoPlaces,
    Not72,
    /// A seat's Cacophony discs on tiles and in the supply do not add up.
    Cacophony {
        seat: usize,
    },
}

impl std::fmt::Display for ViewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use ViewError::*;
        match self {
            Seats { players, seats } => write!(
                f,
                "players must be 1 to 4 with one seat each, not {players} with {seats} seats"
            ),
            TooLarge => write!(f, "offer or intermezzo storage too large"),
            NoSuchTile { what, tile } => write!(f, "{what}: tile {tile} does not exist"),
            Twice { what, tile } => write!(f, "{what}: tile {tile} appears twice"),
            NotTheViewsPile => write!(
                f,
                "pile must hold exactly the tiles of the view's draw pile"
            ),
            NotTheGamesPile => write!(f, "pile must hold exactly the tiles of the draw pile"),
            WrongTop {
                tile,
                element,
                value,
            } => write!(
                f,
                "pile: tile {tile} cannot be on top, its back is not {element} {value}"
            ),
            IntermezzoQueue => write!(f, "intermezzo queue must name 1 to players seats"),
            IntermezzoSeats => write!(f, "intermezzo queue names unknown or repeated seats"),
            Expectation { expects, revealed } => {
                write!(
                    f,
                    "expecting {expects} does not fit revealed tile {revealed}"
                )
            }
            NoSuchPlayer => write!(f, "current or start player does not exist"),
            WrongTile { seat, tile } => write!(f, "display of seat {seat}: tile {tile} is wrong"),
            Misplaced { seat, tile, x, y } => {
                write!(
                    f,
                    "display of seat {seat}: tile {tile} cannot lie at ({x},{y})"
                )
            }
            TwoPlaces => write!(f, "a tile is in two places at once"),
            Not72 => write!(f, "the view does not account for all 72 tiles"),
            Cacophony { seat } => write!(
                f,
                "seat {seat}: the Cacophony discs on its tiles and in its supply do not add up"
            ),
        }
    }
}

impl std::error::Error for ViewError {}
