//! The rules of Sagani (see `RULES.md`): tiles, displays, the game's flow, what each seat may
//! see, and game records. No I/O, no clock, no global randomness.

mod deck;
mod display;
mod element;
mod from_view;
mod gain;
mod game;
mod geometry;
mod moves;
pub mod playout;
pub mod record;
#[cfg(test)]
mod rules_tests;
mod tiles;
pub mod view;
mod view_error;

pub use deck::{shuffled_deck, DeckError};
pub use display::{arrow_of_bit, Display, PlacedTile, MAX_OPEN, MAX_TILES};
pub use element::Element;
pub use gain::Gain;
pub use game::{
    CoveredArrow, DeckOrder, Expect, Game, Outcome, Preview, Setup, SetupError, Variant,
    MAX_PLAYERS, OFFER_SIZE, SOLO_TARGET, SOUND_DISCS, STORAGE_SIZE, SYMPHONY_TILES,
};
pub use geometry::{direction_to, Cell, Direction};
pub use moves::{IllegalMove, Move};
pub use tiles::{tile, value_for_arrows, Tile, TileId, TILES, TILE_COUNT};
pub use view_error::ViewError;
