//! `sagani bench`: random playouts on one thread, the engine's speed in games and placements.

use rand::rngs::SmallRng;
use rand::SeedableRng;
use sagani_core::playout::random_playout;
use sagani_core::Game;
use std::process::ExitCode;
use std::time::Instant;

/// Measure the rules engine with random playouts on one thread.
///
/// Each game starts from a seeded shuffle; every turn takes a uniformly random tile of the
/// offer, a uniformly random legal cell and a uniformly random rotation, never the intermezzo
/// choice, until the game ends. Prints `random playouts: X games/s, Y placements/s`.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  sagani bench --players 2 --games 200000")]
pub struct Args {
    /// Players per game: 1 (solo) to 4.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    players: u8,
    /// Number of games to play.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Seed of the first deck (game i uses seed + i) and of the random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: Args) -> ExitCode {
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut placements = 0u64;
    let start = Instant::now();
    for i in 0..args.games {
        let mut game = Game::seeded(args.players, args.seed.wrapping_add(i))
            .expect("players were checked by the argument parser");
        placements += random_playout(&mut game, &mut rng) as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "random playouts: {:.0} games/s, {:.0} placements/s",
        args.games as f64 / secs,
        placements as f64 / secs
    );
    eprintln!(
        "{} games of {} players, {} placements in {:.3} s",
        args.games, args.players, placements, secs
    );
    ExitCode::SUCCESS
}
