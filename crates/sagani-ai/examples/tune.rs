//! Development aid: greedy with given weights over seeded solo games.
//! `cargo run --release -p sagani-ai --example tune -- PROGRESS OPEN SAFE SHORT GAMES`
use sagani_ai::evaluate::Weights;
use sagani_core::{Game, Outcome};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let w = Weights {
        progress: a[0].parse().unwrap(),
        open_arrow: a[1].parse().unwrap(),
        safe_supply: a[2].parse().unwrap(),
        short_supply: a[3].parse().unwrap(),
    };
    let games: u64 = a[4].parse().unwrap();
    let mut tiles = Vec::new();
    let mut sym = 0;
    let mut gains = Vec::new();
    for seed in 0..games {
        let mut g = Game::seeded(1, seed).unwrap();
        while !g.is_over() {
            g.placement_gains(&mut gains);
            let best = gains
                .iter()
                .max_by(|x, y| w.value(&x.1).total_cmp(&w.value(&y.1)))
                .unwrap()
                .0;
            g.play(best).unwrap();
        }
        if let Some(Outcome::Solo {
            tiles_used,
            symphony,
            ..
        }) = g.outcome()
        {
            tiles.push(tiles_used as f64);
            sym += symphony as u32;
        }
    }
    println!(
        "{w:?}: median {} mean {:.2} symphony {:.1}%",
        sagani_ai::stats::median(&tiles),
        sagani_ai::stats::mean(&tiles),
        100.0 * sym as f64 / games as f64
    );
}
