//! `sagani ladder`: measures the levels' strength against each other and prints the ladder
//! table of docs/bots.md.

use crate::arena::progress;
use crate::error::CliError;
use crate::out::say;
use crate::seats::exit;
use sagani_ai::ladder::{fit, games, pairings, play};
use sagani_ai::levels::{level, LEVELS};
use sagani_ai::stats::wilson;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Measure the ladder of bot levels on fresh decks, and fit one Elo per level over all games.
///
/// Plays 2-player games between neighbouring levels (--games each) and between levels two
/// apart (half as many), each deck twice with seats swapped, every level at its own iterations
/// (no time limit, so a busy machine changes nothing). Then fits one Elo per level (the lowest
/// level = 0) to all games at once, by maximum likelihood as rating lists do, with 95%
/// intervals from resampling the decks. The same seed gives the same games and the same table.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani ladder --games 400 --seed 59\n  sagani ladder --from 1 --to 4 --games 100"
)]
pub struct Args {
    /// The lowest level measured (its Elo is 0).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=LEVELS as i64))]
    from: u8,
    /// The highest level measured.
    #[arg(long, default_value_t = LEVELS, value_parser = clap::value_parser!(u8).range(1..=LEVELS as i64))]
    to: u8,
    /// Games between neighbouring levels (levels two apart play half as many).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(2..))]
    games: u64,
    /// Seed of the decks and the bots.
    #[arg(long, default_value_t = 59)]
    seed: u64,
    /// Games played at once, each on one thread (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
}

pub fn run(args: Args) -> ExitCode {
    exit(run_inner(args))
}

fn run_inner(args: Args) -> Result<(), CliError> {
    if args.from >= args.to {
        return Err(CliError::Usage(format!(
            "--from {} must be below --to {}: a ladder needs two levels",
            args.from, args.to
        )));
    }
    let plan = pairings(args.from, args.to, args.games);
    let all = games(&plan);
    let threads = args.threads.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let bar = progress(all.len() as u64, "games");
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![false; all.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(g) = all.get(i) else { break };
                let won = play(args.seed, &plan, g);
                results.lock().expect("no thread panics holding it")[i] = won;
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let results = results.into_inner().expect("no thread panicked");
    let rungs = fit(args.from, args.to, &plan, &all, &results, 1000, args.seed);

    say!(
        "{} games of 2 players on fresh decks (seed {}): {} between neighbouring levels, {} between levels two apart",
        all.len(),
        args.seed,
        plan[0].games,
        plan.iter().find(|p| p.high - p.low == 2).map_or(0, |p| p.games)
    );
    say!("");
    say!(
        "| level | name | Elo (level {} = 0) | 95% interval | step | 95% interval |",
        args.from
    );
    say!("|---|---|---|---|---|---|");
    for r in &rungs {
        let name = level(r.level).map(|l| l.name).unwrap_or("?");
        let step = if r.level == args.from {
            "| | |".to_string()
        } else {
            format!(
                "| {:+.0} | [{:+.0}, {:+.0}] |",
                r.step, r.step_interval.0, r.step_interval.1
            )
        };
        say!(
            "| {} | {} | {:.0} | [{:.0}, {:.0}] {}",
            r.level,
            name,
            r.elo,
            r.elo_interval.0,
            r.elo_interval.1,
            step
        );
    }
    say!("");
    say!("| pairing | games | the higher level won | 95% interval |");
    say!("|---|---|---|---|");
    for (k, p) in plan.iter().enumerate() {
        let (mut n, mut w) = (0u64, 0u64);
        for (g, &won) in all.iter().zip(&results) {
            if g.pairing == k {
                n += 1;
                w += won as u64;
            }
        }
        let (lo, hi) = wilson(w as f64, n as f64);
        say!(
            "| {} against {} | {n} | {w} ({:.1}%) | [{:.1}%, {:.1}%] |",
            p.high,
            p.low,
            100.0 * w as f64 / n as f64,
            100.0 * lo,
            100.0 * hi
        );
    }
    Ok(())
}
