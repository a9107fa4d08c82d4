//! Where a display's open arrows point, for the policy's positional features: a placement is
//! judged not only by what it covers at once but by the room it leaves. An arrow is satisfied
//! by a tile of its element anywhere on its ray, so the cells where several open arrows of one
//! element cross are worth keeping for that element (one tile there covers them all), and a
//! new tile's open arrows are better aimed through such cells, and at cells a tile can go on
//! next. Built once per decision; each placement then costs a few lookups.

use crate::policy::POSITIONAL;
use sagani_core::{arrow_of_bit, tile, Direction, Display, Gain, Game, Move};

/// How far along a ray the features look, in cells.
const REACH: i32 = 6;

/// The grid around a display (its tiles' box, widened by `REACH` on every side).
#[derive(Clone, Debug, Default)]
pub struct Aim {
    x0: i32,
    y0: i32,
    width: i32,
    height: i32,
    /// Per cell: 0 if empty, else 1 + the element of its tile.
    tiles: Vec<u8>,
    /// Per element and cell: open arrows of that element whose ray crosses the (empty) cell.
    through: Vec<u8>,
    /// The element of the next tile, when its back is seen.
    next: Option<u8>,
    /// Per element: the most of its open arrows crossing one empty cell (up to 3).
    most_through: [u8; 4],
}

impl Aim {
    /// The grid of the display of the player to act in `g` (nothing when nobody acts).
    pub fn build(&mut self, g: &Game) {
        let Some(seat) = g.to_act() else { return };
        let next = g.draw_pile_top_back().map(|(e, _)| e.index() as u8);
        self.build_for(g.display(seat), next);
    }

    fn build_for(&mut self, d: &Display, next: Option<u8>) {
        let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (0, 0, 0, 0);
        for t in d.tiles() {
            lo_x = lo_x.min(t.cell.x);
            lo_y = lo_y.min(t.cell.y);
            hi_x = hi_x.max(t.cell.x);
            hi_y = hi_y.max(t.cell.y);
        }
        self.x0 = lo_x - REACH;
        self.y0 = lo_y - REACH;
        self.width = hi_x - lo_x + 1 + 2 * REACH;
        self.height = hi_y - lo_y + 1 + 2 * REACH;
        let cells = (self.width * self.height) as usize;
        self.tiles.clear();
        self.tiles.resize(cells, 0);
        self.through.clear();
        self.through.resize(4 * cells, 0);
        self.next = next;
        self.most_through = [0; 4];
        for t in d.tiles() {
            let e = tile(t.tile).map_or(0, |k| k.element.index() as u8);
            let i = self
                .index(t.cell.x, t.cell.y)
                .expect("tiles lie in their box");
            self.tiles[i] = 1 + e;
        }
        for t in d.tiles() {
            for (e, dir) in arrows(t.uncovered) {
                let (sx, sy) = dir.step();
                let (mut x, mut y) = (t.cell.x + sx, t.cell.y + sy);
                while let Some(i) = self.index(x, y) {
                    if self.tiles[i] == 0 {
                        let n = &mut self.through[e * cells + i];
                        *n += 1;
                        self.most_through[e] = self.most_through[e].max((*n).min(3));
                    }
                    x += sx;
                    y += sy;
                }
            }
        }
    }

    #[inline]
    fn index(&self, x: i32, y: i32) -> Option<usize> {
        let (dx, dy) = (x - self.x0, y - self.y0);
        (dx >= 0 && dy >= 0 && dx < self.width && dy < self.height)
            .then_some((dy * self.width + dx) as usize)
    }

    fn through(&self, e: usize, i: usize) -> u8 {
        self.through[e * self.tiles.len() + i]
    }

    /// Whether the empty cell (x, y) is one a tile could go on once (cx, cy) holds one: next
    /// to a tile.
    fn open_after(&self, x: i32, y: i32, cx: i32, cy: i32) -> bool {
        [(0, -1), (1, 0), (0, 1), (-1, 0)].iter().any(|(sx, sy)| {
            let (nx, ny) = (x + sx, y + sy);
            (nx == cx && ny == cy) || self.index(nx, ny).is_some_and(|i| self.tiles[i] != 0)
        })
    }

    /// The most a placement's positional features can add to a value with weights `w`
    /// (`POSITIONAL`'s order), by its open arrows alone: a bound for `Policy::best`.
    #[inline]
    pub fn most(&self, gain: &Gain, w: &[f32]) -> f32 {
        // A tile takes at most 3 crossings of each other element, each of at most 7 arrows
        // beyond the first.
        let mut most = 21.0 * w[0].max(0.0);
        for (e, _) in arrows(gain.open_arrows) {
            most += self.most_through[e] as f32 * w[1].max(0.0) + w[2].max(0.0);
            if self.next == Some(e as u8) {
                most += w[3].max(0.0);
            }
        }
        most
    }

