//! A game at the terminal: whose turn it is, the keys of the human to act, the bots' moves, the
//! placement cursor with the engine's preview, saving. No terminal here: keys come in as events
//! and the screen goes out to any ratatui backend, so tests drive it like a player.

use crate::board::{Beyond, Ghost, Overlay, Scroll, PITCH_X, PITCH_Y};
use crate::bots::{Answer, Thinking};
use crate::help;
use crate::keys::{self, step};
use crate::online::{self, Connection, Event, Played};
use crate::record_file;
use crate::screen::Hits;
use crate::screen::{self, Numbered, Progress, Scene};
use crate::style::{self, tile_name};
use crate::words::{self, Whose};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::Frame;
use sagani_ai::{Bot, Budget, Decision};
use sagani_core::record::RecordedGame;
use sagani_core::{Cell, Expect, Game, Move, Outcome, Preview, TileId};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Who plays a seat.
pub enum Player {
    Human {
        name: String,
    },
    Bot {
        /// The bot's name in records (`mcts`, `greedy`, an engine's NAME).
        name: String,
        /// `None` while it thinks on its own thread.
        bot: Option<Box<dyn Bot>>,
        budget: Budget,
    },
    /// Played elsewhere: at a table on a server, by a person in a browser or the server's bot.
    Remote,
}

impl Player {
    pub fn human(name: impl Into<String>) -> Player {
        Player::Human { name: name.into() }
    }

    pub fn bot(name: impl Into<String>, bot: Box<dyn Bot>, budget: Budget) -> Player {
        Player::Bot {
            name: name.into(),
            bot: Some(bot),
            budget,
        }
    }

    fn is_human(&self) -> bool {
        matches!(self, Player::Human { .. })
    }

    /// What the saved game says about the seat.
    fn kind(&self) -> String {
        match self {
            Player::Human { .. } => "human".to_string(),
            Player::Bot { name, .. } => name.clone(),
            Player::Remote => "remote".to_string(),
        }
    }
}

pub struct Options {
    /// Where `q` saves the game.
    pub save_to: SaveTo,
    /// The seed of the bots (kept in the saved game).
    pub seed: u64,
    /// The least time between a bot's move and the one before, so a person can follow.
    pub bot_pace: Duration,
}

/// Where `q` saves the game.
#[derive(Clone, Debug)]
pub enum SaveTo {
    /// This file, replaced if it exists (given with --save, or a game `sagani play` saved).
    File(PathBuf),
    /// A new file in this folder, named when saving so that no other file is overwritten:
    /// `sagani-game.json`, `sagani-game-2.json`, …
    NewIn(PathBuf),
}

/// A tile on its way to a display.
struct Placing {
    tile: TileId,
    /// Cells where it may go, top row first.
    cells: Vec<Cell>,
    cursor: Cell,
    rot: u8,
    preview: Result<Preview, String>,
}

/// Where the game is played.
enum Source {
    /// Here: the whole game with its record, bots on threads.
    Local(Box<RecordedGame>),
    /// At a table on a server, which has the truth.
    Online(Box<online::Table>),
}

pub struct App {
    source: Source,
    players: Vec<Player>,
    labels: Vec<String>,
    opts: Options,
    placing: Option<Placing>,
    /// The display in focus (Tab).
    shown: u8,
    /// Each display's scroll.
    scrolls: Vec<(Scroll, Beyond)>,
    help: bool,
    /// The draw pile's window is open (`d`).
    pile: bool,
    /// The end-of-game window is shown (Esc hides it, `e` brings it back).
    result: bool,
    message: Option<(String, bool)>,
    log: Vec<String>,
    /// Per seat, the tiles placed since the last move of a person here (outlined until they
    /// move again).
    fresh: Vec<Vec<TileId>>,
    /// What happened since the last move of a person here, as sentences, with the moves.
    since: Vec<Said>,
    /// The final round's start was told.
    final_told: bool,
    /// The offer display by slot: a taken tile leaves its slot empty until the refill, so the
    /// number keys keep their tiles.
    slots: Vec<Option<TileId>>,
    /// Where the last frame drew what, for the mouse.
    hits: Hits,
    /// A drag on a display: where it was last, to scroll by how far it moved.
    drag: Option<(u16, u16)>,
    /// The moves since my move played again on the board (`w`): which one, since when, and
    /// whether a frame showed it yet (each one is seen, however fast the pace).
    replay: Option<(usize, Instant, bool)>,
    thinking: Option<Thinking>,
    /// A bot's answer waiting for the pace.
    ready: Option<(u8, Decision)>,
    last_move: Instant,
    /// Where the game was saved, once `q` saved it.
    saved: Option<PathBuf>,
    /// A save failed: another `q` quits without saving.
    unsaved: bool,
    /// Left with a second `q` after a failed save.
    abandoned: bool,
    /// The last frame was too small for the table: only q works, nothing happens unseen.
    too_small: bool,
    /// What went wrong with a bot, shown until the next person moves.
    warning: Option<String>,
    /// After a bot's move, its display stays in sight for the pace, then the next player's.
    show_next: Option<(Instant, u8)>,
    /// Cursor and turn of a tile put back, offered again to the next tile of the same turn.
    spot: Option<(Cell, u8)>,
    rng: ChaCha8Rng,
}

