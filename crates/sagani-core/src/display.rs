//! A player's display: the placed tiles, their uncovered arrows, and the cells where a tile may go.
//!
//! Stored as small fixed arrays (structure of arrays) so that a game clones with one memcpy and a
//! placement is two linear passes without allocation: one over the tiles (rays, covering,
//! completion) and one over the open cells (adjacency).

use crate::geometry::{direction_to, Cell, Direction};
use crate::tiles::{TileId, ARROWS_OF, ARROW_MASKS, ELEMENT_OF, TILE_COUNT, VALUE_OF};
use std::fmt;

/// The most tiles one display can hold (solo-all places all 72).
pub const MAX_TILES: usize = TILE_COUNT;
/// The most open cells a display can have: the first tile opens 4, every later one at most 2 net.
pub const MAX_OPEN: usize = 2 * MAX_TILES + 2;

/// Placement coordinates stay within ±71 (a display holds at most 72 orthogonally connected
/// tiles from (0,0)), so they fit an `i8`.
#[derive(Clone, PartialEq, Eq)]
pub struct Display {
    len: u8,
    open_len: u8,
    ids: [u8; MAX_TILES],
    xs: [i8; MAX_TILES],
    ys: [i8; MAX_TILES],
    rots: [u8; MAX_TILES],
    elems: [u8; MAX_TILES],
    /// Uncovered arrows per tile as bits `element * 8 + direction`; 0 once the tile is flipped.
    pending: [u32; MAX_TILES],
    /// Empty cells orthogonally next to a tile (or (0,0) while the display is empty).
    open_xs: [i8; MAX_OPEN],
    open_ys: [i8; MAX_OPEN],
}

/// One placed tile as seen from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    pub tile: TileId,
    pub cell: Cell,
    pub rot: u8,
    /// Arrows still uncovered, as bits `element * 8 + direction` (directions after rotation).
    pub uncovered: u32,
    pub flipped: bool,
}

impl PlacedTile {
    /// All arrows of the tile as placed, as bits `element * 8 + direction`.
    pub fn arrows(&self) -> u32 {
        ARROW_MASKS[self.tile as usize][self.rot as usize]
    }

    /// Arrows covered by a disc (all of them once the tile is flipped).
    pub fn covered(&self) -> u32 {
        self.arrows() & !self.uncovered
    }
}

/// Where the placement of a tile was checked to be legal: the open cell's index and which of its
/// four neighbours are already open cells (bit per N, E, S, W).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spot {
    open_index: u8,
    open_neighbours: u8,
    x: i8,
    y: i8,
}

/// What a placement did to the display (scoring and discs are the game's business).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Placed {
    /// Values of earlier tiles completed by this placement.
    pub earlier_points: u16,
    /// Discs that went back to the supply from those tiles.
    pub earlier_discs: u16,
    /// The new tile's arrows, all covered at once: it completes.
    pub new_completes: bool,
    /// Any earlier tile completed.
    pub earlier_completed: bool,
}

/// Told about each arrow covered and tile completed, for `preview`. `()` ignores everything.
pub(crate) trait Observer {
    fn covered(&mut self, tile: TileId, bit: u32);
    fn completed(&mut self, tile: TileId);
}

impl Observer for () {
    #[inline(always)]
    fn covered(&mut self, _: TileId, _: u32) {}
    #[inline(always)]
    fn completed(&mut self, _: TileId) {}
}

