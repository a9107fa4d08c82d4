//! The real terminal: raw mode and the alternate screen, keys in, frames out, and the terminal
//! given back as it was, also after an error.

use crate::app::App;
use crate::viewer::Viewer;
use ratatui::crossterm::event::{self, Event};
use std::io::IsTerminal;
use std::time::Duration;

/// Why there is no full screen to draw on, if there is none.
pub fn interactive() -> Result<(), String> {
    let what = if !std::io::stdout().is_terminal() {
        "standard output is not a terminal"
    } else if !std::io::stdin().is_terminal() {
        "standard input is not a terminal"
    } else {
        return Ok(());
    };
    Err(format!(
        "this needs an interactive terminal, and {what}: run it in a terminal window, not \
         through a pipe or into a file"
    ))
}

/// Redraws often enough for the bots' progress to move smoothly.
const FRAME: Duration = Duration::from_millis(80);

/// Raw mode and the alternate screen, given back on a panic of the screen's own thread. A bot's
/// thread that panics is caught (`bots.rs`) and must leave the screen alone; with
/// `panic = "abort"` nothing is caught, so the terminal is given back whoever panics.
fn open() -> Result<ratatui::DefaultTerminal, String> {
    let term = ratatui::try_init().map_err(|e| format!("cannot use the terminal: {e}"))?;
    let restore_and_report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let bot = std::thread::current().name() == Some(crate::bots::THREAD);
        if !(bot && cfg!(panic = "unwind")) {
            restore_and_report(info);
        }
    }));
    Ok(term)
}

/// Plays until `q` saved the game (its path) or quit without saving (`None`).
pub fn run_play(app: &mut App) -> Result<Option<std::path::PathBuf>, String> {
    interactive()?;
    let mut term = open()?;
    let result = (|| -> std::io::Result<()> {
        while !app.done() {
            term.draw(|f| app.draw(f))?;
            if event::poll(FRAME)? {
                if let Event::Key(k) = event::read()? {
                    app.key(k);
                }
            }
            app.tick();
        }
        Ok(())
    })();
    ratatui::restore();
    result.map_err(|e| format!("terminal error: {e}"))?;
    Ok(app.saved().cloned())
}

/// Shows a record until `q`.
pub fn run_view(viewer: &mut Viewer) -> Result<(), String> {
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
    ratatui::restore();
    result.map_err(|e| format!("terminal error: {e}"))
}
