//! The daily challenge: every UTC day one solo deck for everyone, in both solo variants (see
//! docs/server-api.md, "The daily challenge"). The day's deck comes from a server secret with
//! the date; one ranked attempt per account; leaderboards of the day; par, the bot's result on
//! the same deck; streaks; and a daily game's history kept from others until its day is over.

mod board;
mod day;
mod deck;
mod visibility;

/// The name of the server secret the decks are derived from.
pub use crate::secret::DAILY as SECRET;
pub use board::{compare, place_among, ranked, solo_result, streak};
pub use day::Day;
pub use deck::deck;
pub use visibility::{day_over, hidden, history_open};

use sagani_core::Variant;

/// The variants of the challenge, as the engine names them.
pub const VARIANTS: [Variant; 2] = [Variant::Solo, Variant::SoloAll];

/// The bot whose result on the day's deck is par: greedy (one ply, the best immediate move) with
/// a fixed seed, so par is the same whichever server plays it.
pub const PAR_BOT: &str = "greedy";
