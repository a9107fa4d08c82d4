//! A stored game rebuilt by the engine, and what the store keeps of where it stands.

use super::{Progress, SavedGame, SavedSeat, Status};
use sagani_core::record::RecordedGame;
use sagani_core::{DeckOrder, Setup};

/// The game as stored: its setup, then every move replayed by the engine.
pub fn replay(saved: &SavedGame) -> Result<RecordedGame, String> {
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
    Ok(game)
}

/// Where `game` stands with these seats.
pub fn progress(game: &RecordedGame, seats: &[SavedSeat]) -> Progress {
    let g = game.game();
    Progress {
        over: g.is_over(),
        bot_to_act: g
            .to_act()
            .and_then(|s| seats.get(s as usize))
            .is_some_and(SavedSeat::is_bot),
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
