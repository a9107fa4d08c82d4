//! `w`: the moves since the last move of a person here, played again on the board one after
//! another, each for twice a bot's pace once a frame showed it.

use super::state::App;
use sagani_core::{Move, Preview};

impl App {
    /// `w`: starts the replay at the first move since mine.
    pub(super) fn replay_start(&mut self) {
        let start = self.since_start().unwrap_or(0);
        let entries = &self.narration.entries;
        let first = (start..entries.len()).find(|&i| entries[i].played.is_some());
        match first {
            Some(i) => {
                self.replay = Some((i, self.now(), false));
                self.replay_show();
            }
            None => self.say("no moves since yours to show again".into(), false),
        }
    }

    /// The move being shown again, if a replay runs.
    pub(super) fn replaying(&self) -> Option<(u8, Move, Option<Preview>)> {
        let (i, _, _) = self.replay?;
        self.narration.entries.get(i)?.played.clone()
    }

    fn replay_show(&mut self) {
        let Some((i, _, _)) = self.replay else { return };
        let start = self.since_start().unwrap_or(0).min(i);
        let entries = &self.narration.entries;
        let n = entries[start..]
            .iter()
            .filter(|s| s.played.is_some())
            .count();
        let k = entries[start..=i]
            .iter()
            .filter(|s| s.played.is_some())
            .count();
        let text = format!("Again, {k} of {n}: {}", entries[i].line());
        if let Some((seat, _, _)) = entries[i].played.clone() {
            self.show_seat(seat);
        }
        self.say(text, false);
    }

    /// The replay goes on at the pace, and ends after the last move.
    pub(super) fn replay_tick(&mut self) {
        let Some((i, at, seen)) = self.replay else {
            return;
        };
        // Twice a bot's pace a move (0 with no pace, as tests set it), once it was drawn.
        let now = self.now();
        if !seen || now.saturating_duration_since(at) < self.opts.bot_pace * 2 {
            return;
        }
        let entries = &self.narration.entries;
        let next = (i + 1..entries.len()).find(|&j| entries[j].played.is_some());
        match next {
            Some(j) => {
                self.replay = Some((j, now, false));
                self.replay_show();
            }
            None => {
                self.replay = None;
                self.message = None;
                if let Some(s) = self.game().to_act() {
                    self.show_seat(s);
                }
            }
        }
    }
}
