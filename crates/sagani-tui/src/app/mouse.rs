//! The mouse: a click chooses an offer or storage tile, moves the cursor of a tile being placed
//! (a second click places it), or brings a display into focus; the wheel and a drag scroll.

use super::state::App;
use crate::board::{PITCH_X, PITCH_Y};
use crate::keys::press;
use ratatui::crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};
use sagani_core::Expect;

impl App {
    /// A click chooses an offer or storage tile (as its number key), moves the cursor to a
    /// cell of the display being placed on (a second click on it places the tile, as Enter
    /// does), or brings a display into focus; the wheel and a drag scroll the display under
    /// the pointer.
    pub fn mouse(&mut self, m: MouseEvent) {
        let (col, row) = (m.column, m.row);
        if self.too_small {
            return;
        }
        if matches!(m.kind, MouseEventKind::Down(_)) && (self.help || self.pile) {
            self.help = false;
            self.pile = false;
            return;
        }
        let under = self.hits.cell(col, row);
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.replay = None;
                let at = |list: &[(Rect, usize)]| {
                    list.iter()
                        .find(|(r, _)| r.contains(Position::new(col, row)))
                        .map(|&(_, i)| i)
                };
                let chosen = match self.game().expects() {
                    Some(Expect::Turn) => at(&self.hits.offer),
                    Some(Expect::IntermezzoPick) => at(&self.hits.storage),
                    _ => None,
                };
                if let Some(i) = chosen {
                    if let Some(digit) = char::from_digit(i as u32 + 1, 10) {
                        self.key(press(KeyCode::Char(digit)));
                    }
                    return;
                }
                let Some((seat, cell)) = under else { return };
                self.drag = Some((col, row));
                let placing_here =
                    self.placing.is_some() && self.game().to_act() == Some(seat) && self.my_turn();
                if !placing_here {
                    self.show_next = None;
                    self.show_seat(seat);
                    return;
                }
                self.show_seat(seat);
                let taken = self.game().display(seat).tiles().any(|t| t.cell == cell);
                let p = self.placing.as_mut().expect("placing");
                if p.cursor == cell {
                    self.key(press(KeyCode::Enter));
                } else if taken {
                    self.say("a tile lies there already".into(), false);
                } else {
                    p.cursor = cell;
                    self.refresh();
                }
            }
            MouseEventKind::Drag(MouseButton::Left) => {
                let Some((x0, y0)) = self.drag else { return };
                let (dx, dy) = (
                    (x0 as i32 - col as i32) / PITCH_X,
                    (y0 as i32 - row as i32) / PITCH_Y,
                );
                if dx != 0 || dy != 0 {
                    let s = &mut self.scroll().0;
                    s.dx += dx;
                    s.dy += dy;
                    self.drag = Some((
                        (x0 as i32 - dx * PITCH_X) as u16,
                        (y0 as i32 - dy * PITCH_Y) as u16,
                    ));
                }
            }
            MouseEventKind::Up(_) => self.drag = None,
            MouseEventKind::ScrollUp
            | MouseEventKind::ScrollDown
            | MouseEventKind::ScrollLeft
            | MouseEventKind::ScrollRight => {
                let Some((seat, _)) = under else {
                    // Off the displays, the wheel scrolls the log.
                    match m.kind {
                        MouseEventKind::ScrollUp => {
                            self.log_scroll =
                                (self.log_scroll + 1).min(self.narration.entries.len())
                        }
                        MouseEventKind::ScrollDown => {
                            self.log_scroll = self.log_scroll.saturating_sub(1)
                        }
                        _ => {}
                    }
                    return;
                };
                let sideways = m.modifiers.contains(KeyModifiers::SHIFT);
                let (dx, dy) = match (m.kind, sideways) {
                    (MouseEventKind::ScrollUp, false) => (0, -1),
                    (MouseEventKind::ScrollDown, false) => (0, 1),
                    (MouseEventKind::ScrollUp, true) | (MouseEventKind::ScrollLeft, _) => (-1, 0),
                    _ => (1, 0),
                };
                let s = &mut self.scrolls[seat as usize].0;
                s.dx += dx;
                s.dy += dy;
            }
            _ => {}
        }
    }
}
