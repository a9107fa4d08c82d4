//! `sagani arena`: seat-balanced matches between bots and engines, with a results table.

use crate::error::CliError;
use crate::out::say;
use crate::seats::{exit, records_dir, write_record, Roster};
use indicatif::{ProgressBar, ProgressStyle};
use sagani_ai::arena::{seatings, Tally};
use sagani_ai::sprt::{Sprt, Verdict};
use sagani_ai::stats::{mean, wilson};
use sagani_core::Setup;
use std::path::PathBuf;
use std::process::ExitCode;

/// Play a match between bots: every bot in every seat equally often, on the same decks.
///
/// Each deck is played once in every seating: with B bots and at most B seats, B rotations
/// (seat s holds bot (s + r) mod B); with more bots than seats, every group of bots in each of
/// its rotations. Deck d is the seeded shuffle of `seed + d`. The game count is rounded up to
/// whole decks. With --records, a deck's records are written once all its seatings are played,
/// so that no seat can read ahead the deck it is playing.
/// Prints one row per bot: seats played, wins, win rate with its 95% Wilson interval, mean
/// score, mean Cacophony discs, and an Elo rating fitted to all pairwise results (mean 1500).
///
/// With --sprt ELO0,ELO1 (two bots, two players): a sequential test as chess engines are
/// tested. Decks are played in pairs of games, seats swapped, until the log-likelihood ratio
/// proves the first bot at least ELO1 stronger than the second (H1) or at most ELO0 (H0), at
/// error rates --alpha and --beta; --games is then the most games played. The LLR, its bounds,
/// the pairs and the Elo estimate are printed.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani arena --bots mcts,greedy --players 2 --games 200 --budget-ms 1000\n  sagani arena --bots greedy,random --games 200 --records out/ --svg scores.svg\n  sagani arena --bots py,greedy --engine 'py=python3 examples/engine.py'\n  sagani arena --bots mcts,mcts-2026 --sprt 0,20 --games 4000 --budget-ms 250"
)]
pub struct Args {
    /// Comma-separated bots: random, greedy, mcts, mcts:LEVEL (1 to 8, docs/bots.md), mcts-2026 (the frozen baseline), mcts/NAME=VALUE/… (mcts with settings), or a NAME given with --engine.
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<String>,
    /// Players per game: 2 to 4.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// Games to play (rounded up to whole decks: every deck is played in every seating).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Seed of the decks and of the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    roster: Roster,
    /// Write every game as a record, DIR/<n>.json (n from 0), readable by `sagani replay`.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Draw each bot's score distribution into an SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// A sequential test of the first bot against the second: H0 "at most ELO0 stronger"
    /// against H1 "at least ELO1 stronger" (Elo points, e.g. 0,20).
    #[arg(
        long,
        value_name = "ELO0,ELO1",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    sprt: Vec<f64>,
    /// The test's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// The test's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
}

pub fn run(args: Args) -> ExitCode {
    exit(run_inner(args))
}

