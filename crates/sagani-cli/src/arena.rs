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
/// its rotations. A bot named more than once (`mcts,greedy,greedy,greedy`) holds the seats as
/// listed, the list rotated once per seat. Deck d is the seeded shuffle of `seed + d`. The game count is rounded up to
/// whole decks. With --records, a deck's records are written once all its seatings are played,
/// so that no seat can read ahead the deck it is playing.
/// Prints one row per bot: games played, games won (by any of its seats), win rate with its
/// 95% Wilson interval, mean score and Cacophony discs of its seats, faults (decisions replaced
/// by a random move: an engine's time-outs, crashes and illegal answers, each also logged on
/// standard error), and an Elo rating fitted to all pairwise results (mean 1500).
///
/// With --sprt ELO0,ELO1 (two bots, two players): a sequential test as chess engines are
/// tested. Decks are played in pairs of games, seats swapped, until the log-likelihood ratio
/// proves the first bot at least ELO1 stronger than the second (H1) or at most ELO0 (H0), at
/// error rates --alpha and --beta; --games is then the most games played. The LLR, its bounds,
/// the pairs and the Elo estimate are printed.
#[derive(clap::Args)]
#[command(
    after_help = crate::seats::bots_help("Examples:\n  sagani arena --bots mcts,greedy --players 2 --games 200 --budget-ms 1000\n  sagani arena --bots greedy,random --games 200 --records out/ --svg scores.svg\n  sagani arena --bots py,greedy --engine 'py=python3 examples/engine.py'\n  sagani arena --bots mcts,mcts-2026 --sprt 0,20 --games 4000 --budget-ms 250\n  sagani arena --bots mcts:5,mcts:4,mcts:4,mcts:4 --players 4   # one against three")
)]
pub struct Args {
    /// Comma-separated bots: random, greedy, mcts, mcts:LEVEL (1 to 8, see below), mcts-2026
    /// (the frozen baseline), mcts/NAME=VALUE/… (mcts with settings), or a NAME given with
    /// --engine. Name a bot more than once to seat it so (one per seat, the list rotated).
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<String>,
    /// Players per game: 2 to 4.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// Games to play (rounded up to whole decks: every deck is played in every seating).
    #[arg(long, default_value_t = 100, value_parser = crate::seats::at_least_one)]
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
    let (bots, seatings) = table_of(&args.bots, args.players)?;
    records_dir(&args.records)?;
    let mut sprt = match args.sprt.as_slice() {
        [] => None,
        [e0, e1] => {
            if bots.len() != 2 {
                return Err(CliError::Usage(format!(
                    "--sprt tests one bot against another: name two different bots, not {}",
                    bots.len()
                )));
            }
            if args.players != 2 {
                return Err(CliError::Usage(format!(
                    "--sprt plays 2-player games, not {}-player ones: leave out --players",
                    args.players
                )));
            }
            Some(Sprt::new(*e0, *e1, args.alpha, args.beta)?)
        }
        _ => {
            return Err(CliError::Usage(
                "--sprt takes two numbers, ELO0,ELO1".into(),
            ))
        }
    };
    let b = seatings.len() as u64;
    let games = args.games.div_ceil(b) * b;
    let mut held = Vec::new();
    let bar = progress(games, "games");
    let mut tally = Tally::new(&bots);
    let mut pair = 0.0;
    let mut played = 0;
    for i in 0..games {
        let seats = &seatings[(i % b) as usize];
        let names: Vec<&str> = seats.iter().map(|&k| bots[k].as_str()).collect();
        let setup = Setup::seeded(args.players, args.seed.wrapping_add(i / b));
        let (rg, faults) = args.roster.play(&setup, &names, args.seed, i, &bar)?;
        held.push((i, rg.record().to_json()));
        if i % b == b - 1 {
            if let Some(dir) = &args.records {
                for (n, json) in held.drain(..) {
                    write_record(dir, n, &json)?;
                }
            }
            held.clear();
        }
        tally.add(rg.game(), seats, &faults);
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
                        "{} pairs: LLR {:.3} [{lo:.3}, {hi:.3}], {}",
                        t.count(),
                        t.llr(),
                        pairs_words(t, &bots[0])
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
        print_sprt(t, &bots, played);
    }
    if let Some(path) = &args.svg {
        crate::plot::score_svg(&tally, path)?;
        say!("score distributions written to {}", path.display());
    }
    Ok(())
}

