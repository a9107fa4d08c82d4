//! Bots for Sagani and what runs them: the `Bot` trait, the built-in bots (`random`, `greedy`,
//! `mcts`), engines in other languages over a line protocol, and games and matches between bots.
//!
//! A bot sees what its seat may see (`Game::view(Some(seat))`) and the legal moves, never the
//! order of the draw pile.

pub mod aim;
pub mod arena;
mod bot;
pub mod clairvoyant;
pub mod engine;
pub mod evaluate;
pub mod explain;
mod greedy;
pub mod ladder;
pub mod levels;
mod mcts;
mod mcts_2026;
mod mcts_config;
pub mod playout;
pub mod policy;
mod random;
pub mod sampler;
pub mod spec;
pub mod sprt;
pub mod stats;
pub mod td;
mod tree;
pub mod value;
pub mod weights_file;

pub use bot::{Analysis, Bot, Budget, Decision};
pub use greedy::Greedy;
pub use mcts::{Mcts, SearchStats};
pub use mcts_2026::{Config2026, Mcts2026};
pub use mcts_config::{MctsConfig, SettingError};
pub use random::RandomBot;
pub use spec::{make_bot, BotSpec, BotSpecError, Tuning, BOT_NAMES};
