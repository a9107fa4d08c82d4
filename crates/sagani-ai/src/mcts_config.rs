//! What `mcts` searches with: its settings, each with the measure that chose its default.

use crate::policy::Policy;
use crate::value::Value;
use sagani_core::Game;
use std::time::Duration;

/// Why a setting of `mcts` cannot be set.
#[derive(Debug, thiserror::Error)]
pub enum SettingError {
    #[error("{0:?}: a setting is NAME=VALUE")]
    NotNameValue(String),
    #[error("{setting:?}: {source}")]
    BadValue {
        setting: String,
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error(
        "{0:?} is not an mcts setting: exploration, widening, candidates, playout_samples, \
         solo_playout_samples, symphony_bonus, policy, solo_policy, reuse, shared_tree, \
         tree_positional, intermezzo_reveal, playout_depth, solo_playout_depth, value, \
         solo_paired, solo_td, solo_td_depth"
    )]
    Unknown(String),
}

/// The value of `setting`, read as its type.
fn parsed<T>(setting: &str, value: &str) -> Result<T, SettingError>
where
    T: std::str::FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    value.parse().map_err(|e: T::Err| SettingError::BadValue {
        setting: setting.to_string(),
        source: Box::new(e),
    })
}

#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// Search threads.
    pub threads: usize,
    /// Threads share one tree when the budget is a time (tree parallelism); false, or a
    /// budget of iterations alone: each thread grows its own (root parallelism), so that
    /// results repeat for a seed.
    pub shared_tree: bool,
    /// UCB exploration constant; returns lie between 0 and 1.
    pub exploration: f32,
    /// A node whose moves were on offer n times considers its best 1 + widening × √n of them.
    pub widening: f32,
    /// Moves kept per node, best first by `evaluate` (the rest are never tried).
    pub candidates: usize,
    /// Multiplayer playouts weigh this many random placements and play the best (0: all of
    /// them).
    pub playout_samples: usize,
    /// The same for solo playouts, where only the revealed tile can be placed.
    pub solo_playout_samples: usize,
    /// Thinking time when the budget names no limit.
    pub default_time: Duration,
    /// In solo, the return a playout earns for a magical symphony (75 with 25 tiles or
    /// fewer) on top of its tiles' worth: the search aims at the threshold, not only at fewer
    /// tiles.
    pub symphony_bonus: f32,
    /// How candidates are ordered and playouts play (`policy`).
    pub policy: Policy,
    /// The same in solo games.
    pub solo_policy: Policy,
    /// Order a node's candidates with the policy's positional features too (`aim`); false:
    /// only the playouts use them (a new node's ~60 placements are rated without them).
    pub tree_positional: bool,
    /// In playouts, take the intermezzo choice when what the reveal may bring (each tile the
    /// top of the pile may be, by its back, placed at its best) is worth more on average than
    /// the offer's last tile placed at its best, plus this for the tile that goes to storage;
    /// `None`: by the policy's value for the intermezzo choice, or for the hand-set policy in
    /// one playout step of 8 where it is open, whatever the tiles (`mcts-2026`'s way).
    pub intermezzo_reveal: Option<f32>,
    /// In games of 2 to 4 players, a playout stops after this many steps and the position is
    /// valued by `value` instead of by its end (0: every playout is played to the end).
    pub playout_depth: usize,
    /// The same for the standard solo game (`solo-all` playouts are always played out).
    pub solo_playout_depth: usize,
    /// The evaluation a cut playout ends with (`value`; `sagani train --value`).
    pub value: Value,
    /// Keep the tree after a decision and search on from the node the game reached, when the
    /// bot is told the moves played (`Bot::observe`; the arena tells, a server's bots are
    /// made afresh for each decision).
    pub reuse: bool,
    /// Solo: the tree's root placements are tried on common guesses of the pile, the k-th
    /// visit of each on the k-th guess, so that the luck of the draw drops out of their
    /// comparison, while the tree below still plays the tiles that come.
    pub solo_paired: bool,
    /// Solo: a cut playout (or a leaf) is valued by this value learned by temporal
    /// differences (`td`, `sagani train --td`) instead of by `value`, after `solo_td_depth`
    /// steps instead of `solo_playout_depth`.
    pub solo_td: Option<std::sync::Arc<crate::td::Td>>,
    /// With `solo_td`: a solo playout's steps before the value ends it (0: the leaf itself).
    pub solo_td_depth: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            threads: std::thread::available_parallelism().map_or(2, |n| n.get().min(8)),
            // One tree of 1.6 times the iterations did no better than two (2 players at
            // 250 ms: 90 pairs 20 won, 50 split, 20 lost; solo at 1 s: 84 of 100 symphonies).
            shared_tree: false,
            exploration: 0.4,
            widening: 1.0,
            candidates: 48,
            // Every placement weighed in every playout step, as in solo: half the iterations
            // of 6 random ones, and much better games (SPRT against mcts-2026 at 100 and
            // 250 ms: H1 after 9 pairs, 16 of 18 games won; docs/research/bots.md).
            playout_samples: 0,
            solo_playout_samples: 0,
            default_time: Duration::from_millis(1000),
            // Solo symphonies on 100 decks at 250 ms: 81% with it, 73% without.
            symphony_bonus: 0.4,
            // Fitted by `sagani train` (docs/research/bots.md): SPRT against the hand-set one at
            // 250 ms, H1 after 58 pairs, Elo +92 [+36, +153].
            policy: Policy::trained().clone(),
            // Tuned by its own solo games (`sagani train --solo`), with the solo evaluation
            // fitted to it: at 1 s, 88% symphonies on 100 decks (mean tiles 22.84) against
            // 81% (23.06) with the policy above, and 87% (23.02) against 80% (23.32) on 100
            // others (docs/research/bots.md).
            solo_policy: Policy::solo_trained().clone(),
            tree_positional: true,
            // SPRT against mcts without it at 250 ms: H1 after 71 pairs, Elo +90 [+36, +149].
            reuse: true,
            intermezzo_reveal: None,
            // Cut playouts valued by the fitted evaluation: SPRT against whole playouts at
            // 250 ms, H1 after 33 pairs, Elo +228 [+122, +395]; 16 steps lost to 8 (-120).
            playout_depth: 8,
            // Solo, 100 decks at 250 ms: symphonies 85% at 14 steps, 79% at 8, 77% played
            // out, mean tiles to 75 23.2, 23.3, 23.7 (docs/research/bots.md).
            solo_playout_depth: 14,
            value: Value::trained().clone(),
            // At 5,000 iterations a move, 0.31 tiles fewer to 75 over 600 decks (standard
            // error 0.095) at the same speed; at 1 s within the spread (docs/research/bots.md).
            solo_paired: true,
            // At 5,000 iterations 0.32 tiles fewer to 75 than the evaluation after 14 steps,
            // at 1.75 times the speed, but at 1 s no better (docs/research/bots.md): an option.
            solo_td: None,
            solo_td_depth: 4,
        }
    }
}

