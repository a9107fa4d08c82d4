//! The grid of a display: cells, the 8 directions, rotation, and which direction links two cells.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A direction, indexed clockwise from the top: 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Direction {
    N = 0,
    NE = 1,
    E = 2,
    SE = 3,
    S = 4,
    SW = 5,
    W = 6,
    NW = 7,
}

impl Direction {
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i & 7]
    }

    /// One step in this direction: `x` grows to the right, `y` grows downwards.
    pub const fn step(self) -> (i32, i32) {
        STEPS[self as usize]
    }

    /// The direction an arrow printed this way points after `rot` quarter turns clockwise.
    pub const fn rotated(self, rot: u8) -> Direction {
        Direction::from_index(self as usize + 2 * (rot as usize & 3))
    }

    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as usize + 4)
    }

    /// An arrow glyph, for terminals and logs.
    pub const fn arrow(self) -> char {
        ['↑', '↗', '→', '↘', '↓', '↙', '←', '↖'][self as usize]
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(["N", "NE", "E", "SE", "S", "SW", "W", "NW"][*self as usize])
    }
}

const STEPS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// Direction index by the signs of (dx, dy), each shifted to 0..=2: `SIGN_DIR[(sx+1)*3 + (sy+1)]`.
/// The centre entry (no offset) is never used.
const SIGN_DIR: [u8; 9] = [7, 6, 5, 0, 0, 4, 1, 2, 3];

/// The direction in which `(dx, dy)` lies from the origin if it is on one of the 8 rays
/// (same column, row or diagonal), else `None`. `(0, 0)` has no direction.
#[inline(always)]
pub fn direction_to(dx: i32, dy: i32) -> Option<u8> {
    let aligned = dx == 0 || dy == 0 || dx == dy || dx == -dy;
    if !aligned || (dx == 0 && dy == 0) {
        return None;
    }
    let s = (dx.signum() + 1) * 3 + (dy.signum() + 1);
    Some(SIGN_DIR[s as usize])
}

/// A cell of a display. The first tile of every display is at (0, 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    pub x: i32,
    pub y: i32,
}

impl Cell {
    pub const ORIGIN: Cell = Cell { x: 0, y: 0 };

    pub const fn new(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_eight_directions_clockwise_from_top() {
        let expect = [
            (0, -1),
            (1, -1),
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ];
        for (i, d) in Direction::ALL.iter().enumerate() {
            assert_eq!(d.index(), i);
            assert_eq!(d.step(), expect[i]);
        }
    }

    #[test]
    fn rule_rotation_turns_arrows_clockwise_by_quarters() {
        assert_eq!(Direction::N.rotated(1), Direction::E);
        assert_eq!(Direction::NE.rotated(1), Direction::SE);
        assert_eq!(Direction::W.rotated(1), Direction::N);
        assert_eq!(Direction::NW.rotated(2), Direction::SE);
        assert_eq!(Direction::S.rotated(3), Direction::E);
        for d in Direction::ALL {
            assert_eq!(d.rotated(0), d);
            assert_eq!(d.rotated(4), d);
            assert_eq!(d.rotated(2), d.opposite());
        }
    }

    #[test]
    fn direction_to_finds_rays_at_any_distance() {
        for d in Direction::ALL {
            let (sx, sy) = d.step();
            for k in 1..80 {
                assert_eq!(direction_to(sx * k, sy * k), Some(d.index() as u8));
            }
        }
        assert_eq!(direction_to(0, 0), None);
        assert_eq!(direction_to(1, 2), None);
        assert_eq!(direction_to(-3, 1), None);
        assert_eq!(direction_to(5, -4), None);
    }
}
