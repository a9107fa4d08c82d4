//! A player's display: the placed tiles, their uncovered arrows, and the cells where a tile may go.
//!
//! Stored as small fixed arrays (structure of arrays) so that a game clones with one memcpy, and
//! a placement is one branch-free, read-only pass over the tiles (legality, rays, adjacency)
//! followed by applying what it found, without allocation.

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
    /// `x * SIDE + y` per tile: the tile's part of its index into `RAYS`.
    keys: [i16; MAX_TILES],
    /// Per tile: its rotation in bits 0-1, and in bits 2-4 how many of the discs on it (vessel
    /// and arrows) are Cacophony discs (0 once it is flipped). One byte for both keeps the clone
    /// as small as it was.
    rots: [u8; MAX_TILES],
    /// Base element of each tile times 8: the shift to its lane of an arrow mask.
    elem8s: [u8; MAX_TILES],
    /// Uncovered arrows per tile as bits `element * 8 + direction`; 0 once the tile is flipped.
    pending: [u32; MAX_TILES],
    /// Empty cells orthogonally next to a tile (or (0,0) while the display is empty), packed
    /// by `pack`.
    open: [u16; MAX_OPEN + 4],
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
    /// Cacophony discs among the discs on the tile (vessel and arrows); 0 once flipped.
    pub cacophony: u8,
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

    /// Discs on the tile's vessel: one per uncovered arrow; none once flipped.
    pub fn vessel_discs(&self) -> u8 {
        self.uncovered.count_ones() as u8
    }
}

/// Bits of a `rots` entry that hold the rotation; the rest hold the tile's Cacophony discs.
const ROT_BITS: u8 = 0b11;

/// A cell checked to be open, with what one read-only pass over the tiles found out about it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spot {
    x: i8,
    y: i8,
    /// Where the cell is in the list of open cells.
    open_index: u8,
    /// Element-direction pairs seen from the cell: bit `element * 8 + direction` is set when a
    /// tile of that element lies on the ray from the cell in that direction.
    seen: u32,
    /// Earlier tiles (bit per display index) with an uncovered arrow that the new tile's
    /// element satisfies.
    hits: u128,
    /// Which of the cell's neighbours (N, E, S, W in bits 0-3) hold a tile, and which were
    /// already open (bits 4-7).
    around: u8,
}

/// What a placement did to the display (scoring and discs are the game's business).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Placed {
    /// Values of earlier tiles completed by this placement.
    pub earlier_points: u16,
    /// Discs that went back to the supply from those tiles.
    pub earlier_discs: u16,
    /// Of those, the Cacophony discs.
    pub earlier_cacophony: u16,
    /// The new tile's arrows, all covered at once: it completes.
    pub new_completes: bool,
    /// Any earlier tile completed.
    pub earlier_completed: bool,
}

/// Told about each arrow covered and tile completed, for `preview`. `()` ignores everything.
pub(crate) trait Observer {
    /// False for `()`: lets the placement skip loops that only tell the observer.
    const LISTENS: bool = true;
    fn covered(&mut self, tile: TileId, bit: u32);
    fn completed(&mut self, tile: TileId);
}

impl Observer for () {
    const LISTENS: bool = false;
    #[inline(always)]
    fn covered(&mut self, _: TileId, _: u32) {}
    #[inline(always)]
    fn completed(&mut self, _: TileId) {}
}

#[inline(always)]
fn pack(x: i8, y: i8) -> u16 {
    x as u8 as u16 | (y as u8 as u16) << 8
}

#[inline(always)]
fn unpack(c: u16) -> (i8, i8) {
    (c as u8 as i8, (c >> 8) as u8 as i8)
}

/// Offsets between a cell and a tile of the same display lie within ±`REACH` (tiles within
/// ±71, open cells one step further).
const REACH: i32 = 143;
const SIDE: i32 = 2 * REACH + 1;
const CENTRE: i32 = REACH * SIDE + REACH;

