//! `sagani hint`: the best few moves for whoever must act at the end of a (partial) record.

use crate::error::CliError;
use crate::out::say;
use crate::replay::read_record;
use crate::seats::{exit_as_replay, Roster};
use sagani_ai::BotSpec;
use sagani_core::record::replay_json;
use sagani_core::Preview;
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
/// Levels 5 to 8 rate moves as `mcts` does, with their own iterations, level 4 as `greedy`;
/// levels 1 to 3 pick a move without rating the others. A search rates only the moves it
/// tried: a list shorter than --top says so. A placement turned so that the tile's arrows point as in one listed already
/// is the same move, and is left out.
#[derive(clap::Args)]
#[command(
    after_help = crate::seats::bots_help("Examples:\n  sagani hint game.json\n  sagani hint game.json --bot mcts --budget-ms 3000 --top 8\n  sagani hint game.json --bot mcts:6\n  sagani hint examples/two-player-game.json --after 20\n  sagani hint game.json --json")
)]
pub struct Args {
    /// The record file, or `-` for standard input.
    file: PathBuf,
    /// The bot that rates the moves: mcts, mcts:LEVEL, greedy, or a NAME given with --engine.
    #[arg(long, default_value = "mcts")]
    bot: String,
    /// How many moves to list.
    #[arg(long, default_value_t = 5, value_parser = crate::seats::at_least_one)]
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
    /// Other turns of the tile on the same cell that do the same at once, rated lower.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    also_turned: Vec<u8>,
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
    // Asked for more than --top: placements that do the same are listed once.
    let top = usize::try_from(args.top).unwrap_or(usize::MAX);
    let rated = bot.analyse(
        &view,
        &legal,
        args.roster.budget(),
        top.saturating_mul(4).min(legal.len()),
    );
    let ms = start.elapsed().as_millis();
    let mut moves: Vec<HintMove> = Vec::new();
    let mut alike = 0;
    for a in rated {
        let preview = game.preview(a.mv).ok();
        // Another turn of a listed placement, doing the same at once and rated lower: named
        // beside it rather than listed again.
        if let Some(m) = moves
            .iter_mut()
            .find(|m| same_at_once(m, a.mv, preview.as_ref()))
        {
            if let sagani_core::Move::Place { rot, .. } = a.mv {
                m.also_turned.push(rot);
            }
            alike += 1;
            continue;
        }
        moves.push(HintMove {
            mv: a.mv,
            value: a.value.is_finite().then_some(a.value),
            visits: a.visits,
            preview,
            reason: sagani_ai::explain::option(&game, a.mv, Some(&a)),
            also_turned: Vec::new(),
        });
    }
    let rated_count = moves.len();
    moves.truncate(top);
    let hint = Hint {
        player,
        expects,
        bot: bot.name(),
        moves,
    };
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&hint).expect("hints serialise")
        );
        return Ok(());
    }
    let spent = match (args.bot.parse::<BotSpec>(), args.roster.iterations()) {
        (Ok(BotSpec::Level(_)), _) => format!("at its level, in {ms} ms"),
        (_, Some(n)) => format!("after {n} iterations ({ms} ms)"),
        _ => format!("after {ms} ms"),
    };
    say!(
        "player {player} to act ({}); {} legal moves; best by {} {spent}:",
        expects.name(),
        legal.len(),
        hint.bot
    );
    // A bot that rates no moves (a one-ply level, an engine) names only its choice.
    let unrated = hint
        .moves
        .iter()
        .all(|m| m.value.is_none() && m.visits == 0);
    if unrated {
        say!(
            "({} picks a move without rating the others: its choice)",
            hint.bot
        );
    } else if (rated_count as u64) < args.top && rated_count + alike < legal.len() {
        say!(
            "(the search rated {} of the {} legal moves: it tries the likeliest first, and the others were never worth a playout{})",
            rated_count + alike,
            legal.len(),
            if alike > 0 {
                format!("; {alike} are named as other turns of a listed one")
            } else {
                String::new()
            }
        );
    }
    let searched = hint.moves.iter().any(|m| m.visits > 1);
    for (i, m) in hint.moves.iter().enumerate() {
        if unrated {
            say!("{:>2}. {}", i + 1, m.mv);
            say!("    {}{}", m.reason, turns_words(&m.also_turned));
            continue;
        }
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
        // A bot that rates by its evaluation (greedy) plays no playouts to count.
        let visits = if searched {
            format!(", visits {:>6}", m.visits)
        } else {
            String::new()
        };
        say!(
            "{:>2}. {:<42} value {value:>7}{visits}{effect}",
            i + 1,
            m.mv.to_string()
        );
        say!("    {}{}", m.reason, turns_words(&m.also_turned));
    }
    Ok(())
}

/// "; turned 1 or 3 it does the same at once (rated lower)".
fn turns_words(turns: &[u8]) -> String {
    if turns.is_empty() {
        return String::new();
    }
    let list: Vec<String> = turns.iter().map(u8::to_string).collect();
    format!(
        "; turned {} it does the same at once (rated lower)",
        list.join(" or ")
    )
}

/// Whether `mv` places the tile of a listed move on the same cell, turned otherwise but doing
/// the same at once (the same arrows of the same tiles covered, the same tiles completed, the
/// same discs left): to a player it reads as the same line again.
fn same_at_once(listed: &HintMove, mv: sagani_core::Move, preview: Option<&Preview>) -> bool {
    use sagani_core::Move::Place;
    let (
        Place { tile, x, y, .. },
        Place {
            tile: t,
            x: lx,
            y: ly,
            ..
        },
    ) = (mv, listed.mv)
    else {
        return false;
    };
    let (Some(p), Some(lp)) = (preview, listed.preview.as_ref()) else {
        return false;
    };
    let on = |p: &Preview| {
        let mut tiles: Vec<_> = p.covered.iter().map(|c| c.tile).collect();
        tiles.sort_unstable();
        (
            tiles,
            p.completed.clone(),
            p.points,
            p.cacophony,
            p.supply_after,
        )
    };
    (tile, x, y) == (t, lx, ly) && on(p) == on(lp)
}
