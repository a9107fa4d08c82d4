//! The move policy `mcts` orders its candidates by and plays its playouts with: a linear value
//! of a placement's features, and a value for the intermezzo choice and for passing in an
//! intermezzo on the same scale. The hand-set weights are `evaluate`'s; `sagani train` fits
//! others to the moves a deeper search chose in self-play (`train`), and writes them as JSON.

use crate::evaluate::{PASS_VALUE, WEIGHTS};
use sagani_core::{Expect, Gain, Game, Move};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a placement is described by, in this order.
pub const FEATURES: [&str; 11] = [
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
];

pub type Features = [f32; FEATURES.len()];

/// How far the draw pile is drawn, 0 to 1.
#[inline]
pub fn lateness(g: &Game) -> f32 {
    1.0 - g.draw_pile_len() as f32 / 72.0
}

/// A placement's features (see `FEATURES`).
#[inline]
pub fn features(gain: &Gain, late: f32) -> Features {
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
    /// (`data/policy-trained.json`; docs/bots.md says how it was made and measured).
    pub fn trained() -> &'static Policy {
        static TRAINED: std::sync::OnceLock<Policy> = std::sync::OnceLock::new();
        TRAINED.get_or_init(|| {
            Policy::from_json(include_str!("../data/policy-trained.json"))
                .expect("the shipped policy reads")
        })
    }

    /// The policy for solo playouts shipped with the bots, tuned by what its own solo games
    /// score (`sagani train --solo`; `data/solo-policy-trained.json`, docs/bots.md).
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

    #[inline]
    pub fn value(&self, gain: &Gain, late: f32) -> f32 {
        let f = features(gain, late);
        self.weights.iter().zip(f).map(|(w, x)| w * x).sum()
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
    pub fn from_json(text: &str) -> Result<Policy, String> {
        let file: PolicyFile =
            serde_json::from_str(text).map_err(|e| format!("not a policy file: {e}"))?;
        let mut weights = [0.0; FEATURES.len()];
        for (name, w) in &file.weights {
            let i = FEATURES.iter().position(|f| f == name).ok_or_else(|| {
                format!(
                    "weights: {name:?} is not a feature; the features are {}",
                    FEATURES.join(", ")
                )
            })?;
            if !w.is_finite() {
                return Err(format!("weights: {name:?} is {w}, not a number"));
            }
            weights[i] = *w;
        }
        if let Some(missing) = FEATURES.iter().find(|f| !file.weights.contains_key(**f)) {
            return Err(format!("weights: {missing:?} is missing"));
        }
        Ok(Policy {
            weights,
            intermezzo: file.intermezzo,
            pass: file.pass,
        })
    }

    /// "trained", "solo-trained", "hand", or else a policy file's path.
    pub fn named(name: &str) -> Result<Policy, String> {
        match name {
            "hand" => Ok(Policy::hand()),
            "trained" => Ok(Policy::trained().clone()),
            "solo-trained" => Ok(Policy::solo_trained().clone()),
            path => Policy::load(path),
        }
    }

    /// Reads a policy file from disk.
    pub fn load(path: &str) -> Result<Policy, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        Policy::from_json(&text).map_err(|e| format!("{path}: {e}"))
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
        let e = Policy::from_json(&missing).unwrap_err();
        assert!(e.contains("\"own_coverd\" is not a feature"), "{e}");
        let mut file = p.to_file(BTreeMap::new());
        file.weights.remove("covered");
        let e = Policy::from_json(&serde_json::to_string(&file).unwrap()).unwrap_err();
        assert!(e.contains("\"covered\" is missing"), "{e}");
        assert!(Policy::from_json("{")
            .unwrap_err()
            .starts_with("not a policy file"));
    }
}
