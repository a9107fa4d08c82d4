//! `sagani solo`: a bot plays solo games; tiles used to reach 75 (or the solo-all final score).

use crate::arena::progress;
use crate::error::CliError;
use crate::out::say;
use crate::seats::{exit, records_dir, write_record, Roster};
use sagani_ai::clairvoyant;
use sagani_ai::stats::{mean, median};
use sagani_core::record::RecordedGame;
use sagani_core::{Outcome, Setup, Variant};
use std::path::PathBuf;
use std::process::ExitCode;

/// Let a bot play solo games on seeded decks (game i uses deck seed + i).
///
/// `solo`: prints per game the tiles used to reach 75 (or that 75 was not reached), then the
/// median tiles (a game that never reached 75 counts as the worst), the mean tiles over the
/// games that reached 75, and the symphony rate (75 or more with 25 tiles or fewer). `solo-all`: per game the final score, then its median and mean.
///
/// `--bot clairvoyant` is a solver that knows the deck's order (a beam search for the fewest
/// tiles to 75; allowed here only, never at a table). `--gap` plays each deck with the bot and
/// with the clairvoyant too, and says how many tiles the bot needed beyond it.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani solo --bot mcts --games 100 --budget-ms 1000\n  sagani solo --bot greedy --games 100 --variant solo-all --records out/\n  sagani solo --bot mcts --games 100 --gap    # against the clairvoyant, deck by deck"
)]
pub struct Args {
    /// The bot: random, greedy, mcts, mcts:LEVEL, clairvoyant (knows the deck), or a NAME
    /// given with --engine.
    #[arg(long, default_value = "mcts")]
    bot: String,
    /// Also solve each deck with the clairvoyant and report the bot's gap in tiles (solo).
    #[arg(long)]
    gap: bool,
    /// The clairvoyant's search: displays kept at each step.
    #[arg(long, default_value_t = clairvoyant::Beam::default().width)]
    beam_width: usize,
    /// The clairvoyant's search: placements tried from each display.
    #[arg(long, default_value_t = clairvoyant::Beam::default().branch)]
    beam_branch: usize,
    #[arg(long, default_value_t = 100, value_parser = crate::seats::at_least_one)]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// solo (reach 75 with as few tiles as possible) or solo-all (all 72 tiles).
    #[arg(long, default_value = "solo", value_parser = ["solo", "solo-all"])]
    variant: String,
    #[command(flatten)]
    roster: Roster,
    /// Write every game as a record, DIR/<n>.json.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
}

/// A deck solved by the clairvoyant, as a record.
fn solved(setup: &Setup, beam: clairvoyant::Beam) -> Result<RecordedGame, CliError> {
    let mut rg = RecordedGame::new(setup)?;
    let s = clairvoyant::solve(rg.game(), beam);
    for mv in s.moves {
        rg.play(mv)?;
    }
    Ok(rg)
}

fn tiles_to_75(o: Option<Outcome>) -> Option<u8> {
    match o {
        Some(Outcome::Solo {
            tiles_used,
            reached: true,
            ..
        }) => Some(tiles_used),
        _ => None,
    }
}

pub fn run(args: Args) -> ExitCode {
    exit(run_inner(args))
}

fn run_inner(args: Args) -> Result<(), CliError> {
    if args.records.is_some() {
        crate::out::keep_going();
    }
    let clairvoyant = args.bot == "clairvoyant";
    if !clairvoyant {
        args.roster.check(std::slice::from_ref(&args.bot))?;
    }
    let variant = Variant::parse(&args.variant).expect("checked by clap");
    if (clairvoyant || args.gap) && variant != Variant::Solo {
        return Err(CliError::Usage(
            "the clairvoyant solves solo (reach 75), not solo-all".into(),
        ));
    }
    let mut gaps: Vec<f64> = Vec::new();
    let beam = clairvoyant::Beam {
        width: args.beam_width.max(1),
        branch: args.beam_branch.max(1),
    };
    records_dir(&args.records)?;
    let bar = progress(args.games, "games");
    let (mut tiles, mut finals) = (Vec::new(), Vec::new());
    let (mut reached, mut symphonies) = (0u64, 0u64);
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(i);
        let setup = Setup {
            variant: Some(variant),
            ..Setup::seeded(1, seed)
        };
        let rg = if clairvoyant {
            solved(&setup, beam)?
        } else {
            args.roster
                .play(&setup, &[&args.bot], args.seed, i, &bar)?
                .0
        };
        if let Some(dir) = &args.records {
            write_record(dir, i, &rg.record().to_json())?;
        }
        let line = match rg.game().outcome() {
            Some(Outcome::Solo {
                tiles_used,
                score,
                reached: r,
                symphony,
            }) => {
                // A game that never reached 75 counts as the worst for the median.
                tiles.push(if r { tiles_used as f64 } else { f64::INFINITY });
                reached += r as u64;
                symphonies += symphony as u64;
                match (r, symphony) {
                    (true, true) => format!("{tiles_used} tiles to reach 75 ({score}), a symphony"),
                    (true, false) => format!("{tiles_used} tiles to reach 75 ({score})"),
                    (false, _) => format!("75 not reached: {score} points with {tiles_used} tiles"),
                }
            }
            Some(Outcome::SoloAll {
                score,
                discs_left,
                final_score,
            }) => {
                finals.push(final_score as f64);
                format!("final score {final_score} ({score} points − {discs_left} discs left)")
            }
            _ => unreachable!("solo games end with a solo outcome"),
        };
        let line = if args.gap {
            let best = solved(&setup, beam)?;
            let theirs = tiles_to_75(best.game().outcome());
            let mine = tiles_to_75(rg.game().outcome());
            if let (Some(c), Some(b)) = (theirs, mine) {
                gaps.push(b as f64 - c as f64);
            }
            let c = theirs.map_or("75 not reached".to_string(), |c| format!("{c} tiles"));
            format!("{line}; the clairvoyant: {c}")
        } else {
            line
        };
        bar.suspend(|| say!("game {i} (deck {seed}): {line}"));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let n = args.games as f64;
    if variant == Variant::Solo {
        let finite: Vec<f64> = tiles.iter().copied().filter(|t| t.is_finite()).collect();
        let med = median(&tiles);
        let tiles_line = match (med.is_finite(), finite.is_empty()) {
            (_, true) => "tiles used: - (75 never reached)".to_string(),
            (true, _) => format!(
                "tiles used: median {med:.1}, mean {:.2} over the games that reached 75",
                mean(&finite)
            ),
            (false, _) => format!(
                "tiles used: median - (75 not reached in half the games or more), mean {:.2} over the games that reached 75",
                mean(&finite)
            ),
        };
        say!(
            "{} games: 75 reached in {reached}; {tiles_line}; symphony rate {:.1}% ({symphonies} of {})",
            args.games,
            100.0 * symphonies as f64 / n,
            args.games
        );
        if args.gap {
            say!(
                "gap to the clairvoyant (decks both finished): mean {:.2} tiles, median {:.1}, over {} decks",
                mean(&gaps),
                median(&gaps),
                gaps.len()
            );
        }
    } else {
        say!(
            "{} games: final score median {:.1}, mean {:.2}",
            args.games,
            median(&finals),
            mean(&finals)
        );
    }
    Ok(())
}
