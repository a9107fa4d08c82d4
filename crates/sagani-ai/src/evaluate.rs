//! The evaluation of one placement that `greedy` maximises, that orders the moves `mcts`
//! tries first, and that steers its playouts.
//!
//! value = score change (points of tiles flipped − 2 × Cacophony discs)
//!       + 0.5 × arrows of earlier tiles covered (progress towards flipping them)
//!       + 0.5 × the new tile's arrows covered at once
//!       − 0.3 × the new tile's arrows left open (discs locked up on it)
//!       − 0.5 × each disc the supply is short of 4 afterwards (Cacophony risk)

use sagani_core::Gain;

pub const PROGRESS: f32 = 0.5;
pub const OWN_COVERED: f32 = 0.5;
pub const OPEN_ARROW: f32 = 0.3;
pub const SAFE_SUPPLY: u16 = 4;
pub const SHORT_SUPPLY: f32 = 0.5;

/// Value of a placement for the player who makes it (see the module's formula).
#[inline]
pub fn placement_value(g: &Gain) -> f32 {
    g.score_change as f32 + PROGRESS * g.covered as f32 + OWN_COVERED * g.own_covered as f32
        - OPEN_ARROW * g.own_open as f32
        - SHORT_SUPPLY * SAFE_SUPPLY.saturating_sub(g.supply_after) as f32
}

/// The value `greedy` gives the intermezzo choice (store the last offer tile, place the top
/// tile of the pile unseen): an unknown placement is worth about nothing.
pub const INTERMEZZO_VALUE: f32 = 0.0;
/// The value of passing in an intermezzo: a pick is taken only when it is worth more.
pub const PASS_VALUE: f32 = 0.0;
