//! The evaluation of positions: each player's expected return (the number `mcts` backs up from
//! a finished game, 0 to 1) from a logistic model of what they hold against what the others
//! hold (solo: of what the player holds). `mcts` ends a playout with it after `playout_depth`
//! steps instead of playing to the end; `sagani train --value` fits it to where the playout
//! policy's own games ended (`sagani_lab::value_train`), so that a cut playout estimates what the whole
//! one would have returned, without its noise, at a fraction of its cost. A model for each
//! player count; the `solo-all` variant (scored otherwise) is not evaluated.

use crate::aim::Aim;
use crate::policy::lateness;
use crate::weights_file::WeightsError;
use sagani_core::{tile, Game, Variant, MAX_PLAYERS, SYMPHONY_TILES};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// What a player holds, in this order (`holdings`); the last `ROOM.len()` are `ROOM`.
pub const HOLDINGS: [&str; 10] = [
    // Score, in tens.
    "score",
    // Unflipped tiles' values times the share of their arrows covered, in tens: points on
    // the way.
    "partial",
    // Unflipped tiles' values, in tens.
    "potential",
    // Uncovered arrows of unflipped tiles, in tens: work left.
    "uncovered",
    // Discs in the supply, in tens.
    "supply",
    // Discs the supply is short of 4 (Cacophony ahead).
    "short",
    // 1 for the player to act (in solo always: the model's constant).
    "to_act",
    // Where the display leaves room (`Aim::room`; solo only, 0 in games of 2 to 4): the most
    // open arrows the tile to place could cover at once on a cell it can go on,
    "room_tile",
    // the same for each element (up to 3) summed,
    "room",
    // and the cells a tile can go on where open arrows of one element cross, in tens.
    "hubs",
];

/// The holdings worked out from the grid of the display's arrows (`Aim::room`).
pub const ROOM: std::ops::Range<usize> = HOLDINGS.len() - 3..HOLDINGS.len();

/// Where the room's holdings sit among the features: as they are, times the lateness, and in
/// the final round.
pub fn room_features() -> impl Iterator<Item = usize> {
    (0..3).flat_map(|part| ROOM.map(move |k| part * HOLDINGS.len() + k))
}

/// Each holding as it is, times how far the pile is drawn, and times 1 once the final round is
/// on: a lead weighs more as the end nears.
pub const FEATURES: usize = 3 * HOLDINGS.len();

pub type Features = [f32; FEATURES];

/// The weights of one player count.
pub type Weights = [f32; FEATURES];

fn holdings(g: &Game, seat: u8, room: [f32; 3]) -> [f32; HOLDINGS.len()] {
    let (mut partial, mut potential, mut uncovered) = (0.0, 0.0, 0.0);
    for t in g.display(seat).tiles().filter(|t| !t.flipped) {
        let arrows = t.arrows().count_ones() as f32;
        let open = t.uncovered.count_ones() as f32;
        let value = sagani_core::value_for_arrows(arrows as u8) as f32;
        partial += value * (arrows - open) / arrows;
        potential += value;
        uncovered += open;
    }
    let supply = g.supply(seat);
    [
        g.score(seat) as f32 / 10.0,
        partial / 10.0,
        potential / 10.0,
        uncovered / 10.0,
        supply as f32 / 10.0,
        4u16.saturating_sub(supply) as f32,
        (g.to_act() == Some(seat)) as u8 as f32,
        room[0],
        room[1],
        room[2],
    ]
}

