//! Property tests over thousands of random games of 1–4 players: the invariants of RULES.md,
//! legal moves accepted and nothing else, records replaying to the same state, seeds
//! reproducing games.

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::record::{replay_json, Record, RecordedGame};
use sagani_core::{tile, DeckOrder, Expect, Game, Move, Setup, Variant, TILE_COUNT};
use std::collections::HashSet;

fn setup(players: u8, solo_all: bool, seed: u64) -> Setup {
    Setup {
        players,
        variant: Some(match (players, solo_all) {
            (1, true) => Variant::SoloAll,
            (1, false) => Variant::Solo,
            _ => Variant::Standard,
        }),
        deck: DeckOrder::Seed(seed),
        start_player: None,
    }
}

/// A random player that, with probability `greed`, plays the placement with the best score
/// change (then most covered arrows), so games reach the target too; makes the intermezzo
/// choice and passes often enough to exercise both.
fn choose(game: &Game, greed: f64, rng: &mut SmallRng) -> Move {
    let moves = game.legal_moves();
    for m in &moves {
        match m {
            Move::Intermezzo { .. } if rng.random_bool(0.4) => return *m,
            Move::Pass if rng.random_bool(0.3) => return *m,
            _ => {}
        }
    }
    let places: Vec<Move> = moves
        .into_iter()
        .filter(|m| matches!(m, Move::Place { .. }))
        .collect();
    if rng.random_bool(greed) {
        places
            .iter()
            .copied()
            .max_by_key(|&m| {
                let p = game.preview(m).unwrap();
                4 * p.score_change as i32 + p.covered.len() as i32
            })
            .unwrap()
    } else {
        places[rng.random_range(0..places.len())]
    }
}

/// The rules' invariants, checked on any state.
fn check_invariants(g: &Game) {
    let mut seen = HashSet::new();
    let mut count = |t: u8, place: &str| {
        assert!((1..=72).contains(&t), "tile {t} in {place}");
        assert!(seen.insert(t), "tile {t} twice (again in {place})");
    };
    for s in 0..g.players() {
        let d = g.display(s);
        let mut flipped_values = 0i32;
        for t in d.tiles() {
            count(t.tile, "a display");
            if t.flipped {
                flipped_values += tile(t.tile).unwrap().value() as i32;
                assert_eq!(t.uncovered, 0);
            } else {
                assert_ne!(t.uncovered, 0, "an unflipped tile has an uncovered arrow");
            }
        }
        assert_eq!(
            g.supply(s) + d.discs_on_unflipped(),
            24 + g.cacophony(s),
            "supply + discs on unflipped tiles = 24 + Cacophony (seat {s})"
        );
        assert_eq!(
            g.score(s) as i32,
            flipped_values - 2 * g.cacophony(s) as i32,
            "score = flipped values - 2 x Cacophony (seat {s})"
        );
        // Every Cacophony disc taken is in the supply or on an unflipped tile, at most one per
        // arrow there.
        let mut on_tiles = 0;
        for t in d.tiles() {
            let arrows = tile(t.tile).unwrap().arrow_count();
            assert!(
                t.cacophony <= arrows,
                "tile {} holds {}",
                t.tile,
                t.cacophony
            );
            assert!(!t.flipped || t.cacophony == 0, "a flipped tile holds none");
            assert_eq!(t.vessel_discs() as u32, t.uncovered.count_ones());
            on_tiles += t.cacophony as u16;
        }
        assert_eq!(g.supply_cacophony(s) + on_tiles, g.cacophony(s), "seat {s}");
        assert!(g.supply_cacophony(s) <= g.supply(s), "seat {s}");
    }
    for &t in g.offer() {
        count(t, "the offer");
    }
    for &t in g.intermezzo_storage() {
        count(t, "the storage");
    }
    for t in g.removed() {
        count(t, "removed");
    }
    if let Some(t) = g.revealed() {
        count(t, "revealed");
    }
    for t in g.draw_pile_tiles() {
        count(t, "the draw pile");
    }
    assert_eq!(seen.len(), TILE_COUNT, "all 72 tiles accounted for");
    assert_eq!(g.draw_pile_tiles().len(), g.draw_pile_len());
    if g.variant() == Variant::Standard {
        let target = g.target().unwrap();
        if (0..g.players()).any(|s| g.score(s) >= target) {
            assert!(
                g.final_round() || g.is_over(),
                "target reached: final round"
            );
        }
        if g.expects() == Some(Expect::Turn) && g.draw_pile_len() <= 4 {
            assert!(g.final_round(), "a draw pile of 4 or fewer: final round");
        }
        assert!(g.offer().len() <= 5 && g.intermezzo_storage().len() <= 4);
    }
    let ranking = g.ranking();
    for w in ranking.windows(2) {
        let (a, b) = (w[0], w[1]);
        assert!(
            g.score(a) > g.score(b) || (g.score(a) == g.score(b) && g.arrival(a) < g.arrival(b))
        );
    }
}

