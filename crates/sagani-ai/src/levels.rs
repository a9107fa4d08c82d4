//! Eight levels a person can climb, one name everywhere (`mcts:LEVEL` on the command line,
//! `{"bot":"mcts","level":N}` at a server's table, the page's menu): from a newcomer's play to
//! the strongest search. A level is a policy and a budget of its own (search iterations, not
//! time), so it is as strong on a busy machine as on a quiet one; its think time is measured
//! (`docs/bots.md`), and a server may still cut a decision short at its time cap.

use crate::evaluate::{placement_value, INTERMEZZO_VALUE, PASS_VALUE};
use crate::sampler::PileSampler;
use crate::{Bot, Budget, Decision, Mcts, MctsConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sagani_core::view::View;
use sagani_core::{Gain, Move};

/// How many levels there are.
pub const LEVELS: u8 = 8;

/// What a level does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Play {
    /// A newcomer: covers as many arrows as it can and takes the points it sees, but does not
    /// count its discs (Cacophony), does not plan tiles to complete, and never stores a tile.
    Newcomer,
    /// One ply by the evaluation, picking among the moves with a softmax of this temperature
    /// (in points): a player who sees what a move does but often picks a worse one.
    Loose(f32),
    /// One ply by the evaluation, the best move (the `greedy` bot).
    Greedy,
    /// `mcts` with this many iterations, on one thread.
    Search(u64),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub level: u8,
    /// A word for it, as the page's menu says it.
    pub name: &'static str,
    pub play: Play,
}

pub const LADDER: [Level; LEVELS as usize] = [
    Level {
        level: 1,
        name: "newcomer",
        play: Play::Newcomer,
    },
    Level {
        level: 2,
        name: "beginner",
        play: Play::Loose(3.0),
    },
    Level {
        level: 3,
        name: "casual",
        play: Play::Loose(1.0),
    },
    Level {
        level: 4,
        name: "steady",
        play: Play::Greedy,
    },
    Level {
        level: 5,
        name: "skilled",
        play: Play::Search(400),
    },
    Level {
        level: 6,
        name: "strong",
        play: Play::Search(2_000),
    },
    Level {
        level: 7,
        name: "expert",
        play: Play::Search(8_000),
    },
    Level {
        level: 8,
        name: "master",
        play: Play::Search(30_000),
    },
];

/// Level `n` (1 to 8).
pub fn level(n: u8) -> Result<Level, String> {
    LADDER
        .iter()
        .find(|l| l.level == n)
        .copied()
        .ok_or_else(|| format!("the levels are 1 to {LEVELS}, not {n}"))
}

/// The bot that plays level `n`, seeded. It keeps to its own budget, within the time the
/// caller's budget allows.
pub fn level_bot(n: u8, seed: u64) -> Result<Box<dyn Bot>, String> {
    let l = level(n)?;
    Ok(match l.play {
        Play::Newcomer => Box::new(Newcomer::new(seed)),
        Play::Loose(t) => Box::new(Loose::new(seed, t, n)),
        Play::Greedy => Box::new(Leveled {
            bot: Box::new(crate::Greedy::new(seed)),
            level: n,
            iterations: None,
        }),
        Play::Search(it) => Box::new(Leveled {
            bot: Box::new(Mcts::new(
                seed,
                MctsConfig {
                    threads: 1,
                    ..MctsConfig::default()
                },
            )),
            level: n,
            iterations: Some(it),
        }),
    })
}

/// A bot at a level: its own iteration budget, within the caller's time.
struct Leveled {
    bot: Box<dyn Bot>,
    level: u8,
    iterations: Option<u64>,
}

impl Bot for Leveled {
    fn name(&self) -> String {
        format!("mcts:{}", self.level)
    }

    fn choose(&mut self, view: &View, legal: &[Move], budget: Budget) -> Decision {
        let own = Budget {
            time: budget.time,
            iterations: self.iterations,
        };
        self.bot.choose(view, legal, own)
    }
}

