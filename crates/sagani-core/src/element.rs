//! The four elements: a tile's base element and the colour of each arrow.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Element {
    Fire = 0,
    Water = 1,
    Earth = 2,
    Air = 3,
}

impl Element {
    pub const ALL: [Element; 4] = [Element::Fire, Element::Water, Element::Earth, Element::Air];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Element {
        Element::ALL[i & 3]
    }

    /// A letter for places without colour (terminal, screen readers).
    pub const fn letter(self) -> char {
        match self {
            Element::Fire => 'F',
            Element::Water => 'W',
            Element::Earth => 'E',
            Element::Air => 'A',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Element::Fire => "fire",
            Element::Water => "water",
            Element::Earth => "earth",
            Element::Air => "air",
        }
    }
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