/// What a tile at offset (dx, dy) from a cell means for a placement there, indexed by
/// `dx * SIDE + dy + CENTRE`. Low byte: the bit `1 << direction` of the ray from the cell that
/// the tile lies on, 0 if none. High byte: bits 0-3 when the tile is the cell's N/E/S/W
/// neighbour; bits 4-7 when it touches the cell's N/E/S/W neighbour (so that neighbour is
/// already an open cell). One lookup replaces a branchy ray test: whether a tile lies on a ray
/// is a coin toss for the branch predictor.
static RAYS: [u16; (SIDE * SIDE) as usize] = build_rays();

const fn build_rays() -> [u16; (SIDE * SIDE) as usize] {
    let mut t = [0u16; (SIDE * SIDE) as usize];
    let nbs: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
    let mut dx = -REACH;
    while dx <= REACH {
        let mut dy = -REACH;
        while dy <= REACH {
            let mut v = 0u16;
            let aligned = dx == 0 || dy == 0 || dx == dy || dx == -dy;
            if aligned && !(dx == 0 && dy == 0) {
                let s = (dx.signum() + 1) * 3 + (dy.signum() + 1);
                let dir = [7u16, 6, 5, 0, 0, 4, 1, 2, 3][s as usize];
                v |= 1 << dir;
            }
            let mut k = 0;
            while k < 4 {
                let (nx, ny) = nbs[k];
                if dx == nx && dy == ny {
                    v |= 1 << (8 + k);
                }
                let (ox, oy) = (dx - nx, dy - ny);
                let touches =
                    (ox == 0 && (oy == 1 || oy == -1)) || (oy == 0 && (ox == 1 || ox == -1));
                // The cell itself touches every neighbour but is empty: it does not count.
                if touches && !(dx == 0 && dy == 0) {
                    v |= 1 << (12 + k);
                }
                k += 1;
            }
            t[(dx * SIDE + dy + CENTRE) as usize] = v;
            dy += 1;
        }
        dx += 1;
    }
    t
}

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
            keys: [0; MAX_TILES],
            rots: [0; MAX_TILES],
            elem8s: [0; MAX_TILES],
            pending: [0; MAX_TILES],
            open: [0; MAX_OPEN + 4],
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
    #[inline]
    pub fn open_cell(&self, i: usize) -> Cell {
        let (x, y) = unpack(self.open[i]);
        Cell::new(x as i32, y as i32)
    }

    /// Every cell where the next tile may go; (0,0) alone while the display is empty.
    pub fn open_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.open_len()).map(move |i| self.open_cell(i))
    }

    pub fn tile_at_index(&self, i: usize) -> PlacedTile {
        PlacedTile {
            tile: self.ids[i],
            cell: Cell::new(self.xs[i] as i32, self.ys[i] as i32),
            rot: self.rots[i] & ROT_BITS,
            uncovered: self.pending[i],
            flipped: self.pending[i] == 0,
            cacophony: self.rots[i] >> 2,
        }
    }

    /// The tiles in the order they were placed.
    pub fn tiles(&self) -> impl Iterator<Item = PlacedTile> + '_ {
        (0..self.len()).map(move |i| self.tile_at_index(i))
    }

    pub fn tile_at(&self, cell: Cell) -> Option<PlacedTile> {
        self.tiles().find(|t| t.cell == cell)
    }

    /// Puts `cacophony` Cacophony discs on the tile placed last (they came with its discs from
    /// the supply), which holds none yet.
    #[inline(always)]
    pub(crate) fn set_last_cacophony(&mut self, cacophony: u8) {
        let i = self.len as usize - 1;
        self.rots[i] |= cacophony << 2;
    }

    /// Puts `cacophony` Cacophony discs on tile `i` (a display rebuilt from a view).
    pub(crate) fn set_cacophony(&mut self, i: usize, cacophony: u8) {
        self.rots[i] = (self.rots[i] & ROT_BITS) | cacophony << 2;
    }

    /// Discs on unflipped tiles: each holds as many as it has arrows.
    pub fn discs_on_unflipped(&self) -> u16 {
        self.tiles()
            .filter(|t| !t.flipped)
            .map(|t| ARROWS_OF[t.tile as usize] as u16)
            .sum()
    }

    /// Checks that a tile of element `elem` may go on `cell`, and finds out in one read-only
    /// pass over the tiles everything its placement needs; the error says why not.
    // Inlined into every caller: `play` is hot, and the others (gains, from_view) are few.
    #[inline(always)]
    pub(crate) fn spot(&self, cell: Cell, elem: u8) -> Result<Spot, SpotError> {
        if self.len == 0 {
            return if cell == Cell::ORIGIN {
                // The origin is the one open cell, and there are no tiles to scan.
                Ok(self.scan(cell, 0, elem))
            } else {
                Err(SpotError::FirstNotAtOrigin)
            };
        }
        // Tiles lie within ±71; anything further is next to nothing (and must not overflow).
        if cell.x.unsigned_abs() > 72 || cell.y.unsigned_abs() > 72 {
            return Err(SpotError::NotAdjacent);
        }
        let key = pack(cell.x as i8, cell.y as i8);
        let Some(open_index) = self.open[..self.open_len()].iter().position(|&c| c == key) else {
            return Err(match self.tile_at(cell) {
                Some(t) => SpotError::Taken(t.tile),
                None => SpotError::NotAdjacent,
            });
        };
        Ok(self.scan(cell, open_index, elem))
    }

    /// The spot of the `open_index`-th open cell for a tile of element `elem`: what `spot`
    /// finds, without looking the cell up (for callers that go through the open cells; an
    /// empty display's one open cell is the origin).
    #[inline(always)]
    pub(crate) fn open_spot(&self, open_index: usize, elem: u8) -> Spot {
        self.scan(self.open_cell(open_index), open_index, elem)
    }

    /// The read-only pass over the tiles of `spot`, for an open cell.
    #[inline(always)]
    fn scan(&self, cell: Cell, open_index: usize, elem: u8) -> Spot {
        let here = CENTRE - (cell.x * SIDE + cell.y);
        let elem8 = elem as u32 * 8;
        let mut seen = 0u32;
        let mut hits = 0u128;
        let mut around = 0u16;
        let n = self.len();
        let tiles = self.keys[..n]
            .iter()
            .zip(&self.elem8s[..n])
            .zip(&self.pending[..n]);
        for (i, ((&key, &e8), &pending)) in tiles.enumerate() {
            let r = RAYS[(key as i32 + here) as usize];
            around |= r;
            let to_tile = (r & 0xFF) as u8;
            seen |= (to_tile as u32) << e8;
            // The tile's arrow pointing back at the cell, if it is of the new tile's element.
            let back = (to_tile.rotate_left(4) as u32) << elem8;
            if pending & back != 0 {
                mark(&mut hits, i);
            }
        }
        Spot {
            x: cell.x as i8,
            y: cell.y as i8,
            open_index: open_index as u8,
            seen,
            hits,
            around: (around >> 8) as u8,
        }
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
        let mut out = Placed::default();
        let mut hits = spot.hits;
        while hits != 0 {
            let i = hits.trailing_zeros() as usize;
            hits &= hits - 1;
            let bit = self.arrow_at(i, &spot, elem);
            self.pending[i] &= !bit;
            let id = self.ids[i];
            obs.covered(id, bit);
            if self.pending[i] == 0 {
                out.earlier_points += VALUE_OF[id as usize] as u16;
                out.earlier_discs += ARROWS_OF[id as usize] as u16;
                // All its discs go back, Cacophony ones too.
                out.earlier_cacophony += (self.rots[i] >> 2) as u16;
                self.rots[i] &= ROT_BITS;
                out.earlier_completed = true;
                obs.completed(id);
            }
        }

        let arrows = ARROW_MASKS[tile as usize][rot as usize];
        let mut c = if O::LISTENS { arrows & spot.seen } else { 0 };
        while c != 0 {
            let bit = c & c.wrapping_neg();
            obs.covered(tile, bit);
            c &= c - 1;
        }
        let pending = arrows & !spot.seen;
        out.new_completes = pending == 0;
        if out.new_completes {
            obs.completed(tile);
        }

        let n = self.len();
        self.ids[n] = tile;
        self.xs[n] = spot.x;
        self.ys[n] = spot.y;
        self.keys[n] = (x * SIDE + y) as i16;
        self.rots[n] = rot;
        self.elem8s[n] = elem as u8 * 8;
        self.pending[n] = pending;
        self.len += 1;

        // The cell is no longer open; its empty neighbours that were not open become open.
        let open = &mut self.open[..self.open_len as usize];
        let k = spot.open_index as usize;
        let last = open.len() - 1;
        open[k] = open[last];
        self.open_len -= 1;
        // Branch-free: write every neighbour, keep those that are new (the array has room).
        let known = (spot.around & 0xF) | (spot.around >> 4);
        for (b, (sx, sy)) in ORTHO_STEPS.iter().enumerate() {
            let len = self.open_len as usize;
            self.open[len] = pack(spot.x + sx, spot.y + sy);
            self.open_len += ((known >> b) & 1) ^ 1;
        }
        // Unused slots (the removed last one, unkept neighbours) go back to 0 so that equal
        // games compare equal.
        let len = self.open_len as usize;
        self.open[len..len + 4].fill(0);
        out
    }
}

