//! A learned value of solo positions, by temporal differences (as the strongest 2048 players
//! learn theirs): the value of the display just after a placement is a sum of weights, one for
//! each of a few dozen facts about it (score and tiles used together, the supply, each
//! unflipped tile, each open arrow with where its ray can still be met, the next tile's back),
//! learned from games the value itself plays: each placement is chosen as the one whose
//! afterstate it values most, and each afterstate's value is moved towards the next one's (the
//! last towards the game's return). So the value learns what positions are worth to a player
//! who plays by it, and plays better as it learns.

use crate::solo_tune::{score_with, solo_game, SoloScore};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sagani_core::view::TileBack;
use sagani_core::{tile, Direction, Game, Move, Outcome, TileId};

/// How deep `Td::expectimax` looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Expecti {
    /// Placements looked at, the one to choose included.
    pub depth: u8,
    /// Placements of the tile in hand searched deeper than one (the value's best).
    pub root_width: usize,
    /// Placements of each later tile searched deeper, for each back the tile after it shows.
    pub width: usize,
}

/// The side of the scratch grid; the display's (0,0) is at its middle. Cells beyond it count
/// as empty and out of reach.
const SIDE: i32 = 48;
const HALF: i32 = SIDE / 2;
/// How far an open arrow's ray is followed for crossings.
const RAY: i32 = 8;

// Where each group of weights starts, and its size.
const SCORE_AT: usize = 1; // score / 4 (0..21) × tiles placed (0..31)
const SUPPLY_AT: usize = SCORE_AT + 22 * 32; // supply (0..24) × tiles placed / 3 (0..10)
const TILE_AT: usize = SUPPLY_AT + 25 * 11; // arrows × open × tiles placed / 5 (0..6)
const ARROW_AT: usize = TILE_AT + 16 * 7; // arrows × open × distance × reach × crossing × left
const NEXT_AT: usize = ARROW_AT + 16 * 4 * 2 * 3 * 4 * 4; // … × tiles placed / 8 (0..3)
/// Weights in all.
pub const SIZE: usize = NEXT_AT + 4 * 6 * 4 * 4; // next arrows × reachable × crossing × placed / 8

/// The learned weights.
#[derive(Clone, Debug)]
pub struct Td {
    pub w: Vec<f32>,
}

/// Scratch space for working out features; the grids are made at first use (every search
/// has one, few use it).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Per cell: 0 if empty, else 1 + the element of its tile.
    grid: Vec<u8>,
    /// Per cell and element: open arrows of that element whose ray crosses the cell.
    through: Vec<[u8; 4]>,
    touched: Vec<usize>,
    pub idx: Vec<u32>,
}

fn at(x: i32, y: i32) -> Option<usize> {
    let (gx, gy) = (x + HALF, y + HALF);
    ((0..SIDE).contains(&gx) && (0..SIDE).contains(&gy)).then_some((gy * SIDE + gx) as usize)
}

/// Open arrows as bits `element * 8 + direction`, each as its element and its ray's step.
fn open_arrows(mut bits: u32) -> impl Iterator<Item = (usize, (i32, i32))> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            (b / 8, Direction::from_index(b % 8).step())
        })
    })
}

impl Scratch {
    fn empty(&self, x: i32, y: i32) -> bool {
        at(x, y).is_none_or(|i| self.grid[i] == 0)
    }

    fn next_to_tile(&self, x: i32, y: i32) -> bool {
        [(0, -1), (1, 0), (0, 1), (-1, 0)]
            .iter()
            .any(|(dx, dy)| !self.empty(x + dx, y + dy))
    }

    /// The features of solo game `g` just after a placement (the display, score and supply of
    /// seat 0, and the back of the revealed tile: what was seen before it was turned), as
    /// indices into the weights.
    pub fn features(&mut self, g: &Game) {
        self.display_features(g);
        if let Some(next) = g.revealed().and_then(tile) {
            let i = self.next_index(g, next.element.index(), next.arrow_count() as usize);
            self.idx.push(i);
        }
    }

