//! Solo search by a race of rollouts on common guesses. Each round guesses the pile's order
//! from what the player sees, and every placement still in the race is played with that same
//! guess and played on by the playout policy (which sees only what the player would see: the
//! revealed tile and the next one's back), cut and valued as `mcts`'s playouts are. The luck of
//! the draw moves a solo game's return far more than the choice of one placement does; met by
//! every placement alike, it drops out of their differences. A placement leaves the race once
//! its returns, round by round, fall short of the leader's by more than `z` standard errors of
//! those differences, so the time goes to the close calls.

use crate::playout::returns;
use crate::sampler::PileSampler;
use crate::tree::Walker;
use crate::Analysis;
use sagani_core::{Game, Move};
use std::time::Instant;

/// How the race is run.
#[derive(Clone, Copy, Debug)]
pub struct Race {
    /// How many standard errors behind the leader a placement leaves the race.
    pub z: f32,
    /// Rounds before anyone leaves.
    pub min_rounds: usize,
}

/// One placement in the race: its return in each round it ran.
struct Runner {
    mv: Move,
    returns: Vec<f32>,
    running: bool,
}

impl Runner {
    fn mean(&self) -> f64 {
        let n = self.returns.len().max(1) as f64;
        self.returns.iter().map(|&r| r as f64).sum::<f64>() / n
    }
}

/// Races the candidates of the solo position `base` (its pile guessed by `sampler`) until
/// `deadline` or `rollouts` playouts, and returns them best first (those still running, by
/// mean return, then those out, by how long they lasted), with the playouts made.
pub(crate) fn search(
    base: &Game,
    sampler: &PileSampler,
    walker: &mut Walker,
    race: Race,
    deadline: Option<Instant>,
    rollouts: Option<u64>,
    symphony: f32,
) -> (Vec<Analysis>, u64) {
    let mut runners: Vec<Runner> = walker
        .candidates(base, true)
        .into_iter()
        .map(|mv| Runner {
            mv,
            returns: Vec::new(),
            running: true,
        })
        .collect();
    let mut made = 0u64;
    let mut pile = Vec::new();
    let mut rounds = 0usize;
    while runners.iter().filter(|r| r.running).count() > 1 {
        if rollouts.is_some_and(|n| made >= n) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        sampler.sample(walker.rng(), &mut pile);
        let mut guess = base.clone();
        guess
            .set_draw_pile(&pile)
            .expect("samples hold the pile's tiles");
        for r in runners.iter_mut().filter(|r| r.running) {
            let mut g = guess.clone();
            g.play(r.mv).expect("candidates are legal in every guess");
            let ret = match g.is_over() {
                true => returns(&g, symphony)[0],
                false => walker.play_out(g)[0],
            };
            r.returns.push(ret);
            made += 1;
        }
        rounds += 1;
        if rounds >= race.min_rounds {
            drop_the_beaten(&mut runners, race.z);
        }
    }
    runners.sort_by(|a, b| {
        b.running
            .cmp(&a.running)
            .then(b.returns.len().cmp(&a.returns.len()))
            .then(b.mean().total_cmp(&a.mean()))
    });
    let out = runners
        .iter()
        .map(|r| Analysis {
            mv: r.mv,
            value: r.mean(),
            visits: r.returns.len() as u64,
        })
        .collect();
    (out, made)
}

/// Takes out of the race every placement whose returns fall short of the leader's, round by
/// round, by more than `z` standard errors of the differences.
fn drop_the_beaten(runners: &mut [Runner], z: f32) {
    let Some(lead) = (0..runners.len())
        .filter(|&i| runners[i].running)
        .max_by(|&a, &b| runners[a].mean().total_cmp(&runners[b].mean()))
    else {
        return;
    };
    let best = runners[lead].returns.clone();
    for (i, r) in runners.iter_mut().enumerate() {
        if i == lead || !r.running {
            continue;
        }
        let n = r.returns.len() as f64;
        let d: Vec<f64> = best
            .iter()
            .zip(&r.returns)
            .map(|(&a, &b)| (a - b) as f64)
            .collect();
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        if mean > z as f64 * (var / n).sqrt() {
            r.running = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MctsConfig;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn runner(mv: Move, returns: &[f32]) -> Runner {
        Runner {
            mv,
            returns: returns.to_vec(),
            running: true,
        }
    }

    /// A placement behind the leader on (nearly) every guess leaves; one as good on some and
    /// worse on others, by no more than the noise, stays; so does the leader.
    #[test]
    fn only_the_clearly_beaten_leave() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let luck: Vec<f32> = (0..40).map(|_| rng.random_range(0.1..0.9)).collect();
        let noise: Vec<f32> = (0..40).map(|_| rng.random_range(-0.05..0.05)).collect();
        let lead: Vec<f32> = luck.iter().map(|l| l + 0.02).collect();
        // Behind by 0.02 on every guess: tiny beside the luck of the draw, but certain.
        let beaten: Vec<f32> = luck.clone();
        // Behind by 0.01 on average, give or take 0.05.
        let close: Vec<f32> = luck.iter().zip(&noise).map(|(l, n)| l + 0.01 + n).collect();
        let mut runners = [
            runner(Move::Pass, &beaten),
            runner(Move::Pass, &lead),
            runner(Move::Pass, &close),
        ];
        drop_the_beaten(&mut runners, 3.0);
        let running: Vec<bool> = runners.iter().map(|r| r.running).collect();
        assert_eq!(running, [false, true, true]);
        // Luck alone, without the guesses in common, would not have told them apart.
        let spread = luck.iter().map(|l| (l - 0.5).abs()).sum::<f32>() / 40.0;
        assert!(spread > 0.1);
    }

    /// Every placement in the race meets the same guesses until one may leave; the playouts
    /// made are counted, and the placements come best first.
    #[test]
    fn the_race_runs_every_placement_on_the_same_guesses() {
        let (g, sampler, base) = crate::sampler::solo_after(17, 5);
        let legal = g.legal_moves();
        let cfg = MctsConfig {
            candidates: 6,
            ..MctsConfig::default()
        };
        let mut walker = Walker::new(&cfg, 3, &legal);
        let race = Race {
            z: 3.0,
            // No one may leave before the budget is spent.
            min_rounds: 11,
        };
        let (out, made) = search(&base, &sampler, &mut walker, race, None, Some(60), 0.4);
        assert_eq!(made, 60);
        assert_eq!(out.len(), 6);
        assert!(out.iter().all(|a| a.visits == 10 && legal.contains(&a.mv)));
        assert!(out.windows(2).all(|w| w[0].value >= w[1].value));
    }
}
