//! Fitting the evaluation (`value`) to the playout policy's own games: each game starts with a
//! stretch of noisy moves (so that its positions are as varied as those a search reaches),
//! then the playout policy (or, with `Positions::search`, the search) plays it to the end, and
//! every position of that part is kept with the returns the end gave. A logistic regression
//! (soft labels, cross-entropy, Adam) per player count then learns what a position is worth
//! where a playout would have gone on.

use crate::SelfPlayError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sagani_ai::aim::Aim;
use sagani_ai::playout::{playout_step, returns, solo_tiles_share};
use sagani_ai::value::{
    dot, features, in_two_parts, room_features, sigmoid, symphony_open, Features, Value, FEATURES,
    HOLDINGS,
};
use sagani_ai::{Bot, Budget};
use sagani_ai::{Mcts, MctsConfig};
use sagani_core::{Game, Outcome, Setup};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// One seat in one position: its features and the return it got at the end.
#[derive(Clone, Debug)]
pub struct Sample {
    pub features: Features,
    pub target: f32,
    pub players: u8,
    /// The game it comes from (held-out games are chosen by it).
    pub game: u64,
    /// Solo, the return in parts (`Value::symphony`): the share the tiles used earned, whether
    /// the game ended in a symphony (0 or 1), and whether one could still come (fewer than 25
    /// tiles used).
    pub tiles_share: f32,
    pub symphony: f32,
    pub symphony_open: bool,
}

/// What the positions come from.
#[derive(Clone, Debug)]
pub struct Positions {
    pub games: u64,
    /// Players of game d: `players[d % len]`, each 1 to 4 (solo: the standard variant).
    pub players: Vec<u8>,
    pub seed: u64,
    pub threads: usize,
    /// The playout policy (and intermezzo rule) of the search the evaluation is for.
    pub mcts: MctsConfig,
    /// After the noisy stretch, the games are played on by that search (one thread, its
    /// tree kept between moves) at this many iterations a move instead of by its playout
    /// policy: the evaluation then learns what a position is worth to the search itself.
    pub search: Option<u64>,
}

/// Plays the games and returns their positions' samples, in game order; `done` is told each
/// finished game. Deterministic for a seed: game d is deck `seed + d` with its own generator.
pub fn positions(p: &Positions, done: &(dyn Fn(u64) + Sync)) -> Result<Vec<Sample>, SelfPlayError> {
    if p.players.is_empty() || p.players.iter().any(|&n| !(1..=4).contains(&n)) {
        return Err(SelfPlayError::Players(p.players.clone()));
    }
    let next = AtomicU64::new(0);
    let out: Mutex<Vec<(u64, Vec<Sample>)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..p.threads.max(1) {
            s.spawn(|| loop {
                let d = next.fetch_add(1, Ordering::Relaxed);
                if d >= p.games {
                    break;
                }
                let samples = one_game(p, d);
                out.lock().expect("no panics").push((d, samples));
                done(d);
            });
        }
    });
    let mut games = out.into_inner().expect("no panics");
    games.sort_by_key(|(d, _)| *d);
    Ok(games.into_iter().flat_map(|(_, s)| s).collect())
}

/// Of the positions after the noisy stretch, one in this many is kept (neighbours say much
/// the same).
const KEEP_EVERY: u32 = 3;

