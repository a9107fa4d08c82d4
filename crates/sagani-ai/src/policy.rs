//! The move policy `mcts` orders its candidates by and plays its playouts with: a linear value
//! of a placement's features, and a value for the intermezzo choice and for passing in an
//! intermezzo on the same scale. The hand-set weights are `evaluate`'s; `sagani train` fits
//! others to the moves a deeper search chose in self-play (`train`), and writes them as JSON.

use crate::aim::Aim;
use crate::evaluate::{PASS_VALUE, WEIGHTS};
use crate::weights_file::WeightsError;
use sagani_core::{Expect, Gain, Game, Move};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a placement is described by, in this order.
pub const FEATURES: [&str; 15] = [
    // Values of the tiles that flip.
    "points",
    // Cacophony discs it costs.
    "cacophony",
    // Progress towards tiles that do not flip yet (evaluate's, in points).
    "progress",
    // The new tile's arrows left open.
    "own_open",
    // Discs the supply is short of 4 afterwards.
    "short_supply",
    // Arrows of earlier tiles covered.
    "covered",
    // Tiles that flip.
    "completed",
    // The new tile's arrows covered at once.
    "own_covered",
    // The three before, times how far the pile is drawn (0 at the start, 1 when it is
    // empty): late in the game a disc held or an open arrow matters differently.
    "late_progress",
    "late_own_open",
    "late_short_supply",
    // Where the placement leaves room (`aim`, `POSITIONAL`): 0 unless the caller works them out.
    "spoil",
    "aim",
    "reach",
    "next_reach",
];

pub use crate::aim::POSITIONAL;

/// Where the positional features start in `FEATURES`.
pub const FIRST_POSITIONAL: usize = FEATURES.len() - POSITIONAL.len();

pub type Features = [f32; FEATURES.len()];

/// How far the draw pile is drawn, 0 to 1.
#[inline]
pub fn lateness(g: &Game) -> f32 {
    1.0 - g.draw_pile_len() as f32 / 72.0
}

/// A placement's features (see `FEATURES`), with its positional ones (`Aim::features`, or
/// zeros).
#[inline]
pub fn features(gain: &Gain, late: f32, pos: [f32; POSITIONAL.len()]) -> Features {
    let progress = 0.5 * gain.worth as f32;
    let own_open = gain.own_open as f32;
    let short = WEIGHTS.safe_supply.saturating_sub(gain.supply_after) as f32;
    [
        gain.points as f32,
        gain.cacophony as f32,
        progress,
        own_open,
        short,
        gain.covered as f32,
        gain.completed as f32,
        gain.own_covered as f32,
        late * progress,
        late * own_open,
        late * short,
        pos[0],
        pos[1],
        pos[2],
        pos[3],
    ]
}

#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub weights: Features,
    /// The value of the intermezzo choice; `None`: the hand-set policy's way (tried second at
    /// a node, and in one of 8 playout steps where it is open).
    pub intermezzo: Option<f32>,
    /// The value of passing in an intermezzo.
    pub pass: f32,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy::hand()
    }
}