/// Bit for an orthogonal neighbour by `(dx+1)*3 + (dy+1)`: N 1, E 2, S 4, W 8, else 0.
const ORTHO_BIT: [u8; 9] = [0, 8, 0, 1, 0, 4, 0, 2, 0];
const ORTHO_STEPS: [(i8, i8); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

impl Default for Display {
    fn default() -> Self {
        Display::new()
    }
}

impl Display {
    pub fn new() -> Display {
        Display {
            len: 0,
            open_len: 1,
            ids: [0; MAX_TILES],
            xs: [0; MAX_TILES],
            ys: [0; MAX_TILES],
            rots: [0; MAX_TILES],
            elems: [0; MAX_TILES],
            pending: [0; MAX_TILES],
            open_xs: [0; MAX_OPEN],
            open_ys: [0; MAX_OPEN],
        }
    }

    /// Number of tiles placed.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of cells where the next tile may go.
    pub fn open_len(&self) -> usize {
        self.open_len as usize
    }

    /// The `i`-th cell where the next tile may go (order is stable only between placements).
    pub fn open_cell(&self, i: usize) -> Cell {
        Cell::new(self.open_xs[i] as i32, self.open_ys[i] as i32)
    }

    /// Every cell where the next tile may go; (0,0) alone while the display is empty.
    pub fn open_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.open_len()).map(move |i| self.open_cell(i))
    }

    pub fn tile_at_index(&self, i: usize) -> PlacedTile {
        PlacedTile {
            tile: self.ids[i],
            cell: Cell::new(self.xs[i] as i32, self.ys[i] as i32),
            rot: self.rots[i],
            uncovered: self.pending[i],
            flipped: self.pending[i] == 0,
        }
    }

    /// The tiles in the order they were placed.
    pub fn tiles(&self) -> impl Iterator<Item = PlacedTile> + '_ {
        (0..self.len()).map(move |i| self.tile_at_index(i))
    }

    pub fn tile_at(&self, cell: Cell) -> Option<PlacedTile> {
        self.tiles().find(|t| t.cell == cell)
    }

    /// Discs on unflipped tiles: each holds as many as it has arrows.
    pub fn discs_on_unflipped(&self) -> u16 {
        self.tiles()
            .filter(|t| !t.flipped)
            .map(|t| ARROWS_OF[t.tile as usize] as u16)
            .sum()
    }

    /// Checks that a tile may go on `cell`; the error says why not.
    pub(crate) fn spot(&self, cell: Cell) -> Result<Spot, SpotError> {
        if self.len == 0 {
            return if cell == Cell::ORIGIN {
                Ok(Spot {
                    open_index: 0,
                    open_neighbours: 0,
                    x: 0,
                    y: 0,
                })
            } else {
                Err(SpotError::FirstNotAtOrigin)
            };
        }
        // Cells beyond ±127 are far from every tile; compare in i32 so nothing wraps.
        let (x, y) = (cell.x, cell.y);
        let mut index = usize::MAX;
        let mut open_neighbours = 0u8;
        for j in 0..self.open_len() {
            let dx = self.open_xs[j] as i32 - x;
            let dy = self.open_ys[j] as i32 - y;
            if dx == 0 && dy == 0 {
                index = j;
            } else if dx.unsigned_abs() <= 1 && dy.unsigned_abs() <= 1 {
                open_neighbours |= ORTHO_BIT[((dx + 1) * 3 + (dy + 1)) as usize];
            }
        }
        if index == usize::MAX {
            return Err(match self.tile_at(cell) {
                Some(t) => SpotError::Taken(t.tile),
                None => SpotError::NotAdjacent,
            });
        }
        Ok(Spot {
            open_index: index as u8,
            open_neighbours,
            x: x as i8,
            y: y as i8,
        })
    }

    /// Puts `tile` on a checked spot and covers arrows (RULES.md "Placing a tile", steps 1, 2
    /// and 4; the discs of step 3 are the game's business).
    #[inline]
    pub(crate) fn place<O: Observer>(
        &mut self,
        tile: TileId,
        rot: u8,
        spot: Spot,
        obs: &mut O,
    ) -> Placed {
        let (x, y) = (spot.x as i32, spot.y as i32);
        let elem = ELEMENT_OF[tile as usize] as u32;
        let mut seen = 0u32;
        let mut occupied = 0u8;
        let mut out = Placed::default();
        for i in 0..self.len() {
            // From the earlier tile to the new one.
            let ux = x - self.xs[i] as i32;
            let uy = y - self.ys[i] as i32;
            let Some(d) = direction_to(ux, uy) else {
                continue;
            };
            let back = (d + 4) & 7;
            seen |= 1 << (self.elems[i] as u32 * 8 + back as u32);
            if ux.unsigned_abs() + uy.unsigned_abs() == 1 {
                occupied |= ORTHO_BIT[((1 - ux) * 3 + (1 - uy)) as usize];
            }
            let bit = 1u32 << (elem * 8 + d as u32);
            if self.pending[i] & bit != 0 {
                self.pending[i] &= !bit;
                let id = self.ids[i];
                obs.covered(id, bit);
                if self.pending[i] == 0 {
                    out.earlier_points += VALUE_OF[id as usize] as u16;
                    out.earlier_discs += ARROWS_OF[id as usize] as u16;
                    out.earlier_completed = true;
                    obs.completed(id);
                }
            }
        }

        let arrows = ARROW_MASKS[tile as usize][rot as usize];
        let covered = arrows & seen;
        let mut c = covered;
        while c != 0 {
            let bit = c & c.wrapping_neg();
            obs.covered(tile, bit);
            c &= c - 1;
        }
        let pending = arrows & !seen;
        out.new_completes = pending == 0;
        if out.new_completes {
            obs.completed(tile);
        }

        let n = self.len();
        self.ids[n] = tile;
        self.xs[n] = spot.x;
        self.ys[n] = spot.y;
        self.rots[n] = rot;
        self.elems[n] = elem as u8;
        self.pending[n] = pending;
        self.len += 1;

        // The cell is no longer open; its empty neighbours that were not open become open.
        let last = self.open_len() - 1;
        let k = spot.open_index as usize;
        self.open_xs[k] = self.open_xs[last];
        self.open_ys[k] = self.open_ys[last];
        self.open_xs[last] = 0;
        self.open_ys[last] = 0;
        self.open_len -= 1;
        let known = occupied | spot.open_neighbours;
        for (b, (sx, sy)) in ORTHO_STEPS.iter().enumerate() {
            if known & (1 << b) == 0 {
                let j = self.open_len();
                self.open_xs[j] = spot.x + sx;
                self.open_ys[j] = spot.y + sy;
                self.open_len += 1;
            }
        }
        out
    }
}

pub(crate) enum SpotError {
    FirstNotAtOrigin,
    Taken(TileId),
    NotAdjacent,
}

impl fmt::Debug for Display {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut l = f.debug_list();
        for t in self.tiles() {
            l.entry(&format_args!(
                "{}@{} rot {} uncovered {:#x}",
                t.tile, t.cell, t.rot, t.uncovered
            ));
        }
        l.finish()
    }
}

/// Splits an arrow bit `element * 8 + direction` into its parts.
pub fn arrow_of_bit(bit: u32) -> (crate::Element, Direction) {
    let i = bit.trailing_zeros() as usize;
    (
        crate::Element::from_index(i / 8),
        Direction::from_index(i % 8),
    )
}
