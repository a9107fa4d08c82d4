//! Measuring the ladder of levels: 2-player games between neighbouring levels and between
//! levels two apart, on fresh decks, and one Elo per level fitted over all those games at once
//! (as rating lists are fitted), with bootstrap intervals for each level and each step.

use crate::arena::play_game;
use crate::levels::level_bot;
use crate::stats::elo;
use crate::Budget;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sagani_core::{Outcome, Setup};

/// Games between two levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub low: u8,
    pub high: u8,
    /// Games, an even number: each deck is played twice, seats swapped.
    pub games: u64,
}

/// The pairings that measure levels `from..=to`: each neighbouring pair `games` games, each
/// pair two levels apart half as many (they tie the steps together, so that a step's error
/// does not simply add up along the ladder). Counts are rounded up to even.
pub fn pairings(from: u8, to: u8, games: u64) -> Vec<Pairing> {
    let even = |n: u64| n.max(2).div_ceil(2) * 2;
    let mut out = Vec::new();
    for gap in 1..=2u8 {
        for low in from..=to.saturating_sub(gap) {
            out.push(Pairing {
                low,
                high: low + gap,
                games: even(if gap == 1 { games } else { games / 2 }),
            });
        }
    }
    out
}

/// One game of the measurement: pairing `pairing`'s deck `deck`, the higher level in seat
/// `high_seat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub pairing: usize,
    pub deck: u64,
    pub high_seat: u8,
}

/// Every game of a measurement, in a fixed order.
pub fn games(pairings: &[Pairing]) -> Vec<Game> {
    let mut out = Vec::new();
    for (pairing, p) in pairings.iter().enumerate() {
        for deck in 0..p.games / 2 {
            for high_seat in 0..2 {
                out.push(Game {
                    pairing,
                    deck,
                    high_seat,
                });
            }
        }
    }
    out
}

/// The deck of a game: decks differ between pairings (so no pairing's luck is shared with
/// another's) and repeat for a seed.
pub fn deck_seed(seed: u64, g: &Game) -> u64 {
    seed.wrapping_add((g.pairing as u64) << 32)
        .wrapping_add(g.deck)
}

/// Plays one game of the measurement and says whether the higher level won.
pub fn play(seed: u64, pairings: &[Pairing], g: &Game) -> bool {
    let p = pairings[g.pairing];
    let deck = deck_seed(seed, g);
    let setup = Setup::seeded(2, deck);
    let levels = if g.high_seat == 0 {
        [p.high, p.low]
    } else {
        [p.low, p.high]
    };
    let mut bots: Vec<Box<dyn crate::Bot>> = levels
        .iter()
        .enumerate()
        .map(|(s, &l)| {
            level_bot(l, deck.rotate_left(17) ^ s as u64).expect("the pairings name levels")
        })
        .collect();
    // No time limit: a level keeps to its own iterations, on a busy machine as on a quiet one.
    let budget = Budget {
        time: None,
        iterations: None,
    };
    let rg =
        play_game(&setup, &mut bots, budget, deck, &mut |_| {}).expect("two bots for two seats");
    match rg.game().outcome() {
        Some(Outcome::Ranking { ranking, .. }) => ranking[0] == g.high_seat,
        _ => false,
    }
}

/// A level's fitted Elo (level `from` = 0) and the step from the level below, each with its
/// 95% bootstrap interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Rung {
    pub level: u8,
    pub elo: f64,
    pub elo_interval: (f64, f64),
    pub step: f64,
    pub step_interval: (f64, f64),
}