impl Display {
    /// The arrow of hit tile `i` that a tile of element `elem` on `spot` covers, as a bit
    /// `element * 8 + direction`.
    #[inline(always)]
    fn arrow_at(&self, i: usize, spot: &Spot, elem: u32) -> u32 {
        let d = direction_to(
            spot.x as i32 - self.xs[i] as i32,
            spot.y as i32 - self.ys[i] as i32,
        )
        .expect("a hit lies on a ray");
        1u32 << (elem * 8 + d as u32)
    }

    /// What putting a tile of element `elem` on a checked spot does to the earlier tiles,
    /// without doing it: read-only, for quick evaluations of many placements.
    #[inline]
    pub(crate) fn spot_gain(&self, spot: &Spot, elem: u8) -> SpotGain {
        let mut g = SpotGain::default();
        let mut hits = spot.hits;
        while hits != 0 {
            let i = hits.trailing_zeros() as usize;
            hits &= hits - 1;
            let bit = self.arrow_at(i, spot, elem as u32);
            g.covered += 1;
            if self.pending[i] & !bit != 0 {
                g.worth += WORTH_PER_ARROW[self.ids[i] as usize] as u16;
            } else {
                let id = self.ids[i] as usize;
                g.completed += 1;
                g.points += VALUE_OF[id] as u16;
                g.discs += ARROWS_OF[id] as u16;
            }
        }
        g
    }
}

