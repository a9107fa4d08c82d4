//! Where a display's open arrows point, for the policy's positional features: a placement is
//! judged not only by what it covers at once but by the room it leaves. An arrow is satisfied
//! by a tile of its element anywhere on its ray, so the cells where several open arrows of one
//! element cross are worth keeping for that element (one tile there covers them all), and a
//! new tile's open arrows are better aimed through such cells, and at cells a tile can go on
//! next. The grid follows a display as tiles are placed (`sync`): a placement changes only its
//! own cell, its open arrows' rays and the rays of the arrows it covers, so a playout pays for
//! a placement, not for the whole display, each step; each candidate then costs a few lookups.

use sagani_core::{
    arrow_of_bit, tile, Cell, Direction, Display, Element, Gain, Game, Move, TileId,
};

/// The positional features, the last of `policy::FEATURES`: crossings of two or more open arrows of
/// another element that the tile takes (each beyond the first); for each of the tile's open
/// arrows, the most open arrows of its element crossing an empty cell on its ray (up to 3);
/// the tile's open arrows whose ray's first empty cell a tile could go on next; of those, the
/// ones of the next tile's element.
pub const POSITIONAL: [&str; 4] = ["spoil", "aim", "reach", "next_reach"];

/// How far along a ray from a candidate the features look, in cells.
const REACH: i32 = 6;

/// How far an open arrow's ray is counted, in cells. A candidate reads the counts at most
/// `REACH` + 1 cells beyond the display, so they are whole while the display spans at most
/// `RAY - REACH - 1` cells along the ray's line; a display of a solo game seldom spans more.
const RAY: i32 = 16;

/// The grid's side; (0,0) is at its middle. A display's cells lie within 71 of it (72 tiles
/// in one line), so a candidate's cell and the `REACH` cells beyond it on every ray are on the
/// grid (and the cells around those); only arrows' rays can run off it.
const SIDE: i32 = 2 * (72 + REACH + 2);
const HALF: i32 = SIDE / 2;
// A candidate (within 72 of (0,0)), the `REACH` cells beyond it and their neighbours.
const _: () = assert!(HALF > 72 + REACH + 1);

/// The grid of one display's tiles and open arrows.
#[derive(Clone, Debug, Default)]
pub struct Aim {
    /// Per cell: 0 if empty, else 1 + the element of its tile.
    tiles: Vec<u8>,
    /// Per cell and element: open arrows of that element whose ray crosses the cell (within
    /// `RAY` cells).
    through: Vec<[u8; 4]>,
    /// Cells written since the grid was last cleared.
    touched: Vec<u32>,
    /// The seat whose display the grid shows, and that display's tiles in the order placed,
    /// each with the open arrows the grid counts for it.
    seat: Option<u8>,
    placed: Vec<(TileId, Cell, u32)>,
    /// The element of the next tile, when its back is seen.
    next: Option<u8>,
    /// Scratch for `Policy::best`: the candidates' values without positional features.
    pub(crate) values: Vec<f32>,
    /// Per element: at least the most of its open arrows crossing one empty cell (up to 3);
    /// and at least the most crossings beyond the first that one empty cell holds, summed
    /// over the elements. They only grow until the grid is cleared, so they bound, not count.
    most_through: [u8; 4],
    most_spoil: u16,
    /// Scratch for `room`: the cells a tile can go on.
    open: Vec<usize>,
}

impl Aim {
    /// Brings the grid up to the display of the player to act in `g` (nothing when nobody
    /// acts): adds the tiles placed since it last showed that display and takes away the
    /// arrows they covered, or starts again for another display.
    pub fn sync(&mut self, g: &Game) {
        let Some(seat) = g.to_act() else { return };
        self.next = g.draw_pile_top_back().map(|(e, _)| e.index() as u8);
        let d = g.display(seat);
        if self.tiles.is_empty() {
            self.tiles = vec![0; (SIDE * SIDE) as usize];
            self.through = vec![[0; 4]; (SIDE * SIDE) as usize];
        }
        let same = self.seat == Some(seat)
            && self.placed.len() <= d.len()
            && self.placed.iter().enumerate().all(|(k, &(t, cell, _))| {
                let p = d.tile_at_index(k);
                p.tile == t && p.cell == cell
            });
        if !same {
            self.clear();
            self.seat = Some(seat);
        }
        self.follow(d);
    }

    fn clear(&mut self) {
        for &i in &self.touched {
            self.tiles[i as usize] = 0;
            self.through[i as usize] = [0; 4];
        }
        self.touched.clear();
        self.placed.clear();
        self.most_through = [0; 4];
        self.most_spoil = 0;
    }