/// The bots of a match, each once, and the seatings played on each deck (seat s of seating k
/// held by bot `seatings[k][s]`). A list without repeats is seated by `seatings`; a list that
/// names a bot more than once fills the seats as listed, rotated.
fn table_of(listed: &[String], players: u8) -> Result<(Vec<String>, Vec<Vec<usize>>), CliError> {
    let mut bots: Vec<String> = Vec::new();
    let index: Vec<usize> = listed
        .iter()
        .map(|name| match bots.iter().position(|b| b == name) {
            Some(k) => k,
            None => {
                bots.push(name.clone());
                bots.len() - 1
            }
        })
        .collect();
    if bots.len() == listed.len() {
        let table = seatings(bots.len(), players as usize);
        return Ok((bots, table));
    }
    let n = players as usize;
    if listed.len() != n || bots.len() < 2 {
        return Err(CliError::Usage(format!(
            "a bot named more than once holds the seats as listed: name {n} bots for --players {n}, at least two of them different (got {})",
            listed.join(",")
        )));
    }
    let table = (0..n)
        .map(|r| (0..n).map(|s| index[(s + r) % n]).collect())
        .collect();
    Ok((bots, table))
}

/// How the pairs went, from the first bot's side.
fn pairs_words(t: &Sprt, first: &str) -> String {
    format!(
        "pairs {first} won 0 of 2: {}, 1 of 2: {}, 2 of 2: {}",
        t.pairs[0], t.pairs[2], t.pairs[4]
    )
}

/// An Elo difference from `elo_of`, which caps at ±2400 a score of 0 or 1: no estimate.
fn elo_words(elo: f64) -> String {
    if elo >= 2399.0 {
        "no upper bound".into()
    } else if elo <= -2399.0 {
        "no lower bound".into()
    } else {
        format!("{elo:+.0}")
    }
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
    let estimate = if elo.abs() >= 2399.0 {
        // Every pair went one way: the games give a bound, not a number.
        let bound = match (elo > 0.0, elo_words(elo_lo), elo_words(elo_hi)) {
            (true, lo, _) if !lo.starts_with('n') => format!(", at least {lo}"),
            (false, _, hi) if !hi.starts_with('n') => format!(", at most {hi}"),
            _ => String::new(),
        };
        format!(
            "Elo of {} over {}: no estimate, {} every pair{bound}",
            bots[0],
            bots[1],
            if elo > 0.0 { "it won" } else { "it lost" },
        )
    } else {
        format!(
            "Elo of {} over {}: {elo:+.0} [{}, {}]",
            bots[0],
            bots[1],
            elo_words(elo_lo),
            elo_words(elo_hi)
        )
    };
    say!("{}; {estimate}", pairs_words(t, &bots[0]));
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
        "{:<12} {:>6} {:>6} {:>9} {:>17} {:>11} {:>10} {:>6} {:>6}",
        "bot",
        "games",
        "wins",
        "win rate",
        "95% interval",
        "mean score",
        "Cacophony",
        "faults",
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
            "{:<12} {:>6} {:>6} {:>8.1}% {:>17} {:>11.1} {:>10.2} {:>6} {:>6.0}",
            t.name,
            t.games,
            t.wins,
            100.0 * rate,
            format!("[{:.1}%, {:.1}%]", 100.0 * lo, 100.0 * hi),
            mean(&t.scores),
            mean(&t.cacophony),
            t.faults,
            e
        );
    }
    say!("games and wins count whole games (a win: one of the bot's seats came first); mean score and Cacophony are per seat;");
    say!("faults are the bot's decisions replaced by a random move (time-outs, crashes, illegal moves; each logged on standard error)");
}
