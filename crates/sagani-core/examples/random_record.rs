//! Prints the record of a seeded game, as `sagani replay` reads it.
//!
//! `cargo run -p sagani-core --example random_record -- PLAYERS SEED [VARIANT]`
//!
//! The players are simple: most of the time they take the placement with the best immediate
//! score (then the most covered arrows), otherwise a random one; they make the intermezzo
//! choice half of the time it is open and pass a third of the time in an intermezzo, so records
//! show every kind of move. The examples/ records were made with it.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::record::RecordedGame;
use sagani_core::{DeckOrder, Game, Move, Setup, Variant};

fn choose(game: &Game, rng: &mut SmallRng) -> Move {
    let moves = game.legal_moves();
    for m in &moves {
        match m {
            Move::Intermezzo { .. } if rng.random_bool(0.5) => return *m,
            Move::Pass if rng.random_bool(1.0 / 3.0) => return *m,
            _ => {}
        }
    }
    let places: Vec<Move> = moves
        .into_iter()
        .filter(|m| matches!(m, Move::Place { .. }))
        .collect();
    if rng.random_bool(0.85) {
        *places
            .iter()
            .max_by_key(|&&m| {
                let p = game.preview(m).expect("legal placements preview");
                4 * p.score_change as i32 + p.covered.len() as i32
            })
            .expect("a placement is always possible")
    } else {
        places[rng.random_range(0..places.len())]
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let players: u8 = args.first().and_then(|s| s.parse().ok()).unwrap_or(2);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let variant = args.get(2).and_then(|s| Variant::parse(s));
    let setup = Setup {
        players,
        variant,
        deck: DeckOrder::Seed(seed),
        start_player: None,
    };
    let mut game = RecordedGame::new(&setup).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let mut rng = SmallRng::seed_from_u64(seed);
    while !game.game().is_over() {
        let m = choose(game.game(), &mut rng);
        game.play(m).expect("legal moves are legal");
    }
    print!("{}", game.record().to_json());
}