    /// Adds `d`'s tiles beyond those the grid shows, then counts each tile's open arrows
    /// again where they changed (covered, or a new tile's).
    fn follow(&mut self, d: &Display) {
        for k in self.placed.len()..d.len() {
            let p = d.tile_at_index(k);
            let e = tile(p.tile).map_or(0, |k| k.element.index() as u8);
            if let Some(i) = index(p.cell.x, p.cell.y) {
                self.tiles[i] = 1 + e;
                self.touched.push(i as u32);
            }
            self.placed.push((p.tile, p.cell, 0));
        }
        for k in 0..self.placed.len() {
            let (_, cell, counted) = self.placed[k];
            let open = d.tile_at_index(k).uncovered;
            if open == counted {
                continue;
            }
            for (e, dir) in arrows(counted & !open) {
                self.ray(cell, e, dir, false);
            }
            for (e, dir) in arrows(open & !counted) {
                self.ray(cell, e, dir, true);
            }
            self.placed[k].2 = open;
        }
    }

    /// Counts (`add`) or takes away an open arrow of element `e` at `from` along its ray.
    fn ray(&mut self, from: Cell, e: usize, dir: Direction, add: bool) {
        let (sx, sy) = dir.step();
        for k in 1..=RAY {
            let Some(i) = index(from.x + k * sx, from.y + k * sy) else {
                break;
            };
            let n = &mut self.through[i][e];
            if add {
                *n += 1;
                if self.tiles[i] == 0 {
                    self.most_through[e] = self.most_through[e].max((*n).min(3));
                    let spoil = self.through[i].iter().map(|n| n.saturating_sub(1) as u16);
                    self.most_spoil = self.most_spoil.max(spoil.sum());
                }
                self.touched.push(i as u32);
            } else {
                *n -= 1;
            }
        }
    }

    /// What bounds the positional features' part of a value with weights `w`
    /// (`POSITIONAL`'s order), for `Policy::best`.
    pub fn bound(&self, w: &[f32]) -> Bound {
        let mut per_arrow = [0.0; 4];
        for (e, b) in per_arrow.iter_mut().enumerate() {
            *b = self.most_through[e] as f32 * w[1].max(0.0) + w[2].max(0.0);
            if self.next == Some(e as u8) {
                *b += w[3].max(0.0);
            }
        }
        Bound {
            spoil: self.most_spoil as f32 * w[0].max(0.0),
            per_arrow,
        }
    }

    /// A placement's positional features, in `POSITIONAL`'s order; zeros for a move
    /// that is not a placement.
    pub fn features(&self, mv: Move, gain: &Gain) -> [f32; POSITIONAL.len()] {
        let Move::Place { tile: t, x, y, .. } = mv else {
            return [0.0; POSITIONAL.len()];
        };
        if self.tiles.is_empty() {
            // Never synced to a display.
            return [0.0; POSITIONAL.len()];
        }
        debug_assert!(x.abs() <= 72 && y.abs() <= 72, "({x}, {y}) is no candidate");
        let own = tile(t).map_or(0, |k| k.element.index());
        let at = near(x, y);
        // Crossings of other elements' arrows that this tile takes.
        let spoil: u8 = (0..4)
            .filter(|&e| e != own)
            .map(|e| self.through[at][e].saturating_sub(1))
            .sum();
        let (mut aim, mut reach, mut next_reach) = (0, 0, 0);
        for (e, dir) in arrows(gain.open_arrows) {
            let (sx, sy) = dir.step();
            let step = (sy * SIDE + sx) as isize;
            let (mut best, mut first) = (0u8, None);
            let mut i = at;
            for _ in 0..REACH {
                i = i.wrapping_add_signed(step);
                if self.tiles[i] == 0 {
                    best = best.max(self.through[i][e]);
                    first.get_or_insert(i);
                }
            }
            aim += best.min(3);
            // Its ray's first empty cell can take a tile next: the arrow may be covered soon.
            if first.is_some_and(|f| self.open_after(f, at)) {
                reach += 1;
                next_reach += (self.next == Some(e as u8)) as u8;
            }
        }
        [spoil as f32, aim as f32, reach as f32, next_reach as f32]
    }

    /// Where the display leaves room, for the evaluation (`value::ROOM`): the most open arrows
    /// of the element of the tile to place (`coming`) that it could cover on a cell a tile can
    /// go on now (up to 4); the same for each element (up to 3), summed; and the cells a tile
    /// can go on where two or more open arrows of one element cross, in tens. Zeros when never
    /// synced.
    pub fn room(&mut self, coming: Option<Element>) -> [f32; 3] {
        if self.tiles.is_empty() {
            return [0.0; 3];
        }
        let side = SIDE as usize;
        self.open.clear();
        for &(_, cell, _) in &self.placed {
            let at = near(cell.x, cell.y);
            for n in [at - 1, at + 1, at - side, at + side] {
                if self.tiles[n] == 0 {
                    self.open.push(n);
                }
            }
        }
        self.open.sort_unstable();
        self.open.dedup();
        let mut best = [0u8; 4];
        let mut hubs = 0;
        for &i in &self.open {
            let t = self.through[i];
            for e in 0..4 {
                best[e] = best[e].max(t[e]);
            }
            hubs += t.iter().any(|&n| n >= 2) as u8;
        }
        let now = coming.map_or(0, |e| best[e.index()].min(4));
        let each: u8 = best.iter().map(|&b| b.min(3)).sum();
        [now as f32, each as f32, hubs as f32 / 10.0]
    }

