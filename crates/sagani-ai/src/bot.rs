//! The bot interface: a seat's view and the legal moves in, one move out.

use sagani_core::view::View;
use sagani_core::Move;
use std::time::Duration;

/// How long a bot may think about one decision. A bot stops at whichever limit comes first;
/// with neither, it uses its own default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    pub time: Option<Duration>,
    /// Search iterations (MCTS playouts); bots that do not search ignore it.
    pub iterations: Option<u64>,
}

impl Budget {
    pub fn millis(ms: u64) -> Budget {
        Budget {
            time: Some(Duration::from_millis(ms)),
            iterations: None,
        }
    }

    pub fn iterations(n: u64) -> Budget {
        Budget {
            time: None,
            iterations: Some(n),
        }
    }
}

/// A bot's choice, with an optional comment (shown in logs, not in records).
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub mv: Move,
    pub comment: Option<String>,
    /// Why the bot could not decide (an engine that crashed, stalled or answered nonsense);
    /// `mv` is then a random legal move chosen for it.
    pub fault: Option<String>,
    /// Why it chose the move, in one line of plain words (`explain::reason`), for people.
    pub reason: Option<String>,
}

impl From<Move> for Decision {
    fn from(mv: Move) -> Decision {
        Decision {
            mv,
            comment: None,
            fault: None,
            reason: None,
        }
    }
}

/// One move as a bot rates it: `value` is the bot's own scale (for `mcts` the expected return
/// of the player to act, 0 to 1; for `greedy` its evaluation), `visits` how often it was tried.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub mv: Move,
    pub value: f64,
    pub visits: u64,
}

/// A player. Deterministic: the same seed (given when the bot is made), the same views, moves
/// and an iteration budget give the same decisions. Time budgets make searches stop at
/// different points on different machines.
pub trait Bot: Send {
    fn name(&self) -> String;

    /// Chooses one of `legal` (never empty) for the seat `view` is for.
    fn choose(&mut self, view: &View, legal: &[Move], budget: Budget) -> Decision;

    /// Told every move played at the table, in order, its own included, once it is played:
    /// a bot that keeps what it searched follows the game with it (mcts's `reuse`). Callers
    /// that make a bot for each decision need not tell.
    fn observe(&mut self, seat: u8, mv: Move) {
        let _ = (seat, mv);
    }

    /// The moves the bot rates best, best first, at most `top` of them. Bots that do not rate
    /// moves list only their choice.
    fn analyse(
        &mut self,
        view: &View,
        legal: &[Move],
        budget: Budget,
        top: usize,
    ) -> Vec<Analysis> {
        let _ = top;
        let d = self.choose(view, legal, budget);
        vec![Analysis {
            mv: d.mv,
            value: f64::NAN,
            visits: 0,
        }]
    }
}
