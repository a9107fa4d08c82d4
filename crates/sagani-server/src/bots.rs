//! Bots at the table: which bots there are, how long each level thinks, and one decision on a
//! blocking thread. The search checks its own budget, so a decision ends on time and the
//! scheduler's workers really bound the CPU the bots take.

use sagani_ai::{Bot, BotSpec, BotSpecError, Budget, Tuning, BOT_NAMES};
use sagani_core::view::View;
use sagani_core::Move;
use std::sync::Arc;

/// An `mcts` seat without a level plays the level a newcomer meets everywhere.
pub const DEFAULT_LEVEL: u8 = sagani_ai::levels::DEFAULT_LEVEL;

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

/// Why a bot seat cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum BotSeatError {
    #[error("unknown bot {0:?}; the bots are {names}", names = BOT_NAMES.join(", "))]
    Unknown(String),
    #[error("mcts levels are 1 to {top}, not {0}", top = sagani_ai::levels::LEVELS)]
    NoSuchLevel(u8),
    #[error("{0} has no levels (only mcts has)")]
    NoLevels(String),
    #[error("{0:?}: the level after ':' is a number 1 to {top}", top = sagani_ai::levels::LEVELS)]
    LevelNotANumber(String),
    #[error(transparent)]
    Spec(#[from] BotSpecError),
}

/// Checks a bot seat's request and gives its level (1 for bots without levels).
pub fn check(bot: &str, level: Option<u8>) -> Result<u8, BotSeatError> {
    if !BOT_NAMES.contains(&bot) {
        return Err(BotSeatError::Unknown(bot.to_string()));
    }
    let top = sagani_ai::levels::LEVELS;
    match (bot, level) {
        ("mcts", None) => Ok(DEFAULT_LEVEL),
        ("mcts", Some(l)) if (1..=top).contains(&l) => Ok(l),
        ("mcts", Some(l)) => Err(BotSeatError::NoSuchLevel(l)),
        (_, None) => Ok(1),
        (_, Some(_)) => Err(BotSeatError::NoLevels(bot.to_string())),
    }
}

/// A bot as a command line names it: `greedy`, `random`, `mcts` or `mcts:LEVEL`.
pub fn parse_spec(spec: &str) -> Result<(String, u8), BotSeatError> {
    let (bot, level) = match spec.parse::<BotSpec>() {
        Ok(BotSpec::Level(n)) => ("mcts", Some(n)),
        Ok(_) => (spec, None),
        Err(BotSpecError::NoSuchLevel(n)) => return Err(BotSeatError::NoSuchLevel(n.0)),
        // A level after another bot's name: `check` says why it cannot be.
        Err(BotSpecError::Unknown(_)) => match spec.split_once(':') {
            Some((bot, level)) => match level.parse::<u8>() {
                Ok(level) => (bot, Some(level)),
                Err(_) => return Err(BotSeatError::LevelNotANumber(spec.to_string())),
            },
            None => (spec, None),
        },
        Err(e) => return Err(e.into()),
    };
    check(bot, level).map(|level| (bot.to_string(), level))
}

/// The bot `sagani_ai` knows a seat's bot by: a level of the ladder for mcts.
pub fn spec(bot: &str, level: u8) -> Result<BotSpec, BotSpecError> {
    if bot == "mcts" {
        Ok(BotSpec::Level(level))
    } else {
        bot.parse()
    }
}

/// The name `spec` knows a seat's bot by.
pub fn bot_name(bot: &str, level: u8) -> String {
    spec(bot, level).map_or_else(|_| bot.to_string(), |s| s.to_string())
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
/// scheduler runs several decisions side by side), greedy, random; a name that is no bot
/// plays at random.
pub fn standard_maker() -> BotMaker {
    let one_thread = Tuning {
        threads: Some(1),
        mcts: Vec::new(),
    };
    Arc::new(move |bot: &str, seed: u64| {
        bot.parse::<BotSpec>()
            .and_then(|spec| match spec {
                BotSpec::Mcts(_) => spec.tuned(seed, &one_thread),
                _ => Ok(spec.bot(seed)),
            })
            .unwrap_or_else(|_| Box::new(sagani_ai::RandomBot::new(seed)))
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
        let err = |bot, level| check(bot, level).unwrap_err().to_string();
        assert_eq!(check("mcts", None).unwrap(), DEFAULT_LEVEL);
        assert_eq!(check("mcts", Some(8)).unwrap(), 8);
        assert!(err("mcts", Some(0)).contains("1 to 8"));
        assert!(matches!(
            check("mcts", Some(9)),
            Err(BotSeatError::NoSuchLevel(9))
        ));
        assert_eq!(check("greedy", None).unwrap(), 1);
        assert!(err("greedy", Some(2)).contains("no levels"));
        assert!(matches!(
            check("alphazero", None),
            Err(BotSeatError::Unknown(_))
        ));
        assert!(err("alphazero", None).contains("unknown bot"));
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

    #[test]
    fn command_line_bots_are_read_as_sagani_ai_names_them() {
        assert_eq!(parse_spec("mcts:3").unwrap(), ("mcts".to_string(), 3));
        assert_eq!(
            parse_spec("mcts").unwrap(),
            ("mcts".to_string(), DEFAULT_LEVEL)
        );
        assert_eq!(parse_spec("greedy").unwrap(), ("greedy".to_string(), 1));
        let err = |s| parse_spec(s).unwrap_err().to_string();
        assert!(matches!(
            parse_spec("mcts:9"),
            Err(BotSeatError::NoSuchLevel(9))
        ));
        assert_eq!(err("mcts:9"), "mcts levels are 1 to 8, not 9");
        assert_eq!(
            err("mcts:x"),
            "\"mcts:x\": the level after ':' is a number 1 to 8"
        );
        assert_eq!(err("greedy:2"), "greedy has no levels (only mcts has)");
        assert!(err("mcts-2026").contains("unknown bot"));
        assert!(err("alphazero").contains("unknown bot"));
    }
}
