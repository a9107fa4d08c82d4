//! `sagani view`: steps through a record move by move, showing the table after each one and
//! what the move did.

use crate::board::{Beyond, Overlay, Scroll};
use crate::help;
use crate::keys;
use crate::narration::Narration;
use crate::screen::{self, Numbered, Scene};
use crate::style;
use crate::words::{self, Whose};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::text::Line;
use ratatui::Frame;
use sagani_core::record::{Record, RecordMove};
use sagani_core::{Game, IllegalMove, Move, Outcome, SetupError, TileId};

/// Why a record cannot be shown: it does not replay (`load` checks this first).
#[derive(Debug, thiserror::Error)]
pub enum ViewerError {
    #[error("{name}: record: {source}")]
    Setup {
        name: String,
        #[source]
        source: SetupError,
    },
    #[error("{name}: move {index}: {source}")]
    Illegal {
        name: String,
        index: usize,
        #[source]
        source: IllegalMove,
    },
}

pub struct Viewer {
    name: String,
    record: Record,
    /// The game before move i is `states[i]`; the last one is after every move.
    states: Vec<Game>,
    labels: Vec<String>,
    /// Every move as a sentence, as the game told it.
    narration: Narration,
    at: usize,
    shown: u8,
    /// Each display's scroll.
    scrolls: Vec<(Scroll, Beyond)>,
    help: bool,
    /// The last frame was too small for the table: only q (and Esc) work.
    too_small: bool,
    pub done: bool,
}

impl Viewer {
    /// A viewer of a record that replays (the caller checked it with `load`).
    pub fn new(
        name: String,
        record: Record,
        seats: Option<Vec<String>>,
    ) -> Result<Viewer, ViewerError> {
        let mut game = Game::new(&record.setup()).map_err(|source| ViewerError::Setup {
            name: name.clone(),
            source,
        })?;
        let mut states = vec![game.clone()];
        for (index, m) in record.moves.iter().enumerate() {
            game.play(m.mv).map_err(|source| ViewerError::Illegal {
                name: name.clone(),
                index,
                source,
            })?;
            states.push(game.clone());
        }
        let kind = |s: usize| seats.as_ref().and_then(|v| v.get(s)).map(String::as_str);
        let labels: Vec<String> = (0..record.players as usize)
            .map(|s| match kind(s) {
                Some("human" | "remote") | None => format!("Player {}", s + 1),
                Some(bot) => format!("P{} {bot}", s + 1),
            })
            .collect();
        let whose = |s: u8| match kind(s as usize) {
            Some("human" | "remote") | None => Whose::Theirs,
            Some(_) => Whose::Its,
        };
        let moves: Vec<(u8, Move)> = record.moves.iter().map(|m| (m.player, m.mv)).collect();
        let narration = Narration::replay(&states[0], &moves, &labels, whose);
        let labels_len = record.players as usize;
        // At the start, the display of the player who begins, as the marker says.
        let shown = states[0].to_act().unwrap_or(0);
        Ok(Viewer {
            name,
            record,
            states,
            labels,
            narration,
            at: 0,
            shown,
            scrolls: vec![Default::default(); labels_len],
            help: false,
            too_small: false,
            done: false,
        })
    }

    /// Moves shown so far (0: the start).
    pub fn at(&self) -> usize {
        self.at
    }

    pub fn game(&self) -> &Game {
        &self.states[self.at]
    }

    fn last(&self) -> Option<&RecordMove> {
        self.at.checked_sub(1).map(|i| &self.record.moves[i])
    }

    fn go(&mut self, to: usize) {
        self.at = to.min(self.record.moves.len());
        self.shown = match self.last() {
            Some(m) => m.player,
            None => self.states[0].to_act().unwrap_or(0),
        };
        self.scrolls
            .iter_mut()
            .for_each(|s| *s = Default::default());
    }