    /// The features of `features` but the next tile's back.
    fn display_features(&mut self, g: &Game) {
        if self.grid.is_empty() {
            self.grid = vec![0; (SIDE * SIDE) as usize];
            self.through = vec![[0; 4]; (SIDE * SIDE) as usize];
        }
        for &i in &self.touched {
            self.grid[i] = 0;
            self.through[i] = [0; 4];
        }
        self.touched.clear();
        self.idx.clear();
        let d = g.display(0);
        let placed = d.len().min(31);
        let mut on_display = [0u8; 4];
        for t in d.tiles() {
            let e = tile(t.tile).map_or(0, |k| k.element.index());
            on_display[e] += 1;
            if let Some(i) = at(t.cell.x, t.cell.y) {
                self.grid[i] = 1 + e as u8;
                self.touched.push(i);
            }
        }
        // Open arrows: their rays' crossings.
        for t in d.tiles().filter(|t| !t.flipped) {
            for (e, (dx, dy)) in open_arrows(t.uncovered) {
                for k in 1..=RAY {
                    if let Some(i) = at(t.cell.x + k * dx, t.cell.y + k * dy) {
                        if self.grid[i] == 0 {
                            self.through[i][e] = self.through[i][e].saturating_add(1);
                            self.touched.push(i);
                        }
                    }
                }
            }
        }
        self.idx.push(0);
        let score = (g.score(0).clamp(0, 87) / 4) as usize;
        self.idx.push((SCORE_AT + score * 32 + placed) as u32);
        let supply = g.supply(0).min(24) as usize;
        self.idx.push((SUPPLY_AT + supply * 11 + placed / 3) as u32);
        for t in d.tiles().filter(|t| !t.flipped) {
            let arrows = t.arrows().count_ones() as usize;
            let open = t.uncovered.count_ones() as usize;
            let ao = (arrows - 1) * 4 + (open.max(1) - 1);
            self.idx.push((TILE_AT + ao * 7 + placed / 5) as u32);
            for (e, (dx, dy)) in open_arrows(t.uncovered) {
                let mut k = 1;
                while !self.empty(t.cell.x + k * dx, t.cell.y + k * dy) {
                    k += 1;
                }
                let (x, y) = (t.cell.x + k * dx, t.cell.y + k * dy);
                let reach = self.next_to_tile(x, y) as usize;
                let crossing = at(x, y).map_or(1, |i| self.through[i][e]).clamp(1, 3) as usize - 1;
                let left = (18 - on_display[e] as usize) / 5;
                let distance = (k as usize).min(4) - 1;
                let f = (((((ao * 4 + distance) * 2 + reach) * 3 + crossing) * 4) + left.min(3))
                    * 4
                    + placed / 8;
                self.idx.push((ARROW_AT + f) as u32);
            }
        }
    }

    /// The index of the next tile's feature, for a back of element `e` with `arrows` arrows,
    /// on the display of `g` whose other features were just worked out.
    fn next_index(&self, g: &Game, e: usize, arrows: usize) -> u32 {
        let d = g.display(0);
        let placed = d.len().min(31);
        let mut reachable = 0;
        let mut best = 0;
        for cell in d.open_cells() {
            if let Some(i) = at(cell.x, cell.y) {
                let n = self.through[i][e];
                reachable += n as usize;
                best = best.max(n.min(3) as usize);
            }
        }
        let a = arrows - 1;
        (NEXT_AT + ((a * 6 + reachable.min(5)) * 4 + best) * 4 + placed / 8) as u32
    }
}

/// How likely each back (element × arrows − 1) is to be the next one: the share of the pile's
/// tiles with it.
pub type Backs = [f32; 16];

/// The index of tile `t`'s back in `Backs`.
fn back_index(t: TileId) -> Option<usize> {
    tile(t).map(|k| k.element.index() * 4 + k.arrow_count() as usize - 1)
}

/// The backs of `tiles` as shares.
pub fn backs_of(tiles: &[TileId]) -> Backs {
    let mut b = [0.0; 16];
    for k in tiles.iter().filter_map(|&t| back_index(t)) {
        b[k] += 1.0;
    }
    let n = tiles.len().max(1) as f32;
    b.map(|x| x / n)
}

impl Td {
    /// The weights as JSON: `{"td": SIZE, "note": …, "weights": [...]}`.
    pub fn to_json(&self, note: serde_json::Value) -> String {
        serde_json::json!({ "td": SIZE, "note": note, "weights": self.w }).to_string()
    }

