//! Tuning the move policy from self-play: `mcts` plays games against itself with a deep
//! budget, every decision is kept as the features of each legal move and the one the search
//! chose, and a conditional logit model (multinomial logistic regression over a decision's
//! moves, one weight per feature, as in discrete choice) is fitted to those choices by gradient
//! ascent on their log-likelihood. The fitted weights are a `Policy` for the search's
//! candidates and playouts: the search taught what it finds by looking ahead.

use crate::SelfPlayError;
use sagani_ai::aim::Aim;
use sagani_ai::policy::{features, lateness, Features, Policy, FEATURES};
use sagani_ai::{Bot, Budget, Mcts, MctsConfig};
use sagani_core::{Game, Move, Setup};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Columns of a move's row: the placement features, then 1 for the intermezzo choice, then 1
/// for a pass.
pub const COLUMNS: usize = FEATURES.len() + 2;
pub type Row = [f32; COLUMNS];

/// One decision: every legal move's row and the one chosen.
#[derive(Clone, Debug)]
pub struct Choice {
    pub rows: Vec<Row>,
    pub chosen: usize,
    /// Which self-play game it comes from (held-out games are chosen by it).
    pub game: u64,
}

fn row(f: Features, intermezzo: f32, pass: f32) -> Row {
    let mut r = [0.0; COLUMNS];
    r[..FEATURES.len()].copy_from_slice(&f);
    r[FEATURES.len()] = intermezzo;
    r[FEATURES.len() + 1] = pass;
    r
}

/// The rows of every legal move of the player to act, in the order of `moves`.
pub fn rows(g: &Game, moves: &mut Vec<Move>) -> Vec<Row> {
    let mut gains = Vec::new();
    g.placement_gains(&mut gains);
    let late = lateness(g);
    let mut aim = Aim::default();
    aim.sync(g);
    moves.clear();
    let mut out = Vec::with_capacity(gains.len() + 1);
    for (mv, gain) in &gains {
        moves.push(*mv);
        out.push(row(features(gain, late, aim.features(*mv, gain)), 0.0, 0.0));
    }
    for mv in g.legal_moves() {
        let r = match mv {
            Move::Intermezzo { .. } => row([0.0; FEATURES.len()], 1.0, 0.0),
            Move::Pass => row([0.0; FEATURES.len()], 0.0, 1.0),
            Move::Place { .. } => continue,
        };
        moves.push(mv);
        out.push(r);
    }
    out
}

/// What self-play plays.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub games: u64,
    /// Players of game d: `players[d % len]`.
    pub players: Vec<u8>,
    /// Search iterations a decision.
    pub iterations: u64,
    pub seed: u64,
    /// Games played at once, each search on one thread.
    pub threads: usize,
    /// The search's settings (its `threads` are set to 1).
    pub mcts: MctsConfig,
}

/// Plays the self-play games and returns their decisions (those with more than one legal
/// move), in game order; `done` is told each finished game. Deterministic for a seed: game d
/// is deck `seed + d` with bots seeded from it, whichever thread plays it.
pub fn self_play(sp: &SelfPlay, done: &(dyn Fn(u64) + Sync)) -> Result<Vec<Choice>, SelfPlayError> {
    if sp.players.is_empty() || sp.players.iter().any(|&p| !(1..=4).contains(&p)) {
        return Err(SelfPlayError::Players(sp.players.clone()));
    }
    let next = AtomicU64::new(0);
    let out: Mutex<Vec<(u64, Vec<Choice>)>> = Mutex::new(Vec::new());
    let err: Mutex<Option<SelfPlayError>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..sp.threads.max(1) {
            s.spawn(|| loop {
                let d = next.fetch_add(1, Ordering::Relaxed);
                if d >= sp.games {
                    break;
                }
                match one_game(sp, d) {
                    Ok(choices) => {
                        out.lock().expect("no panics").push((d, choices));
                        done(d);
                    }
                    Err(e) => {
                        *err.lock().expect("no panics") = Some(e);
                        break;
                    }
                }
            });
        }
    });
    if let Some(e) = err.into_inner().expect("no panics") {
        return Err(e);
    }
    let mut games = out.into_inner().expect("no panics");
    games.sort_by_key(|(d, _)| *d);
    Ok(games.into_iter().flat_map(|(_, c)| c).collect())
}