/// Which discs are Cacophony (docs/RULES.md "Which discs"), followed from outside the engine
/// with each placement's preview: per seat the supply's, per tile id the tile's.
struct Discs {
    supply: [u16; 4],
    tile: [u8; 73],
}

impl Discs {
    fn new() -> Discs {
        Discs {
            supply: [0; 4],
            tile: [0; 73],
        }
    }

    /// Placement `p` by `seat`, whose supply held `supply` discs before it.
    fn place(&mut self, seat: usize, supply: u16, p: &sagani_core::Preview) {
        let arrows = |t: u8| tile(t).unwrap().arrow_count() as u16;
        let mut supply = supply;
        // Earlier tiles that complete give back all their discs, Cacophony ones too.
        for &t in p.completed.iter().filter(|&&t| t != p.tile) {
            supply += arrows(t);
            self.supply[seat] += self.tile[t as usize] as u16;
            self.tile[t as usize] = 0;
        }
        // The new tile takes Sound discs first, then the supply's Cacophony, then new ones.
        let need = arrows(p.tile);
        let sound = supply - self.supply[seat];
        let from_sound = need.min(sound);
        let from_old = (need - from_sound).min(self.supply[seat]);
        assert_eq!(need - from_sound - from_old, p.cacophony, "the shortfall");
        self.supply[seat] -= from_old;
        let mut on = from_old + p.cacophony;
        if p.completed.contains(&p.tile) {
            self.supply[seat] += on;
            on = 0;
        }
        self.tile[p.tile as usize] = on as u8;
    }

    fn check(&self, g: &Game) {
        for s in 0..g.players() {
            assert_eq!(g.supply_cacophony(s), self.supply[s as usize], "seat {s}");
            for t in g.display(s).tiles() {
                assert_eq!(t.cacophony, self.tile[t.tile as usize], "tile {}", t.tile);
            }
            for t in g.view(None).seats[s as usize].display.iter() {
                assert_eq!(t.cacophony, self.tile[t.tile as usize], "tile {}", t.tile);
            }
        }
    }
}

/// A move that is probably not legal: any tile, nearby or far cells, bad rotations.
fn random_move(rng: &mut SmallRng) -> Move {
    match rng.random_range(0..10) {
        0 => Move::Pass,
        1 => Move::Intermezzo {
            tile: rng.random_range(0..=80),
        },
        _ => Move::Place {
            tile: rng.random_range(0..=80),
            x: if rng.random_bool(0.05) {
                rng.random()
            } else {
                rng.random_range(-8..=8)
            },
            y: rng.random_range(-8..=8),
            rot: rng.random_range(0..=5),
        },
    }
}

