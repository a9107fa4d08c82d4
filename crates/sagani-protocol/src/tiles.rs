//! The 72 tiles as printed, for clients that draw them.

use sagani_core::{Direction, Element};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A tile as printed: `GET /api/tiles` lists all 72, so a client draws them from the engine's
/// own table.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TileInfo {
    #[schema(minimum = 1, maximum = 72)]
    pub id: u8,
    /// The base element: `fire`, `water`, `earth` or `air`.
    #[schema(value_type = String)]
    pub element: Element,
    /// Points when it flips: 1, 3, 6 or 10.
    pub value: u8,
    /// The printed arrows (no rotation): the direction each points (`N`, `NE`, … `NW`) and its
    /// element.
    pub arrows: Vec<TileArrow>,
    /// The arrows once placed with `rot` = 0, 1, 2, 3 quarter turns clockwise.
    pub rotations: Vec<Vec<TileArrow>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TileArrow {
    /// `N`, `NE`, `E`, `SE`, `S`, `SW`, `W` or `NW`.
    #[schema(value_type = String)]
    pub direction: Direction,
    /// `fire`, `water`, `earth` or `air`.
    #[schema(value_type = String)]
    pub element: Element,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Tiles {
    pub tiles: Vec<TileInfo>,
}
