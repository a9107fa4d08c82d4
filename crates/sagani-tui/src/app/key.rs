//! What a key does in the game: the windows (help, pile, result), the displays in focus, the
//! turn of the person to act (choose a tile, place it, the intermezzo, pass), and `q`.

use super::placing::Placing;
use super::player::SaveTo;
use super::state::App;
use crate::board::Scroll;
use crate::keys::{self, press, step};
use crate::record_file;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use sagani_core::{Expect, Move, TileId};

impl App {
    pub fn key(&mut self, k: KeyEvent) {
        if k.kind == KeyEventKind::Release {
            return;
        }
        if keys::quits(&k) {
            self.quit();
            return;
        }
        if std::mem::take(&mut self.unsaved) {
            self.message = None;
        }
        if keys::swallowed(self.too_small, &mut self.help) || std::mem::take(&mut self.pile) {
            return;
        }
        // Any key ends a replay of the last moves (and does what it does).
        if self.replay.take().is_some() {
            self.message = None;
        }
        let shift = k.modifiers.contains(KeyModifiers::SHIFT);
        match k.code {
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('d') => self.pile = true,
            KeyCode::Char('w') if self.placing.is_none() => self.replay_start(),
            KeyCode::Tab => self.show(1),
            KeyCode::BackTab => self.show(-1),
            KeyCode::Char('c') => self.scroll().0 = Scroll::default(),
            // The log, a few lines at a time (the screen keeps it in its bounds).
            KeyCode::PageUp => {
                self.log_scroll = (self.log_scroll + 3).min(self.narration.entries.len());
            }
            KeyCode::PageDown => self.log_scroll = self.log_scroll.saturating_sub(3),
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right
                if shift || self.placing.is_none() =>
            {
                let (dx, dy) = step(k.code);
                let s = &mut self.scroll().0;
                s.dx += dx;
                s.dy += dy;
            }
            _ if self.over() => self.key_over(k),
            _ => self.key_turn(k),
        }
        self.tick();
    }

    pub fn keys(&mut self, codes: &[KeyCode]) {
        for &c in codes {
            self.key(press(c));
        }
    }

    /// Tab: another display, chosen by the person, so the pace does not switch it back.
    fn show(&mut self, by: i32) {
        let n = self.players.len() as i32;
        self.show_next = None;
        self.show_seat((self.shown as i32 + by).rem_euclid(n) as u8);
    }

    fn quit(&mut self) {
        if self.unsaved {
            self.abandoned = true;
            return;
        }
        // At a server's table the game is the server's to keep: q leaves the table (the seat
        // stays this player's, and its clock runs on).
        let Some(json) = self.save_json() else {
            self.abandoned = true;
            return;
        };
        let saved = match &self.opts.save_to {
            SaveTo::File(path) => record_file::save(path, &json).map(|_| path.clone()),
            SaveTo::NewIn(dir) => record_file::save_new(dir, &json),
        };
        match saved {
            Ok(path) => {
                // Saved once under a new name: later saves go to the same file.
                self.opts.save_to = SaveTo::File(path.clone());
                self.saved = Some(path);
            }
            // The game goes on, and the reason is on screen; a second q leaves without saving.
            Err(e) => {
                self.unsaved = true;
                self.say(
                    format!("{e}. The game goes on; q again quits without saving."),
                    true,
                );
            }
        }
    }

    fn key_over(&mut self, k: KeyEvent) {
        match k.code {
            KeyCode::Esc | KeyCode::Enter => self.result = false,
            KeyCode::Char('e') => self.result = true,
            _ => {}
        }
    }

