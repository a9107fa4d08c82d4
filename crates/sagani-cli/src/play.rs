//! `sagani play`: a full-screen game in the terminal (crates/sagani-tui), and `sagani view`, its
//! replay viewer.

use crate::error::CliError;
use crate::out::say;
use crate::seats::{bot_seed, exit, Roster};
use sagani_ai::BotSpec;
use sagani_core::record::RecordedGame;
use sagani_core::{Setup, Variant};
use sagani_protocol::games::{CreateGame, SeatRequest};
use sagani_protocol::time_control::TimeControl;
use sagani_tui::{App, Options, Player, SaveTo, Viewer, WallClock};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Play Sagani full-screen in the terminal: against bots, hot-seat, or solo; or at a table on a
/// game server, with people in browsers.
///
/// Seat 1 is you. `--bots` names who plays the other seats, in order: a bot (a level
/// `mcts:LEVEL`, random, greedy, mcts, or an --engine NAME) or `human` for another person at
/// the same keyboard; without it, level 2 plays them. Naming every
/// seat (as many names as players) puts a bot in seat 1 too, to watch bots play. `q` saves the
/// game as a record (docs/RECORD.md, with the seats) and quits; `--load` resumes it.
///
/// Online: `--join LINK` takes the seat of an invite link (as the page copies it); `--server
/// URL` makes a new game there (its bots play on the server, each `human` seat gets an invite
/// link to hand out) and seats you in it. `q` leaves the table; the link brings you back.
#[derive(clap::Args)]
#[command(
    after_help = crate::seats::bots_help("Examples:\n  sagani play                               # you against level 2, a beginner\n  sagani play --bots mcts:5                 # you against level 5\n  sagani play --players 3 --bots mcts,greedy --seed 7\n  sagani play --players 2 --bots human       # two people, one keyboard\n  sagani play --solo                        # reach 75 with as few tiles as you can\n  sagani play --solo --variant solo-all     # all 72 tiles\n  sagani play --load sagani-game.json       # go on with a game saved by q\n  sagani play --join http://127.0.0.1:8080/games/9f2c…/join/5be1…   # a seat at a server's table\n  sagani play --server http://127.0.0.1:8080 --bots human --clock 5+5 --name Tess\n\nIn the game, ? shows every key.")
)]
pub struct Args {
    /// Seats in the game, 1 to 4 (default: one more than the --bots names, 2 to 4; 1 with
    /// --solo).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=4))]
    players: Option<u8>,
    /// Who plays the seats after yours, comma-separated (default: level 2, mcts:2, in each;
    /// the levels are below).
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
    /// Take the seat of an invite link at a game server's table (http://HOST:PORT/games/GAME/join/CODE).
    #[arg(long, value_name = "LINK", conflicts_with_all = ["load", "players", "bots", "seed", "solo", "variant", "save", "server"])]
    join: Option<String>,
    /// Make a new game on this game server (http://HOST:PORT) and take its first seat. --bots
    /// names the other seats: random, greedy, mcts or mcts:LEVEL (1-8) play on the server; each
    /// `human` seat gets an invite link for its player.
    #[arg(long, value_name = "URL", conflicts_with_all = ["load", "seed", "save"])]
    server: Option<String>,
    /// Your name at a server's table (a guest's display name, 1-24 characters).
    #[arg(long)]
    name: Option<String>,
    /// The time control of a new game on a server: none, M+S (Fischer: minutes and seconds
    /// added per decision, e.g. 3+2, 5+5, 10+10) or turn:D (D days per decision: 1, 2, 3, 7).
    #[arg(long, value_name = "CONTROL", requires = "server")]
    clock: Option<String>,
    /// List a new game on a server in its lobby, so anyone may take a free seat (it then needs
    /// a clock: 10+10 unless --clock says otherwise).
    #[arg(long, requires = "server")]
    public: bool,
    #[command(flatten)]
    roster: Roster,
}

pub fn run(args: Args) -> ExitCode {
    exit(run_inner(args))
}

/// Who plays each seat, from `--players` and `--bots`.
fn seat_names(players: u8, bots: &[String]) -> Result<Vec<String>, CliError> {
    let n = players as usize;
    let bots: Vec<String> = if bots.is_empty() {
        vec![BotSpec::Level(sagani_ai::levels::DEFAULT_LEVEL).to_string(); n - 1]
    } else {
        bots.iter().map(|b| b.trim().to_string()).collect()
    };
    if bots.len() == n {
        Ok(bots)
    } else if bots.len() + 1 == n {
        Ok(std::iter::once("human".to_string()).chain(bots).collect())
    } else {
        Err(CliError::Usage(format!(
            "--bots names {} seat{}, but a {n}-player game has {} after yours (name {n} to fill them all)",
            bots.len(),
            if bots.len() == 1 { "" } else { "s" },
            n - 1
        )))
    }
}

