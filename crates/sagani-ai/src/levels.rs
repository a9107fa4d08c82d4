//! Eight levels a person can climb, one name everywhere (`mcts:LEVEL` on the command line,
//! `{"bot":"mcts","level":N}` at a server's table, the page's menu): from a newcomer's play to
//! the strongest search. A level is a policy and a budget of its own (search iterations, not
//! time), so it is as strong on a busy machine as on a quiet one; its think time is measured
//! (`docs/bots.md`), and a server may still cut a decision short at its time cap.

use crate::sampler::PileSampler;
use crate::{Analysis, Bot, Budget, Decision, Mcts, MctsConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sagani_core::view::View;
use sagani_core::{Gain, Move};

/// How many levels there are.
pub const LEVELS: u8 = 8;

/// The level a newcomer meets when nobody chose one: `sagani play`'s bots, a server's `mcts`
/// seat without a level, and the page's seat menu (web/home.js, held to it by a test).
pub const DEFAULT_LEVEL: u8 = 2;

/// The levels in one line each ("1 newcomer"), for help texts.
pub fn ladder_words() -> String {
    LADDER
        .iter()
        .map(|l| format!("{} {}", l.level, l.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a level does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Play {
    /// A newcomer's one ply (see `OnePly`): its softmax temperature, how many of the
    /// best-looking moves it considers.
    OnePly(f32, usize),
    /// One ply by the evaluation, the best move (the `greedy` bot).
    Greedy,
    /// `mcts` with this many iterations, on one thread, searching as when the ladder was first
    /// measured (`search_config`).
    Search(u64),
    /// `mcts` with this many iterations, on one thread, searching as `mcts` does by default
    /// (`tuned_config`: the fitted policy, cut playouts).
    Tuned(u64),
}

impl Play {
    /// The search's iterations (none for the one-ply levels, which answer at once).
    pub fn iterations(self) -> Option<u64> {
        match self {
            Play::Search(n) | Play::Tuned(n) => Some(n),
            Play::OnePly(..) | Play::Greedy => None,
        }
    }
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
        play: Play::OnePly(1.0, 5),
    },
    Level {
        level: 2,
        name: "beginner",
        play: Play::OnePly(0.6, 5),
    },
    Level {
        level: 3,
        name: "casual",
        play: Play::OnePly(0.3, 5),
    },
    Level {
        level: 4,
        name: "steady",
        play: Play::Greedy,
    },
    Level {
        level: 5,
        name: "skilled",
        play: Play::Search(60),
    },
    Level {
        level: 6,
        name: "strong",
        play: Play::Search(250),
    },
    Level {
        level: 7,
        name: "expert",
        play: Play::Search(1_000),
    },
    Level {
        level: 8,
        name: "master",
        play: Play::Tuned(2_000),
    },
];

/// The search of levels 5 to 8, on one thread, as it was when the ladder was measured
/// (docs/bots.md): a later change to `mcts`'s defaults moves no level until the ladder is
/// measured again with it.
pub fn search_config() -> MctsConfig {
    MctsConfig {
        threads: 1,
        policy: crate::policy::Policy::hand(),
        solo_policy: crate::policy::Policy::hand(),
        intermezzo_reveal: None,
        playout_depth: 0,
        solo_playout_depth: 0,
        solo_td: None,
        reuse: false,
        ..MctsConfig::default()
    }
}

/// The search of today's `mcts` on one thread, afresh each decision (a server's bots are made
/// for every decision, so the level plays the same everywhere).
pub fn tuned_config() -> MctsConfig {
    MctsConfig {
        threads: 1,
        reuse: false,
        ..MctsConfig::default()
    }
}

/// A level the ladder does not have.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("the levels are 1 to {LEVELS}, not {0}")]
pub struct NoSuchLevel(pub u8);

/// Level `n` (1 to 8).
pub fn level(n: u8) -> Result<Level, NoSuchLevel> {
    LADDER
        .iter()
        .find(|l| l.level == n)
        .copied()
        .ok_or(NoSuchLevel(n))
}

/// The bot that plays level `n`, seeded. It keeps to its own budget, within the time the
/// caller's budget allows.
pub fn level_bot(n: u8, seed: u64) -> Result<Box<dyn Bot>, NoSuchLevel> {
    let l = level(n)?;
    Ok(match l.play {
        Play::OnePly(t, k) => Box::new(OnePly::new(seed, t, k, n)),
        Play::Greedy => Box::new(Leveled {
            bot: Box::new(crate::Greedy::new(seed)),
            level: n,
            iterations: None,
        }),
        Play::Search(it) => Box::new(Leveled {
            bot: Box::new(Mcts::new(seed, search_config())),
            level: n,
            iterations: Some(it),
        }),
        Play::Tuned(it) => Box::new(Leveled {
            bot: Box::new(Mcts::new(seed, tuned_config())),
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

    fn analyse(
        &mut self,
        view: &View,
        legal: &[Move],
        budget: Budget,
        top: usize,
    ) -> Vec<Analysis> {
        let own = Budget {
            time: budget.time,
            iterations: self.iterations,
        };
        self.bot.analyse(view, legal, own, top)
    }
}

/// The newcomer's liking for a placement: arrows covered and points seen, nothing more.
fn newcomer_value(g: &Gain) -> f32 {
    (g.covered + g.own_covered) as f32 + g.points as f32 * 0.5
}

/// A newcomer's one ply: it values each move by the arrows it covers and the points it sees
/// (Sound discs are not counted, so Cacophony comes as a surprise; no tile is planned for, and a
/// tile is never stored), considers the few best-looking moves and picks among them by a softmax
/// of `temperature` (in those units): the best one most often, a worse one now and then, a wild
/// one never.
pub struct OnePly {
    rng: ChaCha8Rng,
    temperature: f32,
    consider: usize,
    level: u8,
}

impl OnePly {
    pub fn new(seed: u64, temperature: f32, consider: usize, level: u8) -> OnePly {
        OnePly {
            rng: ChaCha8Rng::seed_from_u64(seed),
            temperature: temperature.max(0.001),
            consider: consider.max(1),
            level,
        }
    }

    fn value(game: &sagani_core::Game, mv: Move) -> f32 {
        match mv {
            Move::Place { .. } => game
                .gain(mv)
                .map_or(f32::NEG_INFINITY, |g| newcomer_value(&g)),
            Move::Intermezzo { .. } => f32::NEG_INFINITY,
            // A stored tile is taken whenever it covers anything.
            Move::Pass => 0.95,
        }
    }
}

impl Bot for OnePly {
    fn name(&self) -> String {
        format!("mcts:{}", self.level)
    }

    fn choose(&mut self, view: &View, legal: &[Move], _: Budget) -> Decision {
        let game = PileSampler::new(view)
            .any_game(view)
            .expect("views rebuild");
        let values: Vec<f32> = legal.iter().map(|&mv| Self::value(&game, mv)).collect();
        let mut sorted = values.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let top = sorted[0];
        let floor = sorted[(self.consider - 1).min(sorted.len() - 1)];
        let weights: Vec<f32> = values
            .iter()
            .map(|&v| {
                if v < floor || v == f32::NEG_INFINITY {
                    0.0
                } else {
                    ((v - top) / self.temperature).exp()
                }
            })
            .collect();
        let total: f32 = weights.iter().sum();
        let mut chosen = legal[values.iter().position(|&v| v == top).unwrap_or(0)];
        if total > 0.0 {
            let mut pick = self.rng.random::<f32>() * total;
            for (mv, w) in legal.iter().zip(&weights) {
                if pick < *w {
                    chosen = *mv;
                    break;
                }
                pick -= w;
            }
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
        assert!(level(DEFAULT_LEVEL).is_ok());
        assert!(ladder_words().starts_with("1 newcomer, 2 beginner,"));
        assert!(ladder_words().ends_with("8 master"));
        // Search levels grow their budgets.
        let its: Vec<u64> = LADDER
            .iter()
            .filter_map(|l| match l.play {
                Play::Search(n) => Some(n),
                _ => None,
            })
            .collect();
        assert!(its.windows(2).all(|w| w[0] < w[1]), "{its:?}");
        // The top level is today's search.
        assert!(matches!(LADDER[LEVELS as usize - 1].play, Play::Tuned(_)));
    }

    /// A search level rates moves as its search does, on its own iterations; a one-ply level
    /// names only its choice.
    #[test]
    fn a_search_level_rates_several_moves_and_a_one_ply_level_its_choice() {
        let g = Game::new(&Setup::seeded(2, 4)).unwrap();
        let view = g.view(g.to_act());
        let legal = g.legal_moves();
        let rated = level_bot(5, 1)
            .unwrap()
            .analyse(&view, &legal, Budget::millis(60_000), 5);
        assert!(rated.len() > 1, "{rated:?}");
        assert!(rated.iter().all(|a| a.visits > 0 && a.value.is_finite()));
        assert!(rated.iter().map(|a| a.visits).sum::<u64>() <= 60);
        let one = level_bot(2, 1)
            .unwrap()
            .analyse(&view, &legal, Budget::millis(60_000), 5);
        assert_eq!(one.len(), 1);
        assert!(legal.contains(&one[0].mv) && one[0].value.is_nan());
    }

    /// The share of games level `a` wins against level `b` over `decks` seeded decks, each
    /// played twice with the seats swapped.
    fn wins(a: u8, b: u8, decks: u64) -> f64 {
        let mut points = 0.0f64;
        for deck in 0..decks {
            for swap in [false, true] {
                let seed = 500 + deck;
                let mut bots = vec![level_bot(a, seed).unwrap(), level_bot(b, seed + 1).unwrap()];
                if swap {
                    bots.reverse();
                }
                let setup = Setup::seeded(2, seed);
                let rg = crate::arena::play_game(
                    &setup,
                    &mut bots,
                    Budget::millis(60_000),
                    seed,
                    &mut |_| {},
                )
                .unwrap();
                let Some(sagani_core::Outcome::Ranking { ranking, .. }) = rg.game().outcome()
                else {
                    panic!("a 2-player game ends in a ranking");
                };
                // The tie-breaks of the rules decide a shared score.
                points += f64::from(u8::from(ranking[0] == u8::from(swap)));
            }
        }
        points / (2 * decks) as f64
    }

    /// The one-ply levels climb: each wins most games against the one below it (the measured
    /// margins are in docs/bots.md).
    #[test]
    fn each_one_ply_level_beats_the_one_below() {
        for n in 1..4 {
            let rate = wins(n + 1, n, 40);
            assert!(rate > 0.55, "level {} against level {n}: {rate}", n + 1);
        }
    }
}
