//! Random playouts: the workload of `sagani bench` and a baseline for bots.
//!
//! Each turn takes a uniformly random tile of the offer, a uniformly random legal cell and a
//! uniformly random rotation, and never makes the intermezzo choice. Intermezzo picks (which
//! then cannot arise) and solo placements follow the same rule over what may be placed.

use crate::game::{Game, Phase};
use crate::moves::Move;
use rand::Rng;

/// Plays one uniformly random legal placement for whoever must act; passes in an intermezzo
/// only when that is the drawn option. Returns false when the game is over.
#[inline]
pub fn random_placement(game: &mut Game, rng: &mut impl Rng) -> bool {
    let Some(seat) = game.to_act() else {
        return false;
    };
    let tile = match game.phase {
        Phase::Turn => game.offer[rng.random_range(0..game.offer_len as usize)],
        Phase::PlaceDrawn(t) | Phase::PlaceRevealed(t) => t,
        Phase::Intermezzo { .. } => {
            let n = game.storage_len as usize;
            let i = rng.random_range(0..=n);
            if i == n {
                game.play(Move::Pass)
                    .expect("pass is legal in an intermezzo");
                return true;
            }
            game.storage[i]
        }
        Phase::Over => return false,
    };
    let display = game.display(seat);
    let cell = display.open_cell(rng.random_range(0..display.open_len()));
    let rot = rng.random_range(0..4u8);
    game.play(Move::place(tile, cell, rot))
        .expect("a random open cell is always legal");
    true
}

/// Plays the game to its end with random placements; returns the number of placements made.
pub fn random_playout(game: &mut Game, rng: &mut impl Rng) -> u32 {
    let before = game.placements();
    while random_placement(game, rng) {}
    (game.placements() - before) as u32
}
