//! The scene for `screen.rs`, built from the game and what the terminal shows of it: the
//! displays with the tile being placed (or a move shown again), the title, a bot's progress,
//! the windows, the clocks of a server's table.

use super::state::App;
use crate::board::{Ghost, Overlay};
use crate::help;
use crate::online;
use crate::screen::{self, Numbered, Progress, Scene};
use crate::words;
use ratatui::Frame;
use sagani_core::{Expect, Move};
use sagani_protocol::GameStatus;

impl App {
    pub fn draw(&mut self, f: &mut Frame) {
        let area = f.area();
        self.too_small = area.width < screen::MIN_WIDTH || area.height < screen::MIN_HEIGHT;
        let game = self.game();
        let view = game.view(None);
        let overlay = self.placing.as_ref().map(|p| {
            let (covered, completed) = match &p.preview {
                Ok(pv) => (pv.covered.clone(), pv.completed.clone()),
                Err(_) => (Vec::new(), Vec::new()),
            };
            Overlay {
                cells: p.cells.clone(),
                ghost: Some(Ghost {
                    tile: p.tile,
                    rot: p.rot,
                    cell: p.cursor,
                }),
                covered,
                completed,
            }
        });
        let acting = game.to_act();
        let overlay = overlay.filter(|_| acting == Some(self.shown));
        // Replaying the moves since mine: the move's tile outlined, the arrows it covered marked.
        let replayed = self.replaying();
        let overlay = match &replayed {
            Some((_, _, Some(pv))) => Some(Overlay {
                covered: pv.covered.clone(),
                ..Overlay::default()
            }),
            Some(_) => None,
            None => overlay,
        };
        let mut fresh = self.fresh();
        if let Some((seat, Move::Place { tile, .. }, _)) = &replayed {
            fresh.iter_mut().for_each(Vec::clear);
            fresh[*seat as usize].push(*tile);
        }
        let human = acting.is_some_and(|s| self.players[s as usize].is_human());
        let expects = game.expects();
        let numbered = match (human, expects, &self.placing) {
            (true, Some(Expect::Turn), _) => Numbered::Offer,
            (true, Some(Expect::IntermezzoPick), _) => Numbered::Storage,
            _ => Numbered::None,
        };
        let now = self.now();
        let progress = self.thinking.as_ref().map(|(t, since)| Progress {
            who: self.labels[t.seat as usize].clone(),
            elapsed: now.saturating_duration_since(*since),
            budget: t.budget,
        });
        let popup = if self.help {
            Some(("Keys and signs (any key closes)".to_string(), help::play()))
        } else if self.pile {
            Some(("The draw pile".to_string(), screen::pile_lines(&view)))
        } else if self.over() && self.result {
            Some(("The game is over".to_string(), self.result_lines()))
        } else {
            None
        };
        let log = self.log_lines();
        let scene = Scene {
            view: &view,
            names: &self.labels,
            shown: self.shown,
            overlay: overlay.as_ref(),
            fresh: &fresh,
            offer: &self.slots,
            title: self.title(),
            progress,
            numbered,
            info: self.info(),
            keys: self.key_hint(),
            since: self.since_start(),
            log: &log,
            log_scroll: self.log_scroll,
            popup,
            clocks: self.clocks(),
        };
        self.hits = screen::draw(f, &scene, &mut self.scrolls);
        if let Some(r) = &mut self.replay {
            r.2 = true;
        }
    }

    fn title(&self) -> String {
        let g = self.game();
        let who = match (g.to_act(), g.expects()) {
            (Some(s), Some(e)) => {
                let placing = self.placing.as_ref().map(|p| words::tile_words(p.tile));
                let what = match (e, placing) {
                    (Expect::Turn | Expect::IntermezzoPick, Some(t)) => format!("place {t}"),
                    (e, _) => match e {
                        Expect::Turn => "take a tile",
                        Expect::PlaceDrawn => "place the drawn tile",
                        Expect::IntermezzoPick => "intermezzo: take a stored tile or pass",
                        Expect::PlaceRevealed => "place the revealed tile",
                    }
                    .to_string(),
                };
                format!("▶ {}: {what}", self.labels[s as usize])
            }
            _ => "game over".to_string(),
        };
        // No seed here: it would tell the draw pile's order to anyone looking.
        let Some(t) = self.table() else {
            return format!("Sagani · {} · {who}", g.variant());
        };
        let mut title = match &t.state.daily {
            Some(d) => format!("Sagani · {} · daily challenge {}", g.variant(), d.day),
            None => format!("Sagani · {} · online", g.variant()),
        };
        if let Some(c) = t.control() {
            title.push_str(&format!(" · {c}"));
        }
        let who = match t.state.status {
            GameStatus::Waiting => "waiting for players".to_string(),
            GameStatus::Over => "game over".to_string(),
            GameStatus::Playing => who,
        };
        title.push_str(&format!(" · {who}"));
        if t.offline.is_some() {
            title.push_str(" · OFFLINE, reconnecting");
        }
        title
    }

    /// Each seat's clock as shown: its time, whether it runs, whether it is nearly out.
    fn clocks(&self) -> Option<Vec<Option<screen::Clock>>> {
        let clocks = self.table()?.clocks(self.now())?;
        Some(
            clocks
                .into_iter()
                .map(|c| {
                    c.map(|(ms, running)| screen::Clock {
                        text: online::clock_text(ms),
                        running,
                        low: ms < 30_000,
                    })
                })
                .collect(),
        )
    }
}