/// A line of "since your move": a move told (or the final round's start), with the move.
#[derive(Clone, Debug)]
struct Said {
    text: String,
    played: Option<(u8, Move, Option<Preview>)>,
}

fn press(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

impl App {
    /// A game already set up (new, or loaded), with one player per seat.
    pub fn new(rg: RecordedGame, players: Vec<Player>, opts: Options) -> Result<App, String> {
        let seats = rg.game().players() as usize;
        if players.len() != seats {
            return Err(format!("{} players for {seats} seats", players.len()));
        }
        let humans = players.iter().filter(|p| p.is_human()).count();
        let labels = players
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
        let moves: Vec<(u8, Move)> = rg.record().moves.iter().map(|m| (m.player, m.mv)).collect();
        Ok(App::with(
            Source::Local(Box::new(rg)),
            players,
            labels,
            &moves,
            opts,
        ))
    }

    /// A seat at a table on a server, as `conn` claimed it; `invites` are the links of the
    /// seats still to hand out (a game this terminal made).
    pub fn online(
        conn: Connection,
        invites: Vec<(u8, String)>,
        opts: Options,
    ) -> Result<App, String> {
        let page = conn.page();
        let state = conn.fetch().map_err(|e| format!("{page}: {e}"))?;
        let played = conn.moves().map_err(|e| format!("{page}: {e}"))?;
        let game = state.game()?;
        let players = (0..state.seats.len() as u8)
            .map(|s| {
                if Some(s) == state.you {
                    Player::human("")
                } else {
                    Player::Remote
                }
            })
            .collect();
        let labels = online::labels(&state);
        let moves: Vec<(u8, Move)> = played.iter().map(|m| (m.seat, m.mv)).collect();
        let table = online::Table::new(conn, state, game, invites);
        Ok(App::with(
            Source::Online(Box::new(table)),
            players,
            labels,
            &moves,
            opts,
        ))
    }

    fn with(
        source: Source,
        players: Vec<Player>,
        labels: Vec<String>,
        moves: &[(u8, Move)],
        opts: Options,
    ) -> App {
        let mut fresh = vec![Vec::new(); players.len()];
        for &(seat, mv) in moves {
            if let Move::Place { tile, .. } = mv {
                fresh[seat as usize] = vec![tile];
            }
        }
        let seats = players.len();
        let mut app = App {
            source,
            shown: 0,
            scrolls: vec![Default::default(); seats],
            pile: false,
            since: Vec::new(),
            final_told: false,
            slots: Vec::new(),
            hits: Hits::default(),
            drag: None,
            replay: None,
            labels,
            rng: ChaCha8Rng::seed_from_u64(opts.seed ^ 0x5eed),
            opts,
            players,
            placing: None,
            help: false,
            result: true,
            message: None,
            log: moves
                .iter()
                .map(|&(seat, mv)| format!("P{} {}", seat + 1, short(mv)))
                .collect(),
            fresh,
            thinking: None,
            ready: None,
            last_move: Instant::now(),
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
        app.final_told = app.game().view(None).final_round;
        app.slots = app.game().offer().iter().map(|&t| Some(t)).collect();
        app.tick();
        app
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
        self.game().is_over() || self.table().is_some_and(|t| t.state.status == "over")
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

    /// Moves played so far, as the log has them.
    pub fn log_len(&self) -> usize {
        self.log.len()
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
        self.placing
            .as_ref()
            .map(|p| Move::place(p.tile, p.cursor, p.rot))
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

    // ----- time passing: bots -----

    /// Moves the game on where no key is needed: starts a bot, plays its answer when the pace
    /// allows, and puts a revealed tile under the cursor of the human who must place it.
    pub fn tick(&mut self) {
        self.hear();
        self.replay_tick();
        if let Some(t) = &self.thinking {
            match t.poll() {
                Answer::Waiting => {}
                Answer::Ready(bot, d) => {
                    let seat = t.seat;
                    if let Player::Bot { bot: slot, .. } = &mut self.players[seat as usize] {
                        *slot = Some(bot);
                    }
                    self.thinking = None;
                    self.ready = Some((seat, d));
                }
                Answer::Lost(why) => {
                    let seat = t.seat;
                    self.thinking = None;
                    let name = self.labels[seat as usize].clone();
                    // A random bot plays the seat from now on; the seat keeps its name, so a
                    // saved game goes on with the bot it had.
                    if let Player::Bot { bot, .. } = &mut self.players[seat as usize] {
                        *bot = Some(Box::new(sagani_ai::RandomBot::new(self.opts.seed)));
                    }
                    self.warning = Some(format!(
                        "{name} failed ({why}); a random bot plays its moves now"
                    ));
                }
            }
        }
        if let Some((at, next)) = self.show_next {
            if at.elapsed() >= self.opts.bot_pace {
                self.show_next = None;
                self.show_seat(next);
            }
        }
        if let Some((seat, _)) = &self.ready {
            let seat = *seat;
            // Nothing is played unseen: a bot's move waits while the table is not shown.
            if self.last_move.elapsed() >= self.opts.bot_pace && !self.too_small {
                let (_, d) = self.ready.take().expect("checked");
                self.play_bot(seat, d);
            }
        }
        let Some(seat) = self.game().to_act() else {
            return;
        };
        match &mut self.players[seat as usize] {
            Player::Bot { bot, budget, .. } => {
                if self.thinking.is_none() && self.ready.is_none() {
                    if let Some(b) = bot.take() {
                        let game = match &self.source {
                            Source::Local(rg) => rg.game(),
                            Source::Online(t) => &t.game,
                        };
                        let (view, legal) = (game.view(Some(seat)), game.legal_moves());
                        self.thinking = Some(Thinking::start(seat, b, view, legal, *budget));
                    }
                }
            }
            Player::Remote => {}
            Player::Human { .. } => {
                if self.placing.is_none() {
                    if let Some(t) = self.game().revealed() {
                        self.begin(t);
                    }
                }
            }
        }
    }

    /// Waits (a real wait: the bot runs on its thread) until a human must act or the game is
    /// over. For tests and scripts; the terminal loop ticks instead.
    pub fn wait_for_bots(&mut self, limit: Duration) -> Result<(), String> {
        let start = Instant::now();
        while self.bot_to_act() {
            if start.elapsed() > limit {
                return Err(format!("the bots took longer than {limit:?}"));
            }
            self.tick();
            std::thread::sleep(Duration::from_millis(2));
        }
        self.tick();
        Ok(())
    }

    fn play_bot(&mut self, seat: u8, d: Decision) {
        let legal = self.game().legal_moves();
        let name = self.labels[seat as usize].clone();
        let mv = if legal.contains(&d.mv) {
            d.mv
        } else {
            let mv = legal[self.rng.random_range(0..legal.len())];
            self.warning = Some(format!(
                "{name} chose an illegal move ({}); a random legal move was played for it",
                d.mv
            ));
            mv
        };
        if let Some(why) = d.fault {
            self.warning = Some(format!("{name}: {why}"));
        }
        self.apply(mv);
    }

    /// Plays a move here, or sends it to the server's table (its answer comes in `hear`).
    fn apply(&mut self, mv: Move) {
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
    fn played(&mut self, seat: u8, mv: Move, effect: Option<&Preview>, picked: bool) {
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
        self.last_move = Instant::now();
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
                self.show_next = Some((Instant::now(), next));
            }
        }
    }

    /// Whose tiles a sentence about `seat` speaks of.
    fn whose(&self, seat: u8) -> Whose {
        let bot_there = self.table().is_some_and(|t| {
            t.state
                .seats
                .get(seat as usize)
                .is_some_and(|s| s.kind == "bot" || s.replaced.is_some())
        });
        match &self.players[seat as usize] {
            Player::Human { .. } if self.labels[seat as usize] == "You" => Whose::Yours,
            Player::Bot { .. } => Whose::Its,
            Player::Remote if bot_there => Whose::Its,
            _ => Whose::Theirs,
        }
    }

    /// The offer's slots after a change: a tile taken leaves its slot empty; a refill (new
    /// tiles) lays the offer out afresh.
    fn update_slots(&mut self) {
        let offer = self.game().offer().to_vec();
        let kept: Vec<TileId> = self.slots.iter().flatten().copied().collect();
        if !offer.is_empty() && offer.iter().all(|t| kept.contains(t)) {
            for s in &mut self.slots {
                if s.is_some_and(|t| !offer.contains(&t)) {
                    *s = None;
                }
            }
        } else {
            self.slots = offer.into_iter().map(Some).collect();
        }
    }

    /// What the server's table said since the last look: new states with their moves, the
    /// answer to a move sent, a lost connection.
    fn hear(&mut self) {
        let Source::Online(t) = &mut self.source else {
            return;
        };
        for event in t.conn.poll() {
            match event {
                Event::State(state, moves) => self.take(state, moves),
                Event::Answer(Ok(state)) => {
                    let moves = state.last_move.clone().into_iter().collect();
                    self.take(state, moves);
                    self.sent();
                }
                Event::Answer(Err(refusal)) => {
                    self.sent();
                    self.say(format!("the server refused the move: {refusal}"), true);
                    // The table as it is now (another seat may have moved meanwhile).
                    let fetched = match &self.source {
                        Source::Online(t) => t.conn.fetch(),
                        Source::Local(_) => continue,
                    };
                    if let Ok(state) = fetched {
                        self.take(state, Vec::new());
                    }
                }
                Event::Offline(why) => {
                    if let Source::Online(t) = &mut self.source {
                        t.offline = Some(why);
                    }
                }
            }
        }
    }

    fn sent(&mut self) {
        if let Source::Online(t) = &mut self.source {
            t.sending = false;
        }
    }

    /// A state from the server: newer ones are shown, with every move since the one shown
    /// noted in order (fetched when the socket's message does not hold them all).
    fn take(&mut self, state: Box<online::State>, moves: Vec<Played>) {
        let Source::Online(t) = &mut self.source else {
            return;
        };
        t.offline = None;
        let known = t.state.version;
        // An older state (a late answer), or one for a spectator (a socket's first message,
        // before it is the seat's), shows nothing new.
        if state.version < known || state.you != Some(t.conn.seat) {
            return;
        }
        let between = |all: Vec<Played>| -> Vec<Played> {
            all.into_iter()
                .filter(|m| m.version >= known && m.version < state.version)
                .collect()
        };
        let mut news = between(moves);
        if news.len() as u64 != state.version - known {
            news = t.conn.moves().map(between).unwrap_or_default();
        }
        let game = match state.game() {
            Ok(g) => g,
            Err(e) => {
                self.warning = Some(e);
                return;
            }
        };
        let notes = t.changes(&state);
        // Tiles in the storage before, or stored meanwhile, are placed by an intermezzo pick.
        let mut stored = t.state.view.intermezzo.clone();
        t.game = game;
        t.state = state;
        t.arrived = Instant::now();
        self.labels = online::labels(&t.state);
        // A bot plays my seat now (I ran out of time, or resigned elsewhere): watch it play.
        let me = t.conn.seat as usize;
        if t.state.seats.get(me).is_some_and(|s| s.replaced.is_some()) {
            self.players[me] = Player::Remote;
        }
        for m in news {
            let picked = matches!(m.mv, Move::Place { tile, .. } if stored.contains(&tile));
            if let Move::Intermezzo { tile } = m.mv {
                stored.push(tile);
            }
            self.played(m.seat, m.mv, m.effect.as_ref(), picked);
        }
        self.update_slots();
        if !notes.is_empty() {
            self.warning = Some(notes.join(" "));
        }
        // A placement under way that the game no longer asks for (a seat taken over) is gone.
        if self.game().to_act() != self.table().and_then(|t| t.state.you) {
            self.placing = None;
        }
    }

    /// Shows a display from its middle; the acting player's with the tile being placed in
    /// sight.
    fn show_seat(&mut self, seat: u8) {
        self.shown = seat;
        if self.placing.is_some() && self.game().to_act() == Some(seat) {
            self.scroll().0.follow = true;
        }
    }

    /// The scroll of the display in focus.
    fn scroll(&mut self) -> &mut (Scroll, Beyond) {
        let i = (self.shown as usize).min(self.scrolls.len() - 1);
        &mut self.scrolls[i]
    }

    fn say(&mut self, text: String, error: bool) {
        self.message = Some((text, error));
    }

    // ----- keys -----

    pub fn key(&mut self, k: KeyEvent) {
        if k.kind == KeyEventKind::Release {
            return;
        }
        if keys::quits(&k) {
            self.quit();
            return;
        }
        if std::mem::take(&mut self.unsaved) {
            self.message = None;
        }
        if keys::swallowed(self.too_small, &mut self.help) || std::mem::take(&mut self.pile) {
            return;
        }
        // Any key ends a replay of the last moves (and does what it does).
        if self.replay.take().is_some() {
            self.message = None;
        }
        let shift = k.modifiers.contains(KeyModifiers::SHIFT);
        match k.code {
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('d') => self.pile = true,
            KeyCode::Char('w') if self.placing.is_none() => self.replay_start(),
            KeyCode::Tab => self.show(1),
            KeyCode::BackTab => self.show(-1),
            KeyCode::Char('c') => self.scroll().0 = Scroll::default(),
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right
                if shift || self.placing.is_none() =>
            {
                let (dx, dy) = step(k.code);
                let s = &mut self.scroll().0;
                s.dx += dx;
                s.dy += dy;
            }
            _ if self.over() => self.key_over(k),
            _ => self.key_turn(k),
        }
        self.tick();
    }

    pub fn keys(&mut self, codes: &[KeyCode]) {
        for &c in codes {
            self.key(press(c));
        }
    }

    // ----- the moves since mine, again -----

    /// `w`: the moves since the last move of a person here, one after another on the board.
    fn replay_start(&mut self) {
        let first = self.since.iter().position(|s| s.played.is_some());
        match first {
            Some(i) => {
                self.replay = Some((i, Instant::now(), false));
                self.replay_show();
            }
            None => self.say("no moves since yours to show again".into(), false),
        }
    }

    /// The move being shown again, if a replay runs.
    fn replaying(&self) -> Option<(u8, Move, Option<Preview>)> {
        let (i, _, _) = self.replay?;
        self.since.get(i)?.played.clone()
    }

    fn replay_show(&mut self) {
        let Some((i, _, _)) = self.replay else { return };
        let n = self.since.iter().filter(|s| s.played.is_some()).count();
        let k = self.since[..=i]
            .iter()
            .filter(|s| s.played.is_some())
            .count();
        if let Some((seat, _, _)) = self.since[i].played.clone() {
            self.show_seat(seat);
        }
        let text = format!("Again, {k} of {n}: {}", self.since[i].text);
        self.say(text, false);
    }

    /// The replay goes on at the pace, and ends after the last move.
    fn replay_tick(&mut self) {
        let Some((i, at, seen)) = self.replay else {
            return;
        };
        // Twice a bot's pace a move (0 with no pace, as tests set it), once it was drawn.
        if !seen || at.elapsed() < self.opts.bot_pace * 2 {
            return;
        }
        let next = (i + 1..self.since.len()).find(|&j| self.since[j].played.is_some());
        match next {
            Some(j) => {
                self.replay = Some((j, Instant::now(), false));
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

    // ----- the mouse -----

    /// A click chooses an offer or storage tile (as its number key), moves the cursor to a
    /// cell of the display being placed on (a second click on it places the tile, as Enter
    /// does), or brings a display into focus; the wheel and a drag scroll the display under
    /// the pointer.
    pub fn mouse(&mut self, m: MouseEvent) {
        let (col, row) = (m.column, m.row);
        if self.too_small {
            return;
        }
        if matches!(m.kind, MouseEventKind::Down(_)) && (self.help || self.pile) {
            self.help = false;
            self.pile = false;
            return;
        }
        let under = self.hits.cell(col, row);
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.replay = None;
                let at = |list: &[(Rect, usize)]| {
                    list.iter()
                        .find(|(r, _)| r.contains(Position::new(col, row)))
                        .map(|&(_, i)| i)
                };
                let chosen = match self.game().expects() {
                    Some(Expect::Turn) => at(&self.hits.offer),
                    Some(Expect::IntermezzoPick) => at(&self.hits.storage),
                    _ => None,
                };
                if let Some(i) = chosen {
                    if let Some(digit) = char::from_digit(i as u32 + 1, 10) {
                        self.key(press(KeyCode::Char(digit)));
                    }
                    return;
                }
                let Some((seat, cell)) = under else { return };
                self.drag = Some((col, row));
                let placing_here =
                    self.placing.is_some() && self.game().to_act() == Some(seat) && self.my_turn();
                if !placing_here {
                    self.show_next = None;
                    self.show_seat(seat);
                    return;
                }
                self.show_seat(seat);
                let taken = self.game().display(seat).tiles().any(|t| t.cell == cell);
                let p = self.placing.as_mut().expect("placing");
                if p.cursor == cell {
                    self.key(press(KeyCode::Enter));
                } else if taken {
                    self.say("a tile lies there already".into(), false);
                } else {
                    p.cursor = cell;
                    self.refresh();
                }
            }
            MouseEventKind::Drag(MouseButton::Left) => {
                let Some((x0, y0)) = self.drag else { return };
                let (dx, dy) = (
                    (x0 as i32 - col as i32) / PITCH_X,
                    (y0 as i32 - row as i32) / PITCH_Y,
                );
                if dx != 0 || dy != 0 {
                    let s = &mut self.scroll().0;
                    s.dx += dx;
                    s.dy += dy;
                    self.drag = Some((
                        (x0 as i32 - dx * PITCH_X) as u16,
                        (y0 as i32 - dy * PITCH_Y) as u16,
                    ));
                }
            }
            MouseEventKind::Up(_) => self.drag = None,
            MouseEventKind::ScrollUp
            | MouseEventKind::ScrollDown
            | MouseEventKind::ScrollLeft
            | MouseEventKind::ScrollRight => {
                let Some((seat, _)) = under else { return };
                let sideways = m.modifiers.contains(KeyModifiers::SHIFT);
                let (dx, dy) = match (m.kind, sideways) {
                    (MouseEventKind::ScrollUp, false) => (0, -1),
                    (MouseEventKind::ScrollDown, false) => (0, 1),
                    (MouseEventKind::ScrollUp, true) | (MouseEventKind::ScrollLeft, _) => (-1, 0),
                    _ => (1, 0),
                };
                let s = &mut self.scrolls[seat as usize].0;
                s.dx += dx;
                s.dy += dy;
            }
            _ => {}
        }
    }

    /// Tab: another display, chosen by the person, so the pace does not switch it back.
    fn show(&mut self, by: i32) {
        let n = self.players.len() as i32;
        self.show_next = None;
        self.show_seat((self.shown as i32 + by).rem_euclid(n) as u8);
    }

    fn quit(&mut self) {
        if self.unsaved {
            self.abandoned = true;
            return;
        }
        // At a server's table the game is the server's to keep: q leaves the table (the seat
        // stays this player's, and its clock runs on).
        let Some(json) = self.save_json() else {
            self.abandoned = true;
            return;
        };
        let saved = match &self.opts.save_to {
            SaveTo::File(path) => record_file::save(path, &json).map(|_| path.clone()),
            SaveTo::NewIn(dir) => record_file::save_new(dir, &json),
        };
        match saved {
            Ok(path) => {
                // Saved once under a new name: later saves go to the same file.
                self.opts.save_to = SaveTo::File(path.clone());
                self.saved = Some(path);
            }
            // The game goes on, and the reason is on screen; a second q leaves without saving.
            Err(e) => {
                self.unsaved = true;
                self.say(
                    format!("{e}. The game goes on; q again quits without saving."),
                    true,
                );
            }
        }
    }

    fn key_over(&mut self, k: KeyEvent) {
        match k.code {
            KeyCode::Esc | KeyCode::Enter => self.result = false,
            KeyCode::Char('e') => self.result = true,
            _ => {}
        }
    }

    fn key_turn(&mut self, k: KeyEvent) {
        let game = self.game();
        let Some(seat) = game.to_act() else { return };
        if !self.players[seat as usize].is_human() {
            self.say(
                format!("{} is to play; wait for it", self.labels[seat as usize]),
                false,
            );
            return;
        }
        let expects = game.expects().expect("the game runs");
        if let KeyCode::Char(ch @ '1'..='9') = k.code {
            let i = ch as usize - '1' as usize;
            // The offer by slot, as the strip shows it; the storage as it lies.
            let (tiles, what): (Vec<Option<TileId>>, &str) = match expects {
                Expect::Turn => (self.slots.clone(), "offer display"),
                Expect::IntermezzoPick => (
                    game.intermezzo_storage().iter().map(|&t| Some(t)).collect(),
                    "intermezzo storage",
                ),
                _ => {
                    self.say("the revealed tile must be placed".into(), true);
                    return;
                }
            };
            match tiles.get(i) {
                Some(Some(t)) => self.begin(*t),
                Some(None) => self.say(
                    format!("slot {} is empty: its tile was taken this round", i + 1),
                    true,
                ),
                None => self.say(format!("the {what} has no tile {}", i + 1), true),
            }
            return;
        }
        if self.placing.is_some() && self.shown != seat {
            // Nothing happens out of sight: the first key brings the tile back into view.
            self.show_seat(seat);
            self.say(
                "back to your display and the tile you are placing".into(),
                false,
            );
            return;
        }
        if let Some(p) = &self.placing {
            let cursor = p.cursor;
            match k.code {
                KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right => {
                    self.go(step(k.code))
                }
                KeyCode::Char('h') => self.go((-1, 0)),
                KeyCode::Char('j') => self.go((0, 1)),
                KeyCode::Char('k') => self.go((0, -1)),
                KeyCode::Char('l') => self.go((1, 0)),
                KeyCode::Char(' ') | KeyCode::Char('n') => self.next_cell(1),
                KeyCode::Char('N') | KeyCode::Backspace => self.next_cell(-1),
                KeyCode::Char('r') | KeyCode::Char(']') => self.turn(1),
                KeyCode::Char('R') | KeyCode::Char('[') => self.turn(3),
                KeyCode::Enter => {
                    let p = self.placing.as_ref().expect("placing");
                    match &p.preview {
                        Ok(_) => self.apply(Move::place(p.tile, cursor, p.rot)),
                        Err(e) => {
                            let e = e.clone();
                            self.say(e, true)
                        }
                    }
                }
                KeyCode::Esc => {
                    if !self.can_put_back() {
                        self.say(
                            "the revealed tile must be placed; it cannot go back".into(),
                            true,
                        );
                    } else {
                        self.spot = self.placing.take().map(|p| (p.cursor, p.rot));
                        self.message = None;
                    }
                }
                _ => self.unknown(),
            }
            return;
        }
        // The engine decides whether these may be played now, and says why not.
        match k.code {
            KeyCode::Char('i') => {
                let tile = game.offer().last().copied().unwrap_or_default();
                self.apply(Move::Intermezzo { tile })
            }
            KeyCode::Char('p') => self.apply(Move::Pass),
            _ => self.unknown(),
        }
    }

    fn unknown(&mut self) {
        self.say("that key does nothing here; ? shows the keys".into(), false);
    }

    /// The tile being placed may go back (it was chosen, not drawn or revealed).
    fn can_put_back(&self) -> bool {
        self.game().revealed().is_none()
    }

    /// Whether the engine allows an intermezzo choice, or a pass, now.
    fn may(&self, what: fn(&Move) -> bool) -> bool {
        self.game().legal_moves().iter().any(what)
    }

    // ----- placing -----

    fn begin(&mut self, tile: TileId) {
        let game = self.game();
        let mut cells: Vec<Cell> = game
            .legal_moves()
            .into_iter()
            .filter_map(|m| match m {
                Move::Place {
                    tile: t,
                    x,
                    y,
                    rot: 0,
                } if t == tile => Some(Cell::new(x, y)),
                _ => None,
            })
            .collect();
        cells.sort_by_key(|c| (c.y, c.x));
        cells.dedup();
        let seat = game.to_act().expect("the game runs");
        // Start next to the middle of the display, where most moves are.
        let placed: Vec<Cell> = game.display(seat).tiles().map(|t| t.cell).collect();
        let n = placed.len().max(1) as i32;
        let (mx, my) = placed.iter().fold((0, 0), |(x, y), c| (x + c.x, y + c.y));
        let near = cells
            .iter()
            .copied()
            .min_by_key(|c| ((c.x * n - mx).abs() + (c.y * n - my).abs(), c.y, c.x));
        let Some(first) = near else {
            self.say(format!("tile {tile} cannot be placed now"), true);
            return;
        };
        let kept = self
            .placing
            .as_ref()
            .map(|p| (p.cursor, p.rot))
            .or(self.spot);
        let (cursor, rot) = match kept {
            Some((c, r)) if cells.contains(&c) => (c, r),
            _ => (first, 0),
        };
        self.show_seat(seat);
        self.placing = Some(Placing {
            tile,
            cells,
            cursor,
            rot,
            preview: Err(String::new()),
        });
        self.message = None;
        self.refresh();
    }

    /// A new preview for where the cursor is now, and the cursor in sight.
    fn refresh(&mut self) {
        self.scroll().0.follow = true;
        let preview = self.placement().map(|mv| self.game().preview(mv));
        if let (Some(p), Some(preview)) = (&mut self.placing, preview) {
            p.preview = preview.map_err(|e| e.to_string());
        }
    }

    /// One cell on the grid that way, over the display's tiles to the next empty cell, as far
    /// as the free cells reach: a move and its opposite always come back. An empty cell that is
    /// not free shows the engine's reason, and Enter refuses it.
    fn go(&mut self, (dx, dy): (i32, i32)) {
        let seat = self.game().to_act().unwrap_or(self.shown);
        let taken: Vec<Cell> = self.game().display(seat).tiles().map(|t| t.cell).collect();
        let Some(p) = &mut self.placing else { return };
        let (lo_x, hi_x) = (
            p.cells.iter().map(|c| c.x).min(),
            p.cells.iter().map(|c| c.x).max(),
        );
        let (lo_y, hi_y) = (
            p.cells.iter().map(|c| c.y).min(),
            p.cells.iter().map(|c| c.y).max(),
        );
        let (Some(lo_x), Some(hi_x), Some(lo_y), Some(hi_y)) = (lo_x, hi_x, lo_y, hi_y) else {
            return;
        };
        let inside = |c: Cell| (lo_x..=hi_x).contains(&c.x) && (lo_y..=hi_y).contains(&c.y);
        let mut to = Cell::new(p.cursor.x + dx, p.cursor.y + dy);
        while taken.contains(&to) {
            to = Cell::new(to.x + dx, to.y + dy);
        }
        if !inside(to) {
            self.say("no free cell further that way".into(), false);
            return;
        }
        p.cursor = to;
        self.show_seat(seat);
        self.refresh();
    }

    fn next_cell(&mut self, by: i32) {
        let Some(p) = &mut self.placing else { return };
        let n = p.cells.len() as i32;
        let i = p.cells.iter().position(|&c| c == p.cursor).unwrap_or(0) as i32;
        p.cursor = p.cells[(i + by).rem_euclid(n) as usize];
        self.show_seat(self.game().to_act().unwrap_or(self.shown));
        self.refresh();
    }

    fn turn(&mut self, by: u8) {
        if let Some(p) = &mut self.placing {
            p.rot = (p.rot + by) % 4;
        }
        self.refresh();
    }

    // ----- drawing -----

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
        let mut fresh = self.fresh.clone();
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
        let progress = self.thinking.as_ref().map(|t| Progress {
            who: self.labels[t.seat as usize].clone(),
            elapsed: t.started.elapsed(),
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
        let since: Vec<String> = self.since.iter().map(|s| s.text.clone()).collect();
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
            since: &since,
            log: &self.log,
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
        let who = match t.state.status.as_str() {
            "waiting" => "waiting for players".to_string(),
            "over" => "game over".to_string(),
            _ => who,
        };
        title.push_str(&format!(" · {who}"));
        if t.offline.is_some() {
            title.push_str(" · OFFLINE, reconnecting");
        }
        title
    }

    /// Each seat's clock as shown: its time, whether it runs, whether it is nearly out.
    fn clocks(&self) -> Option<Vec<Option<screen::Clock>>> {
        let clocks = self.table()?.clocks()?;
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

    /// The bottom panel: the preview while placing, else the last message or what to do.
    fn info(&self) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        if let Some(p) = &self.placing {
            lines.extend(preview_lines(p));
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
            // The links of seats nobody took yet, to hand to their players.
            for (seat, link) in &t.invites {
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
        if self.table().is_some_and(|t| t.state.status == "waiting") {
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
            Some(Expect::IntermezzoPick) => format!(
                "Intermezzo: take a stored tile (1 to {}) or pass (p).",
                g.intermezzo_storage().len()
            ),
            _ => "Place the revealed tile.".to_string(),
        }
    }

    fn key_hint(&self) -> String {
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
        let mut k = Vec::new();
        match self.game().expects() {
            Some(Expect::Turn) if self.my_turn() => k.push("1-5 tile"),
            Some(Expect::IntermezzoPick) if self.my_turn() => k.push("1-5 stored tile"),
            _ => {}
        }
        if self.my_turn() && self.may(|m| matches!(m, Move::Intermezzo { .. })) {
            k.push("i intermezzo");
        }
        if self.my_turn() && self.may(|m| matches!(m, Move::Pass)) {
            k.push("p pass");
        }
        // The least needed last: a narrow screen leaves them out first.
        k.extend(["←↑→↓ scroll", "Tab", "? help", "d pile"]);
        if !self.since.is_empty() {
            k.push("w replay");
        }
        format!("{} · {q}", k.join(" · "))
    }

    /// A person here is to act.
    fn my_turn(&self) -> bool {
        self.game()
            .to_act()
            .is_some_and(|s| self.players[s as usize].is_human())
    }

    fn result_lines(&self) -> Vec<Line<'static>> {
        let g = self.game();
        let mut lines = Vec::new();
        // A server's table may have ended early (a resignation in solo, abandoned, …).
        let ended = self.table().and_then(|t| t.state.ended.clone());
        if let Some(why) = &ended {
            lines.push(Line::styled(
                format!("The game ended early: {}.", online::ended_text(why)),
                style::bold(),
            ));
        }
        let outcome = g
            .outcome()
            .or_else(|| self.table().and_then(|t| t.state.outcome.clone()));
        match outcome {
            Some(Outcome::Ranking { ranking, scores }) => {
                for (i, &s) in ranking.iter().enumerate() {
                    lines.push(Line::raw(format!(
                        "{}. {:<14} {:>3} points, Cacophony {}",
                        i + 1,
                        self.labels[s as usize],
                        scores[s as usize],
                        g.cacophony(s)
                    )));
                }
                for pair in ranking.windows(2) {
                    if scores[pair[0] as usize] == scores[pair[1] as usize] {
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

/// The preview panel: where, what gets covered and completed, points, Cacophony, the score.
fn preview_lines(p: &Placing) -> Vec<Line<'static>> {
    let head = format!(
        "{} on ({},{}), turned {}°:",
        tile_name(p.tile),
        p.cursor.x,
        p.cursor.y,
        p.rot as u16 * 90
    );
    match &p.preview {
        Err(e) => vec![Line::from(vec![
            Span::raw(head + " "),
            Span::styled(e.clone(), style::error()),
        ])],
        Ok(pv) => {
            let mut covers = vec![Span::raw(format!("{head} covers {} ", pv.covered.len()))];
            covers.push(Span::raw(if pv.covered.len() == 1 {
                "arrow"
            } else {
                "arrows"
            }));
            for c in &pv.covered {
                covers.push(Span::raw(" "));
                covers.push(Span::styled(
                    format!("{}", c.direction.arrow()),
                    Style::new().fg(style::element(c.element)).bg(style::MARK),
                ));
                covers.push(Span::raw(format!("#{}", c.tile)));
            }
            let completed = if pv.completed.is_empty() {
                "completes nothing".to_string()
            } else {
                let ids: Vec<String> = pv.completed.iter().map(|t| format!("#{t}")).collect();
                format!("completes {} (+{})", ids.join(" "), pv.points)
            };
            let caco = if pv.cacophony == 0 {
                "no Cacophony".to_string()
            } else {
                format!("Cacophony {} (−{})", pv.cacophony, 2 * pv.cacophony)
            };
            let mut result = vec![Span::raw(format!(
                "{completed} · {caco} · score {} → {} · {} left",
                pv.score_after - pv.score_change,
                pv.score_after,
                words::count(pv.supply_after as usize, "disc")
            ))];
            if pv.reaches_target {
                result.push(Span::styled(
                    " · reaches the goal",
                    Style::new().fg(Color::LightGreen),
                ));
            }
            vec![Line::from(covers), Line::from(result)]
        }
    }
}

/// "1 to 5", "1, 3 or 5": the keys that choose a tile.
fn numbers(keys: &[usize]) -> String {
    match keys {
        [] => "none".to_string(),
        [one] => one.to_string(),
        _ if keys.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("{} to {}", keys[0], keys[keys.len() - 1])
        }
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(|k| k.to_string()).collect();
            format!("{} or {last}", rest.join(", "))
        }
    }
}

/// A move in a few characters, for the log.
pub(crate) fn short(mv: Move) -> String {
    match mv {
        Move::Place { tile, x, y, rot } => {
            format!("{} ({x},{y}) r{rot}", tile_name(tile))
        }
        Move::Intermezzo { tile } => format!("intermezzo {}", tile_name(tile)),
        Move::Pass => "pass".to_string(),
    }
}

/// What a move did, in words, from the game before it.
pub fn describe(game: &Game, who: &str, mv: Move) -> String {
    describe_effect(who, mv, game.preview(mv).ok().as_ref())
}

/// What a move did, in words, from what the engine said it did (a placement's preview).
pub fn describe_effect(who: &str, mv: Move, effect: Option<&Preview>) -> String {
    match mv {
        Move::Place { tile, x, y, .. } => {
            let mut s = format!("{who} placed {} on ({x},{y})", tile_name(tile));
            if let Some(pv) = effect {
                s.push_str(&format!(": {} covered", pv.covered.len()));
                if !pv.completed.is_empty() {
                    s.push_str(&format!(
                        ", {} completed (+{})",
                        pv.completed.len(),
                        pv.points
                    ));
                }
                if pv.cacophony > 0 {
                    s.push_str(&format!(
                        ", Cacophony {} (−{})",
                        pv.cacophony,
                        2 * pv.cacophony
                    ));
                }
                s.push_str(&format!(", score {}", pv.score_after));
            }
            s
        }
        Move::Intermezzo { tile } => format!(
            "{who} stored {} for the intermezzo and drew a tile",
            tile_name(tile)
        ),
        Move::Pass => format!("{who} passed"),
    }
}
