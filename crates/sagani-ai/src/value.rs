//! The evaluation of positions: each player's expected return (the number `mcts` backs up from
//! a finished game, 0 to 1) from a logistic model of what they hold against what the others
//! hold (solo: of what the player holds). `mcts` ends a playout with it after `playout_depth`
//! steps instead of playing to the end; `sagani train --value` fits it to where the playout
//! policy's own games ended (`value_train`), so that a cut playout estimates what the whole
//! one would have returned, without its noise, at a fraction of its cost. A model for each
//! player count; the `solo-all` variant (scored otherwise) is not evaluated.

use crate::policy::lateness;
use sagani_core::{Game, Variant, MAX_PLAYERS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// What a player holds, in this order (`holdings`).
pub const HOLDINGS: [&str; 7] = [
    // Score, in tens.
    "score",
    // Unflipped tiles' values times the share of their arrows covered, in tens: points on
    // the way.
    "partial",
    // Unflipped tiles' values, in tens.
    "potential",
    // Uncovered arrows of unflipped tiles, in tens: work left.
    "uncovered",
    // Discs in the supply, in tens.
    "supply",
    // Discs the supply is short of 4 (Cacophony ahead).
    "short",
    // 1 for the player to act (in solo always: the model's constant).
    "to_act",
];

/// Each holding as it is, times how far the pile is drawn, and times 1 once the final round is
/// on: a lead weighs more as the end nears.
pub const FEATURES: usize = 3 * HOLDINGS.len();

pub type Features = [f32; FEATURES];

/// The weights of one player count.
pub type Weights = [f32; FEATURES];

fn holdings(g: &Game, seat: u8) -> [f32; HOLDINGS.len()] {
    let (mut partial, mut potential, mut uncovered) = (0.0, 0.0, 0.0);
    for t in g.display(seat).tiles().filter(|t| !t.flipped) {
        let arrows = t.arrows().count_ones() as f32;
        let open = t.uncovered.count_ones() as f32;
        let value = sagani_core::value_for_arrows(arrows as u8) as f32;
        partial += value * (arrows - open) / arrows;
        potential += value;
        uncovered += open;
    }
    let supply = g.supply(seat);
    [
        g.score(seat) as f32 / 10.0,
        partial / 10.0,
        potential / 10.0,
        uncovered / 10.0,
        supply as f32 / 10.0,
        4u16.saturating_sub(supply) as f32,
        (g.to_act() == Some(seat)) as u8 as f32,
    ]
}

/// Every seat's features: its holdings less the mean of the others' (solo: as they are), as
/// they are, times the lateness and in the final round.
pub fn features(g: &Game) -> Vec<Features> {
    let n = g.players() as usize;
    let h: Vec<_> = (0..n as u8).map(|s| holdings(g, s)).collect();
    let late = lateness(g);
    let fin = g.final_round() as u8 as f32;
    (0..n)
        .map(|p| {
            let mut f = [0.0; FEATURES];
            for k in 0..HOLDINGS.len() {
                let others: f32 = (0..n).filter(|&q| q != p).map(|q| h[q][k]).sum();
                let x = if n == 1 {
                    h[p][k]
                } else {
                    h[p][k] - others / (n - 1) as f32
                };
                f[k] = x;
                f[HOLDINGS.len() + k] = late * x;
                f[2 * HOLDINGS.len() + k] = fin * x;
            }
            f
        })
        .collect()
}

/// The names of the features, in order.
pub fn feature_names() -> Vec<String> {
    ["", "late_", "final_"]
        .iter()
        .flat_map(|p| HOLDINGS.iter().map(move |h| format!("{p}{h}")))
        .collect()
}

#[inline]
pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// A model for each player count, 1 to 4 (`weights[players - 1]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub weights: [Weights; 4],
}

