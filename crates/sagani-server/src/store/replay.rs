//! A stored game rebuilt by the engine, and what the store keeps of where it stands.

use super::{Ended, Progress, SavedGame, SavedSeat, Status};
use crate::time_control::{Clocks, TimeControl, Timing};
use sagani_core::record::{Record, RecordedGame};
use sagani_core::{DeckOrder, Game, IllegalMove, Move, Preview, Setup, SetupError};

/// A game with its record and what each of its moves did: for a placement, the engine's
/// preview of it, computed just before it was played; `None` for the intermezzo choice and a
/// pass. Kept as the moves are played, so a move's effect is never worked out twice.
#[derive(Clone, Debug)]
pub struct GameLog {
    game: RecordedGame,
    effects: Vec<Option<Preview>>,
}

impl GameLog {
    pub fn new(setup: &Setup) -> Result<GameLog, SetupError> {
        Ok(GameLog {
            game: RecordedGame::new(setup)?,
            effects: Vec::new(),
        })
    }

    pub fn game(&self) -> &Game {
        self.game.game()
    }

    /// The record so far. It holds the deck order: give it out only once the game is over.
    pub fn record(&self) -> &Record {
        self.game.record()
    }

    /// What move `n` did, if it was a placement.
    pub fn effect(&self, n: usize) -> Option<&Preview> {
        self.effects.get(n).and_then(Option::as_ref)
    }

    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let effect = match mv {
            Move::Place { .. } => Some(self.game.game().preview(mv)?),
            Move::Intermezzo { .. } | Move::Pass => None,
        };
        self.game.play(mv)?;
        self.effects.push(effect);
        Ok(())
    }
}

/// Why a stored game does not replay.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("move {n} is stored for seat {seat}, not the seat to act")]
    NotToAct { n: usize, seat: u8 },
    #[error("move {n}: {illegal}")]
    Illegal {
        n: usize,
        #[source]
        illegal: IllegalMove,
    },
}

/// The game as stored: its setup, then every move replayed by the engine.
pub fn replay(saved: &SavedGame) -> Result<GameLog, ReplayError> {
    let setup = Setup {
        players: saved.seats.len() as u8,
        variant: Some(saved.variant),
        deck: DeckOrder::Explicit(saved.deck.iter().map(|&t| t as i64).collect()),
        start_player: Some(saved.start_player),
    };
    let mut game = GameLog::new(&setup)?;
    for (n, m) in saved.moves.iter().enumerate() {
        if game.game().to_act() != Some(m.seat) {
            return Err(ReplayError::NotToAct { n, seat: m.seat });
        }
        game.play(m.mv)
            .map_err(|illegal| ReplayError::Illegal { n, illegal })?;
    }
    Ok(game)
}

/// Where `game` stands with these seats, clocks aside (`progress_of` adds them).
pub fn progress(game: &GameLog, seats: &[SavedSeat]) -> Progress {
    let g = game.game();
    Progress {
        over: g.is_over(),
        bot_to_act: g
            .to_act()
            .and_then(|s| seats.get(s as usize))
            .is_some_and(SavedSeat::is_bot),
        deadline_ms: None,
    }
}

/// The lobby's status of a game with these seats.
pub fn status(over: bool, seats: &[SavedSeat]) -> Status {
    if over {
        Status::Over
    } else if seats.iter().any(|s| {
        matches!(
            s,
            SavedSeat::Human {
                token_hash: None,
                ..
            }
        )
    }) {
        Status::Waiting
    } else {
        Status::Playing
    }
}

/// Where a game stands (as the store keeps it), its clocks included.
pub fn progress_of(
    game: &GameLog,
    seats: &[SavedSeat],
    clock: TimeControl,
    started_ms: Option<i64>,
    times: &[i64],
    ended: Option<Ended>,
) -> Progress {
    let plain = progress(game, seats);
    if ended.is_some() {
        return Progress {
            over: true,
            bot_to_act: false,
            deadline_ms: None,
        };
    }
    Progress {
        // The deadline does not depend on the moment asked.
        deadline_ms: clocks_of(game, seats, clock, started_ms, times, ended)
            .at(0)
            .deadline_ms,
        ..plain
    }
}

/// The clocks' inputs for a game.
pub(crate) fn clocks_of(
    game: &GameLog,
    seats: &[SavedSeat],
    clock: TimeControl,
    started_ms: Option<i64>,
    times: &[i64],
    ended: Option<Ended>,
) -> OwnedTiming {
    OwnedTiming {
        control: clock,
        started_ms,
        moves: game
            .record()
            .moves
            .iter()
            .zip(times)
            .map(|(m, &at)| (m.player, at))
            .collect(),
        timed: seats.iter().map(SavedSeat::timed).collect(),
        to_act: if ended.is_some() {
            None
        } else {
            game.game().to_act()
        },
    }
}

/// `Timing` with its lists owned.
pub(crate) struct OwnedTiming {
    control: TimeControl,
    started_ms: Option<i64>,
    moves: Vec<(u8, i64)>,
    timed: Vec<bool>,
    to_act: Option<u8>,
}

impl OwnedTiming {
    pub(crate) fn at(&self, now_ms: i64) -> Clocks {
        Timing {
            control: self.control,
            started_ms: self.started_ms,
            moves: &self.moves,
            timed: &self.timed,
            to_act: self.to_act,
        }
        .at(now_ms)
    }
}
