//! What keys mean everywhere, in the game and in the viewer.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// `q` or Ctrl-C: leave (the game saves first).
pub fn quits(k: &KeyEvent) -> bool {
    k.code == KeyCode::Char('q')
        || (k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL))
}

/// One step in the direction of an arrow key (other keys: to the right).
pub fn step(code: KeyCode) -> (i32, i32) {
    match code {
        KeyCode::Up => (0, -1),
        KeyCode::Down => (0, 1),
        KeyCode::Left => (-1, 0),
        _ => (1, 0),
    }
}

/// A key that does nothing else: any key while the table is not shown (nothing happens
/// unseen), or the key that closes the help.
pub fn swallowed(too_small: bool, help: &mut bool) -> bool {
    if too_small {
        return true;
    }
    std::mem::take(help)
}

/// A key pressed with no modifier.
pub fn press(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}
