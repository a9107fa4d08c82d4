//! The terminal client: a full-screen Sagani table (ratatui + crossterm) for hot-seat humans and
//! bots, and a replay viewer for records.
//!
//! Everything on screen is drawn from the engine's spectator view (`Game::view(None)`), so the
//! draw pile's order never reaches the screen. Keys become `Move`s that `sagani-core` checks;
//! legal cells and previews come from the engine.

mod app;
mod board;
// `Thinking::started` is the bot thread's own start on the wall clock; the game counts a bot's
// thinking time by the clock it was handed, so nothing reads it any more.
#[allow(dead_code)]
mod bots;
pub mod clock;
mod help;
mod keys;
mod narration;
pub mod online;
mod online_error;
mod record_file;
mod screen;
mod style;
mod terminal;
mod viewer;
mod words;

pub use app::{App, Options, Player, SaveTo, StartError, WaitError};
pub use board::{ARROW_AT, FACE_W, LETTER_AT, MARKED, PITCH_X, PITCH_Y};
pub use clock::{Clock, HandClock, WallClock};
pub use online::{Connection, Invite};
pub use record_file::{load, LoadError, Loaded, SaveError};
pub use screen::{MIN_HEIGHT, MIN_WIDTH};
pub use terminal::{interactive, run_play, run_view, TerminalError};
pub use viewer::{Viewer, ViewerError};
