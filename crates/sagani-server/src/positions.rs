//! Every position of a game as the table showed it to everyone (the spectator's view: the draw
//! pile's size and the back of its top tile, never its order), each move with what it did, and
//! every seat's score after each move: what a replay needs, worked out by the engine.

use crate::api::PlayedMove;
use crate::store::replay::GameLog;
use sagani_core::record::Record;
use sagani_core::view::View;
use sagani_core::{IllegalMove, Outcome, SetupError};

/// Why a record does not replay: its setup, or its first move that does not fit.
#[derive(Debug, thiserror::Error)]
pub enum ReplayFault {
    #[error("record: {0}")]
    Setup(#[from] SetupError),
    #[error("move {n}: it is not player {player}'s move")]
    NotTheirMove { n: usize, player: u8 },
    #[error("move {n}: {illegal}")]
    Illegal { n: usize, illegal: IllegalMove },
}

/// A game from its first position to its last.
#[derive(Clone, Debug, PartialEq)]
pub struct Positions {
    /// `views[k]`: the table after the first `k` moves, for `k` from 0 to the number of moves.
    pub views: Vec<View>,
    /// `moves[k]`: the move from position `k` to `k + 1`, with its effect.
    pub moves: Vec<PlayedMove>,
    /// `scores[k]`: each seat's score at position `k`.
    pub scores: Vec<Vec<i16>>,
    pub outcome: Option<Outcome>,
}

/// The positions of `record`, replayed by the engine; the first illegal move is the error.
pub fn positions(record: &Record) -> Result<Positions, ReplayFault> {
    let mut game = GameLog::new(&record.setup())?;
    let scores_of = |v: &View| v.seats.iter().map(|s| s.score).collect::<Vec<_>>();
    let first = game.game().view(None);
    let mut scores = vec![scores_of(&first)];
    let mut views = vec![first];
    let mut moves = Vec::new();
    for (n, m) in record.moves.iter().enumerate() {
        if game.game().to_act() != Some(m.player) {
            return Err(ReplayFault::NotTheirMove {
                n,
                player: m.player,
            });
        }
        game.play(m.mv)
            .map_err(|illegal| ReplayFault::Illegal { n, illegal })?;
        moves.push(PlayedMove {
            version: n as u64,
            seat: m.player,
            mv: m.mv,
            effect: game.effect(n).cloned(),
        });
        let view = game.game().view(None);
        scores.push(scores_of(&view));
        views.push(view);
    }
    Ok(Positions {
        views,
        moves,
        scores,
        outcome: game.game().outcome(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use sagani_core::{Game, Setup};

    /// Each position is the game replayed to it; the scores are the views' and the last ones
    /// the outcome's; the pile's order is in none of them.
    #[test]
    fn every_position_is_the_game_at_that_move() {
        let mut game = Game::new(&Setup::seeded(4, 21)).unwrap();
        let mut rng = SmallRng::seed_from_u64(2);
        let mut record = sagani_core::record::RecordedGame::new(&Setup::seeded(4, 21)).unwrap();
        while !game.is_over() {
            let legal = game.legal_moves();
            let mv = legal[rng.random_range(0..legal.len())];
            game.play(mv).unwrap();
            record.play(mv).unwrap();
        }
        let record = record.record().clone();
        let p = positions(&record).unwrap();
        let n = record.moves.len();
        assert_eq!(
            (p.views.len(), p.moves.len(), p.scores.len()),
            (n + 1, n, n + 1)
        );
        for k in [0, 1, n / 2, n] {
            let mut part = record.clone();
            part.moves.truncate(k);
            assert_eq!(
                p.views[k],
                part.replay().unwrap().view(None),
                "position {k}"
            );
        }
        let Some(Outcome::Ranking { scores, .. }) = &p.outcome else {
            panic!("a ranking: {:?}", p.outcome)
        };
        assert_eq!(&p.scores[n], scores);
        let json = serde_json::to_string(&p.views).unwrap();
        assert!(!json.contains("\"deck\""));
        let mut bad = record.clone();
        bad.moves[5].player = (bad.moves[5].player + 1) % 4;
        let fault = positions(&bad).unwrap_err();
        assert!(
            matches!(fault, super::ReplayFault::NotTheirMove { n: 5, .. }),
            "{fault}"
        );
        assert!(fault.to_string().starts_with("move 5:"));
    }
}
