//! `sagani train`: fits the search's move policy to its own self-play (`sagani_lab::train`),
//! or with `--value` the evaluation its cut playouts end with (`sagani_lab::value_train`).

use crate::arena::progress;
use crate::error::CliError;
use crate::out::say;
use crate::seats::exit;
use sagani_ai::policy::{Policy, FEATURES};
use sagani_ai::MctsConfig;
use sagani_lab::train::{fit, self_play, SelfPlay};
use sagani_lab::value_train::{self, positions, Positions};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

/// Tune the mcts move policy from self-play, and write it as a policy file; or, with
/// --value, fit the evaluation of positions that ends its cut playouts; or, with --solo, tune
/// the solo playout policy by its own games.
///
/// mcts plays --games games against itself (game d: deck seed + d, players from --players in
/// turn), searching --iterations a decision. Each decision with a choice is kept as the
/// features of every legal move and the move the search chose; a conditional logit model (a
/// logistic regression over a decision's moves) is fitted to the choices of 4 games in 5 and
/// scored on the fifth. Prints each weight beside the hand-set one, the held-out
/// log-likelihood and how often the fitted and the hand-set policy's best move is the
/// search's. The file is read by `--bots mcts/policy=FILE` (arena, play; for solo games
/// `mcts/solo_policy=FILE`) and is the form of crates/sagani-ai/data/policy-trained.json.
///
/// With --value: --games games of 1 to 4 players (from --players) start with a stretch of
/// noisy moves, then the playout policy of --from (or, with --iterations, the search with
/// that policy) plays them to the end; every third
/// position of that part is kept, for each seat, with the return the seat got at the end. A
/// logistic regression per player count (what a seat holds against the others, or in solo
/// what it holds: score, points on the way, the tiles' worth, open arrows, discs, whether it
/// acts, each also times how far the pile is drawn and in the final round) is fitted to 4
/// games in 5 and scored on the fifth, beside a fit of the score alone. Player counts not
/// played keep the shipped weights. With --solo-parts, solo is fitted in two parts (the
/// share of the return the tiles used earn, and whether a symphony comes) and the one curve
/// beside them.
/// The file is read by `--bots mcts/value=FILE` (arena, solo, play) and is the form of
/// crates/sagani-ai/data/value-trained.json.
///
/// With --solo: 40 weight vectors a generation are drawn around a mean (starting at --from's
/// weights); each plays the same --games solo decks (seeds --seed on) as a playout plays,
/// every placement weighed; the fifth with the highest mean return (what the search backs up:
/// fewer tiles to 75, a bonus for a symphony) make the next mean. The start and the result
/// are scored on as many decks after those, held out. The file is read by
/// `--bot mcts/solo_policy=FILE` (solo) and is the form of
/// crates/sagani-ai/data/solo-policy-trained.json; --value --players 1 --from FILE then fits the
/// solo evaluation to it.
///
/// With --td: learns a value of solo positions by temporal differences: first --warm games
/// played by the solo playout policy, then --games games the value plays itself (each tile
/// placed where it values the afterstate most, now and then at random), each afterstate's
/// value moved towards the next one's and the last towards the game's return. Decks are seeds
/// --seed + 1,000,000 on; the result and the playout policy alone are scored on --held-out
/// decks from --seed + 5,000,000. The file is read by `--bot mcts/solo_td=FILE` (solo)
/// and is the form of crates/sagani-ai/data/solo-td-trained.json.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani train --games 60 --iterations 2000 --out policy.json\n  sagani train --solo --games 400 --steps 30 --out solo.json\n  sagani train --td --games 300000 --out solo-td.json\n  sagani solo --bot mcts/solo_td=solo-td.json --games 100\n  sagani arena --bots mcts/policy=policy.json,mcts --sprt 0,30 --games 400 --budget-ms 250\n  sagani train --value --games 20000 --out value.json\n  sagani arena --bots mcts/playout_depth=8/value=value.json,mcts --sprt 0,30 --budget-ms 250"
)]
pub struct Args {
    /// Learn the value of solo positions by temporal differences (see above) [--games
    /// default: 300000].
    #[arg(long, conflicts_with_all = ["value", "solo"])]
    td: bool,
    /// With --td: games played by the solo playout policy first.
    #[arg(long, requires = "td", default_value_t = 20_000)]
    warm: u64,
    /// With --td: held-out decks the result and the playout policy are scored on.
    #[arg(long, requires = "td", default_value_t = 1000)]
    held_out: u64,
    /// Fit the evaluation of positions (for cut playouts) instead of the move policy.
    #[arg(long, conflicts_with = "solo")]
    value: bool,
    /// Tune the solo playout policy by what its own solo games score (cross-entropy method):
    /// --games is the decks each candidate plays [default: 400], --steps the generations
    /// [default: 30]; --from is where it starts.
    #[arg(long)]
    solo: bool,
    /// With --solo: keep --from's positional weights (spoil, aim, reach, next_reach) as they
    /// are and tune the others (a policy without them stays as fast as it was).
    #[arg(long, requires = "solo")]
    keep_positional: bool,
    /// With --value: fit solo in two parts, the share of the return the tiles used earn and
    /// the chance of a symphony (its bonus a step at 25 tiles that one curve fits badly).
    #[arg(long, requires = "value")]
    solo_parts: bool,
    /// With --value: let the solo evaluation weigh where the display leaves room (room_tile,
    /// room, hubs: worked out at every cut playout, so slower; not in the shipped evaluation).
    #[arg(long, requires = "value")]
    room: bool,
    /// Self-play games [default: 60; with --value, 20000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(5..))]
    games: Option<u64>,
    /// Players per game, taken in turn (comma-separated, 1 to 4) [default: 2,3,4; with
    /// --value, 1,2,3,4].
    #[arg(long, value_delimiter = ',')]
    players: Option<Vec<u8>>,
    /// Search iterations a self-play decision [default: 2000]; with --value, given, the
    /// games are played on by the search at this many iterations a move instead of by the
    /// playout policy.
    #[arg(long, value_parser = crate::seats::at_least_one)]
    iterations: Option<u64>,
    /// Seed of the decks and the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (each search on one thread; with --solo, candidates scored at
    /// once); default: the machine's cores.
    #[arg(long)]
    threads: Option<usize>,
    /// The self-play search's policy: "trained" (the shipped one), "solo-trained" (the shipped
    /// one for solo games), "hand" (the hand-set one) or a policy file; with --value, the
    /// playout policy the evaluation is for; with --solo, where the tuning starts [default:
    /// trained, and solo-trained in solo games].
    #[arg(long)]
    from: Option<String>,
    /// Steps of the fit [default: 300; with --value, 200].
    #[arg(long, value_parser = crate::seats::at_least_one)]
    steps: Option<u64>,
    /// L2 penalty on the standardised weights.
    #[arg(long, default_value_t = 0.001)]
    l2: f64,
    /// Where to write the policy (or with --value the evaluation), as JSON.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

pub fn run(args: Args) -> ExitCode {
    exit(run_inner(args))
}

fn run_inner(args: Args) -> Result<(), CliError> {
    // The file is the product: `sagani train … | head` must still write it.
    crate::out::keep_going();
    let players = args.players.clone().unwrap_or_else(|| match args.value {
        true => vec![1, 2, 3, 4],
        false => vec![2, 3, 4],
    });
    if let Some(bad) = players.iter().find(|p| !(1..=4).contains(*p)) {
        return Err(CliError::Usage(format!("--players: {bad} is not 1 to 4")));
    }
    if args.solo_parts && !players.contains(&1) {
        return Err(CliError::Usage(format!(
            "--solo-parts: --players {} has no solo games to fit in two parts",
            joined(&players)
        )));
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(CliError::Usage(format!(
            "--l2 {}: a penalty is 0 or more",
            args.l2
        )));
    }
    let mut mcts = MctsConfig::default();
    mcts.set(&format!(
        "policy={}",
        args.from.as_deref().unwrap_or("trained")
    ))?;
    let solo_from = args.from.as_deref().unwrap_or("solo-trained");
    mcts.set(&format!("solo_policy={solo_from}"))?;
    // Fail before hours of self-play, not after (without emptying a file already there).
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&args.out)
        .map_err(CliError::io(format!("--out {}", args.out.display())))?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    if args.value {
        return value(&args, &players, mcts, threads);
    }
    if args.solo {
        return solo(&args, mcts);
    }
    if args.td {
        return td(&args, &mcts);
    }
    let games = args.games.unwrap_or(60);
    let steps = args.steps.unwrap_or(300);
    let sp = SelfPlay {
        games,
        players: players.to_vec(),
        iterations: args.iterations.unwrap_or(2000),
        seed: args.seed,
        threads,
        mcts,
    };
    let bar = progress(games, "games");
    let choices = self_play(&sp, &|_| bar.inc(1))?;
    bar.finish_and_clear();
    let f = fit(&choices, |g| g % 5 == 4, steps as usize, args.l2);
    let policy = f.policy();
    let hand = Policy::hand();
    say!(
        "{} decisions from {} games ({} fitted, {} held out)",
        choices.len(),
        games,
        f.fitted,
        f.held_out
    );
    say!("{:<18} {:>9} {:>9}", "feature", "fitted", "hand");
    for (i, name) in FEATURES.iter().enumerate() {
        say!(
            "{name:<18} {:>9.3} {:>9.3}",
            policy.weights[i],
            hand.weights[i]
        );
    }
    say!(
        "{:<18} {:>9.3} {:>9}",
        "intermezzo",
        policy.intermezzo.unwrap_or(0.0),
        "(1 in 8)"
    );
    say!("{:<18} {:>9.3} {:>9.3}", "pass", policy.pass, hand.pass);
    say!(
        "log-likelihood a decision: {:.3} fitted, {:.3} held out",
        f.log_likelihood,
        f.held_out_log_likelihood
    );
    say!(
        "held out, the search's move is the policy's best: fitted {:.1}%, hand-set {:.1}%",
        100.0 * f.held_out_accuracy,
        100.0 * f.hand_accuracy
    );
    let mut note = BTreeMap::new();
    let command = format!(
        "sagani train --games {games} --players {} --iterations {} --seed {}{} --steps {steps} --l2 {}",
        joined(&players),
        args.iterations.unwrap_or(2000),
        args.seed,
        from_arg(&args),
        args.l2
    );
    note.insert("command".into(), command.into());
    note.insert("decisions".into(), choices.len().into());
    note.insert("held_out_accuracy".into(), f.held_out_accuracy.into());
    note.insert("hand_accuracy".into(), f.hand_accuracy.into());
    note.insert(
        "held_out_log_likelihood".into(),
        f.held_out_log_likelihood.into(),
    );
    let text = serde_json::to_string_pretty(&policy.to_file(note)).expect("policies serialise");
    std::fs::write(&args.out, text + "\n")
        .map_err(CliError::io(format!("--out {}", args.out.display())))?;
    say!("wrote {}", args.out.display());
    Ok(())
}

