//! `sagani play`: a full-screen game in the terminal (crates/sagani-tui), and `sagani view`, its
//! replay viewer.

use crate::seats::{bot_seed, exit, Roster};
use sagani_core::record::RecordedGame;
use sagani_core::{Setup, Variant};
use sagani_tui::{App, Options, Player, SaveTo, Viewer};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Play Sagani full-screen in the terminal: against bots, hot-seat, or solo.
///
/// Seat 1 is you. `--bots` names who plays the other seats, in order: a bot (random, greedy,
/// mcts, or an --engine NAME) or `human` for another person at the same keyboard. Naming every
/// seat (as many names as players) puts a bot in seat 1 too, to watch bots play. `q` saves the
/// game as a record (docs/RECORD.md, with the seats) and quits; `--load` resumes it.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani play                               # you against mcts\n  sagani play --players 3 --bots mcts,greedy --seed 7\n  sagani play --players 2 --bots human       # two people, one keyboard\n  sagani play --solo                        # reach 75 with as few tiles as you can\n  sagani play --solo --variant solo-all     # all 72 tiles\n  sagani play --load sagani-game.json       # go on with a game saved by q\n\nIn the game, ? shows every key."
)]
pub struct Args {
    /// Seats in the game, 1 to 4 (default: one more than the --bots names, 2 to 4; 1 with
    /// --solo).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=4))]
    players: Option<u8>,
    /// Who plays the seats after yours, comma-separated (default: mcts in each).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    bots: Vec<String>,
    /// Deals the tiles and seeds the bots (default: a random seed, kept in the saved game).
    #[arg(long)]
    seed: Option<u64>,
    /// A solo game (1 player).
    #[arg(long)]
    solo: bool,
    /// The solo variant: solo (reach 75) or solo-all (all 72 tiles); implies --solo.
    #[arg(long, value_parser = ["solo", "solo-all"])]
    variant: Option<String>,
    /// Resume a saved game (or go on with any record).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["players", "seed", "solo", "variant"])]
    load: Option<PathBuf>,
    /// Where q saves the game (default: back to the --load file if sagani play saved it, else
    /// a new sagani-game.json, sagani-game-2.json, … in the current folder).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// The least time from the move before to a bot's move, so bots can be followed.
    #[arg(long, default_value_t = 400, value_name = "MS")]
    bot_pace_ms: u64,
    #[command(flatten)]
    roster: Roster,
}

pub fn run(args: Args) -> ExitCode {
    exit(run_inner(args).map_err(|e| format!("error: {e}")))
}

/// Who plays each seat, from `--players` and `--bots`.
fn seat_names(players: u8, bots: &[String]) -> Result<Vec<String>, String> {
    let n = players as usize;
    let bots: Vec<String> = if bots.is_empty() {
        vec!["mcts".to_string(); n - 1]
    } else {
        bots.iter().map(|b| b.trim().to_string()).collect()
    };
    if bots.len() == n {
        Ok(bots)
    } else if bots.len() + 1 == n {
        Ok(std::iter::once("human".to_string()).chain(bots).collect())
    } else {
        Err(format!(
            "--bots names {} seat{}, but a {n}-player game has {} after yours (name {n} to fill them all)",
            bots.len(),
            if bots.len() == 1 { "" } else { "s" },
            n - 1
        ))
    }
}

fn players_of(args: &Args) -> Result<(u8, Option<Variant>), String> {
    let variant = args.variant.as_deref().and_then(Variant::parse);
    let solo = args.solo || variant.is_some();
    match (solo, args.players) {
        (true, None | Some(1)) => Ok((1, variant.or(Some(Variant::Solo)))),
        (true, Some(n)) => Err(format!("a solo game has 1 player, not {n}")),
        (false, Some(n)) => Ok((n, None)),
        (false, None) => Ok((
            (args.bots.len() as u8 + 1)
                .clamp(2, 4)
                .max(args.bots.len() as u8),
            None,
        )),
    }
}