    /// A placement's positional features, in `policy::POSITIONAL`'s order; zeros for a move
    /// that is not a placement.
    pub fn features(&self, mv: Move, gain: &Gain) -> [f32; POSITIONAL.len()] {
        let Move::Place { tile: t, x, y, .. } = mv else {
            return [0.0; POSITIONAL.len()];
        };
        let own = tile(t).map_or(0, |k| k.element.index());
        // Crossings of other elements' arrows that this tile takes.
        let spoil = match self.index(x, y) {
            Some(i) => (0..4)
                .filter(|&e| e != own)
                .map(|e| self.through(e, i).saturating_sub(1) as f32)
                .sum(),
            None => 0.0,
        };
        let (mut aim, mut reach, mut next_reach) = (0.0, 0.0, 0.0);
        for (e, dir) in arrows(gain.open_arrows) {
            let (sx, sy) = dir.step();
            let (mut best, mut first) = (0u8, None);
            for k in 1..=REACH {
                let (cx, cy) = (x + k * sx, y + k * sy);
                let Some(i) = self.index(cx, cy) else { break };
                if self.tiles[i] == 0 {
                    best = best.max(self.through(e, i));
                    first.get_or_insert((cx, cy));
                }
            }
            aim += best.min(3) as f32;
            // Its ray's first empty cell can take a tile next: the arrow may be covered soon.
            if first.is_some_and(|(cx, cy)| self.open_after(cx, cy, x, y)) {
                reach += 1.0;
                if self.next == Some(e as u8) {
                    next_reach += 1.0;
                }
            }
        }
        [spoil, aim, reach, next_reach]
    }
}

/// Each arrow of `bits` (`element * 8 + direction`) as its element's index and its direction.
#[inline]
fn arrows(mut bits: u32) -> impl Iterator<Item = (usize, Direction)> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let low = bits & bits.wrapping_neg();
            bits &= bits - 1;
            let (e, dir) = arrow_of_bit(low);
            (e.index(), dir)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::{Cell, DeckOrder, Setup, Variant};

    /// A solo game dealt `first` then the other tiles in order, after placing `moves`
    /// (tile, x, y, rot).
    fn solo(first: &[i64], moves: &[(u8, i32, i32, u8)]) -> Game {
        let mut deck = first.to_vec();
        deck.extend((1..=72).filter(|t| !first.contains(t)));
        let setup = Setup {
            variant: Some(Variant::Solo),
            deck: DeckOrder::Explicit(deck),
            ..Setup::seeded(1, 0)
        };
        let mut g = Game::new(&setup).unwrap();
        for &(t, x, y, rot) in moves {
            g.play(Move::place(t, Cell::new(x, y), rot)).unwrap();
        }
        g
    }

    fn features_of(g: &Game, t: u8, x: i32, y: i32, rot: u8) -> [f32; 4] {
        let mv = Move::place(t, Cell::new(x, y), rot);
        let mut aim = Aim::default();
        aim.build(g);
        aim.features(mv, &g.gain(mv).unwrap())
    }

    /// Tile 2 (Fire, a Fire arrow north) at (0,0) and tile 1 (Fire, a Fire arrow north-east,
    /// turned to point north-west) at (1,0): their open Fire arrows cross on the open cell
    /// (0,-1). Tile 40 (Water; a Fire arrow north-east, a Water one north-west) comes next,
    /// then tile 3 (Fire).
    #[test]
    fn counts_crossings_spoils_and_reach_as_the_display_shows() {
        let g = solo(&[2, 1, 40, 3], &[(2, 0, 0, 0), (1, 1, 0, 3)]);
        assert_eq!(g.revealed(), Some(40));
        // West of the display: its Fire arrow aims through the crossing at (0,-1), the first
        // empty cell of that ray, which a tile can go on (and the next tile is Fire); its
        // Water arrow crosses no open Water arrow, and its first cell (-2,-1) touches no tile.
        assert_eq!(features_of(&g, 40, -1, 0, 0), [0.0, 2.0, 1.0, 1.0]);
        // On the crossing itself: a Water tile takes the cell where one Fire tile would cover
        // both Fire arrows; the first cells of its arrows' rays, (1,-2) and (-1,-2), touch no
        // tile, and no open arrow of their elements crosses those rays.
        assert_eq!(features_of(&g, 40, 0, -1, 0), [1.0, 0.0, 0.0, 0.0]);
        // Turned half round at (1,1): its arrows point south-west and south-east, away from
        // every crossing, to cells that touch no tile.
        assert_eq!(features_of(&g, 40, 1, 1, 2), [0.0; 4]);
        // The same tile with another next tile: the reach is not the next tile's element.
        let g = solo(&[2, 1, 40, 37], &[(2, 0, 0, 0), (1, 1, 0, 3)]);
        assert_eq!(features_of(&g, 40, -1, 0, 0), [0.0, 2.0, 1.0, 0.0]);
        // Not a placement: nothing.
        let mut aim = Aim::default();
        aim.build(&g);
        assert_eq!(aim.features(Move::Pass, &Gain::default()), [0.0; 4]);
    }
}
