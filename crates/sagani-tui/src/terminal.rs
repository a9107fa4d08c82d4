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

/// Plays until the game is saved with `q`; gives the path it was saved to.
pub fn run_play(app: &mut App) -> Result<std::path::PathBuf, String> {
    interactive()?;
    let mut term = ratatui::try_init().map_err(|e| format!("cannot use the terminal: {e}"))?;
    let result = (|| -> std::io::Result<()> {
        while app.saved().is_none() {
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
    Ok(app.saved().cloned().expect("the loop ends when saved"))
}

/// Shows a record until `q`.
pub fn run_view(viewer: &mut Viewer) -> Result<(), String> {
    interactive()?;
    let mut term = ratatui::try_init().map_err(|e| format!("cannot use the terminal: {e}"))?;
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