fn run_inner(args: Args) -> Result<(), String> {
    let (rg, names, seed, save_to) = match &args.load {
        Some(file) => {
            let loaded = sagani_tui::load(file)?;
            let players = loaded.game.game().players();
            let names = match (&loaded.seats, args.bots.is_empty()) {
                (_, false) => seat_names(players, &args.bots)?,
                (Some(s), true) => s.clone(),
                // A record without seats (from the arena or the server): people in every seat.
                (None, true) => vec!["human".to_string(); players as usize],
            };
            let seed = loaded.seed.unwrap_or_else(random_seed);
            // A game this command saved goes back to its file; any other record is left as it
            // is (its own extra fields included) and the game goes to a new file here.
            let save = match (&args.save, loaded.ours) {
                (Some(s), _) => SaveTo::File(s.clone()),
                (None, true) => SaveTo::File(file.clone()),
                (None, false) => SaveTo::NewIn(PathBuf::new()),
            };
            (loaded.game, names, seed, save)
        }
        None => {
            let (players, variant) = players_of(&args)?;
            let names = seat_names(players, &args.bots)?;
            let seed = args.seed.unwrap_or_else(random_seed);
            let setup = Setup {
                variant,
                ..Setup::seeded(players, seed)
            };
            let rg = RecordedGame::new(&setup).map_err(|e| e.to_string())?;
            let save = match &args.save {
                Some(s) => SaveTo::File(s.clone()),
                None => SaveTo::NewIn(PathBuf::new()),
            };
            (rg, names, seed, save)
        }
    };
    let bots: Vec<String> = names.iter().filter(|n| *n != "human").cloned().collect();
    args.roster
        .check(&bots)
        .map_err(|e| match (&args.load, args.bots.is_empty()) {
            (Some(file), true) => format!(
                "{}: the seats it names: {e}; choose them with --bots",
                file.display()
            ),
            _ => e,
        })?;
    // Checked before the screen opens, so that a wrong argument reads as one line.
    sagani_tui::interactive()
        .map_err(|e| format!("{e} (to let bots play without a screen, use sagani arena)"))?;
    // An engine writing to our terminal would write over the table.
    let mut roster = args.roster.clone();
    roster.engine_logs = Some(std::env::temp_dir());
    let players = names
        .iter()
        .enumerate()
        .map(|(s, name)| {
            if name == "human" {
                Ok(Player::human(""))
            } else {
                let bot = roster.make(name, bot_seed(seed, 0, s as u64))?;
                Ok(Player::bot(name.clone(), bot, roster.budget()))
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut app = App::new(
        rg,
        players,
        Options {
            save_to,
            seed,
            bot_pace: Duration::from_millis(args.bot_pace_ms),
        },
    )?;
    let Some(path) = sagani_tui::run_play(&mut app)? else {
        println!("Quit without saving.");
        return Ok(());
    };
    if app.game().is_over() {
        println!(
            "Saved the finished game to {}. Step through it with: sagani view {}",
            path.display(),
            shell_word(&path)
        );
    } else {
        println!(
            "Saved the game to {}. Go on with: sagani play --load {}",
            path.display(),
            shell_word(&path)
        );
    }
    Ok(())
}

fn shell_word(p: &Path) -> String {
    let s = p.display().to_string();
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
    {
        s
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A seed nobody can guess (the standard library's per-process random hash keys), so the deal
/// stays hidden from the players; the saved game keeps it.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// Step through a game record move by move, full-screen in the terminal.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani view examples/two-player-game.json\n  sagani view sagani-game.json\n\nKeys: → next move, ← back, Home/End, Tab another display, ? help, q or Esc quit."
)]
pub struct ViewArgs {
    /// The record file (docs/RECORD.md), finished or not.
    file: PathBuf,
}

pub fn view(args: ViewArgs) -> ExitCode {
    exit(
        (|| {
            let loaded = sagani_tui::load(&args.file)?;
            let name = args.file.file_name().map_or_else(
                || args.file.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            let mut viewer = Viewer::new(name, loaded.game.record().clone(), loaded.seats)?;
            sagani_tui::run_view(&mut viewer)
        })()
        .map_err(|e| format!("error: {e}")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_fill_the_seats_after_yours_or_all_of_them() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(seat_names(2, &[]).unwrap(), s(&["human", "mcts"]));
        assert_eq!(
            seat_names(3, &s(&["mcts", "greedy"])).unwrap(),
            s(&["human", "mcts", "greedy"])
        );
        assert_eq!(
            seat_names(2, &s(&["mcts", "greedy"])).unwrap(),
            s(&["mcts", "greedy"])
        );
        assert_eq!(
            seat_names(2, &s(&["human"])).unwrap(),
            s(&["human", "human"])
        );
        assert_eq!(seat_names(1, &[]).unwrap(), s(&["human"]));
        let e = seat_names(4, &s(&["mcts"])).unwrap_err();
        assert!(
            e.contains("names 1 seat, but a 4-player game has 3 after yours"),
            "{e}"
        );
    }
}
