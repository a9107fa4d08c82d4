//! Guessing the hidden order of the draw pile from what a seat knows: which tiles are in it
//! (public) and the back of the top tile (its element and value, visible on the table).

use rand::seq::SliceRandom;
use rand::Rng;
use sagani_core::view::{TileBack, View};
use sagani_core::{Game, SetupError, TileId};

/// Draws pile orders consistent with one view, uniformly among all consistent ones.
#[derive(Clone, Debug)]
pub struct PileSampler {
    tiles: Vec<TileId>,
    /// How many of `tiles` (at the front after `new`) match the top tile's back.
    matching: usize,
}

impl PileSampler {
    pub fn new(view: &View) -> PileSampler {
        let mut tiles = view.draw_pile.tiles.clone();
        let fits = |t: TileId| {
            view.draw_pile
                .top
                .is_none_or(|back| TileBack::of(t) == back)
        };
        tiles.sort_by_key(|&t| !fits(t));
        let matching = tiles.iter().filter(|&&t| fits(t)).count();
        PileSampler { tiles, matching }
    }

    /// The tiles the top of the pile can be: those whose back matches.
    pub fn tops(&self) -> &[TileId] {
        &self.tiles[..self.matching]
    }

    /// A pile order, top first, into `out`.
    pub fn sample(&self, rng: &mut impl Rng, out: &mut Vec<TileId>) {
        out.clear();
        out.extend_from_slice(&self.tiles);
        if out.is_empty() {
            return;
        }
        // The top is one of the tiles whose back matches; the rest lie in any order.
        let top = rng.random_range(0..self.matching.max(1));
        out.swap(0, top);
        out[1..].shuffle(rng);
    }

    /// A game as the view describes it, with one pile order that fits what the seat sees (for
    /// looking one ply ahead, where the order does not matter, or to resample later).
    pub fn any_game(&self, view: &View) -> Result<Game, SetupError> {
        Game::from_view(view, &self.tiles)
    }

    /// A game as the view describes it, with a sampled pile order.
    pub fn game(&self, view: &View, rng: &mut impl Rng) -> Result<Game, SetupError> {
        let mut pile = Vec::new();
        self.sample(rng, &mut pile);
        Game::from_view(view, &pile)
    }
}

/// For tests: a solo game on deck `seed` after `placed` tiles (each the first legal move), the
/// sampler of the player's view of it, and the view's game (its pile in any order).
#[cfg(test)]
pub(crate) fn solo_after(seed: u64, placed: usize) -> (Game, PileSampler, Game) {
    let setup = sagani_core::Setup {
        variant: Some(sagani_core::Variant::Solo),
        ..sagani_core::Setup::seeded(1, seed)
    };
    let mut g = Game::new(&setup).expect("solo sets up");
    for _ in 0..placed {
        let mv = g.legal_moves()[0];
        g.play(mv).expect("legal moves are legal");
    }
    let view = g.view(Some(0));
    let sampler = PileSampler::new(&view);
    let base = sampler.any_game(&view).expect("views rebuild");
    (g, sampler, base)
}
