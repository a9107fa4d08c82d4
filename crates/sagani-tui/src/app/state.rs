//! The game at the terminal as it stands: where it is played, who plays each seat, what is
//! shown, what happened since a person here moved, a bot's decision under way. The files
//! beside this one change it (keys, the mouse, the pace of bots, the server's news) or draw it.

use super::placing::Placing;
use super::player::{Options, Player, SaveTo};
use super::told::Told;
use crate::board::{Beyond, Scroll};
use crate::bots::Thinking;
use crate::narration::Narration;
use crate::online::{self, Refusal};
use crate::record_file;
use crate::screen::Hits;
use crate::words::Whose;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::crossterm::event::KeyCode;
use sagani_ai::Decision;
use sagani_core::record::RecordedGame;
use sagani_core::{Cell, Expect, Game, Move, TileId};
use std::path::PathBuf;
use std::time::Instant;

/// Why a game could not start at the terminal.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{players} players for {seats} seats")]
    Seats { players: usize, seats: usize },
    /// The server did not answer with the table (its page, why).
    #[error("{page}: {refusal}")]
    Server { page: String, refusal: Refusal },
    /// The server's view of the table is not a game.
    #[error(transparent)]
    NotAGame(crate::online::OnlineError),
}

/// Where the game is played.
pub enum Source {
    /// Here: the whole game with its record, bots on threads.
    Local(Box<RecordedGame>),
    /// At a table on a server, which has the truth.
    Online(Box<online::Table>),
}

pub struct App {
    pub(super) source: Source,
    pub(super) players: Vec<Player>,
    pub(super) labels: Vec<String>,
    pub(super) opts: Options,
    pub(super) placing: Option<Placing>,
    /// The display in focus (Tab).
    pub(super) shown: u8,
    /// Each display's scroll.
    pub(super) scrolls: Vec<(Scroll, Beyond)>,
    pub(super) help: bool,
    /// The draw pile's window is open (`d`).
    pub(super) pile: bool,
    /// The end-of-game window is shown (Esc hides it, `e` brings it back).
    pub(super) result: bool,
    pub(super) message: Option<(String, bool)>,
    /// Every move as a sentence: the log, and what happened since a person's move.
    pub(super) narration: Narration,
    /// How many lines the log is scrolled back from its end (PgUp, PgDn).
    pub(super) log_scroll: usize,
    /// The offer display by slot: a taken tile leaves its slot empty until the refill, so the
    /// number keys keep their tiles.
    pub(super) slots: Vec<Option<TileId>>,
    /// Where the last frame drew what, for the mouse.
    pub(super) hits: Hits,
    /// A drag on a display: where it was last, to scroll by how far it moved.
    pub(super) drag: Option<(u16, u16)>,
    /// The moves since my move played again on the board (`w`): which log entry, since when,
    /// and whether a frame showed it yet (each one is seen, however fast the pace).
    pub(super) replay: Option<(usize, Instant, bool)>,
    /// A bot's decision under way, and since when.
    pub(super) thinking: Option<(Thinking, Instant)>,
    /// The bots tell here when they have chosen, for a wait (`wait_for_bots`).
    pub(super) told: Told,
    /// A bot's answer waiting for the pace.
    pub(super) ready: Option<(u8, Decision)>,
    pub(super) last_move: Instant,
    /// Where the game was saved, once `q` saved it.
    pub(super) saved: Option<PathBuf>,
    /// A save failed: another `q` quits without saving.
    pub(super) unsaved: bool,
    /// Left with a second `q` after a failed save.
    pub(super) abandoned: bool,
    /// The last frame was too small for the table: only q works, nothing happens unseen.
    pub(super) too_small: bool,
    /// What went wrong with a bot, shown until the next person moves.
    pub(super) warning: Option<String>,
    /// After a bot's move, its display stays in sight for the pace, then the next player's.
    pub(super) show_next: Option<(Instant, u8)>,
    /// Cursor and turn of a tile put back, offered again to the next tile of the same turn.
    pub(super) spot: Option<(Cell, u8)>,
    pub(super) rng: ChaCha8Rng,
}

