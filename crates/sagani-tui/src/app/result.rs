//! The end-of-game window: the ranking with points and Cacophony, ties, a solo's result, and
//! why a server's game ended early.

use super::state::App;
use crate::online;
use crate::style;
use crate::words;
use ratatui::text::Line;
use sagani_core::Outcome;

impl App {
    pub(super) fn result_lines(&self) -> Vec<Line<'static>> {
        let g = self.game();
        let mut lines = Vec::new();
        // A server's table may have ended early (a resignation in solo, abandoned, …).
        let ended = self.table().and_then(|t| t.state.ended);
        if let Some(why) = &ended {
            lines.push(Line::styled(
                format!("The game ended early: {}.", online::ended_text(*why)),
                style::bold(),
            ));
        }
        let outcome = g
            .outcome()
            .or_else(|| self.table().and_then(|t| t.state.outcome.clone()));
        match outcome {
            Some(Outcome::Ranking { ranking, scores }) => {
                // At a server's table, its final order: who left (timed out, resigned) is
                // placed last whatever their bot scored, as the page and the ratings have it.
                let seats = self.table().map(|t| &t.state.seats);
                let left = |s: u8| seats.and_then(|seats| seats.get(s as usize)?.replaced.as_ref());
                let order = match self.table() {
                    Some(t) if !t.state.standings.is_empty() => t.state.standings.clone(),
                    _ => ranking,
                };
                for (i, &s) in order.iter().enumerate() {
                    let gone = match left(s) {
                        Some(r) => format!(" (left: {})", online::leave_text(r.reason)),
                        None => String::new(),
                    };
                    lines.push(Line::raw(format!(
                        "{}. {:<14} {:>3} points, Cacophony {}{gone}",
                        i + 1,
                        self.labels[s as usize],
                        scores[s as usize],
                        g.cacophony(s)
                    )));
                }
                for pair in order.windows(2) {
                    let stayed = left(pair[0]).is_none() && left(pair[1]).is_none();
                    if stayed && scores[pair[0] as usize] == scores[pair[1] as usize] {
                        lines.push(Line::raw(format!(
                            "{} ranks ahead of {} at {}: their marker got there first.",
                            self.labels[pair[0] as usize],
                            self.labels[pair[1] as usize],
                            scores[pair[0] as usize]
                        )));
                    }
                }
            }
            Some(Outcome::Solo {
                tiles_used,
                score,
                reached,
                symphony,
            }) => {
                lines.push(Line::raw(if reached {
                    format!("75 reached with {tiles_used} tiles ({score} points).")
                } else {
                    format!("The pile ran out at {score} points ({tiles_used} tiles).")
                }));
                if symphony {
                    lines.push(Line::styled("A magical symphony!", style::bold()));
                }
            }
            Some(Outcome::SoloAll {
                score,
                discs_left,
                final_score,
            }) => lines.push(Line::raw(format!(
                "Final score {final_score}: {score} points − {} left on tiles.",
                words::count(discs_left as usize, "disc")
            ))),
            None => {}
        }
        lines.push(Line::raw(""));
        let q = if self.table().is_some() {
            "q leaves the table"
        } else {
            "q saves the record and quits"
        };
        lines.push(Line::styled(
            format!("{q} · Esc shows the table · e this again"),
            style::dim(),
        ));
        lines
    }
}