fn one_game(p: &Positions, d: u64) -> Vec<Sample> {
    let players = p.players[(d % p.players.len() as u64) as usize];
    let deck = p.seed.wrapping_add(d);
    let mut g = Game::new(&Setup::seeded(players, deck)).expect("1 to 4 players set up");
    let mut rng = ChaCha8Rng::seed_from_u64(deck.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let (mut gains, mut aim) = (Vec::new(), Aim::default());
    // The noisy stretch: some placements, each a random legal move one time in three, the
    // playout policy's otherwise.
    let noisy = rng.random_range(0..60u16);
    while !g.is_over() && g.placements() < noisy {
        if rng.random_range(0..3) == 0 {
            let moves = g.legal_moves();
            g.play(moves[rng.random_range(0..moves.len())])
                .expect("legal moves are legal");
        } else {
            step(&mut g, &mut rng, p, &mut gains, &mut aim);
        }
    }
    let mut kept: Vec<(Vec<Features>, bool)> = Vec::new();
    let mut n = 0u32;
    // One search for each seat, each with its own tree.
    let mut searches: Vec<Mcts> = match p.search {
        None => Vec::new(),
        Some(_) => (0..players)
            .map(|s| {
                let cfg = MctsConfig {
                    threads: 1,
                    ..p.mcts.clone()
                };
                Mcts::new(deck.wrapping_add(u64::from(s) << 48), cfg)
            })
            .collect(),
    };
    let mut legal = Vec::new();
    while let Some(seat) = g.to_act() {
        if n.is_multiple_of(KEEP_EVERY) {
            kept.push((features(&g, Some(&mut aim)), symphony_open(&g)));
        }
        n += 1;
        match p.search {
            None => step(&mut g, &mut rng, p, &mut gains, &mut aim),
            Some(iterations) => {
                g.legal_moves_into(&mut legal);
                let view = g.view(Some(seat));
                let stats =
                    searches[seat as usize].search(&view, &legal, Budget::iterations(iterations));
                let mv = stats.root.first().map_or(legal[0], |a| a.mv);
                g.play(mv).expect("the search plays legal moves");
                for s in searches.iter_mut() {
                    s.observe(seat, mv);
                }
            }
        }
    }
    let r = returns(&g, p.mcts.symphony_bonus);
    let (tiles_share, symphony) = match g.outcome() {
        Some(Outcome::Solo {
            tiles_used,
            reached: true,
            symphony,
            ..
        }) => (solo_tiles_share(tiles_used), symphony as u8 as f32),
        _ => (0.0, 0.0),
    };
    kept.into_iter()
        .flat_map(|(seats, open)| {
            seats.into_iter().enumerate().map(move |(s, f)| Sample {
                features: f,
                target: r[s],
                players,
                game: d,
                tiles_share,
                symphony,
                symphony_open: open,
            })
        })
        .collect()
}

fn step(
    g: &mut Game,
    rng: &mut ChaCha8Rng,
    p: &Positions,
    gains: &mut Vec<(sagani_core::Move, sagani_core::Gain)>,
    aim: &mut Aim,
) {
    playout_step(
        g,
        rng,
        p.mcts.playout_samples_for(g),
        p.mcts.policy_for(g),
        p.mcts.intermezzo_reveal,
        gains,
        aim,
    );
}

/// A fitted evaluation and how well it predicts the held-out games' returns.
#[derive(Clone, Debug)]
pub struct Fit {
    pub value: Value,
    /// For each player count: samples fitted, held out, and the held-out mean cross-entropy
    /// and mean squared error of the fit, and of a fit on the score alone (a baseline).
    pub report: Vec<FitReport>,
}

#[derive(Clone, Debug)]
pub struct FitReport {
    pub players: u8,
    pub fitted: usize,
    pub held_out: usize,
    pub cross_entropy: f64,
    pub squared_error: f64,
    pub score_only_cross_entropy: f64,
    pub score_only_squared_error: f64,
    /// Solo fitted in two parts: the one curve's cross-entropy and squared error.
    pub one_curve: Option<(f64, f64)>,
}

/// Mean cross-entropy and squared error of weights `w` on `samples`.
pub fn loss(samples: &[&Sample], w: &[f32; FEATURES]) -> (f64, f64) {
    loss_of(samples, |s| sigmoid(dot(w, &s.features)))
}

/// The same for any prediction of a sample's return.
fn loss_of(samples: &[&Sample], predict: impl Fn(&Sample) -> f32) -> (f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let (mut ce, mut se) = (0.0, 0.0);
    for s in samples {
        let q = (predict(s) as f64).clamp(1e-6, 1.0 - 1e-6);
        let y = s.target as f64;
        ce -= y * q.ln() + (1.0 - y) * (1.0 - q).ln();
        se += (q - y).powi(2);
    }
    let n = samples.len() as f64;
    (ce / n, se / n)
}

/// Fits weights to `samples` by `steps` steps of Adam on the mean cross-entropy with an L2
/// penalty `l2` (on standardised features), using only the features `mask` allows.
fn fit_weights(
    samples: &[&Sample],
    target: impl Fn(&Sample) -> f32,
    steps: usize,
    l2: f64,
    mask: &[bool; FEATURES],
) -> Features {
    let mut scale = [1f64; FEATURES];
    if !samples.is_empty() {
        for (j, sc) in scale.iter_mut().enumerate() {
            let sq: f64 = samples.iter().map(|s| (s.features[j] as f64).powi(2)).sum();
            let rms = (sq / samples.len() as f64).sqrt();
            if rms > 1e-9 {
                *sc = rms;
            }
        }
    }
    let mut w = [0f64; FEATURES];
    let (mut m1, mut m2) = ([0f64; FEATURES], [0f64; FEATURES]);
    let (lr, b1, b2) = (0.05, 0.9, 0.999);
    let n = samples.len().max(1) as f64;
    for t in 1..=steps {
        let mut grad = [0f64; FEATURES];
        for s in samples {
            let z: f64 = (0..FEATURES)
                .filter(|&j| mask[j])
                .map(|j| w[j] * s.features[j] as f64 / scale[j])
                .sum();
            let err = target(s) as f64 - 1.0 / (1.0 + (-z).exp());
            for j in (0..FEATURES).filter(|&j| mask[j]) {
                grad[j] += err * s.features[j] as f64 / scale[j];
            }
        }
        for j in (0..FEATURES).filter(|&j| mask[j]) {
            let g = grad[j] / n - l2 * w[j];
            m1[j] = b1 * m1[j] + (1.0 - b1) * g;
            m2[j] = b2 * m2[j] + (1.0 - b2) * g * g;
            let mh = m1[j] / (1.0 - b1.powi(t as i32));
            let vh = m2[j] / (1.0 - b2.powi(t as i32));
            w[j] += lr * mh / (vh.sqrt() + 1e-8);
        }
    }
    let mut out = [0f32; FEATURES];
    for j in 0..FEATURES {
        out[j] = (w[j] / scale[j]) as f32;
    }
    out
}

/// Fits a model for each player count to the samples of the games `held_out` says no to, and
/// scores it (and a model of the score alone) on the rest. A count without samples keeps the
/// shipped weights (zeros would value every cut playout of its games at one half). With
/// `solo_parts` (the symphony bonus of the returns, which joins the parts to be scored against
/// them), solo is fitted in two parts (`Value::symphony`), and the one curve is fitted too, to
/// compare.
pub fn fit(
    samples: &[Sample],
    held_out: impl Fn(u64) -> bool,
    steps: usize,
    l2: f64,
    solo_parts: Option<f32>,
    room: bool,
) -> Fit {
    // The room (`value::ROOM`) only when asked: it costs time at every cut playout.
    let mut all = [true; FEATURES];
    if !room {
        room_features().for_each(|j| all[j] = false);
    }
    let mut score_only = [false; FEATURES];
    for k in 0..3 {
        score_only[k * HOLDINGS.len()] = true;
    }
    let mut value = Value::trained().clone();
    let mut report = Vec::new();
    let return_of = |s: &Sample| s.target;
    for players in 1..=4u8 {
        let (test, train): (Vec<&Sample>, Vec<&Sample>) = samples
            .iter()
            .filter(|s| s.players == players)
            .partition(|s| held_out(s.game));
        if train.is_empty() {
            continue;
        }
        let w = fit_weights(&train, return_of, steps, l2, &all);
        let base = fit_weights(&train, return_of, steps, l2, &score_only);
        let (mut cross_entropy, mut squared_error) = loss(&test, &w);
        let (score_only_cross_entropy, score_only_squared_error) = loss(&test, &base);
        let mut one_curve = None;
        value.weights[players as usize - 1] = w;
        if players == 1 {
            value.symphony = None;
            if let Some(bonus) = solo_parts {
                let tiles = fit_weights(&train, |s| s.tiles_share, steps, l2, &all);
                let open: Vec<&Sample> =
                    train.iter().copied().filter(|s| s.symphony_open).collect();
                let chance = fit_weights(&open, |s| s.symphony, steps, l2, &all);
                one_curve = Some((cross_entropy, squared_error));
                (cross_entropy, squared_error) = loss_of(&test, |s| {
                    in_two_parts(&tiles, &chance, &s.features, s.symphony_open, bonus)
                });
                value.weights[0] = tiles;
                value.symphony = Some(chance);
            }
        }
        report.push(FitReport {
            players,
            fitted: train.len(),
            held_out: test.len(),
            cross_entropy,
            squared_error,
            score_only_cross_entropy,
            score_only_squared_error,
            one_curve,
        });
    }
    Fit { value, report }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_ai::value::solo_return;

    /// Targets made by a known logistic rule are recovered.
    #[test]
    fn fit_recovers_a_rule() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut rule = [0f32; FEATURES];
        rule[0] = 0.8;
        rule[5] = -0.6;
        rule[9] = 1.5;
        let samples: Vec<Sample> = (0..4000)
            .map(|i| {
                let mut f = [0f32; FEATURES];
                for x in f.iter_mut() {
                    *x = rng.random_range(-2.0..2.0);
                }
                let z: f32 = rule.iter().zip(&f).map(|(a, b)| a * b).sum();
                Sample {
                    features: f,
                    target: sigmoid(z),
                    players: 2,
                    game: i % 5,
                    tiles_share: 0.0,
                    symphony: 0.0,
                    symphony_open: false,
                }
            })
            .collect();
        // Feature 9 is a room holding (`hubs`): fitted only when asked.
        assert!(sagani_ai::value::ROOM.contains(&9));
        let f = fit(&samples, |g| g == 4, 400, 0.0, None, true);
        let w = f.value.weights[1];
        for j in 0..FEATURES {
            assert!(
                (w[j] - rule[j]).abs() < 0.1,
                "weight {j}: {} vs {}",
                w[j],
                rule[j]
            );
        }
        let r = &f.report[0];
        assert!(r.cross_entropy < r.score_only_cross_entropy, "{r:?}");
        let without = fit(&samples, |g| g == 4, 400, 0.0, None, false);
        assert_eq!(without.value.weights[1][9], 0.0);
        assert!(without.report[0].cross_entropy > r.cross_entropy);
    }

    /// Solo returns made of a tiles' share and a symphony's step are fitted better in two
    /// parts than by one curve, and the symphony's rule is recovered.
    #[test]
    fn two_parts_fit_a_solo_return_better_than_one_curve() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let (mut tiles_rule, mut chance_rule) = ([0f32; FEATURES], [0f32; FEATURES]);
        tiles_rule[0] = 0.7;
        tiles_rule[2] = -0.4;
        chance_rule[0] = 1.5;
        chance_rule[11] = -1.0;
        let samples: Vec<Sample> = (0..6000)
            .map(|i| {
                let mut f = [0f32; FEATURES];
                for x in f.iter_mut() {
                    *x = rng.random_range(-2.0..2.0);
                }
                let open = i % 4 != 0;
                let p = if open {
                    sigmoid(dot(&chance_rule, &f))
                } else {
                    0.0
                };
                let symphony = (rng.random::<f32>() < p) as u8 as f32;
                let tiles_share = sigmoid(dot(&tiles_rule, &f));
                Sample {
                    features: f,
                    target: solo_return(tiles_share, symphony, 0.4),
                    players: 1,
                    game: i % 5,
                    tiles_share,
                    symphony,
                    symphony_open: open,
                }
            })
            .collect();
        let f = fit(&samples, |g| g == 4, 400, 0.0, Some(0.4), false);
        let r = &f.report[0];
        let (one_ce, one_se) = r.one_curve.expect("fitted in two parts");
        assert!(r.squared_error < 0.9 * one_se, "{r:?}");
        assert!(r.cross_entropy < one_ce, "{r:?}");
        let sym = f.value.symphony.as_ref().expect("a symphony part");
        for (j, (w, want)) in sym.iter().zip(chance_rule).enumerate() {
            assert!((w - want).abs() < 0.25, "weight {j}: {w} vs {want}");
        }
        // Without parts, solo is one curve again.
        assert!(fit(&samples, |g| g == 4, 50, 0.0, None, false)
            .value
            .symphony
            .is_none());
    }

    #[test]
    fn positions_come_from_finished_games_and_repeat_for_a_seed() {
        let p = Positions {
            games: 6,
            players: vec![1, 2, 3, 4],
            seed: 5,
            threads: 2,
            mcts: MctsConfig::default(),
            search: None,
        };
        let a = positions(&p, &|_| {}).unwrap();
        let b = positions(&p, &|_| {}).unwrap();
        assert!(a.len() > 30);
        assert_eq!(a.len(), b.len());
        assert!(a
            .iter()
            .zip(&b)
            .all(|(x, y)| x.features == y.features && x.target == y.target));
        // In 2-player games the two seats' returns add up to 1.
        let two: Vec<&Sample> = a.iter().filter(|s| s.players == 2).collect();
        assert!(!two.is_empty());
        for pair in two.chunks(2) {
            assert!((pair[0].target + pair[1].target - 1.0).abs() < 1e-4);
        }
        assert!(a.iter().all(|s| (0.0..=1.0).contains(&s.target)));
        assert!(a.iter().any(|s| s.players == 1));
        // A solo return that reached 75 (0.1 or more) is its parts.
        for s in a
            .iter()
            .filter(|s| s.players == 1 && s.target >= 0.1 - 1e-6)
        {
            let parts = solo_return(s.tiles_share, s.symphony, p.mcts.symphony_bonus);
            assert!((parts - s.target).abs() < 1e-5, "{s:?}");
        }
        let five = Positions {
            players: vec![5],
            ..p
        };
        assert!(positions(&five, &|_| {})
            .unwrap_err()
            .to_string()
            .contains("1 to 4"));
    }

    #[test]
    fn searched_games_repeat_for_a_seed_and_differ_from_the_policy_s() {
        let p = Positions {
            games: 4,
            players: vec![1, 2],
            seed: 9,
            threads: 2,
            mcts: MctsConfig::default(),
            search: Some(40),
        };
        let a = positions(&p, &|_| {}).unwrap();
        let b = positions(&p, &|_| {}).unwrap();
        assert!(!a.is_empty());
        assert!(a
            .iter()
            .zip(&b)
            .all(|(x, y)| x.features == y.features && x.target == y.target));
        assert!(a.iter().all(|s| (0.0..=1.0).contains(&s.target)));
        // The same decks and noisy stretches, played on by the policy, end otherwise.
        let policy = positions(&Positions { search: None, ..p }, &|_| {}).unwrap();
        assert!(
            policy.len() != a.len()
                || policy
                    .iter()
                    .zip(&a)
                    .any(|(x, y)| x.features != y.features || x.target != y.target)
        );
    }
}
