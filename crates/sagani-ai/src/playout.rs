//! The playouts every search plays on with: a cheap policy's step, and what a finished game
//! returns to each player (0 to 1).

use crate::aim::Aim;
use crate::policy::{intermezzo_open, lateness, Policy};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sagani_core::{tile, Expect, Gain, Game, Move, Outcome, TileId, MAX_PLAYERS};

/// The playout policy: the best placement by `policy` among `samples` random ones (among
/// all of them when `samples` is 0); the intermezzo choice when the policy values it above the
/// best placement (or, with `reveal`, when the reveal looks better than the offer's last
/// tile; with neither, now and then); an intermezzo tile when it is worth more than passing.
pub fn playout_step(
    g: &mut Game,
    rng: &mut ChaCha8Rng,
    samples: usize,
    policy: &Policy,
    reveal: Option<f32>,
    gains: &mut Vec<(Move, Gain)>,
    aim: &mut Aim,
) -> bool {
    let Some(seat) = g.to_act() else { return false };
    let expects = g.expects().expect("someone acts");
    let intermezzo = intermezzo_open(g);
    let by_chance = policy.intermezzo.is_none() && reveal.is_none();
    if intermezzo && by_chance && rng.random_range(0..8) == 0 {
        let tile = g.offer()[0];
        g.play(Move::Intermezzo { tile })
            .expect("intermezzo is open");
        return true;
    }
    let late = lateness(g);
    let mut best = (Move::Pass, f32::NEG_INFINITY);
    if samples == 0 {
        g.placement_gains(gains);
        if let Some(b) = policy.best(g, gains, aim) {
            best = b;
        }
    } else {
        let revealed = [g.revealed().unwrap_or(0)];
        let tiles: &[TileId] = match expects {
            Expect::Turn => g.offer(),
            Expect::IntermezzoPick => g.intermezzo_storage(),
            Expect::PlaceDrawn | Expect::PlaceRevealed => &revealed,
        };
        let display = g.display(seat);
        for _ in 0..samples {
            let tile = tiles[rng.random_range(0..tiles.len())];
            let cell = display.open_cell(rng.random_range(0..display.open_len()));
            let mv = Move::place(tile, cell, rng.random_range(0..4));
            // Sampled placements are for many players, whose policy has no positional
            // weights.
            let v = policy.value(&g.gain(mv).expect("open cells are legal"), late);
            if v > best.1 {
                best = (mv, v);
            }
        }
    }
    if intermezzo {
        let value = match (reveal, policy.intermezzo) {
            (Some(bonus), _) => Some(reveal_value(g, rng, policy, late, gains) + bonus),
            (None, v) => v,
        };
        if let Some(v) = value.filter(|v| *v > best.1) {
            best = (Move::Intermezzo { tile: g.offer()[0] }, v);
        }
    }
    if expects == Expect::IntermezzoPick && best.1 <= policy.pass {
        best.0 = Move::Pass;
    }
    g.play(best.0).expect("playout moves are legal");
    true
}

/// The most tiles `reveal_value` weighs.
const REVEAL_TILES: usize = 3;

/// What the intermezzo choice's reveal is worth to the player to act: the mean, over the tiles
/// the top of the pile may be (those in the pile with its back's element and value; at most
/// `REVEAL_TILES` of them, at random), of each one placed at its best by `policy`. Only what
/// the player sees: which tiles are in the pile and the top's back, not its face.
fn reveal_value(
    g: &Game,
    rng: &mut ChaCha8Rng,
    policy: &Policy,
    late: f32,
    gains: &mut Vec<(Move, Gain)>,
) -> f32 {
    let Some((element, value)) = g.draw_pile_top_back() else {
        return f32::NEG_INFINITY;
    };
    let mut maybe: Vec<TileId> = g
        .draw_pile_tiles()
        .into_iter()
        .filter(|&t| tile(t).is_some_and(|k| k.element == element && k.value() == value))
        .collect();
    let mut sum = 0.0;
    let mut n = 0;
    while n < REVEAL_TILES && !maybe.is_empty() {
        let t = maybe.swap_remove(rng.random_range(0..maybe.len()));
        g.gains_of(&[t], gains);
        sum += gains
            .iter()
            .map(|(_, gain)| policy.value(gain, late))
            .fold(f32::NEG_INFINITY, f32::max);
        n += 1;
    }
    if n == 0 {
        f32::NEG_INFINITY
    } else {
        sum / n as f32
    }
}

/// Each player's return from a finished game, 0 to 1 (`symphony`: the solo bonus).
pub fn returns(g: &Game, symphony: f32) -> [f32; MAX_PLAYERS] {
    outcome_returns(g.outcome(), symphony)
}

/// The same from the outcome alone.
pub fn outcome_returns(outcome: Option<Outcome>, symphony: f32) -> [f32; MAX_PLAYERS] {
    let mut r = [0.0; MAX_PLAYERS];
    match outcome {
        Some(Outcome::Ranking { ranking, scores }) => {
            let n = ranking.len();
            for (pos, &seat) in ranking.iter().enumerate() {
                let place = 1.0 - pos as f32 / (n - 1) as f32;
                let best_other = (0..n)
                    .filter(|&s| s != seat as usize)
                    .map(|s| scores[s])
                    .max()
                    .unwrap_or(0);
                let margin = (scores[seat as usize] - best_other) as f32 / 10.0;
                r[seat as usize] = 0.85 * place + 0.15 / (1.0 + (-margin).exp());
            }
        }
        Some(Outcome::Solo {
            tiles_used,
            score,
            reached,
            symphony: magical,
        }) => {
            // Fewer tiles is better, evenly from 15 to 55, and a symphony (25 or fewer) earns
            // its bonus; falling short is worst.
            r[0] = if reached {
                crate::value::solo_return(
                    solo_tiles_share(tiles_used),
                    magical as u8 as f32,
                    symphony,
                )
            } else {
                0.1 * (score.max(0) as f32 / 75.0)
            };
        }
        Some(Outcome::SoloAll { final_score, .. }) => {
            r[0] = 1.0 / (1.0 + (-(final_score as f32 - 100.0) / 40.0).exp());
        }
        None => {}
    }
    r
}

/// The share of the solo return the tiles used earn: fewer is better, evenly from 15 to 55.
pub fn solo_tiles_share(tiles_used: u8) -> f32 {
    ((55.0 - tiles_used as f32) / 40.0).clamp(0.0, 1.0)
}
