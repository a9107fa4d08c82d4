//! The log: every move as a numbered sentence with the player's name ("12. Bea placed Fire 10
//! left of their Water 6: +12"), and the final round's start. A game here, a seat at a server's
//! table and the viewer build it the same way, and build it again from the moves after
//! `--load` or a rejoin, so nothing of it is lost.

use crate::words::{self, Whose};
use sagani_core::view::View;
use sagani_core::{Expect, Game, Move, Preview, TileId};

/// One line of the log: a move told, or the final round's start.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The move's number in the game (1 for the first); none for news of the game itself.
    pub number: Option<usize>,
    /// The move: who played it, what, and what it did (a placement's effect).
    pub played: Option<(u8, Move, Option<Preview>)>,
    /// The sentence, without its number.
    pub text: String,
}

impl Entry {
    /// The sentence as the log shows it: "12. Bea placed Fire 10 …".
    pub fn line(&self) -> String {
        match self.number {
            Some(n) => format!("{n}. {}", self.text),
            None => self.text.clone(),
        }
    }

    /// The tile a placement put down, and where.
    pub fn placed(&self) -> Option<(u8, TileId)> {
        match self.played {
            Some((seat, Move::Place { tile, .. }, _)) => Some((seat, tile)),
            _ => None,
        }
    }
}

/// The log of a game.
#[derive(Clone, Debug, Default)]
pub struct Narration {
    pub entries: Vec<Entry>,
    moves: usize,
    final_told: bool,
}

impl Narration {
    /// The moves told so far.
    #[cfg(test)]
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// Notes a move from the view after it (and the final round's start, once it began).
    /// `picked`: the tile placed came from the intermezzo storage.
    #[allow(clippy::too_many_arguments)]
    pub fn note(
        &mut self,
        seat: u8,
        mv: Move,
        effect: Option<&Preview>,
        picked: bool,
        after: &View,
        names: &[String],
        whose: Whose,
    ) -> String {
        let who = names.get(seat as usize).map_or("", String::as_str);
        let text = words::move_words(who, whose, mv, effect, after, seat, picked);
        self.moves += 1;
        self.entries.push(Entry {
            number: Some(self.moves),
            played: Some((seat, mv, effect.cloned())),
            text: text.clone(),
        });
        if after.final_round && !self.final_told {
            self.final_told = true;
            self.tell_final_round(after, names);
        }
        text
    }

    /// The log of `moves` played from `start`, each told from the game after it.
    pub fn replay(
        start: &Game,
        moves: &[(u8, Move)],
        names: &[String],
        whose: impl Fn(u8) -> Whose,
    ) -> Narration {
        let mut game = start.clone();
        let mut n = Narration::default();
        for &(seat, mv) in moves {
            let effect = game.preview(mv).ok();
            let picked = game.expects() == Some(Expect::IntermezzoPick);
            if game.play(mv).is_err() {
                break;
            }
            n.note(
                seat,
                mv,
                effect.as_ref(),
                picked,
                &game.view(None),
                names,
                whose(seat),
            );
        }
        n
    }

    /// The log of moves a server's table played, with what each did, told from the table as
    /// it is now (a display lists its tiles in the order placed, so a tile's neighbours placed
    /// before it are there). The final round's start follows the move that reached the goal.
    pub fn of_played(
        moves: &[(u8, Move, Option<Preview>)],
        now: &View,
        names: &[String],
        whose: impl Fn(u8) -> Whose,
    ) -> Narration {
        let mut n = Narration {
            // Told once, after the move that began it (below).
            final_told: true,
            ..Narration::default()
        };
        let mut stored: Vec<TileId> = Vec::new();
        let mut began = false;
        for (seat, mv, effect) in moves {
            let picked = matches!(mv, Move::Place { tile, .. } if stored.contains(tile));
            if let Move::Intermezzo { tile } = mv {
                stored.push(*tile);
            }
            n.note(
                *seat,
                *mv,
                effect.as_ref(),
                picked,
                now,
                names,
                whose(*seat),
            );
            let reached = effect.as_ref().is_some_and(|e| e.reaches_target);
            if now.final_round && !began && reached {
                began = true;
                n.tell_final_round(now, names);
            }
        }
        if now.final_round && !began {
            n.tell_final_round(now, names);
        }
        n
    }

