//! Bots at the table: each decision runs on a blocking thread, a few at a time, within the
//! server's think-time limit, so bots never stall the server.

use sagani_ai::{Bot, Budget, Mcts, MctsConfig, BOT_NAMES};
use sagani_core::view::View;
use sagani_core::Move;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The think time of mcts levels 1 to 5, in milliseconds (capped by the server's limit).
pub const LEVEL_MS: [u64; 5] = [100, 300, 1000, 2000, 4000];
pub const DEFAULT_LEVEL: u8 = 3;

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

pub struct Job {
    pub bot: String,
    pub level: u8,
    pub view: View,
    pub legal: Vec<Move>,
    /// The server's limit.
    pub think: Duration,
    /// A fixed seed (`Config::deck_seed`); otherwise fresh randomness.
    pub seed: Option<u64>,
}

fn make(bot: &str, seed: u64) -> Box<dyn Bot> {
    match bot {
        // One thread per decision: several games share the machine.
        "mcts" => Box::new(Mcts::new(
            seed,
            MctsConfig {
                threads: 1,
                ..MctsConfig::default()
            },
        )),
        name => sagani_ai::make_bot(name, seed)
            .unwrap_or_else(|_| Box::new(sagani_ai::RandomBot::new(seed)) as Box<dyn Bot>),
    }
}

/// Extra time a bot gets beyond its budget before the server stops waiting for it.
const GRACE: Duration = Duration::from_secs(2);

/// The bot's move. Its seed is fresh randomness, unrelated to the deck (unless the server deals
/// from a seed). A bot that
/// overruns its budget by `GRACE` (or fails) gets a random legal move played for it.
pub async fn think(slots: &Semaphore, job: Job) -> Move {
    let _permit = slots.acquire().await;
    let seed = job.seed.unwrap_or_else(crate::secret::random_seed);
    let fallback = job.legal[(seed % job.legal.len() as u64) as usize];
    let level_ms = LEVEL_MS[(job.level.clamp(1, 5) - 1) as usize];
    let budget = Budget::millis(level_ms.min(job.think.as_millis() as u64));
    let limit = budget.time.unwrap_or_default() + GRACE;
    let thinking = tokio::task::spawn_blocking(move || {
        make(&job.bot, seed)
            .choose(&job.view, &job.legal, budget)
            .mv
    });
    match tokio::time::timeout(limit, thinking).await {
        Ok(Ok(mv)) => mv,
        Ok(Err(e)) => {
            tracing::error!("a bot failed: {e}");
            fallback
        }
        Err(_) => {
            tracing::warn!(
                "a bot overran its budget of {:?}",
                budget.time.unwrap_or_default()
            );
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
}