    /// The value learned by `sagani train --td` and shipped with the bots
    /// (`data/solo-td-trained.json`; docs/bots.md says how it was made and measured).
    pub fn trained() -> &'static std::sync::Arc<Td> {
        static TRAINED: std::sync::OnceLock<std::sync::Arc<Td>> = std::sync::OnceLock::new();
        TRAINED.get_or_init(|| {
            std::sync::Arc::new(
                Td::from_json(include_str!("../data/solo-td-trained.json"))
                    .expect("the shipped TD value reads"),
            )
        })
    }

    /// Reads weights written by `to_json`; the error says what is wrong.
    pub fn from_json(text: &str) -> Result<Td, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        if v.get("td").and_then(|n| n.as_u64()) != Some(SIZE as u64) {
            return Err(format!("not a TD value of {SIZE} weights (\"td\": {SIZE})"));
        }
        let w: Vec<f32> =
            serde_json::from_value(v["weights"].clone()).map_err(|e| format!("weights: {e}"))?;
        if w.len() != SIZE || w.iter().any(|x| !x.is_finite()) {
            return Err(format!("weights: {SIZE} finite numbers expected"));
        }
        Ok(Td { w })
    }

    pub fn load(path: &str) -> Result<Td, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        Td::from_json(&text).map_err(|e| format!("{path}: {e}"))
    }

    pub fn new() -> Td {
        Td { w: vec![0.0; SIZE] }
    }

    pub fn value_of(&self, idx: &[u32]) -> f32 {
        idx.iter().map(|&i| self.w[i as usize]).sum()
    }

    /// The value of solo game `g` just after a placement.
    pub fn value(&self, g: &Game, s: &mut Scratch) -> f32 {
        s.features(g);
        self.value_of(&s.idx)
    }

    /// The value of solo game `g` just after a placement for each back the next tile can
    /// have (element × arrows − 1; the revealed tile of `g` is ignored), where `backs` gives
    /// it a chance.
    pub fn value_by_back(&self, g: &Game, s: &mut Scratch, backs: &Backs) -> [f32; 16] {
        s.display_features(g);
        let v = self.value_of(&s.idx);
        let mut by = [v; 16];
        if g.revealed().is_some() {
            for (k, &p) in backs.iter().enumerate() {
                if p > 0.0 {
                    by[k] += self.w[s.next_index(g, k / 4, k % 4 + 1) as usize];
                }
            }
        }
        by
    }

    /// The placements of the tile in hand, each with its worth `depth` placements deep (this
    /// one included), the chance of every draw counted out (`Expecti`): every placement one
    /// and two deep, deeper only the `root_width` best of the depth before. Best first.
    pub fn expectimax(
        &self,
        view: &sagani_core::view::View,
        e: &Expecti,
        s: &mut Scratch,
        symphony: f32,
    ) -> Vec<(Move, f32)> {
        let sampler = crate::sampler::PileSampler::new(view);
        let g = sampler.any_game(view).expect("views rebuild");
        let mut rated: Vec<(Move, f32)> = g
            .legal_moves()
            .into_iter()
            .map(|a| {
                let mut g1 = g.clone();
                g1.play(a).expect("legal moves are legal");
                let v = if g1.is_over() {
                    crate::playout::returns(&g1, symphony)[0]
                } else {
                    self.value(&g1, s)
                };
                (a, v)
            })
            .collect();
        rated.sort_by(|x, y| y.1.total_cmp(&x.1));
        let drawn = sampler.tops();
        if drawn.is_empty() {
            return rated;
        }
        // Two placements deep for all; deeper for the best of the depth before.
        for depth in 2..=e.depth {
            let n = if depth == 2 {
                rated.len()
            } else {
                e.root_width.min(rated.len())
            };
            for r in rated.iter_mut().take(n) {
                let w = drawn
                    .iter()
                    .map(|&t| self.worth_drawing(view, r.0, t, depth - 1, e, s, symphony))
                    .sum::<f32>();
                r.1 = w / drawn.len() as f32;
            }
            rated[..n].sort_by(|x, y| y.1.total_cmp(&x.1));
        }
        rated
    }

    /// The worth of placing `mv` in the game of `view` when the tile drawn after it is `t`:
    /// the best placement of `t`, `depth` placements deep, over the backs the tile after it
    /// can show.
    #[allow(clippy::too_many_arguments)]
    fn worth_drawing(
        &self,
        view: &sagani_core::view::View,
        mv: Move,
        t: TileId,
        depth: u8,
        e: &Expecti,
        s: &mut Scratch,
        symphony: f32,
    ) -> f32 {
        let mut order = view.draw_pile.tiles.clone();
        if let Some(i) = order.iter().position(|&x| x == t) {
            order.swap(0, i);
        }
        let mut g = Game::from_view(view, &order).expect("views rebuild");
        g.play(mv).expect("legal moves are legal");
        if g.is_over() {
            return crate::playout::returns(&g, symphony)[0];
        }
        let by = self.best_by_back(&g, depth, e, s, symphony);
        let backs = backs_of(&g.draw_pile_tiles());
        if backs.iter().all(|&p| p == 0.0) {
            by[0]
        } else {
            (0..16).map(|k| backs[k] * by[k]).sum()
        }
    }

    /// `g` is just after a placement, with the tile to place next revealed (its pile in any
    /// order). For each back the pile's top can show (element × arrows − 1), the best worth of
    /// placing the revealed tile, `depth` placements deep: the tile after it shows its back
    /// before this one is placed. Deeper than one, only the `width` placements the value
    /// rates best for a back are searched on.
    fn best_by_back(
        &self,
        g: &Game,
        depth: u8,
        e: &Expecti,
        s: &mut Scratch,
        symphony: f32,
    ) -> [f32; 16] {
        let pile = g.draw_pile_tiles();
        let backs = backs_of(&pile);
        let moves = g.legal_moves();
        let ones: Vec<(bool, [f32; 16])> = moves
            .iter()
            .map(|&b| {
                let mut g2 = g.clone();
                g2.play(b).expect("legal moves are legal");
                if g2.is_over() {
                    (true, [crate::playout::returns(&g2, symphony)[0]; 16])
                } else {
                    (false, self.value_by_back(&g2, s, &backs))
                }
            })
            .collect();
        let mut best = [f32::NEG_INFINITY; 16];
        if depth <= 1 || pile.is_empty() {
            for (_, v) in &ones {
                for k in 0..16 {
                    best[k] = best[k].max(v[k]);
                }
            }
            return best;
        }
        // The top shows back `k` in the games searched for it.
        let mut view = g.view(Some(0));
        let mut order: Vec<usize> = (0..moves.len()).collect();
        for k in (0..16).filter(|&k| backs[k] > 0.0) {
            let drawn: Vec<TileId> = pile
                .iter()
                .copied()
                .filter(|&t| back_index(t) == Some(k))
                .collect();
            view.draw_pile.top = drawn.first().map(|&t| TileBack::of(t));
            order.sort_by(|&x, &y| ones[y].1[k].total_cmp(&ones[x].1[k]));
            for &i in order.iter().take(e.width.max(1)) {
                let w = if ones[i].0 {
                    ones[i].1[k]
                } else {
                    drawn
                        .iter()
                        .map(|&t| self.worth_drawing(&view, moves[i], t, depth - 1, e, s, symphony))
                        .sum::<f32>()
                        / drawn.len() as f32
                };
                best[k] = best[k].max(w);
            }
        }
        best
    }

    fn update(&mut self, idx: &[u32], delta: f32) {
        let step = delta / idx.len() as f32;
        for &i in idx {
            self.w[i as usize] += step;
        }
    }

    /// The placement whose afterstate the value rates best, with that value (the return where
    /// it ends the game).
    pub fn best(&self, g: &Game, s: &mut Scratch, symphony: f32) -> Option<(Move, f32)> {
        let mut best: Option<(Move, f32)> = None;
        for mv in g.legal_moves() {
            let mut a = g.clone();
            a.play(mv).ok()?;
            let v = if a.is_over() {
                crate::playout::returns(&a, symphony)[0]
            } else {
                self.value(&a, s)
            };
            if best.is_none_or(|b| v > b.1) {
                best = Some((mv, v));
            }
        }
        best
    }
}

