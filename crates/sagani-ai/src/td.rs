//! A learned value of solo positions, by temporal differences (as the strongest 2048 players
//! learn theirs): the value of the display just after a placement is a sum of weights, one for
//! each of a few dozen facts about it (score and tiles used together, the supply, each
//! unflipped tile, each open arrow with where its ray can still be met, the next tile's back),
//! learned from games the value itself plays: each placement is chosen as the one whose
//! afterstate it values most, and each afterstate's value is moved towards the next one's (the
//! last towards the game's return). So the value learns what positions are worth to a player
//! who plays by it, and plays better as it learns.

use crate::weights_file::WeightsError;
use sagani_core::{tile, Direction, Game, Move};

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

impl Td {
    /// The weights as JSON: `{"td": SIZE, "note": …, "weights": [...]}`.
    pub fn to_json(&self, note: serde_json::Value) -> String {
        serde_json::json!({ "td": SIZE, "note": note, "weights": self.w }).to_string()
    }

    /// The value learned by `sagani train --td` and shipped with the bots
    /// (`data/solo-td-trained.json`; docs/research/bots.md says how it was made and measured).
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
    pub fn from_json(text: &str) -> Result<Td, WeightsError> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|source| WeightsError::NotJson {
                what: "JSON",
                source,
            })?;
        if v.get("td").and_then(|n| n.as_u64()) != Some(SIZE as u64) {
            return Err(WeightsError::NotTd(SIZE));
        }
        let w: Vec<f32> =
            serde_json::from_value(v["weights"].clone()).map_err(WeightsError::TdWeights)?;
        if w.len() != SIZE || w.iter().any(|x| !x.is_finite()) {
            return Err(WeightsError::TdSize(SIZE));
        }
        Ok(Td { w })
    }

    pub fn load(path: &str) -> Result<Td, WeightsError> {
        Td::from_json(&crate::weights_file::read(path)?).map_err(|e| e.in_file(path))
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

    /// Moves the value of the facts `idx` by `delta`, shared among them (learning).
    pub fn update(&mut self, idx: &[u32], delta: f32) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let mut td = Td::new();
        td.w[3] = 0.25;
        let back = Td::from_json(&td.to_json(serde_json::json!({}))).unwrap();
        assert_eq!(back.w, td.w);
        let e = Td::from_json("{").unwrap_err().to_string();
        assert!(e.contains("not JSON"), "{e}");
        let e = Td::from_json(r#"{"td": 3, "weights": [1, 2, 3]}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a TD value"), "{e}");
        let short = format!(r#"{{"td": {SIZE}, "weights": [1, 2]}}"#);
        assert!(Td::from_json(&short)
            .unwrap_err()
            .to_string()
            .contains("finite numbers"));
        assert!(Td::load("/nonexistent/td.json")
            .unwrap_err()
            .to_string()
            .contains("/nonexistent"));
    }

    #[test]
    fn features_see_where_an_open_arrow_can_be_met() {
        // Placements of the second tile: the features of the afterstates differ (where the
        // open arrows point, what they cover), and every index is within the weights.
        let mut s = Scratch::default();
        let mut seen = std::collections::BTreeSet::new();
        let mut g = sagani_core::Game::new(&sagani_core::Setup {
            variant: Some(sagani_core::Variant::Solo),
            ..sagani_core::Setup::seeded(1, 3)
        })
        .unwrap();
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
