//! `greedy`: one ply, the move with the best immediate value (`evaluate`); ties go to the first
//! such move in a seeded random order.

use crate::evaluate::{placement_value, INTERMEZZO_VALUE, PASS_VALUE};
use crate::sampler::PileSampler;
use crate::{Analysis, Bot, Budget, Decision};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sagani_core::view::View;
use sagani_core::Move;

pub struct Greedy {
    rng: ChaCha8Rng,
}

impl Greedy {
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Every legal move with its value, shuffled (so ties break at random), best first.
    fn rate(&mut self, view: &View, legal: &[Move]) -> Vec<(Move, f32)> {
        // The pile's order does not matter one ply deep: any order that fits the view will do.
        let game = PileSampler::new(view)
            .any_game(view)
            .expect("views rebuild");
        let mut rated: Vec<(Move, f32)> = legal
            .iter()
            .map(|&mv| {
                let v = match mv {
                    Move::Place { .. } => game.gain(mv).map(|g| placement_value(&g)),
                    Move::Intermezzo { .. } => Ok(INTERMEZZO_VALUE),
                    Move::Pass => Ok(PASS_VALUE),
                };
                (mv, v.unwrap_or(f32::NEG_INFINITY))
            })
            .collect();
        rated.shuffle(&mut self.rng);
        rated.sort_by(|a, b| b.1.total_cmp(&a.1));
        rated
    }
}

impl Bot for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, view: &View, legal: &[Move], _: Budget) -> Decision {
        let mv = self.rate(view, legal)[0].0;
        let game = PileSampler::new(view)
            .any_game(view)
            .expect("views rebuild");
        Decision {
            reason: Some(crate::explain::reason(&game, mv, None)),
            ..mv.into()
        }
    }

    fn analyse(&mut self, view: &View, legal: &[Move], _: Budget, top: usize) -> Vec<Analysis> {
        self.rate(view, legal)
            .into_iter()
            .take(top)
            .map(|(mv, v)| Analysis {
                mv,
                value: v as f64,
                visits: 1,
            })
            .collect()
    }
}
