//! `clairvoyant`: a solo solver that knows the deck's order, to measure how far a bot is from
//! perfect play. It sees the whole game (never allowed at a table: only `sagani solo` runs
//! it) and searches the placements of the tiles as they will come for the fewest tiles to 75:
//! a beam search, each step keeping the `width` most promising displays, each display trying
//! its `branch` best placements of the next tile. A display's promise is how soon a greedy
//! continuation of it (the tiles as they will come, each placed where the evaluation likes it
//! best) reaches 75. The first step at which some display reaches 75 is its answer; it is not
//! proven optimal, only the best found.

use crate::evaluate::placement_value;
use sagani_core::{tile, Gain, Game, Move, Outcome};

/// How wide the search is.
#[derive(Clone, Copy, Debug)]
pub struct Beam {
    /// Displays kept at each step.
    pub width: usize,
    /// Placements of the next tile tried from each display.
    pub branch: usize,
}

impl Default for Beam {
    fn default() -> Beam {
        Beam {
            width: 150,
            branch: 24,
        }
    }
}

/// The placements found and where they lead.
#[derive(Clone, Debug)]
pub struct Solution {
    pub moves: Vec<Move>,
    pub outcome: Option<Outcome>,
}

impl Solution {
    /// Tiles used to reach 75, if it was reached.
    pub fn tiles_to_75(&self) -> Option<u8> {
        match self.outcome {
            Some(Outcome::Solo {
                tiles_used,
                reached: true,
                ..
            }) => Some(tiles_used),
            _ => None,
        }
    }
}

/// How promising a display is (higher is better): how few tiles a greedy continuation needs
/// to reach 75 from it, then how much it scores; and, between equals, how far its unfinished
/// tiles are covered.
fn promise(g: &Game, gains: &mut Vec<(Move, Gain)>) -> f32 {
    let d = g.display(0);
    let mut progress = 0.0;
    for t in d.tiles().filter(|t| !t.flipped) {
        let all = t.arrows().count_ones().max(1) as f32;
        let done = t.covered().count_ones() as f32;
        let value = tile(t.tile).map_or(0, |x| x.value()) as f32;
        progress += value * done / all;
    }
    let mut rest = g.clone();
    while !rest.is_over() {
        rest.placement_gains(gains);
        let Some(best) = gains
            .iter()
            .max_by(|a, b| placement_value(&a.1).total_cmp(&placement_value(&b.1)))
            .map(|(mv, _)| *mv)
        else {
            break;
        };
        if rest.play(best).is_err() {
            break;
        }
    }
    let tiles = match rest.outcome() {
        Some(Outcome::Solo {
            tiles_used,
            reached: true,
            ..
        }) => tiles_used as f32,
        _ => 100.0,
    };
    -10.0 * tiles + 0.1 * rest.score(0) as f32 + 0.01 * progress
}

/// Searches a solo game (`solo`, reach 75) from `game` on, knowing its draw pile.
pub fn solve(game: &Game, beam: Beam) -> Solution {
    let mut states: Vec<(Game, Vec<Move>)> = vec![(game.clone(), Vec::new())];
    let mut gains: Vec<(Move, Gain)> = Vec::new();
    let mut scratch: Vec<(Move, Gain)> = Vec::new();
    let mut best_over: Option<(Game, Vec<Move>)> = None;
    while !states.is_empty() {
        let mut next: Vec<(f32, Game, Vec<Move>)> = Vec::new();
        for (g, moves) in &states {
            g.placement_gains(&mut gains);
            gains.sort_by(|a, b| placement_value(&b.1).total_cmp(&placement_value(&a.1)));
            for (mv, _) in gains.iter().take(beam.branch) {
                let mut child = g.clone();
                if child.play(*mv).is_err() {
                    continue;
                }
                let mut path = moves.clone();
                path.push(*mv);
                next.push((promise(&child, &mut scratch), child, path));
            }
        }
        // Finished games: the first that reached 75 is the answer; the others are kept in
        // case nothing ever reaches it.
        let mut running = Vec::new();
        for (p, g, path) in next {
            if g.is_over() {
                let s = Solution {
                    moves: path.clone(),
                    outcome: g.outcome(),
                };
                if s.tiles_to_75().is_some() {
                    return s;
                }
                if best_over
                    .as_ref()
                    .is_none_or(|(b, _)| g.score(0) > b.score(0))
                {
                    best_over = Some((g, path));
                }
            } else {
                running.push((p, g, path));
            }
        }
        running.sort_by(|a, b| b.0.total_cmp(&a.0));
        running.truncate(beam.width);
        states = running.into_iter().map(|(_, g, p)| (g, p)).collect();
    }
    match best_over {
        Some((g, moves)) => Solution {
            moves,
            outcome: g.outcome(),
        },
        None => Solution {
            moves: Vec::new(),
            outcome: game.outcome(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::{Setup, Variant};

    #[test]
    fn the_solution_replays_and_beats_greedy_play() {
        for seed in [5, 6, 7] {
            let setup = Setup {
                variant: Some(Variant::Solo),
                ..Setup::seeded(1, seed)
            };
            let game = Game::new(&setup).unwrap();
            let s = solve(&game, Beam::default());
            // Its moves are legal, in order, and lead to the outcome it reports.
            let mut g = game.clone();
            for mv in &s.moves {
                g.play(*mv).unwrap();
            }
            assert_eq!(g.outcome(), s.outcome);
            // Greedy on the same deck (it sees only its view) needs at least as many tiles.
            let mut greedy = crate::Greedy::new(1);
            let mut h = game.clone();
            while let Some(seat) = h.to_act() {
                let legal = h.legal_moves();
                let d = crate::Bot::choose(
                    &mut greedy,
                    &h.view(Some(seat)),
                    &legal,
                    crate::Budget::default(),
                );
                h.play(d.mv).unwrap();
            }
            let tiles = |o: Option<Outcome>| match o {
                Some(Outcome::Solo {
                    tiles_used,
                    reached: true,
                    ..
                }) => tiles_used,
                _ => u8::MAX,
            };
            let (c, gr) = (s.tiles_to_75().unwrap_or(u8::MAX), tiles(h.outcome()));
            assert!(
                c < u8::MAX && c <= gr,
                "deck {seed}: clairvoyant {c}, greedy {gr}"
            );
        }
    }
}