    fn tell_final_round(&mut self, view: &View, names: &[String]) {
        if let Some(text) = words::final_round_words(view, names) {
            self.entries.push(Entry {
                number: None,
                played: None,
                text,
            });
        }
    }

    /// Where the entries after `seat`'s last move begin (0 when it never moved).
    pub fn since(&self, seat: u8) -> usize {
        self.entries
            .iter()
            .rposition(|e| e.played.as_ref().is_some_and(|p| p.0 == seat))
            .map_or(0, |i| i + 1)
    }

    /// Where the entries after move `n` begin, and the entries up to it: what the viewer shows
    /// at move `n` (the final round's start with the move that began it).
    pub fn upto(&self, n: usize) -> &[Entry] {
        let end = self
            .entries
            .iter()
            .position(|e| e.number.is_some_and(|k| k > n))
            .unwrap_or(self.entries.len());
        &self.entries[..end]
    }

    /// The lines as the log shows them.
    pub fn lines(entries: &[Entry]) -> Vec<String> {
        entries.iter().map(Entry::line).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::Setup;

    fn names() -> Vec<String> {
        vec!["You".into(), "Bea".into()]
    }

    fn whose(s: u8) -> Whose {
        if s == 0 {
            Whose::Yours
        } else {
            Whose::Theirs
        }
    }

    /// A game played some moves by the first legal move, with its moves.
    fn played(n: usize) -> (Game, Game, Vec<(u8, Move)>) {
        let start = Game::new(&Setup {
            start_player: Some(0),
            ..Setup::seeded(2, 5)
        })
        .unwrap();
        let mut g = start.clone();
        let mut moves = Vec::new();
        for _ in 0..n {
            let Some(seat) = g.to_act() else { break };
            let mv = g.legal_moves()[0];
            g.play(mv).unwrap();
            moves.push((seat, mv));
        }
        (start, g, moves)
    }

    #[test]
    fn moves_are_numbered_sentences_with_names_not_notation() {
        let (start, _, moves) = played(6);
        let n = Narration::replay(&start, &moves, &names(), whose);
        let lines = Narration::lines(&n.entries);
        assert_eq!(n.moves(), 6);
        assert!(lines[0].starts_with("1. You placed "), "{lines:?}");
        assert!(lines[0].ends_with("as your first tile"), "{lines:?}");
        let bea = lines.iter().find(|l| l.contains("Bea")).expect("Bea moved");
        assert!(
            bea.contains("Bea placed") || bea.contains("Bea stored"),
            "{bea}"
        );
        for l in &lines {
            // No engine notation: no ids, coordinates or rotations, no P1/P2.
            assert!(
                !l.contains('#') && !l.contains("(0,0)") && !l.contains("P1"),
                "{l}"
            );
        }
    }

    #[test]
    fn the_log_of_a_tables_moves_says_the_same_as_the_game_here() {
        let (start, end, moves) = played(12);
        let here = Narration::replay(&start, &moves, &names(), whose);
        let mut g = start.clone();
        let with_effects: Vec<(u8, Move, Option<Preview>)> = moves
            .iter()
            .map(|&(s, mv)| {
                let e = g.preview(mv).ok();
                g.play(mv).unwrap();
                (s, mv, e)
            })
            .collect();
        let there = Narration::of_played(&with_effects, &end.view(None), &names(), whose);
        assert_eq!(
            Narration::lines(&here.entries),
            Narration::lines(&there.entries)
        );
    }

    #[test]
    fn since_a_seats_move_and_up_to_a_move() {
        let (start, _, moves) = played(8);
        let n = Narration::replay(&start, &moves, &names(), whose);
        let last0 = moves.iter().rposition(|m| m.0 == 0).unwrap();
        assert_eq!(n.since(0), last0 + 1);
        assert_eq!(n.upto(3).len(), 3);
        assert_eq!(n.upto(0).len(), 0);
    }
}
