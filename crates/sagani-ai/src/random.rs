//! `random`: a uniformly random legal move.

use crate::{Bot, Budget, Decision};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sagani_core::view::View;
use sagani_core::Move;

pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, _: &View, legal: &[Move], _: Budget) -> Decision {
        legal[self.rng.random_range(0..legal.len())].into()
    }
}
