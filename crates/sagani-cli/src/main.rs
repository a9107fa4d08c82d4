//! The `sagani` command: thin argument parsing over the crates that do the work.

mod arena;
mod bench;
mod daily;
mod db;
mod error;
mod hint;
mod ladder;
mod loadtest;
mod logging;
mod out;
mod play;
mod plot;
mod replay;
mod seats;
mod serve;
mod solo;
mod train;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "sagani",
    version,
    about = "Sagani, the tile-laying game by Uwe Rosenberg: rules engine and tools",
    after_help = "Examples:\n  sagani replay examples/two-player-game.json\n  sagani bench --players 2 --games 200000\n  sagani arena --bots mcts,greedy --games 200 --budget-ms 1000\n  sagani solo --bot mcts --games 100\n  sagani ladder --games 300\n  sagani hint game.json\n  sagani serve\n  sagani db copy --from sagani.db --to postgres://127.0.0.1/sagani\n  sagani play --players 3 --bots mcts,greedy\n  sagani view game.json\n  sagani daily --server http://127.0.0.1:8080\n  sagani loadtest --games 500 --seconds 30\n  sagani train --games 60 --out policy.json"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Replay(replay::Args),
    Bench(bench::Args),
    Arena(arena::Args),
    Solo(solo::Args),
    Hint(hint::Args),
    Serve(serve::Args),
    Db(db::Args),
    Loadtest(loadtest::Args),
    Play(play::Args),
    View(play::ViewArgs),
    Daily(daily::Args),
    Train(train::Args),
    Ladder(ladder::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Replay(args) => replay::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Solo(args) => solo::run(args),
        Command::Hint(args) => hint::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Db(args) => db::run(args),
        Command::Loadtest(args) => loadtest::run_cmd(args),
        Command::Play(args) => play::run(args),
        Command::View(args) => play::view(args),
        Command::Daily(args) => daily::run(args),
        Command::Train(args) => train::run(args),
        Command::Ladder(args) => ladder::run(args),
    }
}
