//! `sagani bench`: random playouts on one thread, the engine's speed in games and placements;
//! with `--mcts`, the search speed of the `mcts` bot in iterations per second.

use crate::out::say;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use sagani_core::playout::random_playout;
use sagani_core::Game;
use std::process::ExitCode;
use std::time::Instant;

/// Measure the rules engine with random playouts on one thread (or, with --mcts, the search).
///
/// Each game starts from a seeded shuffle; every turn takes a uniformly random tile of the
/// offer, a uniformly random legal cell and a uniformly random rotation, never the intermezzo
/// choice, until the game ends. Prints `random playouts: X games/s, Y placements/s`.
/// With --mcts, measures the `mcts` bot's search instead.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani bench --players 2 --games 200000\n  sagani bench --mcts --threads 2 --positions 20 --budget-ms 1000"
)]
pub struct Args {
    /// Players per game: 1 (solo) to 4.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    players: u8,
    /// Number of games to play.
    #[arg(long, default_value_t = 100_000, value_parser = crate::seats::at_least_one)]
    games: u64,
    /// Seed of the first deck (game i uses seed + i) and of the random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Measure MCTS search speed instead: iterations per second on positions from seeded games
    /// (greedy plays each game up to a point between its 5th and 35th placement; games that end
    /// sooner are skipped), one search per position with --budget-ms; prints the median over
    /// positions.
    #[arg(long)]
    mcts: bool,
    /// Search threads for --mcts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Positions searched for --mcts.
    #[arg(long, default_value_t = 20, value_parser = crate::seats::at_least_one)]
    positions: u64,
    /// Search time per position for --mcts, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    budget_ms: u64,
    /// With --mcts: the search measured, mcts or mcts-2026 (the frozen baseline).
    #[arg(long, default_value = "mcts", value_parser = ["mcts", "mcts-2026"])]
    bot: String,
    /// With --mcts: settings of the mcts search, NAME=VALUE,… (see `sagani arena --help`).
    #[arg(long, value_name = "NAME=VALUE,…", value_delimiter = ',')]
    mcts_config: Vec<String>,
}

pub fn run(args: Args) -> ExitCode {
    if args.mcts {
        return mcts(&args);
    }
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut placements = 0u64;
    let start = Instant::now();
    for i in 0..args.games {
        let mut game = Game::seeded(args.players, args.seed.wrapping_add(i))
            .expect("players were checked by the argument parser");
        placements += random_playout(&mut game, &mut rng) as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    say!(
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

fn mcts(args: &Args) -> ExitCode {
    use sagani_ai::{Bot, Budget, Config2026, Greedy, Mcts, Mcts2026, MctsConfig};
    let mut cfg = MctsConfig {
        threads: args.threads as usize,
        ..MctsConfig::default()
    };
    for setting in &args.mcts_config {
        if let Err(e) = cfg.set(setting) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    let mut rates = Vec::new();
    // Games that end before their stopping point are skipped, so a few more seeds may be used.
    for i in 0.. {
        if rates.len() as u64 == args.positions {
            break;
        }
        let seed = args.seed.wrapping_add(i);
        let mut game = Game::seeded(args.players, seed).expect("players were checked");
        let mut rng = SmallRng::seed_from_u64(seed);
        let stop = rand::Rng::random_range(&mut rng, 5..35u16);
        let mut greedy = Greedy::new(seed);
        while !game.is_over() && game.placements() < stop {
            let seat = game.to_act().expect("the game is not over");
            let legal = game.legal_moves();
            let d = greedy.choose(&game.view(Some(seat)), &legal, Budget::default());
            game.play(d.mv).expect("greedy plays legal moves");
        }
        let Some(seat) = game.to_act() else { continue };
        let (view, legal) = (game.view(Some(seat)), game.legal_moves());
        let budget = Budget::millis(args.budget_ms);
        let (iterations, elapsed) = if args.bot == "mcts-2026" {
            let base = Config2026 {
                threads: args.threads as usize,
                ..Config2026::default()
            };
            let s = Mcts2026::new(seed, base).search(&view, &legal, budget);
            (s.iterations, s.elapsed)
        } else {
            let s = Mcts::new(seed, cfg.clone()).search(&view, &legal, budget);
            (s.iterations, s.elapsed)
        };
        rates.push(iterations as f64 / elapsed.as_secs_f64());
    }
    let median = sagani_ai::stats::median(&rates);
    say!(
        "{}: {median:.0} iterations/s (median of {} positions, {} player{}, {} thread{}, {} ms each)",
        args.bot,
        rates.len(),
        args.players,
        if args.players == 1 { "" } else { "s" },
        args.threads,
        if args.threads == 1 { "" } else { "s" },
        args.budget_ms
    );
    ExitCode::SUCCESS
}