impl App {
    /// A game already set up (new, or loaded), with one player per seat.
    pub fn new(rg: RecordedGame, players: Vec<Player>, opts: Options) -> Result<App, StartError> {
        let seats = rg.game().players() as usize;
        if players.len() != seats {
            return Err(StartError::Seats {
                players: players.len(),
                seats,
            });
        }
        let humans = players.iter().filter(|p| p.is_human()).count();
        let labels: Vec<String> = players
            .iter()
            .enumerate()
            .map(|(s, p)| match p {
                Player::Human { name } if name.is_empty() && humans == 1 => "You".to_string(),
                Player::Human { name } if name.is_empty() => format!("Player {}", s + 1),
                Player::Human { name } => name.clone(),
                Player::Bot { name, .. } => format!("P{} {name}", s + 1),
                Player::Remote => format!("Player {}", s + 1),
            })
            .collect();
        // A loaded game goes on with its log and its offer's slots as they were: both come
        // from playing its moves again.
        let moves: Vec<(u8, Move)> = rg.record().moves.iter().map(|m| (m.player, m.mv)).collect();
        let mut slots: Option<Vec<Option<TileId>>> = None;
        let narration = match Game::new(&rg.record().setup()) {
            Ok(start) => {
                let mut g = start.clone();
                let mut s: Vec<Option<TileId>> = g.offer().iter().map(|&t| Some(t)).collect();
                for &(_, mv) in &moves {
                    if g.play(mv).is_err() {
                        break;
                    }
                    s = next_slots(&s, g.offer());
                }
                slots = Some(s);
                let whose = |seat: u8| whose_of(&players, &labels, seat, false);
                Narration::replay(&start, &moves, &labels, whose)
            }
            Err(_) => Narration::default(),
        };
        Ok(App::with(
            Source::Local(Box::new(rg)),
            players,
            labels,
            narration,
            slots,
            opts,
        ))
    }

    pub(super) fn with(
        source: Source,
        mut players: Vec<Player>,
        labels: Vec<String>,
        narration: Narration,
        slots: Option<Vec<Option<TileId>>>,
        opts: Options,
    ) -> App {
        let told = Told::new();
        for p in &mut players {
            if let Player::Bot { bot, .. } = p {
                *bot = bot.take().map(|b| told.wrap(b));
            }
        }
        let seats = players.len();
        let mut app = App {
            source,
            shown: 0,
            scrolls: vec![Default::default(); seats],
            pile: false,
            narration,
            log_scroll: 0,
            slots: Vec::new(),
            hits: Hits::default(),
            drag: None,
            replay: None,
            labels,
            rng: ChaCha8Rng::seed_from_u64(opts.seed ^ 0x5eed),
            last_move: opts.clock.now(),
            opts,
            players,
            placing: None,
            help: false,
            result: true,
            message: None,
            thinking: None,
            told,
            ready: None,
            saved: None,
            unsaved: false,
            abandoned: false,
            too_small: false,
            warning: None,
            show_next: None,
            spot: None,
        };
        app.shown = match (&app.source, app.game().to_act()) {
            // At a table, my own display first.
            (Source::Online(t), _) => t.state.you.unwrap_or(0),
            (_, Some(s)) => s,
            _ => 0,
        };
        app.slots = slots.unwrap_or_else(|| app.game().offer().iter().map(|&t| Some(t)).collect());
        app.tick();
        app
    }

    /// The time now, as the clock the game was handed tells it.
    pub(super) fn now(&self) -> Instant {
        self.opts.clock.now()
    }

    pub fn game(&self) -> &Game {
        match &self.source {
            Source::Local(rg) => rg.game(),
            Source::Online(t) => &t.game,
        }
    }

    /// The game with its record, when it is played here.
    pub fn recorded(&self) -> Option<&RecordedGame> {
        match &self.source {
            Source::Local(rg) => Some(rg),
            Source::Online(_) => None,
        }
    }

