//! The engine's displays against a naive reference written straight from RULES.md ("Placing a
//! tile"): a map of cells, rays walked step by step. Random solo-all games, with shapes pushed
//! towards long lines so rays reach far, must agree placement by placement.

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::{tile, Cell, DeckOrder, Direction, Element, Game, Move, Setup, Variant};
use std::collections::HashMap;

struct RefTile {
    id: u8,
    element: Element,
    /// Arrows as placed: direction, element, covered.
    arrows: Vec<(Direction, Element, bool)>,
    flipped: bool,
}

#[derive(Default)]
struct Reference {
    cells: HashMap<(i32, i32), RefTile>,
    supply: i32,
    score: i32,
    cacophony: i32,
}

impl Reference {
    fn new() -> Reference {
        Reference {
            supply: 24,
            ..Default::default()
        }
    }

    /// Is there a tile of `element` on the ray from `from` in direction `d`?
    fn ray_has(&self, from: (i32, i32), d: Direction, element: Element) -> bool {
        let (sx, sy) = d.step();
        (1..200).any(|k| {
            self.cells
                .get(&(from.0 + sx * k, from.1 + sy * k))
                .is_some_and(|t| t.element == element)
        })
    }

    fn place(&mut self, id: u8, cell: (i32, i32), rot: u8) {
        let t = tile(id).unwrap();
        // 1. The tile goes on its cell.
        self.cells.insert(
            cell,
            RefTile {
                id,
                element: t.element,
                arrows: t.placed_arrows(rot).map(|(d, e)| (d, e, false)).collect(),
                flipped: false,
            },
        );
        // 2. Earlier tiles' uncovered arrows now satisfied; completed ones flip and score.
        let earlier: Vec<(i32, i32)> = self.cells.keys().copied().filter(|&c| c != cell).collect();
        for c in earlier {
            let snapshot: Vec<(usize, Direction, Element)> = {
                let t = &self.cells[&c];
                if t.flipped {
                    continue;
                }
                t.arrows
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| !a.2)
                    .map(|(i, a)| (i, a.0, a.1))
                    .collect()
            };
            let mut changed = false;
            for (i, d, e) in snapshot {
                if self.ray_has(c, d, e) {
                    self.cells.get_mut(&c).unwrap().arrows[i].2 = true;
                    changed = true;
                }
            }
            let t = self.cells.get_mut(&c).unwrap();
            if changed && t.arrows.iter().all(|a| a.2) {
                t.flipped = true;
                self.supply += t.arrows.len() as i32;
                self.score += tile(t.id).unwrap().value() as i32;
            }
        }
        // 3. Discs for the new tile, Cacophony for the shortfall.
        let need = t.arrow_count() as i32;
        if self.supply < need {
            let short = need - self.supply;
            self.cacophony += short;
            self.score -= 2 * short;
            self.supply += short;
        }
        self.supply -= need;
        // 4. The new tile's own arrows.
        let arrows: Vec<(usize, Direction, Element)> = self.cells[&cell]
            .arrows
            .iter()
            .enumerate()
            .map(|(i, a)| (i, a.0, a.1))
            .collect();
        for (i, d, e) in arrows {
            if self.ray_has(cell, d, e) {
                self.cells.get_mut(&cell).unwrap().arrows[i].2 = true;
            }
        }
        let t = self.cells.get_mut(&cell).unwrap();
        if t.arrows.iter().all(|a| a.2) {
            t.flipped = true;
            self.supply += need;
            self.score += tile(id).unwrap().value() as i32;
        }
    }
}

fn compare(g: &Game, r: &Reference) {
    assert_eq!(g.score(0) as i32, r.score);
    assert_eq!(g.supply(0) as i32, r.supply);
    assert_eq!(g.cacophony(0) as i32, r.cacophony);
    assert_eq!(g.display(0).len(), r.cells.len());
    for t in g.display(0).tiles() {
        let rt = &r.cells[&(t.cell.x, t.cell.y)];
        assert_eq!(t.tile, rt.id);
        assert_eq!(t.flipped, rt.flipped, "tile {} at {}", t.tile, t.cell);
        if !t.flipped {
            for &(d, e, covered) in &rt.arrows {
                let bit = 1u32 << (e.index() * 8 + d.index());
                assert_eq!(t.uncovered & bit == 0, covered, "tile {} arrow {d}", t.tile);
            }
        }
    }
    // Open cells: exactly the empty cells next to a tile.
    let mut open: Vec<Cell> = g.display(0).open_cells().collect();
    open.sort();
    let mut expect: Vec<Cell> = r
        .cells
        .keys()
        .flat_map(|&(x, y)| [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)])
        .filter(|c| !r.cells.contains_key(c))
        .map(|(x, y)| Cell::new(x, y))
        .collect();
    expect.sort();
    expect.dedup();
    assert_eq!(open, expect);
}

fn check_game(seed: u64, policy: u64, line_bias: f64) {
    let mut g = Game::new(&Setup {
        players: 1,
        variant: Some(Variant::SoloAll),
        deck: DeckOrder::Seed(seed),
        start_player: None,
    })
    .unwrap();
    let mut r = Reference::new();
    let mut rng = SmallRng::seed_from_u64(policy);
    let axis = rng.random_range(0..4);
    while let Some(id) = g.revealed() {
        let cells: Vec<Cell> = g.display(0).open_cells().collect();
        // Sometimes the open cell furthest along one axis: long lines, far rays, big
        // coordinates.
        let cell = if rng.random_bool(line_bias) {
            *cells
                .iter()
                .max_by_key(|c| [c.x, -c.x, c.y, c.x + c.y][axis])
                .unwrap()
        } else {
            cells[rng.random_range(0..cells.len())]
        };
        let rot = rng.random_range(0..4);
        g.play(Move::place(id, cell, rot)).unwrap();
        r.place(id, (cell.x, cell.y), rot);
        compare(&g, &r);
    }
    assert_eq!(g.display(0).len(), 72);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn displays_agree_with_the_naive_reference(seed: u64, policy: u64, bias in 0.0f64..1.0) {
        check_game(seed, policy, bias);
    }
}

#[test]
fn a_straight_line_of_all_72_tiles_agrees_with_the_reference() {
    for seed in 0..8 {
        check_game(seed, seed, 1.0);
    }
}