impl Policy {
    /// The policy fitted by `sagani train` and shipped with the bots
    /// (`data/policy-trained.json`; docs/research/bots.md says how it was made and measured).
    pub fn trained() -> &'static Policy {
        static TRAINED: std::sync::OnceLock<Policy> = std::sync::OnceLock::new();
        TRAINED.get_or_init(|| {
            Policy::from_json(include_str!("../data/policy-trained.json"))
                .expect("the shipped policy reads")
        })
    }

    /// The policy for solo playouts shipped with the bots, tuned by what its own solo games
    /// score (`sagani train --solo`; `data/solo-policy-trained.json`, docs/research/bots.md).
    pub fn solo_trained() -> &'static Policy {
        static TRAINED: std::sync::OnceLock<Policy> = std::sync::OnceLock::new();
        TRAINED.get_or_init(|| {
            Policy::from_json(include_str!("../data/solo-policy-trained.json"))
                .expect("the shipped solo policy reads")
        })
    }

    /// `evaluate`'s weights: the same values as `placement_value`.
    pub fn hand() -> Policy {
        let mut weights = [0.0; FEATURES.len()];
        weights[0] = 1.0;
        weights[1] = -2.0;
        weights[2] = WEIGHTS.progress;
        weights[3] = -WEIGHTS.open_arrow;
        weights[4] = -WEIGHTS.short_supply;
        Policy {
            weights,
            intermezzo: None,
            pass: PASS_VALUE,
        }
    }

    /// A placement's value without its positional features (as if they were 0).
    #[inline]
    pub fn value(&self, gain: &Gain, late: f32) -> f32 {
        let f = features(gain, late, [0.0; POSITIONAL.len()]);
        self.weights[..FIRST_POSITIONAL]
            .iter()
            .zip(&f[..FIRST_POSITIONAL])
            .map(|(w, x)| w * x)
            .sum()
    }

    /// A placement's value with its positional features (added last, so that `best` may add
    /// them to a value worked out before and get the same number).
    #[inline]
    pub fn value_at(&self, gain: &Gain, late: f32, pos: [f32; POSITIONAL.len()]) -> f32 {
        self.value(gain, late) + self.dot_positional(pos)
    }

    /// Whether the policy weighs positional features: only then are they worth working out.
    #[inline]
    pub fn positional(&self) -> bool {
        self.weights[FIRST_POSITIONAL..].iter().any(|w| *w != 0.0)
    }

    /// The same policy with its positional weights 0 (as fast as one without them).
    pub fn without_positional(&self) -> Policy {
        let mut p = self.clone();
        p.weights[FIRST_POSITIONAL..].fill(0.0);
        p
    }

    /// The placement in `gains` of the highest value, positional features included when the
    /// policy weighs them, and that value (`None` for no placement). The same choice as the
    /// best of `rate`, cheaper: the positional features are worked out only for placements
    /// whose value without them, plus the most they could add, beats the best found.
    pub fn best(&self, g: &Game, gains: &[(Move, Gain)], aim: &mut Aim) -> Option<(Move, f32)> {
        let late = lateness(g);
        if !self.positional() {
            let mut best: Option<(Move, f32)> = None;
            for (mv, gain) in gains {
                let v = self.value(gain, late);
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((*mv, v));
                }
            }
            return best;
        }
        if gains.is_empty() {
            return None;
        }
        aim.sync(g);
        let bound = aim.bound(&self.weights[FIRST_POSITIONAL..]);
        // Each value without them, once; start from the best of those, so that most bounds
        // fall short of it at once.
        let mut values = std::mem::take(&mut aim.values);
        values.clear();
        values.extend(gains.iter().map(|(_, gain)| self.value(gain, late)));
        let mut first = 0;
        for (i, v) in values.iter().enumerate() {
            if *v > values[first] {
                first = i;
            }
        }
        let full = |i: usize| {
            let (mv, gain) = &gains[i];
            values[i] + self.dot_positional(aim.features(*mv, gain))
        };
        let mut at = (first, full(first));
        // Ties go to the earlier placement, as the first best of `rate` does; a hair over the
        // bound, so that rounding never prunes the best.
        let beats = |v: f32, i: usize, (j, b): (usize, f32)| v > b || (v == b && i < j);
        for (i, (_, gain)) in gains.iter().enumerate() {
            let most = values[i] + bound.most(gain);
            if i == first || !beats(most + 1e-4 * (1.0 + most.abs()), i, at) {
                continue;
            }
            let v = full(i);
            if beats(v, i, at) {
                at = (i, v);
            }
        }
        aim.values = values;
        Some((gains[at.0].0, at.1))
    }

    /// What positional features `pos` add to a placement's value.
    #[inline]
    fn dot_positional(&self, pos: [f32; POSITIONAL.len()]) -> f32 {
        self.weights[FIRST_POSITIONAL..]
            .iter()
            .zip(pos)
            .map(|(w, x)| w * x)
            .sum()
    }

    /// Every placement in `gains` with its value, positional features included when the
    /// policy weighs them (`aim` is brought up to `g` then).
    pub fn rate<'a>(
        &'a self,
        g: &Game,
        gains: &'a [(Move, Gain)],
        aim: &'a mut Aim,
    ) -> impl Iterator<Item = (Move, f32)> + 'a {
        let late = lateness(g);
        let positional = self.positional();
        if positional {
            aim.sync(g);
        }
        let aim = &*aim;
        gains.iter().map(move |(mv, gain)| {
            let pos = if positional {
                aim.features(*mv, gain)
            } else {
                [0.0; POSITIONAL.len()]
            };
            (*mv, self.value_at(gain, late, pos))
        })
    }

    /// Where a fitted policy ranks a move that is not a placement among the candidates: by
    /// its value. The hand-set one has none (`None`): it tries the intermezzo choice and the
    /// pass second at every node, so that the search always weighs them.
    pub fn other_value(&self, mv: Move) -> Option<f32> {
        self.intermezzo?;
        match mv {
            Move::Intermezzo { .. } => self.intermezzo,
            Move::Pass => Some(self.pass),
            Move::Place { .. } => None,
        }
    }

    /// The policy as its file says it.
    pub fn to_file(&self, note: BTreeMap<String, serde_json::Value>) -> PolicyFile {
        PolicyFile {
            weights: FEATURES
                .iter()
                .zip(self.weights)
                .map(|(n, w)| (n.to_string(), w))
                .collect(),
            intermezzo: self.intermezzo,
            pass: self.pass,
            trained: note,
        }
    }

    /// Reads a policy file (JSON, as `sagani train` writes it); every feature must be named.
    pub fn from_json(text: &str) -> Result<Policy, WeightsError> {
        let file: PolicyFile =
            serde_json::from_str(text).map_err(|source| WeightsError::NotJson {
                what: "a policy file",
                source,
            })?;
        let mut weights = [0.0; FEATURES.len()];
        let part = || "weights".to_string();
        for (name, w) in &file.weights {
            let i = FEATURES.iter().position(|f| f == name).ok_or_else(|| {
                WeightsError::NotAFeature {
                    part: part(),
                    name: name.clone(),
                    features: FEATURES.join(", "),
                }
            })?;
            if !w.is_finite() {
                return Err(WeightsError::NotANumber {
                    part: part(),
                    name: name.clone(),
                    value: *w,
                });
            }
            weights[i] = *w;
        }
        if let Some(missing) = FEATURES.iter().find(|f| !file.weights.contains_key(**f)) {
            return Err(WeightsError::Missing {
                part: part(),
                name: missing.to_string(),
            });
        }
        Ok(Policy {
            weights,
            intermezzo: file.intermezzo,
            pass: file.pass,
        })
    }

    /// "trained", "solo-trained", "hand", or else a policy file's path.
    pub fn named(name: &str) -> Result<Policy, WeightsError> {
        match name {
            "hand" => Ok(Policy::hand()),
            "trained" => Ok(Policy::trained().clone()),
            "solo-trained" => Ok(Policy::solo_trained().clone()),
            path => Policy::load(path),
        }
    }

    /// Reads a policy file from disk.
    pub fn load(path: &str) -> Result<Policy, WeightsError> {
        Policy::from_json(&crate::weights_file::read(path)?).map_err(|e| e.in_file(path))
    }
}