    /// The table on a server, when it is played there.
    pub fn table(&self) -> Option<&online::Table> {
        match &self.source {
            Source::Online(t) => Some(t),
            Source::Local(_) => None,
        }
    }

    /// Over by the rules, or ended early at a server (a resignation in solo, abandoned, …).
    pub fn over(&self) -> bool {
        self.game().is_over()
            || self
                .table()
                .is_some_and(|t| t.state.status == sagani_protocol::GameStatus::Over)
    }

    /// Set once `q` saved the game: the terminal loop then ends.
    pub fn saved(&self) -> Option<&PathBuf> {
        self.saved.as_ref()
    }

    /// Saved with `q`, or left without saving after a failed save (or, at a server's table,
    /// left with `q`).
    pub fn done(&self) -> bool {
        self.saved.is_some() || self.abandoned
    }

    /// A bot is to act (thinking, or its answer waiting for the pace).
    pub fn bot_to_act(&self) -> bool {
        self.game()
            .to_act()
            .is_some_and(|s| matches!(self.players[s as usize], Player::Bot { .. }))
    }

    /// Lines in the log so far (moves, and the final round's start).
    pub fn log_len(&self) -> usize {
        self.narration.entries.len()
    }

    /// The log as it reads: "12. Bea placed Fire 10 left of their Water 6: +12".
    pub fn log_lines(&self) -> Vec<String> {
        Narration::lines(&self.narration.entries)
    }

    /// The seat whose "since your move" the screen tells: mine at a server's table; here the
    /// person to act, else the person here who moved last (or the first person's seat).
    pub(super) fn reader(&self) -> Option<u8> {
        if let Some(t) = self.table() {
            return Some(t.conn.seat);
        }
        let human = |s: u8| self.players.get(s as usize).is_some_and(Player::is_human);
        if let Some(s) = self.game().to_act().filter(|&s| human(s)) {
            return Some(s);
        }
        self.narration
            .entries
            .iter()
            .rev()
            .find_map(|e| e.played.as_ref().map(|p| p.0).filter(|&s| human(s)))
            .or_else(|| (0..self.players.len() as u8).find(|&s| human(s)))
    }

    /// Where "since your move" begins in the log; none with nobody here to read it.
    pub(super) fn since_start(&self) -> Option<usize> {
        self.reader().map(|s| self.narration.since(s))
    }

    /// Per seat, the tiles to outline as new: those placed since the reader's move, and that
    /// move's own (so alone at the table, only the latest tile); with only bots, each
    /// display's latest tile.
    pub(super) fn fresh(&self) -> Vec<Vec<TileId>> {
        let mut fresh = vec![Vec::new(); self.players.len()];
        let entries = &self.narration.entries;
        // The reader's own latest tile too, so a move just made is seen where it went.
        let from = self.reader().map(|me| {
            let start = self.narration.since(me);
            let own = start
                .checked_sub(1)
                .filter(|&i| entries[i].played.as_ref().is_some_and(|p| p.0 == me));
            own.unwrap_or(start)
        });
        match from {
            Some(start) => {
                for (seat, tile) in entries[start..].iter().filter_map(|e| e.placed()) {
                    if let Some(f) = fresh.get_mut(seat as usize) {
                        f.push(tile);
                    }
                }
            }
            None => {
                for (seat, tile) in entries.iter().filter_map(|e| e.placed()) {
                    if let Some(f) = fresh.get_mut(seat as usize) {
                        *f = vec![tile];
                    }
                }
            }
        }
        fresh
    }

    /// The key that chooses the k-th tile that may be chosen now: of the offer, by slot (a
    /// taken tile leaves its slot empty until the refill); in an intermezzo, of the storage.
    /// For scripts and tests, which count the tiles that are there.
    pub fn tile_key(&self, k: usize) -> KeyCode {
        let slot = match self.game().expects() {
            Some(Expect::IntermezzoPick) => Some(k),
            _ => (0..self.slots.len())
                .filter(|&i| self.slots[i].is_some())
                .nth(k),
        };
        char::from_digit(slot.unwrap_or(k) as u32 + 1, 10).map_or(KeyCode::Null, KeyCode::Char)
    }