/// Plays a whole game, checking after every move; returns the record.
fn play_checked(players: u8, solo_all: bool, seed: u64, policy: u64, probes: bool) -> Record {
    let mut rg = RecordedGame::new(&setup(players, solo_all, seed)).unwrap();
    let mut rng = SmallRng::seed_from_u64(policy);
    let mut turns = [0u32; 4];
    let greed = rng.random_range(0.0..1.0);
    let mut discs = Discs::new();
    // Per move: the view's turns left before it, and whether it begins a turn (the placement
    // of a revealed tile ends the turn its intermezzo choice began).
    let mut turns_left: Vec<(Option<u8>, bool, bool)> = Vec::new();
    check_invariants(rg.game());
    while !rg.game().is_over() {
        let g = rg.game().clone();
        if probes {
            let legal: HashSet<Move> = g.legal_moves().into_iter().collect();
            assert!(!legal.is_empty());
            assert_eq!(legal.len(), g.legal_moves().len(), "no move listed twice");
            // Moves outside legal_moves() are refused and change nothing.
            for _ in 0..8 {
                let m = random_move(&mut rng);
                let mut h = g.clone();
                match h.play(m) {
                    Ok(()) => assert!(legal.contains(&m), "{m:?} accepted but not listed"),
                    Err(_) => {
                        assert!(!legal.contains(&m), "{m:?} listed but refused");
                        assert_eq!(h, g, "a refused move changed the game");
                    }
                }
            }
            // Listed moves are accepted (all of them now and then, else a sample), and the
            // preview of a placement says what playing it does.
            let listed: Vec<Move> = g.legal_moves();
            let sample: Vec<Move> = if rng.random_ratio(1, 6) {
                listed
            } else {
                (0..6)
                    .map(|_| listed[rng.random_range(0..listed.len())])
                    .collect()
            };
            for m in sample {
                let mut h = g.clone();
                let actor = h.to_act().unwrap();
                h.play(m)
                    .unwrap_or_else(|e| panic!("{m:?} listed but refused: {e}"));
                if let Move::Place { .. } = m {
                    let p = g.preview(m).unwrap();
                    assert_eq!(p.score_after, h.score(actor));
                    assert_eq!(p.supply_after, h.supply(actor));
                    assert_eq!(p.cacophony, h.cacophony(actor) - g.cacophony(actor));
                    assert_eq!(p.score_change, h.score(actor) - g.score(actor));
                }
            }
        }
        let m = choose(&g, greed, &mut rng);
        if g.expects() == Some(Expect::Turn) {
            turns[g.to_act().unwrap() as usize] += 1;
        }
        let view = g.view(None);
        assert_eq!(view.turns_left.is_some(), g.final_round());
        assert_eq!(
            (view.last_player + 1) % g.players(),
            g.start_player(),
            "the last player comes before the start player"
        );
        turns_left.push((
            view.turns_left,
            g.expects() == Some(Expect::Turn),
            g.expects() == Some(Expect::PlaceDrawn),
        ));
        if let Move::Place { .. } = m {
            let p = g.preview(m).unwrap();
            discs.place(p.player as usize, g.supply(p.player), &p);
        }
        rg.play(m).unwrap();
        check_invariants(rg.game());
        discs.check(rg.game());
    }
    // Wherever the final round was on, exactly `turns_left` more turns were played, counting
    // the one under way.
    for (i, &(left, _, drawn)) in turns_left.iter().enumerate() {
        if let Some(left) = left {
            let begun = turns_left[i..].iter().filter(|(_, turn, _)| *turn).count();
            assert_eq!(begun + drawn as usize, left as usize, "move {i}");
        }
    }
    let g = rg.game();
    assert_eq!(g.view(None).turns_left, g.final_round().then_some(0));
    assert!(g.legal_moves().is_empty());
    assert!(g.outcome().is_some());
    match g.variant() {
        Variant::Standard => {
            // The game ends before the start player's turn: everyone had as many turns.
            let n = turns[0];
            assert!(
                turns[..players as usize].iter().all(|&t| t == n),
                "turns {turns:?}"
            );
        }
        Variant::Solo => assert!(g.score(0) >= 75 || g.display(0).len() == 72),
        Variant::SoloAll => assert_eq!(g.display(0).len(), 72),
    }
    rg.record().clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Invariants after every move of whole games, and the record replays to the same state.
    #[test]
    fn random_games_keep_the_invariants_and_replay(
        players in 1u8..=4, solo_all: bool, seed: u64, policy: u64
    ) {
        let record = play_checked(players, solo_all, seed, policy, false);
        let (_, replayed) = replay_json(&record.to_json()).unwrap();
        let direct = record.replay().unwrap();
        prop_assert_eq!(&replayed, &direct);
        prop_assert!(replayed.is_over());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every move from legal_moves() is accepted; random moves not in it are refused without
    /// changing the state; preview agrees with play.
    #[test]
    fn legal_moves_are_exactly_the_accepted_moves(
        players in 1u8..=4, solo_all: bool, seed: u64, policy: u64
    ) {
        play_checked(players, solo_all, seed, policy, true);
    }

    /// The same seed gives the same game; a record cut anywhere replays to the state reached
    /// at that point.
    #[test]
    fn same_seed_same_game_and_partial_records_replay(
        players in 1u8..=4, seed: u64, policy: u64, cut in 0.0f64..1.0
    ) {
        let a = play_checked(players, false, seed, policy, false);
        let b = play_checked(players, false, seed, policy, false);
        prop_assert_eq!(&a, &b);
        let (deck, _) = sagani_core::shuffled_deck(seed, players);
        prop_assert_eq!(&a.deck[..], &deck[..]);

        let n = (a.moves.len() as f64 * cut) as usize;
        let mut partial = a.clone();
        partial.moves.truncate(n);
        let mut g = Game::new(&partial.setup()).unwrap();
        for m in &partial.moves {
            g.play(m.mv).unwrap();
        }
        let (_, replayed) = replay_json(&partial.to_json()).unwrap();
        prop_assert_eq!(replayed, g);
    }
}
/// The random players above reach both endings: the target score and the draw pile.
#[test]
fn random_games_end_both_ways() {
    let (mut by_target, mut by_pile) = (0, 0);
    for seed in 0..60u64 {
        let players = 2 + (seed % 3) as u8;
        let g = play_checked(players, false, seed, seed, false)
            .replay()
            .unwrap();
        if (0..players).any(|s| g.score(s) >= g.target().unwrap()) {
            by_target += 1;
        } else {
            assert!(g.draw_pile_len() <= 4);
            by_pile += 1;
        }
    }
    assert!(
        by_target >= 5 && by_pile >= 5,
        "target {by_target}, pile {by_pile}"
    );
}
