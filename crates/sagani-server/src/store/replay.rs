//! A stored game rebuilt by the engine, and what the store keeps of where it stands.

use super::{Progress, SavedGame, SavedSeat, Status};
use sagani_core::record::{Record, RecordedGame};
use sagani_core::{DeckOrder, Game, IllegalMove, Move, Preview, Setup};

/// A game with its record and what each of its moves did: for a placement, the engine's
/// preview of it, computed just before it was played; `None` for the intermezzo choice and a
/// pass. Kept as the moves are played, so a move's effect is never worked out twice.
#[derive(Clone, Debug)]
pub struct GameLog {
    game: RecordedGame,
    effects: Vec<Option<Preview>>,
}

impl GameLog {
    pub fn new(setup: &Setup) -> Result<GameLog, sagani_core::SetupError> {
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

/// The game as stored: its setup, then every move replayed by the engine.
pub fn replay(saved: &SavedGame) -> Result<GameLog, String> {
    let setup = Setup {
        players: saved.seats.len() as u8,
        variant: Some(saved.variant),
        deck: DeckOrder::Explicit(saved.deck.iter().map(|&t| t as i64).collect()),
        start_player: Some(saved.start_player),
    };
    let mut game = GameLog::new(&setup).map_err(|e| e.to_string())?;
    for (n, m) in saved.moves.iter().enumerate() {
        if game.game().to_act() != Some(m.seat) {
            return Err(format!(
                "move {n} is stored for seat {}, not the seat to act",
                m.seat
            ));
        }
        game.play(m.mv).map_err(|e| format!("move {n}: {e}"))?;
    }
    Ok(game)
}

/// Where `game` stands with these seats, clocks aside (`table::progress_of` adds them).
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