    pub fn key(&mut self, k: KeyEvent) {
        if k.kind == KeyEventKind::Release {
            return;
        }
        if keys::quits(&k) || k.code == KeyCode::Esc {
            if self.help && k.code == KeyCode::Esc {
                self.help = false;
            } else {
                self.done = true;
            }
            return;
        }
        if keys::swallowed(self.too_small, &mut self.help) {
            return;
        }
        let shift = k.modifiers.contains(KeyModifiers::SHIFT);
        match k.code {
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right if shift => {
                let (dx, dy) = keys::step(k.code);
                let s = &mut self.scrolls[self.shown as usize].0;
                s.dx += dx;
                s.dy += dy;
            }
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') | KeyCode::Char('n') => {
                self.go(self.at + 1)
            }
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Backspace | KeyCode::Char('p') => {
                self.go(self.at.saturating_sub(1))
            }
            KeyCode::PageDown => self.go(self.at + 10),
            KeyCode::PageUp => self.go(self.at.saturating_sub(10)),
            KeyCode::Home | KeyCode::Char('g') => self.go(0),
            KeyCode::End | KeyCode::Char('G') => self.go(usize::MAX),
            KeyCode::Tab => self.shown = (self.shown + 1) % self.record.players,
            KeyCode::BackTab => {
                self.shown = (self.shown + self.record.players - 1) % self.record.players
            }
            KeyCode::Char('c') => self.scrolls[self.shown as usize].0 = Scroll::default(),
            KeyCode::Char('?') => self.help = true,
            _ => {}
        }
    }

    pub fn draw(&mut self, f: &mut Frame) {
        let area = f.area();
        self.too_small = area.width < screen::MIN_WIDTH || area.height < screen::MIN_HEIGHT;
        let game = &self.states[self.at];
        let view = game.view(None);
        let mut fresh: Vec<Vec<TileId>> = vec![Vec::new(); self.record.players as usize];
        let mut info = Vec::new();
        let mut overlay = None;
        let total = self.record.moves.len();
        let mut log = Narration::lines(self.narration.upto(self.at));
        let outcome = game.outcome().filter(|_| self.at == total);
        if let Some(o) = &outcome {
            // The ranking closes the log.
            log.push(format!("The end: {}", self.outcome_words(game, o)));
        }
        if let Some(m) = self.last() {
            let before = &self.states[self.at - 1];
            let told = self
                .narration
                .entries
                .iter()
                .find(|e| e.number == Some(self.at))
                .map_or(String::new(), |e| e.text.clone());
            info.push(Line::styled(
                format!("Move {} of {total}: {told}", self.at),
                style::bold(),
            ));
            if let Move::Place { tile, .. } = m.mv {
                fresh[m.player as usize] = vec![tile];
                // What the move covered, marked as a preview marks it (completed tiles are
                // flipped now and show their backs), on the mover's display only.
                let preview = before.preview(m.mv).ok().filter(|_| m.player == self.shown);
                if let Some(pv) = preview {
                    overlay = Some(Overlay {
                        covered: pv.covered,
                        ..Overlay::default()
                    });
                }
            }
        } else {
            info.push(Line::styled(
                format!("The start: {total} moves follow. → steps on."),
                style::bold(),
            ));
        }
        if self.at == total {
            info.push(Line::raw(match &outcome {
                Some(Outcome::Ranking { ranking, scores }) => {
                    let first = ranking[0] as usize;
                    format!(
                        "The end of the game: {} wins with {}; the ranking closes the log.",
                        self.labels[first],
                        words::count_signed(scores[first], "point")
                    )
                }
                Some(o) => format!("The end of the game: {}", self.outcome_words(game, o)),
                None => "The end of the record (the game was not over).".to_string(),
            }));
        }
        let offer: Vec<Option<TileId>> = view.offer.iter().map(|&t| Some(t)).collect();
        let scene = Scene {
            view: &view,
            names: &self.labels,
            shown: self.shown,
            overlay: overlay.as_ref(),
            fresh: &fresh,
            offer: &offer,
            since: None,
            log_scroll: 0,
            title: format!(
                "Sagani replay · {} · {} · move {}/{total}",
                self.name, view.variant, self.at
            ),
            progress: None,
            numbered: Numbered::None,
            info,
            keys: "→ next · ← back · PgUp/PgDn ten · Home/End · Tab displays · ? help · q quit"
                .to_string(),
            log: &log,
            clocks: None,
            popup: self
                .help
                .then(|| ("Keys and signs (any key closes)".to_string(), help::view())),
        };
        screen::draw(f, &scene, &mut self.scrolls);
    }
}

impl Viewer {
    /// The result in a line: "1. Bea 46 points · 2. P2 greedy 32 points (Cacophony 3)".
    fn outcome_words(&self, game: &Game, o: &Outcome) -> String {
        match o {
            Outcome::Ranking { ranking, scores } => {
                let places: Vec<String> = ranking
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| {
                        let caco = game.cacophony(s);
                        let caco = if caco > 0 {
                            format!(" (Cacophony {caco})")
                        } else {
                            String::new()
                        };
                        format!(
                            "{}. {} {}{caco}",
                            i + 1,
                            self.labels[s as usize],
                            words::count_signed(scores[s as usize], "point")
                        )
                    })
                    .collect();
                places.join(" · ")
            }
            Outcome::Solo {
                tiles_used,
                score,
                reached,
                ..
            } => {
                if *reached {
                    format!("75 reached with {tiles_used} tiles ({score} points).")
                } else {
                    format!("The pile ran out at {score} points ({tiles_used} tiles).")
                }
            }
            Outcome::SoloAll {
                score,
                discs_left,
                final_score,
            } => format!(
                "Final score {final_score}: {score} points − {} left on tiles.",
                words::count(*discs_left as usize, "disc")
            ),
        }
    }
}