impl Default for Td {
    fn default() -> Td {
        Td::new()
    }
}

/// Plays deck `deck` by the value (greedy, or a random placement with chance `explore`; or by
/// `policy` as a playout plays, where given) and, with `learn` > 0, moves each afterstate's
/// value towards the next one's. The game's outcome.
#[allow(clippy::too_many_arguments)]
pub fn play(
    td: &mut Td,
    policy: Option<&crate::policy::Policy>,
    deck: u64,
    learn: f32,
    explore: f64,
    rng: &mut ChaCha8Rng,
    s: &mut Scratch,
    symphony: f32,
) -> Option<Outcome> {
    let mut g = solo_game(deck);
    let mut prev: Option<Vec<u32>> = None;
    let mut gains = Vec::new();
    let mut aim = crate::aim::Aim::default();
    while !g.is_over() {
        if let Some(p) = policy {
            crate::playout::playout_step(&mut g, rng, 0, p, None, &mut gains, &mut aim);
        } else {
            let mv = if explore > 0.0 && rng.random_bool(explore) {
                let moves = g.legal_moves();
                moves[rng.random_range(0..moves.len())]
            } else {
                td.best(&g, s, symphony)?.0
            };
            g.play(mv).expect("chosen moves are legal");
        }
        let target = if g.is_over() {
            crate::playout::returns(&g, symphony)[0]
        } else {
            td.value(&g, s)
        };
        if learn > 0.0 {
            if let Some(p) = &prev {
                let delta = learn * (target - td.value_of(p));
                td.update(p, delta);
            }
        }
        prev = (!g.is_over()).then(|| s.idx.clone());
    }
    g.outcome()
}

