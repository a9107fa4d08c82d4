//! `sagani db`: what an operator does to a database besides serving it: copy it to another
//! store (moving a site up from SQLite to PostgreSQL), back it up while it is served, bring its
//! schema up to date.

use crate::error::CliError;
use crate::out::say;
use crate::seats::exit;
use sagani_server::store::{self, location, shown, Location, SqliteStore, SKIPPED};
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
    /// Copy a whole site from one database into another, empty one: accounts, log-ins,
    /// ratings, games with their seats, moves and chat, the daily challenge. Then compare every
    /// copied table on both sides and replay every game, and print each table's rows on both
    /// sides. A target that holds any of these rows is refused; the source is not changed but
    /// for bringing its schema up to date.
    Copy {
        /// The database to copy from: a SQLite file (a path or sqlite://PATH) or a
        /// postgres:// URL.
        #[arg(long, value_name = "FILE|URL")]
        from: String,
        /// The database to copy into (created and migrated if need be).
        #[arg(long, value_name = "FILE|URL")]
        to: String,
    },
    /// Copy a SQLite database to FILE with SQLite's online backup: a consistent snapshot, even
    /// while a server is writing to it (copying the .db file alone can lose moves). A
    /// PostgreSQL database is backed up with pg_dump (the command says how; docs/operations.md).
    Backup {
        /// The new file to write.
        file: PathBuf,
        /// The database to back up.
        #[arg(long, default_value = "sagani.db", value_name = "FILE")]
        db: String,
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
        Command::Backup { file, db } => backup(&file, &db),
        Command::Migrate { db } => runtime.block_on(async {
            existing(&db)?;
            store::open(&db, false).await?;
            say!("{} is up to date", shown(&db));
            Ok(())
        }),
    }
}

/// `db` names a database there is (a SQLite file that exists), or a PostgreSQL one.
fn existing(db: &str) -> Result<Location, CliError> {
    let at = location(db)?;
    if let Location::Sqlite(path) = &at {
        if !path.exists() {
            return Err(does_not_exist(db));
        }
    }
    Ok(at)
}

fn backup(file: &std::path::Path, db: &str) -> Result<(), CliError> {
    match existing(db)? {
        Location::Sqlite(path) => {
            SqliteStore::backup(&path, file)?;
            say!("backed up {} to {}", path.display(), file.display());
            Ok(())
        }
        // A consistent snapshot of a live PostgreSQL database is pg_dump's work (one
        // transaction over every table); restored with pg_restore into an empty database.
        Location::Postgres(_) => Err(CliError::Usage(format!(
            "a PostgreSQL database is backed up with pg_dump, not by sagani: pg_dump \
             --format=custom --file {} '{}' (restore into an empty database with pg_restore \
             --dbname URL FILE; docs/operations.md, Backups)",
            file.display(),
            shown(db)
        ))),
    }
}

async fn copy(from: &str, to: &str) -> Result<(), CliError> {
    if from == to {
        return Err(CliError::Usage(
            "--from and --to name the same database".into(),
        ));
    }
    existing(from)?;
    location(to)?;
    let source = store::open(from, false).await?;
    let target = store::open(to, false).await?;
    let mut total = 0;
    for t in store::COPIED {
        total += source.row_count(t.name).await?;
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rows {eta}")
            .expect("a valid template"),
    );
    let report = store::copy(&*source, &*target, |n| bar.inc(n)).await;
    bar.finish_and_clear();
    let report = report?;
    let (a, b) = (shown(from), shown(to));
    say!("copied {a} to {b}");
    say!("{:<16} {:>12} {:>12}", "table", "from (rows)", "to (rows)");
    for t in &report.tables {
        say!("{:<16} {:>12} {:>12}", t.table, t.from, t.to);
    }
    say!(
        "checked: each table has the same number of rows on both sides, and the same rows \
         (a SHA-256 digest of every row's every column); {} games read back alike and replay \
         to the same state",
        report.games
    );
    for (table, why) in SKIPPED {
        say!("not copied: {table} ({why})");
    }
    for (game, why) in &report.damaged {
        say!("game {game} does not replay in the source either; copied as it is: {why}");
    }
    if report.damaged.is_empty() {
        Ok(())
    } else {
        Err(CliError::Found(format!(
            "{} games do not replay (in the source either)",
            report.damaged.len()
        )))
    }
}

fn does_not_exist(db: &str) -> CliError {
    CliError::Usage(format!("{db} does not exist"))
}
