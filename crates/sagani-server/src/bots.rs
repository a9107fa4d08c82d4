//! Bots at the table: which bots there are, how long each level thinks, and one decision on a
//! blocking thread. The search checks its own budget, so a decision ends on time and the
//! scheduler's workers really bound the CPU the bots take.

use sagani_ai::{Bot, Budget, Mcts, MctsConfig, BOT_NAMES};
use sagani_core::view::View;
use sagani_core::Move;
use std::sync::Arc;

pub const DEFAULT_LEVEL: u8 = 4;

/// How long a bot of `level` may think under the server's limit `think_ms`. The levels keep
/// to budgets of their own (`sagani_ai::levels`: search iterations, not time), so their
/// strength does not depend on how busy the server is; the limit only cuts a decision short
/// on a server too busy to give a search its iterations in time.
pub fn level_ms(level: u8, think_ms: u64) -> u64 {
    match sagani_ai::levels::level(level).map(|l| l.play.iterations()) {
        Ok(Some(_)) => think_ms.max(1),
        // The other levels answer at once.
        _ => think_ms.clamp(1, 500),
    }
}

/// Checks a bot seat's request and gives its level (1 for bots without levels).
pub fn check(bot: &str, level: Option<u8>) -> Result<u8, String> {
    if !BOT_NAMES.contains(&bot) {
        return Err(format!(
            "unknown bot {bot:?}; the bots are {}",
            BOT_NAMES.join(", ")
        ));
    }
    let top = sagani_ai::levels::LEVELS;
    match (bot, level) {
        ("mcts", None) => Ok(DEFAULT_LEVEL),
        ("mcts", Some(l)) if (1..=top).contains(&l) => Ok(l),
        ("mcts", Some(l)) => Err(format!("mcts levels are 1 to {top}, not {l}")),
        (_, None) => Ok(1),
        (_, Some(_)) => Err(format!("{bot} has no levels (only mcts has)")),
    }
}

/// A bot as a command line names it: `greedy`, `random`, `mcts` or `mcts:LEVEL`.
pub fn parse_spec(spec: &str) -> Result<(String, u8), String> {
    let (bot, level) = match spec.split_once(':') {
        Some((bot, level)) => {
            let level = level.parse::<u8>().map_err(|_| {
                format!(
                    "{spec:?}: the level after ':' is a number 1 to {}",
                    sagani_ai::levels::LEVELS
                )
            })?;
            (bot, Some(level))
        }
        None => (spec, None),
    };
    check(bot, level).map(|level| (bot.to_string(), level))
}

/// The name `make_bot` knows a seat's bot by: a level of the ladder for mcts.
pub fn bot_name(bot: &str, level: u8) -> String {
    if bot == "mcts" {
        format!("mcts:{level}")
    } else {
        bot.to_string()
    }
}

/// Searching bots think long; the others answer at once and get a queue of their own.
pub fn is_slow(bot: &str, level: u8) -> bool {
    bot == "mcts"
        && matches!(
            sagani_ai::levels::level(level).map(|l| l.play.iterations()),
            Ok(Some(_))
        )
}

/// Makes a bot by name with a seed (tests hand in their own, e.g. one that panics).
pub type BotMaker = Arc<dyn Fn(&str, u64) -> Box<dyn Bot> + Send + Sync>;

/// The bots by the names `bot_name` gives: the ladder's levels (each on one thread: the
/// scheduler runs several decisions side by side), greedy, random.
pub fn standard_maker() -> BotMaker {
    Arc::new(|bot: &str, seed: u64| match bot {
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
        maker(&bot_name(&job.bot, job.level), job.seed)
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
        assert_eq!(check("mcts", None), Ok(DEFAULT_LEVEL));
        assert_eq!(check("mcts", Some(8)), Ok(8));
        assert!(check("mcts", Some(0)).unwrap_err().contains("1 to 8"));
        assert!(check("mcts", Some(9)).unwrap_err().contains("1 to 8"));
        assert_eq!(check("greedy", None), Ok(1));
        assert!(check("greedy", Some(2)).unwrap_err().contains("no levels"));
        assert!(check("alphazero", None)
            .unwrap_err()
            .contains("unknown bot"));
    }

    #[test]
    fn searching_levels_may_think_to_the_limit_and_the_others_answer_at_once() {
        assert_eq!(level_ms(8, 2000), 2000);
        assert_eq!(level_ms(5, 700), 700);
        assert!(level_ms(1, 2000) <= 500 && level_ms(4, 2000) <= 500);
        assert_eq!(level_ms(1, 1), 1, "never zero");
        assert!(is_slow("mcts", 8) && is_slow("mcts", 5));
        assert!(!is_slow("mcts", 4) && !is_slow("greedy", 1));
        assert_eq!(bot_name("mcts", 3), "mcts:3");
        assert_eq!(bot_name("greedy", 1), "greedy");
    }
}