/// `--td`: learns the solo value, scores it and the playout policy on held-out decks, writes it.
fn td(args: &Args, mcts: &MctsConfig) -> Result<(), CliError> {
    use sagani_lab::td_learn::{learn, score, TdLearn};
    let cfg = TdLearn {
        games: args.games.unwrap_or(300_000),
        warm: args.warm,
        seed: args.seed,
        symphony: mcts.symphony_bonus,
        ..TdLearn::default()
    };
    let bar = progress(cfg.warm + cfg.games, "games");
    let td = learn(&cfg, &mcts.solo_policy, &|_| bar.inc(1));
    bar.finish_and_clear();
    let held = args.seed.wrapping_add(5_000_000);
    let mine = score(&td, held, args.held_out, cfg.symphony);
    let policy = sagani_lab::solo_tune::score(&mcts.solo_policy, held, args.held_out, cfg.symphony);
    say!(
        "held out ({} decks from {held}): the value alone reached 75 on {}, {} symphonies, \
         mean tiles {:.2}; the playout policy alone reached 75 on {}, {} symphonies, mean \
         tiles {:.2}",
        mine.decks,
        mine.reached,
        mine.symphonies,
        mine.mean_tiles,
        policy.reached,
        policy.symphonies,
        policy.mean_tiles
    );
    let command = format!(
        "sagani train --td --games {} --warm {} --seed {} --held-out {}{}",
        cfg.games,
        cfg.warm,
        cfg.seed,
        args.held_out,
        from_arg(args)
    );
    let note = serde_json::json!({
        "command": command,
        "held_out_symphonies": mine.symphonies,
        "held_out_mean_tiles": mine.mean_tiles,
    });
    std::fs::write(&args.out, td.to_json(note) + "\n")
        .map_err(CliError::io(format!("--out {}", args.out.display())))?;
    say!("wrote {}", args.out.display());
    Ok(())
}

