//! A seat at a table on a server: the game starts from the server's state, and what the
//! server says (new states with their moves, the answer to a move sent, a lost connection)
//! comes in on every tick.

use super::player::{Options, Player};
use super::state::{whose_of, App, Source, StartError};
use crate::narration::Narration;
use crate::online::{self, Connection, Event, Played};
use sagani_core::Move;

impl App {
    /// A seat at a table on a server, as `conn` claimed it; `invites` are the links of the
    /// seats still to hand out (a game this terminal made).
    pub fn online(
        conn: Connection,
        invites: Vec<(u8, String)>,
        opts: Options,
    ) -> Result<App, StartError> {
        let server = |refusal| StartError::Server {
            page: conn.page(),
            refusal,
        };
        let state = conn.fetch().map_err(server)?;
        let played = conn.moves().map_err(server)?;
        let game = online::game_of(&state).map_err(StartError::NotAGame)?;
        let players: Vec<Player> = (0..state.seats.len() as u8)
            .map(|s| {
                if Some(s) == state.you {
                    Player::human("")
                } else {
                    Player::Remote
                }
            })
            .collect();
        let labels = online::labels(&state);
        // A rejoin tells the game so far as it was told live: from the table's moves with what
        // each did.
        let moves: Vec<(u8, Move, Option<sagani_core::Preview>)> = played
            .iter()
            .map(|m| (m.seat, m.mv, m.effect.clone()))
            .collect();
        let whose = |seat: u8| {
            let bot = online::bot_plays(&state, seat);
            whose_of(&players, &labels, seat, bot)
        };
        let narration = Narration::of_played(&moves, &state.view, &labels, whose);
        let table = online::Table::new(conn, state, game, invites, opts.clock.now());
        Ok(App::with(
            Source::Online(Box::new(table)),
            players,
            labels,
            narration,
            None,
            opts,
        ))
    }

    /// What the server's table said since the last look: new states with their moves, the
    /// answer to a move sent, a lost connection.
    pub(super) fn hear(&mut self) {
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
        let now = self.now();
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
        let game = match online::game_of(&state) {
            Ok(g) => g,
            Err(e) => {
                self.warning = Some(e.to_string());
                return;
            }
        };
        let notes = t.changes(&state);
        // Tiles in the storage before, or stored meanwhile, are placed by an intermezzo pick.
        let mut stored = t.state.view.intermezzo.clone();
        t.game = game;
        t.state = state;
        t.arrived = now;
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
}
