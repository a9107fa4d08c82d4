//! `sagani train`: fits the search's move policy to its own self-play (`sagani_ai::train`),
//! or with `--value` the evaluation its cut playouts end with (`sagani_ai::value_train`).

use crate::arena::progress;
use crate::out::say;
use crate::seats::exit;
use sagani_ai::policy::{Policy, FEATURES};
use sagani_ai::train::{fit, self_play, SelfPlay};
use sagani_ai::value_train::{self, positions, Positions};
use sagani_ai::MctsConfig;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

/// Tune the mcts move policy from self-play, and write it as a policy file; or, with
/// --value, fit the evaluation of positions that ends its cut playouts.
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
/// noisy moves, then the playout policy of --from plays them to the end; every third
/// position of that part is kept, for each seat, with the return the seat got at the end. A
/// logistic regression per player count (what a seat holds against the others, or in solo
/// what it holds: score, points on the way, the tiles' worth, open arrows, discs, whether it
/// acts, each also times how far the pile is drawn and in the final round) is fitted to 4
/// games in 5 and scored on the fifth, beside a fit of the score alone. Player counts not
/// played keep the shipped weights.
/// The file is read by `--bots mcts/value=FILE` (arena, solo, play) and is the form of
/// crates/sagani-ai/data/value-trained.json.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani train --games 60 --iterations 2000 --out policy.json\n  sagani arena --bots mcts/policy=policy.json,mcts --sprt 0,30 --games 400 --budget-ms 250\n  sagani train --value --games 20000 --out value.json\n  sagani arena --bots mcts/playout_depth=8/value=value.json,mcts --sprt 0,30 --budget-ms 250"
)]
pub struct Args {
    /// Fit the evaluation of positions (for cut playouts) instead of the move policy.
    #[arg(long)]
    value: bool,
    /// Self-play games [default: 60; with --value, 20000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(5..))]
    games: Option<u64>,
    /// Players per game, taken in turn (comma-separated, 1 to 4) [default: 2,3,4; with
    /// --value, 1,2,3,4].
    #[arg(long, value_delimiter = ',')]
    players: Option<Vec<u8>>,
    /// Search iterations a self-play decision (not with --value: its games are played by the
    /// playout policy).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    iterations: u64,
    /// Seed of the decks and the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (each search on one thread); default: the machine's cores.
    #[arg(long)]
    threads: Option<usize>,
    /// The self-play search's policy: "trained" (the shipped one), "hand" (the hand-set one) or
    /// a policy file; with --value, the playout policy the evaluation is for.
    #[arg(long, default_value = "trained")]
    from: String,
    /// Steps of the fit [default: 300; with --value, 200].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    steps: Option<u64>,
    /// L2 penalty on the standardised weights.
    #[arg(long, default_value_t = 0.001)]
    l2: f64,
    /// Where to write the policy (or with --value the evaluation), as JSON.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

pub fn run(args: Args) -> ExitCode {
    exit(run_inner(args).map_err(|e| format!("error: {e}")))
}

fn run_inner(args: Args) -> Result<(), String> {
    let players = args.players.clone().unwrap_or_else(|| match args.value {
        true => vec![1, 2, 3, 4],
        false => vec![2, 3, 4],
    });
    if let Some(bad) = players.iter().find(|p| !(1..=4).contains(*p)) {
        return Err(format!("--players: {bad} is not 1 to 4"));
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(format!("--l2 {}: a penalty is 0 or more", args.l2));
    }
    let mut mcts = MctsConfig::default();
    mcts.set(&format!("policy={}", args.from))?;
    mcts.set(&format!("solo_policy={}", args.from))?;
    // Fail before hours of self-play, not after (without emptying a file already there).
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&args.out)
        .map_err(|e| format!("--out {}: {e}", args.out.display()))?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    if args.value {
        return value(&args, &players, mcts, threads);
    }
    let games = args.games.unwrap_or(60);
    let steps = args.steps.unwrap_or(300);
    let sp = SelfPlay {
        games,
        players: players.to_vec(),
        iterations: args.iterations,
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
        "sagani train --games {games} --players {} --iterations {} --seed {} --from {} --steps {steps} --l2 {}",
        joined(&players),
        args.iterations,
        args.seed,
        args.from,
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
        .map_err(|e| format!("--out {}: {e}", args.out.display()))?;
    say!("wrote {}", args.out.display());
    Ok(())
}

fn joined(players: &[u8]) -> String {
    players
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// `--value`: plays the positions, fits the evaluation, reports it and writes it.
fn value(args: &Args, players: &[u8], mcts: MctsConfig, threads: usize) -> Result<(), String> {
    let games = args.games.unwrap_or(20_000);
    let steps = args.steps.unwrap_or(200);
    let symphony_bonus = mcts.symphony_bonus;
    let p = Positions {
        games,
        players: players.to_vec(),
        seed: args.seed,
        threads,
        mcts,
    };
    let bar = progress(games, "games");
    let samples = positions(&p, &|_| bar.inc(1))?;
    bar.finish_and_clear();
    let f = value_train::fit(&samples, |g| g % 5 == 4, steps as usize, args.l2);
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
    let mut note = BTreeMap::new();
    note.insert(
        "command".into(),
        format!(
            "sagani train --value --games {games} --players {} --seed {} --from {} --steps {steps} --l2 {}",
            joined(players),
            args.seed,
            args.from,
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
    }
    let text = serde_json::to_string_pretty(&value.to_file(note)).expect("evaluations serialise");
    std::fs::write(&args.out, text + "\n")
        .map_err(|e| format!("--out {}: {e}", args.out.display()))?;
    say!("wrote {}", args.out.display());
    Ok(())
}
