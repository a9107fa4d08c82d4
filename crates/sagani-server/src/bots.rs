//! Bots at the table: which bots there are, how long each level thinks, and one decision on a
//! blocking thread. The search checks its own budget, so a decision ends on time and the
//! scheduler's workers really bound the CPU the bots take.

use sagani_ai::{Bot, Budget, Mcts, MctsConfig, BOT_NAMES};
use sagani_core::view::View;
use sagani_core::Move;
use std::sync::Arc;

/// The share of the server's think limit each mcts level takes, in twentieths: at the default
/// 2,000 ms, levels 1 to 5 think 100, 300, 700, 1,300 and 2,000 ms.
const LEVEL_TWENTIETHS: [u64; 5] = [1, 3, 7, 13, 20];
pub const DEFAULT_LEVEL: u8 = 3;

/// How long a bot of `level` thinks under the server's limit `think_ms`.
pub fn level_ms(level: u8, think_ms: u64) -> u64 {
    let share = LEVEL_TWENTIETHS[(level.clamp(1, 5) - 1) as usize];
    (think_ms * share / 20).max(1)
}

/// Checks a bot seat's request and gives its level (1 for bots without levels).
pub fn check(bot: &str, level: Option<u8>) -> Result<u8, String> {
    if !BOT_NAMES.contains(&bot) {
        return Err(format!(
            "unknown bot {bot:?}; the bots are {}",
            BOT_NAMES.join(", ")
        ));
    }
    match (bot, level) {
        ("mcts", None) => Ok(DEFAULT_LEVEL),
        ("mcts", Some(l)) if (1..=5).contains(&l) => Ok(l),
        ("mcts", Some(l)) => Err(format!("mcts levels are 1 to 5, not {l}")),
        (_, None) => Ok(1),
        (_, Some(_)) => Err(format!("{bot} has no levels (only mcts has)")),
    }
}

/// A bot as a command line names it: `greedy`, `random`, `mcts` or `mcts:LEVEL`.
pub fn parse_spec(spec: &str) -> Result<(String, u8), String> {
    let (bot, level) = match spec.split_once(':') {
        Some((bot, level)) => {
            let level = level
                .parse::<u8>()
                .map_err(|_| format!("{spec:?}: the level after ':' is a number 1 to 5"))?;
            (bot, Some(level))
        }
        None => (spec, None),
    };
    check(bot, level).map(|level| (bot.to_string(), level))
}

/// Searching bots think long; the others answer at once and get a queue of their own.
pub fn is_slow(bot: &str) -> bool {
    bot == "mcts"
}

/// Makes a bot by name with a seed (tests hand in their own, e.g. one that panics).
pub type BotMaker = Arc<dyn Fn(&str, u64) -> Box<dyn Bot> + Send + Sync>;

pub fn standard_maker() -> BotMaker {
    Arc::new(|bot: &str, seed: u64| match bot {
        // One thread per decision: the scheduler runs several decisions side by side.
        "mcts" => Box::new(Mcts::new(
            seed,
            MctsConfig {
                threads: 1,
                ..MctsConfig::default()
            },
        )) as Box<dyn Bot>,
        name => sagani_ai::make_bot(name, seed)
            .unwrap_or_else(|_| Box::new(sagani_ai::RandomBot::new(seed)) as Box<dyn Bot>),
    })
}

pub struct Job {
    pub bot: String,
    pub level: u8,
    pub view: View,
    pub legal: Vec<Move>,
    pub think_ms: u64,
    pub seed: u64,
}

/// The bot's move. A bot that fails (panics) gets a random legal move played for it.
pub async fn think(maker: BotMaker, job: Job) -> Move {
    let fallback = job.legal[(job.seed % job.legal.len() as u64) as usize];
    let budget = Budget::millis(level_ms(job.level, job.think_ms));
    let thinking = tokio::task::spawn_blocking(move || {
        maker(&job.bot, job.seed)
            .choose(&job.view, &job.legal, budget)
            .mv
    });
    match thinking.await {
        Ok(mv) => mv,
        Err(e) => {
            tracing::error!("a bot failed: {e}");
            fallback
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_requests_are_checked() {
        assert_eq!(check("mcts", None), Ok(3));
        assert_eq!(check("mcts", Some(5)), Ok(5));
        assert!(check("mcts", Some(0)).unwrap_err().contains("1 to 5"));
        assert_eq!(check("greedy", None), Ok(1));
        assert!(check("greedy", Some(2)).unwrap_err().contains("no levels"));
        assert!(check("alphazero", None)
            .unwrap_err()
            .contains("unknown bot"));
    }

    #[test]
    fn levels_think_different_times_under_the_default_limit() {
        let times: Vec<u64> = (1..=5).map(|l| level_ms(l, 2000)).collect();
        assert_eq!(times, [100, 300, 700, 1300, 2000]);
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(level_ms(5, 500), 500, "level 5 takes the whole limit");
        assert_eq!(level_ms(1, 1), 1, "never zero");
    }
}
