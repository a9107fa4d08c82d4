//! The bottom panel's words: the preview while placing, a warning, the last message, what to do
//! now, the invite links; and the line of the keys that work now.

use super::player::Player;
use super::state::App;
use crate::style;
use ratatui::style::Style;
use ratatui::text::Line;
use sagani_core::{Expect, Move};

impl App {
    /// The bottom panel: the preview while placing, else the last message or what to do.
    pub(super) fn info(&self) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        if let Some(p) = &self.placing {
            lines.extend(p.preview_lines());
        }
        if let Some(w) = &self.warning {
            lines.push(Line::styled(w.clone(), style::error()));
        }
        if let Some((text, error)) = &self.message {
            let s = if *error { style::error() } else { Style::new() };
            lines.push(Line::styled(text.clone(), s));
        }
        if self.placing.is_none() {
            lines.push(Line::raw(self.prompt()));
        }
        if let Some(t) = self.table() {
            if let Some(why) = &t.offline {
                lines.push(Line::styled(
                    format!("Offline ({why}); trying again."),
                    style::error(),
                ));
            }
            // The links of seats nobody took yet, to hand to their players: only while the
            // table waits for them (a link takes its seat, also one taken since).
            let waiting = t.state.status == sagani_protocol::GameStatus::Waiting;
            for (seat, link) in t.invites.iter().filter(|_| waiting) {
                if t.state
                    .seats
                    .get(*seat as usize)
                    .is_some_and(|s| !s.claimed)
                {
                    lines.push(Line::raw(format!("Seat {} invite: {link}", seat + 1)));
                }
            }
        }
        lines
    }

    fn prompt(&self) -> String {
        let g = self.game();
        let leave = if self.table().is_some() {
            "q leaves the table"
        } else {
            "q saves the record and quits"
        };
        if self.over() {
            return format!("The game is over. {leave}.");
        }
        if self
            .table()
            .is_some_and(|t| t.state.status == sagani_protocol::GameStatus::Waiting)
        {
            return "Waiting for every seat to be taken: hand out the invite links.".to_string();
        }
        let Some(seat) = g.to_act() else {
            return format!("The game is over. {leave}.");
        };
        match &self.players[seat as usize] {
            Player::Remote if self.table().is_some_and(|t| t.conn.seat == seat) => {
                return "A bot plays your seat now; watch it play, or q to leave.".to_string()
            }
            Player::Remote => return format!("{} is to play.", self.labels[seat as usize]),
            Player::Bot { .. } => return format!("{} is thinking.", self.labels[seat as usize]),
            Player::Human { .. } => {}
        }
        if self.table().is_some_and(|t| t.sending) {
            return "Sending your move…".to_string();
        }
        // The offer's keys are its slots' numbers, which stay put until the refill.
        let keys: Vec<usize> = (1..=self.slots.len())
            .filter(|&i| self.slots[i - 1].is_some())
            .collect();
        match g.expects() {
            Some(Expect::Turn)
                if keys.len() == 1 && self.may(|m| matches!(m, Move::Intermezzo { .. })) =>
            {
                format!(
                    "Take the last offer tile ({}), or i for the intermezzo: store it and draw one.",
                    keys[0]
                )
            }
            Some(Expect::Turn) if keys.len() == 1 => {
                format!("Take the last offer tile ({}).", keys[0])
            }
            Some(Expect::Turn) => {
                format!("Choose a tile of the offer display: {}.", numbers(&keys))
            }
            Some(Expect::IntermezzoPick) => {
                let stored: Vec<usize> = (1..=g.intermezzo_storage().len()).collect();
                format!(
                    "Intermezzo: take a stored tile ({}) or pass (p).",
                    numbers(&stored)
                )
            }
            _ => "Place the revealed tile.".to_string(),
        }
    }

    /// The keys that work now, the least needed last.
    pub(super) fn key_hint(&self) -> String {
        if self.unsaved {
            return "the game is NOT saved · q again: quit without saving · any other key: go on"
                .to_string();
        }
        if self.help {
            return "any key closes the help".to_string();
        }
        let q = if self.table().is_some() {
            "q leave"
        } else {
            "q save, quit"
        };
        if self.over() {
            return format!("Esc table · e result · Tab displays · ←↑→↓ scroll · ? help · {q}");
        }
        if self.replay.is_some() {
            return format!("replaying the moves since yours · any key stops · {q}");
        }
        // Only the keys that work now.
        if self.placing.is_some() {
            let back = if self.can_put_back() {
                " · Esc back"
            } else {
                ""
            };
            return format!("←↑→↓ cell · r R turn · Enter place{back} · ? help · {q}");
        }
        let mut k: Vec<String> = Vec::new();
        // The number keys that choose a tile now: the offer's filled slots, which keep their
        // numbers until the refill, or the stored tiles.
        let span = |keys: Vec<usize>, what: &str| match keys.as_slice() {
            [] => None,
            [one] => Some(format!("{one} {what}")),
            [first, .., last] if last - first + 1 == keys.len() => {
                Some(format!("{first}-{last} {what}"))
            }
            _ => {
                let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                Some(format!("{} {what}", keys.join(",")))
            }
        };
        match self.game().expects() {
            Some(Expect::Turn) if self.my_turn() => {
                let free = (1..=self.slots.len()).filter(|&i| self.slots[i - 1].is_some());
                k.extend(span(free.collect(), "tile"))
            }
            Some(Expect::IntermezzoPick) if self.my_turn() => {
                let stored = self.game().intermezzo_storage().len();
                k.extend(span((1..=stored).collect(), "stored tile"))
            }
            _ => {}
        }
        if self.my_turn() && self.may(|m| matches!(m, Move::Intermezzo { .. })) {
            k.push("i intermezzo".into());
        }
        if self.my_turn() && self.may(|m| matches!(m, Move::Pass)) {
            k.push("p pass".into());
        }
        // The least needed last: a narrow screen leaves them out first.
        k.extend(["←↑→↓ scroll", "Tab", "? help", "PgUp log", "d pile"].map(String::from));
        if self
            .since_start()
            .is_some_and(|s| s < self.narration.entries.len())
        {
            k.push("w replay".into());
        }
        format!("{} · {q}", k.join(" · "))
    }
}

/// "1 to 5", "2 or 3", "1, 3 or 5": the keys that choose a tile.
pub(super) fn numbers(keys: &[usize]) -> String {
    match keys {
        [] => "none".to_string(),
        [one] => one.to_string(),
        _ if keys.len() > 2 && keys.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("{} to {}", keys[0], keys[keys.len() - 1])
        }
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(|k| k.to_string()).collect();
            format!("{} or {last}", rest.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::numbers;

    #[test]
    fn the_keys_that_choose_a_tile_read_as_english() {
        assert_eq!(numbers(&[2, 3]), "2 or 3");
        assert_eq!(numbers(&[1, 2, 3]), "1 to 3");
        assert_eq!(numbers(&[1, 2, 4]), "1, 2 or 4");
        assert_eq!(numbers(&[4]), "4");
    }
}
