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
    play_counted(setup, bots, budget, seed, log).map(|(rg, _)| rg)
}

/// `play_game`, and each seat's faults: the decisions it could not make (an engine's time-out
/// or crash) or made outside the legal list, each replaced by a random legal move.
pub fn play_counted(
    setup: &Setup,
    bots: &mut [Box<dyn Bot>],
    budget: Budget,
    seed: u64,
    log: &mut dyn FnMut(String),
) -> Result<(RecordedGame, Vec<u64>), SetupError> {
    let mut faults = vec![0; bots.len()];
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
            faults[seat as usize] += 1;
            log(format!(
                "seat {seat} ({}): {why}; a random legal move was played for it",
                bots[seat as usize].name()
            ));
        }
        let mv = if legal.contains(&d.mv) {
            d.mv
        } else {
            // A fault already counted chose its random move itself.
            if d.fault.is_none() {
                faults[seat as usize] += 1;
            }
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
    Ok((rg, faults))
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

/// Per-bot totals of a match. A bot may hold several seats of one game: it has then played
/// one game, and won it if any of its seats won.
#[derive(Clone, Debug, Default)]
pub struct BotTally {
    pub name: String,
    /// Games it sat in.
    pub games: u64,
    /// Games one of its seats won.
    pub wins: u64,
    /// Each of its seats' final score.
    pub scores: Vec<f64>,
    /// Each of its seats' Cacophony discs.
    pub cacophony: Vec<f64>,
    /// Decisions replaced by a random legal move: time-outs, crashes, illegal answers.
    pub faults: u64,
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

    /// Adds a finished multiplayer game whose seat s was played by bot `seats[s]`, with each
    /// seat's faults (`play_counted`).
    pub fn add(&mut self, game: &Game, seats: &[usize], faults: &[u64]) {
        let Some(Outcome::Ranking { ranking, scores }) = game.outcome() else {
            return;
        };
        for (s, &b) in seats.iter().enumerate() {
            let t = &mut self.bots[b];
            // A bot's first seat counts its game; the winner's seat counts its win.
            t.games += u64::from(!seats[..s].contains(&b));
            t.wins += u64::from(ranking[0] as usize == s);
            t.scores.push(scores[s] as f64);
            t.cacophony.push(game.cacophony(s as u8) as f64);
            t.faults += faults.get(s).copied().unwrap_or(0);
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
    use super::*;
    use crate::{Greedy, RandomBot};

    /// One greedy bot against three random ones: greedy wins nearly every game, and its count
    /// is of games, never above the games played, whatever seats it holds.
    #[test]
    fn a_bot_s_games_and_wins_count_whole_games() {
        let names = ["greedy".to_string(), "random".to_string()];
        let mut tally = Tally::new(&names);
        let seats = [0, 1, 1, 1];
        let games = 6;
        for g in 0..games {
            let mut bots: Vec<Box<dyn Bot>> = vec![
                Box::new(Greedy::new(g)),
                Box::new(RandomBot::new(g + 1)),
                Box::new(RandomBot::new(g + 2)),
                Box::new(RandomBot::new(g + 3)),
            ];
            let (rg, faults) = play_counted(
                &Setup::seeded(4, g),
                &mut bots,
                Budget::default(),
                g,
                &mut |_| {},
            )
            .unwrap();
            assert_eq!(faults, vec![0; 4]);
            tally.add(rg.game(), &seats, &faults);
        }
        let (greedy, random) = (&tally.bots[0], &tally.bots[1]);
        assert_eq!((greedy.games, random.games), (games, games));
        assert_eq!(greedy.wins + random.wins, games);
        assert!(random.wins <= games && greedy.wins <= games);
        assert_eq!((greedy.scores.len(), random.scores.len()), (6, 18));
    }

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
