//! Learning the solo value of `sagani_ai::td` by temporal differences: games the value plays,
//! each afterstate's value moved towards the next one's (the last towards the game's return).

use crate::solo_tune::{score_with, solo_game, SoloScore};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sagani_ai::td::{Scratch, Td};
use sagani_core::Outcome;

/// Plays deck `deck` by the value (greedy, or a random placement with chance `explore`; or by
/// `policy` as a playout plays, where given) and, with `learn` > 0, moves each afterstate's
/// value towards the next one's. The game's outcome.
#[allow(clippy::too_many_arguments)]
pub fn play(
    td: &mut Td,
    policy: Option<&sagani_ai::policy::Policy>,
    deck: u64,
    learn: f32,
    explore: f64,
    rng: &mut ChaCha8Rng,
    s: &mut Scratch,
    symphony: f32,
) -> Option<Outcome> {
    let mut g = solo_game(deck);
    let mut prev: Option<Vec<u32>> = None;
    let mut gains = Vec::new();
    let mut aim = sagani_ai::aim::Aim::default();
    while !g.is_over() {
        if let Some(p) = policy {
            sagani_ai::playout::playout_step(&mut g, rng, 0, p, None, &mut gains, &mut aim);
        } else {
            let mv = if explore > 0.0 && rng.random_bool(explore) {
                let moves = g.legal_moves();
                moves[rng.random_range(0..moves.len())]
            } else {
                td.best(&g, s, symphony)?.0
            };
            g.play(mv).expect("chosen moves are legal");
        }
        let target = if g.is_over() {
            sagani_ai::playout::returns(&g, symphony)[0]
        } else {
            td.value(&g, s)
        };
        if learn > 0.0 {
            if let Some(p) = &prev {
                let delta = learn * (target - td.value_of(p));
                td.update(p, delta);
            }
        }
        prev = (!g.is_over()).then(|| s.idx.clone());
    }
    g.outcome()
}

/// How the value is learned (`learn`).
#[derive(Clone, Debug)]
pub struct TdLearn {
    /// Games the value plays and learns from, on decks `seed + 1,000,000` on.
    pub games: u64,
    /// Games before those, played by the solo playout policy, that the value learns from
    /// first (a value that knows nothing plays too badly to learn from its own games).
    pub warm: u64,
    /// The step towards each target, shared among the afterstate's features; the last
    /// third of the games learn at 0.3 times it.
    pub rate: f32,
    /// The chance of a random placement in the value's own games.
    pub explore: f64,
    pub seed: u64,
    /// The search's symphony bonus (`MctsConfig::symphony_bonus`): the return learned.
    pub symphony: f32,
}

impl Default for TdLearn {
    fn default() -> TdLearn {
        TdLearn {
            games: 300_000,
            warm: 20_000,
            rate: 0.1,
            explore: 0.02,
            seed: 1,
            symphony: 0.4,
        }
    }
}

/// Learns the value (`TdLearn`), the warm games played by `policy`; `done` is told each game
/// finished.
pub fn learn(cfg: &TdLearn, policy: &sagani_ai::policy::Policy, done: &dyn Fn(u64)) -> Td {
    let mut td = Td::new();
    let mut s = Scratch::default();
    let mut rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(cfg.seed);
    let all = cfg.warm + cfg.games;
    let slower = cfg.warm + cfg.games * 2 / 3;
    for n in 0..all {
        let by = (n < cfg.warm).then_some(policy);
        let rate = if n >= slower {
            cfg.rate * 0.3
        } else {
            cfg.rate
        };
        let deck = cfg.seed.wrapping_add(1_000_000 + n);
        play(
            &mut td,
            by,
            deck,
            rate,
            cfg.explore,
            &mut rng,
            &mut s,
            cfg.symphony,
        );
        done(n + 1);
    }
    td
}

/// Plays decks `first` to `first + decks - 1` by the value alone, greedily, learning nothing.
pub fn score(td: &Td, first: u64, decks: u64, symphony: f32) -> SoloScore {
    let mut td = td.clone();
    let mut s = Scratch::default();
    let mut rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(first);
    score_with(first, decks, symphony, |deck| {
        play(&mut td, None, deck, 0.0, 0.0, &mut rng, &mut s, symphony)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_learned_value_plays_better_than_one_that_knows_nothing() {
        // Learning from the playout policy's games and then its own: the greedy player of the
        // learned value reaches 75 on more decks than that of an all-zero value.
        let cfg = TdLearn {
            games: 300,
            warm: 300,
            ..TdLearn::default()
        };
        let td = learn(&cfg, sagani_ai::policy::Policy::solo_trained(), &|_| {});
        let learned = score(&td, 77, 12, 0.4);
        let blank = score(&Td::new(), 77, 12, 0.4);
        assert!(
            learned.reached > blank.reached,
            "{learned:?} against {blank:?}"
        );
    }

    #[test]
    fn the_shipped_value_plays_better_than_the_playout_policy() {
        let td = Td::trained();
        let mine = score(td, 9_000, 30, 0.4);
        let policy = sagani_ai::policy::Policy::solo_trained();
        let theirs = crate::solo_tune::score(policy, 9_000, 30, 0.4).symphonies;
        assert!(
            mine.symphonies > theirs,
            "{mine:?} against {theirs} symphonies"
        );
    }
}
