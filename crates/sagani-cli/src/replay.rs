//! `sagani replay`: check a game record and print the state it reaches (RECORD.md).

use crate::error::CliError;
use crate::out::say;
use sagani_core::record::{replay_json, Summary};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Replay a game record and print the state it reaches as JSON.
///
/// On success: the state as one JSON object on standard output, exit status 0. On an illegal or
/// malformed record: nothing on standard output, one line on standard error
/// (`move N: reason` or `record: reason`), exit status 1.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani replay examples/two-player-game.json\n  cat game.json | sagani replay -"
)]
pub struct Args {
    /// The record file, or `-` for standard input.
    file: PathBuf,
}

/// The text of a record file, or of standard input for `-`.
pub fn read_record(file: &Path) -> Result<String, CliError> {
    let text = if file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(file)
    };
    text.map_err(CliError::io(format!(
        "record: cannot read {}",
        file.display()
    )))
}

pub fn run(args: Args) -> ExitCode {
    let text = match read_record(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    match replay_json(&text) {
        Ok((_, game)) => {
            let json = serde_json::to_string_pretty(&Summary::of(&game))
                .expect("a summary always serialises");
            say!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            // One line, whatever the reason says.
            eprintln!("{}", e.to_string().replace('\n', " "));
            ExitCode::from(1)
        }
    }
}
