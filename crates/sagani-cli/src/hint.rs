//! `sagani hint`: the best few moves for whoever must act at the end of a (partial) record.

use crate::error::CliError;
use crate::out::say;
use crate::replay::read_record;
use crate::seats::{exit_as_replay, Roster};
use sagani_core::record::replay_json;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Rate the moves of whoever must act at the end of a record, best first.
///
/// The bot sees only that player's view (never the draw pile's order, although the record holds
/// it). For `mcts` a move's value is the player's expected return (0 to 1: the chance of
/// winning, a little more for a wider margin; in solo, fewer tiles to reach 75 is higher) and
/// visits count the search's playouts through it; for `greedy` the value is its evaluation.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani hint game.json\n  sagani hint game.json --bot mcts --budget-ms 3000 --top 8\n  sagani hint examples/two-player-game.json --after 20\n  sagani hint game.json --json"
)]
pub struct Args {
    /// The record file, or `-` for standard input.
    file: PathBuf,
    /// The bot that rates the moves: mcts, greedy, or a NAME given with --engine.
    #[arg(long, default_value = "mcts")]
    bot: String,
    /// How many moves to list.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    top: u64,
    /// Seed of the bot.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    roster: Roster,
    /// Rate the position after the first N moves of the record instead of after all of them.
    #[arg(long, value_name = "N")]
    after: Option<u64>,
    /// Print the hints as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Hint {
    player: u8,
    expects: sagani_core::Expect,
    bot: String,
    moves: Vec<HintMove>,
}

#[derive(Serialize)]
struct HintMove {
    #[serde(rename = "move")]
    mv: sagani_core::Move,
    value: Option<f64>,
    visits: u64,
    /// What the placement does at once (absent for the intermezzo choice and passing).
    preview: Option<sagani_core::Preview>,
    /// Why, in plain words: what the move does, and how the search rated it.
    reason: String,
}

pub fn run(args: Args) -> ExitCode {
    exit_as_replay(run_inner(args))
}

fn run_inner(args: Args) -> Result<(), CliError> {
    args.roster.check(std::slice::from_ref(&args.bot))?;
    let text = read_record(&args.file)?;
    let (mut record, game) = replay_json(&text)?;
    let game = match args.after {
        Some(n) if (n as usize) < record.moves.len() => {
            record.moves.truncate(n as usize);
            record.replay()?
        }
        Some(n) if n as usize > record.moves.len() => {
            return Err(CliError::Usage(format!(
                "--after {n}: the record has only {} moves",
                record.moves.len()
            )))
        }
        _ => game,
    };
    let (Some(player), Some(expects)) = (game.to_act(), game.expects()) else {
        return Err(CliError::Usage(
            "the game is over: there is no move to hint".into(),
        ));
    };
    let view = game.view(Some(player));
    let legal = game.legal_moves();
    let mut bot = args.roster.make(&args.bot, args.seed)?;
    let start = Instant::now();
    let rated = bot.analyse(&view, &legal, args.roster.budget(), args.top as usize);
    let ms = start.elapsed().as_millis();
    let hint = Hint {
        player,
        expects,
        bot: bot.name(),
        moves: rated
            .into_iter()
            .map(|a| HintMove {
                mv: a.mv,
                value: a.value.is_finite().then_some(a.value),
                visits: a.visits,
                preview: game.preview(a.mv).ok(),
                reason: sagani_ai::explain::reason(&game, a.mv, Some(&a)),
            })
            .collect(),
    };
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&hint).expect("hints serialise")
        );
        return Ok(());
    }
    say!(
        "player {player} to act ({}); {} legal moves; best by {} after {ms} ms:",
        expects.name(),
        legal.len(),
        hint.bot
    );
    for (i, m) in hint.moves.iter().enumerate() {
        let value = m.value.map_or("-".to_string(), |v| format!("{v:.3}"));
        let effect = m.preview.as_ref().map_or(String::new(), |p| {
            format!(
                "; at once {:+} ({} points, {} Cacophony, {} arrow{} covered)",
                p.score_change,
                p.points,
                p.cacophony,
                p.covered.len(),
                if p.covered.len() == 1 { "" } else { "s" }
            )
        });
        say!(
            "{:>2}. {:<42} value {value:>7}, visits {:>6}{effect}",
            i + 1,
            m.mv.to_string(),
            m.visits
        );
        say!("    {}", m.reason);
    }
    Ok(())
}