impl Value {
    /// The fitted evaluation shipped with the bots (`data/value-trained.json`).
    pub fn trained() -> &'static Value {
        static TRAINED: OnceLock<Value> = OnceLock::new();
        TRAINED.get_or_init(|| {
            Value::from_json(include_str!("../data/value-trained.json"))
                .expect("the shipped evaluation reads")
        })
    }

    /// Whether the position's game is one the evaluation is for (not `solo-all`).
    pub fn evaluates(g: &Game) -> bool {
        g.variant() != Variant::SoloAll
    }

    /// Each player's expected return from the position (`solo-all`: none, all 0).
    pub fn returns(&self, g: &Game) -> [f32; MAX_PLAYERS] {
        let mut r = [0.0; MAX_PLAYERS];
        if !Value::evaluates(g) {
            return r;
        }
        let w = &self.weights[g.players() as usize - 1];
        for (p, f) in features(g).iter().enumerate() {
            r[p] = sigmoid(w.iter().zip(f).map(|(a, b)| a * b).sum());
        }
        r
    }

    pub fn to_file(&self, note: BTreeMap<String, serde_json::Value>) -> ValueFile {
        let names = feature_names();
        ValueFile {
            players: (1..=4)
                .map(|n| {
                    let w = &self.weights[n - 1];
                    let named = names.iter().cloned().zip(w.iter().copied()).collect();
                    (n.to_string(), named)
                })
                .collect(),
            trained: note,
        }
    }

    /// Reads an evaluation file (JSON, as `sagani train --value` writes it): a weight for every
    /// feature of every player count 1 to 4.
    pub fn from_json(text: &str) -> Result<Value, String> {
        let file: ValueFile =
            serde_json::from_str(text).map_err(|e| format!("not an evaluation file: {e}"))?;
        let names = feature_names();
        let mut weights = [[0.0; FEATURES]; 4];
        if let Some(other) = file
            .players
            .keys()
            .find(|k| !["1", "2", "3", "4"].contains(&k.as_str()))
        {
            return Err(format!("players: {other:?} is not 1, 2, 3 or 4"));
        }
        for n in 1..=4usize {
            let named = file
                .players
                .get(&n.to_string())
                .ok_or_else(|| format!("players: \"{n}\" is missing"))?;
            if let Some(bad) = named.keys().find(|k| !names.contains(k)) {
                return Err(format!(
                    "players \"{n}\": {bad:?} is not a feature; the features are {}",
                    names.join(", ")
                ));
            }
            for (i, name) in names.iter().enumerate() {
                let w = *named
                    .get(name)
                    .ok_or_else(|| format!("players \"{n}\": {name:?} is missing"))?;
                if !w.is_finite() {
                    return Err(format!("players \"{n}\": {name:?} is {w}, not a number"));
                }
                weights[n - 1][i] = w;
            }
        }
        Ok(Value { weights })
    }

    pub fn load(path: &str) -> Result<Value, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        Value::from_json(&text).map_err(|e| format!("{path}: {e}"))
    }
}

/// The JSON form of an evaluation.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueFile {
    /// For each player count ("1" to "4"), each feature's weight.
    pub players: BTreeMap<String, BTreeMap<String, f32>>,
    /// How it was trained (command, positions, fit), for people.
    #[serde(default)]
    pub trained: BTreeMap<String, serde_json::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;

    #[test]
    fn the_shipped_evaluation_reads_and_favours_the_leader() {
        let v = Value::trained();
        let mut gains = Vec::new();
        let mut rng = rand::SeedableRng::seed_from_u64(5);
        let mut leads = 0;
        for seed in 0..40 {
            // Games of the greedy policy, looked at once 40 tiles are drawn.
            let mut g = Game::seeded(2, seed).unwrap();
            while g.draw_pile_len() > 32 && !g.is_over() {
                crate::mcts::playout_step(
                    &mut g,
                    &mut rng,
                    0,
                    &Policy::hand(),
                    None,
                    &mut gains,
                    &mut Default::default(),
                );
            }
            let r = v.returns(&g);
            // In 2-player games the two returns add up to 1, as at the end.
            assert!((r[0] + r[1] - 1.0).abs() < 1e-4, "{r:?}");
            let (a, b) = (g.score(0), g.score(1));
            if (a - b).abs() >= 12 {
                assert_eq!(r[0] > r[1], a > b, "seed {seed}: scores {a}, {b}: {r:?}");
                leads += 1;
            }
        }
        assert!(leads >= 5, "only {leads} games with a clear lead");
        // Solo: at the same point of the game, the deck played well (the policy's best
        // placement) is worth more than played carelessly (a random one of two).
        let (mut better, mut compared) = (0, 0);
        for seed in 0..20 {
            let mut good = Game::seeded(1, seed).unwrap();
            let mut careless = good.clone();
            for _ in 0..12 {
                for (g, samples) in [(&mut good, 0), (&mut careless, 2)] {
                    let hand = Policy::hand();
                    crate::mcts::playout_step(
                        g,
                        &mut rng,
                        samples,
                        &hand,
                        None,
                        &mut gains,
                        &mut Default::default(),
                    );
                }
            }
            if good.score(0) >= careless.score(0) + 10 {
                compared += 1;
                better += (v.returns(&good)[0] > v.returns(&careless)[0]) as usize;
            }
        }
        assert!(compared >= 5, "only {compared} decks played clearly apart");
        assert!(better * 5 >= compared * 4, "{better} of {compared}");
        let all = Game::new(&sagani_core::Setup {
            variant: Some(Variant::SoloAll),
            ..sagani_core::Setup::seeded(1, 3)
        })
        .unwrap();
        assert_eq!(v.returns(&all), [0.0; MAX_PLAYERS]);
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let mut v = Value::trained().clone();
        v.weights[2][4] = 0.125;
        let text = serde_json::to_string(&v.to_file(BTreeMap::new())).unwrap();
        assert_eq!(Value::from_json(&text).unwrap(), v);
        let typo = text.replacen("\"late_supply\"", "\"late_suply\"", 1);
        let e = Value::from_json(&typo).unwrap_err();
        assert!(e.contains("\"late_suply\" is not a feature"), "{e}");
        let mut file = v.to_file(BTreeMap::new());
        file.players.remove("3");
        let e = Value::from_json(&serde_json::to_string(&file).unwrap()).unwrap_err();
        assert!(e.contains("\"3\" is missing"), "{e}");
        assert!(Value::from_json("[]")
            .unwrap_err()
            .starts_with("not an evaluation file"));
    }
}
