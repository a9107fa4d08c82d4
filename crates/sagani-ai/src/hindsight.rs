//! Solo search by hindsight (Yoon et al. 2008, "determinization in hindsight"): each round
//! guesses the pile's order from what the player sees, and for each candidate placement of the
//! revealed tile solves the rest of that guessed deck as if its order were known (the
//! clairvoyant's search, narrow); a candidate's value is its average return over the guesses.
//! Every candidate meets the same guesses, so their differences are not drowned by the luck of
//! the draw; the weaker half is dropped as the rounds double, so the time goes to the close
//! calls. A playout by a fixed policy says how that policy would fare after the placement; the
//! solver says how well the placement leaves the display for tiles that may come.

use crate::clairvoyant::{solve, Beam};
use crate::playout::outcome_returns;
use crate::policy::{lateness, Policy};
use crate::sampler::PileSampler;
use crate::Analysis;
use rand::Rng;
use sagani_core::{Game, Move};
use std::time::Instant;

/// How the hindsight search is set.
#[derive(Clone, Copy, Debug)]
pub struct Hindsight {
    /// Placements considered, the policy's best first.
    pub candidates: usize,
    /// The solver's beam for each guessed deck.
    pub beam: Beam,
}

/// Searches a solo position (`base`: the view's game, its pile guessed by `sampler`) until
/// `deadline` (or `rounds` guesses) and returns the candidates, best first: `visits` is the
/// guesses each was solved on, `value` its mean return.
#[allow(clippy::too_many_arguments)]
pub fn search(
    base: &Game,
    sampler: &PileSampler,
    legal: &[Move],
    set: Hindsight,
    policy: &Policy,
    symphony: f32,
    deadline: Option<Instant>,
    rounds: Option<u64>,
    rng: &mut impl Rng,
) -> (Vec<Analysis>, u64) {
    let late = lateness(base);
    let mut ranked: Vec<(Move, f32)> = legal
        .iter()
        .map(|&mv| {
            let v = base
                .gain(mv)
                .map_or(f32::NEG_INFINITY, |g| policy.value(&g, late));
            (mv, v)
        })
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.truncate(set.candidates.max(1));
    // (move, summed return, guesses solved on)
    let mut cands: Vec<(Move, f64, u64)> = ranked.iter().map(|&(mv, _)| (mv, 0.0, 0)).collect();
    let mut active = cands.len();
    let mut done = 0u64;
    let mut solves = 0u64;
    let mut pile = Vec::new();
    loop {
        if rounds.is_some_and(|r| done >= r) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        sampler.sample(rng, &mut pile);
        let mut guess = base.clone();
        guess
            .set_draw_pile(&pile)
            .expect("samples hold the pile's tiles");
        for c in cands.iter_mut().take(active) {
            let mut g = guess.clone();
            if g.play(c.0).is_err() {
                c.1 = f64::NEG_INFINITY;
                continue;
            }
            let outcome = if g.is_over() {
                g.outcome()
            } else {
                solve(&g, set.beam).outcome
            };
            c.1 += outcome_returns(outcome, symphony)[0] as f64;
            c.2 += 1;
            solves += 1;
        }
        done += 1;
        // Halve at 4, 8, 16, … guesses, down to two.
        if done >= 4 && done.is_power_of_two() && active > 2 {
            cands[..active].sort_by(|a, b| b.1.total_cmp(&a.1));
            active = (active / 2).max(2);
        }
    }
    cands[..active].sort_by(|a, b| b.1.total_cmp(&a.1));
    let out = cands
        .iter()
        .map(|&(mv, w, n)| Analysis {
            mv,
            value: if n > 0 { w / n as f64 } else { 0.0 },
            visits: n,
        })
        .collect();
    (out, solves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bot;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use sagani_core::{Outcome, Setup, Variant};

    fn solo(seed: u64) -> Game {
        let setup = Setup {
            variant: Some(Variant::Solo),
            ..Setup::seeded(1, seed)
        };
        Game::new(&setup).unwrap()
    }

    fn set(candidates: usize) -> Hindsight {
        Hindsight {
            candidates,
            beam: Beam {
                width: 1,
                branch: 3,
            },
        }
    }

    /// Every candidate meets the same guesses until the first halving at 4; after it the
    /// better half goes on alone and comes first, best first.
    #[test]
    fn candidates_share_the_guesses_and_the_weaker_half_is_dropped() {
        let (g, sampler, base) = crate::sampler::solo_after(11, 6);
        let legal = g.legal_moves();
        let policy = Policy::trained();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (three, solves) = search(
            &base,
            &sampler,
            &legal,
            set(6),
            policy,
            0.4,
            None,
            Some(3),
            &mut rng,
        );
        assert_eq!(three.len(), 6);
        assert_eq!(solves, 18);
        assert!(three.iter().all(|a| a.visits == 3 && legal.contains(&a.mv)));
        assert!(three.windows(2).all(|w| w[0].value >= w[1].value));

        let (five, solves) = search(
            &base,
            &sampler,
            &legal,
            set(6),
            policy,
            0.4,
            None,
            Some(5),
            &mut rng,
        );
        assert_eq!(solves, 4 * 6 + 3);
        let visits: Vec<u64> = five.iter().map(|a| a.visits).collect();
        assert_eq!(visits, [5, 5, 5, 4, 4, 4]);
        assert!(five[..3].windows(2).all(|w| w[0].value >= w[1].value));
        // The candidates are the policy's best placements.
        let late = lateness(&g);
        let worth = |mv: Move| policy.value(&g.gain(mv).unwrap(), late);
        let kept_worst = five.iter().map(|a| worth(a.mv)).fold(f32::MAX, f32::min);
        let left_best = legal
            .iter()
            .filter(|mv| !five.iter().any(|a| a.mv == **mv))
            .map(|&mv| worth(mv))
            .fold(f32::MIN, f32::max);
        assert!(kept_worst >= left_best);
    }

    /// `mcts` searching solo by hindsight needs fewer tiles to 75 than greedy on the same decks.
    #[test]
    fn hindsight_plays_solo_better_than_greedy() {
        let cfg = crate::MctsConfig {
            threads: 1,
            solo_hindsight: 8,
            hindsight_branch: 3,
            ..crate::MctsConfig::default()
        };
        let tiles = |g: &Game| match g.outcome() {
            Some(Outcome::Solo {
                tiles_used,
                reached: true,
                ..
            }) => tiles_used as u32,
            _ => 80,
        };
        let (mut searched, mut greedy) = (0, 0);
        for deck in 0..3 {
            let mut bots: [Box<dyn Bot>; 2] = [
                Box::new(crate::Mcts::new(deck, cfg.clone())),
                Box::new(crate::Greedy::new(deck)),
            ];
            for (i, bot) in bots.iter_mut().enumerate() {
                let mut g = solo(300 + deck);
                while let Some(seat) = g.to_act() {
                    let legal = g.legal_moves();
                    let budget = crate::Budget {
                        iterations: Some(6),
                        ..crate::Budget::default()
                    };
                    let d = bot.choose(&g.view(Some(seat)), &legal, budget);
                    g.play(d.mv).unwrap();
                }
                if i == 0 {
                    searched += tiles(&g);
                } else {
                    greedy += tiles(&g);
                }
            }
        }
        assert!(
            searched < greedy,
            "hindsight {searched} tiles, greedy {greedy}"
        );
    }
}