/// How the value is learned (`learn`).
#[derive(Clone, Debug)]
pub struct TdLearn {
    /// Games the value plays and learns from, on decks `seed + 1,000,000` on.
    pub games: u64,
    /// Games before those, played by the solo playout policy, that the value learns from
    /// first (a value that knows nothing plays too badly to learn from its own games).
    pub warm: u64,
    /// The step towards each target, shared among the afterstate's features; the last
    /// third of the games learn at 0.3 times it.
    pub rate: f32,
    /// The chance of a random placement in the value's own games.
    pub explore: f64,
    pub seed: u64,
    /// The search's symphony bonus (`MctsConfig::symphony_bonus`): the return learned.
    pub symphony: f32,
}

impl Default for TdLearn {
    fn default() -> TdLearn {
        TdLearn {
            games: 300_000,
            warm: 20_000,
            rate: 0.1,
            explore: 0.02,
            seed: 1,
            symphony: 0.4,
        }
    }
}

/// Learns the value (`TdLearn`), the warm games played by `policy`; `done` is told each game
/// finished.
pub fn learn(cfg: &TdLearn, policy: &crate::policy::Policy, done: &dyn Fn(u64)) -> Td {
    let mut td = Td::new();
    let mut s = Scratch::default();
    let mut rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(cfg.seed);
    let all = cfg.warm + cfg.games;
    let slower = cfg.warm + cfg.games * 2 / 3;
    for n in 0..all {
        let by = (n < cfg.warm).then_some(policy);
        let rate = if n >= slower {
            cfg.rate * 0.3
        } else {
            cfg.rate
        };
        let deck = cfg.seed.wrapping_add(1_000_000 + n);
        play(
            &mut td,
            by,
            deck,
            rate,
            cfg.explore,
            &mut rng,
            &mut s,
            cfg.symphony,
        );
        done(n + 1);
    }
    td
}