/// " --from X" when --from was given, for the command a file notes.
fn from_arg(args: &Args) -> String {
    args.from
        .as_deref()
        .map_or(String::new(), |f| format!(" --from {f}"))
}

fn joined(players: &[u8]) -> String {
    players
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// `--value`: plays the positions, fits the evaluation, reports it and writes it.
fn value(args: &Args, players: &[u8], mcts: MctsConfig, threads: usize) -> Result<(), CliError> {
    let games = args.games.unwrap_or(20_000);
    let steps = args.steps.unwrap_or(200);
    let symphony_bonus = mcts.symphony_bonus;
    let p = Positions {
        games,
        players: players.to_vec(),
        seed: args.seed,
        threads,
        mcts,
        search: args.iterations,
    };
    let bar = progress(games, "games");
    let samples = positions(&p, &|_| bar.inc(1))?;
    bar.finish_and_clear();
    let parts = args.solo_parts.then_some(symphony_bonus);
    let f = value_train::fit(
        &samples,
        |g| g % 5 == 4,
        steps as usize,
        args.l2,
        parts,
        args.room,
    );
    say!(
        "{} positions' seats from {games} games; held out (1 game in 5):",
        samples.len()
    );
    say!(
        "{:<8} {:>8} {:>8} {:>14} {:>14} {:>14} {:>14}",
        "players",
        "fitted",
        "held out",
        "cross-entropy",
        "(score alone)",
        "squared error",
        "(score alone)"
    );
    for r in &f.report {
        if r.held_out == 0 {
            // Every fifth game had another player count (--players repeats one).
            say!(
                "{:<8} {:>8} {:>8}   no game of theirs was held out",
                r.players,
                r.fitted,
                0
            );
            continue;
        }
        say!(
            "{:<8} {:>8} {:>8} {:>14.4} {:>14.4} {:>14.4} {:>14.4}",
            r.players,
            r.fitted,
            r.held_out,
            r.cross_entropy,
            r.score_only_cross_entropy,
            r.squared_error,
            r.score_only_squared_error
        );
        if let Some((ce, se)) = r.one_curve {
            say!(
                "{:<8} {:>8} {:>8} {:>14.4} {:>14} {:>14.4}   (solo in one curve)",
                "",
                "",
                "",
                ce,
                "",
                se
            );
        }
    }
    let names = sagani_ai::value::feature_names();
    // A column of weights for each player count fitted.
    let mut counts = players.to_vec();
    counts.sort_unstable();
    counts.dedup();
    // The counts not played keep the shipped weights (`value_train::fit`).
    let value = &f.value;
    let kept: Vec<u8> = (1..=4).filter(|n| !counts.contains(n)).collect();
    if !kept.is_empty() {
        say!(
            "games of {} players were not played: their weights are the shipped evaluation's",
            joined(&kept)
        );
    }
    let header: String = counts.iter().map(|n| format!(" {n:>9}")).collect();
    say!("{:<18}{header}", "feature");
    for (i, name) in names.iter().enumerate() {
        let row: String = counts
            .iter()
            .map(|&n| format!(" {:>9.3}", value.weights[n as usize - 1][i]))
            .collect();
        say!("{name:<18}{row}");
    }
    if let Some(sym) = &value.symphony {
        say!("solo in two parts: players 1 above is the tiles' share; the symphony's chance:");
        for (name, w) in names.iter().zip(sym) {
            say!("{name:<18} {w:>9.3}");
        }
    }
    let mut note = BTreeMap::new();
    note.insert(
        "command".into(),
        format!(
            "sagani train --value --games {games} --players {} --seed {}{}{}{}{} --steps {steps} --l2 {}",
            joined(players),
            args.seed,
            args.iterations
                .map_or(String::new(), |n| format!(" --iterations {n}")),
            if args.solo_parts { " --solo-parts" } else { "" },
            if args.room { " --room" } else { "" },
            from_arg(args),
            args.l2
        )
        .into(),
    );
    note.insert("samples".into(), samples.len().into());
    // The solo returns it was fitted to include this bonus (`mcts/symphony_bonus`).
    note.insert("symphony_bonus".into(), symphony_bonus.into());
    if !kept.is_empty() {
        note.insert("shipped_weights_for".into(), joined(&kept).into());
    }
    for r in f.report.iter().filter(|r| r.held_out > 0) {
        note.insert(
            format!("held_out_cross_entropy_{}", r.players),
            r.cross_entropy.into(),
        );
        note.insert(
            format!("held_out_cross_entropy_score_alone_{}", r.players),
            r.score_only_cross_entropy.into(),
        );
        if let Some((ce, _)) = r.one_curve {
            note.insert(
                format!("held_out_cross_entropy_one_curve_{}", r.players),
                ce.into(),
            );
        }
    }
    let text = serde_json::to_string_pretty(&value.to_file(note)).expect("evaluations serialise");
    std::fs::write(&args.out, text + "\n")
        .map_err(CliError::io(format!("--out {}", args.out.display())))?;
    say!("wrote {}", args.out.display());
    Ok(())
}

/// `--solo`: tunes the solo playout policy by its games, reports it and writes it.
fn solo(args: &Args, mcts: MctsConfig) -> Result<(), CliError> {
    use sagani_lab::solo_tune::{score, tune, SoloScore, SoloTune};
    let decks = args.games.unwrap_or(400);
    let generations = args.steps.unwrap_or(30) as u32;
    let t = SoloTune {
        decks,
        generations,
        population: 40,
        seed: args.seed,
        symphony: mcts.symphony_bonus,
        keep_positional: args.keep_positional,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
    };
    let line = |s: &SoloScore| {
        format!(
            "mean return {:.4}, symphonies {} of {}, mean tiles to 75 {:.2}",
            s.mean_return, s.symphonies, s.decks, s.mean_tiles
        )
    };
    let start = mcts.solo_policy.clone();
    let held_out = args.seed + decks;
    let before = score(&start, held_out, decks, t.symphony);
    let start_name = args.from.as_deref().unwrap_or("solo-trained");
    say!("start ({start_name}), held out: {}", line(&before));
    let policy = tune(&start, &t, &mut |g, s| say!("generation {g}: {}", line(s)));
    let after = score(&policy, held_out, decks, t.symphony);
    say!("tuned, held out: {}", line(&after));
    say!("{:<18} {:>9} {:>9}", "feature", "tuned", "start");
    for (i, name) in FEATURES.iter().enumerate() {
        say!(
            "{name:<18} {:>9.3} {:>9.3}",
            policy.weights[i],
            start.weights[i]
        );
    }
    let mut note = BTreeMap::new();
    note.insert(
        "command".into(),
        format!(
            "sagani train --solo --games {decks} --steps {generations} --seed {}{}{}",
            args.seed,
            from_arg(args),
            if args.keep_positional {
                " --keep-positional"
            } else {
                ""
            }
        )
        .into(),
    );
    note.insert("held_out_mean_return".into(), after.mean_return.into());
    note.insert("held_out_symphonies".into(), after.symphonies.into());
    note.insert("held_out_decks".into(), decks.into());
    note.insert(
        "start_held_out_mean_return".into(),
        before.mean_return.into(),
    );
    note.insert("start_held_out_symphonies".into(), before.symphonies.into());
    let text = serde_json::to_string_pretty(&policy.to_file(note)).expect("policies serialise");
    std::fs::write(&args.out, text + "\n")
        .map_err(CliError::io(format!("--out {}", args.out.display())))?;
    say!("wrote {}", args.out.display());
    Ok(())
}