/// The JSON form of a policy.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyFile {
    pub weights: BTreeMap<String, f32>,
    pub intermezzo: Option<f32>,
    pub pass: f32,
    /// How it was trained (command, games, fit), for people.
    #[serde(default)]
    pub trained: BTreeMap<String, serde_json::Value>,
}

/// Whether the intermezzo choice is open to the player to act.
pub fn intermezzo_open(g: &Game) -> bool {
    g.expects() == Some(Expect::Turn) && g.offer().len() == 1 && g.draw_pile_len() > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::placement_value;

    #[test]
    fn hand_policy_is_evaluate() {
        let mut g = Game::seeded(2, 5).unwrap();
        let mut gains = Vec::new();
        for _ in 0..12 {
            g.placement_gains(&mut gains);
            assert!(!gains.is_empty());
            for (_, gain) in &gains {
                let (a, b) = (
                    Policy::hand().value(gain, lateness(&g)),
                    placement_value(gain),
                );
                assert!((a - b).abs() < 1e-4, "{a} vs {b} for {gain:?}");
            }
            let mv = g.legal_moves()[0];
            g.play(mv).unwrap();
        }
    }

    /// The pruned search for the best placement finds what rating them all finds, in solo
    /// games played by a policy that weighs positional features.
    #[test]
    fn the_best_placement_is_the_first_best_of_all_rated() {
        let mut p = Policy::solo_trained().clone();
        p.weights[FIRST_POSITIONAL..].copy_from_slice(&[-0.2, 0.55, 0.2, 0.4]);
        assert!(p.positional() && !Policy::trained().positional());
        let (mut aim, mut gains) = (Aim::default(), Vec::new());
        let mut checked = 0;
        for seed in 0..12 {
            let mut g = Game::seeded(1, seed).unwrap();
            while !g.is_over() {
                g.placement_gains(&mut gains);
                let mut first: Option<(Move, f32)> = None;
                for (mv, v) in p.rate(&g, &gains, &mut aim) {
                    if first.is_none_or(|(_, b)| v > b) {
                        first = Some((mv, v));
                    }
                }
                let best = p.best(&g, &gains, &mut aim);
                assert_eq!(best, first, "seed {seed}");
                checked += 1;
                // Play on with another move now and then, for positions the policy avoids.
                let mv = match checked % 3 {
                    0 => gains[checked % gains.len()].0,
                    _ => best.unwrap().0,
                };
                g.play(mv).unwrap();
            }
        }
        assert!(checked > 300, "{checked}");
    }

    #[test]
    fn only_a_fitted_policy_ranks_the_intermezzo_and_the_pass_by_value() {
        let hand = Policy::hand();
        assert_eq!(hand.other_value(Move::Pass), None);
        assert_eq!(hand.other_value(Move::Intermezzo { tile: 3 }), None);
        let fitted = Policy {
            intermezzo: Some(2.5),
            pass: -4.0,
            ..Policy::hand()
        };
        assert_eq!(fitted.other_value(Move::Pass), Some(-4.0));
        assert_eq!(fitted.other_value(Move::Intermezzo { tile: 3 }), Some(2.5));
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let mut p = Policy::hand();
        p.intermezzo = Some(-1.5);
        p.weights[7] = 0.25;
        let text = serde_json::to_string(&p.to_file(BTreeMap::new())).unwrap();
        assert_eq!(Policy::from_json(&text).unwrap(), p);
        let missing = text.replace("\"own_covered\"", "\"own_coverd\"");
        let e = Policy::from_json(&missing).unwrap_err().to_string();
        assert!(e.contains("\"own_coverd\" is not a feature"), "{e}");
        let mut file = p.to_file(BTreeMap::new());
        file.weights.remove("covered");
        let e = Policy::from_json(&serde_json::to_string(&file).unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"covered\" is missing"), "{e}");
        assert!(Policy::from_json("{")
            .unwrap_err()
            .to_string()
            .starts_with("not a policy file"));
    }
}
