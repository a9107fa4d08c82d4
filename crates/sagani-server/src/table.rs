//! A table: one game as this server has it, its seats and who may act for them, and what each
//! seat (or a spectator) is shown.

use crate::api::{GameState, PlayedMove, SeatInfo};
use crate::error::{ApiError, ErrorCode};
use crate::secret;
use crate::store::replay;
use crate::store::{Progress, SavedGame, SavedSeat};
use sagani_core::record::{RecordMove, RecordedGame};
use sagani_core::Variant;
use std::sync::Arc;
use tokio::sync::{Mutex, OwnedMutexGuard};

/// One game as this server has it cached: a copy of the store's, checked against the store's
/// `rev` before it is used (unless this server is the store's only writer).
pub struct Table {
    pub id: String,
    pub variant: Variant,
    pub public: bool,
    pub creator: String,
    /// The game and its seats. Held across a change's commit, so this server shows no change
    /// before it is durable.
    state: Arc<Mutex<TableState>>,
}

pub struct TableState {
    /// The game with its record; the record (it holds the deck) leaves only once it is over.
    pub game: RecordedGame,
    pub seats: Vec<SavedSeat>,
    /// The game's rematch, once someone asked for it (`App::rematch`).
    pub rematch: Option<String>,
    /// The store's change counter this copy is at.
    pub rev: u64,
}

impl TableState {
    pub fn version(&self) -> u64 {
        self.game.record().moves.len() as u64
    }

    pub fn status(&self) -> &'static str {
        replay::status(self.game.game().is_over(), &self.seats).name()
    }

    pub fn seat_infos(&self) -> Vec<SeatInfo> {
        seat_infos(&self.seats)
    }

    /// Where the game stands, as the store keeps it.
    pub fn progress(&self) -> Progress {
        replay::progress(&self.game, &self.seats)
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
                ErrorCode::WrongToken,
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

    /// The game and seats as stored: the setup, then every move replayed.
    pub fn restore(saved: &SavedGame) -> Result<TableState, String> {
        Ok(TableState {
            game: replay::replay(saved)?,
            seats: saved.seats.clone(),
            rematch: saved.rematch.clone(),
            rev: saved.rev,
        })
    }
}

impl Table {
    /// Rebuilds a stored game by replaying its moves.
    pub fn restore(saved: &SavedGame) -> Result<Table, String> {
        let state = TableState::restore(saved)?;
        Ok(Table {
            id: saved.id.clone(),
            variant: saved.variant,
            public: saved.public,
            creator: saved.creator.clone(),
            state: Arc::new(Mutex::new(state)),
        })
    }

    pub async fn lock(&self) -> OwnedMutexGuard<TableState> {
        self.state.clone().lock_owned().await
    }
}

/// The seats as everybody may see them.
pub fn seat_infos(seats: &[SavedSeat]) -> Vec<SeatInfo> {
    seats
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
