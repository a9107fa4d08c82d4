//! Criterion benches of the engine's hot calls: legal moves, one placement, a clone, and the
//! gains of every placement (what a playout step weighs), each on positions taken from seeded
//! random games at several stages.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use sagani_core::playout::{random_placement, random_playout};
use sagani_core::{Game, Move};
use std::hint::black_box;

/// Positions after 0, 10, 20, ... placements of seeded random games of `players`.
fn positions_of(players: u8) -> Vec<Game> {
    let mut out = Vec::new();
    for seed in 0..8 {
        let mut g = Game::seeded(players, seed).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut n = 0;
        while !g.is_over() {
            if n % 10 == 0 {
                out.push(g.clone());
            }
            random_placement(&mut g, &mut rng);
            n += 1;
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let positions = positions_of(2);
    let mut buf = Vec::new();
    let mut gains = Vec::new();
    let solo: Vec<Game> = positions_of(1)
        .into_iter()
        // As many tiles as a solo game to 75 places.
        .filter(|g| !g.is_over() && g.display(0).len() <= 30)
        .collect();
    c.bench_function("placement_gains (solo, per position)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % solo.len();
            solo[i].placement_gains(&mut gains);
            black_box(gains.len())
        })
    });
    c.bench_function("legal_moves (2p, per position)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % positions.len();
            positions[i].legal_moves_into(&mut buf);
            black_box(buf.len())
        })
    });
    let moves: Vec<(Game, Move)> = positions
        .iter()
        .map(|g| {
            let m = g.legal_moves();
            (g.clone(), m[m.len() / 2])
        })
        .collect();
    c.bench_function("play (2p, one placement)", |b| {
        let mut i = 0;
        b.iter_batched_ref(
            || {
                i = (i + 1) % moves.len();
                moves[i].clone()
            },
            |(g, m)| g.play(*m).unwrap(),
            BatchSize::SmallInput,
        )
    });
    c.bench_function("clone (2p game)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % positions.len();
            black_box(positions[i].clone())
        })
    });
    c.bench_function("random playout (2p, whole game)", |b| {
        let mut seed = 0u64;
        let mut rng = SmallRng::seed_from_u64(99);
        b.iter(|| {
            seed += 1;
            let mut g = Game::seeded(2, seed).unwrap();
            black_box(random_playout(&mut g, &mut rng))
        })
    });
}

criterion_group!(engine, benches);
criterion_main!(engine);