/// Every seat's features: its holdings less the mean of the others' (solo: as they are), as
/// they are, times the lateness and in the final round. The room (`ROOM`) is worked out with
/// `aim` in a solo game while the player acts, and 0 otherwise.
pub fn features(g: &Game, aim: Option<&mut Aim>) -> Vec<Features> {
    let n = g.players() as usize;
    let room = match aim {
        Some(aim) if n == 1 && g.to_act() == Some(0) => {
            aim.sync(g);
            aim.room(g.revealed().and_then(tile).map(|k| k.element))
        }
        _ => [0.0; 3],
    };
    let h: Vec<_> = (0..n as u8).map(|s| holdings(g, s, room)).collect();
    let late = lateness(g);
    let fin = g.final_round() as u8 as f32;
    (0..n)
        .map(|p| {
            let mut f = [0.0; FEATURES];
            for k in 0..HOLDINGS.len() {
                let others: f32 = (0..n).filter(|&q| q != p).map(|q| h[q][k]).sum();
                let x = if n == 1 {
                    h[p][k]
                } else {
                    h[p][k] - others / (n - 1) as f32
                };
                f[k] = x;
                f[HOLDINGS.len() + k] = late * x;
                f[2 * HOLDINGS.len() + k] = fin * x;
            }
            f
        })
        .collect()
}

/// The names of the features, in order.
pub fn feature_names() -> Vec<String> {
    ["", "late_", "final_"]
        .iter()
        .flat_map(|p| HOLDINGS.iter().map(move |h| format!("{p}{h}")))
        .collect()
}

#[inline]
pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// A model for each player count, 1 to 4 (`weights[players - 1]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub weights: [Weights; 4],
    /// Solo, in two parts: the solo return is a share for the tiles used plus a step (the
    /// bonus) at 25 tiles, which one logistic curve fits badly. With this, `weights[0]` is
    /// fitted to the tiles' share alone and these weights to whether a symphony comes; the
    /// search's bonus joins them as its returns do (neither part depends on it). A game that
    /// never reaches 75 returns less than 0.1; the parts value it at 0.1 (it is rare).
    pub symphony: Option<Weights>,
}

/// The return of a solo game ended with `tiles` (the share of it the tiles used earn, 0 to 1)
/// and `symphony` (0 or 1, or its chance), for a bonus: `mcts::outcome_returns` in parts.
pub fn solo_return(tiles: f32, symphony: f32, bonus: f32) -> f32 {
    0.1 + (0.9 - bonus) * tiles + bonus * symphony
}

pub fn dot(w: &Weights, f: &Features) -> f32 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

/// Whether a solo game can still end in a symphony: fewer than 25 tiles are placed.
pub fn symphony_open(g: &Game) -> bool {
    g.placements() < u16::from(SYMPHONY_TILES)
}

/// A solo position's return by the two parts' weights (`Value::symphony`): past 25 tiles no
/// symphony can come, so that part is known, not guessed.
pub fn in_two_parts(
    tiles: &Weights,
    chance: &Weights,
    f: &Features,
    open: bool,
    bonus: f32,
) -> f32 {
    let p = match open {
        true => sigmoid(dot(chance, f)),
        false => 0.0,
    };
    solo_return(sigmoid(dot(tiles, f)), p, bonus)
}

