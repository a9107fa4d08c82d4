//! A move played: here in the record, or sent to the server's table; then what the table notes
//! of it: the log, the story since a person here moved, the tiles to outline, the offer's
//! slots, and whose display to show.

use super::state::{App, Source};
use sagani_core::{Expect, Move, Preview};

impl App {
    /// Plays a move here, or sends it to the server's table (its answer comes in `hear`).
    pub(super) fn apply(&mut self, mv: Move) {
        match &mut self.source {
            Source::Local(rg) => {
                let game = rg.game();
                let seat = game
                    .to_act()
                    .expect("a move is played only while the game runs");
                let effect = game.preview(mv).ok();
                let picked = game.expects() == Some(Expect::IntermezzoPick);
                match rg.play(mv) {
                    Ok(()) => self.played(seat, mv, effect.as_ref(), picked),
                    // A move the engine refuses changes nothing; its reason is shown.
                    Err(e) => self.say(e.to_string(), true),
                }
            }
            Source::Online(t) => {
                if t.sending {
                    self.say("your move is on its way; wait for the server".into(), false);
                    return;
                }
                // The engine checks it here first: a move it refuses is never sent.
                if let Err(e) = t.game.clone().play(mv) {
                    self.say(e.to_string(), true);
                    return;
                }
                t.sending = true;
                t.conn.send(t.state.version, mv);
                self.message = Some(("sent; waiting for the server".into(), false));
            }
        }
    }

    /// Notes a move that was played (here or at the server's table): the log, the offer's
    /// slots, and whose display to show. `picked`: the tile placed came from the intermezzo
    /// storage.
    pub(super) fn played(&mut self, seat: u8, mv: Move, effect: Option<&Preview>, picked: bool) {
        let human = self.players[seat as usize].is_human();
        let view = self.game().view(None);
        let whose = self.whose(seat);
        let before = self.narration.entries.len();
        let line = self
            .narration
            .note(seat, mv, effect, picked, &view, &self.labels, whose);
        if self.log_scroll > 0 {
            // A log scrolled back stays where it was.
            self.log_scroll += self.narration.entries.len() - before;
        }
        self.update_slots();
        self.placing = None;
        self.spot = None;
        self.last_move = self.now();
        self.message = Some((line, false));
        self.show_next = None;
        if human {
            self.warning = None;
        }
        if let Some(next) = self.game().to_act() {
            if human {
                self.show_seat(next);
            } else {
                // Let the bot's new tile be seen on its display first.
                self.show_seat(seat);
                self.show_next = Some((self.now(), next));
            }
        }
    }
}
