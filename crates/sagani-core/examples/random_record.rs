//! Prints the record of a seeded game between random players, as `sagani replay` reads it.
//!
//! `cargo run -p sagani-core --example random_record -- PLAYERS SEED [VARIANT]`
//! Random players make the intermezzo choice half of the time it is open and pass a third of
//! the time in an intermezzo, so records show every kind of move.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::record::RecordedGame;
use sagani_core::{DeckOrder, Move, Setup, Variant};

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
        let moves = game.game().legal_moves();
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !matches!(m, Move::Place { .. }))
            .collect();
        let pick = match special.first() {
            Some(Move::Intermezzo { .. }) if rng.random_bool(0.5) => special[0],
            Some(Move::Pass) if rng.random_bool(1.0 / 3.0) => special[0],
            _ => {
                let places: Vec<Move> = moves
                    .into_iter()
                    .filter(|m| matches!(m, Move::Place { .. }))
                    .collect();
                places[rng.random_range(0..places.len())]
            }
        };
        game.play(pick).expect("legal moves are legal");
    }
    println!("{}", game.record().to_json());
}
