//! Bots play only legal moves, decide the same way for the same seed, never depend on the
//! hidden order of the draw pile, and finish games on tiny budgets.

use sagani_ai::arena::play_game;
use sagani_ai::sampler::PileSampler;
use sagani_ai::{Bot, BotSpec, Budget, Mcts, MctsConfig};
use sagani_core::record::RecordedGame;
use sagani_core::{tile, Game, Setup, Variant};

fn setup(players: u8, seed: u64) -> Setup {
    Setup {
        variant: (players == 1 && seed.is_multiple_of(3)).then_some(Variant::SoloAll),
        ..Setup::seeded(players, seed)
    }
}

/// Plays a whole game; every complaint `play_game` logs (a move outside the legal list) fails.
fn game(names: &[&str], players: u8, seed: u64, budget: Budget) -> RecordedGame {
    let mut bots: Vec<Box<dyn Bot>> = (0..players as usize)
        .map(|s| {
            names[s % names.len()]
                .parse::<BotSpec>()
                .unwrap()
                .bot(seed * 10 + s as u64)
        })
        .collect();
    let mut faults = Vec::new();
    let rg = play_game(&setup(players, seed), &mut bots, budget, seed, &mut |l| {
        faults.push(l)
    })
    .unwrap();
    assert!(faults.is_empty(), "seed {seed}: {faults:?}");
    assert!(rg.game().is_over());
    rg
}

#[test]
fn random_and_greedy_play_only_legal_moves_in_games_of_1_to_4_players() {
    for seed in 0..160 {
        let players = (seed % 4 + 1) as u8;
        let rg = game(&["greedy", "random"], players, seed, Budget::default());
        // The record replays: every move in it was legal.
        assert_eq!(rg.record().replay().unwrap(), *rg.game());
    }
}

#[test]
fn mcts_plays_only_legal_moves_in_games_of_1_to_4_players() {
    for seed in 0..12 {
        let players = (seed % 4 + 1) as u8;
        let rg = game(&["mcts", "greedy"], players, seed, Budget::iterations(60));
        assert_eq!(rg.record().replay().unwrap(), *rg.game());
    }
}

#[test]
fn mcts_makes_every_kind_of_decision() {
    // Over enough games the search must choose intermezzo choices, picks and passes itself.
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let players = (seed % 3 + 2) as u8;
        let rg = game(&["mcts"], players, seed, Budget::iterations(200));
        for m in &rg.record().moves {
            kinds.insert(
                format!("{:?}", m.mv)
                    .split([' ', '{'])
                    .next()
                    .unwrap()
                    .to_string(),
            );
        }
    }
    for k in ["Place", "Intermezzo"] {
        assert!(kinds.contains(k), "mcts never chose {k}: {kinds:?}");
    }
    // Passing is rarely right (a stored tile is a free placement), but the hand-set policy
    // always weighs it: at an intermezzo pick the search tries the pass among its first moves.
    // (A fitted policy ranks it by its value: `mcts::tests`.)
    let mut weighed = 0;
    for seed in 0..12 {
        let rg = game(&["greedy"], 3, seed, Budget::default());
        let mut g = Game::new(&rg.record().setup()).unwrap();
        for m in &rg.record().moves {
            if g.expects() == Some(sagani_core::Expect::IntermezzoPick) {
                let seat = g.to_act().unwrap();
                let mut bot = Mcts::new(
                    seed,
                    MctsConfig {
                        threads: 1,
                        policy: sagani_ai::policy::Policy::hand(),
                        ..MctsConfig::default()
                    },
                );
                let rated = bot.analyse(
                    &g.view(Some(seat)),
                    &g.legal_moves(),
                    Budget::iterations(300),
                    100,
                );
                let pass = rated.iter().find(|a| a.mv == sagani_core::Move::Pass);
                assert!(pass.is_some_and(|a| a.visits > 0), "seed {seed}: {rated:?}");
                weighed += 1;
            }
            g.play(m.mv).unwrap();
        }
    }
    assert!(weighed > 0, "no intermezzo pick came up");
}