/// Plays decks `first` to `first + decks - 1` by the value alone, greedily, learning nothing.
pub fn score(td: &Td, first: u64, decks: u64, symphony: f32) -> SoloScore {
    let mut td = td.clone();
    let mut s = Scratch::default();
    let mut rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(first);
    score_with(first, decks, symphony, |deck| {
        play(&mut td, None, deck, 0.0, 0.0, &mut rng, &mut s, symphony)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_learned_value_plays_better_than_one_that_knows_nothing() {
        // Learning from the playout policy's games and then its own: the greedy player of the
        // learned value reaches 75 on more decks than that of an all-zero value.
        let cfg = TdLearn {
            games: 300,
            warm: 300,
            ..TdLearn::default()
        };
        let td = learn(&cfg, crate::policy::Policy::solo_trained(), &|_| {});
        let learned = score(&td, 77, 12, 0.4);
        let blank = score(&Td::new(), 77, 12, 0.4);
        assert!(
            learned.reached > blank.reached,
            "{learned:?} against {blank:?}"
        );
    }

    #[test]
    fn the_shipped_value_plays_better_than_the_playout_policy() {
        let td = Td::trained();
        let mine = score(td, 9_000, 30, 0.4);
        let policy = crate::policy::Policy::solo_trained();
        let theirs = crate::solo_tune::score(policy, 9_000, 30, 0.4).symphonies;
        assert!(
            mine.symphonies > theirs,
            "{mine:?} against {theirs} symphonies"
        );
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let mut td = Td::new();
        td.w[3] = 0.25;
        let back = Td::from_json(&td.to_json(serde_json::json!({}))).unwrap();
        assert_eq!(back.w, td.w);
        let e = Td::from_json("{").unwrap_err();
        assert!(e.contains("not JSON"), "{e}");
        let e = Td::from_json(r#"{"td": 3, "weights": [1, 2, 3]}"#).unwrap_err();
        assert!(e.contains("not a TD value"), "{e}");
        let short = format!(r#"{{"td": {SIZE}, "weights": [1, 2]}}"#);
        assert!(Td::from_json(&short)
            .unwrap_err()
            .contains("finite numbers"));
        assert!(Td::load("/nonexistent/td.json")
            .unwrap_err()
            .contains("/nonexistent"));
    }

    /// The worth two placements deep, worked out the long way for the best placement: each
    /// tile the top may be (its back is seen), put on top; for each back the tile after it may
    /// show, a tile with that back put second, and the best placement of the first valued with
    /// the real game's features; weighed by how many tiles have each back.
    #[test]
    fn two_placements_deep_count_out_every_draw() {
        let td = Td::trained();
        let mut s = Scratch::default();
        let (g, _, _) = crate::sampler::solo_after(11, 5);
        let view = g.view(Some(0));
        let two = Expecti {
            depth: 2,
            root_width: 0,
            width: 0,
        };
        let rated = td.expectimax(&view, &two, &mut s, 0.4);
        assert_eq!(rated.len(), g.legal_moves().len());
        assert!(rated.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
        let pile = view.draw_pile.tiles.clone();
        let tops: Vec<TileId> = pile
            .iter()
            .copied()
            .filter(|&t| Some(TileBack::of(t)) == view.draw_pile.top)
            .collect();
        assert!(tops.len() > 1, "the top can be one of several tiles");
        for &(a, worth) in &rated[..3] {
            let mut sum = 0.0;
            for &t in &tops {
                let rest: Vec<TileId> = pile.iter().copied().filter(|&x| x != t).collect();
                let mut groups: Vec<(TileBack, Vec<TileId>)> = Vec::new();
                for &x in &rest {
                    match groups.iter_mut().find(|(b, _)| *b == TileBack::of(x)) {
                        Some((_, xs)) => xs.push(x),
                        None => groups.push((TileBack::of(x), vec![x])),
                    }
                }
                for (_, group) in &groups {
                    let mut order = vec![t, group[0]];
                    order.extend(rest.iter().filter(|&&x| x != group[0]));
                    let mut g1 = Game::from_view(&view, &order).unwrap();
                    g1.play(a).unwrap();
                    let best = g1
                        .legal_moves()
                        .into_iter()
                        .map(|b| {
                            let mut g2 = g1.clone();
                            g2.play(b).unwrap();
                            assert_eq!(g2.revealed(), Some(group[0]));
                            td.value(&g2, &mut s)
                        })
                        .fold(f32::NEG_INFINITY, f32::max);
                    sum += best * group.len() as f32 / rest.len() as f32;
                }
            }
            let expected = sum / tops.len() as f32;
            assert!(
                (worth - expected).abs() < 1e-4,
                "{worth} against {expected}"
            );
        }
    }

    #[test]
    fn two_placements_deep_play_better_than_one() {
        // Decks where the greedy player of the shipped value falls short of a symphony more
        // often than the search two deep.
        let td = Td::trained();
        let mut s = Scratch::default();
        let mut by_depth = Vec::new();
        for depth in [1, 2] {
            let e = Expecti {
                depth,
                root_width: 0,
                width: 0,
            };
            let score = score_with(9_100, 12, 0.4, |deck| {
                let mut g = solo_game(deck);
                while !g.is_over() {
                    let best = td.expectimax(&g.view(Some(0)), &e, &mut s, 0.4)[0].0;
                    g.play(best).unwrap();
                }
                g.outcome()
            });
            by_depth.push(score);
        }
        assert!(
            by_depth[1].mean_return > by_depth[0].mean_return,
            "{by_depth:?}"
        );
    }

    #[test]
    fn features_see_where_an_open_arrow_can_be_met() {
        // Placements of the second tile: the features of the afterstates differ (where the
        // open arrows point, what they cover), and every index is within the weights.
        let mut s = Scratch::default();
        let mut seen = std::collections::BTreeSet::new();
        let mut g = solo_game(3);
        g.play(g.legal_moves()[0]).unwrap();
        for mv in g.legal_moves() {
            let mut a = g.clone();
            a.play(mv).unwrap();
            s.features(&a);
            assert!(s.idx.iter().all(|&i| (i as usize) < SIZE));
            seen.insert(s.idx.clone());
        }
        assert!(seen.len() > 1, "every afterstate looked the same");
        // The bias, the score, the supply, one per unflipped tile and open arrow, the next
        // tile's back.
        let d = g.display(0);
        s.features(&g);
        let open: u32 = d.tiles().map(|t| t.uncovered.count_ones()).sum();
        let unflipped = d.tiles().filter(|t| !t.flipped).count();
        assert_eq!(s.idx.len(), 3 + unflipped + open as usize + 1);
    }
}