impl Value {
    /// The fitted evaluation shipped with the bots (`data/value-trained.json`).
    pub fn trained() -> &'static Value {
        static TRAINED: OnceLock<Value> = OnceLock::new();
        TRAINED.get_or_init(|| {
            Value::from_json(include_str!("../data/value-trained.json"))
                .expect("the shipped evaluation reads")
        })
    }

    /// Whether the position's game is one the evaluation is for (not `solo-all`).
    pub fn evaluates(g: &Game) -> bool {
        g.variant() != Variant::SoloAll
    }

    /// Each player's expected return from the position (`solo-all`: none, all 0), for the
    /// search's solo `symphony_bonus` (only solo in two parts uses it: one curve has the bonus
    /// it was fitted with built in).
    /// `aim` works out the room (`ROOM`) when the weights use it.
    pub fn returns(&self, g: &Game, symphony_bonus: f32, aim: &mut Aim) -> [f32; MAX_PLAYERS] {
        let mut r = [0.0; MAX_PLAYERS];
        if !Value::evaluates(g) {
            return r;
        }
        let w = &self.weights[g.players() as usize - 1];
        let f = features(g, self.uses_room(g.players()).then_some(aim));
        if let (1, Some(chance)) = (g.players(), &self.symphony) {
            r[0] = in_two_parts(w, chance, &f[0], symphony_open(g), symphony_bonus);
            return r;
        }
        for (p, f) in f.iter().enumerate() {
            r[p] = sigmoid(dot(w, f));
        }
        r
    }

    /// Whether the weights for `players` weigh the room (only then is it worth working out).
    pub fn uses_room(&self, players: u8) -> bool {
        let uses = |w: &Weights| room_features().any(|j| w[j] != 0.0);
        uses(&self.weights[players as usize - 1])
            || (players == 1 && self.symphony.as_ref().is_some_and(uses))
    }

    pub fn to_file(&self, note: BTreeMap<String, serde_json::Value>) -> ValueFile {
        let names = feature_names();
        let named = |w: &Weights| names.iter().cloned().zip(w.iter().copied()).collect();
        ValueFile {
            solo_symphony: self.symphony.as_ref().map(named),
            players: (1..=4)
                .map(|n| (n.to_string(), named(&self.weights[n - 1])))
                .collect(),
            trained: note,
        }
    }

    /// Reads an evaluation file (JSON, as `sagani train --value` writes it): a weight for every
    /// feature of every player count 1 to 4.
    pub fn from_json(text: &str) -> Result<Value, WeightsError> {
        let file: ValueFile =
            serde_json::from_str(text).map_err(|source| WeightsError::NotJson {
                what: "an evaluation file",
                source,
            })?;
        let mut weights = [[0.0; FEATURES]; 4];
        if let Some(other) = file
            .players
            .keys()
            .find(|k| !["1", "2", "3", "4"].contains(&k.as_str()))
        {
            return Err(WeightsError::NotAPlayerCount(other.clone()));
        }
        for n in 1..=4usize {
            let named = file
                .players
                .get(&n.to_string())
                .ok_or_else(|| WeightsError::Missing {
                    part: "players".to_string(),
                    name: n.to_string(),
                })?;
            weights[n - 1] = read_weights(named, &format!("players \"{n}\""))?;
        }
        let symphony = match &file.solo_symphony {
            None => None,
            Some(named) => Some(read_weights(named, "solo_symphony")?),
        };
        Ok(Value { weights, symphony })
    }

    pub fn load(path: &str) -> Result<Value, WeightsError> {
        Value::from_json(&crate::weights_file::read(path)?).map_err(|e| e.in_file(path))
    }
}

/// A weight for every feature, by name (`what` names the part of the file for errors).
fn read_weights(named: &BTreeMap<String, f32>, what: &str) -> Result<Weights, WeightsError> {
    let names = feature_names();
    if let Some(bad) = named.keys().find(|k| !names.contains(k)) {
        return Err(WeightsError::NotAFeature {
            part: what.to_string(),
            name: bad.clone(),
            features: names.join(", "),
        });
    }
    let mut w = [0.0; FEATURES];
    for (i, name) in names.iter().enumerate() {
        let x = *named.get(name).ok_or_else(|| WeightsError::Missing {
            part: what.to_string(),
            name: name.clone(),
        })?;
        if !x.is_finite() {
            return Err(WeightsError::NotANumber {
                part: what.to_string(),
                name: name.clone(),
                value: x,
            });
        }
        w[i] = x;
    }
    Ok(w)
}