fn run_inner(args: Args) -> Result<(), CliError> {
    if args.svg.is_some() || args.records.is_some() {
        crate::out::keep_going();
    }
    args.roster.check(&args.bots)?;
    for (i, name) in args.bots.iter().enumerate() {
        if args.bots[..i].contains(name) {
            return Err(CliError::Usage(format!(
                "bot {name:?} is listed twice; list each bot once (a bot takes several seats when there are more seats than bots)"
            )));
        }
    }
    records_dir(&args.records)?;
    let mut sprt = match args.sprt.as_slice() {
        [] => None,
        [e0, e1] => {
            if args.bots.len() != 2 || args.players != 2 {
                return Err(CliError::Usage(
                    "--sprt tests two bots in 2-player games: name two bots".into(),
                ));
            }
            Some(Sprt::new(*e0, *e1, args.alpha, args.beta)?)
        }
        _ => {
            return Err(CliError::Usage(
                "--sprt takes two numbers, ELO0,ELO1".into(),
            ))
        }
    };
    let seatings = seatings(args.bots.len(), args.players as usize);
    let b = seatings.len() as u64;
    let games = args.games.div_ceil(b) * b;
    let mut held = Vec::new();
    let bar = progress(games, "games");
    let mut tally = Tally::new(&args.bots);
    let mut pair = 0.0;
    let mut played = 0;
    for i in 0..games {
        let seats = &seatings[(i % b) as usize];
        let names: Vec<&str> = seats.iter().map(|&k| args.bots[k].as_str()).collect();
        let setup = Setup::seeded(args.players, args.seed.wrapping_add(i / b));
        let rg = args.roster.play(&setup, &names, args.seed, i, &bar)?;
        held.push((i, rg.record().to_json()));
        if i % b == b - 1 {
            if let Some(dir) = &args.records {
                for (n, json) in held.drain(..) {
                    write_record(dir, n, &json)?;
                }
            }
            held.clear();
        }
        tally.add(rg.game(), seats);
        played = i + 1;
        bar.inc(1);
        if let Some(t) = &mut sprt {
            // The first bot's win in this game; a deck's two games make a pair.
            pair += first_won(rg.game(), seats) as u8 as f64;
            if i % 2 == 1 {
                t.add(std::mem::take(&mut pair));
                let (lo, hi) = t.bounds();
                bar.set_message(format!("LLR {:.2} [{lo:.2}, {hi:.2}]", t.llr()));
                // Long tests, run without a terminal, say how they stand now and then.
                if bar.is_hidden() && t.count().is_multiple_of(10) {
                    eprintln!(
                        "{} pairs: LLR {:.3} [{lo:.3}, {hi:.3}], pairs won 0-2/1-1/2-0: {}/{}/{}",
                        t.count(),
                        t.llr(),
                        t.pairs[0],
                        t.pairs[2],
                        t.pairs[4]
                    );
                }
                if t.verdict() != Verdict::Undecided {
                    break;
                }
            }
        }
    }
    bar.finish_and_clear();
    print_table(&tally, args.players, played);
    if let Some(t) = &sprt {
        print_sprt(t, &args.bots, played);
    }
    if let Some(path) = &args.svg {
        crate::plot::score_svg(&tally, path)?;
        say!("score distributions written to {}", path.display());
    }
    Ok(())
}

/// Whether the first bot (index 0) won a 2-player game it sat in.
fn first_won(game: &sagani_core::Game, seats: &[usize]) -> bool {
    match game.outcome() {
        Some(sagani_core::Outcome::Ranking { ranking, .. }) => seats[ranking[0] as usize] == 0,
        _ => false,
    }
}

fn print_sprt(t: &Sprt, bots: &[String], games: u64) {
    let (lo, hi) = t.bounds();
    let (elo, elo_lo, elo_hi) = t.elo();
    say!(
        "SPRT {} against {}: H0 Elo <= {}, H1 Elo >= {}, alpha {}, beta {}",
        bots[0],
        bots[1],
        t.elo0,
        t.elo1,
        t.alpha,
        t.beta
    );
    let verdict = match t.verdict() {
        Verdict::Better => format!("H1 accepted: {} is stronger", bots[0]),
        Verdict::NotBetter => format!("H0 accepted: {} is not the improvement", bots[0]),
        Verdict::Undecided => "no decision yet (play more games)".to_string(),
    };
    say!(
        "LLR {:.3} after {} pairs ({games} games), bounds [{lo:.3}, {hi:.3}]: {verdict}",
        t.llr(),
        t.count()
    );
    say!(
        "pairs won 0-2: {}, 1-1: {}, 2-0: {}; Elo {elo:+.0} [{elo_lo:+.0}, {elo_hi:+.0}]",
        t.pairs[0],
        t.pairs[2],
        t.pairs[4]
    );
}

pub fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what}, ETA {{eta}} {{msg}}"
        ))
        .expect("the template is valid"),
    );
    bar
}

fn print_table(tally: &Tally, players: u8, games: u64) {
    say!("{games} games of {players} players");
    say!(
        "{:<12} {:>6} {:>6} {:>9} {:>17} {:>11} {:>10} {:>6}",
        "bot",
        "games",
        "wins",
        "win rate",
        "95% interval",
        "mean score",
        "Cacophony",
        "Elo"
    );
    let elo = tally.elo();
    for (t, e) in tally.bots.iter().zip(elo) {
        let (lo, hi) = wilson(t.wins as f64, t.games as f64);
        let rate = if t.games > 0 {
            t.wins as f64 / t.games as f64
        } else {
            0.0
        };
        say!(
            "{:<12} {:>6} {:>6} {:>8.1}% {:>17} {:>11.1} {:>10.2} {:>6.0}",
            t.name,
            t.games,
            t.wins,
            100.0 * rate,
            format!("[{:.1}%, {:.1}%]", 100.0 * lo, 100.0 * hi),
            mean(&t.scores),
            mean(&t.cacophony),
            e
        );
    }
}