fn one_game(sp: &SelfPlay, d: u64) -> Result<Vec<Choice>, SelfPlayError> {
    let players = sp.players[(d % sp.players.len() as u64) as usize];
    let deck = sp.seed.wrapping_add(d);
    let mut g = Game::new(&Setup::seeded(players, deck))?;
    let mut cfg = sp.mcts.clone();
    cfg.threads = 1;
    let mut bots: Vec<Mcts> = (0..players as u64)
        .map(|s| Mcts::new(deck.wrapping_mul(31).wrapping_add(s), cfg.clone()))
        .collect();
    let budget = Budget::iterations(sp.iterations);
    let mut choices = Vec::new();
    let mut moves = Vec::new();
    while let Some(seat) = g.to_act() {
        let legal = g.legal_moves();
        let mv = if legal.len() == 1 {
            legal[0]
        } else {
            let mv = bots[seat as usize]
                .choose(&g.view(Some(seat)), &legal, budget)
                .mv;
            let rows = rows(&g, &mut moves);
            if let Some(chosen) = moves.iter().position(|m| *m == mv) {
                choices.push(Choice {
                    rows,
                    chosen,
                    game: d,
                });
            }
            mv
        };
        g.play(mv)
            .map_err(|source| SelfPlayError::Illegal { game: d, source })?;
    }
    Ok(choices)
}

/// A fitted model and how well it and the hand-set policy predict the choices.
#[derive(Clone, Debug)]
pub struct Fit {
    pub weights: Row,
    /// Mean log-likelihood of a choice, on the games fitted and on the held-out ones.
    pub log_likelihood: f64,
    pub held_out_log_likelihood: f64,
    /// How often the model's best move is the one chosen, on the held-out games: the fitted
    /// weights and the hand-set ones (`Policy::hand`, the intermezzo valued 0).
    pub held_out_accuracy: f64,
    pub hand_accuracy: f64,
    pub fitted: usize,
    pub held_out: usize,
}

impl Fit {
    pub fn policy(&self) -> Policy {
        let n = FEATURES.len();
        let mut weights = [0.0; FEATURES.len()];
        weights.copy_from_slice(&self.weights[..n]);
        Policy {
            weights,
            intermezzo: Some(self.weights[n]),
            pass: self.weights[n + 1],
        }
    }
}

fn hand_row() -> Row {
    let hand = Policy::hand();
    row(hand.weights, 0.0, hand.pass)
}

fn dot(w: &Row, x: &Row) -> f64 {
    w.iter().zip(x).map(|(a, b)| *a as f64 * *b as f64).sum()
}

/// Mean log-likelihood of the choices under weights `w`, and the share whose best-valued move
/// is the chosen one.
pub fn score(choices: &[Choice], w: &Row) -> (f64, f64) {
    if choices.is_empty() {
        return (0.0, 0.0);
    }
    let (mut ll, mut hits) = (0.0, 0usize);
    for c in choices {
        let v: Vec<f64> = c.rows.iter().map(|r| dot(w, r)).collect();
        let max = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = v.iter().map(|x| (x - max).exp()).sum();
        ll += v[c.chosen] - max - z.ln();
        let best = (0..v.len()).max_by(|&a, &b| v[a].total_cmp(&v[b])).unwrap();
        hits += (best == c.chosen) as usize;
    }
    (
        ll / choices.len() as f64,
        hits as f64 / choices.len() as f64,
    )
}