#[test]
fn the_same_seed_gives_the_same_decisions() {
    for (name, budget) in [
        ("random", Budget::default()),
        ("greedy", Budget::default()),
        ("mcts", Budget::iterations(150)),
    ] {
        for seed in [3, 4] {
            let a = game(&[name], 2, seed, budget);
            let b = game(&[name], 2, seed, budget);
            assert_eq!(a.record(), b.record(), "{name} seed {seed}");
        }
    }
    // A different seed plays differently (so the check above can fail).
    let a = game(&["random"], 2, 3, Budget::default());
    let mut bots: Vec<Box<dyn Bot>> = vec![
        "random".parse::<BotSpec>().unwrap().bot(999),
        "random".parse::<BotSpec>().unwrap().bot(998),
    ];
    let b = play_game(&setup(2, 3), &mut bots, Budget::default(), 3, &mut |_| {}).unwrap();
    assert_ne!(a.record().moves, b.record().moves);
}

#[test]
fn mcts_with_a_tiny_budget_still_finishes_games() {
    for budget in [Budget::iterations(1), Budget::millis(0), Budget::millis(1)] {
        for players in 1..=4 {
            game(&["mcts"], players, 40 + players as u64, budget);
        }
    }
}

#[test]
fn decisions_do_not_depend_on_the_hidden_order_of_the_draw_pile() {
    // The same table with two different pile orders (the top tile's back kept): every bot
    // decides the same, since it only ever sees the view.
    for seed in 0..6u64 {
        let mut real = Game::seeded(2, seed).unwrap();
        let mut greedy = "greedy".parse::<BotSpec>().unwrap().bot(seed);
        for _ in 0..(8 + seed * 3) {
            let seat = real.to_act().unwrap();
            let legal = real.legal_moves();
            real.play(
                greedy
                    .choose(&real.view(Some(seat)), &legal, Budget::default())
                    .mv,
            )
            .unwrap();
        }
        let seat = real.to_act().unwrap();
        let view = real.view(Some(seat));
        let mut pile = view.draw_pile.tiles.clone();
        let back = view.draw_pile.top.unwrap();
        let top = pile
            .iter()
            .position(|&t| {
                tile(t).unwrap().element == back.element && tile(t).unwrap().value() == back.value
            })
            .unwrap();
        pile.swap(0, top);
        let other = Game::from_view(&view, &pile).unwrap();
        pile[1..].reverse();
        let third = Game::from_view(&view, &pile).unwrap();
        assert_eq!(other.view(Some(seat)), view);
        assert_eq!(third.view(Some(seat)), view);
        for name in ["greedy", "mcts"] {
            let choices: Vec<_> = [&real, &other, &third]
                .iter()
                .map(|g| {
                    let mut bot = name.parse::<BotSpec>().unwrap().bot(5);
                    bot.choose(
                        &g.view(Some(seat)),
                        &g.legal_moves(),
                        Budget::iterations(120),
                    )
                    .mv
                })
                .collect();
            assert!(
                choices.windows(2).all(|w| w[0] == w[1]),
                "{name}: {choices:?}"
            );
        }
    }
}

#[test]
fn sampled_piles_hold_the_views_tiles_with_a_top_that_matches_its_back() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let game = Game::seeded(3, 8).unwrap();
    let view = game.view(Some(0));
    let sampler = PileSampler::new(&view);
    let back = view.draw_pile.top.unwrap();
    let mut tops = std::collections::BTreeSet::new();
    let mut pile = Vec::new();
    for _ in 0..400 {
        sampler.sample(&mut rng, &mut pile);
        let mut sorted = pile.clone();
        sorted.sort();
        assert_eq!(sorted, view.draw_pile.tiles);
        let t = tile(pile[0]).unwrap();
        assert_eq!((t.element, t.value()), (back.element, back.value));
        tops.insert(pile[0]);
        let g = sampler.game(&view, &mut rng).unwrap();
        assert_eq!(g.view(Some(0)), view);
    }
    let candidates = view
        .draw_pile
        .tiles
        .iter()
        .filter(|&&t| {
            (tile(t).unwrap().element, tile(t).unwrap().value()) == (back.element, back.value)
        })
        .count();
    assert_eq!(
        tops.len(),
        candidates,
        "every tile that fits the back is drawn on top sometimes"
    );
}

