//! A game at the terminal: whose turn it is, the keys of the human to act, the bots' moves, the
//! placement cursor with the engine's preview, saving. No terminal here: keys come in as events
//! and the screen goes out to any ratatui backend, and the time is a clock the game is handed,
//! so tests drive it like a player and move time instead of waiting.

mod key;
mod mouse;
mod moves;
mod pace;
mod panel;
mod placing;
mod player;
mod replay;
mod result;
mod state;
mod table;
mod told;
mod view;

pub use pace::WaitError;
pub use player::{Options, Player, SaveTo};
pub use state::{App, StartError};
