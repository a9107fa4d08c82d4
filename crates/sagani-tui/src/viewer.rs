//! `sagani view`: steps through a record move by move, showing the table after each one and
//! what the move did.

use crate::board::{Beyond, Overlay, Scroll};
use crate::help;
use crate::keys;
use crate::notation::{describe, short};
use crate::screen::{self, Numbered, Scene};
use crate::style;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::text::Line;
use ratatui::Frame;
use sagani_core::record::{Record, RecordMove};
use sagani_core::{Game, IllegalMove, Move, SetupError, TileId};

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
        let labels = (0..record.players as usize)
            .map(|s| match seats.as_ref().map(|v| v[s].as_str()) {
                Some("human") | None => format!("Player {}", s + 1),
                Some(bot) => format!("P{} {bot}", s + 1),
            })
            .collect();
        let labels_len = record.players as usize;
        Ok(Viewer {
            name,
            record,
            states,
            labels,
            at: 0,
            shown: 0,
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
        if let Some(m) = self.last() {
            self.shown = m.player;
        }
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
        let log: Vec<String> = self.record.moves[..self.at]
            .iter()
            .map(|m| format!("P{} {}", m.player + 1, short(m.mv)))
            .collect();
        if let Some(m) = self.last() {
            let before = &self.states[self.at - 1];
            let who = &self.labels[m.player as usize];
            info.push(Line::styled(
                format!(
                    "Move {} of {total}: {}",
                    self.at,
                    describe(before, who, m.mv)
                ),
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
            info.push(Line::raw(if game.is_over() {
                "The end of the game.".to_string()
            } else {
                "The end of the record (the game was not over).".to_string()
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
            since: &[],
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