    /// Whether the empty cell `i` is one a tile could go on once cell `placed` holds one:
    /// next to a tile.
    #[inline]
    fn open_after(&self, i: usize, placed: usize) -> bool {
        let side = SIDE as usize;
        [i - 1, i + 1, i - side, i + side]
            .into_iter()
            .any(|n| n == placed || self.tiles[n] != 0)
    }
}

/// The most the positional features can add to a placement's value (`Aim::bound`).
#[derive(Clone, Copy, Debug)]
pub struct Bound {
    spoil: f32,
    /// Per element: the most one open arrow of it can add.
    per_arrow: [f32; 4],
}

impl Bound {
    /// The most the positional features can add to `gain`'s value, by its open arrows.
    #[inline]
    pub fn most(&self, gain: &Gain) -> f32 {
        let mut most = self.spoil;
        for (e, b) in self.per_arrow.iter().enumerate() {
            most += ((gain.open_arrows >> (8 * e)) & 0xff).count_ones() as f32 * b;
        }
        most
    }
}

/// The grid index of cell (x, y), which lies near a display: a display's cells, and the cells
/// `REACH` away from the cells next to it, are all on the grid (`SIDE`).
#[inline]
fn near(x: i32, y: i32) -> usize {
    ((y + HALF) * SIDE + x + HALF) as usize
}

/// The grid index of cell (x, y), if it is on the grid.
#[inline]
fn index(x: i32, y: i32) -> Option<usize> {
    let (cx, cy) = (x + HALF, y + HALF);
    ((cx as u32) < SIDE as u32 && (cy as u32) < SIDE as u32).then_some((cy * SIDE + cx) as usize)
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
        aim.sync(g);
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
        aim.sync(&g);
        assert_eq!(aim.features(Move::Pass, &Gain::default()), [0.0; 4]);
    }

    /// The room, for the evaluation, in the display of the test above: the two open Fire arrows
    /// cross on (0,-1), a cell a tile can go on. Then a Water tile takes that cell: each Fire
    /// ray still meets a cell a tile can go on, but only one at a time.
    #[test]
    fn the_room_is_where_open_arrows_cross_on_cells_a_tile_can_go_on() {
        let mut aim = Aim::default();
        assert_eq!(aim.room(Some(Element::Fire)), [0.0; 3], "never synced");
        let g = solo(&[2, 1, 40, 3], &[(2, 0, 0, 0), (1, 1, 0, 3)]);
        aim.sync(&g);
        // A Fire tile could cover both at once; a Water one nothing, as no Water arrow is open.
        assert_eq!(aim.room(Some(Element::Fire)), [2.0, 2.0, 0.1]);
        assert_eq!(aim.room(Some(Element::Water)), [0.0, 2.0, 0.1]);
        assert_eq!(aim.room(None), [0.0, 2.0, 0.1]);
        // Tile 40 on the crossing (its own arrows, Fire north-east and Water north-west, point
        // at cells no tile touches): a Fire tile on (0,-2) meets one arrow.
        let g = solo(
            &[2, 1, 40, 3],
            &[(2, 0, 0, 0), (1, 1, 0, 3), (40, 0, -1, 0)],
        );
        aim.sync(&g);
        assert_eq!(aim.room(Some(Element::Fire)), [1.0, 1.0, 0.0]);
        let mut fresh = Aim::default();
        fresh.sync(&g);
        assert_eq!(fresh.room(Some(Element::Fire)), [1.0, 1.0, 0.0]);
    }

    /// A grid that follows the games as tiles are placed shows what one built afresh shows,
    /// for every placement of every decision, solo and in two-player games (where it starts
    /// again for the other seat's display); and `most` bounds what the features add.
    #[test]
    fn a_followed_grid_shows_what_a_fresh_one_shows() {
        use rand::{Rng, SeedableRng};
        let weights = [
            [0.5, 0.5, 0.5, 0.5],
            [-0.1, 0.6, 0.2, 0.4],
            [0.0, 0.1, 0.0, 1.0],
        ];
        let (mut followed, mut gains, mut seen) = (Aim::default(), Vec::new(), 0);
        for seed in 0..6 {
            let players = 1 + (seed % 2) as u8;
            let setup = Setup {
                variant: (players == 1).then_some(Variant::Solo),
                ..Setup::seeded(players, seed)
            };
            let mut g = Game::new(&setup).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            while !g.is_over() {
                followed.sync(&g);
                let mut fresh = Aim::default();
                fresh.sync(&g);
                g.placement_gains(&mut gains);
                for (mv, gain) in &gains {
                    let f = followed.features(*mv, gain);
                    assert_eq!(f, fresh.features(*mv, gain), "{mv:?} in game {seed}");
                    seen += f.iter().any(|x| *x != 0.0) as usize;
                    for w in &weights {
                        let added: f32 = w.iter().zip(f).map(|(w, x)| w * x).sum();
                        assert!(
                            added <= followed.bound(w).most(gain) + 1e-4,
                            "{mv:?}: {f:?}"
                        );
                    }
                }
                let moves = g.legal_moves();
                g.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
        assert!(
            seen > 1000,
            "only {seen} placements had positional features"
        );
    }
}
