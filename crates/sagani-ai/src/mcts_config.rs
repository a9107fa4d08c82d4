//! What `mcts` searches with: its settings, each with the measure that chose its default.

use crate::policy::Policy;
use crate::value::Value;
use sagani_core::Game;
use serde::Deserialize;
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
    /// The name is none of [`Settings`]' fields; serde's message lists them.
    #[error("{name:?} is not an mcts setting: {source}")]
    Unknown {
        name: String,
        #[source]
        source: serde_json::Error,
    },
}

/// The settings a caller may change, by name (`NAME=VALUE`), read by serde: a value is a
/// number, `true` or `false`, or a word (`trained`, `off`, `none`, a file's path).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    exploration: Option<f32>,
    widening: Option<f32>,
    candidates: Option<usize>,
    playout_samples: Option<usize>,
    solo_playout_samples: Option<usize>,
    symphony_bonus: Option<f32>,
    reuse: Option<bool>,
    shared_tree: Option<bool>,
    tree_positional: Option<bool>,
    playout_depth: Option<usize>,
    solo_playout_depth: Option<usize>,
    /// `trained` or a file.
    value: Option<String>,
    /// `off` or a margin.
    intermezzo_reveal: Option<Reveal>,
    solo_paired: Option<bool>,
    /// `none`, `trained` or a file.
    solo_td: Option<String>,
    solo_td_depth: Option<usize>,
    /// `trained`, `solo-trained`, `hand` or a file.
    policy: Option<String>,
    solo_policy: Option<String>,
}

/// `intermezzo_reveal`: a margin, or `off`.
#[derive(Deserialize)]
#[serde(untagged, expecting = "a number (the margin) or off")]
enum Reveal {
    Margin(f32),
    Word(Off),
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Off {
    Off,
}

impl Settings {
    fn one(name: &str, value: serde_json::Value) -> Result<Settings, serde_json::Error> {
        let mut map = serde_json::Map::new();
        map.insert(name.to_string(), value);
        serde_json::from_value(serde_json::Value::Object(map))
    }

    /// The one setting `name` holds `value`: as a number or truth where it reads as one (as
    /// Rust reads them: `.5`, `007`), else as a word (so that a file named `7` is still a file).
    fn read(name: &str, value: &str) -> Result<Settings, serde_json::Error> {
        let word = serde_json::Value::String(value.to_string());
        let v = value.trim();
        let typed = if let Ok(i) = v.parse::<i64>() {
            Some(serde_json::Value::from(i))
        } else if let Ok(u) = v.parse::<u64>() {
            Some(serde_json::Value::from(u))
        } else if let Ok(b) = v.parse::<bool>() {
            Some(serde_json::Value::from(b))
        } else {
            v.parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(serde_json::Value::Number)
        };
        match typed {
            Some(t) => {
                Settings::one(name, t).or_else(|first| Settings::one(name, word).map_err(|_| first))
            }
            None => Settings::one(name, word),
        }
    }
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
        let name = name.trim();
        let bad = |e: Box<dyn std::error::Error + Send + Sync>| SettingError::BadValue {
            setting: setting.to_string(),
            source: e,
        };
        // Every field is optional, so a name with no value is read only when it is a field.
        if let Err(source) = Settings::one(name, serde_json::Value::Null) {
            return Err(SettingError::Unknown {
                name: name.to_string(),
                source,
            });
        }
        let s = Settings::read(name, value).map_err(|e| bad(e.into()))?;
        fn set<T>(to: &mut T, v: Option<T>) {
            if let Some(v) = v {
                *to = v;
            }
        }
        set(&mut self.exploration, s.exploration);
        set(&mut self.widening, s.widening);
        set(&mut self.symphony_bonus, s.symphony_bonus);
        set(&mut self.candidates, s.candidates);
        set(&mut self.playout_samples, s.playout_samples);
        set(&mut self.solo_playout_samples, s.solo_playout_samples);
        set(&mut self.playout_depth, s.playout_depth);
        set(&mut self.solo_playout_depth, s.solo_playout_depth);
        set(&mut self.solo_td_depth, s.solo_td_depth);
        set(&mut self.reuse, s.reuse);
        set(&mut self.shared_tree, s.shared_tree);
        set(&mut self.tree_positional, s.tree_positional);
        set(&mut self.solo_paired, s.solo_paired);
        if let Some(v) = s.value {
            self.value = match v.as_str() {
                "trained" => Value::trained().clone(),
                path => Value::load(path).map_err(|e| bad(e.into()))?,
            };
        }
        if let Some(r) = s.intermezzo_reveal {
            self.intermezzo_reveal = match r {
                Reveal::Word(Off::Off) => None,
                Reveal::Margin(m) => Some(m),
            };
        }
        if let Some(v) = s.solo_td {
            self.solo_td = match v.as_str() {
                "none" => None,
                "trained" => Some(crate::td::Td::trained().clone()),
                path => Some(std::sync::Arc::new(
                    crate::td::Td::load(path).map_err(|e| bad(e.into()))?,
                )),
            };
        }
        if let Some(v) = s.policy {
            self.policy = Policy::named(&v).map_err(|e| bad(e.into()))?;
        }
        if let Some(v) = s.solo_policy {
            self.solo_policy = Policy::named(&v).map_err(|e| bad(e.into()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_by_their_types() {
        let mut cfg = MctsConfig::default();
        cfg.set_all("candidates=12/reuse=false/intermezzo_reveal=1.5/exploration=0.25")
            .unwrap();
        assert_eq!(
            (
                cfg.candidates,
                cfg.reuse,
                cfg.intermezzo_reveal,
                cfg.exploration
            ),
            (12, false, Some(1.5), 0.25)
        );
        // Numbers as Rust reads them.
        cfg.set_all("exploration=.5/candidates=007").unwrap();
        assert_eq!((cfg.exploration, cfg.candidates), (0.5, 7));
        cfg.set("intermezzo_reveal=off").unwrap();
        assert_eq!(cfg.intermezzo_reveal, None);
        cfg.set("solo_td=trained").unwrap();
        assert!(cfg.solo_td.is_some());
        cfg.set("solo_td=none").unwrap();
        assert!(cfg.solo_td.is_none());
    }

    #[test]
    fn a_wrong_setting_says_what_and_changes_nothing() {
        let mut cfg = MctsConfig::default();
        let e = cfg.set("candidates=-3").unwrap_err();
        assert!(matches!(e, SettingError::BadValue { .. }), "{e}");
        assert!(e.to_string().contains("\"candidates=-3\""), "{e}");
        let e = cfg.set("reuse=maybe").unwrap_err().to_string();
        assert!(e.contains("expected a boolean"), "{e}");
        let e = cfg.set("intermezzo_reveal=on").unwrap_err();
        assert!(matches!(e, SettingError::BadValue { .. }), "{e}");
        assert!(
            e.to_string().contains("a number (the margin) or off"),
            "{e}"
        );
        // A file named like a number is a file still.
        let e = cfg.set("policy=7").unwrap_err().to_string();
        assert!(e.contains("\"policy=7\""), "{e}");
        let e = cfg.set("speed=3").unwrap_err().to_string();
        assert!(e.contains("\"speed\" is not an mcts setting"), "{e}");
        assert!(
            e.contains("exploration") && e.contains("solo_td_depth"),
            "{e}"
        );
        assert!(matches!(
            cfg.set("reuse"),
            Err(SettingError::NotNameValue(_))
        ));
        assert_eq!(cfg.candidates, MctsConfig::default().candidates);
        assert!(cfg.reuse);
    }
}
