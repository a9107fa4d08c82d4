//! What one seat (or a spectator) may know of a game: everything on the table, the draw pile's
//! size, the back of its top tile and which tiles are still in it, never their order.

use crate::element::Element;
use crate::game::{Expect, Game, Variant};
use crate::geometry::Direction;
use crate::tiles::TileId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The seat this view is for; `None` for a spectator.
    pub seat: Option<u8>,
    pub variant: Variant,
    pub players: u8,
    pub start_player: u8,
    /// The seat that plays the last turn of every round: the one before the start player in
    /// turn order. Worked out from `start_player` when a view is read back.
    #[serde(default)]
    pub last_player: u8,
    /// Score that starts the final round (75/60/45), or the solo goal.
    pub target: Option<i16>,
    /// Who must act and what is expected; `None` once the game is over.
    pub next: Option<Next>,
    pub over: bool,
    pub final_round: bool,
    /// `None` unless the final round is on; then the turns still to be played in the game,
    /// counting the turn being played now (0 during an intermezzo after the last turn, and
    /// once the game is over). Intermezzo placements are not turns. Worked out from the rest
    /// when a view is read back.
    #[serde(default)]
    pub turns_left: Option<u8>,
    /// The player whose turn it is (or was, during an intermezzo).
    pub current_player: u8,
    pub offer: Vec<TileId>,
    pub intermezzo: Vec<TileId>,
    /// Players still to act in a running intermezzo, in order.
    pub intermezzo_queue: Vec<u8>,
    /// Whether anyone took a tile so far in the running intermezzo.
    pub intermezzo_taken: bool,
    /// Tiles removed after an intermezzo nobody took from.
    pub removed: Vec<TileId>,
    pub draw_pile: DrawPile,
    /// A revealed tile waiting to be placed.
    pub revealed: Option<TileId>,
    pub seats: Vec<SeatView>,
    /// Seats best first (higher score, then earlier arrival on the score track).
    pub ranking: Vec<u8>,
    /// Placements made so far in the game.
    pub placements: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Next {
    pub player: u8,
    pub expects: Expect,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawPile {
    /// Tiles face down (a revealed tile is not counted).
    pub count: usize,
    /// The back of the top tile: its element and value.
    pub top: Option<TileBack>,
    /// The tiles still in the pile, ascending (their order is hidden).
    pub tiles: Vec<TileId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileBack {
    pub element: Element,
    pub value: u8,
}

impl TileBack {
    /// The back of tile `id` (1 to 72).
    pub fn of(id: TileId) -> TileBack {
        TileBack {
            element: Element::from_index(crate::tiles::ELEMENT_OF[id as usize] as usize),
            value: crate::tiles::VALUE_OF[id as usize],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub score: i16,
    /// Discs in the supply, Sound and Cacophony alike.
    pub supply: u16,
    /// Cacophony discs taken in the whole game (2 points each).
    pub cacophony: u16,
    /// Of the supply, the Cacophony discs. Worked out from `cacophony` and the tiles when a
    /// view is read back.
    #[serde(default)]
    pub supply_cacophony: u16,
    /// When the marker last moved on the score track; lower arrived earlier.
    pub arrival: u16,
    /// Solo-all: score minus discs on unflipped tiles.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub final_score: Option<i16>,
    /// The display, tiles in the order placed.
    pub display: Vec<TileView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileView {
    pub tile: TileId,
    pub x: i32,
    pub y: i32,
    pub rot: u8,
    pub flipped: bool,
    /// Discs on the tile's vessel: one per uncovered arrow; 0 once flipped. Worked out from
    /// the arrows when a view is read back.
    #[serde(default)]
    pub discs: u8,
    /// How many of the discs on the tile (vessel and arrows) are Cacophony discs; 0 once
    /// flipped. Covering an arrow moves a Sound disc from the vessel before a Cacophony one,
    /// so the covered arrows hold `max(0, cacophony - discs)` of them and the vessel the rest.
    #[serde(default)]
    pub cacophony: u8,
    /// Arrows as placed (directions after rotation), with whether a disc covers them.
    pub arrows: Vec<ArrowView>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrowView {
    pub direction: Direction,
    pub element: Element,
    pub covered: bool,
}

impl Game {
    /// What `seat` may know (`None`: a spectator). Every seat sees the same table; nobody sees
    /// the draw pile's order.
    pub fn view(&self, seat: Option<u8>) -> View {
        let seats = (0..self.players)
            .map(|s| SeatView {
                score: self.score(s),
                supply: self.supply(s),
                cacophony: self.cacophony(s),
                supply_cacophony: self.supply_cacophony(s),
                arrival: self.arrival(s),
                final_score: (self.variant == Variant::SoloAll).then(|| self.final_score(s)),
                display: self
                    .display(s)
                    .tiles()
                    .map(|t| TileView {
                        tile: t.tile,
                        x: t.cell.x,
                        y: t.cell.y,
                        rot: t.rot,
                        flipped: t.flipped,
                        discs: t.vessel_discs(),
                        cacophony: t.cacophony,
                        arrows: crate::tile(t.tile)
                            .expect("placed tiles exist")
                            .placed_arrows(t.rot)
                            .map(|(direction, element)| ArrowView {
                                direction,
                                element,
                                covered: t.flipped
                                    || t.uncovered
                                        & (1 << (element.index() * 8 + direction.index()))
                                        == 0,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        View {
            seat,
            variant: self.variant(),
            players: self.players(),
            start_player: self.start_player(),
            last_player: self.last_player(),
            target: self.target(),
            next: self
                .to_act()
                .zip(self.expects())
                .map(|(player, expects)| Next { player, expects }),
            over: self.is_over(),
            final_round: self.final_round(),
            turns_left: self.turns_left(),
            current_player: self.current_player(),
            offer: self.offer().to_vec(),
            intermezzo: self.intermezzo_storage().to_vec(),
            intermezzo_queue: self.intermezzo_queue().to_vec(),
            intermezzo_taken: self.intermezzo_taken(),
            removed: self.removed(),
            draw_pile: DrawPile {
                count: self.draw_pile_len(),
                top: self
                    .draw_pile_top_back()
                    .map(|(element, value)| TileBack { element, value }),
                tiles: self.draw_pile_tiles(),
            },
            revealed: self.revealed(),
            seats,
            ranking: self.ranking(),
            placements: self.placements(),
        }
    }
}
