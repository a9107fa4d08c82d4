//! Who plays a seat: a built-in bot or an engine (`--engine NAME=COMMAND`), and its budget.

use sagani_ai::engine::EngineBot;
use sagani_ai::{make_bot, Bot, Budget, BOT_NAMES};
use std::time::Duration;

#[derive(clap::Args, Clone, Debug)]
pub struct Roster {
    /// Thinking time per decision, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    budget_ms: u64,
    /// MCTS iterations per decision instead of a time limit (repeatable results).
    #[arg(long)]
    iterations: Option<u64>,
    /// An engine speaking docs/engine-protocol.md, as NAME=COMMAND (repeatable); NAME can then
    /// be used like a bot name. The command is split on spaces, without shell quoting.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    engines: Vec<String>,
}

/// A seed for one seat of one game, spread out so that nearby games share nothing.
pub fn bot_seed(seed: u64, game: u64, seat: u64) -> u64 {
    let mut z =
        seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seat.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Roster {
    pub fn budget(&self) -> Budget {
        match self.iterations {
            Some(n) => Budget::iterations(n),
            None => Budget::millis(self.budget_ms),
        }
    }

    fn engine(&self, name: &str) -> Result<Option<&str>, String> {
        for e in &self.engines {
            let Some((n, cmd)) = e.split_once('=') else {
                return Err(format!("--engine {e:?} must be NAME=COMMAND"));
            };
            if n == name {
                return Ok(Some(cmd));
            }
        }
        Ok(None)
    }

    /// Checks that every name is a bot or an engine before a match starts.
    pub fn check(&self, names: &[String]) -> Result<(), String> {
        for e in &self.engines {
            match e.split_once('=') {
                Some((n, cmd)) if !n.is_empty() && !cmd.trim().is_empty() => {
                    if BOT_NAMES.contains(&n) {
                        return Err(format!("engine name {n:?} is a built-in bot's name"));
                    }
                }
                _ => return Err(format!("--engine {e:?} must be NAME=COMMAND")),
            }
        }
        for n in names {
            if !BOT_NAMES.contains(&n.as_str()) && self.engine(n)?.is_none() {
                return Err(format!(
                    "unknown bot {n:?}; use {} or a NAME given with --engine NAME=COMMAND",
                    BOT_NAMES.join(", ")
                ));
            }
        }
        Ok(())
    }

    pub fn make(&self, name: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
        match self.engine(name)? {
            Some(cmd) => Ok(Box::new(EngineBot::new(
                name,
                cmd,
                seed,
                Duration::from_millis(self.budget_ms),
            ))),
            None => make_bot(name, seed),
        }
    }
}
