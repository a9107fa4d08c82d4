//! Games between bots, and seat-balanced matches: every bot in every seat equally often, on the
//! same decks.

use crate::{Bot, Budget};
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sagani_core::record::RecordedGame;
use sagani_core::{Game, Outcome, Setup, SetupError};

/// Plays one game to its end. A bot that answers a move outside the legal list (only engines
/// can) has it logged through `log` and replaced by a random legal move.
pub fn play_game(
    setup: &Setup,
    bots: &mut [Box<dyn Bot>],
    budget: Budget,
    seed: u64,
    log: &mut dyn FnMut(String),
) -> Result<RecordedGame, SetupError> {
    let mut rg = RecordedGame::new(setup)?;
    if bots.len() != setup.players as usize {
        return Err(SetupError::Bots {
            bots: bots.len(),
            seats: setup.players,
        });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    while let Some(seat) = rg.game().to_act() {
        rg.game().legal_moves_into(&mut legal);
        let view = rg.game().view(Some(seat));
        let d = bots[seat as usize].choose(&view, &legal, budget);
        if let Some(why) = &d.fault {
            log(format!(
                "seat {seat} ({}): {why}; a random legal move was played for it",
                bots[seat as usize].name()
            ));
        }
        let mv = if legal.contains(&d.mv) {
            d.mv
        } else {
            let mv = legal[rng.random_range(0..legal.len())];
            log(format!(
                "seat {seat} ({}) chose an illegal move ({}): {} played instead",
                bots[seat as usize].name(),
                d.mv,
                mv
            ));
            mv
        };
        rg.play(mv).expect("only legal moves are played");
        for bot in bots.iter_mut() {
            bot.observe(seat, mv);
        }
    }
    Ok(rg)
}

/// The seatings played on each deck of a match between `bots` bots at tables of `players`;
/// seating k gives seat s to bot `seatings[k][s]`. Every bot sits in every seat equally often,
/// and every two bots meet:
/// - bots ≤ players: B rotations, seat s holding bot (s + r) mod B (a bot may hold several
///   seats);
/// - more bots than seats: every group of `players` bots (in ascending order), each in its
///   `players` rotations.
pub fn seatings(bots: usize, players: usize) -> Vec<Vec<usize>> {
    if bots <= players {
        return (0..bots)
            .map(|r| (0..players).map(|s| (s + r) % bots).collect())
            .collect();
    }
    let mut out = Vec::new();
    let mut group: Vec<usize> = (0..players).collect();
    loop {
        for r in 0..players {
            out.push((0..players).map(|s| group[(s + r) % players]).collect());
        }
        // The next group in lexicographic order.
        let Some(i) = (0..players).rev().find(|&i| group[i] < bots - players + i) else {
            return out;
        };
        group[i] += 1;
        for j in i + 1..players {
            group[j] = group[j - 1] + 1;
        }
    }
}

/// Per-bot totals of a match.
#[derive(Clone, Debug, Default)]
pub struct BotTally {
    pub name: String,
    /// Seats played (a bot may hold several seats of one game).
    pub games: u64,
    pub wins: u64,
    pub scores: Vec<f64>,
    pub cacophony: Vec<f64>,
}

/// A whole match's results.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub bots: Vec<BotTally>,
    /// Pairwise results (winner, loser) between seats of different bots, for Elo.
    pub pairs: Vec<(usize, usize)>,
}

impl Tally {
    pub fn new(names: &[String]) -> Tally {
        Tally {
            bots: names
                .iter()
                .map(|n| BotTally {
                    name: n.clone(),
                    ..BotTally::default()
                })
                .collect(),
            pairs: Vec::new(),
        }
    }

    /// Adds a finished multiplayer game whose seat s was played by bot `seats[s]`.
    pub fn add(&mut self, game: &Game, seats: &[usize]) {
        let Some(Outcome::Ranking { ranking, scores }) = game.outcome() else {
            return;
        };
        for (s, &b) in seats.iter().enumerate() {
            let t = &mut self.bots[b];
            t.games += 1;
            t.wins += (ranking[0] as usize == s) as u64;
            t.scores.push(scores[s] as f64);
            t.cacophony.push(game.cacophony(s as u8) as f64);
        }
        for (i, &a) in ranking.iter().enumerate() {
            for &b in &ranking[i + 1..] {
                let (wa, wb) = (seats[a as usize], seats[b as usize]);
                if wa != wb {
                    self.pairs.push((wa, wb));
                }
            }
        }
    }

    pub fn elo(&self) -> Vec<f64> {
        crate::stats::elo(self.bots.len(), &self.pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::seatings;

    #[test]
    fn seatings_balance_seats_and_let_every_two_bots_meet() {
        for bots in 1..=6 {
            for players in 2..=4 {
                let table = seatings(bots, players);
                let mut per_seat = vec![vec![0; players]; bots];
                let mut met = vec![vec![false; bots]; bots];
                for seating in &table {
                    assert_eq!(seating.len(), players);
                    for (s, &b) in seating.iter().enumerate() {
                        per_seat[b][s] += 1;
                        for &o in seating {
                            met[b][o] = true;
                        }
                    }
                }
                let n = per_seat[0][0];
                assert!(n > 0);
                assert!(
                    per_seat.iter().flatten().all(|&c| c == n),
                    "{bots} {players}: {per_seat:?}"
                );
                assert!(met.iter().flatten().all(|&m| m), "{bots} {players}");
            }
        }
        assert_eq!(seatings(2, 2), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(seatings(4, 2).len(), 12);
        assert_eq!(seatings(6, 4).len(), 60);
    }
}
