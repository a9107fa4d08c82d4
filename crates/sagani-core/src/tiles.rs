//! The 72 Spirit of Nature tiles, embedded from `data/tiles.csv`, and their arrows as bit masks.

use crate::element::Element;
use crate::geometry::Direction;

/// A tile id, 1 to 72, as printed in `tiles.csv`.
pub type TileId = u8;

pub const TILE_COUNT: usize = 72;

/// One Spirit of Nature tile as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub id: TileId,
    /// The base element (both sides of the tile).
    pub element: Element,
    /// The arrow printed in each direction (index = `Direction`), before any rotation.
    pub arrows: [Option<Element>; 8],
}

impl Tile {
    pub const fn arrow_count(&self) -> u8 {
        let mut n = 0;
        let mut d = 0;
        while d < 8 {
            if self.arrows[d].is_some() {
                n += 1;
            }
            d += 1;
        }
        n
    }

    /// Points scored when the tile is flipped: 1, 3, 6 or 10 for 1, 2, 3 or 4 arrows.
    pub const fn value(&self) -> u8 {
        value_for_arrows(self.arrow_count())
    }

    /// The arrows once placed with `rot` quarter turns: (direction it points, its element).
    pub fn placed_arrows(&self, rot: u8) -> impl Iterator<Item = (Direction, Element)> + '_ {
        Direction::ALL
            .iter()
            .filter_map(move |&d| self.arrows[d.index()].map(|e| (d.rotated(rot), e)))
    }
}

pub const fn value_for_arrows(arrows: u8) -> u8 {
    match arrows {
        1 => 1,
        2 => 3,
        3 => 6,
        4 => 10,
        _ => 0,
    }
}

/// The tile with this id, if it exists.
pub fn tile(id: TileId) -> Option<&'static Tile> {
    if (1..=TILE_COUNT as u8).contains(&id) {
        Some(&TILES[id as usize - 1])
    } else {
        None
    }
}

/// Arrow masks: bit `element * 8 + direction` is set when the placed tile has an arrow of that
/// element pointing in that direction. `ARROW_MASKS[id][rot]`; index 0 is unused.
pub(crate) static ARROW_MASKS: [[u32; 4]; TILE_COUNT + 1] = build_masks();
/// Base element index, arrow count and value per tile id (index 0 unused).
pub(crate) static ELEMENT_OF: [u8; TILE_COUNT + 1] = per_tile(0);
pub(crate) static ARROWS_OF: [u8; TILE_COUNT + 1] = per_tile(1);
pub(crate) static VALUE_OF: [u8; TILE_COUNT + 1] = per_tile(2);

const fn build_masks() -> [[u32; 4]; TILE_COUNT + 1] {
    let mut out = [[0u32; 4]; TILE_COUNT + 1];
    let mut i = 0;
    while i < TILE_COUNT {
        let t = &TILES[i];
        let mut rot = 0;
        while rot < 4 {
            let mut m = 0u32;
            let mut d = 0;
            while d < 8 {
                if let Some(e) = t.arrows[d] {
                    let placed = (d + 2 * rot) % 8;
                    m |= 1 << (e as usize * 8 + placed);
                }
                d += 1;
            }
            out[i + 1][rot] = m;
            rot += 1;
        }
        i += 1;
    }
    out
}

/// One small fact per tile id: 0 its element index, 1 its arrow count, 2 its value.
const fn per_tile(fact: u8) -> [u8; TILE_COUNT + 1] {
    let mut out = [0u8; TILE_COUNT + 1];
    let mut i = 0;
    while i < TILE_COUNT {
        let t = &TILES[i];
        out[i + 1] = match fact {
            0 => t.element as u8,
            1 => t.arrow_count(),
            _ => t.value(),
        };
        i += 1;
    }
    out
}

const F: Element = Element::Fire;
const W: Element = Element::Water;
const E: Element = Element::Earth;
const A: Element = Element::Air;