/// Fits the ladder to the results (`results[i]`: did the higher level win `games[i]`), then
/// resamples decks within each pairing `resamples` times (seeded) for the intervals.
pub fn fit(
    from: u8,
    to: u8,
    pairings: &[Pairing],
    games: &[Game],
    results: &[bool],
    resamples: usize,
    seed: u64,
) -> Vec<Rung> {
    let n = (to - from + 1) as usize;
    // A deck's two games stay together when resampling: they share the deck's luck.
    let mut decks: Vec<Vec<Vec<(usize, usize)>>> = pairings
        .iter()
        .map(|p| vec![Vec::new(); (p.games / 2) as usize])
        .collect();
    for (g, &high_won) in games.iter().zip(results) {
        let p = pairings[g.pairing];
        let (hi, lo) = ((p.high - from) as usize, (p.low - from) as usize);
        decks[g.pairing][g.deck as usize].push(if high_won { (hi, lo) } else { (lo, hi) });
    }
    let ladder = |pairs: &[(usize, usize)]| {
        let e = elo(n, pairs);
        e.iter().map(|x| x - e[0]).collect::<Vec<f64>>()
    };
    let all: Vec<(usize, usize)> = decks.iter().flatten().flatten().copied().collect();
    let point = ladder(&all);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples: Vec<Vec<f64>> = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        let mut pairs = Vec::with_capacity(all.len());
        for d in &decks {
            for _ in 0..d.len() {
                pairs.extend_from_slice(&d[rng.random_range(0..d.len())]);
            }
        }
        samples.push(ladder(&pairs));
    }
    let interval = |f: &dyn Fn(&[f64]) -> f64| {
        let mut v: Vec<f64> = samples.iter().map(|s| f(s)).collect();
        v.sort_by(|a, b| a.total_cmp(b));
        if v.is_empty() {
            return (f64::NAN, f64::NAN);
        }
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        (at(0.025), at(0.975))
    };
    (0..n)
        .map(|i| {
            let step = if i == 0 { 0.0 } else { point[i] - point[i - 1] };
            Rung {
                level: from + i as u8,
                elo: point[i],
                elo_interval: interval(&|s: &[f64]| s[i]),
                step,
                step_interval: if i == 0 {
                    (0.0, 0.0)
                } else {
                    interval(&|s: &[f64]| s[i] - s[i - 1])
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_join_neighbours_and_levels_two_apart() {
        let p = pairings(1, 4, 101);
        let names: Vec<(u8, u8, u64)> = p.iter().map(|p| (p.low, p.high, p.games)).collect();
        assert_eq!(
            names,
            vec![
                (1, 2, 102),
                (2, 3, 102),
                (3, 4, 102),
                (1, 3, 50),
                (2, 4, 50)
            ]
        );
        let g = games(&p);
        assert_eq!(g.len() as u64, p.iter().map(|p| p.games).sum::<u64>());
        // Every deck seen twice, seats swapped, and no two pairings share a deck.
        let mut seeds: Vec<u64> = g.iter().map(|g| deck_seed(7, g)).collect();
        seeds.sort();
        seeds.dedup();
        assert_eq!(seeds.len(), g.len() / 2);
    }

    /// Results drawn from known Elo gaps come back as those gaps, within their intervals.
    #[test]
    fn the_fit_recovers_known_steps() {
        let truth = [0.0, 100.0, 300.0];
        let p = pairings(1, 3, 2000);
        let g = games(&p);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let results: Vec<bool> = g
            .iter()
            .map(|g| {
                let pr = p[g.pairing];
                let d = truth[(pr.high - 1) as usize] - truth[(pr.low - 1) as usize];
                rng.random::<f64>() < 1.0 / (1.0 + 10f64.powf(-d / 400.0))
            })
            .collect();
        let rungs = fit(1, 3, &p, &g, &results, 200, 1);
        assert_eq!(rungs[0].elo, 0.0);
        for (r, want) in rungs.iter().zip(truth) {
            assert!((r.elo - want).abs() < 30.0, "{r:?} against {want}");
            assert!(
                r.elo_interval.0 <= r.elo && r.elo <= r.elo_interval.1,
                "{r:?}"
            );
        }
        let step = &rungs[2];
        assert!((step.step - 200.0).abs() < 35.0, "{step:?}");
        assert!(
            step.step_interval.1 - step.step_interval.0 < 90.0,
            "{step:?}"
        );
    }

    #[test]
    fn a_game_between_levels_repeats_for_a_seed() {
        let p = pairings(1, 2, 2);
        let g = games(&p);
        let a: Vec<bool> = g.iter().map(|g| play(5, &p, g)).collect();
        let b: Vec<bool> = g.iter().map(|g| play(5, &p, g)).collect();
        assert_eq!(a, b);
    }
}
