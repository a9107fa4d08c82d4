//! A move played: here in the record, or sent to the server's table; then what the table notes
//! of it: the log, the story since a person here moved, the tiles to outline, the offer's
//! slots, and whose display to show.

use super::player::Player;
use super::state::{App, Said, Source};
use crate::notation::short;
use crate::words;
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

    /// Notes a move that was played (here or at the server's table): the log, the story since
    /// the last move of a person here, the tiles to outline, the offer's slots, and whose
    /// display to show. `picked`: the tile placed came from the intermezzo storage.
    pub(super) fn played(&mut self, seat: u8, mv: Move, effect: Option<&Preview>, picked: bool) {
        let human = self.players[seat as usize].is_human();
        let view = self.game().view(None);
        let line = words::move_words(
            &self.labels[seat as usize],
            self.whose(seat),
            mv,
            effect,
            &view,
            seat,
            picked,
        );
        let people_here = self.players.iter().any(Player::is_human);
        let story_by_people = self
            .since
            .last()
            .and_then(|s| s.played.as_ref())
            .is_some_and(|(s, _, _)| self.players[*s as usize].is_human());
        if human && !story_by_people {
            // A person here moves: a new story starts, and the others' tiles are old news.
            self.since.clear();
            self.fresh.iter_mut().for_each(Vec::clear);
        } else if !people_here {
            // Only bots here: each display keeps its latest tile outlined.
            self.fresh[seat as usize].clear();
        }
        if let Move::Place { tile, .. } = mv {
            self.fresh[seat as usize].push(tile);
        }
        self.since.push(Said {
            text: line.clone(),
            played: Some((seat, mv, effect.cloned())),
        });
        if view.final_round && !self.final_told {
            self.final_told = true;
            self.since.push(Said {
                text: words::final_round_words(&view, &self.labels),
                played: None,
            });
        }
        let keep = self.since.len().saturating_sub(40);
        self.since.drain(..keep);
        self.log.push(format!("P{} {}", seat + 1, short(mv)));
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