/// What a placement on a spot does to earlier tiles (`Display::spot_gain`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SpotGain {
    /// Arrows of earlier tiles the new tile covers.
    pub covered: u8,
    /// Earlier tiles that flip, their values and their discs coming back.
    pub completed: u8,
    pub points: u16,
    pub discs: u16,
    /// `WORTH_PER_ARROW` summed over the covered arrows of tiles that do not flip yet.
    pub worth: u16,
}

/// Twice a tile's value per arrow (2, 3, 4 or 5 for 1 to 4 arrows): what covering one of its
/// arrows brings it closer to scoring, in half points.
pub(crate) static WORTH_PER_ARROW: [u8; TILE_COUNT + 1] = {
    let mut t = [0u8; TILE_COUNT + 1];
    let mut i = 1;
    while i <= TILE_COUNT {
        t[i] = 2 * VALUE_OF[i] / ARROWS_OF[i];
        i += 1;
    }
    t
};

impl Spot {
    /// Arrows of a tile as placed on this spot that get a disc at once.
    #[inline]
    pub(crate) fn covers_own(&self, arrows: u32) -> u32 {
        arrows & self.seen
    }
}

/// Out of line: covering is rare, and a branch to here keeps the scan loop short.
#[cold]
#[inline(never)]
fn mark(hits: &mut u128, i: usize) {
    *hits |= 1 << i;
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