/// The newcomer's liking for a placement: arrows covered and points seen, nothing more.
fn newcomer_value(g: &Gain) -> f32 {
    (g.covered + g.own_covered) as f32 + g.points as f32 * 0.5
}

pub struct Newcomer {
    rng: ChaCha8Rng,
}

impl Newcomer {
    pub fn new(seed: u64) -> Newcomer {
        Newcomer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for Newcomer {
    fn name(&self) -> String {
        "mcts:1".into()
    }

    fn choose(&mut self, view: &View, legal: &[Move], _: Budget) -> Decision {
        let game = PileSampler::new(view)
            .any_game(view)
            .expect("views rebuild");
        // Ties (many placements look alike to a newcomer) break at random.
        let mut best: Option<(Move, f32)> = None;
        for &mv in legal {
            let v = match mv {
                Move::Place { .. } => match game.gain(mv) {
                    Ok(g) => newcomer_value(&g) + self.rng.random::<f32>() * 0.9,
                    Err(_) => continue,
                },
                // A newcomer never stores a tile, and takes a stored one when it covers any.
                Move::Intermezzo { .. } => f32::NEG_INFINITY,
                Move::Pass => 0.95,
            };
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((mv, v));
            }
        }
        let mv = best.map_or(legal[0], |(mv, _)| mv);
        Decision {
            reason: Some(crate::explain::reason(&game, mv, None)),
            ..mv.into()
        }
    }
}

/// One ply by the evaluation, chosen by a softmax: better moves more often, not always.
pub struct Loose {
    rng: ChaCha8Rng,
    temperature: f32,
    level: u8,
}

impl Loose {
    pub fn new(seed: u64, temperature: f32, level: u8) -> Loose {
        Loose {
            rng: ChaCha8Rng::seed_from_u64(seed),
            temperature: temperature.max(0.01),
            level,
        }
    }
}

impl Bot for Loose {
    fn name(&self) -> String {
        format!("mcts:{}", self.level)
    }

    fn choose(&mut self, view: &View, legal: &[Move], _: Budget) -> Decision {
        let game = PileSampler::new(view)
            .any_game(view)
            .expect("views rebuild");
        let values: Vec<f32> = legal
            .iter()
            .map(|&mv| match mv {
                Move::Place { .. } => game
                    .gain(mv)
                    .map_or(f32::NEG_INFINITY, |g| placement_value(&g)),
                Move::Intermezzo { .. } => INTERMEZZO_VALUE,
                Move::Pass => PASS_VALUE,
            })
            .collect();
        let top = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let weights: Vec<f32> = values
            .iter()
            .map(|v| ((v - top) / self.temperature).exp())
            .collect();
        let total: f32 = weights.iter().sum();
        let mut pick = self.rng.random::<f32>() * total;
        let mut chosen = legal[values.iter().position(|&v| v == top).unwrap_or(0)];
        for (mv, w) in legal.iter().zip(&weights) {
            if pick < *w {
                chosen = *mv;
                break;
            }
            pick -= w;
        }
        Decision {
            reason: Some(crate::explain::reason(&game, chosen, None)),
            ..chosen.into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::{Game, Setup};

    #[test]
    fn the_ladder_has_eight_levels_each_with_a_bot() {
        assert_eq!(LADDER.len(), LEVELS as usize);
        let g = Game::new(&Setup::seeded(2, 4)).unwrap();
        let seat = g.to_act().unwrap();
        let legal = g.legal_moves();
        for n in 1..=LEVELS {
            let mut bot = level_bot(n, 7).unwrap();
            let d = bot.choose(&g.view(Some(seat)), &legal, Budget::millis(2000));
            assert!(legal.contains(&d.mv), "level {n}");
            assert_eq!(bot.name(), format!("mcts:{n}"));
        }
        assert!(level(0).is_err() && level(9).is_err());
        // Search levels grow their budgets.
        let its: Vec<u64> = LADDER
            .iter()
            .filter_map(|l| match l.play {
                Play::Search(n) => Some(n),
                _ => None,
            })
            .collect();
        assert!(its.windows(2).all(|w| w[0] < w[1]), "{its:?}");
    }
}
