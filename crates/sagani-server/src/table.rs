//! A table: one game on the server, its seats and who may act for them, and what each seat
//! (or a spectator) is shown.

use crate::api::{GameState, PlayedMove, SeatInfo};
use crate::error::ApiError;
use crate::secret;
use crate::store::{SavedGame, SavedSeat};
use axum::http::StatusCode;
use sagani_core::record::{RecordMove, RecordedGame};
use sagani_core::{DeckOrder, Setup, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::{broadcast, Mutex, MutexGuard};

pub struct Table {
    pub id: String,
    pub created_at: i64,
    pub variant: Variant,
    pub players: u8,
    pub public: bool,
    pub creator: String,
    /// The game and its seats. Held across a move's commit, so nobody sees a move before it is
    /// durable.
    state: Mutex<TableState>,
    /// The version after each change (moves and claims), for the WebSockets.
    pub updates: broadcast::Sender<u64>,
    over: AtomicBool,
}

pub struct TableState {
    /// The game with its record; the record (it holds the deck) leaves only once it is over.
    pub game: RecordedGame,
    pub seats: Vec<SavedSeat>,
    /// The version a bot is thinking about, so it is asked only once.
    pub bot_thinking: Option<u64>,
    /// The game's rematch, once someone asked for it (`App::rematch`).
    pub rematch: Option<String>,
}

impl TableState {
    pub fn version(&self) -> u64 {
        self.game.record().moves.len() as u64
    }

    pub fn status(&self) -> &'static str {
        if self.game.game().is_over() {
            "over"
        } else if self.seats.iter().any(|s| {
            matches!(
                s,
                SavedSeat::Human {
                    token_hash: None,
                    ..
                }
            )
        }) {
            "waiting"
        } else {
            "playing"
        }
    }

    pub fn seat_infos(&self) -> Vec<SeatInfo> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                SavedSeat::Human { token_hash, .. } => SeatInfo {
                    seat: i as u8,
                    kind: "human".into(),
                    bot: None,
                    level: None,
                    claimed: token_hash.is_some(),
                },
                SavedSeat::Bot { bot, level } => SeatInfo {
                    seat: i as u8,
                    kind: "bot".into(),
                    bot: Some(bot.clone()),
                    level: (bot == "mcts").then_some(*level),
                    claimed: true,
                },
            })
            .collect()
    }

    /// The seat `token` acts for: `None` without a token (a spectator); a token that holds no
    /// seat here is refused.
    pub fn who(&self, token: Option<&str>) -> Result<Option<u8>, ApiError> {
        let Some(token) = token else {
            return Ok(None);
        };
        let h = secret::hash(token);
        self.seat_of_hash(&h).map(Some).ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong_token",
                "this token holds no seat at this game",
            )
        })
    }

    pub fn seat_of_hash(&self, h: &str) -> Option<u8> {
        self.seats
            .iter()
            .position(|s| matches!(s, SavedSeat::Human { token_hash: Some(t), .. } if t == h))
            .map(|i| i as u8)
    }

    /// What seat `you` (or a spectator) is shown.
    pub fn state_for(&self, id: &str, you: Option<u8>) -> GameState {
        let game = self.game.game();
        let legal = match (you, game.to_act()) {
            (Some(y), Some(p)) if y == p => game.legal_moves(),
            _ => Vec::new(),
        };
        let moves = &self.game.record().moves;
        GameState {
            game: id.to_string(),
            version: self.version(),
            status: self.status().to_string(),
            you,
            seats: self.seat_infos(),
            view: game.view(you),
            legal,
            last_move: moves.last().map(|m| PlayedMove {
                version: moves.len() as u64 - 1,
                seat: m.player,
                mv: m.mv,
            }),
            outcome: game.outcome(),
            rematch: self.rematch.clone(),
        }
    }

    /// The moves played from version `since` on.
    pub fn moves_since(&self, since: u64) -> Vec<PlayedMove> {
        let moves = &self.game.record().moves;
        moves
            .iter()
            .enumerate()
            .skip(since as usize)
            .map(|(i, m)| PlayedMove {
                version: i as u64,
                seat: m.player,
                mv: m.mv,
            })
            .collect()
    }

    /// Whether move number `version` was `mv` by `seat` (a retried move).
    pub fn played_at(&self, version: u64, seat: u8, mv: sagani_core::Move) -> bool {
        self.game.record().moves.get(version as usize) == Some(&RecordMove { player: seat, mv })
    }

    /// Takes back the last move (when the store cannot say whether it was written).
    pub fn undo_last(&mut self) {
        let mut record = self.game.record().clone();
        record.moves.pop();
        self.game =
            RecordedGame::from_record(record).expect("a prefix of a replayable record replays");
    }

    /// The game and seats as stored: the setup, then every move replayed.
    pub fn restore(saved: &SavedGame) -> Result<TableState, String> {
        let setup = Setup {
            players: saved.seats.len() as u8,
            variant: Some(saved.variant),
            deck: DeckOrder::Explicit(saved.deck.iter().map(|&t| t as i64).collect()),
            start_player: Some(saved.start_player),
        };
        let mut game = RecordedGame::new(&setup).map_err(|e| e.to_string())?;
        for (n, m) in saved.moves.iter().enumerate() {
            if game.game().to_act() != Some(m.seat) {
                return Err(format!(
                    "move {n} is stored for seat {}, not the seat to act",
                    m.seat
                ));
            }
            game.play(m.mv).map_err(|e| format!("move {n}: {e}"))?;
        }
        Ok(TableState {
            game,
            seats: saved.seats.clone(),
            bot_thinking: None,
            rematch: None,
        })
    }
}

impl Table {
    /// Rebuilds a stored game by replaying its moves.
    pub fn restore(saved: SavedGame) -> Result<Table, String> {
        let state = TableState::restore(&saved)?;
        let (updates, _) = broadcast::channel(16);
        Ok(Table {
            players: saved.seats.len() as u8,
            over: AtomicBool::new(state.game.game().is_over()),
            id: saved.id,
            created_at: saved.created_at,
            variant: saved.variant,
            public: saved.public,
            creator: saved.creator,
            state: Mutex::new(state),
            updates,
        })
    }

    /// Links a table being loaded to its rematch.
    pub fn set_rematch(&mut self, rematch: String) {
        self.state.get_mut().rematch = Some(rematch);
    }

    pub async fn lock(&self) -> MutexGuard<'_, TableState> {
        self.state.lock().await
    }

    pub fn is_over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    /// Tells the watchers that the table changed (after the change is durable).
    pub fn changed(&self, st: &TableState) {
        self.over.store(st.game.game().is_over(), Ordering::Relaxed);
        // No receivers is fine: nobody is watching.
        let _ = self.updates.send(st.version());
    }
}