fn players_of(args: &Args) -> Result<(u8, Option<Variant>), CliError> {
    let variant = args.variant.as_deref().and_then(Variant::parse);
    let solo = args.solo || variant.is_some();
    match (solo, args.players) {
        (true, None | Some(1)) => Ok((1, variant.or(Some(Variant::Solo)))),
        (true, Some(n)) => Err(CliError::Usage(format!(
            "a solo game has 1 player, not {n}"
        ))),
        (false, Some(n)) => Ok((n, None)),
        (false, None) => Ok((
            (args.bots.len() as u8 + 1)
                .clamp(2, 4)
                .max(args.bots.len() as u8),
            None,
        )),
    }
}

fn run_inner(args: Args) -> Result<(), CliError> {
    if args.join.is_some() || args.server.is_some() {
        return online(&args);
    }
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
            let rg = RecordedGame::new(&setup)?;
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
            (Some(file), true) => CliError::Usage(format!(
                "{}: the seats it names: {e}; choose them with --bots",
                file.display()
            )),
            _ => e,
        })?;
    // Checked before the screen opens, so that a wrong argument reads as one line.
    sagani_tui::interactive().map_err(CliError::NoScreen)?;
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
        .collect::<Result<Vec<_>, CliError>>()?;
    let mut app = App::new(
        rg,
        players,
        Options {
            save_to,
            seed,
            bot_pace: Duration::from_millis(args.bot_pace_ms),
            clock: Box::new(WallClock),
        },
    )?;
    let Some(path) = sagani_tui::run_play(&mut app)? else {
        say!("Quit without saving.");
        return Ok(());
    };
    if app.game().is_over() {
        say!(
            "Saved the finished game to {}. Step through it with: sagani view {}",
            path.display(),
            shell_word(&path)
        );
    } else {
        say!(
            "Saved the game to {}. Go on with: sagani play --load {}",
            path.display(),
            shell_word(&path)
        );
    }
    Ok(())
}

/// The time control a new game on a server gets, checked as the server checks it.
fn clock_of(text: &str) -> Result<TimeControl, CliError> {
    let bad = || {
        CliError::Usage(format!(
            "--clock {text:?}: give none, M+S (minutes and seconds, e.g. 5+5) or turn:D (days)"
        ))
    };
    let t = text.trim();
    let control = if t == "none" {
        TimeControl::None
    } else if let Some(days) = t.strip_prefix("turn:") {
        TimeControl::Turn {
            days: days.parse().map_err(|_| bad())?,
        }
    } else {
        let (m, s) = t.split_once('+').ok_or_else(bad)?;
        let m: u32 = m.parse().map_err(|_| bad())?;
        TimeControl::Realtime {
            initial_s: m.checked_mul(60).ok_or_else(bad)?,
            increment_s: s.parse().map_err(|_| bad())?,
        }
    };
    control.check().map_err(|source| CliError::Clock {
        text: text.to_string(),
        source,
    })
}

/// A server's seat for each name after mine: a person (with an invite link) or one of the
/// server's bots (the simple ones, mcts and its levels).
fn seat_request(name: &str) -> Result<SeatRequest, CliError> {
    let bot = |bot: &str, level| SeatRequest::Bot {
        bot: bot.to_string(),
        level,
    };
    if name == "human" {
        return Ok(SeatRequest::Human);
    }
    match name.parse::<BotSpec>() {
        Ok(BotSpec::Random) => Ok(bot("random", None)),
        Ok(BotSpec::Greedy) => Ok(bot("greedy", None)),
        Ok(BotSpec::Mcts(settings)) if settings.is_empty() => Ok(bot("mcts", None)),
        Ok(BotSpec::Level(n)) => Ok(bot("mcts", Some(n))),
        Err(e @ sagani_ai::BotSpecError::NoSuchLevel(_)) => {
            Err(CliError::Usage(format!("{name:?}: {e}")))
        }
        Err(e @ sagani_ai::BotSpecError::LevelNotANumber(_)) => Err(e.into()),
        _ => Err(CliError::Usage(format!(
            "{name:?} cannot play at a server's table: name random, greedy, mcts, mcts:LEVEL or human"
        ))),
    }
}

