//! What stops a command: each cause is its own kind, and prints as the one line the command
//! writes on standard error.

use sagani_ai::sprt::SprtError;
use sagani_ai::{BotSpecError, SettingError};
use sagani_core::record::RecordError;
use sagani_core::{IllegalMove, SetupError};
use sagani_lab::SelfPlayError;
use sagani_protocol::time_control::TimeControlError;
use sagani_server::store::{CopyError, StoreError};
use sagani_tui::online::{OnlineError, Refusal};
use sagani_tui::{TerminalError, ViewerError};
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The arguments ask for what cannot be done; the text says what, and what to ask instead.
    #[error("{0}")]
    Usage(String),
    /// The work ran, and what it found is a failure (moves missing after a load test, games
    /// left behind by a copy).
    #[error("{0}")]
    Found(String),
    /// A file, a folder, a port or a process, and what we tried to do with it.
    #[error("{doing}: {source}")]
    Io {
        doing: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot draw {}: {source}", path.display())]
    Draw {
        path: PathBuf,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error(transparent)]
    Bot(#[from] BotSpecError),
    #[error(transparent)]
    Setting(#[from] SettingError),
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error(transparent)]
    SelfPlay(#[from] SelfPlayError),
    #[error(transparent)]
    Saved(#[from] sagani_tui::LoadError),
    #[error(transparent)]
    View(#[from] ViewerError),
    #[error(transparent)]
    Terminal(#[from] TerminalError),
    /// No screen for a game with bots: the arena plays them without one.
    #[error("{0} (to let bots play without a screen, use sagani arena)")]
    NoScreen(#[source] TerminalError),
    #[error(transparent)]
    Table(#[from] sagani_tui::StartError),
    #[error(transparent)]
    Online(#[from] OnlineError),
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error("--clock {text:?}: {source}")]
    Clock {
        text: String,
        #[source]
        source: TimeControlError,
    },
    #[error(transparent)]
    Server(#[from] sagani_server::StartError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Copy(#[from] CopyError),
    #[error(transparent)]
    Load(#[from] sagani_load::LoadError),
}

impl CliError {
    /// A system resource that failed, with what we were doing.
    pub fn io(doing: impl Into<String>) -> impl FnOnce(std::io::Error) -> CliError {
        let doing = doing.into();
        move |source| CliError::Io { doing, source }
    }
}
