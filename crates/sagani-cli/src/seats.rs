//! Who plays a seat: a built-in bot or an engine (`--engine NAME=COMMAND`), and its budget.

use crate::error::CliError;
use indicatif::ProgressBar;
use sagani_ai::arena::play_counted;
use sagani_ai::engine::EngineBot;
use sagani_ai::{Bot, BotSpec, BotSpecError, Budget, Tuning, BOT_NAMES};
use sagani_core::record::RecordedGame;
use sagani_core::Setup;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Clone, Debug)]
pub struct Roster {
    /// Thinking time per decision, in milliseconds (at least 1; a level keeps to its own
    /// iterations within it).
    #[arg(long, default_value_t = 1000, value_parser = at_least_one)]
    budget_ms: u64,
    /// MCTS iterations per decision instead of a time limit (at least 1): results repeat
    /// exactly for the same seed, iterations and --threads.
    #[arg(long, value_parser = at_least_one)]
    iterations: Option<u64>,
    /// MCTS search threads (default: one per core), each growing its own tree
    /// (`mcts/shared_tree=true`: one tree when thinking by time).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// An engine speaking docs/engine-protocol.md, as NAME=COMMAND (repeatable); NAME can then
    /// be used like a bot name. The command is split on spaces, without shell quoting.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    engines: Vec<String>,
    /// A folder for the engines' standard error (`NAME.log`), instead of ours.
    #[arg(skip)]
    pub engine_logs: Option<PathBuf>,
    /// Settings of the `mcts` bot, for tuning it: comma-separated NAME=VALUE of exploration,
    /// widening, candidates, playout_samples, solo_playout_samples, symphony_bonus, policy
    /// and solo_policy (trained, solo-trained, hand or a file), reuse, shared_tree,
    /// tree_positional, intermezzo_reveal (off or a number), playout_depth, solo_playout_depth,
    /// value (trained or a file), solo_paired, solo_td (trained, none or a file) and
    /// solo_td_depth; see `MctsConfig` and docs/bots.md. A bot named `mcts/NAME=VALUE/…` gets those settings too,
    /// so two settings can meet in one match.
    #[arg(
        long,
        value_name = "NAME=VALUE,…",
        value_delimiter = ',',
        hide_short_help = true
    )]
    mcts_config: Vec<String>,
}

/// A count of at least 1 (`--budget-ms`, `--iterations`, `--games`), said as a person would.
pub fn at_least_one(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err("must be a whole number, at least 1".into()),
    }
}

/// The bots a seat may name, the levels among them, for the help of play, arena and hint.
pub fn bots_help(then: &str) -> String {
    format!(
        "Bots: random, greedy, mcts:LEVEL (a level of the ladder, docs/bots.md), mcts (the \
         full search on every core, at --budget-ms), mcts-2026 (the frozen baseline) or a NAME \
         given with --engine.\nLevels: {}; a newcomer starts at mcts:{}.\n\n{then}",
        sagani_ai::levels::ladder_words(),
        sagani_ai::levels::DEFAULT_LEVEL
    )
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

    fn engine(&self, name: &str) -> Result<Option<&str>, CliError> {
        for e in &self.engines {
            let Some((n, cmd)) = e.split_once('=') else {
                return Err(not_an_engine(e));
            };
            if n == name {
                return Ok(Some(cmd));
            }
        }
        Ok(None)
    }

    /// Checks that every name is a bot or an engine before a match starts.
    pub fn check(&self, names: &[String]) -> Result<(), CliError> {
        for e in &self.engines {
            match e.split_once('=') {
                Some((n, cmd)) if !n.is_empty() && !cmd.trim().is_empty() => {
                    if BOT_NAMES.contains(&n) {
                        return Err(CliError::Usage(format!(
                            "engine name {n:?} is a built-in bot's name"
                        )));
                    }
                }
                _ => return Err(not_an_engine(e)),
            }
        }
        for n in names {
            let spec = n.parse::<BotSpec>();
            if let Err(BotSpecError::Setting(e)) = spec {
                return Err(e.into());
            }
            if spec.is_err() && self.engine(n)?.is_none() {
                if n == "clairvoyant" {
                    return Err(CliError::Usage(
                        "clairvoyant knows the order of the draw pile, so it plays solo only: sagani solo --bot clairvoyant".into(),
                    ));
                }
                return Err(CliError::Usage(format!(
                    "unknown bot {n:?}; use {}, mcts:LEVEL (1 to 8), mcts-2026 or a NAME given with --engine NAME=COMMAND",
                    BOT_NAMES.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// Whether `--iterations` was given (rather than a time per decision).
    pub fn iterations(&self) -> Option<u64> {
        self.iterations
    }

    pub fn make(&self, name: &str, seed: u64) -> Result<Box<dyn Bot>, CliError> {
        match self.engine(name)? {
            Some(cmd) => {
                let bot = EngineBot::new(name, cmd, seed, Duration::from_millis(self.budget_ms));
                Ok(Box::new(match &self.engine_logs {
                    Some(dir) => bot.with_stderr_log(dir.join(format!("{name}.log"))),
                    None => bot,
                }))
            }
            None => {
                let tuning = Tuning {
                    threads: self.threads.map(usize::from),
                    mcts: self.mcts_config.clone(),
                };
                let spec: BotSpec = name.parse()?;
                Ok(spec.tuned(seed, &tuning)?)
            }
        }
    }
}

impl Roster {
    /// Plays game `i` of a run with the named bots in seat order, logging faults above the
    /// progress bar; gives each seat's faults too.
    pub fn play(
        &self,
        setup: &Setup,
        names: &[&str],
        seed: u64,
        i: u64,
        bar: &ProgressBar,
    ) -> Result<(RecordedGame, Vec<u64>), CliError> {
        let mut bots = names
            .iter()
            .enumerate()
            .map(|(s, name)| self.make(name, bot_seed(seed, i, s as u64)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut log = |line: String| bar.suspend(|| eprintln!("game {i}: {line}"));
        Ok(play_counted(
            setup,
            &mut bots,
            self.budget(),
            bot_seed(seed, i, 99),
            &mut log,
        )?)
    }
}

/// Writes record `dir/<n>.json`.
pub fn write_record(dir: &Path, n: u64, json: &str) -> Result<(), CliError> {
    let path = dir.join(format!("{n}.json"));
    std::fs::write(&path, json).map_err(CliError::io(format!("cannot write {}", path.display())))
}

/// Creates the records directory of a run, if one was asked for.
pub fn records_dir(dir: &Option<PathBuf>) -> Result<(), CliError> {
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(CliError::io(format!(
            "cannot create records directory {}",
            dir.display()
        )))?;
    }
    Ok(())
}

fn not_an_engine(e: &str) -> CliError {
    CliError::Usage(format!("--engine {e:?} must be NAME=COMMAND"))
}

/// The exit status of a command: an error is one line on standard error, `error: …`.
pub fn exit(result: Result<(), CliError>) -> ExitCode {
    exit_as(result, "error: ")
}

/// The exit status of a command that reads a record as `sagani replay` does: its error line
/// is replay's (`record: …`, `move N: …`).
pub fn exit_as_replay(result: Result<(), CliError>) -> ExitCode {
    exit_as(result, "")
}

fn exit_as(result: Result<(), CliError>, prefix: &str) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{prefix}{}", e.to_string().replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}