/// A seat at a game server's table: joined by an invite, or in a new game made there.
fn online(args: &Args) -> Result<(), CliError> {
    let name = args.name.as_deref();
    let (conn, invites) = match (&args.join, &args.server) {
        (Some(link), _) => {
            let invite = sagani_tui::Invite::parse(link)?;
            (sagani_tui::Connection::join(&invite, name)?, Vec::new())
        }
        (None, Some(server)) => {
            let server = sagani_tui::online::server(server)?;
            let (players, variant) = players_of(args)?;
            let names = seat_names(players, &args.bots)?;
            if names[0] != "human" {
                return Err(CliError::Usage(
                    "at a server's table the first seat is yours: name the seats after it with --bots".into(),
                ));
            }
            let seats = names
                .iter()
                .map(|n| seat_request(n))
                .collect::<Result<Vec<_>, _>>()?;
            let game = CreateGame {
                seats,
                variant,
                public: args.public,
                tutorial: false,
                rated: false,
                practice: false,
                name: name.map(str::to_string),
                clock: args.clock.as_deref().map(clock_of).transpose()?,
            };
            sagani_tui::Connection::create(&server, &game, name)?
        }
        (None, None) => unreachable!("online() runs for --join or --server"),
    };
    sagani_tui::interactive()?;
    let (link, page) = (conn.link(), conn.page());
    let mut app = App::online(
        conn,
        invites.clone(),
        Options {
            save_to: SaveTo::NewIn(PathBuf::new()),
            seed: 0,
            bot_pace: Duration::from_millis(args.bot_pace_ms),
            clock: Box::new(WallClock),
        },
    )?;
    sagani_tui::run_play(&mut app)?;
    if app.over() {
        say!("The game is over. Look back at it in a browser: {page}");
    } else {
        say!(
            "You left the table; the seat is still yours (and its clock, if it has one, runs on)."
        );
        say!("Come back with: sagani play --join {link}");
        say!("(or open that link in a browser; keep it to yourself: it takes the seat)");
        for (seat, other) in &invites {
            say!("Seat {} invite: {other}", seat + 1);
        }
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
    exit((|| {
        let loaded = sagani_tui::load(&args.file)?;
        let name = args.file.file_name().map_or_else(
            || args.file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mut viewer = Viewer::new(name, loaded.game.record().clone(), loaded.seats)?;
        Ok(sagani_tui::run_view(&mut viewer)?)
    })())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_fill_the_seats_after_yours_or_all_of_them() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(seat_names(2, &[]).unwrap(), s(&["human", "mcts:2"]));
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
        let e = seat_names(4, &s(&["mcts"])).unwrap_err().to_string();
        assert!(
            e.contains("names 1 seat, but a 4-player game has 3 after yours"),
            "{e}"
        );
    }

    #[test]
    fn a_server_game_is_asked_for_in_the_protocol_s_shapes() {
        assert_eq!(clock_of("none").unwrap(), TimeControl::None);
        assert_eq!(
            clock_of(" 5+5 ").unwrap(),
            TimeControl::Realtime {
                initial_s: 300,
                increment_s: 5
            }
        );
        assert_eq!(clock_of("turn:3").unwrap(), TimeControl::Turn { days: 3 });
        for (bad, why) in [
            ("5x5", "give none, M+S"),
            ("5+900", "increment_s must be 0 to 600"),
            ("turn:4", "days must be 1, 2, 3 or 7"),
        ] {
            let e = clock_of(bad).unwrap_err().to_string();
            assert!(
                e.contains(&format!("--clock {bad:?}")) && e.contains(why),
                "{e}"
            );
        }
        let json = |n: &str| serde_json::to_value(seat_request(n).unwrap()).unwrap();
        assert_eq!(json("human"), serde_json::json!({ "kind": "human" }));
        assert_eq!(
            json("mcts:3"),
            serde_json::json!({ "kind": "bot", "bot": "mcts", "level": 3 })
        );
        assert_eq!(json("greedy")["bot"], "greedy");
        for (bad, why) in [
            ("mcts:9", "the levels are 1 to 8, not 9"),
            ("mcts-2026", "cannot play at a server's table"),
            ("mcts/reuse=false", "cannot play at a server's table"),
            ("unruly", "cannot play at a server's table"),
        ] {
            let e = seat_request(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