    fn key_turn(&mut self, k: KeyEvent) {
        let game = self.game();
        let Some(seat) = game.to_act() else { return };
        if !self.players[seat as usize].is_human() {
            self.say(
                format!("{} is to play; wait for it", self.labels[seat as usize]),
                false,
            );
            return;
        }
        let expects = game.expects().expect("the game runs");
        if let KeyCode::Char(ch @ '1'..='9') = k.code {
            let i = ch as usize - '1' as usize;
            // The offer by slot, as the strip shows it; the storage as it lies.
            let (tiles, what): (Vec<Option<TileId>>, &str) = match expects {
                Expect::Turn => (self.slots.clone(), "offer display"),
                Expect::IntermezzoPick => (
                    game.intermezzo_storage().iter().map(|&t| Some(t)).collect(),
                    "intermezzo storage",
                ),
                _ => {
                    self.say("the revealed tile must be placed".into(), true);
                    return;
                }
            };
            match tiles.get(i) {
                Some(Some(t)) => self.begin(*t),
                Some(None) => self.say(
                    format!("slot {} is empty: its tile was taken this round", i + 1),
                    true,
                ),
                None => self.say(format!("the {what} has no tile {}", i + 1), true),
            }
            return;
        }
        if self.placing.is_some() && self.shown != seat {
            // Nothing happens out of sight: the first key brings the tile back into view.
            self.show_seat(seat);
            self.say(
                "back to your display and the tile you are placing".into(),
                false,
            );
            return;
        }
        if self.placing.is_some() {
            self.key_placing(k);
            return;
        }
        // The engine decides whether these may be played now, and says why not.
        match k.code {
            KeyCode::Char('i') => {
                let tile = game.offer().last().copied().unwrap_or_default();
                self.apply(Move::Intermezzo { tile })
            }
            KeyCode::Char('p') => self.apply(Move::Pass),
            _ => self.unknown(),
        }
    }

    /// A key while a tile is on its way to the display: move, turn, place, put back.
    fn key_placing(&mut self, k: KeyEvent) {
        match k.code {
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right => self.go(step(k.code)),
            KeyCode::Char('h') => self.go((-1, 0)),
            KeyCode::Char('j') => self.go((0, 1)),
            KeyCode::Char('k') => self.go((0, -1)),
            KeyCode::Char('l') => self.go((1, 0)),
            KeyCode::Char(' ') | KeyCode::Char('n') => self.next_cell(1),
            KeyCode::Char('N') | KeyCode::Backspace => self.next_cell(-1),
            KeyCode::Char('r') | KeyCode::Char(']') => self.turn(1),
            KeyCode::Char('R') | KeyCode::Char('[') => self.turn(3),
            KeyCode::Enter => {
                let p = self.placing.as_ref().expect("placing");
                match &p.preview {
                    Ok(_) => self.apply(p.placement()),
                    Err(e) => self.say(e.to_string(), true),
                }
            }
            KeyCode::Esc => {
                if !self.can_put_back() {
                    self.say(
                        "the revealed tile must be placed; it cannot go back".into(),
                        true,
                    );
                } else {
                    self.spot = self.placing.take().map(|p| (p.cursor, p.rot));
                    self.message = None;
                }
            }
            _ => self.unknown(),
        }
    }

    pub(super) fn unknown(&mut self) {
        self.say("that key does nothing here; ? shows the keys".into(), false);
    }

    /// A tile chosen (or drawn, or revealed) goes under the cursor, where the one before was
    /// (or the one put back), if it may go there.
    pub(super) fn begin(&mut self, tile: TileId) {
        let kept = self
            .placing
            .as_ref()
            .map(|p| (p.cursor, p.rot))
            .or(self.spot);
        let Some(placing) = Placing::start(self.game(), tile, kept) else {
            self.say(format!("tile {tile} cannot be placed now"), true);
            return;
        };
        let seat = self.game().to_act().expect("the game runs");
        self.show_seat(seat);
        self.placing = Some(placing);
        self.message = None;
        self.refresh();
    }

    /// A new preview for where the cursor is now, and the cursor in sight.
    pub(super) fn refresh(&mut self) {
        self.scroll().0.follow = true;
        let preview = self.placement().map(|mv| self.game().preview(mv));
        if let (Some(p), Some(preview)) = (&mut self.placing, preview) {
            p.preview = preview;
        }
    }

    /// The cursor one cell that way (see `Placing::go`).
    fn go(&mut self, by: (i32, i32)) {
        let seat = self.game().to_act().unwrap_or(self.shown);
        let taken: Vec<_> = self.game().display(seat).tiles().map(|t| t.cell).collect();
        let Some(p) = &mut self.placing else { return };
        if !p.go(by, &taken) {
            self.say("no free cell further that way".into(), false);
            return;
        }
        self.show_seat(seat);
        self.refresh();
    }

    fn next_cell(&mut self, by: i32) {
        let Some(p) = &mut self.placing else { return };
        p.next_cell(by);
        self.show_seat(self.game().to_act().unwrap_or(self.shown));
        self.refresh();
    }

    fn turn(&mut self, by: u8) {
        if let Some(p) = &mut self.placing {
            p.turn(by);
        }
        self.refresh();
    }
}