impl MctsConfig {
    /// The playouts' samples for the game's player count.
    pub fn playout_samples_for(&self, g: &Game) -> usize {
        if g.players() == 1 {
            self.solo_playout_samples
        } else {
            self.playout_samples
        }
    }

    /// The policy for the game's player count.
    pub fn policy_for(&self, g: &Game) -> &Policy {
        if g.players() == 1 {
            &self.solo_policy
        } else {
            &self.policy
        }
    }

    /// Sets each of `NAME=VALUE/NAME=VALUE/…` (as in `mcts/policy=runs/p.json/reuse=true`): a
    /// part without `=` belongs to the value before it, so that paths keep their slashes.
    pub fn set_all(&mut self, settings: &str) -> Result<(), SettingError> {
        Self::split_settings(settings)
            .iter()
            .try_for_each(|p| self.set(p))
    }

    /// `NAME=VALUE/NAME=VALUE/…` as its settings: a part without `=` belongs to the value
    /// before it, so that paths keep their slashes.
    pub fn split_settings(settings: &str) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        for part in settings.split('/') {
            match parts.last_mut() {
                Some(last) if !part.contains('=') => {
                    last.push('/');
                    last.push_str(part);
                }
                _ => parts.push(part.to_string()),
            }
        }
        parts
    }

    /// Sets one setting from `NAME=VALUE` (for tuning from the command line).
    pub fn set(&mut self, setting: &str) -> Result<(), SettingError> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| SettingError::NotNameValue(setting.to_string()))?;
        let bad = |e: Box<dyn std::error::Error + Send + Sync>| SettingError::BadValue {
            setting: setting.to_string(),
            source: e,
        };
        match name.trim() {
            "exploration" => self.exploration = parsed(setting, value)?,
            "widening" => self.widening = parsed(setting, value)?,
            "candidates" => self.candidates = parsed(setting, value)?,
            "playout_samples" => self.playout_samples = parsed(setting, value)?,
            "solo_playout_samples" => self.solo_playout_samples = parsed(setting, value)?,
            "symphony_bonus" => self.symphony_bonus = parsed(setting, value)?,
            "reuse" => self.reuse = parsed(setting, value)?,
            "shared_tree" => self.shared_tree = parsed(setting, value)?,
            "tree_positional" => self.tree_positional = parsed(setting, value)?,
            "playout_depth" => self.playout_depth = parsed(setting, value)?,
            "solo_playout_depth" => self.solo_playout_depth = parsed(setting, value)?,
            "value" => {
                self.value = match value {
                    "trained" => Value::trained().clone(),
                    path => Value::load(path).map_err(|e| bad(e.into()))?,
                }
            }
            "intermezzo_reveal" => {
                self.intermezzo_reveal = match value {
                    "off" => None,
                    v => Some(parsed(setting, v)?),
                }
            }
            "solo_paired" => self.solo_paired = parsed(setting, value)?,
            "solo_td" => {
                self.solo_td = match value {
                    "none" => None,
                    "trained" => Some(crate::td::Td::trained().clone()),
                    path => Some(std::sync::Arc::new(
                        crate::td::Td::load(path).map_err(|e| bad(e.into()))?,
                    )),
                }
            }
            "solo_td_depth" => self.solo_td_depth = parsed(setting, value)?,
            "policy" => self.policy = Policy::named(value).map_err(|e| bad(e.into()))?,
            "solo_policy" => self.solo_policy = Policy::named(value).map_err(|e| bad(e.into()))?,
            other => return Err(SettingError::Unknown(other.to_string())),
        }
        Ok(())
    }
}
