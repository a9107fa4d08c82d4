//! The real terminal: raw mode and the alternate screen, keys in, frames out, and the terminal
//! given back as it was, also after an error or a panic.

use crate::app::{App, SaveTo};
use crate::record_file;
use crate::viewer::Viewer;
use ratatui::crossterm::event::{self, Event};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;
use std::time::Duration;

/// Why the full screen could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TerminalError {
    /// Standard output or input is a pipe or a file.
    #[error(
        "this needs an interactive terminal, and {0}: run it in a terminal window, not \
         through a pipe or into a file"
    )]
    NotInteractive(&'static str),
    #[error("cannot use the terminal: {0}")]
    Open(std::io::Error),
    #[error("terminal error: {0}")]
    Io(std::io::Error),
}

/// Why there is no full screen to draw on, if there is none.
pub fn interactive() -> Result<(), TerminalError> {
    let what = if !std::io::stdout().is_terminal() {
        "standard output is not a terminal"
    } else if !std::io::stdin().is_terminal() {
        "standard input is not a terminal"
    } else {
        return Ok(());
    };
    Err(TerminalError::NotInteractive(what))
}

/// Redraws often enough for the bots' progress to move smoothly.
const FRAME: Duration = Duration::from_millis(80);

/// The thread that draws the screen.
static SCREEN: OnceLock<ThreadId> = OnceLock::new();
/// The game so far and where it goes, saved by the panic hook if all else fails.
static RESCUE: Mutex<Option<(SaveTo, String)>> = Mutex::new(None);

/// Raw mode and the alternate screen. On a panic of the screen's thread the terminal is given
/// back and the game so far saved. A bot's thread that panics is caught (`bots.rs`) and shown
/// on screen, so its panic must leave the terminal alone (ratatui's own hook would give it back
/// whoever panics). With the release build's `panic = "abort"` nothing is caught and the
/// program ends, so then the terminal is given back and the game saved whoever panics. The hook
/// is in place before the screen opens, so no panic slips in between.
fn open() -> Result<ratatui::DefaultTerminal, TerminalError> {
    if SCREEN.set(std::thread::current().id()).is_ok() {
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let screen = SCREEN.get() == Some(&std::thread::current().id());
            if screen || cfg!(panic = "abort") {
                close();
                report(info);
                rescue();
            }
        }));
    }
    let opened = (|| {
        ratatui::crossterm::terminal::enable_raw_mode()?;
        ratatui::crossterm::execute!(
            std::io::stdout(),
            ratatui::crossterm::terminal::EnterAlternateScreen,
            ratatui::crossterm::event::EnableMouseCapture
        )?;
        ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(std::io::stdout()))
    })();
    opened.map_err(|e| {
        close();
        TerminalError::Open(e)
    })
}

/// The terminal as it was: no mouse reports, the normal screen, cooked mode.
fn close() {
    let _ = ratatui::crossterm::execute!(
        std::io::stdout(),
        ratatui::crossterm::event::DisableMouseCapture
    );
    ratatui::restore();
}

fn rescue() {
    let Ok(mut slot) = RESCUE.try_lock() else {
        return;
    };
    let Some((to, json)) = slot.take() else {
        return;
    };
    let saved = match to {
        SaveTo::File(path) => record_file::save(&path, &json).map(|_| path),
        SaveTo::NewIn(dir) => record_file::save_new(&dir, &json),
    };
    match saved {
        Ok(p) => eprintln!(
            "The game so far is saved to {}: go on with sagani play --load {}",
            p.display(),
            p.display()
        ),
        Err(e) => eprintln!("{e}"),
    }
}

/// Plays until `q` saved the game (its path) or quit without saving (`None`).
pub fn run_play(app: &mut App) -> Result<Option<PathBuf>, TerminalError> {
    interactive()?;
    // Kept before the screen opens: a bot may fail before the first frame. (A game at a
    // server's table is the server's to keep.)
    let rescue = |app: &App| {
        *RESCUE.lock().unwrap_or_else(|e| e.into_inner()) =
            app.save_json().map(|json| (app.save_to().clone(), json));
    };
    rescue(app);
    let mut term = open()?;
    let mut kept = app.log_len();
    let result = (|| -> std::io::Result<()> {
        while !app.done() {
            if app.log_len() != kept {
                kept = app.log_len();
                rescue(app);
            }
            term.draw(|f| app.draw(f))?;
            if event::poll(FRAME)? {
                match event::read()? {
                    Event::Key(k) => app.key(k),
                    Event::Mouse(m) => app.mouse(m),
                    _ => {}
                }
            }
            app.tick();
        }
        Ok(())
    })();
    *RESCUE.lock().unwrap_or_else(|e| e.into_inner()) = None;
    close();
    result.map_err(TerminalError::Io)?;
    Ok(app.saved().cloned())
}

/// Shows a record until `q`.
pub fn run_view(viewer: &mut Viewer) -> Result<(), TerminalError> {
    interactive()?;
    let mut term = open()?;
    let result = (|| -> std::io::Result<()> {
        while !viewer.done {
            term.draw(|f| viewer.draw(f))?;
            if let Event::Key(k) = event::read()? {
                viewer.key(k);
            }
        }
        Ok(())
    })();
    close();
    result.map_err(TerminalError::Io)
}
