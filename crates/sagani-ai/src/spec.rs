//! A bot by its name, read once: `random`, `greedy`, `mcts` (the search, with settings after
//! `/` for tuning), `mcts:LEVEL` (a level of the ladder) or `mcts-2026` (the frozen baseline).
//! The command line, a server's tables and the terminal all name bots this way.

use crate::levels::{level, level_bot, NoSuchLevel, LEVELS};
use crate::mcts_config::SettingError;
use crate::{Bot, Config2026, Greedy, Mcts, Mcts2026, MctsConfig, RandomBot};
use std::fmt;
use std::str::FromStr;

/// The built-in bots by name.
pub const BOT_NAMES: [&str; 3] = ["random", "greedy", "mcts"];

/// A built-in bot, as named.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    Random,
    Greedy,
    /// The search at the caller's budget, with these `NAME=VALUE` settings over its defaults
    /// (`mcts/NAME=VALUE/…`).
    Mcts(Vec<String>),
    /// A level of the ladder, 1 to `LEVELS`, with its own budget.
    Level(u8),
    /// The frozen baseline every change to mcts is measured against (not at tables).
    Mcts2026,
}

/// Why a name is no bot.
#[derive(Debug, thiserror::Error)]
pub enum BotSpecError {
    #[error("{0:?}: the level after ':' is a number 1 to {LEVELS}")]
    LevelNotANumber(String),
    #[error(transparent)]
    NoSuchLevel(#[from] NoSuchLevel),
    #[error(
        "unknown bot {0:?}; the built-in bots are {names}, mcts:LEVEL (1 to {LEVELS}) and mcts-2026",
        names = BOT_NAMES.join(", ")
    )]
    Unknown(String),
    /// A setting after `mcts/` that mcts does not take.
    #[error(transparent)]
    Setting(#[from] SettingError),
}

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(name: &str) -> Result<BotSpec, BotSpecError> {
        if let Some(n) = name.strip_prefix("mcts:") {
            let n: u8 = n
                .parse()
                .map_err(|_| BotSpecError::LevelNotANumber(name.to_string()))?;
            level(n)?;
            return Ok(BotSpec::Level(n));
        }
        if let Some(settings) = name.strip_prefix("mcts/") {
            let settings = MctsConfig::split_settings(settings);
            let mut cfg = MctsConfig::default();
            for s in &settings {
                cfg.set(s)?;
            }
            return Ok(BotSpec::Mcts(settings));
        }
        match name {
            "random" => Ok(BotSpec::Random),
            "greedy" => Ok(BotSpec::Greedy),
            "mcts" => Ok(BotSpec::Mcts(Vec::new())),
            "mcts-2026" => Ok(BotSpec::Mcts2026),
            _ => Err(BotSpecError::Unknown(name.to_string())),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Mcts(settings) if settings.is_empty() => f.write_str("mcts"),
            BotSpec::Mcts(settings) => write!(f, "mcts/{}", settings.join("/")),
            BotSpec::Level(n) => write!(f, "mcts:{n}"),
            BotSpec::Mcts2026 => f.write_str("mcts-2026"),
        }
    }
}

/// What a caller may change of the searches it makes: their threads, and settings of `mcts`
/// (before the name's own).
#[derive(Clone, Debug, Default)]
pub struct Tuning {
    pub threads: Option<usize>,
    pub mcts: Vec<String>,
}

impl BotSpec {
    /// The bot, seeded, with its defaults.
    pub fn bot(&self, seed: u64) -> Box<dyn Bot> {
        self.tuned(seed, &Tuning::default())
            .expect("a parsed name's settings were checked")
    }

    /// The bot, seeded, its search tuned; a level and the simple bots ignore the tuning.
    pub fn tuned(&self, seed: u64, tuning: &Tuning) -> Result<Box<dyn Bot>, BotSpecError> {
        Ok(match self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Greedy => Box::new(Greedy::new(seed)),
            BotSpec::Level(n) => level_bot(*n, seed)?,
            BotSpec::Mcts(settings) => {
                let mut cfg = MctsConfig::default();
                if let Some(t) = tuning.threads {
                    cfg.threads = t;
                }
                for s in tuning.mcts.iter().chain(settings) {
                    cfg.set(s)?;
                }
                Box::new(Mcts::new(seed, cfg))
            }
            BotSpec::Mcts2026 => {
                let mut cfg = Config2026::default();
                if let Some(t) = tuning.threads {
                    cfg.threads = t;
                }
                Box::new(Mcts2026::new(seed, cfg))
            }
        })
    }
}

/// Makes a built-in bot by name, seeded, with its defaults.
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot>, BotSpecError> {
    name.parse::<BotSpec>().map(|spec| spec.bot(seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_as_they_are_written() {
        for name in [
            "random",
            "greedy",
            "mcts",
            "mcts:1",
            "mcts:8",
            "mcts-2026",
            "mcts/reuse=false",
        ] {
            let spec: BotSpec = name.parse().unwrap();
            assert_eq!(spec.to_string(), name);
        }
        let paths: BotSpec = "mcts/policy=hand/value=trained".parse().unwrap();
        assert_eq!(
            paths,
            BotSpec::Mcts(vec!["policy=hand".into(), "value=trained".into()])
        );
    }

    #[test]
    fn wrong_names_say_what_is_wrong() {
        let err = |s: &str| s.parse::<BotSpec>().unwrap_err();
        assert!(matches!(
            err("mcts:9"),
            BotSpecError::NoSuchLevel(NoSuchLevel(9))
        ));
        assert!(matches!(
            err("mcts:0"),
            BotSpecError::NoSuchLevel(NoSuchLevel(0))
        ));
        assert_eq!(
            err("mcts:x").to_string(),
            "\"mcts:x\": the level after ':' is a number 1 to 8"
        );
        assert_eq!(
            err("alphazero").to_string(),
            "unknown bot \"alphazero\"; the built-in bots are random, greedy, mcts, mcts:LEVEL (1 to 8) and mcts-2026"
        );
        assert!(matches!(err("mcts/widening"), BotSpecError::Setting(_)));
        assert!(matches!(err("mcts/nonsense=1"), BotSpecError::Setting(_)));
    }
}
