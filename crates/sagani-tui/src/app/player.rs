//! Who plays each seat, and what the game is handed when it starts: where `q` saves, the seed,
//! the bots' pace, the clock.

use crate::clock::Clock;
use sagani_ai::{Bot, Budget};
use std::path::PathBuf;
use std::time::Duration;

/// Who plays a seat.
pub enum Player {
    Human {
        name: String,
    },
    Bot {
        /// The bot's name in records (`mcts`, `greedy`, an engine's NAME).
        name: String,
        /// `None` while it thinks on its own thread.
        bot: Option<Box<dyn Bot>>,
        budget: Budget,
    },
    /// Played elsewhere: at a table on a server, by a person in a browser or the server's bot.
    Remote,
}

impl Player {
    pub fn human(name: impl Into<String>) -> Player {
        Player::Human { name: name.into() }
    }

    pub fn bot(name: impl Into<String>, bot: Box<dyn Bot>, budget: Budget) -> Player {
        Player::Bot {
            name: name.into(),
            bot: Some(bot),
            budget,
        }
    }

    pub(crate) fn is_human(&self) -> bool {
        matches!(self, Player::Human { .. })
    }

    /// What the saved game says about the seat.
    pub(crate) fn kind(&self) -> String {
        match self {
            Player::Human { .. } => "human".to_string(),
            Player::Bot { name, .. } => name.clone(),
            Player::Remote => "remote".to_string(),
        }
    }
}

pub struct Options {
    /// Where `q` saves the game.
    pub save_to: SaveTo,
    /// The seed of the bots (kept in the saved game).
    pub seed: u64,
    /// The least time between a bot's move and the one before, so a person can follow.
    pub bot_pace: Duration,
    /// Where the game reads the time: `WallClock` at the terminal, a `HandClock` in tests.
    pub clock: Box<dyn Clock>,
}

/// Where `q` saves the game.
#[derive(Clone, Debug)]
pub enum SaveTo {
    /// This file, replaced if it exists (given with --save, or a game `sagani play` saved).
    File(PathBuf),
    /// A new file in this folder, named when saving so that no other file is overwritten:
    /// `sagani-game.json`, `sagani-game-2.json`, …
    NewIn(PathBuf),
}
