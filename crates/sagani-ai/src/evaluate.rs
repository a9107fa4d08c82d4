//! The evaluation of one placement that `greedy` maximises, that orders the moves `mcts`
//! tries first, and that steers its playouts. With the default weights:
//!
//! value = score change (points of tiles flipped − 2 × Cacophony discs)
//!       + 0.5 × progress (for each arrow covered on a tile that does not flip yet, that tile's
//!         value per arrow: 1, 1.5, 2 or 2.5 for tiles of 1 to 4 arrows)
//!       − 0.3 × the new tile's arrows left open (each holds a disc until the tile flips)
//!       − 0.5 × each disc the supply is short of 4 afterwards (Cacophony risk)

use sagani_core::Gain;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub progress: f32,
    pub open_arrow: f32,
    pub safe_supply: u16,
    pub short_supply: f32,
}

pub const WEIGHTS: Weights = Weights {
    progress: 0.5,
    open_arrow: 0.3,
    safe_supply: 4,
    short_supply: 0.5,
};

impl Weights {
    /// Value of a placement for the player who makes it (see the module's formula).
    #[inline]
    pub fn value(&self, g: &Gain) -> f32 {
        g.score_change as f32 + self.progress * 0.5 * g.worth as f32
            - self.open_arrow * g.own_open as f32
            - self.short_supply * self.safe_supply.saturating_sub(g.supply_after) as f32
    }
}

/// Value of a placement with the default weights.
#[inline]
pub fn placement_value(g: &Gain) -> f32 {
    WEIGHTS.value(g)
}

/// The value `greedy` gives the intermezzo choice (store the last offer tile, place the top
/// tile of the pile unseen): an unknown placement is worth about nothing.
pub const INTERMEZZO_VALUE: f32 = 0.0;
/// The value of passing in an intermezzo: a pick is taken only when it is worth more.
pub const PASS_VALUE: f32 = 0.0;