    /// The offer display by slot, as the strip shows it.
    pub fn offer_slots(&self) -> &[Option<TileId>] {
        &self.slots
    }

    /// The move Enter would play: the tile being placed, where the cursor is, as turned.
    pub fn placement(&self) -> Option<Move> {
        self.placing.as_ref().map(Placing::placement)
    }

    pub fn thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Where `q` saves the game.
    pub fn save_to(&self) -> &SaveTo {
        &self.opts.save_to
    }

    /// The record with the seats and seed, as `q` saves it (a game played here; a server
    /// keeps its own).
    pub fn save_json(&self) -> Option<String> {
        let kinds: Vec<String> = self.players.iter().map(Player::kind).collect();
        let rg = self.recorded()?;
        Some(record_file::to_json(rg.record(), &kinds, self.opts.seed))
    }

    /// Shows a display from its middle; the acting player's with the tile being placed in
    /// sight.
    pub(super) fn show_seat(&mut self, seat: u8) {
        self.shown = seat;
        if self.placing.is_some() && self.game().to_act() == Some(seat) {
            self.scroll().0.follow = true;
        }
    }

    /// The scroll of the display in focus.
    pub(super) fn scroll(&mut self) -> &mut (Scroll, Beyond) {
        let i = (self.shown as usize).min(self.scrolls.len() - 1);
        &mut self.scrolls[i]
    }

    pub(super) fn say(&mut self, text: String, error: bool) {
        self.message = Some((text, error));
    }

    /// Whose tiles a sentence about `seat` speaks of.
    pub(super) fn whose(&self, seat: u8) -> Whose {
        let bot_there = self
            .table()
            .is_some_and(|t| online::bot_plays(&t.state, seat));
        whose_of(&self.players, &self.labels, seat, bot_there)
    }

    /// The offer's slots after a change: a tile taken leaves its slot empty; a refill (new
    /// tiles) lays the offer out afresh.
    pub(super) fn update_slots(&mut self) {
        self.slots = next_slots(&self.slots, self.game().offer());
    }

    /// A person here is to act.
    pub(super) fn my_turn(&self) -> bool {
        self.game()
            .to_act()
            .is_some_and(|s| self.players[s as usize].is_human())
    }

    /// Whether the engine allows an intermezzo choice, or a pass, now.
    pub(super) fn may(&self, what: fn(&Move) -> bool) -> bool {
        self.game().legal_moves().iter().any(what)
    }

    /// The tile being placed may go back (it was chosen, not drawn or revealed).
    pub(super) fn can_put_back(&self) -> bool {
        self.game().revealed().is_none()
    }
}

/// Whose tiles a sentence about `seat` speaks of: `bot_there`, a server's bot plays it.
pub(super) fn whose_of(players: &[Player], labels: &[String], seat: u8, bot_there: bool) -> Whose {
    match players.get(seat as usize) {
        Some(Player::Human { .. }) if labels.get(seat as usize).is_some_and(|l| l == "You") => {
            Whose::Yours
        }
        Some(Player::Bot { .. }) => Whose::Its,
        Some(Player::Remote) if bot_there => Whose::Its,
        _ => Whose::Theirs,
    }
}

/// The offer's slots after a move: a tile taken leaves its slot empty; a refill (new tiles)
/// lays the offer out afresh.
pub(super) fn next_slots(slots: &[Option<TileId>], offer: &[TileId]) -> Vec<Option<TileId>> {
    let kept: Vec<TileId> = slots.iter().flatten().copied().collect();
    if !offer.is_empty() && offer.iter().all(|t| kept.contains(t)) {
        slots
            .iter()
            .map(|s| s.filter(|t| offer.contains(t)))
            .collect()
    } else {
        offer.iter().map(|&t| Some(t)).collect()
    }
}
