//! `sagani daily`: today's daily challenge of a game server, played at the terminal table, then
//! the result line to share, par and the place on the day's leaderboard.

use crate::error::CliError;
use crate::out::say;
use crate::seats::exit;
use sagani_protocol::daily::{Card, ResultInfo};
use sagani_tui::{App, Options, SaveTo, WallClock};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Play the daily challenge of a game server: every UTC day one solo deck, the same for every
/// account. From the terminal you play as a guest: unranked, on a deck of its own (the day's
/// deck is played once, by accounts, in the browser, and nobody sees it before); afterwards you
/// get your result.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani daily --server http://127.0.0.1:8080\n  sagani daily --server http://127.0.0.1:8080 --variant solo-all --name Tess"
)]
pub struct Args {
    /// The game server whose challenge to play (http://HOST:PORT).
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// solo (reach 75 points with as few tiles as you can) or solo-all (all 72 tiles).
    #[arg(long, value_parser = ["solo", "solo-all"], default_value = "solo")]
    variant: String,
    /// Your name at the server's table (a guest's display name, 1-24 characters).
    #[arg(long)]
    name: Option<String>,
}

pub fn run(args: Args) -> ExitCode {
    let Some(server) = &args.server else {
        eprintln!(
            "The daily challenge is a game server's: every server deals its own deck of the day.\n\
             Play it with: sagani daily --server http://HOST:PORT\n\
             (or in a browser at the server's address; start a server of your own with: sagani serve)"
        );
        return ExitCode::from(2);
    };
    exit(play(server, &args))
}

fn play(server: &str, args: &Args) -> Result<(), CliError> {
    let server = sagani_tui::online::server(server)?;
    // Checked before anything starts: an attempt begun without a screen would be lost.
    sagani_tui::interactive()?;
    let (conn, started) =
        sagani_tui::Connection::daily(&server, &args.variant, args.name.as_deref())?;
    let day = started.day;
    let link = conn.link();
    let mut app = App::online(
        conn,
        Vec::new(),
        Options {
            save_to: SaveTo::NewIn(PathBuf::new()),
            seed: 0,
            bot_pace: Duration::ZERO,
            clock: Box::new(WallClock),
        },
    )?;
    sagani_tui::run_play(&mut app)?;
    if !app.over() {
        say!("You left today's challenge ({day}); it waits for you.");
        say!("Come back with: sagani play --join {link}");
        return Ok(());
    }
    let card = standing(&app)?;
    for line in summary(&card) {
        say!("{line}");
    }
    Ok(())
}

/// The game's standing once it is over, par included: the bot plays the day's deck on the
/// server, which takes a moment the first time.
fn standing(app: &App) -> Result<Card, CliError> {
    let conn = &app
        .table()
        .ok_or_else(|| CliError::Found("the game is not a server's".into()))?
        .conn;
    let waited = Instant::now();
    loop {
        let card = conn.daily_card()?;
        if !card.par_pending || waited.elapsed() > Duration::from_secs(10) {
            return Ok(card);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// "1st", "2nd", "3rd", "4th", … "11th", "12th", "13th", "21st".
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A result in words: "symphony in 22 tiles", "81 points in 30 tiles", "62 points, the pile ran
/// out"; in solo-all "96 points".
fn result_words(variant: &str, r: &ResultInfo) -> String {
    let (tiles, score) = (r.tiles, r.score);
    if variant == "solo-all" {
        format!("{score} points")
    } else if r.symphony {
        format!("symphony in {tiles} tiles")
    } else if r.reached {
        format!("{score} points in {tiles} tiles")
    } else {
        format!("{score} points, the pile ran out")
    }
}

/// The line to share: "Sagani daily 2026-12-03: symphony in 22 tiles"; solo-all names itself:
/// "Sagani daily 2026-12-03 (all 72 tiles): 96 points".
fn share_line(day: &str, variant: &str, result: &ResultInfo) -> String {
    let which = if variant == "solo-all" {
        " (all 72 tiles)"
    } else {
        ""
    };
    format!(
        "Sagani daily {day}{which}: {}",
        result_words(variant, result)
    )
}

/// What is printed after the game: the line to share, par, the place on the leaderboard.
fn summary(card: &Card) -> Vec<String> {
    let (day, variant) = (card.day.as_str(), card.variant.name());
    let Some(result) = &card.result else {
        return vec![format!("Today's challenge ({day}) ended without a result.")];
    };
    if !card.ranked {
        // A guest's game is on a deck of its own: no place, no par, no line to share.
        return vec![format!(
            "Practice as a guest on a deck of its own ({}): today's deck is played once, by \
             accounts, on the leaderboard.",
            result_words(variant, result)
        )];
    }
    let mut lines = vec![share_line(day, variant, result)];
    match &card.par {
        Some(par) => lines.push(format!(
            "Par (the {} bot on the same deck): {}",
            par.bot,
            result_words(variant, &par.result)
        )),
        None => lines.push("Par is still being played; see it on the day's leaderboard.".into()),
    }
    let players = u64::from(card.players);
    let place = card.place.map_or(players + 1, u64::from);
    lines.push(format!(
        "Today's leaderboard: {} of {players}.",
        ordinal(card.rank.map_or(place, u64::from))
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ordinals_read_as_english() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .map(ordinal)
            .into();
        assert_eq!(
            words,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }

    #[test]
    fn the_share_line_words_each_kind_of_result() {
        let r = |tiles, score, reached, symphony| ResultInfo {
            tiles,
            score,
            reached,
            symphony,
        };
        let day = "2026-12-03";
        assert_eq!(
            share_line(day, "solo", &r(22, 76, true, true)),
            "Sagani daily 2026-12-03: symphony in 22 tiles"
        );
        assert_eq!(
            share_line(day, "solo", &r(30, 81, true, false)),
            "Sagani daily 2026-12-03: 81 points in 30 tiles"
        );
        assert_eq!(
            share_line(day, "solo", &r(72, 62, false, false)),
            "Sagani daily 2026-12-03: 62 points, the pile ran out"
        );
        assert_eq!(
            share_line(day, "solo-all", &r(72, 96, true, false)),
            "Sagani daily 2026-12-03 (all 72 tiles): 96 points"
        );
    }

    #[test]
    fn a_guest_hears_it_was_practice_on_a_deck_of_its_own() {
        // As the server sends it: no place, no par for a guest's game.
        let card: Card = serde_json::from_value(json!({"day": "2026-12-03", "variant": "solo",
            "ranked": false, "over": true, "day_over": false, "par_pending": false,
            "leaderboard": [],
            "result": {"tiles": 24, "score": 77, "reached": true, "symphony": true},
            "players": 5}))
        .unwrap();
        assert_eq!(
            summary(&card),
            [
                "Practice as a guest on a deck of its own (symphony in 24 tiles): today's deck is \
              played once, by accounts, on the leaderboard."
            ]
        );
    }
}
