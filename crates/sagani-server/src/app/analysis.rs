//! "What would the engine do?": the best moves at a position, rated by a search that sees only
//! what the seat to act could see then (its view: never the draw pile's order). The search
//! waits its turn in the slow lane of the bot scheduler and keeps to a bounded budget.

use super::App;
use crate::error::{ApiError, ErrorCode};
use crate::scheduler::{Study, Work};
use sagani_ai::sampler::PileSampler;
use sagani_ai::{Analysis, Bot, Budget, Mcts, MctsConfig};
use sagani_core::record::Record;
use sagani_core::{Expect, Game, Move, Preview};
use std::time::Duration;

/// Moves listed at most.
pub const TOP: usize = 5;
/// The search's seed: the same position and budget get the same answer, whoever asks.
const SEED: u64 = 1;

/// One move as the engine rates it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    pub mv: Move,
    /// The acting seat's expected return (0 to 1), higher is better.
    pub value: f64,
    /// The search's playouts through it.
    pub visits: u64,
    /// What a placement does at once.
    pub effect: Option<Preview>,
    /// Why, in one line of plain English.
    pub reason: String,
}

/// The engine's answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysed {
    pub at: u64,
    pub seat: u8,
    pub decision: Expect,
    pub moves: Vec<Rated>,
    pub budget_ms: u64,
    pub iterations: u64,
}

/// The position of `record` after its first `at` moves.
pub fn position(record: &Record, at: u64) -> Result<Game, ApiError> {
    let len = record.moves.len() as u64;
    if at > len {
        return Err(ApiError::bad_request(format!(
            "at {at}: the game has only {len} moves (at counts the moves already made, 0 to {len})"
        )));
    }
    let mut first = record.clone();
    first.moves.truncate(at as usize);
    first
        .replay()
        .map_err(|e| ApiError::bad_request(format!("record: {e}")))
}

impl App {
    /// The best moves for whoever acts in `game` (the position after `at` moves), searched for
    /// `client` in its turn among the bots.
    pub async fn analyse(&self, game: Game, at: u64, client: &str) -> Result<Analysed, ApiError> {
        let (Some(seat), Some(decision)) = (game.to_act(), game.expects()) else {
            return Err(ApiError::bad_request(format!(
                "at {at}: the game is over, nobody acts"
            )));
        };
        let view = game.view(Some(seat));
        let legal = game.legal_moves();
        // From here on only the seat's view is used (`game` is not): the position rebuilt from
        // it, with some draw order it allows, words the moves' effects, so nothing hidden can
        // leak into them.
        let public = PileSampler::new(&view)
            .any_game(&view)
            .map_err(|e| ApiError::new(ErrorCode::Internal, format!("the view: {e}")))?;
        let budget = Budget {
            time: Some(Duration::from_millis(self.config.analysis_ms.max(1))),
            iterations: self.config.analysis_iterations,
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let run = Box::new(move || {
            // Nobody waits for it any more (the client hung up): no search.
            if tx.is_closed() {
                return;
            }
            let mut bot = Mcts::new(
                SEED,
                MctsConfig {
                    threads: 1,
                    ..MctsConfig::default()
                },
            );
            let rated: Vec<Analysis> = bot.analyse(&view, &legal, budget, TOP);
            let _ = tx.send((rated, bot.last.iterations));
        });
        self.lanes.slow.push(Work::Study(Study {
            id: crate::secret::random_hex(8),
            client: client.to_string(),
            run,
        }));
        let (rated, iterations) = rx.await.map_err(|_| {
            ApiError::new(ErrorCode::Internal, "the analysis failed on this position")
        })?;
        let moves = rated
            .into_iter()
            .map(|a| Rated {
                mv: a.mv,
                value: if a.value.is_finite() { a.value } else { 0.0 },
                visits: a.visits,
                effect: public.preview(a.mv).ok(),
                reason: sagani_ai::explain::reason(&public, a.mv, Some(&a)),
            })
            .collect();
        Ok(Analysed {
            at,
            seat,
            decision,
            moves,
            budget_ms: self.config.analysis_ms.max(1),
            iterations,
        })
    }
}