const fn t(id: TileId, element: Element, arrows: [Option<Element>; 8]) -> Tile {
    Tile {
        id,
        element,
        arrows,
    }
}

/// All 72 tiles in id order. Arrows in the order N, NE, E, SE, S, SW, W, NW
/// (the csv's top, topright, right, bottomright, bottom, bottomleft, left, topleft).
pub static TILES: [Tile; TILE_COUNT] = [
    t(1, F, [None, Some(F), None, None, None, None, None, None]),
    t(2, F, [Some(F), None, None, None, None, None, None, None]),
    t(3, F, [Some(A), None, None, None, None, None, None, Some(F)]),
    t(
        4,
        F,
        [Some(W), Some(A), None, None, None, None, None, Some(E)],
    ),
    t(
        5,
        F,
        [Some(E), Some(W), None, None, None, None, None, Some(A)],
    ),
    t(
        6,
        F,
        [Some(E), Some(A), None, None, None, None, None, Some(W)],
    ),
    t(
        7,
        F,
        [Some(W), Some(E), None, None, None, None, None, Some(A)],
    ),
    t(
        8,
        F,
        [Some(F), Some(E), Some(E), None, None, None, None, Some(F)],
    ),
    t(
        9,
        F,
        [Some(F), None, Some(W), None, Some(A), None, Some(E), None],
    ),
    t(
        10,
        F,
        [Some(F), Some(W), None, None, None, None, None, None],
    ),
    t(
        11,
        F,
        [Some(A), Some(W), None, None, None, None, None, Some(E)],
    ),
    t(
        12,
        F,
        [None, Some(F), None, None, None, None, None, Some(E)],
    ),
    t(
        13,
        F,
        [Some(F), None, Some(F), None, None, None, Some(A), Some(A)],
    ),
    t(
        14,
        F,
        [None, Some(E), Some(F), None, None, None, Some(W), Some(A)],
    ),
    t(
        15,
        F,
        [None, Some(F), None, None, None, None, None, Some(W)],
    ),
    t(
        16,
        F,
        [Some(W), Some(W), None, None, None, Some(F), None, Some(F)],
    ),
    t(
        17,
        F,
        [Some(A), Some(E), None, None, None, None, None, Some(W)],
    ),
    t(
        18,
        F,
        [Some(E), None, None, None, None, None, None, Some(F)],
    ),
    t(19, E, [Some(E), None, None, None, None, None, None, None]),
    t(20, E, [None, Some(E), None, None, None, None, None, None]),
    t(
        21,
        E,
        [None, Some(A), None, None, None, None, None, Some(E)],
    ),
    t(
        22,
        E,
        [Some(F), Some(W), None, None, None, None, None, Some(A)],
    ),
    t(
        23,
        E,
        [Some(A), Some(W), None, None, None, None, None, Some(F)],
    ),
    t(
        24,
        E,
        [Some(F), Some(F), None, None, None, Some(E), None, Some(E)],
    ),
    t(
        25,
        E,
        [Some(E), Some(E), None, None, None, None, Some(W), Some(W)],
    ),
    t(
        26,
        E,
        [Some(W), None, None, None, None, None, None, Some(E)],
    ),
    t(
        27,
        E,
        [None, None, Some(E), Some(A), None, None, Some(W), Some(F)],
    ),
    t(
        28,
        E,
        [Some(A), None, Some(F), None, Some(E), None, Some(W), None],
    ),
    t(
        29,
        E,
        [None, Some(E), None, None, None, None, None, Some(W)],
    ),
    t(
        30,
        E,
        [Some(E), Some(A), None, None, None, None, None, None],
    ),
    t(
        31,
        E,
        [Some(A), Some(F), None, None, None, None, None, Some(W)],
    ),
    t(
        32,
        E,
        [Some(F), Some(A), None, None, None, None, None, Some(W)],
    ),
    t(
        33,
        E,
        [Some(W), Some(F), None, None, None, None, None, Some(A)],
    ),
    t(
        34,
        E,
        [Some(A), None, Some(A), None, None, None, Some(E), Some(E)],
    ),
    t(
        35,
        E,
        [Some(F), Some(E), None, None, None, None, None, None],
    ),
    t(
        36,
        E,
        [Some(W), Some(A), None, None, None, None, None, Some(F)],
    ),
    t(37, W, [None, Some(W), None, None, None, None, None, None]),
    t(38, W, [Some(W), None, None, None, None, None, None, None]),
    t(
        39,
        W,
        [Some(F), None, None, None, None, None, None, Some(W)],
    ),
    t(
        40,
        W,
        [None, Some(F), None, None, None, None, None, Some(W)],
    ),
    t(
        41,
        W,
        [Some(A), Some(W), None, None, None, None, None, None],
    ),
    t(
        42,
        W,
        [None, Some(W), None, None, None, None, None, Some(A)],
    ),
    t(
        43,
        W,
        [Some(W), Some(E), None, None, None, None, None, None],
    ),
    t(
        44,
        W,
        [Some(E), Some(F), None, None, None, None, None, Some(A)],
    ),
    t(
        45,
        W,
        [Some(A), Some(E), None, None, None, None, None, Some(F)],
    ),
    t(
        46,
        W,
        [Some(E), Some(A), None, None, None, None, None, Some(F)],
    ),
    t(
        47,
        W,
        [Some(A), Some(F), None, None, None, None, None, Some(E)],
    ),
    t(
        48,
        W,
        [Some(F), Some(E), None, None, None, None, None, Some(A)],
    ),
    t(
        49,
        W,
        [Some(F), Some(A), None, None, None, None, None, Some(E)],
    ),
    t(
        50,
        W,
        [Some(W), Some(E), None, Some(E), None, None, None, Some(W)],
    ),
    t(
        51,
        W,
        [None, Some(W), Some(E), None, None, Some(A), Some(F), None],
    ),
    t(
        52,
        W,
        [Some(F), Some(W), Some(W), None, None, None, Some(F), None],
    ),
    t(
        53,
        W,
        [Some(W), Some(W), None, None, None, None, Some(A), Some(A)],
    ),
    t(
        54,
        W,
        [Some(E), None, Some(W), None, Some(F), None, Some(A), None],
    ),
    t(55, A, [Some(A), None, None, None, None, None, None, None]),
    t(56, A, [None, Some(A), None, None, None, None, None, None]),
    t(
        57,
        A,
        [Some(E), None, None, None, None, None, None, Some(A)],
    ),
    t(
        58,
        A,
        [Some(A), Some(F), None, None, None, None, None, None],
    ),
    t(
        59,
        A,
        [Some(W), None, None, None, None, None, None, Some(A)],
    ),
    t(
        60,
        A,
        [Some(F), Some(W), None, None, None, None, None, Some(E)],
    ),
    t(
        61,
        A,
        [Some(W), Some(F), None, None, None, None, None, Some(E)],
    ),
    t(
        62,
        A,
        [Some(W), Some(E), None, None, None, None, None, Some(F)],
    ),
    t(
        63,
        A,
        [Some(W), Some(A), None, Some(A), None, None, None, Some(W)],
    ),
    t(
        64,
        A,
        [Some(A), None, Some(F), None, Some(W), None, Some(E), None],
    ),
    t(
        65,
        A,
        [Some(E), Some(W), None, None, None, None, None, Some(F)],
    ),
    t(
        66,
        A,
        [Some(E), Some(A), Some(A), None, None, None, Some(E), None],
    ),
    t(
        67,
        A,
        [None, Some(A), None, None, None, None, None, Some(E)],
    ),
    t(
        68,
        A,
        [Some(F), Some(E), None, None, None, None, None, Some(W)],
    ),
    t(
        69,
        A,
        [Some(A), Some(F), Some(F), None, None, None, None, Some(A)],
    ),
    t(
        70,
        A,
        [Some(E), Some(F), None, None, None, None, None, Some(W)],
    ),
    t(
        71,
        A,
        [Some(A), Some(E), None, None, None, Some(F), Some(W), None],
    ),
    t(
        72,
        A,
        [None, Some(A), None, None, None, None, None, Some(F)],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = include_str!("../data/tiles.csv");

    fn element_of_name(s: &str) -> Option<Element> {
        match s {
            "FIRE" => Some(Element::Fire),
            "WATER" => Some(Element::Water),
            "EARTH" => Some(Element::Earth),
            "AIR" => Some(Element::Air),
            "NONE" => None,
            other => panic!("unknown element {other:?} in tiles.csv"),
        }
    }

    #[test]
    fn table_matches_tiles_csv_tile_for_tile() {
        let mut lines = CSV.lines();
        assert_eq!(
            lines.next().unwrap(),
            "id,color,top,topright,right,bottomright,bottom,bottomleft,left,topleft,score"
        );
        let mut n = 0;
        for line in lines.filter(|l| !l.trim().is_empty()) {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 11, "line {line:?}");
            let id: u8 = f[0].parse().unwrap();
            let t = tile(id).unwrap();
            assert_eq!(t.id, id);
            assert_eq!(Some(t.element), element_of_name(f[1]), "tile {id}");
            for d in 0..8 {
                assert_eq!(t.arrows[d], element_of_name(f[2 + d]), "tile {id} dir {d}");
            }
            let score: u8 = f[10].parse().unwrap();
            assert_eq!(t.value(), score, "tile {id}");
            n += 1;
        }
        assert_eq!(n, TILE_COUNT);
    }

    #[test]
    fn rule_components_18_tiles_per_element() {
        for e in Element::ALL {
            assert_eq!(TILES.iter().filter(|t| t.element == e).count(), 18, "{e}");
        }
    }

    #[test]
    fn rule_components_2_5_6_5_tiles_with_1_2_3_4_arrows_per_element() {
        for e in Element::ALL {
            let counts: Vec<usize> = (1..=4)
                .map(|n| {
                    TILES
                        .iter()
                        .filter(|t| t.element == e && t.arrow_count() == n)
                        .count()
                })
                .collect();
            assert_eq!(counts, vec![2, 5, 6, 5], "{e}");
        }
    }

    #[test]
    fn rule_components_50_arrows_per_colour() {
        for e in Element::ALL {
            let n: usize = TILES
                .iter()
                .map(|t| t.arrows.iter().filter(|a| **a == Some(e)).count())
                .sum();
            assert_eq!(n, 50, "{e}");
        }
    }

    #[test]
    fn rule_components_value_by_arrow_count() {
        for t in TILES.iter() {
            let expect = [0, 1, 3, 6, 10][t.arrow_count() as usize];
            assert_eq!(t.value(), expect, "tile {}", t.id);
            assert_eq!(VALUE_OF[t.id as usize], expect);
            assert_eq!(ARROWS_OF[t.id as usize], t.arrow_count());
        }
    }

    #[test]
    fn masks_follow_rotation() {
        // Tile 8: N fire, NE earth, E earth, NW fire.
        let m = ARROW_MASKS[8];
        let bit = |e: Element, d: Direction| 1u32 << (e.index() * 8 + d.index());
        assert_eq!(
            m[0],
            bit(F, Direction::N)
                | bit(E, Direction::NE)
                | bit(E, Direction::E)
                | bit(F, Direction::NW)
        );
        assert_eq!(
            m[1],
            bit(F, Direction::E)
                | bit(E, Direction::SE)
                | bit(E, Direction::S)
                | bit(F, Direction::NE)
        );
        for t in TILES.iter() {
            for rot in 0..4u8 {
                let from_iter = t.placed_arrows(rot).fold(0u32, |m, (d, e)| m | bit(e, d));
                assert_eq!(ARROW_MASKS[t.id as usize][rot as usize], from_iter);
                assert_eq!(from_iter.count_ones(), t.arrow_count() as u32);
            }
        }
    }
}
