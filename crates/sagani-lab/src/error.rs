//! Why games for training could not be played.

use sagani_core::{IllegalMove, SetupError};

#[derive(Debug, thiserror::Error)]
pub enum SelfPlayError {
    #[error("players {0:?}: each is 1 to 4 and at least one is given")]
    Players(Vec<u8>),
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The search chose a move the rules refuse: a bug in the bot, named by its game.
    #[error("game {game}: {source}")]
    Illegal {
        game: u64,
        #[source]
        source: IllegalMove,
    },
}