#[test]
fn mcts_analysis_lists_legal_moves_best_first_and_reports_its_iterations() {
    let game = Game::seeded(2, 11).unwrap();
    let view = game.view(game.to_act());
    let legal = game.legal_moves();
    let mut mcts = Mcts::new(
        1,
        MctsConfig {
            threads: 2,
            ..MctsConfig::default()
        },
    );
    let rated = mcts.analyse(&view, &legal, Budget::iterations(2000), 5);
    assert_eq!(rated.len(), 5);
    assert!(rated.iter().all(|a| legal.contains(&a.mv)));
    assert!(rated.windows(2).all(|w| w[0].visits >= w[1].visits));
    assert!(rated.iter().all(|a| (0.0..=1.0).contains(&a.value)));
    assert_eq!(mcts.last.iterations, 2000);
    assert!(mcts.last.root.iter().map(|a| a.visits).sum::<u64>() <= 2000);
}

/// The frozen baseline stays what it was: the moves of one seeded game of `mcts-2026` against
/// itself (one thread, a fixed number of iterations) are pinned by their digest. A change that
/// moves it makes every comparison against it (`sagani arena --sprt`) meaningless.
#[test]
fn the_frozen_baseline_plays_as_it_always_did() {
    let mut bots: Vec<Box<dyn Bot>> = (0..2)
        .map(|s| {
            Box::new(sagani_ai::Mcts2026::new(
                40 + s,
                sagani_ai::Config2026 {
                    threads: 1,
                    ..Default::default()
                },
            )) as Box<dyn Bot>
        })
        .collect();
    let rg = play_game(
        &setup(2, 12),
        &mut bots,
        Budget::iterations(300),
        5,
        &mut |_| {},
    )
    .unwrap();
    let moves: String = rg
        .record()
        .moves
        .iter()
        .map(|m| format!("{}{};", m.player, m.mv))
        .collect();
    // FNV-1a over the moves as text.
    let digest = moves.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    println!("digest {digest:#018x} of {} moves", rg.record().moves.len());
    assert_eq!(digest, PINNED, "mcts-2026 changed: it must stay as it was");
}

const PINNED: u64 = 0x96c9_9f78_5353_9320;

/// Plays a game of `players` mcts bots that keep their trees (`reuse`), telling them every
/// move or not, and returns for each decision the visits a kept tree brought.
fn reused_visits(players: u8, seed: u64, tell: bool) -> Vec<u64> {
    let cfg = MctsConfig {
        threads: 1,
        reuse: true,
        ..MctsConfig::default()
    };
    let mut bots: Vec<Mcts> = (0..players as u64)
        .map(|s| Mcts::new(seed + s, cfg.clone()))
        .collect();
    let mut g = Game::new(&setup(players, seed)).unwrap();
    let mut reused = Vec::new();
    while let Some(seat) = g.to_act() {
        let legal = g.legal_moves();
        let bot = &mut bots[seat as usize];
        let d = bot.choose(&g.view(Some(seat)), &legal, Budget::iterations(300));
        assert!(legal.contains(&d.mv), "seed {seed}: {} is not legal", d.mv);
        if legal.len() > 1 {
            reused.push(bot.last.reused);
        }
        g.play(d.mv).unwrap();
        if tell {
            for b in bots.iter_mut() {
                b.observe(seat, d.mv);
            }
        }
    }
    reused
}

#[test]
fn a_kept_tree_follows_the_game_only_when_told_the_moves() {
    for (players, seed) in [(1, 4), (2, 5), (3, 6)] {
        let told = reused_visits(players, seed, true);
        let searched_on = told.iter().filter(|&&n| n > 0).count();
        assert!(
            searched_on * 8 > told.len(),
            "{players} players: a kept tree at {searched_on} of {} decisions",
            told.len()
        );
        // Not told, a bot cannot know where the game went: it starts afresh every time.
        assert!(reused_visits(players, seed, false).iter().all(|&n| n == 0));
    }
    // Told a move that was not played, it does not follow a wrong branch.
    let cfg = MctsConfig {
        threads: 1,
        reuse: true,
        ..MctsConfig::default()
    };
    let mut bot = Mcts::new(1, cfg);
    let mut g = Game::seeded(2, 8).unwrap();
    let legal = g.legal_moves();
    let mv = bot
        .choose(&g.view(Some(0)), &legal, Budget::iterations(300))
        .mv;
    let other = *legal.iter().find(|m| **m != mv).unwrap();
    g.play(other).unwrap();
    bot.observe(0, mv);
    let legal = g.legal_moves();
    let seat = g.to_act().unwrap();
    bot.choose(&g.view(Some(seat)), &legal, Budget::iterations(300));
    assert_eq!(bot.last.reused, 0);
}