/// The JSON form of an evaluation.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueFile {
    /// For each player count ("1" to "4"), each feature's weight.
    pub players: BTreeMap<String, BTreeMap<String, f32>>,
    /// Solo in two parts (`Value::symphony`): each feature's weight for whether a symphony
    /// comes; then players "1" is fitted to the tiles' share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solo_symphony: Option<BTreeMap<String, f32>>,
    /// How it was trained (command, positions, fit), for people.
    #[serde(default)]
    pub trained: BTreeMap<String, serde_json::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;
    use rand::Rng;
    use rand_chacha::ChaCha8Rng;

    /// The room is worked out only in solo games, with a grid, and only for weights that use
    /// it; where it is, it is the grid's, and it moves the return by its weight.
    #[test]
    fn the_room_is_worked_out_for_solo_weights_that_use_it() {
        let (g, _, _) = crate::sampler::solo_after(7, 8);
        let mut aim = Aim::default();
        aim.sync(&g);
        let room = aim.room(g.revealed().and_then(tile).map(|k| k.element));
        assert!(room.iter().any(|x| *x != 0.0), "{room:?}");
        let f = features(&g, Some(&mut Aim::default()))[0];
        assert_eq!(f[ROOM], room);
        assert!(features(&g, None)[0][ROOM].iter().all(|x| *x == 0.0));
        let two = Game::seeded(2, 7).unwrap();
        let f = features(&two, Some(&mut Aim::default()));
        assert!(f.iter().all(|f| f[ROOM].iter().all(|x| *x == 0.0)));

        let shipped = Value::trained();
        assert!((1..=4).all(|n| !shipped.uses_room(n)));
        let mut v = shipped.clone();
        v.weights[0][ROOM.start + 1] = 0.5;
        assert!(v.uses_room(1) && !v.uses_room(2));
        let before = shipped.returns(&g, 0.4, &mut Aim::default())[0];
        let after = v.returns(&g, 0.4, &mut Aim::default())[0];
        let z = |r: f32| (r / (1.0 - r)).ln();
        assert!((z(after) - z(before) - 0.5 * room[1]).abs() < 1e-3);
    }

    #[test]
    fn the_shipped_evaluation_reads_and_favours_the_leader() {
        let v = Value::trained();
        let mut gains = Vec::new();
        let mut rng = rand::SeedableRng::seed_from_u64(5);
        let mut leads = 0;
        for seed in 0..40 {
            // Games of the greedy policy, looked at once 40 tiles are drawn.
            let mut g = Game::seeded(2, seed).unwrap();
            while g.draw_pile_len() > 32 && !g.is_over() {
                crate::playout::playout_step(
                    &mut g,
                    &mut rng,
                    0,
                    &Policy::hand(),
                    None,
                    &mut gains,
                    &mut Default::default(),
                );
            }
            let r = v.returns(&g, 0.4, &mut Aim::default());
            // In 2-player games the two returns add up to 1, as at the end.
            assert!((r[0] + r[1] - 1.0).abs() < 1e-4, "{r:?}");
            let (a, b) = (g.score(0), g.score(1));
            if (a - b).abs() >= 12 {
                assert_eq!(r[0] > r[1], a > b, "seed {seed}: scores {a}, {b}: {r:?}");
                leads += 1;
            }
        }
        assert!(leads >= 5, "only {leads} games with a clear lead");
        // Solo: at the same point of the game, the deck played well (the policy's best
        // placement) is worth more than played carelessly (a random one of two).
        let (mut better, mut compared) = (0, 0);
        for seed in 0..20 {
            let mut good = Game::seeded(1, seed).unwrap();
            let mut careless = good.clone();
            for _ in 0..12 {
                for (g, samples) in [(&mut good, 0), (&mut careless, 2)] {
                    let hand = Policy::hand();
                    crate::playout::playout_step(
                        g,
                        &mut rng,
                        samples,
                        &hand,
                        None,
                        &mut gains,
                        &mut Default::default(),
                    );
                }
            }
            if good.score(0) >= careless.score(0) + 10 {
                compared += 1;
                better += (v.returns(&good, 0.4, &mut Aim::default())[0]
                    > v.returns(&careless, 0.4, &mut Aim::default())[0])
                    as usize;
            }
        }
        assert!(compared >= 5, "only {compared} decks played clearly apart");
        assert!(better * 5 >= compared * 4, "{better} of {compared}");
        let all = Game::new(&sagani_core::Setup {
            variant: Some(Variant::SoloAll),
            ..sagani_core::Setup::seeded(1, 3)
        })
        .unwrap();
        assert_eq!(
            v.returns(&all, 0.4, &mut Aim::default()),
            [0.0; MAX_PLAYERS]
        );
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let mut v = Value::trained().clone();
        v.weights[2][4] = 0.125;
        let text = serde_json::to_string(&v.to_file(BTreeMap::new())).unwrap();
        assert_eq!(Value::from_json(&text).unwrap(), v);
        let typo = text.replacen("\"late_supply\"", "\"late_suply\"", 1);
        let e = Value::from_json(&typo).unwrap_err().to_string();
        assert!(e.contains("\"late_suply\" is not a feature"), "{e}");
        let mut file = v.to_file(BTreeMap::new());
        file.players.remove("3");
        let e = Value::from_json(&serde_json::to_string(&file).unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"3\" is missing"), "{e}");
        assert!(Value::from_json("[]")
            .unwrap_err()
            .to_string()
            .starts_with("not an evaluation file"));
        // The solo symphony part, when there is one, goes along and is checked the same way.
        let mut weights = [0.0; FEATURES];
        weights[3] = -0.5;
        v.symphony = Some(weights);
        let text = serde_json::to_string(&v.to_file(BTreeMap::new())).unwrap();
        assert_eq!(Value::from_json(&text).unwrap(), v);
        let file = v.to_file(BTreeMap::new());
        let mut typo = file.clone();
        let sym = typo.solo_symphony.as_mut().unwrap();
        let w = sym.remove("late_score").unwrap();
        sym.insert("late_scor".into(), w);
        let e = Value::from_json(&serde_json::to_string(&typo).unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("solo_symphony: \"late_scor\" is not a feature"),
            "{e}"
        );
        let mut short = file;
        short.solo_symphony.as_mut().unwrap().remove("supply");
        let e = Value::from_json(&serde_json::to_string(&short).unwrap())
            .unwrap_err()
            .to_string();
        assert_eq!(e, "solo_symphony: \"supply\" is missing");
    }

    #[test]
    fn in_two_parts_no_symphony_is_counted_on_past_25_tiles() {
        // Tiles' share one half everywhere, a symphony sure wherever one can still come.
        let mut sure = [0.0; FEATURES];
        let to_act = HOLDINGS.iter().position(|h| *h == "to_act").unwrap();
        sure[to_act] = 20.0;
        let v = Value {
            weights: [[0.0; FEATURES]; 4],
            symphony: Some(sure),
        };
        let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(8);
        let mut checked = 0;
        for seed in 0..10 {
            let mut g = Game::seeded(1, seed).unwrap();
            // Random placements seldom reach 75; a deck that does is skipped.
            while !g.is_over() && g.placements() < 27 {
                // The search's bonus joins the parts.
                for bonus in [0.4, 0.7] {
                    let before = v.returns(&g, bonus, &mut Aim::default())[0];
                    let want = match g.placements() < u16::from(SYMPHONY_TILES) {
                        true => 0.1 + (0.9 - bonus) * 0.5 + bonus,
                        false => 0.1 + (0.9 - bonus) * 0.5,
                    };
                    assert!(
                        (before - want).abs() < 1e-4,
                        "seed {seed}: {before} vs {want}"
                    );
                }
                let moves = g.legal_moves();
                g.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            checked += (g.placements() == 27) as usize;
        }
        assert!(checked >= 5, "only {checked} decks played past 25 tiles");
        // Games of 2 to 4 players are valued by their one curve, whatever the solo part.
        let g = Game::seeded(2, 1).unwrap();
        assert_eq!(v.returns(&g, 0.4, &mut Aim::default())[..2], [0.5, 0.5]);
    }
}
