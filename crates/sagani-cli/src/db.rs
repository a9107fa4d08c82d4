//! `sagani db`: what an operator does to a database besides serving it: copy it to another
//! store (moving a site up from SQLite to PostgreSQL), back it up while it is served, bring its
//! schema up to date.

use crate::error::CliError;
use crate::out::say;
use crate::seats::exit;
use sagani_server::store::{self, is_postgres, shown, SqliteStore};
use std::path::PathBuf;
use std::process::ExitCode;

/// Copy, back up or migrate a game database.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani db copy --from sagani.db --to postgres://sagani@127.0.0.1/sagani\n  sagani db backup sagani-2026-11-30.db --db sagani.db\n  sagani db migrate --db postgres://sagani@127.0.0.1/sagani\n\nMore in docs/operations.md."
)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Copy every game from one database into another, game by game, checking that each copy
    /// replays to the same state. Games already in the target must be identical (a copy can be
    /// run again); the source is not changed but for bringing its schema up to date.
    Copy {
        /// The database to copy from: a SQLite file or a postgres:// URL.
        #[arg(long, value_name = "FILE|URL")]
        from: String,
        /// The database to copy into (created and migrated if need be).
        #[arg(long, value_name = "FILE|URL")]
        to: String,
    },
    /// Copy a SQLite database to FILE with SQLite's online backup: a consistent snapshot, even
    /// while a server is writing to it (copying the .db file alone can lose moves). For
    /// PostgreSQL use pg_dump (docs/operations.md).
    Backup {
        /// The new file to write.
        file: PathBuf,
        /// The database to back up.
        #[arg(long, default_value = "sagani.db", value_name = "FILE")]
        db: PathBuf,
    },
    /// Bring a database's schema up to date (servers do this themselves when they start).
    Migrate {
        #[arg(long, default_value = "sagani.db", value_name = "FILE|URL")]
        db: String,
    },
}

pub fn run(args: Args) -> ExitCode {
    exit(run_inner(args))
}

fn run_inner(args: Args) -> Result<(), CliError> {
    crate::logging::init();
    let runtime =
        tokio::runtime::Runtime::new().map_err(CliError::io("cannot start the runtime"))?;
    match args.command {
        Command::Copy { from, to } => runtime.block_on(copy(&from, &to)),
        Command::Backup { file, db } => {
            SqliteStore::backup(&db, &file)?;
            say!("backed up {} to {}", db.display(), file.display());
            Ok(())
        }
        Command::Migrate { db } => runtime.block_on(async {
            if !is_postgres(&db) && !std::path::Path::new(&db).exists() {
                return Err(does_not_exist(&db));
            }
            store::open(&db, false).await?;
            say!("{} is up to date", shown(&db));
            Ok(())
        }),
    }
}

async fn copy(from: &str, to: &str) -> Result<(), CliError> {
    if from == to {
        return Err(CliError::Usage(
            "--from and --to name the same database".into(),
        ));
    }
    if !is_postgres(from) && !std::path::Path::new(from).exists() {
        return Err(does_not_exist(from));
    }
    let opened = |db: &str| {
        let db = shown(db);
        move |source| CliError::Database { db, source }
    };
    let source = store::open(from, false).await.map_err(opened(from))?;
    let target = store::open(to, false).await.map_err(opened(to))?;
    let total = source.counts().await?.games;
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games {eta}")
            .expect("a valid template"),
    );
    let report = store::copy(&*source, &*target, |_| bar.inc(1)).await;
    bar.finish_and_clear();
    let report = report?;
    say!(
        "copied {} games from {} to {} ({} were there already, identical); each copy replays to the same state",
        report.copied,
        shown(from),
        shown(to),
        report.already
    );
    for (game, why) in &report.skipped {
        say!("skipped game {game}: {why}");
    }
    if report.skipped.is_empty() {
        Ok(())
    } else {
        Err(CliError::Found(format!(
            "{} games could not be read and were not copied",
            report.skipped.len()
        )))
    }
}

fn does_not_exist(db: &str) -> CliError {
    CliError::Usage(format!("{db} does not exist"))
}