/// Fits the conditional logit model to the choices of the games `held_out` says no to, by
/// `steps` steps of Adam on the mean log-likelihood with an L2 penalty `l2` (on standardised
/// features, so one step size suits all), and scores it on the rest.
pub fn fit(choices: &[Choice], held_out: impl Fn(u64) -> bool, steps: usize, l2: f64) -> Fit {
    let (test, train): (Vec<&Choice>, Vec<&Choice>) =
        choices.iter().partition(|c| held_out(c.game));
    // Standardise: a column's mean is the same for every move of a decision, so it cancels in
    // the softmax; only the scale matters.
    let mut mean = [0f64; COLUMNS];
    let mut sq = [0f64; COLUMNS];
    let mut count = 0f64;
    for c in &train {
        for r in &c.rows {
            for j in 0..COLUMNS {
                mean[j] += r[j] as f64;
                sq[j] += (r[j] as f64).powi(2);
            }
            count += 1.0;
        }
    }
    let scale: Vec<f64> = (0..COLUMNS)
        .map(|j| {
            if count == 0.0 {
                return 1.0;
            }
            let m = mean[j] / count;
            let var = sq[j] / count - m * m;
            if var > 1e-9 {
                var.sqrt()
            } else {
                1.0
            }
        })
        .collect();
    // Start from the hand-set weights, in standardised units.
    let hand = hand_row();
    let mut w: Vec<f64> = (0..COLUMNS).map(|j| hand[j] as f64 * scale[j]).collect();
    let (mut m1, mut m2) = (vec![0f64; COLUMNS], vec![0f64; COLUMNS]);
    let (lr, b1, b2) = (0.05, 0.9, 0.999);
    let mut v = Vec::new();
    for t in 1..=steps {
        let mut grad = [0f64; COLUMNS];
        for c in &train {
            v.clear();
            v.extend(c.rows.iter().map(|r| {
                (0..COLUMNS)
                    .map(|j| w[j] * r[j] as f64 / scale[j])
                    .sum::<f64>()
            }));
            let max = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = v.iter().map(|x| (x - max).exp()).sum();
            for (i, r) in c.rows.iter().enumerate() {
                let p = (v[i] - max).exp() / z;
                let y = (i == c.chosen) as u8 as f64;
                for j in 0..COLUMNS {
                    grad[j] += (y - p) * r[j] as f64 / scale[j];
                }
            }
        }
        let n = train.len().max(1) as f64;
        for j in 0..COLUMNS {
            let g = grad[j] / n - l2 * w[j];
            m1[j] = b1 * m1[j] + (1.0 - b1) * g;
            m2[j] = b2 * m2[j] + (1.0 - b2) * g * g;
            let mh = m1[j] / (1.0 - b1.powi(t as i32));
            let vh = m2[j] / (1.0 - b2.powi(t as i32));
            w[j] += lr * mh / (vh.sqrt() + 1e-8);
        }
    }
    let mut weights = [0f32; COLUMNS];
    for j in 0..COLUMNS {
        weights[j] = (w[j] / scale[j]) as f32;
    }
    let train_owned: Vec<Choice> = train.into_iter().cloned().collect();
    let test_owned: Vec<Choice> = test.into_iter().cloned().collect();
    let (log_likelihood, _) = score(&train_owned, &weights);
    let (held_out_log_likelihood, held_out_accuracy) = score(&test_owned, &weights);
    let (_, hand_accuracy) = score(&test_owned, &hand);
    Fit {
        weights,
        log_likelihood,
        held_out_log_likelihood,
        held_out_accuracy,
        hand_accuracy,
        fitted: train_owned.len(),
        held_out: test_owned.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Choices made by a known linear rule are recovered: the fitted weights rank the moves
    /// as the rule does, far better than the hand-set ones.
    #[test]
    fn fit_recovers_a_rule() {
        let mut g = Game::seeded(2, 11).unwrap();
        let mut moves = Vec::new();
        let mut rule = [0f32; COLUMNS];
        // Unlike the hand-set weights: arrows covered, open arrows and Cacophony welcome.
        rule[5] = 1.0;
        rule[3] = 0.37;
        rule[1] = 0.61;
        let mut choices = Vec::new();
        let mut d = 0;
        while g.to_act().is_some() {
            let rs = rows(&g, &mut moves);
            let best = (0..rs.len())
                .max_by(|&a, &b| dot(&rule, &rs[a]).total_cmp(&dot(&rule, &rs[b])))
                .unwrap();
            choices.push(Choice {
                rows: rs,
                chosen: best,
                game: d % 5,
            });
            d += 1;
            g.play(moves[best]).unwrap();
        }
        assert!(choices.len() > 20);
        let fit = fit(&choices, |game| game == 4, 300, 0.0);
        assert!(
            fit.held_out_accuracy > fit.hand_accuracy + 0.2,
            "fitted {} vs hand {}",
            fit.held_out_accuracy,
            fit.hand_accuracy
        );
        assert!(
            fit.weights[5] > 0.0 && fit.weights[3] > 0.0,
            "{:?}",
            fit.weights
        );
    }

    #[test]
    fn self_play_records_legal_choices() {
        let sp = SelfPlay {
            games: 2,
            players: vec![2, 3],
            iterations: 30,
            seed: 9,
            threads: 2,
            mcts: MctsConfig::default(),
        };
        let a = self_play(&sp, &|_| {}).unwrap();
        let b = self_play(&sp, &|_| {}).unwrap();
        assert!(a.len() > 40);
        assert_eq!(a.len(), b.len(), "deterministic for a seed");
        assert!(a
            .iter()
            .all(|c| c.chosen < c.rows.len() && c.rows.len() > 1));
        assert!(a.iter().any(|c| c.game == 1));
        let bad = SelfPlay {
            players: vec![5],
            ..sp
        };
        assert!(self_play(&bad, &|_| {})
            .unwrap_err()
            .to_string()
            .contains("1 to 4"));
    }
}
