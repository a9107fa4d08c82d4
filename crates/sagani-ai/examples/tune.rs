//! Development aid: greedy with given weights over seeded solo games.
//! `cargo run --release -p sagani-ai --example tune -- PROGRESS OPEN SAFE SHORT GAMES`
use sagani_ai::evaluate::Weights;
use sagani_core::{Game, Outcome};

const USAGE: &str = "usage: tune PROGRESS OPEN_ARROW SAFE_SUPPLY SHORT_SUPPLY GAMES\n  e.g. tune 0.5 0.3 4 0.5 1000 (the default weights)";

/// Argument `i` as a `T`, or the usage on standard error and exit status 2.
fn arg<T: std::str::FromStr>(a: &[String], i: usize) -> T {
    match a.get(i).map(|s| s.parse()) {
        Some(Ok(v)) => v,
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2)
        }
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let w = Weights {
        progress: arg(&a, 0),
        open_arrow: arg(&a, 1),
        safe_supply: arg(&a, 2),
        short_supply: arg(&a, 3),
    };
    let games: u64 = arg(&a, 4);
    let mut tiles = Vec::new();
    let mut sym = 0;
    let mut gains = Vec::new();
    for seed in 0..games {
        let mut g = Game::seeded(1, seed).expect("1 player is a valid game");
        while !g.is_over() {
            g.placement_gains(&mut gains);
            let best = gains
                .iter()
                .max_by(|x, y| w.value(&x.1).total_cmp(&w.value(&y.1)))
                .expect("a solo game always has a placement")
                .0;
            g.play(best).expect("listed placements are legal");
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
